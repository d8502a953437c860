//! What a screen's file gives the console: its routes, each a method, an axum path (`{id}`
//! stands for a record id) and its handler. `admin/mod.rs` puts every screen's behind the
//! session and CSRF check; a path ending in `.csv` or `.json` is a data route (`links::Kind`).

use std::sync::Arc;

use axum::http::Method;
use axum::routing::MethodRouter;

use crate::state::AppState;

/// A screen's routes.
pub type Routes = Vec<(Method, &'static str, MethodRouter<Arc<AppState>>)>;
