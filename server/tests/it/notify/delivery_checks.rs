//! The do-not-call list binds when a notification is sent, not only when a lead is stored,
//! on both stores (docs/decisions/011): adding a number suppresses the undelivered
//! notifications of its leads at once; the outbox claim, a console Retry and `site outbox
//! retry` check the list (and erasure) in the transaction that would send; the outcome is
//! shown on the lead's page and counted in /metrics; and under concurrency no claim returns
//! a notification of a number listed, or a lead erased, before the claim began.

use crate::common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::LOCATION;
use site_server::assets;
use site_server::store::postgres::PgStore;
use site_server::store::{Channel, Outbox, Person, Retried, RetryOutcome, RetryScope, Store, now_ms};

use common::admin::{add_staff, audit, page, post, sign_in};
use common::stores::{Raw, execute, raw_stores, stores, texts};
use common::{Hook, TestServer, accepted_lead, config, eventually, give_up_webhook, lead_body, new_lead, start_with_store, unescape_html};

const SECRET: &str = "a webhook secret of some length";

/// A server on `store` posting leads to `hook`, retrying every 100-200 ms.
async fn server(store: Arc<Store>, hook: &Hook) -> TestServer {
    let cfg = config(&[
        ("WEBHOOK_URL", &hook.url),
        ("WEBHOOK_SECRET", SECRET),
        ("NOTIFY_RETRY_BASE_MS", "100"),
        ("NOTIFY_RETRY_MAX_MS", "200"),
        ("RATE_LIMIT_PER_MINUTE", "100000"),
    ]);
    start_with_store(cfg, assets::SSR_BUNDLE, store).await
}

async fn submit(server: &TestServer, slug: &str, phone: &str, name: &str) -> String {
    let mut body = lead_body(slug, phone);
    body["fullName"] = name.into();
    accepted_lead(server, &body, "").await
}

#[tokio::test]
async fn adding_a_number_stops_its_pending_and_failed_notifications_and_retry_sends_nothing() {
    for (name, store) in stores().await {
        let hook = Hook::start(503).await;
        let server = server(store, &hook).await;
        add_staff(&server, "kai@ringready.example").await;
        let session = sign_in(&server, "kai@ringready.example").await;
        let pending = submit(&server, "hvac", "(412) 555-0166", "Avery Stone").await;
        let failed = submit(&server, "plumbing", "412.555.0166", "Avery Stone").await;
        let other = submit(&server, "hvac", "(412) 555-0177", "Blake Moss").await;
        for id in [&pending, &failed, &other] {
            eventually(10, "each webhook is tried", async || hook.tries(id) >= 1).await;
        }
        give_up_webhook(&server.state.store, &failed).await;
        let (html, csrf) = page(&server, &session, &format!("/admin/leads/{failed}")).await;
        assert!(html.contains("Retry webhook"), "{name}: failed, so it can be retried");
        let webhook = |id: String| {
            let store = Arc::clone(&server.state.store);
            async move {
                let d = store.lead_detail(&id).await.expect("read").expect("lead");
                d.deliveries.into_iter().find(|o| o.channel == "webhook").expect("webhook row")
            }
        };
        let failed_row = webhook(failed.clone()).await;
        assert_eq!(failed_row.status, "failed", "{name}");

        // The person asks not to be called: both undelivered notifications stop at once.
        let r = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", &csrf), ("phone", "+1 412 555 0166"), ("reason", "Asked not to be called")],
        )
        .await;
        assert_eq!(
            r.headers()[LOCATION],
            "/admin/suppressions?phone=%2B14125550166&done=added&stopped=2",
            "{name}"
        );
        let (html, _) = page(&server, &session, "/admin/suppressions?phone=%2B14125550166&done=added&stopped=2").await;
        assert!(
            unescape_html(&html).contains("2 notification(s) of its earlier leads that were not delivered yet never will be"),
            "{name}"
        );
        for id in [&pending, &failed] {
            assert_eq!(webhook(id.clone()).await.status, "suppressed", "{name}: {id}");
        }

        // The receiver is back; the other number's lead goes out, this number's never do,
        // not even when staff press the Retry they still see on a page opened before.
        hook.answer(200);
        eventually(10, "the other lead is delivered", async || hook.delivered(&other) == 1).await;
        let r = post(
            &server,
            &session,
            &format!("/admin/leads/{failed}/retry"),
            &[("csrf", &csrf), ("delivery", &failed_row.id.to_string())],
        )
        .await;
        assert_eq!(
            r.headers()[LOCATION],
            format!("/admin/leads/{failed}?done=suppressed").as_str(),
            "{name}"
        );
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            (hook.delivered(&pending), hook.delivered(&failed)),
            (0, 0),
            "{name}: nothing sent for the listed number: {:?}",
            hook.requests()
        );
        assert!(
            hook.requests().iter().all(|r| r.phone != "+14125550166" || r.status != 200),
            "{name}"
        );

        // The lead's page says what happened, and offers no Retry.
        for id in [&pending, &failed] {
            let d = server.state.store.lead_detail(id).await.expect("read").expect("lead");
            assert_eq!(d.delivery_status, "suppressed", "{name}");
            let suppressed: Vec<_> = d.attempts.iter().filter(|a| a.outcome == "suppressed").collect();
            assert_eq!(suppressed.len(), 1, "{name}: {:?}", d.attempts);
            let (html, _) = page(&server, &session, &format!("/admin/leads/{id}?done=suppressed")).await;
            let text = unescape_html(&html);
            assert!(
                text.contains("Not sent: on the do-not-call list") && text.contains("On the do-not-call list"),
                "{name}"
            );
            assert!(!text.contains("Retry webhook"), "{name}: nothing to retry");
            assert!(
                text.contains("Not sent: the number is on the do-not-call list, so the delivery is marked suppressed."),
                "{name}"
            );
        }
        let log = server.state.store.audit_log(None, 50).await.expect("audit");
        assert!(
            log.iter()
                .any(|e| e.action == "suppress" && e.target.as_deref() == Some("phone:+1412***0166")),
            "{name}"
        );

        // Counted in /metrics and on the health page.
        server.state.notifier.refresh_summary().await;
        let metrics = server.metrics().await;
        assert!(
            metrics.contains("site_notification_deliveries_24h{channel=\"webhook\",outcome=\"suppressed\"} 2"),
            "{name}: {metrics}"
        );
        let (html, _) = page(&server, &session, "/admin/health").await;
        assert!(html.contains("webhook: suppressed"), "{name}");
    }
}

