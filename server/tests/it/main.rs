//! The integration tests: one binary (so the suite links once), one module per concern.
//! They start the real application over real HTTP, the real `site` binary, a real SMTP
//! server and real databases (PostgreSQL whenever TEST_DATABASE_URL names one).
//!
//! Every test shares this process with the others, two or more at a time: none may set an
//! environment variable, change the working directory or rely on a process-wide count
//! (configuration goes in explicitly, `common::config`; what must own the process runs in a
//! child, as `admin_export`'s memory test does). A filter picks tests by a piece of
//! `module::test_name`: `cargo test -p site-server --test it admin_leads::`.

mod common;

mod accounts;
mod admin_access;
mod admin_data_requests;
mod admin_export;
mod admin_funnel;
mod admin_leads;
mod admin_load;
mod admin_submissions;
mod admin_suppressions;
mod api;
mod app;
mod campaign_applications;
mod campaign_applications_hostile;
mod catalogue;
mod cli;
mod copy_store;
mod crash;
mod delivery_checks;
mod deploy;
mod derived_values;
mod docs;
mod exposure;
mod hardening;
mod input_rules;
mod intake;
mod notify;
mod notify_policy;
mod ops;
mod page_weight;
mod process;
mod refused_forms;
mod release;
mod render_failures;
mod rolling;
mod routes;
mod several_servers;
mod shared_limits;
mod signin;
mod staff;
mod store;
mod store_postgres;
mod systemd;
