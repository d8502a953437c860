//! Notifications through a real SMTP server process (scripts/smtp-server.mjs) and a real
//! webhook receiver: what arrives, per-service recipients, an SMTP outage, retries and giving up. The retry
//! policy, the webhook's rules and SMTP's TLS rule are in policy.rs beside this file.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::Value;
use site_server::config::Config;
use site_server::notify::webhook::verify;
use site_server::store::Outbox;

const SUBMIT: &str = "/.netlify/functions/submit-lead";

fn config_with(toml_text: &str) -> Config {
    let overlay: toml::Table = toml_text.parse().expect("toml");
    Config::build(Some(overlay), &[]).expect("config")
}

async fn submit(s: &common::TestServer, slug: &str, n: u32) -> String {
    let mut body = common::lead_body(slug, &common::phone(n));
    body["trustedform_cert_url"] = Value::String(format!("https://cert.trustedform.com/cert{n}"));
    let r = s.client.post(s.url(SUBMIT)).json(&body).send().await.expect("post");
    assert_eq!(r.status(), reqwest::StatusCode::CREATED);
    r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string()
}

#[tokio::test]
async fn a_lead_arrives_by_email_with_everything_a_caller_needs() {
    let smtp = common::SmtpServer::start().await;
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{}\"\nrecipients = [\"dispatch@ringready.example\"]\n[notify.service_recipients]\nroofing = [\"roof-team@ringready.example\"]",
        smtp.url()
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    let id = submit(&s, "hvac", 11).await;
    let messages = smtp.wait_for(1, 10).await;
    let mail = common::unfold_qp(&messages[0]);
    assert!(mail.contains("To: dispatch@ringready.example"), "{mail}");
    assert!(mail.contains("Subject: New callback request: HVAC (15213)"), "{mail}");
    assert!(mail.contains("multipart/alternative") && mail.contains("text/plain") && mail.contains("text/html"));
    assert!(mail.contains("Maria Gonzalez"));
    assert!(
        mail.contains("(412) 200-0011") && mail.contains("href=\"tel:+14122000011\""),
        "tap-to-call link"
    );
    assert!(mail.contains("https://cert.trustedform.com/cert11"));
    assert!(mail.contains(&id));
    assert!(mail.contains(" UTC"), "the time it came in");
    assert!(
        mail.contains(&format!("Message-ID: <lead-{id}.email@ringready.example>")),
        "a Message-ID named after the notification, the same on every attempt: {mail}"
    );

    submit(&s, "roofing", 12).await;
    let messages = smtp.wait_for(2, 10).await;
    let roofing = messages
        .iter()
        .map(|m| common::unfold_qp(m))
        .find(|m| m.contains("Roofing"))
        .expect("roofing mail");
    assert!(
        roofing.contains("To: roof-team@ringready.example") && !roofing.contains("dispatch@"),
        "per-service recipients"
    );

    // Delivered rows are recorded, and counted.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let counts = s.state.store.outbox_counts(Outbox::Leads).await.expect("counts");
    assert_eq!((counts.delivered, counts.pending, counts.failed), (2, 0, 0));
    let metrics = s.metrics().await;
    assert!(
        metrics.contains("site_notification_deliveries_total{channel=\"email\",outcome=\"delivered\"} 2"),
        "{metrics}"
    );
    assert!(metrics.contains("site_notification_delivery_seconds_count 2"));
}

