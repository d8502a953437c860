//! The staff console's leads, on both stores: found by a phone typed in any format and by
//! name, filtered, paged by keyset; the lead's consent record and every delivery attempt;
//! a failed delivery retried from its page.

use crate::common;

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use site_server::assets;
use site_server::leads::NewLead;
use site_server::store::{Channel, Store};
use std::sync::Arc;

use common::admin::{add_staff, get, page, post, sign_in};
use common::stores::stores;
use common::{SmtpServer, TestServer, accepted_lead, config, give_up_webhook, lead_body, start_with_store, unescape_html};

/// A server per store, e-mailing leads to a real SMTP server, and with a webhook that
/// nothing listens to: the worker retries it for days (decision 009), so
/// `common::give_up_webhook` gives it up as the worker does after `notify.give_up_after_hours`.
async fn servers(smtp: &SmtpServer) -> Vec<(&'static str, TestServer)> {
    let dead = format!("http://127.0.0.1:{}/hook", common::free_port());
    let mut out = Vec::new();
    for (name, store) in stores().await {
        let cfg = config(&[
            ("SMTP_URL", &smtp.url()),
            ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
            ("WEBHOOK_URL", &dead),
            ("WEBHOOK_SECRET", "a webhook secret of some length"),
        ]);
        out.push((name, start_with_store(cfg, assets::SSR_BUNDLE, store).await));
    }
    out
}

async fn submit(server: &TestServer, slug: &str, phone: &str, name: &str) -> String {
    let mut body = lead_body(slug, phone);
    body["fullName"] = name.into();
    accepted_lead(
        server,
        &body,
        "https://www.ringready.example/hvac?utm_source=google&utm_campaign=fall",
    )
    .await
}

