//! What the server stores and forwards, over real HTTP: only clean http(s) URLs for the
//! page and referrer (the Referer header kept beside them), TrustedForm's hosts only for
//! the certificate fields, one certificate rule for both endpoints. Names and phone numbers
//! are in the shared vectors (catalogue/cases/, run by api.rs).

use crate::common;

use reqwest::StatusCode;
use serde_json::{Value, json};

const SUBMIT: &str = "/.netlify/functions/submit-lead";
const TOKEN: &str = "/.netlify/functions/record-token";

async fn start() -> common::TestServer {
    common::start_with(
        common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")]),
        site_server::assets::SSR_BUNDLE,
    )
    .await
}

#[tokio::test]
async fn page_and_referrer_are_kept_only_as_clean_web_urls_beside_the_referer_seen() {
    let s = start().await;
    let mut body = common::lead_body("hvac", &common::phone(1));
    body["pageUrl"] = json!("javascript:alert(document.cookie)");
    body["referrer"] = json!("https://www.google.com/\r\nX-Injected: 1");
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("referer", "https://www.ringready.example/hvac?utm_source=bing")
        .json(&body)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), StatusCode::CREATED, "a bad URL is dropped, the lead kept");
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    let lead = s.state.store.lead(&id).await.expect("read").expect("stored");
    assert_eq!(
        lead.page_url.as_deref(),
        Some("https://www.ringready.example/hvac?utm_source=bing"),
        "the Referer stands in"
    );
    assert_eq!(lead.referrer, None);
    assert_eq!(
        lead.seen_referer.as_deref(),
        Some("https://www.ringready.example/hvac?utm_source=bing")
    );
    assert_eq!(lead.utm_source.as_deref(), Some("bing"));

    // What the page says wins when it is clean; the header the server saw is still kept.
    let mut body = common::lead_body("roofing", &common::phone(2));
    body["pageUrl"] = json!("https://www.ringready.example/roofing?utm_source=google");
    body["referrer"] = json!("https://www.google.com/");
    let r = s
        .client
        .post(s.url(SUBMIT))
        .header("referer", "https://www.ringready.example/roofing")
        .json(&body)
        .send()
        .await
        .expect("post");
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    let lead = s.state.store.lead(&id).await.expect("read").expect("stored");
    assert_eq!(
        lead.page_url.as_deref(),
        Some("https://www.ringready.example/roofing?utm_source=google")
    );
    assert_eq!(lead.referrer.as_deref(), Some("https://www.google.com/"));
    assert_eq!(lead.seen_referer.as_deref(), Some("https://www.ringready.example/roofing"));
}

#[tokio::test]
async fn record_token_follows_the_one_certificate_rule_and_never_overwrites() {
    let s = start().await;
    let post = async |body: Value| s.client.post(s.url(TOKEN)).json(&body).send().await.expect("post").status();
    for (field, value) in [
        ("certUrl", "https://cert.trustedform.com/abc\"><script>"),
        ("certUrl", "https://cert.trustedform.com/abc def"),
        ("certUrl", "https://evil.example/abc"),
        ("ping", "http://169.254.169.254/latest/meta-data/"),
        ("ping", "https://ping.trustedform.com.evil.example/abc"),
        ("token", "abc<def"),
    ] {
        let mut body = json!({ "token": "abc123", "serviceSlug": "hvac" });
        body[field] = json!(value);
        assert_eq!(post(body).await, StatusCode::BAD_REQUEST, "{field} = {value}");
    }
    assert!(s.state.store.token("abc123").await.expect("read").is_none());
    let first = json!({ "token": "abc123", "serviceSlug": "hvac", "certUrl": "https://cert.trustedform.com/abc123" });
    assert_eq!(post(first).await, StatusCode::NO_CONTENT);
    let overwrite = json!({
        "token": "abc123",
        "serviceSlug": "solar",
        "certUrl": "https://cert.trustedform.com/other",
        "ping": "https://ping.trustedform.com/abc123",
    });
    assert_eq!(post(overwrite).await, StatusCode::NO_CONTENT);
    let stored = s.state.store.token("abc123").await.expect("read").expect("stored");
    assert_eq!(stored.service_slug, "hvac");
    assert_eq!(stored.cert_url.as_deref(), Some("https://cert.trustedform.com/abc123"));
    assert_eq!(
        stored.ping_url.as_deref(),
        Some("https://ping.trustedform.com/abc123"),
        "only an empty field filled"
    );
}