#[tokio::test]
async fn however_a_number_got_on_the_list_the_claim_and_every_retry_check_it() {
    for (name, store, raw) in raw_stores().await {
        let now = now_ms();
        let listed = "+14125550188";
        let lead = |phone: &str, slug: &str| new_lead(phone, slug);
        let both = vec![Channel::Webhook, Channel::Email];
        let a = store.submit_lead(lead(listed, "hvac"), both.clone(), now).await.expect("a").id;
        let b = store
            .submit_lead(lead(listed, "roofing"), vec![Channel::Webhook], now)
            .await
            .expect("b")
            .id;
        let d = store
            .submit_lead(lead(listed, "solar"), vec![Channel::Webhook], now)
            .await
            .expect("d")
            .id;
        let c = store
            .submit_lead(lead("+14125550199", "hvac"), vec![Channel::Webhook], now)
            .await
            .expect("c")
            .id;
        let e = store
            .submit_lead(lead("+14125550177", "hvac"), vec![Channel::Webhook], now)
            .await
            .expect("e")
            .id;
        // a and c are being retried; b, d and e have failed for good.
        let claimed = store.claim_due(Outbox::Leads, now, 60_000, 100).await.expect("claim");
        assert_eq!(claimed.len(), 6, "{name}");
        for item in &claimed {
            if [&b, &d, &e].contains(&&item.lead().expect("a lead's notification").id) {
                store
                    .mark_failed(Outbox::Leads, item.id, item.claim, 1, "webhook answered 503")
                    .await
                    .expect("failed");
            } else {
                store
                    .mark_retry(Outbox::Leads, item.id, item.claim, 1, now, "webhook answered 503")
                    .await
                    .expect("retry");
            }
        }
        // A number written to the list without the console (an import straight into the
        // table; or a lead stored by a second server while the number was being added), and
        // an erased lead whose notification survived: nothing marked them.
        execute(
            &raw,
            &format!("INSERT INTO suppressions (phone_e164, reason, added_ms) VALUES ('{listed}', 'imported list', 0)"),
        )
        .await;
        execute(&raw, &format!("UPDATE leads SET erased_ms = 1 WHERE id = '{e}'")).await;

        // The claim: only c goes; a's two notifications are marked suppressed instead.
        let claimed = store.claim_due(Outbox::Leads, now + 1, 60_000, 100).await.expect("claim");
        let ids: Vec<&str> = claimed
            .iter()
            .map(|i| i.lead().expect("a lead's notification").id.as_str())
            .collect();
        assert_eq!(ids, [c.as_str()], "{name}");
        store
            .mark_delivered(Outbox::Leads, claimed[0].id, claimed[0].claim, 2, now + 2)
            .await
            .expect("delivered");

        // A console Retry of d, then `site outbox retry` of everything failed.
        let d_row = store.lead_detail(&d).await.expect("read").expect("d").deliveries[0].id;
        let e_row = store.lead_detail(&e).await.expect("read").expect("e").deliveries[0].id;
        let retry = |lead: String, row: i64| {
            let store = Arc::clone(&store);
            async move { store.retry_delivery(&lead, row, audit("retry"), now + 3).await.expect("retry") }
        };
        assert_eq!(retry(d.clone(), d_row).await, RetryOutcome::Suppressed, "{name}");
        assert_eq!(retry(d.clone(), d_row).await, RetryOutcome::Suppressed, "{name}: asked again");
        assert_eq!(retry(e.clone(), e_row).await, RetryOutcome::Erased, "{name}");
        assert_eq!(
            store.retry_failed(Outbox::Leads, RetryScope::All, now + 4).await.expect("retry"),
            Retried { sent: 0, suppressed: 1 },
            "{name}: b suppressed, e (erased) left alone"
        );
        assert!(
            store
                .claim_due(Outbox::Leads, now + 5, 60_000, 100)
                .await
                .expect("claim")
                .is_empty(),
            "{name}: nothing to send"
        );
        for (id, expect) in [(&a, "suppressed"), (&b, "suppressed"), (&d, "suppressed"), (&c, "delivered")] {
            let detail = store.lead_detail(id).await.expect("read").expect("lead");
            assert_eq!(detail.delivery_status, expect, "{name}: {id}");
            if expect == "suppressed" {
                assert!(
                    detail.deliveries.iter().all(|o| o.status == "suppressed"),
                    "{name}: {:?}",
                    detail.deliveries
                );
            }
        }
        let counted: i64 = store
            .deliveries_since(now - 60_000)
            .await
            .expect("counts")
            .iter()
            .filter(|c| c.outcome == "suppressed")
            .map(|c| c.count)
            .sum();
        assert_eq!(counted, 4, "{name}: a (two channels), b and d");
        let log = store.audit_log(None, 10).await.expect("audit");
        assert_eq!(log.len(), 1, "{name}: one Retry changed something");
        assert!(
            log[0].detail.as_deref().is_some_and(|d| d.contains("do-not-call")),
            "{name}: {:?}",
            log[0]
        );
    }
}

