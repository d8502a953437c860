//! The RingReady web server: React pages rendered in QuickJS, served from a precompressed
//! cache, behind strict security headers. See README.md and docs/architecture.md.
//!
//! This file only declares the modules. Start reading at `state` (what every handler
//! shares), `app` (the router, assembled in one place) and `background` (the workers).

pub mod accounts;
pub mod admin;
pub mod api;
pub mod app;
pub mod applications;
pub mod assets;
pub mod background;
pub mod campaigns;
pub mod catalogue;
pub mod cli;
pub mod config;
pub mod cpus;
pub mod encoding;
pub mod forms;
pub mod hex;
pub mod leads;
pub mod live;
pub mod memory;
pub mod metrics;
pub mod noscript;
pub mod notify;
pub mod ops;
pub mod pages;
pub mod phone;
pub mod release;
pub mod render;
pub mod replication;
pub mod routes;
pub mod security;
pub mod serve;
pub mod staff;
pub mod state;
pub mod store;
pub mod systemd;
pub mod time;
pub mod urls;
pub mod wire;
pub mod zero_copy;

pub use app::{app, metrics_app};
pub use background::Background;
pub use state::{AppState, CatalogueSource, StartError};
