//! The delivery policy over real parts: retried until delivered (never given up after a few
//! attempts), given up only after three days and then sent again by the operator's command,
//! the webhook's rules (no redirects, no URL in errors), and SMTP's TLS rule against the
//! real test SMTP server.

use crate::common;

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use site_server::config::Config;
use site_server::leads::RequestContext;
use site_server::store::{Channel, Mail, NewSubmission, Outbox, Store, SubmissionKind, now_ms};

const SUBMIT: &str = "/.netlify/functions/submit-lead";

fn config_with(toml_text: &str) -> Config {
    let overlay: toml::Table = toml_text.parse().expect("toml");
    Config::build(Some(overlay), &[]).expect("config")
}

async fn submit(s: &common::TestServer, n: u32) {
    let body = common::lead_body("plumbing", &common::phone(n));
    let r = s.client.post(s.url(SUBMIT)).json(&body).send().await.expect("post");
    assert_eq!(r.status(), reqwest::StatusCode::CREATED);
}

/// The number in a metrics line such as `name{labels} 3`.
fn metric(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.trim().parse().ok()))
        .unwrap_or(0.0)
}

#[tokio::test]
async fn a_notification_is_retried_far_past_ten_attempts_until_delivered() {
    let mut smtp = common::SmtpServer::start().await;
    // The defaults, with waits shortened so that many attempts happen quickly.
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{}\"\nrecipients = [\"dispatch@ringready.example\"]\nretry_base_ms = 5\nretry_max_ms = 20",
        smtp.url()
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    smtp.stop();
    submit(&s, 1).await;
    common::eventually(30, "25 failed attempts", async || {
        metric(
            &s.metrics().await,
            "site_notification_deliveries_total{channel=\"email\",outcome=\"retry\"}",
        ) >= 25.0
    })
    .await;
    let counts = s.state.store.outbox_counts(Outbox::Leads).await.expect("counts");
    assert_eq!((counts.pending, counts.failed), (1, 0), "still being retried");
    smtp.resume().await;
    smtp.wait_for(1, 20).await;
    common::eventually(10, "the delivery recorded", async || {
        s.state.store.outbox_counts(Outbox::Leads).await.expect("counts").delivered == 1
    })
    .await;
}

