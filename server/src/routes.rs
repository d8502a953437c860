//! The page routes: pages, the unlisted pages (the thank-you pages and the apply page, chosen
//! by a query parameter: `pages::Unlisted`), redirects, not-found, static assets, robots,
//! sitemap, health and liveness; /metrics on its own listener (or behind a token). The API
//! families bring their own routers; `app.rs` merges them.
//!
//! An asset of another release (a rolling upgrade: a page of the old release asking for its
//! files) is read from the database, where each release records its own at start.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use subtle::ConstantTimeEq;

use crate::assets::{Asset, may_be_recorded};
use crate::encoding::{Coding, Encoded, HeadsFor, content_encoding, negotiate, not_modified};
use crate::forms::form_pairs;
use crate::metrics::RenderFigures;
use crate::pages::errors;
use crate::pages::{PageTable, PreparedPage, UNLISTED_PATHS};
use crate::render::Lane;
use crate::state::AppState;

/// Old and alternative paths (docs/product.md, "Pages"), answered 301 so no history entry is made.
pub const REDIRECTS: [(&str, &str); 17] = [
    ("/home-hvac", "/hvac"),
    ("/hvac-pro", "/hvac"),
    ("/new-hvac", "/hvac"),
    ("/home-roofing", "/roofing"),
    ("/roofing-pro", "/roofing"),
    ("/new-roofing", "/roofing"),
    ("/home-plumbing", "/plumbing"),
    ("/plumbing-pro", "/plumbing"),
    ("/home-flooring", "/flooring"),
    ("/new-flooring", "/flooring"),
    ("/flooring-alt", "/flooring"),
    ("/home-pest-control", "/pest-control"),
    ("/pest-control-pro", "/pest-control"),
    ("/home-siding", "/siding"),
    ("/new-siding", "/siding"),
    ("/services/live-call-answering", "/"),
    ("/services/call-recording", "/"),
];

pub fn router() -> Router<Arc<AppState>> {
    let mut router = Router::new();
    for path in UNLISTED_PATHS {
        router = router.route(path, get(unlisted));
    }
    router
        .route("/healthz", get(health))
        .route("/livez", get(|| async { "ok" }))
        .route("/robots.txt", get(robots))
        .route("/sitemap.xml", get(sitemap))
        .route("/favicon.svg", get(asset))
        .route("/assets/{file}", get(asset))
        .route("/legal/{file}", get(legal_fragment))
        .route("/metrics", get(metrics_behind_token))
        .fallback(page)
}

/// /metrics for the metrics listener: no token asked, the listener's address is the guard.
pub fn metrics_router() -> Router<Arc<AppState>> {
    Router::new().route("/metrics", get(metrics))
}

