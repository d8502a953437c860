//! The server's guard over real HTTP and real sockets: cross-site refusal on every
//! state-changing route, deadlines against slow clients, HSTS, health, the metrics
//! listener, and rate limits keyed by IPv6 /64 behind a trusted proxy.

use crate::common;

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SUBMIT: &str = "/.netlify/functions/submit-lead";
const TOKEN: &str = "/.netlify/functions/record-token";
const PUBLIC: &str = "https://www.ringready.example";

fn config(env: &[(&str, &str)]) -> site_server::config::Config {
    let mut all = vec![("RATE_LIMIT_PER_MINUTE", "100000")];
    all.extend_from_slice(env);
    common::config(&all)
}

async fn start(env: &[(&str, &str)]) -> common::TestServer {
    common::start_with(config(env), site_server::assets::SSR_BUNDLE).await
}

#[tokio::test]
async fn state_changing_requests_from_other_sites_are_refused_on_every_route() {
    let s = start(&[]).await;
    let body = common::lead_body("hvac", &common::phone(1));
    // Fetch Metadata: another site's script posting JSON.
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://evil.example")
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let answer: Value = r.json().await.expect("json");
    assert_eq!(answer["error"], site_server::api::MSG_CROSS_SITE);
    // Origin alone (a browser without Fetch Metadata): another site's plain form post,
    // with its own page as the Referer; refused with a page, not stored.
    let consent = common::consent_text();
    let form = [
        ("serviceSlug", "hvac"),
        ("fullName", "Omar Haddad"),
        ("phone", "(412) 555-0199"),
        ("consent", "on"),
        ("tcpa_text", consent.as_str()),
    ];
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("origin", "https://evil.example")
        .header("referer", "https://evil.example/free-money")
        .form(&form)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(r.headers()[CONTENT_TYPE].to_str().expect("type").starts_with("text/html"));
    assert!(r.text().await.expect("html").contains(site_server::api::MSG_CROSS_SITE));
    // The certificate endpoint, and any route added later, get the same rule.
    let token = json!({ "token": "abc123", "serviceSlug": "hvac" });
    for path in [TOKEN, "/api/any-future-endpoint", "/hvac"] {
        let r = s
            .client
            .post(s.url(path))
            .header("sec-fetch-site", "same-site")
            .json(&token)
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{path}");
    }
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0);
    assert!(s.state.store.token("abc123").await.expect("read").is_none());

    // The site's own pages keep working: JSON from the page, and the no-JavaScript form
    // from a browser that sends only Origin (the public URL, or the host it is on).
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("sec-fetch-site", "same-origin")
        .header("origin", PUBLIC)
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::CREATED);
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("origin", format!("http://{}", s.addr()))
        .form(&form)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert!(r.headers()[LOCATION].to_str().expect("ascii").starts_with("/callback-requested"));
    assert_eq!(s.state.store.count_leads().await.expect("count"), 2);
    let metrics = s.metrics().await;
    assert!(metrics.contains("site_leads_rejected_total{reason=\"cross_site\"} 5"), "{metrics}");
}

/// Reads what the server sends until it closes the connection; None when it is still open
/// after `secs` (the server waited for the client instead of giving up on it).
async fn read_until_closed(stream: &mut TcpStream, secs: u64) -> Option<String> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let read_all = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(secs), read_all).await.ok()?;
    Some(String::from_utf8_lossy(&out).into_owned())
}

#[tokio::test]
async fn slow_clients_are_cut_off_by_deadlines() {
    let s = start(&[("HEADER_TIMEOUT_MS", "300"), ("BODY_TIMEOUT_MS", "300")]).await;
    // A request head that never ends.
    let mut stream = TcpStream::connect(s.addr()).await.expect("connect");
    stream
        .write_all(format!("POST {SUBMIT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n").as_bytes())
        .await
        .expect("write");
    assert!(
        read_until_closed(&mut stream, 10).await.is_some(),
        "a half-sent head kept the connection open"
    );
    // A connection that never sends a byte is closed too.
    let mut idle = TcpStream::connect(s.addr()).await.expect("connect");
    assert!(read_until_closed(&mut idle, 10).await.is_some(), "an idle connection was kept open");

    // A body announced far over the limit: 413 at once, without waiting for it.
    let mut stream = TcpStream::connect(s.addr()).await.expect("connect");
    let head = format!("POST {SUBMIT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{{}}");
    stream.write_all(head.as_bytes()).await.expect("write");
    let answer = read_until_closed(&mut stream, 10).await.expect("answered and closed");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");

    // A valid lead trickled 8 bytes at a time: refused when its deadline passes.
    let body = common::lead_body("hvac", &common::phone(2)).to_string();
    let stream = TcpStream::connect(s.addr()).await.expect("connect");
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "POST {SUBMIT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    writer.write_all(head.as_bytes()).await.expect("write");
    let trickle = tokio::spawn(async move {
        for chunk in body.as_bytes().chunks(8) {
            if writer.write_all(chunk).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(60)).await;
        }
    });
    let mut answer = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), reader.read_to_string(&mut answer)).await;
    trickle.abort();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(site_server::api::MSG_TIMEOUT));
    assert_eq!(s.state.store.count_leads().await.expect("count"), 0);
    let metrics = s.metrics().await;
    assert!(metrics.contains("site_leads_rejected_total{reason=\"timeout\"} 1"), "{metrics}");
}

