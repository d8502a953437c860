//! The whole HTTP application, assembled in one place: the page routes and every API
//! family's own router, under the security headers. Tests drive it over real HTTP
//! (`axum::serve`) or in process (`tower::ServiceExt::oneshot`).

use std::sync::Arc;

use axum::Router;
use axum::middleware::map_response_with_state;

use crate::state::AppState;
use crate::{api, routes, security};

/// The router for `state`: pages, redirects, assets, robots, sitemap, health and metrics
/// (`routes`), then one `router()` per API family. A new endpoint family adds its line here.
pub fn app(state: Arc<AppState>) -> Router {
    let headers = Arc::clone(&state.security);
    Router::new()
        .merge(routes::router())
        .merge(api::submit_lead::router())
        .merge(api::record_token::router())
        .with_state(state)
        .layer(map_response_with_state(headers, security::add_headers))
}
