//! The whole HTTP application, assembled in one place: the page routes and every API
//! family's own router, under the security headers. Tests drive it over real HTTP
//! (`serve::serve`, as the binary does) or in process (`tower::ServiceExt::oneshot`).
//!
//! `fn app(state) -> Site`: the service the site's listener runs. Before hyper sees a
//! connection, `wire` answers its plain GETs of cached pages through [`Site`]'s `wire::Answers`
//! (the same page, document and head as below); what it does not answer comes here. A GET of
//! a canonical page whose document is in the render cache is answered at once from it
//! (`routes::cached_page`), without the router; everything else goes through [`router`]: the page routes and every API
//! family's `router()` under `api::guard`, each answer counted and timed by its route. Both
//! ways end the same: the security headers added, the answer counted by status class and timed
//! by route for /metrics, a server error logged. `metrics_app` is the metrics listener's router.
//!
//! Why the cached page skips the router: each layer the router wraps around a route is a boxed
//! service, cloned and called per request, with its future boxed too, and the cached page, the
//! site's most common answer, paid for eight of them: about four fifths of its instructions
//! (docs/decisions/030-the-cached-page-at-the-limit.md). No route of the router serves a path
//! of the page table (the page table's paths are the canonical pages; the router's are
//! /healthz, /assets/…, the API's, the console's and the forms' own pages), so the answer is
//! the one the router's page fallback would give; `app::the_fast_path_answers_as_the_router_does`
//! (server/tests/it/app.rs) holds them equal.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Instant;

use axum::Router;
use axum::body::{Bytes, HttpBody};
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::{Next, from_fn_with_state};
use axum::response::Response;
use axum::routing::future::RouteFuture;
use tower::Service;

use crate::live::Follower;
use crate::metrics::Metrics;
use crate::pages::PageTable;
use crate::security::SecurityHeaders;
use crate::state::AppState;
use crate::{admin, api, routes};

/// The site's service: see the module documentation. Each connection has its own copy, and
/// with it its own [`Follower`] of the page table: one atomic load per request tells it that
/// its table is still the current one (`live.rs`), so a change of the campaigns costs the
/// cached page nothing between changes.
#[derive(Clone)]
pub struct Site {
    state: Arc<AppState>,
    pages: Follower<PageTable>,
    router: Router,
    /// The connection's peer (`serve::ForPeer`), put in the extensions of every request the
    /// router sees; None in process (a test's `oneshot` puts its own).
    peer: Option<SocketAddr>,
}

impl crate::serve::ForPeer for Site {
    type Service = Site;
    fn for_peer(&self, peer: SocketAddr) -> Site {
        Site {
            peer: Some(peer),
            ..self.clone()
        }
    }
}

/// The site for `state`: cached pages at once, everything else through [`router`].
pub fn app(state: Arc<AppState>) -> Site {
    Site {
        router: router(Arc::clone(&state)),
        pages: Follower::of(&state.pages),
        state,
        peer: None,
    }
}

/// The router for `state`: pages, redirects, assets, robots, sitemap and health
/// (`routes`), then one `router()` per API family. A new endpoint family adds its line here;
/// `api::guard` (deadlines, cross-site refusal, declared size, rate limit) covers every route.
/// [`Site`] adds the security headers to its answers (a page's answer carries them already).
pub fn router(state: Arc<AppState>) -> Router {
    let metrics = Arc::clone(&state.metrics);
    Router::new()
        .merge(routes::router())
        .merge(api::submit_lead::router())
        .merge(api::record_token::router())
        .merge(api::account_requests::router())
        .merge(api::campaign_applications::router())
        .layer(from_fn_with_state(Arc::clone(&state), api::guard::guard))
        // The console carries the same guard inside its own private headers.
        .merge(admin::router(Arc::clone(&state)))
        .with_state(state)
        .layer(from_fn_with_state(metrics, count_response))
}

impl<B> Service<axum::http::Request<B>> for Site
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: axum::http::Request<B>) -> Answer {
        if request.method() == Method::GET {
            let started = Instant::now();
            let pages = self.pages.get(&self.state.pages);
            // With the security headers already (made once per document).
            if let Some(response) = routes::cached_page(&self.state, pages, request.uri().path(), request.headers()) {
                observe(&self.state.metrics, &Method::GET, None, response.status().as_u16(), started);
                return Answer::Ready(Some(response));
            }
        }
        if let Some(peer) = self.peer {
            request.extensions_mut().insert(ConnectInfo(peer));
        }
        Answer::Routed(self.router.call(request), Arc::clone(&self.state.security))
    }
}

/// A connection's plain GETs of cached pages, answered off its bytes (`wire`): the same
/// page, document and head as [`Site::call`]'s cached page, counted and timed alike.
impl crate::wire::Answers for Site {
    fn cached(&mut self, get: &crate::wire::Get<'_>) -> Option<crate::wire::Wire> {
        let pages = self.pages.get(&self.state.pages);
        let wire = routes::cached_wire(&self.state, pages, get.path, get.accept_encoding)?;
        observe(&self.state.metrics, &Method::GET, None, 200, get.started);
        Some(wire)
    }
}

/// What [`Site`] answers with: a cached page at once, or the router's answer with the
/// security headers added.
pub enum Answer {
    Ready(Option<Response>),
    Routed(RouteFuture<Infallible>, Arc<SecurityHeaders>),
}

impl Future for Answer {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            // Taken once; a poll after that (a caller's mistake) gets an empty answer.
            Answer::Ready(response) => Poll::Ready(Ok(response.take().unwrap_or_default())),
            Answer::Routed(future, security) => {
                let Ok(mut response) = ready!(Pin::new(future).poll(cx));
                security.add_to(response.headers_mut());
                Poll::Ready(Ok(response))
            }
        }
    }
}

/// Counts and times every answer of the router by its route template (this layer wraps each
/// route, so the router has matched it; the route's `MatchedPath` is an `Arc<str>`).
async fn count_response(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let response = next.run(request).await;
    observe(
        &metrics,
        &method,
        route.as_ref().map(MatchedPath::as_str),
        response.status().as_u16(),
        started,
    );
    response
}

/// Every answer, however it was made: counted by status class (`site_http_responses_total`)
/// and timed by route template (`site_http_request_duration_seconds`; None: no template, a
/// page, a redirect or the not-found page) for /metrics, a few atomic adds under a shared lock
/// with nothing allocated. A 5xx is logged at error level with its latency; with
/// `RUST_LOG=site_server::app=debug` every answer is, with its method and route template
/// (never the path a visitor typed, its query, a header or the body), so no personal data
/// reaches the logs. A disabled debug line costs one check of a cached flag.
fn observe(metrics: &Metrics, method: &Method, route: Option<&str>, status: u16, started: Instant) {
    let took = started.elapsed();
    metrics.response(status);
    let route = metrics.request(route, status, took);
    let latency_us = took.as_micros() as u64;
    if status >= 500 {
        tracing::error!(%method, route, status, latency_us, "answered with a server error");
    } else {
        tracing::debug!(%method, route, status, latency_us, "answered");
    }
}

/// /metrics alone, for its own listener (`server.metrics_listen`): never on the site's.
pub fn metrics_app(state: Arc<AppState>) -> Router {
    routes::metrics_router().with_state(state)
}
