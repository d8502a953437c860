//! The whole HTTP application, assembled in one place: the page routes and every API
//! family's own router, under the security headers. Tests drive it over real HTTP
//! (`axum::serve`) or in process (`tower::ServiceExt::oneshot`).
//!
//! `fn app(state) -> Router`: the page routes and every API family's `router()` under
//! `api::guard` and the security headers, each answer counted by its status class; the
//! console's routes come from `admin`. `metrics_app` is the metrics listener's router.

use std::sync::Arc;

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::Response;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::metrics::Metrics;
use crate::security::SecurityHeaders;
use crate::state::AppState;
use crate::{admin, api, routes};

/// The router for `state`: pages, redirects, assets, robots, sitemap and health
/// (`routes`), then one `router()` per API family. A new endpoint family adds its line here;
/// `api::guard` (deadlines, cross-site refusal, declared size, rate limit) covers every route.
pub fn app(state: Arc<AppState>) -> Router {
    let headers = Arc::clone(&state.security);
    let metrics = Arc::clone(&state.metrics);
    let router = Router::new()
        .merge(routes::router())
        .merge(api::submit_lead::router())
        .merge(api::record_token::router())
        .merge(api::account_requests::router())
        .merge(api::campaign_applications::router())
        .layer(from_fn_with_state(Arc::clone(&state), api::guard::guard))
        // The console carries the same guard inside its own private headers.
        .merge(admin::router(Arc::clone(&state)))
        .with_state(state)
        .layer(from_fn_with_state(metrics, count_response));
    http_layers(router, &headers)
}

/// Counts every answer by status class (`site_http_responses_total`) and times it by route
/// template (`site_http_request_duration_seconds`) for /metrics. This layer wraps each route,
/// so the router has matched it; the route's `MatchedPath` is an `Arc<str>`, and recording
/// is a few atomic adds under a shared lock: nothing allocated per request.
async fn count_response(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    metrics.response(status);
    metrics.request(route.as_ref().map(MatchedPath::as_str), status, started.elapsed());
    response
}

/// tower-http around every answer: the security headers (an answer that set one itself
/// keeps its own) and request tracing. Every 5xx is logged at error level with its latency;
/// with `RUST_LOG=tower_http=debug` every answer is, inside a span holding the method and the
/// route template (`/{slug}`: never the path a visitor typed, its query, a header or the
/// body), so no personal data reaches the logs. The span is at debug level so that serving a
/// cached page costs no span when nobody asked for them.
fn http_layers(router: Router, headers: &SecurityHeaders) -> Router {
    let mut router = router;
    for (name, value) in headers.iter() {
        router = router.layer(SetResponseHeaderLayer::if_not_present(name.clone(), value.clone()));
    }
    router.layer(
        TraceLayer::new_for_http()
            .make_span_with(|request: &Request| {
                let route = request.extensions().get::<MatchedPath>().map_or("(no route)", MatchedPath::as_str);
                tracing::debug_span!("request", method = %request.method(), route)
            })
            .on_request(())
            .on_response(DefaultOnResponse::new().level(Level::DEBUG))
            .on_failure(DefaultOnFailure::new().level(Level::ERROR)),
    )
}

/// /metrics alone, for its own listener (`server.metrics_listen`): never on the site's.
pub fn metrics_app(state: Arc<AppState>) -> Router {
    routes::metrics_router().with_state(state)
}
