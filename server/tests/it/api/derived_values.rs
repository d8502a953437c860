//! What the server derives from a request for its record, rather than what the visitor typed
//! (the `utm_*` values of the page's address, the page and the referrer, the User-Agent
//! header), holding control characters: `%00`, `%01`, `%1B`, `%7F` (and a C1 control, a
//! bidi override) escaped in a link, a tab in a header, a literal NUL in JSON. On both stores
//! the request is accepted, the values are stored without those characters
//! (`forms::derived_text`; an address that holds one itself is not kept) and delivered so.
//! PostgreSQL's text cannot hold NUL: such a lead used to be refused there (503) and lost.
//! Rows an older release stored on SQLite with a NUL: `copy_store.rs`.

use crate::common;

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};
use site_server::store::Store;

use common::stores::stores;
use common::{Hook, SmtpServer, TestServer};

const SUBMIT: &str = "/.netlify/functions/submit-lead";

/// Escapes of characters no stored value may hold: NUL, two more C0 controls, DEL, a C1
/// control (NEL) and a format character (a right-to-left override).
const ESCAPES: [&str; 6] = ["%00", "%01", "%1B", "%7F", "%C2%85", "%E2%80%AE"];

/// A header value with a tab (the only control character a header may carry).
const AGENT: &str = "Mozilla/5.0\t(X11; Linux x86_64)";
const AGENT_CLEANED: &str = "Mozilla/5.0(X11; Linux x86_64)";

/// A server on `store` that e-mails leads to `smtp` and posts them to `hook`.
async fn server(store: Arc<Store>, smtp: &SmtpServer, hook: &Hook) -> TestServer {
    let config = common::config(&[
        ("RATE_LIMIT_PER_MINUTE", "100000"),
        ("SMTP_URL", &smtp.url()),
        ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
        ("WEBHOOK_URL", &hook.url),
        ("WEBHOOK_SECRET", "a webhook secret of some length"),
    ]);
    common::start_with_store(config, site_server::assets::SSR_BUNDLE, store).await
}

/// A page address whose every utm_* value holds `escape`.
fn link(escape: &str) -> String {
    format!(
        "https://www.ringready.example/hvac?utm_source=goo{escape}gle&utm_medium=c{escape}pc&utm_campaign=spring{escape}promo\
         &utm_term=ac{escape}repair&utm_content=ad{escape}1&gclid={escape}"
    )
}

/// POSTs a lead from the page `link` (in the body and as the Referer header) with `AGENT`.
async fn post_from(s: &TestServer, n: u32, link: &str, body_changes: &[(&str, Value)]) -> reqwest::Response {
    let mut body = common::lead_body("hvac", &common::phone(n));
    body["pageUrl"] = json!(link);
    body["referrer"] = json!("https://www.google.com/search?q=hvac%00repair%1B");
    for (field, value) in body_changes {
        body[*field] = value.clone();
    }
    s.client
        .post(s.url(SUBMIT))
        .header("user-agent", AGENT)
        .header("referer", link)
        .json(&body)
        .send()
        .await
        .expect("post")
}

async fn id_of(r: reqwest::Response, what: &str) -> String {
    let status = r.status();
    let text = r.text().await.expect("body");
    assert_eq!(status, StatusCode::CREATED, "{what}: {text}");
    let answer: Value = serde_json::from_str(&text).expect("json");
    answer["id"].as_str().expect("id").to_string()
}

