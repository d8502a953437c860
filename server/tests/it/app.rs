//! `app(state)` driven in process with `tower::ServiceExt::oneshot`: no socket, no client,
//! the same router the binary serves (the other suites drive it over real HTTP).

use crate::common;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::Value;
use tower::ServiceExt;

use site_server::app;

async fn body_text(response: axum::response::Response) -> String {
    let bytes = to_bytes(response.into_body(), 1 << 20).await.expect("body");
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

#[tokio::test]
async fn the_router_answers_in_process() {
    let state = common::state_in_process(common::config(&[])).await;

    let r = app(state.clone())
        .oneshot(Request::get("/healthz").body(Body::empty()).expect("request"))
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::OK);
    assert!(
        r.headers().contains_key(header::CONTENT_SECURITY_POLICY),
        "security headers on every answer"
    );
    assert_eq!(body_text(r).await, "ok");

    let r = app(state.clone())
        .oneshot(Request::get("/home-hvac?utm_source=x").body(Body::empty()).expect("request"))
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(r.headers()[header::LOCATION], "/hvac?utm_source=x");

    // An API refusal: the one JSON error answer.
    let r = app(state.clone())
        .oneshot(
            Request::post(site_server::api::SUBMIT_LEAD_PATH)
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("hello"))
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let answer: Value = serde_json::from_str(&body_text(r).await).expect("json");
    assert_eq!(answer["error"], site_server::api::MSG_MEDIA_TYPE);

    // A lead, committed before the 201.
    let body = common::lead_body("hvac", &common::phone(1));
    let r = app(state.clone())
        .oneshot(
            Request::post(site_server::api::SUBMIT_LEAD_PATH)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(r.status(), StatusCode::CREATED);
    let answer: Value = serde_json::from_str(&body_text(r).await).expect("json");
    let id = answer["id"].as_str().expect("id");
    assert!(state.store.lead(id).await.expect("read").is_some());
}

/// A canonical page whose document is cached is answered without the router (`app::Site`,
/// docs/decisions/030-the-cached-page-at-the-limit.md): the answer must be the one the
/// router's page fallback gives, in every coding and for a revalidation, with the security
/// headers added and the request counted under the pages' route label.
#[tokio::test]
async fn the_fast_path_answers_as_the_router_does() {
    let state = common::state_in_process(common::config(&[])).await;
    let warmed = state.warm().await;
    assert_eq!(warmed.failed, 0);
    let site = app(state.clone());
    let routed = site_server::app::router(state.clone());
    let security: Vec<_> = state.security.iter().map(|(name, _)| name.clone()).collect();
    let mut paths: Vec<_> = state.pages.get().routes.keys().cloned().collect();
    paths.sort();
    let get = |path: &str, accept: Option<&str>, etag: Option<&header::HeaderValue>| {
        let mut r = Request::get(path);
        if let Some(accept) = accept {
            r = r.header(header::ACCEPT_ENCODING, accept);
        }
        if let Some(etag) = etag {
            r = r.header(header::IF_NONE_MATCH, etag);
        }
        r.body(Body::empty()).expect("request")
    };
    let mut answered = 0;
    for path in &paths {
        for accept in [None, Some("gzip"), Some("gzip, deflate, br")] {
            let fast = site.clone().oneshot(get(path, accept, None)).await.expect("infallible");
            let slow = routed.clone().oneshot(get(path, accept, None)).await.expect("infallible");
            assert_eq!(fast.status(), slow.status(), "{path} {accept:?}");
            // A page's answer carries the security headers either way: they are in the heads
            // made once per document (routes::page_response).
            for name in &security {
                assert!(fast.headers().contains_key(name), "{path}: {name}");
            }
            // The router states the length itself; hyper does for the fast path, over the wire.
            let mut rest = fast.headers().clone();
            rest.remove(header::CONTENT_LENGTH);
            let mut routed_headers = slow.headers().clone();
            routed_headers.remove(header::CONTENT_LENGTH);
            assert_eq!(rest, routed_headers, "{path} {accept:?}");
            let etag = fast.headers()[header::ETAG].clone();
            let (fast, slow) = (body_bytes(fast).await, body_bytes(slow).await);
            assert!(fast == slow && !fast.is_empty(), "{path} {accept:?}: the same body");
            let again = site.clone().oneshot(get(path, accept, Some(&etag))).await.expect("infallible");
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path} {accept:?}");
            assert_eq!(again.headers()[header::ETAG], etag);
            assert!(again.headers().contains_key(header::CONTENT_SECURITY_POLICY));
            assert!(body_bytes(again).await.is_empty());
            answered += 3;
        }
    }
    // Every one of them is counted, as a page, by status class and in the cache's hits.
    let figures = site_server::metrics::RenderFigures {
        cache_hits: state.renderer.cache.hits(),
        ..Default::default()
    };
    let m = state.metrics.render(figures, site_server::store::now_ms());
    let count = m
        .lines()
        .find_map(|l| l.strip_prefix("site_http_request_duration_seconds_count{route=\"(page)\"} "))
        .and_then(|v| v.parse::<usize>().ok());
    assert_eq!(count, Some(answered), "{m}");
    assert!(state.renderer.cache.hits() as usize >= answered);
}

async fn body_bytes(response: axum::response::Response) -> Vec<u8> {
    to_bytes(response.into_body(), 1 << 22).await.expect("body").to_vec()
}
