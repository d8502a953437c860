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