/// Phones of the concurrency test: the first four are listed while it runs, the next two
/// erased, the rest left alone.
fn phone(i: usize) -> String {
    format!("+1412555{:04}", 3000 + i)
}
const PHONES: usize = 10;
const LISTED: std::ops::Range<usize> = 0..4;
const ERASED: std::ops::Range<usize> = 4..6;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn under_concurrency_no_claim_returns_a_number_listed_or_erased_before_it_began() {
    for (name, store, raw) in raw_stores().await {
        // Several servers share a PostgreSQL database, each with its own connections; a
        // SQLite file has one server.
        let mut servers = vec![Arc::clone(&store)];
        if let Raw::Postgres { url, schema } = &raw {
            for _ in 0..3 {
                servers.push(Arc::new(Store::Postgres(
                    PgStore::connect(url, Some(schema)).await.expect("another server"),
                )));
            }
        }
        let base = now_ms();
        let services = ["hvac", "roofing", "plumbing", "solar", "flooring", "siding"];
        // Every lead is received at its own time, far enough apart never to be a repeat.
        let stamp = Arc::new(std::sync::atomic::AtomicI64::new(0));
        let at = {
            let stamp = Arc::clone(&stamp);
            move || base - 1_000_000_000 + stamp.fetch_add(11 * 60_000, Ordering::SeqCst)
        };
        for round in 0..15 {
            for i in 0..PHONES {
                store
                    .submit_lead(new_lead(&phone(i), services[round % services.len()]), vec![Channel::Webhook], at())
                    .await
                    .expect("lead");
            }
        }
        // Numbers whose listing (or erasure) has returned, as claimers read it before each claim.
        let done: Arc<Mutex<HashSet<String>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let claimed: Arc<Mutex<Vec<(String, bool)>>> = Arc::default();
        let mut claimers = Vec::new();
        for server in &servers {
            for _ in 0..2 {
                let (server, done, stop, claimed) = (Arc::clone(server), Arc::clone(&done), Arc::clone(&stop), Arc::clone(&claimed));
                claimers.push(tokio::spawn(async move {
                    while !stop.load(Ordering::SeqCst) {
                        let forbidden = done.lock().expect("lock").clone();
                        let items = server.claim_due(Outbox::Leads, now_ms(), 600_000, 3).await.expect("claim");
                        let leads: Vec<_> = items.iter().filter_map(|i| i.lead()).collect();
                        assert_eq!(leads.len(), items.len(), "only leads' notifications");
                        for lead in &leads {
                            assert!(
                                !forbidden.contains(&lead.phone),
                                "claimed a notification of {} after it was listed or erased",
                                lead.phone
                            );
                            assert!(!lead.full_name.is_empty(), "an erased lead was claimed");
                        }
                        let listed_later = |p: &str| LISTED.chain(ERASED).any(|i| phone(i) == p);
                        claimed
                            .lock()
                            .expect("lock")
                            .extend(leads.iter().map(|l| (l.phone.clone(), listed_later(&l.phone))));
                        if items.is_empty() {
                            tokio::time::sleep(Duration::from_millis(2)).await;
                        }
                    }
                }));
            }
        }
        // New leads keep arriving, for every number but the erased ones (a lead after an
        // erasure is a new request).
        let inserter = {
            let (store, at) = (Arc::clone(&store), at.clone());
            tokio::spawn(async move {
                for round in 0..20 {
                    for i in (0..PHONES).filter(|i| !ERASED.contains(i)) {
                        store
                            .submit_lead(new_lead(&phone(i), services[round % services.len()]), vec![Channel::Webhook], at())
                            .await
                            .expect("lead");
                    }
                }
            })
        };
        // The race must happen: the listing begins only once a claim has returned a number
        // that is about to be listed (on a loaded machine the claimers may not have run yet).
        let began = std::time::Instant::now();
        while !claimed.lock().expect("lock").iter().any(|(_, later)| *later) {
            assert!(began.elapsed() < Duration::from_secs(60), "{name}: no claim in a minute");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        for i in LISTED.chain(ERASED) {
            tokio::time::sleep(Duration::from_millis(15)).await;
            let number = phone(i);
            if LISTED.contains(&i) {
                let listed = store
                    .suppress(&number, "Replied STOP", audit("suppress"), now_ms())
                    .await
                    .expect("list");
                assert!(listed.added, "{name}");
            } else {
                store
                    .erase_person(&Person::PhoneE164(number.clone()), audit("erase"), now_ms())
                    .await
                    .expect("erase");
            }
            done.lock().expect("lock").insert(number);
        }
        inserter.await.expect("inserter");
        tokio::time::sleep(Duration::from_millis(300)).await;
        stop.store(true, Ordering::SeqCst);
        for c in claimers {
            c.await.expect("a claim returned what it must not");
        }
        // One last claim finds nothing of a listed number still waiting: each is suppressed.
        let last = store.claim_due(Outbox::Leads, now_ms(), 600_000, 10_000).await.expect("claim");
        assert!(
            last.iter().all(|i| !LISTED
                .chain(ERASED)
                .any(|n| phone(n) == i.lead().expect("a lead's notification").phone)),
            "{name}"
        );
        let claimed = claimed.lock().expect("lock").clone();
        let early = claimed.iter().filter(|(_, later)| *later).count();
        assert!(
            early > 0 && claimed.len() > early,
            "{name}: the claims raced the listing ({early} of {} before it)",
            claimed.len()
        );
        let in_list = LISTED.map(phone).map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ");
        let waiting = texts(
            &raw,
            &format!(
                "SELECT COUNT(*) FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE l.phone_e164 IN ({in_list}) AND o.status IN ('pending', 'failed') \
                 AND o.locked_until_ms = 0"
            ),
        )
        .await;
        assert_eq!(
            waiting,
            [Some("0".to_string())],
            "{name}: every unclaimed one of a listed number is suppressed"
        );
        let suppressed = texts(
            &raw,
            &format!(
                "SELECT COUNT(*) FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE l.phone_e164 IN ({in_list}) AND o.status = 'suppressed'"
            ),
        )
        .await;
        assert_ne!(suppressed, [Some("0".to_string())], "{name}");
        let erased = ERASED.map(phone).map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ");
        let left = texts(
            &raw,
            &format!(
                "SELECT COUNT(*) FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE l.phone_e164 IN ({erased}) AND o.status IN ('pending', 'failed')"
            ),
        )
        .await;
        assert_eq!(
            left,
            [Some("0".to_string())],
            "{name}: an erased lead's undelivered notifications are gone"
        );
        for s in servers.iter().skip(1) {
            s.close().await;
        }
    }
}
