//! A page that throws, hangs or floods the pool: the visitor gets a real error page, the
//! failure is not cached, and the server keeps serving everything else.

use crate::common;

use std::time::{Duration, Instant};

use reqwest::StatusCode;

#[tokio::test]
async fn a_throwing_page_answers_500_and_the_server_keeps_serving() {
    let bundle = common::bundle_with_faults("if (slug === 'plumbing') throw new Error('test: broken page')");
    let s = common::start_with(common::config(&[]), &bundle).await;
    for _ in 0..3 {
        let r = s.get("/plumbing").await;
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(r.headers()["cache-control"], "no-store");
        let body = r.text().await.expect("body");
        assert!(body.contains("Something went wrong") && body.contains("(800) 555-0100"));
        assert!(!body.contains("test: broken page"), "no internals leak to the visitor");
    }
    assert_eq!(s.get("/hvac").await.status(), StatusCode::OK);
    assert_eq!(s.get("/").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_hanging_render_is_interrupted_and_the_engine_recovers() {
    let bundle = common::bundle_with_faults("if (slug === 'roofing') { for (;;) {} }");
    let config = common::config(&[("RENDER_TIMEOUT_MS", "300"), ("RENDER_POOL_SIZE", "1")]);
    let s = common::start_with(config, &bundle).await;
    let started = Instant::now();
    let r = s.get("/roofing").await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert!(started.elapsed() < Duration::from_secs(10), "the render was cut short");
    // The only engine was replaced and renders again.
    let r = s.get("/roofing").await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(s.get("/siding").await.status(), StatusCode::OK);
    let fresh = s
        .state
        .renderer
        .pool
        .render(
            site_server::render::Lane::Public,
            "not-found",
            &s.state.pages.get().not_found.props_json,
        )
        .await;
    assert!(fresh.expect("engine works after the timeout").contains("Service not found"));
}

#[tokio::test]
async fn a_full_render_queue_answers_503_with_retry_after() {
    // One engine, one queue slot; 'siding' spins for 400 ms and then throws, so it is never
    // cached and every request for it needs the engine.
    let bundle = common::bundle_with_faults(
        "if (slug === 'siding') { var end = Date.now() + 400; while (Date.now() < end) {} throw new Error('slow and broken'); }",
    );
    let config = common::config(&[("RENDER_POOL_SIZE", "1"), ("RENDER_QUEUE_SIZE", "1")]);
    let s = common::start_with(config, &bundle).await;
    let mut requests = Vec::new();
    for _ in 0..6 {
        let client = s.client.clone();
        let url = s.url("/siding");
        requests.push(tokio::spawn(async move { client.get(url).send().await.expect("request") }));
    }
    let mut busy = 0;
    let mut failed = 0;
    for r in requests {
        let r = r.await.expect("task");
        match r.status() {
            StatusCode::SERVICE_UNAVAILABLE => {
                busy += 1;
                assert_eq!(r.headers()["retry-after"], "1");
                assert!(r.text().await.expect("body").contains("try again"));
            }
            StatusCode::INTERNAL_SERVER_ERROR => failed += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert!(busy >= 1, "some requests found the queue full ({busy} busy, {failed} rendered)");
    assert!(failed >= 1, "the engine still took work");
    // Cached pages never need the queue.
    assert_eq!(s.get("/hvac").await.status(), StatusCode::OK);
    // Both show in /metrics: the refusals, and the 5xx answers among all answers.
    let metrics = s.metrics().await;
    assert!(metrics.contains(&format!("site_render_queue_rejected_total {busy}\n")), "{metrics}");
    assert!(
        metrics.contains(&format!("site_http_responses_total{{class=\"5xx\"}} {}\n", busy + failed)),
        "{metrics}"
    );
    assert!(metrics.contains("site_http_responses_total{class=\"2xx\"} 1\n"), "{metrics}");
}