#[tokio::test]
async fn after_three_days_a_notification_is_given_up_shown_and_sent_again_by_the_operator() {
    let mut smtp = common::SmtpServer::start().await;
    smtp.stop();
    let db = common::temp_dir("outbox-cli").join("site.db");
    let database_url = format!("sqlite:{}", db.display());
    let store = Arc::new(Store::open(&database_url).await.expect("store"));
    let config = config_with(&format!(
        "[notify]\nsmtp_url = \"{}\"\nrecipients = [\"dispatch@ringready.example\"]\nretry_base_ms = 5\nretry_max_ms = 20",
        smtp.url()
    ));
    // A lead whose notification, and an account request whose staff e-mail, have been
    // failing since 73 hours ago.
    let since = now_ms() - 73 * 3_600_000;
    let lead = store
        .submit_lead(common::new_lead("+14125550188", "roofing"), vec![Channel::Email], since)
        .await
        .expect("stored");
    let request = NewSubmission {
        kind: SubmissionKind::AccountRequest,
        email: "d@example.com".into(),
        phone: None,
        data: serde_json::json!({ "accountType": "homeowner" }),
        context: RequestContext::default(),
    };
    let mail = Mail {
        subject: "New Homeowner Registration".into(),
        body: "Name: Dana Whitfield\n".into(),
    };
    let submission = store.submit_form(request, Some(mail), since).await.expect("stored");
    let s = common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await;
    common::eventually(20, "both notifications given up", async || {
        s.state.store.outbox_counts(Outbox::Leads).await.expect("counts").failed == 1
            && s.state.store.outbox_counts(Outbox::Mail).await.expect("counts").failed == 1
    })
    .await;
    common::eventually(10, "the failures in /metrics", async || {
        let m = s.metrics().await;
        ["leads", "mail"].iter().all(|o| {
            metric(&m, &format!("site_outbox_depth{{outbox=\"{o}\",status=\"failed\"}}")) == 1.0
                && metric(&m, &format!("site_outbox_oldest_undelivered_seconds{{outbox=\"{o}\"}}")) >= 73.0 * 3600.0
        })
    })
    .await;

    let site = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_site"))
            .args(args)
            .env("DATABASE_URL", &database_url)
            .env("RUST_LOG", "warn")
            .output()
            .expect("run site");
        assert!(out.status.success(), "site {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let listing = site(&["outbox", "retry"]);
    assert!(listing.contains(&lead.id) && listing.contains("email"), "{listing}");
    assert!(listing.contains(&submission.id) && listing.contains("mail:"), "{listing}");
    assert!(!listing.contains("dispatch@"), "no addresses in the listing: {listing}");
    smtp.resume().await;
    let answer = site(&["outbox", "retry", "--all"]);
    assert!(answer.starts_with("2 notification"), "{answer}");
    let mails = smtp.wait_for(2, 20).await;
    assert!(mails.iter().any(|m| m.contains(&lead.id)) && mails.iter().any(|m| m.contains(&submission.id)));
    common::eventually(10, "delivered and no longer counted as undelivered", async || {
        let m = s.metrics().await;
        ["leads", "mail"].iter().all(|o| {
            metric(&m, &format!("site_outbox_depth{{outbox=\"{o}\",status=\"failed\"}}")) == 0.0
                && metric(&m, &format!("site_outbox_oldest_undelivered_seconds{{outbox=\"{o}\"}}")) == 0.0
        })
    })
    .await;
}

/// A webhook receiver on a loopback port: `/hook` answers with `status` (and a Location to
/// `/elsewhere`); every request to `/elsewhere` is counted.
async fn receiver(status: StatusCode) -> (u16, Arc<AtomicU32>) {
    let followed = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&followed);
    let app = Router::new()
        .route(
            "/hook",
            post(move || async move { (status, [(header::LOCATION, "/elsewhere")]).into_response() }),
        )
        .route(
            "/elsewhere",
            get(move || {
                counter.fetch_add(1, Ordering::Relaxed);
                async { StatusCode::OK }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (port, followed)
}

fn webhook_config(url: &str) -> Config {
    config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nwebhook_url = \"{url}\"\nwebhook_secret = \"0123456789abcdef-webhook\"\nretry_base_ms = 50\nretry_max_ms = 100"
    ))
}

#[tokio::test]
async fn a_webhook_redirect_is_a_failed_delivery_never_followed() {
    let (port, followed) = receiver(StatusCode::SEE_OTHER).await;
    let s = common::start_with(
        webhook_config(&format!("http://127.0.0.1:{port}/hook")),
        site_server::assets::SSR_BUNDLE,
    )
    .await;
    submit(&s, 2).await;
    common::eventually(20, "two failed attempts", async || {
        metric(
            &s.metrics().await,
            "site_notification_deliveries_total{channel=\"webhook\",outcome=\"retry\"}",
        ) >= 2.0
    })
    .await;
    assert_eq!(followed.load(Ordering::Relaxed), 0, "the redirect was followed");
    let counts = s.state.store.outbox_counts(Outbox::Leads).await.expect("counts");
    assert_eq!((counts.delivered, counts.pending), (0, 1));
    let pending = s.state.store.outbox_rows(Outbox::Leads, "pending", 10).await.expect("rows");
    assert!(pending[0].last_error.as_deref().is_some_and(|e| e.contains("303")), "{pending:?}");
}

#[tokio::test]
async fn webhook_errors_never_carry_the_url() {
    let port = common::free_port(); // nothing listens here
    let url = format!("http://127.0.0.1:{port}/hooks/s3cr3t-path-token?key=k3y-in-query");
    let s = common::start_with(webhook_config(&url), site_server::assets::SSR_BUNDLE).await;
    submit(&s, 3).await;
    common::eventually(20, "a failed attempt recorded", async || {
        let rows = s.state.store.outbox_rows(Outbox::Leads, "pending", 10).await.expect("rows");
        rows.first().is_some_and(|r| r.last_error.is_some())
    })
    .await;
    let rows = s.state.store.outbox_rows(Outbox::Leads, "pending", 10).await.expect("rows");
    let error = rows[0].last_error.clone().unwrap_or_default();
    assert!(
        !error.contains("s3cr3t") && !error.contains("k3y") && !error.contains(&port.to_string()),
        "{error}"
    );
}

#[test]
fn a_webhook_leaves_the_machine_only_over_https() {
    let e = Config::build(
        None,
        &[
            ("WEBHOOK_URL".to_string(), "http://hooks.example/lead".to_string()),
            ("WEBHOOK_SECRET".to_string(), "0123456789abcdef".to_string()),
        ],
    )
    .expect_err("plain http to another host")
    .to_string();
    assert!(e.contains("notify.webhook_url"), "{e}");
    for url in ["https://hooks.example/lead", "http://127.0.0.1:9000/lead"] {
        let env = [
            ("WEBHOOK_URL".to_string(), url.to_string()),
            ("WEBHOOK_SECRET".to_string(), "0123456789abcdef".to_string()),
        ];
        assert!(Config::build(None, &env).is_ok(), "{url}");
    }
}

#[tokio::test]
async fn smtp_to_a_non_loopback_host_is_never_sent_in_clear() {
    // The real test SMTP server, reached at this machine's own non-loopback address: it
    // offers no STARTTLS, so the lead must not be sent to it.
    let ip = common::non_loopback_ip();
    let smtp = common::SmtpServer::start_on(&ip).await;
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{}\"\nrecipients = [\"dispatch@ringready.example\"]\nretry_base_ms = 50\nretry_max_ms = 100",
        smtp.url()
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    submit(&s, 4).await;
    common::eventually(20, "two refused attempts", async || {
        metric(
            &s.metrics().await,
            "site_notification_deliveries_total{channel=\"email\",outcome=\"retry\"}",
        ) >= 2.0
    })
    .await;
    assert!(smtp.messages().is_empty(), "a lead went out in clear");
    let rows = s.state.store.outbox_rows(Outbox::Leads, "pending", 10).await.expect("rows");
    let error = rows[0].last_error.clone().unwrap_or_default();
    assert!(error.to_ascii_lowercase().contains("tls"), "{error}");

    // The operator's explicit opt-out sends it to the same server in clear.
    let config = config_with(&format!(
        "[api]\nrate_limit_per_minute = 1000\n[notify]\nsmtp_url = \"{}\"\nsmtp_allow_plaintext = true\nrecipients = [\"dispatch@ringready.example\"]",
        smtp.url()
    ));
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    submit(&s, 5).await;
    smtp.wait_for(1, 20).await;
}
