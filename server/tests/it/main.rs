//! The integration tests: one binary (so the suite links once), grouped in folders that
//! mirror `server/src/` (`api/`, `admin/`, `store/`, `ops/`, …), one module per concern.
//! They start the real application over real HTTP, the real `site` binary, a real SMTP
//! server and real databases (PostgreSQL whenever TEST_DATABASE_URL names one).
//!
//! Every test shares this process with the others, two or more at a time: none may set an
//! environment variable, change the working directory or rely on a process-wide count
//! (configuration goes in explicitly, `common::config`; what must own the process runs in a
//! child, as `admin::export`'s memory test does). A filter picks tests by a piece of
//! `module::test_name`: `cargo test -p site-server --test it admin::leads::`, or a whole folder: `admin::`.

mod common;

mod app;
mod catalogue;
mod cli;
mod docs;
mod routes;
mod wire;
mod zero_copy;
mod admin {
    mod access;
    mod campaigns;
    mod data_requests;
    mod export;
    mod funnel;
    mod leads;
    mod load;
    mod submissions;
    mod suppressions;
}
mod api {
    mod account_requests;
    mod campaign_applications;
    mod campaign_applications_hostile;
    mod derived_values;
    mod form;
    mod input_rules;
    mod submit_lead;
}
mod notify {
    mod delivery;
    mod delivery_checks;
    mod policy;
}
mod ops {
    mod commands;
    mod copy_store;
    mod crash;
    mod deploy;
    mod process;
    mod release;
    mod rolling;
    mod systemd;
}
mod pages {
    mod weight;
}
mod render {
    mod failures;
}
mod security {
    mod exposure;
    mod hardening;
}
mod staff {
    mod accounts;
    mod signin;
}
mod store {
    mod campaigns;
    mod contract;
    mod intake;
    mod lead_fields;
    mod postgres;
    mod several_servers;
    mod shared_limits;
}