/// Waits (10 s at most) until the lead's delivery status is `status`.
/// Waits (10 s at most) until the lead's e-mail has been delivered.
async fn wait_email_delivered(store: &Store, id: &str) {
    for _ in 0..200 {
        let d = store.lead_detail(id).await.expect("read").expect("lead");
        if d.attempts.iter().any(|a| a.channel == "email" && a.outcome == "delivered") {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("lead {id}: its e-mail was never delivered");
}

/// How many times the lead's webhook has been tried.
async fn webhook_tries(store: &Store, id: &str) -> usize {
    let d = store.lead_detail(id).await.expect("read").expect("lead");
    d.attempts.iter().filter(|a| a.channel == "webhook").count()
}

async fn wait_status(store: &Store, id: &str, status: &str) {
    for _ in 0..200 {
        if store
            .lead_detail(id)
            .await
            .expect("read")
            .is_some_and(|d| d.delivery_status == status)
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("lead {id} never reached {status}");
}

/// The ids of the leads a list page links to, in order.
fn listed(html: &str) -> Vec<String> {
    html.split("href=\"/admin/leads/")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn staff_find_a_lead_by_phone_in_any_format_and_read_its_consent_record() {
    let smtp = SmtpServer::start().await;
    for (name, server) in servers(&smtp).await {
        add_staff(&server, "ivy@ringready.example").await;
        let session = sign_in(&server, "ivy@ringready.example").await;
        let id = submit(&server, "hvac", "(412) 555-0134", "Maria Gonzalez").await;
        let other = submit(&server, "roofing", "412-555-0199", "Mario Lopez").await;
        give_up_webhook(&server.state.store, &id).await;
        wait_status(&server.state.store, &id, "failed").await;
        wait_email_delivered(&server.state.store, &id).await;

        for typed in ["412.555.0134", "+1 412 555 0134", "14125550134", "(412)555-0134"] {
            let (html, _) = page(&server, &session, &format!("/admin/leads?phone={}", urlencode(typed))).await;
            assert_eq!(listed(&html), std::slice::from_ref(&id), "{name}: {typed}");
            assert!(html.contains("href=\"tel:+14125550134\""), "{name}: tap to call");
            assert!(
                html.contains("(412) 555-0134") && html.contains("Maria Gonzalez") && html.contains("15213"),
                "{name}"
            );
        }
        let (html, _) = page(&server, &session, "/admin/leads?phone=555-01").await;
        assert!(
            listed(&html).is_empty() && unescape_html(&html).contains("is not a US phone number"),
            "{name}"
        );

        for (q, expect) in [
            ("gonz", vec![id.clone()]),
            ("MARI", vec![other.clone(), id.clone()]),
            ("maria+gon", vec![id.clone()]),
            ("lopez", vec![other.clone()]),
            ("zz", vec![]),
        ] {
            let (html, _) = page(&server, &session, &format!("/admin/leads?name={q}")).await;
            assert_eq!(listed(&html), expect, "{name}: name {q}");
        }
        let (html, _) = page(&server, &session, "/admin/leads?service=roofing").await;
        assert_eq!(listed(&html), std::slice::from_ref(&other), "{name}");
        let (html, _) = page(&server, &session, "/admin/leads?status=failed&service=hvac").await;
        assert_eq!(listed(&html), std::slice::from_ref(&id), "{name}");
        let (html, _) = page(&server, &session, "/admin/leads?status=delivered").await;
        assert!(listed(&html).is_empty(), "{name}: the webhook failed, so neither lead is delivered");
        let r = get(&server, &session, "/admin/leads?status=lost").await;
        assert!(
            r.text().await.expect("body").contains("There is no such delivery status."),
            "{name}"
        );

        let (html, _) = page(&server, &session, &format!("/admin/leads/{id}")).await;
        let text = unescape_html(&html);
        assert!(
            text.contains("Consent record") && text.contains(&common::consent_text()),
            "{name}: the exact wording"
        );
        let detail = server.state.store.lead_detail(&id).await.expect("read").expect("lead");
        assert!(text.contains(&detail.lead.consent_sha256), "{name}: its SHA-256");
        assert!(
            text.contains(&site_server::time::rfc3339(detail.lead.received_at_ms)),
            "{name}: UTC"
        );
        assert!(text.contains(" (UTC-0"), "{name}: local time with its offset");
        assert!(text.contains("utm_source") && text.contains("google"), "{name}");
        assert!(
            text.contains("https://www.ringready.example/hvac?utm_source=google"),
            "{name}: page URL"
        );
        assert!(text.contains("Retry webhook"), "{name}: the failed webhook can be retried");
        let log = server.state.store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].target.clone()),
            ("view_consent", Some(format!("lead:{id}"))),
            "{name}"
        );

        // Every attempt is listed: the e-mail delivered; the webhook tried and to be retried
        // (each failed try is a "retry": giving it up is no attempt of its own), then given up.
        let outcomes: Vec<(String, String)> = detail.attempts.iter().map(|a| (a.channel.clone(), a.outcome.clone())).collect();
        assert!(outcomes.contains(&("email".into(), "delivered".into())), "{name}: {outcomes:?}");
        assert!(outcomes.contains(&("webhook".into(), "retry".into())), "{name}: {outcomes:?}");
        assert!(
            !outcomes.iter().any(|(c, o)| c == "webhook" && o == "delivered"),
            "{name}: {outcomes:?}"
        );
        let webhook = detail.deliveries.iter().find(|d| d.channel == "webhook").expect("webhook row");
        assert_eq!(
            (webhook.status.as_str(), webhook.last_error.as_deref()),
            ("failed", Some("connection refused")),
            "{name}"
        );
        assert!(text.contains("connection refused"), "{name}: the last error is shown");
        let r = get(&server, &session, "/admin/leads/0190d1c4-6f1e-7a4b-9c1e-123456789abc").await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{name}");
    }
}

#[tokio::test]
async fn a_failed_delivery_is_retried_from_the_lead_page() {
    let smtp = SmtpServer::start().await;
    for (name, server) in servers(&smtp).await {
        add_staff(&server, "jo@ringready.example").await;
        let session = sign_in(&server, "jo@ringready.example").await;
        let id = submit(&server, "plumbing", "(724) 555-0111", "Pat Doyle").await;
        give_up_webhook(&server.state.store, &id).await;
        wait_status(&server.state.store, &id, "failed").await;
        let detail = server.state.store.lead_detail(&id).await.expect("read").expect("lead");
        let webhook = detail.deliveries.iter().find(|d| d.channel == "webhook").expect("webhook row");
        let email = detail.deliveries.iter().find(|d| d.channel == "email").expect("email row");
        let (_, csrf) = page(&server, &session, &format!("/admin/leads/{id}")).await;

        let r = post(
            &server,
            &session,
            &format!("/admin/leads/{id}/retry"),
            &[("csrf", &csrf), ("delivery", &email.id.to_string())],
        )
        .await;
        assert_eq!(
            r.headers()[LOCATION],
            format!("/admin/leads/{id}?done=not-failed").as_str(),
            "{name}: a delivered one is not retried"
        );
        let r = post(
            &server,
            &session,
            &format!("/admin/leads/{id}/retry"),
            &[("csrf", &csrf), ("delivery", &webhook.id.to_string())],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert_eq!(r.headers()[LOCATION], format!("/admin/leads/{id}?done=retry").as_str(), "{name}");
        let log = server.state.store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].detail.clone()),
            ("retry", Some(format!("delivery {}", webhook.id))),
            "{name}"
        );
        // Tried again at once; nothing listens still, so it is retried again, for a fresh
        // retry period (decision 009): pending, not given up at its first new failure.
        let tries_before = webhook_tries(&server.state.store, &id).await;
        for _ in 0..200 {
            if webhook_tries(&server.state.store, &id).await > tries_before {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let d = server.state.store.lead_detail(&id).await.expect("read").expect("lead");
        assert!(
            d.attempts.iter().filter(|a| a.channel == "webhook").count() > tries_before,
            "{name}: tried again: {:?}",
            d.attempts
        );
        let row = d.deliveries.iter().find(|o| o.channel == "webhook").expect("webhook row");
        assert_eq!(row.status, "pending", "{name}: being retried again");
        assert_eq!(d.delivery_status, "pending", "{name}");
        let again = post(
            &server,
            &session,
            &format!("/admin/leads/{id}/retry"),
            &[("csrf", &csrf), ("delivery", &webhook.id.to_string())],
        )
        .await;
        assert_eq!(
            again.headers()[LOCATION],
            format!("/admin/leads/{id}?done=not-failed").as_str(),
            "{name}: a pending one is not retried twice"
        );
        let (html, _) = page(&server, &session, &format!("/admin/leads/{id}?done=retry")).await;
        assert!(html.contains("tried again now"), "{name}");
    }
}

fn lead(n: u32) -> NewLead {
    NewLead {
        service_slug: if n.is_multiple_of(2) { "hvac".into() } else { "roofing".into() },
        full_name: format!("Person {n}"),
        phone: format!("+1412555{:04}", n),
        zip_code: None,
        consent_text: "I agree.".into(),
        consent_sha256: "ab".repeat(32),
        ..Default::default()
    }
}

#[tokio::test]
async fn the_list_pages_by_keyset_newest_first_and_filters_by_date() {
    for (name, store) in stores().await {
        // No outbox worker: the twin's e-mail, queued in 2025, stays pending (a worker would
        // give it up at its first attempt, three days being long past).
        let server = common::start_without_workers(config(&[]), Arc::clone(&store)).await;
        add_staff(&server, "kai@ringready.example").await;
        let session = sign_in(&server, "kai@ringready.example").await;
        // 120 leads a minute apart, the newest at 2025-01-15 12:00 UTC; two in the same ms.
        let newest = 1_736_942_400_000i64;
        let mut ids = Vec::new();
        for n in 0..120u32 {
            let at = newest - i64::from(119 - n) * 60_000;
            ids.push(store.submit_lead(lead(n), vec![], at).await.expect("lead").id);
        }
        let twin = store.submit_lead(lead(500), vec![Channel::Email], newest).await.expect("twin").id;
        let mut seen = Vec::new();
        let mut path = "/admin/leads".to_string();
        loop {
            let (html, _) = page(&server, &session, &path).await;
            let rows = listed(&html);
            assert!(rows.len() <= 50, "{name}");
            seen.extend(rows);
            let Some(at) = html.find("href=\"/admin/leads?before=") else {
                break;
            };
            path = unescape_html(html[at + 6..].split('"').next().expect("href"));
        }
        let mut expected: Vec<String> = ids.iter().rev().cloned().collect();
        let (a, b) = if twin > ids[119] {
            (twin.clone(), ids[119].clone())
        } else {
            (ids[119].clone(), twin.clone())
        };
        expected.splice(0..1, [a, b]);
        assert_eq!(seen, expected, "{name}: every lead once, newest first, ties by id");
        let (html, _) = page(&server, &session, "/admin/leads?status=pending").await;
        assert_eq!(listed(&html), std::slice::from_ref(&twin), "{name}");
        let (html, _) = page(&server, &session, "/admin/leads?status=none&service=roofing").await;
        assert_eq!(listed(&html).len(), 50, "{name}");
        // 2025-01-15 in New York runs from 05:00 UTC: the leads from 10:01 to 12:00 UTC.
        let (html, _) = page(&server, &session, "/admin/leads?from=2025-01-15&to=2025-01-15&service=hvac").await;
        assert_eq!(listed(&html).len(), 50, "{name}: 60 that day, 50 a page");
        let (html, _) = page(&server, &session, "/admin/leads?to=2025-01-14").await;
        assert!(listed(&html).is_empty(), "{name}");
        let r = get(&server, &session, "/admin/leads?from=yesterday").await;
        assert!(
            unescape_html(&r.text().await.expect("body")).contains("“yesterday” is not a date"),
            "{name}"
        );
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test]
async fn a_suppressed_number_is_stored_but_never_delivered_and_the_visitor_sees_success() {
    let smtp = SmtpServer::start().await;
    for (name, store) in stores().await {
        let cfg = config(&[("SMTP_URL", &smtp.url()), ("NOTIFY_RECIPIENTS", "dispatch@ringready.example")]);
        let server = start_with_store(cfg, assets::SSR_BUNDLE, store).await;
        add_staff(&server, "lou@ringready.example").await;
        let session = sign_in(&server, "lou@ringready.example").await;
        let (_, csrf) = page(&server, &session, "/admin/suppressions").await;

        let r = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", &csrf), ("phone", "555-01"), ("reason", "Replied STOP")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(
            unescape_html(&r.text().await.expect("body")).contains("is not a US phone number"),
            "{name}"
        );
        let r = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", &csrf), ("phone", "(878) 555-0150"), ("reason", " ")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}: a reason is required");

        let r = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", &csrf), ("phone", "878.555.0150"), ("reason", "Replied STOP")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert_eq!(
            r.headers()[LOCATION],
            "/admin/suppressions?phone=%2B18785550150&done=added",
            "{name}"
        );
        let (html, _) = page(&server, &session, "/admin/suppressions?phone=%2B18785550150&done=added").await;
        assert!(
            html.contains("(878) 555-0150") && html.contains("Replied STOP") && html.contains("lou@ringready.example"),
            "{name}"
        );
        let again = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", &csrf), ("phone", "8785550150"), ("reason", "again")],
        )
        .await;
        assert!(
            again.headers()[LOCATION].to_str().expect("location").ends_with("done=already"),
            "{name}"
        );
        let log = server.state.store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].target.as_deref()),
            ("suppress", Some("phone:+1878***0150")),
            "{name}"
        );

        // The visitor's answer is the usual one, the lead is kept, and nothing is sent.
        let id = submit(&server, "hvac", "(878) 555-0150", "Quinn Avery").await;
        let detail = server.state.store.lead_detail(&id).await.expect("read").expect("stored");
        assert_eq!(detail.delivery_status, "suppressed", "{name}");
        assert!(detail.deliveries.is_empty(), "{name}: no outbox row, so no e-mail ever");
        assert!(detail.suppressed_now, "{name}");
        let (html, _) = page(&server, &session, &format!("/admin/leads/{id}")).await;
        assert!(html.contains("On the do-not-call list") && html.contains("Do not call"), "{name}");
        // Another number is delivered as usual (its e-mail arrives).
        let before = smtp.messages().len();
        let delivered = submit(&server, "hvac", "(878) 555-0151", "Rae Avery").await;
        wait_status(&server.state.store, &delivered, "delivered").await;
        smtp.wait_for(before + 1, 10).await;

        let r = post(
            &server,
            &session,
            "/admin/suppressions/remove",
            &[("csrf", &csrf), ("phone", "+18785550150")],
        )
        .await;
        assert!(
            r.headers()[LOCATION].to_str().expect("location").ends_with("done=removed"),
            "{name}"
        );
        assert!(
            server
                .state
                .store
                .suppressions(Some("+18785550150"), None, 10)
                .await
                .expect("read")
                .is_empty(),
            "{name}"
        );
        let later = submit(&server, "roofing", "(878) 555-0150", "Quinn Avery").await;
        let detail = server.state.store.lead_detail(&later).await.expect("read").expect("stored");
        assert_ne!(detail.delivery_status, "suppressed", "{name}: delivered again once removed");
        assert_eq!(detail.deliveries.len(), 1, "{name}");
    }
}