/// True when a text anywhere in `v` holds a character no derived value may hold.
fn holds_control(v: &Value) -> bool {
    match v {
        Value::String(s) => s.chars().any(|c| c.is_control() || c == '\u{202e}'),
        Value::Array(items) => items.iter().any(holds_control),
        Value::Object(map) => map.values().any(holds_control),
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_from_a_link_with_control_characters_is_stored_cleaned_and_delivered_on_both_stores() {
    for (db, store) in stores().await {
        let smtp = SmtpServer::start().await;
        let hook = Hook::start(200).await;
        let s = server(Arc::clone(&store), &smtp, &hook).await;
        let mut ids = Vec::new();
        for (n, escape) in ESCAPES.iter().enumerate() {
            let what = format!("{db}, {escape}");
            let id = id_of(post_from(&s, n as u32, &link(escape), &[]).await, &what).await;
            let lead = store.lead(&id).await.expect("read").expect("stored");
            let utm = [
                &lead.utm_source,
                &lead.utm_medium,
                &lead.utm_campaign,
                &lead.utm_term,
                &lead.utm_content,
            ]
            .map(|v| v.as_deref());
            assert_eq!(
                utm,
                [Some("google"), Some("cpc"), Some("springpromo"), Some("acrepair"), Some("ad1")],
                "{what}: each utm_* value without the character"
            );
            // The addresses hold no control character themselves (only escapes of one): kept as sent.
            assert_eq!(lead.page_url.as_deref(), Some(link(escape).as_str()), "{what}");
            assert_eq!(lead.seen_referer.as_deref(), Some(link(escape).as_str()), "{what}");
            assert_eq!(
                lead.referrer.as_deref(),
                Some("https://www.google.com/search?q=hvac%00repair%1B"),
                "{what}"
            );
            assert_eq!(lead.user_agent.as_deref(), Some(AGENT_CLEANED), "{what}: the tab is gone");
            ids.push(id);
        }

        // A literal NUL (JSON's \u0000) in the page and the referrer the page sends: an address
        // holding a control character is not kept, so the Referer header stands for the page.
        let id = id_of(
            post_from(
                &s,
                50,
                "https://www.ringready.example/hvac?utm_source=bing%00ads",
                &[
                    ("pageUrl", json!("https://www.ringready.example/hvac?utm_source=a\u{0}b")),
                    ("referrer", json!("\u{0}")),
                ],
            )
            .await,
            &format!("{db}, a literal NUL"),
        )
        .await;
        let lead = store.lead(&id).await.expect("read").expect("stored");
        assert_eq!(
            lead.page_url.as_deref(),
            Some("https://www.ringready.example/hvac?utm_source=bing%00ads"),
            "{db}: the Referer header's page"
        );
        assert_eq!(lead.referrer, None, "{db}");
        assert_eq!(lead.utm_source.as_deref(), Some("bingads"), "{db}");
        ids.push(id);

        // Delivered as stored: each lead's e-mail went out, its webhook carried the cleaned
        // values, and the console shows them.
        smtp.wait_for(ids.len(), 30).await;
        common::eventually(30, "every lead's webhook delivered", async || {
            ids.iter().all(|id| hook.delivered(id) > 0)
        })
        .await;
        for request in hook.requests().iter().filter(|r| ids.contains(&r.lead_id)) {
            let source = &request.lead["source"];
            assert!(!holds_control(source), "{db}: {source}");
            if source["utm"]["source"] == "google" {
                assert_eq!(source["utm"]["campaign"], "springpromo", "{db}: {source}");
                assert_eq!(source["userAgent"], AGENT_CLEANED, "{db}: {source}");
            }
        }
        let sent = hook.requests();
        assert!(
            sent.iter().any(|r| r.lead["source"]["utm"]["source"] == "bingads"),
            "{db}: the lead of the Referer header's page"
        );
        common::admin::add_staff(&s, "ola@ringready.example").await;
        let session = common::admin::sign_in(&s, "ola@ringready.example").await;
        let (html, _) = common::admin::page(&s, &session, &format!("/admin/leads/{}", ids[0])).await;
        assert!(html.contains("springpromo") && html.contains(AGENT_CLEANED), "{db}");
        assert!(!html.contains('\u{0}') && !html.contains("&#0;"), "{db}");
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_leads_at_once_from_such_links_are_all_stored_on_both_stores() {
    for (db, store) in stores().await {
        let s = Arc::new(
            common::start_with_store(
                common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")]),
                site_server::assets::SSR_BUNDLE,
                Arc::clone(&store),
            )
            .await,
        );
        let tasks: Vec<_> = (0..3u32)
            .map(|n| {
                let s = Arc::clone(&s);
                tokio::spawn(async move { id_of(post_from(&s, 60 + n, &link("%00"), &[]).await, "at once").await })
            })
            .collect();
        for task in tasks {
            let id = task.await.expect("task");
            let lead = store.lead(&id).await.expect("read").expect("stored");
            assert_eq!(lead.utm_source.as_deref(), Some("google"), "{db}");
        }
        assert_eq!(store.count_leads().await.expect("count"), 3, "{db}: 3 of 3");
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_requests_and_applications_keep_the_same_values_cleaned_on_both_stores() {
    for (db, store) in stores().await {
        let s = common::start_with_store(
            common::config(&[("RATE_LIMIT_PER_MINUTE", "100000")]),
            site_server::assets::SSR_BUNDLE,
            Arc::clone(&store),
        )
        .await;
        let page = link("%00");
        let request = json!({
            "source": "signup", "accountType": "homeowner", "firstName": "Dana", "lastName": "Whitfield",
            "email": "dana+derived@example.com", "username": "danaw", "address": "118 Maple Street, Erie, PA 16501",
        });
        let application = json!({
            "firstName": "Jane", "lastName": "Okafor", "email": "jane+derived@example.com", "phone": "(412) 555-0188",
            "company": "LeadFlow Media", "website": "leadflow.example", "experience": "experienced",
            "monthlyVolume": "100-500", "selectedCampaigns": ["HVAC Repair Transfers"],
            "pageUrl": "https://www.ringready.example/campaigns?utm_source=x\u{0}",
        });
        for (path, body) in [("/api/account-requests", request), ("/api/campaign-applications", application)] {
            let what = format!("{db}, {path}");
            let r = s
                .client
                .post(s.url(path))
                .header("user-agent", AGENT)
                .header("referer", &page)
                .json(&body)
                .send()
                .await
                .expect("post");
            let id = id_of(r, &what).await;
            let stored = store.submission(&id).await.expect("read").expect("stored");
            assert_eq!(stored.user_agent.as_deref(), Some(AGENT_CLEANED), "{what}");
            assert_eq!(
                stored.page_url.as_deref(),
                Some(page.as_str()),
                "{what}: the Referer header's page (an address with a NUL in it is not kept)"
            );
        }
        store.close().await;
    }
}