#[tokio::test]
async fn an_smtp_outage_delays_e_mails_but_loses_none() {
    let mut smtp = common::SmtpServer::start().await;
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{}\"\nrecipients = [\"dispatch@ringready.example\"]\nretry_base_ms = 100\nretry_max_ms = 800",
        smtp.url()
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    smtp.stop();
    let mut ids = Vec::new();
    for n in 0..8 {
        ids.push(submit(&s, "plumbing", 100 + n).await);
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(smtp.messages().is_empty());
    let counts = s.state.store.outbox_counts(Outbox::Leads).await.expect("counts");
    assert_eq!(counts.pending, 8, "waiting to be retried: {counts:?}");
    smtp.resume().await;
    let messages = smtp.wait_for(8, 20).await;
    for id in &ids {
        assert_eq!(
            messages.iter().filter(|m| m.contains(id.as_str())).count(),
            1,
            "exactly one e-mail for {id}"
        );
    }
    let metrics = s.metrics().await;
    assert!(
        metrics.contains("site_notification_deliveries_total{channel=\"email\",outcome=\"retry\"}"),
        "retries were counted"
    );
}

#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<(HeaderMap, Bytes)>>>);

#[tokio::test]
async fn the_webhook_gets_the_signed_lead_and_is_retried_after_an_error() {
    let received = Received::default();
    let failures_left = Arc::new(Mutex::new(1));
    let app = {
        let received = received.clone();
        let failures_left = Arc::clone(&failures_left);
        Router::new().route(
            "/hook",
            post(move |headers: HeaderMap, body: Bytes| {
                let received = received.clone();
                let failures_left = Arc::clone(&failures_left);
                async move {
                    let mut left = failures_left.lock().expect("lock");
                    if *left > 0 {
                        *left -= 1;
                        return StatusCode::BAD_GATEWAY;
                    }
                    received.0.lock().expect("lock").push((headers, body));
                    StatusCode::NO_CONTENT
                }
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let secret = "0123456789abcdef-webhook-secret";
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nwebhook_url = \"http://127.0.0.1:{port}/hook\"\nwebhook_secret = \"{secret}\"\nretry_base_ms = 100\nretry_max_ms = 200"
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    let id = submit(&s, "solar", 300).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while received.0.lock().expect("lock").is_empty() {
        assert!(std::time::Instant::now() < deadline, "webhook never delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (headers, body) = received.0.lock().expect("lock")[0].clone();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let signed = headers["x-signature-256"].to_str().expect("ascii");
    assert!(signed.starts_with("t=") && signed.contains(",v1="), "{signed}");
    assert!(verify(secret, signed, &body, now, 300), "HMAC-SHA256 of the timestamp and the body");
    assert_eq!(headers["x-lead-id"].to_str().expect("ascii"), id);
    assert_eq!(headers["x-delivery-attempt"], "2", "the first attempt got a 502");
    assert_eq!(
        headers["idempotency-key"].to_str().expect("ascii"),
        format!("lead-{id}.webhook"),
        "one key per notification, whatever the attempt"
    );
    let lead: Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(lead["id"], id.as_str());
    assert_eq!(lead["serviceSlug"], "solar");
    assert_eq!(lead["phone"], "+14122000300");
    assert_eq!(lead["trustedform"]["certUrl"], "https://cert.trustedform.com/cert300");
    assert!(lead["receivedAt"].as_str().expect("time").ends_with('Z'));
}

/// The configuration of a server whose e-mail goes to `smtp_url` and whose webhook to
/// `webhook_url`, each send given `send_timeout_ms`.
fn both_channels(smtp_url: &str, webhook_url: &str, send_timeout_ms: u64) -> Config {
    config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{smtp_url}\"\nrecipients = [\"dispatch@ringready.example\"]\nwebhook_url = \"{webhook_url}\"\nwebhook_secret = \"0123456789abcdef-webhook-secret\"\nretry_base_ms = 100\nretry_max_ms = 200\nsend_timeout_ms = {send_timeout_ms}"
    ))
}

/// A mail relay that accepts the connection and never answers holds its own send, and
/// nothing else: every later lead's webhook is delivered while it hangs (it used to wait for
/// the whole batch, so a silent relay stopped every notification on the server). The same
/// for a webhook receiver gone silent and the e-mails. On both stores: on PostgreSQL the
/// claim's lease is what keeps another server off a notification whose send is under way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_peer_holds_back_no_other_notification() {
    for (name, store) in common::stores::stores().await {
        let silent = common::SilentPeer::start().await;
        let hook = common::Hook::start(200).await;
        let config = both_channels(&format!("smtp://127.0.0.1:{}", silent.port), &hook.url, 60_000);
        let s = common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await;
        let first = submit(&s, "hvac", 400).await;
        common::eventually(10, "the first e-mail's send is under way", async || silent.connections() >= 1).await;
        for n in 1..=3 {
            let id = submit(&s, "hvac", 400 + n).await;
            common::eventually(10, &format!("{name}: lead {n}'s webhook, the relay silent"), async || {
                hook.delivered(&id) == 1
            })
            .await;
        }
        assert_eq!(hook.delivered(&first), 1, "{name}");

        // And the other way round: a silent webhook receiver, a working relay.
        let smtp = common::SmtpServer::start().await;
        let silent = common::SilentPeer::start().await;
        let (_, store) = common::stores::stores()
            .await
            .into_iter()
            .find(|(n, _)| *n == name)
            .expect("the same kind of store");
        let config = both_channels(&smtp.url(), &format!("http://127.0.0.1:{}/hook", silent.port), 60_000);
        let s = common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await;
        let mut ids = Vec::new();
        for n in 0..3 {
            ids.push(submit(&s, "roofing", 410 + n).await);
        }
        let messages = smtp.wait_for(3, 10).await;
        for id in &ids {
            assert!(
                messages.iter().any(|m| m.contains(id.as_str())),
                "{name}: {id}'s e-mail, the webhook silent"
            );
        }
    }
}

/// A send to a silent peer ends at `notify.send_timeout_ms` and becomes a retry (counted,
/// with the reason kept), so the notification is tried again and again, late but never lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_to_a_silent_peer_ends_at_its_deadline_and_is_retried() {
    for (name, store) in common::stores::stores().await {
        let relay = common::SilentPeer::start().await;
        let receiver = common::SilentPeer::start().await;
        let config = both_channels(
            &format!("smtp://127.0.0.1:{}", relay.port),
            &format!("http://127.0.0.1:{}/hook", receiver.port),
            300,
        );
        let s = common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await;
        let id = submit(&s, "plumbing", 420).await;
        common::eventually(15, &format!("{name}: both sends tried again"), async || {
            relay.connections() >= 3 && receiver.connections() >= 3
        })
        .await;
        let metrics = s.metrics().await;
        for channel in ["email", "webhook"] {
            assert!(
                metrics.contains(&format!(
                    "site_notification_deliveries_total{{channel=\"{channel}\",outcome=\"retry\"}}"
                )),
                "{name}: {channel} retries counted: {metrics}"
            );
        }
        let counts = s.state.store.outbox_counts(Outbox::Leads).await.expect("counts");
        assert_eq!((counts.pending, counts.delivered, counts.failed), (2, 0, 0), "{name}: {counts:?}");
        let lead = s.state.store.lead_detail(&id).await.expect("read").expect("the lead");
        assert_eq!(lead.deliveries.len(), 2, "{name}");
        assert!(
            lead.deliveries
                .iter()
                .all(|d| d.last_error.as_deref().is_some_and(|e| e.contains("no answer within 300 ms"))),
            "{name}: the reason is kept: {:?}",
            lead.deliveries
        );
    }
}