#[tokio::test]
async fn a_request_that_outlasts_the_whole_request_deadline_is_answered() {
    let s = start(&[("REQUEST_TIMEOUT_MS", "300"), ("BODY_TIMEOUT_MS", "60000")]).await;
    let stream = TcpStream::connect(s.addr()).await.expect("connect");
    let (mut reader, mut writer) = stream.into_split();
    let head = format!("POST {TOKEN} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{");
    writer.write_all(head.as_bytes()).await.expect("write");
    let mut answer = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), reader.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    drop(writer);
}

#[tokio::test]
async fn hsts_is_sent_when_the_public_url_is_https() {
    let s = start(&[]).await;
    let r = s.get("/robots.txt").await;
    assert_eq!(r.headers()["strict-transport-security"], "max-age=63072000");
    let s = start(&[("PUBLIC_URL", "http://localhost:8080")]).await;
    let r = s.get("/robots.txt").await;
    assert!(r.headers().get("strict-transport-security").is_none());
}

#[tokio::test]
async fn healthz_reports_a_stopped_writer_and_livez_stays_cheap() {
    let s = start(&[]).await;
    assert_eq!(s.get("/healthz").await.text().await.expect("text"), "ok");
    s.state.store.close().await;
    let r = s.get("/healthz").await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.text().await.expect("text").contains("store"));
    let r = s.get("/livez").await;
    assert_eq!((r.status(), r.text().await.expect("text")), (StatusCode::OK, "ok".to_string()));
}

#[tokio::test]
async fn metrics_live_on_their_own_listener_or_behind_a_token() {
    let s = start(&[]).await;
    assert_eq!(
        s.get("/metrics").await.status(),
        StatusCode::NOT_FOUND,
        "not on the public listener"
    );
    let metrics = s.metrics().await;
    assert!(
        metrics.contains("site_leads_accepted_total") && metrics.contains("site_outbox_oldest_undelivered_seconds"),
        "{metrics}"
    );

    let token = "a-long-scrape-token-0123456789";
    let s = start(&[("METRICS_TOKEN", token)]).await;
    let r = s.get("/metrics").await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = s
        .client
        .get(s.url("/metrics"))
        .bearer_auth("a-long-scrape-token-0123456780")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = s.client.get(s.url("/metrics")).bearer_auth(token).send().await.expect("get");
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.expect("text").contains("site_leads_accepted_total"));
}

#[tokio::test]
async fn behind_a_trusted_proxy_ipv6_clients_are_limited_by_their_64() {
    let s = common::start_with(
        common::config(&[("RATE_LIMIT_PER_MINUTE", "2"), ("TRUST_FORWARDED_FOR", "true")]),
        site_server::assets::SSR_BUNDLE,
    )
    .await;
    let post = async |client_ip: &str| {
        s.client
            .post(s.url(SUBMIT))
            .header("x-forwarded-for", format!("198.51.100.7, {client_ip}"))
            .json(&json!({}))
            .send()
            .await
            .expect("post")
            .status()
    };
    assert_eq!(post("2001:db8:1:2::1").await, StatusCode::BAD_REQUEST);
    assert_eq!(post("2001:db8:1:2::2").await, StatusCode::BAD_REQUEST);
    assert_eq!(
        post("2001:db8:1:2:ffff:ffff:ffff:ffff").await,
        StatusCode::TOO_MANY_REQUESTS,
        "another address in the same /64 shares the limit"
    );
    assert_eq!(post("2001:db8:1:3::1").await, StatusCode::BAD_REQUEST, "another /64 has its own");
    assert_eq!(
        post("203.0.113.9").await,
        StatusCode::BAD_REQUEST,
        "each visitor behind the proxy has its own"
    );
}