/// Readiness: 200 "ok" while the store's writer and at least one render engine are alive
/// and the server is not draining for a shutdown (`serve.rs`), else 503 naming what is down. Cheap (no database round trip): load balancers may poll
/// it often; /livez says only that the process answers.
async fn health(State(state): State<Arc<AppState>>) -> Response {
    let mut problems = Vec::new();
    if state.draining.load(std::sync::atomic::Ordering::Relaxed) {
        problems.push("draining: this server is shutting down".to_string());
    }
    if !state.store.writer_alive() {
        problems.push("store: the writer has stopped".to_string());
    }
    let pool = &state.renderer.pool;
    if pool.live_engines() == 0 {
        problems.push(format!("render: 0 of {} engines running", pool.engines()));
    }
    if problems.is_empty() {
        return "ok".into_response();
    }
    let mut r = (StatusCode::SERVICE_UNAVAILABLE, problems.join("\n") + "\n").into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Every other path: a page, a redirect, or the not-found page.
async fn page(State(state): State<Arc<AppState>>, request: Request) -> Response {
    let path = request.uri().path();
    let query = request.uri().query();
    if let Some((_, target)) = REDIRECTS.iter().find(|(from, _)| *from == path) {
        return redirect(target, query);
    }
    let pages = state.pages.get();
    if state.config.render.noscript_variants
        && let Some(stripped) = path.strip_prefix(NOSCRIPT_PREFIX)
        && let Some(prepared) = pages.routes.get(if stripped.is_empty() { "/" } else { stripped })
    {
        return serve_without_scripts(&state, path, prepared, request.headers()).await;
    }
    if let Some(prepared) = pages.routes.get(path) {
        if request.method() != Method::GET && request.method() != Method::HEAD {
            let mut r = StatusCode::METHOD_NOT_ALLOWED.into_response();
            r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return r;
        }
        return serve_page(&state, prepared, request.headers()).await;
    }
    // Near misses of a real page: a trailing slash or capitals.
    let normal = path.trim_end_matches('/').to_ascii_lowercase();
    if normal != path && pages.routes.contains_key(normal.as_str()) {
        return redirect(&normal, query);
    }
    let not_found = Arc::clone(&pages.not_found);
    serve_page(&state, &not_found, request.headers()).await
}

/// An unlisted page: the one its query parameter chooses (any other value, or none, the
/// page's default).
async fn unlisted(State(state): State<Arc<AppState>>, request: Request) -> Response {
    let table = state.pages.get();
    let Some(pages) = table.unlisted.get(request.uri().path()) else {
        let not_found = Arc::clone(&table.not_found);
        return serve_page(&state, &not_found, request.headers()).await;
    };
    let value = pages.param.and_then(|param| {
        let query = request.uri().query()?;
        form_pairs(query).into_iter().find(|(key, _)| key == param).map(|(_, value)| value)
    });
    serve_page(&state, pages.pick(value.as_deref()), request.headers()).await
}

/// 301 to `path`, keeping the query string (UTM parameters survive old links).
fn redirect(path: &str, query: Option<&str>) -> Response {
    let location = match query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    let mut r = StatusCode::MOVED_PERMANENTLY.into_response();
    if let Ok(v) = HeaderValue::from_str(&location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

async fn serve_page(state: &AppState, page: &PreparedPage, headers: &HeaderMap) -> Response {
    match state.renderer.document(page).await {
        Ok(doc) => page_response(state, &doc, headers, page),
        Err(e) => errors::respond(&state.error_pages, e),
    }
}

/// The GET of a canonical page whose document is in the render cache, answered from it
/// without the router (`app::Site`): exactly what the `page` fallback answers for it. None
/// when `path` is no canonical page or its document is not cached (the fallback renders it).
pub fn cached_page(state: &AppState, pages: &PageTable, path: &str, headers: &HeaderMap) -> Option<Response> {
    let page = pages.routes.get(path)?;
    let doc = state.renderer.cached(page)?;
    Some(page_response(state, &doc, headers, page))
}

/// The head and body of a cached canonical page's full answer for `wire`, the connection's
/// own path for a plain GET (no query, no validator): None when `path` is no canonical page,
/// its document is not cached, its status is not 200 or its heads were made for other
/// security headers; then hyper and the router answer, as before. The head is the one
/// [`page_response`] clones, as bytes ([`Encoded::wire_head`]), so both ways answer alike.
pub fn cached_wire(state: &AppState, pages: &PageTable, path: &str, accept_encoding: &[&[u8]]) -> Option<crate::wire::Wire> {
    let page = pages.routes.get(path)?;
    if page.status != StatusCode::OK {
        return None;
    }
    let doc = state.renderer.cached(page)?;
    let coding = crate::encoding::negotiate_values(accept_encoding.iter().copied());
    let cache = page.cache_control();
    let made_for = HeadsFor {
        maker: state.security.id(),
        cache_control: cache,
    };
    let head = doc
        .wire_head(coding, made_for, |c| full_answer_heads(&doc, c, cache, PAGE_HTML, state))?
        .clone();
    Some(crate::wire::Wire {
        head,
        body: doc.body(coding),
    })
}

const PAGE_HTML: &str = "text/html; charset=utf-8";

/// A page's answer, with the security headers. A full answer's headers were made once for
/// the document ([`Encoded::heads`]) and are cloned; a 304 is made as any other answer.
fn page_response(state: &AppState, doc: &Encoded, headers: &HeaderMap, page: &PreparedPage) -> Response {
    const HTML: &str = PAGE_HTML;
    let coding = negotiate(headers);
    let cache = page.cache_control();
    let made_for = HeadsFor {
        maker: state.security.id(),
        cache_control: cache,
    };
    let fresh = page.status == StatusCode::OK && not_modified(headers, doc.etag(coding));
    let heads = (!fresh)
        .then(|| doc.heads(coding, made_for, |c| full_answer_heads(doc, c, cache, HTML, state)))
        .flatten();
    let Some(heads) = heads else {
        let mut response = encoded_response(doc, headers, page.status, HeaderValue::from_static(HTML), cache);
        state.security.add_to(response.headers_mut());
        return response;
    };
    let mut response = Response::new(Body::from(doc.body(coding)));
    *response.status_mut() = page.status;
    *response.headers_mut() = heads.clone();
    response
}

/// The headers of a full answer with `doc` in `coding`: [`representation_headers`], then the
/// security headers.
fn full_answer_heads(doc: &Encoded, coding: Coding, cache: &'static str, content_type: &'static str, state: &AppState) -> HeaderMap {
    let mut h = representation_headers(
        doc.etag(coding).clone(),
        cache,
        Some((HeaderValue::from_static(content_type), coding)),
    );
    state.security.add_to(&mut h);
    h
}

/// Where the script-free variants live when `render.noscript_variants` is on.
const NOSCRIPT_PREFIX: &str = "/_noscript";

/// The page's document with every <script> element removed: the bench's measure of what
/// the HTML and CSS alone cost. Built once per document; never in the sitemap.
async fn serve_without_scripts(state: &AppState, path: &str, page: &PreparedPage, headers: &HeaderMap) -> Response {
    match state.renderer.document(page).await {
        Ok(doc) => {
            let stripped = state.noscript.of(path, &doc);
            encoded_response(
                &stripped,
                headers,
                page.status,
                HeaderValue::from_static("text/html; charset=utf-8"),
                "no-store",
            )
        }
        Err(e) => errors::respond(&state.error_pages, e),
    }
}

/// A legal text for the modal that shows it (not a page: kept out of search results).
async fn legal_fragment(State(state): State<Arc<AppState>>, request: Request) -> Response {
    let pages = state.pages.get();
    let Some(body) = pages.legal_fragments.get(request.uri().path()) else {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    };
    let mut response = encoded_response(
        body,
        request.headers(),
        StatusCode::OK,
        HeaderValue::from_static("text/html; charset=utf-8"),
        "public, max-age=3600",
    );
    response
        .headers_mut()
        .insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    response
}

async fn asset(State(state): State<Arc<AppState>>, request: Request) -> Response {
    let path = request.uri().path();
    let pages = state.pages.get();
    let (sprite_path, sprite) = &pages.icon_sprite;
    if path == sprite_path {
        return encoded_response(
            sprite,
            request.headers(),
            StatusCode::OK,
            HeaderValue::from_static("image/svg+xml"),
            "public, max-age=31536000, immutable",
        );
    }
    let (campaigns_path, campaigns) = &pages.campaigns_json;
    if path == campaigns_path {
        return encoded_response(
            campaigns,
            request.headers(),
            StatusCode::OK,
            HeaderValue::from_static("application/json"),
            "public, max-age=31536000, immutable",
        );
    }
    // The campaigns of a page made before a change (here, or on a server that has not heard
    // of it yet): today's, never kept, rather than a broken modal.
    if is_campaigns_json(path) {
        return encoded_response(
            campaigns,
            request.headers(),
            StatusCode::OK,
            HeaderValue::from_static("application/json"),
            "no-store",
        );
    }
    let asset = match state.assets.files.get(path) {
        Some(asset) => Arc::clone(asset),
        None => match recorded_asset(&state, path).await {
            Ok(Some(asset)) => asset,
            Ok(None) => return (StatusCode::NOT_FOUND, "Not found").into_response(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a recorded asset");
                let mut r = (StatusCode::SERVICE_UNAVAILABLE, "Try again shortly").into_response();
                r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                return r;
            }
        },
    };
    let cache = if asset.immutable {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=86400"
    };
    encoded_response(&asset.body, request.headers(), StatusCode::OK, asset.content_type.clone(), cache)
}

/// Whether `path` names a campaigns file of any version (`/assets/campaigns-<hash>.json`).
fn is_campaigns_json(path: &str) -> bool {
    path.strip_prefix("/assets/campaigns-")
        .and_then(|rest| rest.strip_suffix(".json"))
        .is_some_and(|hash| !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A content-hashed file this binary does not embed, recorded in the database by a server
/// of another release (a rolling upgrade, docs/operations.md "Running several servers"):
/// read once, then kept in memory.
async fn recorded_asset(state: &AppState, path: &str) -> Result<Option<Arc<Asset>>, crate::store::StoreError> {
    if !may_be_recorded(path) {
        return Ok(None);
    }
    if let Some(asset) = state.fetched_assets.get(path) {
        return Ok(Some(asset));
    }
    let _turn = state.fetched_assets.lookup().await;
    // Another request may have read it while this one waited.
    if let Some(asset) = state.fetched_assets.get(path) {
        return Ok(Some(asset));
    }
    let Some(recorded) = state.store.recorded_asset(path).await? else {
        return Ok(None);
    };
    let Ok(content_type) = HeaderValue::from_str(&recorded.content_type) else {
        return Ok(None);
    };
    // Its brotli body is made here, once: off the async threads.
    let body = tokio::task::spawn_blocking(move || Encoded::with_gzip(recorded.body, recorded.gzip))
        .await
        .map_err(|e| crate::store::StoreError::Database(e.to_string()))?;
    let asset = Arc::new(Asset {
        content_type,
        body,
        immutable: true,
    });
    state.fetched_assets.insert(path, Arc::clone(&asset));
    Ok(Some(asset))
}

/// The best encoding the client takes, its ETag, and 304 when the client already has it.
fn encoded_response(body: &Encoded, headers: &HeaderMap, status: StatusCode, content_type: HeaderValue, cache: &'static str) -> Response {
    let coding = negotiate(headers);
    let etag = body.etag(coding).clone();
    let fresh = status == StatusCode::OK && not_modified(headers, &etag);
    let mut response = if fresh {
        Response::new(Body::empty())
    } else {
        Response::new(Body::from(body.body(coding)))
    };
    *response.status_mut() = if fresh { StatusCode::NOT_MODIFIED } else { status };
    *response.headers_mut() = representation_headers(etag, cache, (!fresh).then_some((content_type, coding)));
    response
}

/// What an encoded answer says of its body: its ETag, Vary and Cache-Control, and for a full
/// answer (not a 304) its type and coding. Room is left for the security headers, so the map
/// never grows.
fn representation_headers(etag: HeaderValue, cache: &'static str, full: Option<(HeaderValue, Coding)>) -> HeaderMap {
    let mut h = HeaderMap::with_capacity(16);
    h.insert(header::ETAG, etag);
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Some((content_type, coding)) = full {
        h.insert(header::CONTENT_TYPE, content_type);
        if let Some(enc) = content_encoding(coding) {
            h.insert(header::CONTENT_ENCODING, enc);
        }
    }
    h
}

/// The exposition, from memory: the outbox figures are refreshed by the notification
/// worker, so a scrape never touches the database.
async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let (cache, pool) = (&state.renderer.cache, &state.renderer.pool);
    let figures = RenderFigures {
        cache_hits: cache.hits(),
        cache_misses: cache.misses(),
        rejected: pool.rejected(),
        public_renders: pool.renders(Lane::Public),
        staff_renders: pool.renders(Lane::Staff),
    };
    let body = state.metrics.render(figures, crate::store::now_ms());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body).into_response()
}

/// /metrics on the site's listener: only with `server.metrics_token` set, and only to a
/// request that bears it; otherwise it does not exist there.
async fn metrics_behind_token(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    let token = &state.config.server.metrics_token;
    if token.is_empty() {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared without stopping at the first difference, so timing does not reveal the token.
    if !bool::from(presented.as_bytes().ct_eq(token.as_bytes())) {
        let mut r = (StatusCode::UNAUTHORIZED, "A bearer token is required.").into_response();
        r.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return r;
    }
    metrics(State(state)).await
}

async fn robots(State(state): State<Arc<AppState>>) -> Response {
    // The legal modals' fragments duplicate /privacy and /terms: keep them out of the index.
    // The staff console is private (its answers say noindex too).
    let body = format!(
        "User-agent: *\nAllow: /\nDisallow: /legal/\nDisallow: /admin\n\nSitemap: {}/sitemap.xml\n",
        state.config.site.public_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

async fn sitemap(State(state): State<Arc<AppState>>) -> Response {
    let mut xml =
        String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    let pages = state.pages.get();
    for path in &pages.canonical_paths {
        if let Some(page) = pages.routes.get(path) {
            xml.push_str(&format!("  <url><loc>{}</loc></url>\n", xml_escape(&page.head.canonical)));
        }
    }
    xml.push_str("</urlset>\n");
    ([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], xml).into_response()
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