/// A name most leads share (past the count from which SQLite walks the time index instead of
/// sorting every match), one few share, and one only one lead has (PostgreSQL then reads the
/// name index after testing the newest leads): each search lists the newest matches first,
/// ties by id, and the second page goes on where the first stopped. The leads arrive out of time
/// order, so neither store's insertion order can stand in for the list's order.
#[tokio::test]
async fn a_name_search_with_many_matches_lists_the_newest_first_across_pages() {
    use site_server::store::LeadFilter;
    for (name, store) in stores().await {
        let base = 1_736_942_400_000i64;
        let mut all: Vec<(i64, String, String)> = Vec::new();
        for n in 0..2_500u32 {
            // A permutation of 2,500 seconds (7,919 is prime to 2,500).
            let at = base + i64::from((n * 7_919) % 2_500) * 1_000;
            let full_name = if n % 6 == 0 {
                format!("Dana Parker {n}")
            } else {
                format!("Dana Walker {n}")
            };
            let mut l = lead(n);
            l.full_name = full_name.clone();
            l.phone = format!("+1412556{:04}", n);
            let id = store.submit_lead(l, vec![], at).await.expect("lead").id;
            all.push((at, id, full_name));
        }
        let twin_at = all.iter().map(|(at, _, _)| *at).max().expect("leads");
        let mut twin = lead(9_999);
        twin.full_name = "Robin Walkerton".into();
        let twin_id = store.submit_lead(twin, vec![], twin_at).await.expect("twin").id;
        all.push((twin_at, twin_id, "Robin Walkerton".into()));
        all.sort_by(|a, b| (b.0, &b.1).cmp(&(a.0, &a.1)));
        for (typed, word) in [("walker", "Walker"), ("dana PARKER", "Parker"), ("walkert", "Walkerton")] {
            let expected: Vec<&String> = all
                .iter()
                .filter(|(_, _, n)| n.contains(word))
                .map(|(_, id, _)| id)
                .take(100)
                .collect();
            let mut filter = LeadFilter {
                name_words: LeadFilter::words(typed),
                ..Default::default()
            };
            let first = store.list_leads(&filter, 50).await.expect("first page");
            let last = first.last().expect("a first page");
            filter.before = Some((last.received_at_ms, last.id.clone()));
            let second = store.list_leads(&filter, 50).await.expect("second page");
            let seen: Vec<&String> = first.iter().chain(second.iter()).map(|r| &r.id).collect();
            assert_eq!(seen, expected, "{name}: {typed}");
        }
    }
}
