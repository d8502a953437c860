//! The store suite, run against SQLite always and against PostgreSQL whenever
//! TEST_DATABASE_URL names one (.ci/run sets it to the server on our machines).

use crate::common;

use std::sync::Arc;

use common::stores::stores;
use site_server::leads::consent::{ConsentWordings, sha256_hex};
use site_server::leads::{Certificate, NewLead, RequestContext, TokenRecord, Utm};
use site_server::store::postgres::PgStore;
use site_server::store::{Channel, DUPLICATE_WINDOW_MS, Outbox, RetryScope, Store, now_ms};

fn lead(phone: &str, slug: &str) -> NewLead {
    let text = ConsentWordings::load("RingReady").expect("consent").current().to_string();
    NewLead {
        service_slug: slug.into(),
        phone: phone.into(),
        zip_code: Some("15213".into()),
        consent_sha256: sha256_hex(&text),
        consent_text: text,
        certificate: Certificate {
            cert_url: Some("https://cert.trustedform.com/0123abcd".into()),
            token: Some("0123abcd".into()),
            ping_url: Some("https://ping.trustedform.com/0123abcd".into()),
        },
        context: RequestContext {
            ip: Some("203.0.113.7".into()),
            user_agent: Some("Mozilla/5.0 (test)".into()),
            page_url: Some("https://www.ringready.example/hvac?utm_source=google".into()),
            referrer: Some("https://www.google.com/".into()),
            seen_referer: Some("https://www.ringready.example/hvac".into()),
            utm: Utm {
                source: Some("google".into()),
                ..Default::default()
            },
        },
        ..common::new_lead(phone, slug)
    }
}

#[tokio::test]
async fn a_lead_is_stored_with_its_consent_record_and_outbox_rows() {
    for (name, store) in stores().await {
        let now = now_ms();
        let submitted = store
            .submit_lead(lead("+14125550134", "hvac"), vec![Channel::Email, Channel::Webhook], now)
            .await
            .expect("submit");
        assert!(!submitted.duplicate, "{name}");
        let stored = store.lead(&submitted.id).await.expect("read").expect("present");
        assert_eq!(stored.received_at_ms, now, "{name}");
        assert_eq!(
            (stored.full_name.as_str(), stored.phone.as_str(), stored.service_slug.as_str()),
            ("Dana Whitfield", "+14125550134", "hvac")
        );
        assert!(
            stored.consent && stored.consent_text.contains("prior express written consent"),
            "{name}"
        );
        assert_eq!(stored.consent_sha256, sha256_hex(&stored.consent_text));
        assert_eq!(stored.cert_url.as_deref(), Some("https://cert.trustedform.com/0123abcd"));
        assert_eq!(stored.utm_source.as_deref(), Some("google"));
        assert_eq!(stored.ip.as_deref(), Some("203.0.113.7"));
        assert_eq!(stored.seen_referer.as_deref(), Some("https://www.ringready.example/hvac"), "{name}");
        let counts = store.outbox_counts(Outbox::Leads).await.expect("counts");
        assert_eq!(counts.pending, 2, "{name}");
        // Ids are time-ordered.
        let later = store
            .submit_lead(lead("+14125550135", "hvac"), vec![], now + 1)
            .await
            .expect("submit");
        assert!(later.id > submitted.id, "{name}: {} > {}", later.id, submitted.id);
        store.close().await;
    }
}

#[tokio::test]
async fn a_repeat_within_ten_minutes_returns_the_first_lead() {
    for (name, store) in stores().await {
        let t = now_ms();
        let first = store
            .submit_lead(lead("+14125550140", "roofing"), vec![Channel::Email], t)
            .await
            .expect("first");
        let again = store
            .submit_lead(lead("+14125550140", "roofing"), vec![Channel::Email], t + DUPLICATE_WINDOW_MS - 1)
            .await
            .expect("again");
        assert_eq!(again.id, first.id, "{name}");
        assert!(again.duplicate);
        let other_service = store
            .submit_lead(lead("+14125550140", "plumbing"), vec![], t + 5)
            .await
            .expect("other");
        assert!(!other_service.duplicate, "{name}: another service is another lead");
        let later = store
            .submit_lead(lead("+14125550140", "roofing"), vec![], t + DUPLICATE_WINDOW_MS + 1)
            .await
            .expect("later");
        assert!(!later.duplicate, "{name}: after the window it is a new lead");
        assert_eq!(
            store.outbox_counts(Outbox::Leads).await.expect("counts").pending,
            1,
            "{name}: the repeat made no notification"
        );
        store.close().await;
    }
}

/// systemd's watchdog pings while the writer answers a ping (main.rs): it answers while it
/// commits groups, and says it has stopped once closed.
#[tokio::test]
async fn the_writer_answers_a_ping_amid_writes_and_not_once_closed() {
    for (name, store) in stores().await {
        store.ping().await.unwrap_or_else(|e| panic!("{name}: an idle writer answers: {e}"));
        let mut tasks = Vec::new();
        for i in 0..50 {
            let store = Arc::clone(&store);
            tasks.push(tokio::spawn(async move {
                store
                    .submit_lead(lead(&format!("+1412555{:04}", 3000 + i), "solar"), vec![], now_ms())
                    .await
            }));
        }
        store.ping().await.unwrap_or_else(|e| panic!("{name}: a busy writer answers: {e}"));
        for t in tasks {
            t.await.expect("task").expect("submit");
        }
        store.close().await;
        assert!(
            matches!(store.ping().await, Err(site_server::store::StoreError::WriterStopped)),
            "{name}: a closed writer does not answer"
        );
    }
}

#[tokio::test]
async fn concurrent_submissions_are_all_committed() {
    for (name, store) in stores().await {
        let before = store.count_leads().await.expect("count");
        let mut tasks = Vec::new();
        for i in 0..400 {
            let store = Arc::clone(&store);
            tasks.push(tokio::spawn(async move {
                store
                    .submit_lead(lead(&format!("+1412555{:04}", 2000 + i), "solar"), vec![Channel::Email], now_ms())
                    .await
            }));
        }
        let mut ids = std::collections::HashSet::new();
        for t in tasks {
            let s = t.await.expect("task").expect("submit");
            assert!(!s.duplicate);
            ids.insert(s.id);
        }
        assert_eq!(ids.len(), 400, "{name}");
        assert_eq!(store.count_leads().await.expect("count") - before, 400, "{name}");
        for id in ids.iter().take(20) {
            assert!(store.lead(id).await.expect("read").is_some(), "{name}: {id}");
        }
        store.close().await;
    }
}

/// Requests that arrive together are committed as one group (set-based statements on
/// PostgreSQL): a phone repeated inside the group is stored once, every repeat gets that id,
/// and each new lead gets one outbox row per channel.
#[tokio::test]
async fn repeats_arriving_together_are_stored_once() {
    for (name, store) in stores().await {
        let leads_before = store.count_leads().await.expect("count");
        let pending_before = store.outbox_counts(Outbox::Leads).await.expect("counts").pending;
        let mut tasks = Vec::new();
        for i in 0..200u32 {
            let store = Arc::clone(&store);
            // Every fourth request is the same phone asking about roofing; the rest are distinct.
            let phone = if i % 4 == 0 {
                "+14125559999".to_string()
            } else {
                format!("+1412556{i:04}")
            };
            tasks.push(tokio::spawn(async move {
                store
                    .submit_lead(lead(&phone, "roofing"), vec![Channel::Email, Channel::Webhook], now_ms())
                    .await
            }));
        }
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.expect("task").expect("submit"));
        }
        let repeated: Vec<_> = results.iter().step_by(4).collect();
        assert_eq!(repeated.iter().filter(|s| !s.duplicate).count(), 1, "{name}: one first request");
        assert!(
            repeated.iter().all(|s| s.id == repeated[0].id),
            "{name}: every repeat gets the first id"
        );
        let others: Vec<_> = results.iter().enumerate().filter(|(i, _)| i % 4 != 0).map(|(_, s)| s).collect();
        assert!(others.iter().all(|s| !s.duplicate), "{name}");
        let ids: std::collections::HashSet<_> = others.iter().map(|s| &s.id).collect();
        assert_eq!(ids.len(), 150, "{name}: distinct ids");
        assert_eq!(store.count_leads().await.expect("count") - leads_before, 151, "{name}");
        assert_eq!(
            store.outbox_counts(Outbox::Leads).await.expect("counts").pending - pending_before,
            302,
            "{name}: two channels for each new lead"
        );
        let first = store.lead(&repeated[0].id).await.expect("read").expect("stored");
        assert_eq!(first.phone, "+14125559999", "{name}");
        assert_eq!(first.utm_source.as_deref(), Some("google"), "{name}");
        assert_eq!(first.cert_token.as_deref(), Some("0123abcd"), "{name}");
        store.close().await;
    }
}

/// On PostgreSQL a group is sent pipelined (INSERTs and COMMIT together): a write the
/// database refuses (here a NUL character, which PostgreSQL text cannot hold) fails alone;
/// the rest of its group is committed, nothing of the refused one stays, and the writer's
/// connection goes on working.
#[tokio::test]
async fn a_refused_write_fails_alone_and_the_writer_goes_on() {
    for (name, store) in stores().await {
        if name != "postgres" {
            continue; // SQLite stores a NUL like any other character
        }
        let before = store.count_leads().await.expect("count");
        let mut tasks = Vec::new();
        for i in 0..40u32 {
            let store = Arc::clone(&store);
            let mut l = lead(&format!("+1412557{i:04}"), "decks");
            if i == 17 {
                l.full_name = "Dana\0Whitfield".into();
            }
            tasks.push(tokio::spawn(
                async move { store.submit_lead(l, vec![Channel::Email], now_ms()).await },
            ));
        }
        let mut refused = Vec::new();
        for (i, t) in tasks.into_iter().enumerate() {
            match t.await.expect("task") {
                Ok(s) => assert!(!s.duplicate, "{i}"),
                Err(_) => refused.push(i),
            }
        }
        assert_eq!(refused, vec![17], "{name}: only the refused write fails");
        assert_eq!(store.count_leads().await.expect("count") - before, 39, "{name}");
        let after = store
            .submit_lead(lead("+14125579999", "decks"), vec![Channel::Email], now_ms())
            .await
            .expect("the writer still works");
        assert!(store.lead(&after.id).await.expect("read").is_some(), "{name}");
        store.close().await;
    }
}

/// The highest placeholder (`$N`, or `?N` on SQLite) of a statement: how many parameters it takes.
fn highest_placeholder(text: &str) -> usize {
    text.split(['$', '?'])
        .skip(1)
        .filter_map(|after| after.split(|c: char| !c.is_ascii_digit()).next()?.parse::<usize>().ok())
        .max()
        .unwrap_or(0)
}

/// Every statement the store runs prepares on its database, against the live schema, and
/// takes as many parameters as its highest placeholder: the shared ones on both, each
/// backend's own (its `statements()`) and one of each shape built at run time
/// (`sql::built::examples`) on its own (docs/decisions/015-shared-statements.md).
#[tokio::test]
async fn every_statement_prepares_on_its_database() {
    use site_server::store::sql::{self, Dialect, built};
    for (name, store, raw) in common::stores::raw_stores().await {
        for (statement, sql) in sql::ALL {
            let count = common::stores::parameter_count(&raw, sql.pg, sql.sqlite).await;
            assert_eq!(count, Ok(highest_placeholder(sql.pg)), "{name}: {statement}");
        }
        let (own, dialect): (Vec<_>, _) = match name {
            "sqlite" => (site_server::store::sqlite::statements().collect(), Dialect::Sqlite),
            _ => (site_server::store::postgres::statements().collect(), Dialect::Postgres),
        };
        assert!(own.len() > 20, "{name}: the backend lists its statements");
        let mut every: Vec<(String, String)> = own.iter().map(|(n, text)| (n.to_string(), text().to_string())).collect();
        every.extend(built::examples(dialect));
        for (statement, text) in &every {
            for single in sql::single_statements(text) {
                let count = common::stores::parameter_count(&raw, single, single).await;
                assert_eq!(count, Ok(highest_placeholder(single)), "{name}: {statement}: {single}");
            }
        }
        store.close().await;
    }
}

#[tokio::test]
async fn a_token_record_is_inserted_once_and_then_only_filled_in() {
    for (name, store) in stores().await {
        let token = format!("tok{}", now_ms());
        let t = now_ms();
        let first = TokenRecord {
            token: token.clone(),
            ping_url: None,
            service_slug: "hvac".into(),
            cert_url: Some(format!("https://cert.trustedform.com/{token}")),
        };
        store.record_token(first, t).await.expect("record");
        let second = TokenRecord {
            token: token.clone(),
            ping_url: Some("https://ping.trustedform.com/x".into()),
            service_slug: "roofing".into(),
            cert_url: None,
        };
        store.record_token(second, t + 10).await.expect("again");
        let stored = store.token(&token).await.expect("read").expect("present");
        assert_eq!(stored.service_slug, "hvac", "{name}: never overwritten");
        assert_eq!(
            stored.ping_url.as_deref(),
            Some("https://ping.trustedform.com/x"),
            "{name}: an empty field filled"
        );
        assert_eq!(
            stored.cert_url,
            Some(format!("https://cert.trustedform.com/{token}")),
            "{name}: kept from the first record"
        );
        // Anyone who learns the token cannot replace what was recorded.
        let overwrite = TokenRecord {
            token: token.clone(),
            ping_url: Some("https://ping.trustedform.com/attacker".into()),
            service_slug: "solar".into(),
            cert_url: Some("https://cert.trustedform.com/attacker".into()),
        };
        store.record_token(overwrite, t + 20).await.expect("again");
        let stored = store.token(&token).await.expect("read").expect("present");
        assert_eq!(
            (stored.service_slug.as_str(), stored.ping_url.as_deref()),
            ("hvac", Some("https://ping.trustedform.com/x")),
            "{name}"
        );
        assert_eq!(stored.cert_url, Some(format!("https://cert.trustedform.com/{token}")), "{name}");
        store.close().await;
    }
}

#[tokio::test]
async fn failed_notifications_are_summarised_and_sent_again_with_a_fresh_retry_period() {
    for (name, store) in stores().await {
        let t = now_ms() - 80 * 3_600_000;
        store
            .submit_lead(lead("+14125550161", "decks"), vec![Channel::Email], t)
            .await
            .expect("submit");
        let empty = store.outbox_summary(Outbox::Leads).await.expect("summary");
        assert_eq!(
            (empty.pending, empty.failed, empty.oldest_undelivered_ms),
            (1, 0, Some(t)),
            "{name}"
        );
        let now = now_ms();
        let items = store.claim_due(Outbox::Leads, now, 60_000, 10).await.expect("claim");
        assert_eq!(items.len(), 1, "{name}");
        assert_eq!(items[0].since_ms, t, "{name}: the effort began when the lead came in");
        store
            .mark_failed(Outbox::Leads, items[0].id, items[0].claim, 1, "421 try later")
            .await
            .expect("fail");
        let summary = store.outbox_summary(Outbox::Leads).await.expect("summary");
        assert_eq!(
            (summary.pending, summary.failed, summary.oldest_undelivered_ms),
            (0, 1, Some(t)),
            "{name}"
        );
        let failed = store.outbox_rows(Outbox::Leads, "failed", 10).await.expect("rows");
        assert_eq!(failed.len(), 1, "{name}");
        assert_eq!(failed[0].last_error.as_deref(), Some("421 try later"));
        assert_eq!(
            store
                .retry_failed(Outbox::Leads, RetryScope::One(failed[0].id + 1000), now)
                .await
                .expect("none")
                .sent,
            0,
            "{name}"
        );
        assert_eq!(
            store.retry_failed(Outbox::Leads, RetryScope::All, now).await.expect("retry").sent,
            1,
            "{name}"
        );
        let items = store.claim_due(Outbox::Leads, now, 60_000, 10).await.expect("claim");
        assert_eq!(items.len(), 1, "{name}: due again at once");
        assert_eq!(items[0].since_ms, now, "{name}: a fresh retry period from the operator's re-send");
        store
            .mark_delivered(Outbox::Leads, items[0].id, items[0].claim, 2, now + 1)
            .await
            .expect("delivered");
        let done = store.outbox_summary(Outbox::Leads).await.expect("summary");
        assert_eq!((done.pending, done.failed, done.oldest_undelivered_ms), (0, 0, None), "{name}");
        store.close().await;
    }
}

#[tokio::test]
async fn the_outbox_leases_retries_and_finishes() {
    for (name, store) in stores().await {
        let t = now_ms();
        let s = store
            .submit_lead(lead("+14125550150", "siding"), vec![Channel::Email, Channel::Webhook], t)
            .await
            .expect("submit");
        let claimed = store.claim_due(Outbox::Leads, t, 60_000, 10).await.expect("claim");
        let mine: Vec<_> = claimed.iter().filter(|i| i.lead().is_some_and(|l| l.id == s.id)).collect();
        assert_eq!(mine.len(), 2, "{name}");
        assert!(
            store
                .claim_due(Outbox::Leads, t + 1, 60_000, 10)
                .await
                .expect("claim")
                .iter()
                .all(|i| i.lead().is_some_and(|l| l.id != s.id)),
            "{name}: leased rows are not claimed twice"
        );
        let email = mine.iter().find(|i| i.channel() == Some(Channel::Email)).expect("email");
        let hook = mine.iter().find(|i| i.channel() == Some(Channel::Webhook)).expect("webhook");
        assert_eq!(email.lead().map(|l| l.full_name.as_str()), Some("Dana Whitfield"));
        store
            .mark_retry(Outbox::Leads, email.id, email.claim, 1, t + 5_000, "421 try later")
            .await
            .expect("retry");
        store
            .mark_failed(Outbox::Leads, hook.id, hook.claim, 10, "gave up")
            .await
            .expect("failed");
        assert!(
            store
                .claim_due(Outbox::Leads, t + 4_000, 60_000, 10)
                .await
                .expect("claim")
                .iter()
                .all(|i| i.id != email.id),
            "{name}: not due yet"
        );
        assert_eq!(
            store.next_due_in_ms(t + 4_000).await.expect("due").map(|d| d <= 1_000),
            Some(true),
            "{name}"
        );
        let again = store.claim_due(Outbox::Leads, t + 5_000, 60_000, 10).await.expect("claim");
        let retry = again.iter().find(|i| i.id == email.id).expect("due again");
        assert_eq!(retry.attempts, 1, "{name}");
        store
            .mark_delivered(Outbox::Leads, email.id, retry.claim, 2, t + 5_100)
            .await
            .expect("delivered");
        let counts = store.outbox_counts(Outbox::Leads).await.expect("counts");
        assert!(counts.delivered >= 1 && counts.failed >= 1, "{name}: {counts:?}");
        // An expired lease makes a row claimable again (a worker that died mid-delivery),
        // when the database's clock says it ended: a claimer's clock running ahead does not.
        let s2 = store
            .submit_lead(lead("+14125550151", "siding"), vec![Channel::Email], t)
            .await
            .expect("submit");
        let first = store.claim_due(Outbox::Leads, t, 3_000, 50).await.expect("claim");
        let first = first.iter().find(|i| i.lead().is_some_and(|l| l.id == s2.id)).expect("claimed");
        assert!(
            store
                .claim_due(Outbox::Leads, t + 600_000, 300, 50)
                .await
                .expect("claim")
                .iter()
                .all(|i| i.lead().is_none_or(|l| l.id != s2.id)),
            "{name}: a clock ten minutes ahead does not end another's lease"
        );
        let mut second = None;
        common::eventually(10, "the lease ends by the database's clock", async || {
            second = store
                .claim_due(Outbox::Leads, now_ms(), 60_000, 50)
                .await
                .expect("claim")
                .into_iter()
                .find(|i| i.lead().is_some_and(|l| l.id == s2.id));
            second.is_some()
        })
        .await;
        let second = second.expect("claimed again");
        assert!(second.claim > first.claim, "{name}: each claim a new token");
        store.close().await;
    }
}

#[tokio::test]
async fn retention_deletes_only_records_older_than_the_cutoff() {
    for (name, store) in stores().await {
        let seven_years_ms = 2557_i64 * 24 * 3600 * 1000;
        let now = now_ms();
        let old = store
            .submit_lead(lead("+14125550160", "decks"), vec![Channel::Email], now - seven_years_ms - 60_000)
            .await
            .expect("old");
        let new = store
            .submit_lead(lead("+14125550161", "decks"), vec![Channel::Email], now)
            .await
            .expect("new");
        let old_token = TokenRecord {
            token: format!("old{now}"),
            ping_url: None,
            service_slug: "decks".into(),
            cert_url: None,
        };
        store
            .record_token(old_token.clone(), now - seven_years_ms - 60_000)
            .await
            .expect("token");
        let (leads, certs) = store.purge_before(now - seven_years_ms).await.expect("purge");
        assert!(leads >= 1 && certs >= 1, "{name}");
        assert!(store.lead(&old.id).await.expect("read").is_none(), "{name}");
        assert!(store.lead(&new.id).await.expect("read").is_some(), "{name}");
        assert!(store.token(&old_token.token).await.expect("read").is_none(), "{name}");
        store.close().await;
    }
}

#[tokio::test]
async fn the_staff_audit_log_is_kept_as_long_as_the_records_it_names() {
    use site_server::store::NewAudit;
    for (name, store) in stores().await {
        let day = 24 * 3600 * 1000_i64;
        let received = now_ms() - 30 * day;
        let id = store
            .submit_lead(lead("+14125550162", "decks"), vec![], received)
            .await
            .expect("lead")
            .id;
        let line = |action| NewAudit {
            staff_id: None,
            action,
            target: Some(format!("lead:{id}")),
            ip: None,
            detail: None,
        };
        // Viewed the day it came in, exported ten days later.
        store.audit(line("view_consent"), received + 3_600_000).await.expect("audit");
        store.audit(line("export"), received + 10 * day).await.expect("audit");
        let actions = |log: Vec<site_server::store::AuditEntry>| log.into_iter().map(|e| e.action).collect::<Vec<_>>();

        // A cutoff that keeps the lead keeps every line about it.
        store.purge_before(received).await.expect("purge");
        assert!(store.lead(&id).await.expect("read").is_some(), "{name}");
        assert_eq!(
            actions(store.audit_log(None, 10).await.expect("log")),
            ["export", "view_consent"],
            "{name}"
        );
        // Once the lead is past the cutoff, only lines older than the cutoff go with it.
        store.purge_before(received + 5 * day).await.expect("purge");
        assert!(store.lead(&id).await.expect("read").is_none(), "{name}");
        assert_eq!(actions(store.audit_log(None, 10).await.expect("log")), ["export"], "{name}");
        store.close().await;
    }
}

#[tokio::test]
async fn reopening_keeps_everything_and_migrations_run_once() {
    let dir = common::temp_dir("reopen");
    let url = format!("sqlite:{}", dir.join("leads.db").display());
    let store = Store::open(&url).await.expect("open");
    let s = store
        .submit_lead(lead("+14125550170", "fences"), vec![], now_ms())
        .await
        .expect("submit");
    store.close().await;
    let store = Store::open(&url).await.expect("reopen");
    assert!(store.lead(&s.id).await.expect("read").is_some());
    store.close().await;
}

#[tokio::test]
async fn postgres_survives_a_dropped_connection() {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let schema = format!("store_test_{}_{}_drop", now_ms(), std::process::id());
    let store = Store::Postgres(PgStore::connect(&url, Some(&schema)).await.expect("connect"));
    let before = store
        .submit_lead(lead("+14125550180", "awnings"), vec![], now_ms())
        .await
        .expect("before");
    // A read, so the pool holds a connection too (it opens them when first needed).
    assert!(store.lead(&before.id).await.expect("read before").is_some());
    // Cut every connection of this store, as a database restart or failover would.
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("admin");
    tokio::spawn(connection);
    let cut = admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            &[&format!("site-server:{schema}")],
        )
        .await
        .expect("terminate");
    assert_eq!(
        cut, 3,
        "the writer's connection, the shared limits' (opened when the store opens) and the one the read took from the pool"
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // The first write may find the dead connection; the store reconnects and goes on.
    let mut ok = 0;
    for n in 0..3 {
        if store
            .submit_lead(lead(&format!("+1412555{:04}", 190 + n), "awnings"), vec![], now_ms())
            .await
            .is_ok()
        {
            ok += 1;
        }
    }
    assert!(ok >= 2, "writes succeed again after the connection was lost ({ok} of 3)");
    assert!(store.count_leads().await.expect("reads reconnect too") >= 3);
    store.close().await;
}

#[tokio::test]
async fn the_submission_e_mails_follow_the_same_retry_policy() {
    use site_server::store::{Mail, NewSubmission, SubmissionKind};
    for (name, store) in stores().await {
        let t = now_ms() - 80 * 3_600_000;
        let request = NewSubmission {
            kind: SubmissionKind::CampaignApplication,
            email: "a@example.com".into(),
            phone: None,
            data: serde_json::json!({ "campaign": "solar" }),
            context: RequestContext::default(),
        };
        let mail = Mail {
            subject: "New campaign application".into(),
            body: "Campaign: solar\n".into(),
        };
        store.submit_form(request, Some(mail), t).await.expect("submit");
        let now = now_ms();
        let claimed = store.claim_due(Outbox::Mail, now, 60_000, 10).await.expect("claim");
        assert_eq!(claimed.len(), 1, "{name}");
        assert_eq!(claimed[0].since_ms, t, "{name}");
        store
            .mark_failed(Outbox::Mail, claimed[0].id, claimed[0].claim, 1, "554 refused")
            .await
            .expect("fail");
        let summary = store.outbox_summary(Outbox::Mail).await.expect("summary");
        assert_eq!(
            (summary.pending, summary.failed, summary.oldest_undelivered_ms),
            (0, 1, Some(t)),
            "{name}"
        );
        let failed = store.outbox_rows(Outbox::Mail, "failed", 10).await.expect("rows");
        assert_eq!((failed.len(), failed[0].channel.as_str()), (1, "email"), "{name}");
        assert_eq!(
            store.retry_failed(Outbox::Leads, RetryScope::All, now).await.expect("leads").sent,
            0,
            "{name}"
        );
        assert_eq!(
            store
                .retry_failed(Outbox::Mail, RetryScope::One(failed[0].id), now)
                .await
                .expect("mail")
                .sent,
            1,
            "{name}"
        );
        let claimed = store.claim_due(Outbox::Mail, now, 60_000, 10).await.expect("claim");
        assert_eq!((claimed.len(), claimed[0].since_ms), (1, now), "{name}: a fresh retry period");
        store.close().await;
    }
}

#[tokio::test]
async fn seeded_leads_are_what_the_plan_says_on_both_stores() {
    use site_server::store::{SEED_FAILED_EVERY, SEED_PENDING_EVERY, SEED_SUPPRESSED_EVERY, SeedPlan};
    const N: i64 = 3000;
    for (name, store, raw) in common::stores::raw_stores().await {
        let plan = SeedPlan {
            leads: N,
            newest_ms: 1_800_000_000_000,
            spacing_ms: 60_000,
            id_prefix: "t".into(),
            services: vec!["hvac".into(), "roofing".into(), "solar".into()],
            notifications: true,
        };
        assert_eq!(plan.problem(), None);
        let seeded = store.seed_leads(&plan).await.expect("seed");
        assert_eq!(store.count_leads().await.expect("count"), N, "{name}");

        let newest = store.lead("t-00000000").await.expect("read").expect("lead 0");
        assert_eq!(
            (
                newest.received_at_ms,
                newest.service_slug.as_str(),
                newest.full_name.as_str(),
                newest.phone.as_str()
            ),
            (1_800_000_000_000, "hvac", "Maria Garcia", "+14122000000"),
            "{name}"
        );
        let lead = store.lead("t-00000021").await.expect("read").expect("lead 21");
        assert_eq!(
            (
                lead.received_at_ms,
                lead.service_slug.as_str(),
                lead.full_name.as_str(),
                lead.phone.as_str()
            ),
            (1_800_000_000_000 - 21 * 60_000, "hvac", "James Smith", "+14122000021"),
            "{name}"
        );
        assert_eq!(lead.utm_source.as_deref(), Some("google"), "{name}: 21 is a multiple of 3");

        // Every lead is suppressed, pending (no notification), failed or delivered, as the
        // plan's rules say, and the daily counts (kept by triggers) hold every lead.
        let (mut suppressed, mut pending, mut failed) = (0, 0, 0);
        for i in 0..N {
            if i % SEED_SUPPRESSED_EVERY == 0 {
                suppressed += 1;
            } else if i % SEED_FAILED_EVERY == 0 {
                failed += 1;
            } else if i % SEED_PENDING_EVERY == 0 {
                pending += 1;
            }
        }
        let delivered = N - suppressed - pending - failed;
        let statuses = common::stores::texts(
            &raw,
            "SELECT delivery_status || ' ' || COUNT(*) FROM leads GROUP BY delivery_status ORDER BY delivery_status",
        )
        .await;
        let expected = [
            format!("delivered {delivered}"),
            format!("failed {failed}"),
            format!("pending {pending}"),
            format!("suppressed {suppressed}"),
        ];
        assert_eq!(statuses, expected.map(Some), "{name}");
        assert_eq!(seeded.leads, N, "{name}");
        assert_eq!(seeded.notifications, delivered + failed, "{name}");
        let attempts = common::stores::texts(
            &raw,
            "SELECT outcome || ' ' || COUNT(*) FROM delivery_attempts GROUP BY outcome ORDER BY outcome",
        )
        .await;
        assert_eq!(
            attempts,
            [Some(format!("delivered {delivered}")), Some(format!("failed {failed}"))],
            "{name}"
        );
        let days = common::stores::texts(&raw, "SELECT kind || ' ' || SUM(leads) FROM lead_days GROUP BY kind ORDER BY kind").await;
        assert_eq!(days, [Some(format!("service {N}")), Some(format!("source {N}"))], "{name}");
    }
}

#[test]
fn a_seed_plan_that_cannot_be_seeded_says_why() {
    use site_server::store::SeedPlan;
    let plan = SeedPlan {
        leads: 10,
        newest_ms: 1_800_000_000_000,
        spacing_ms: 1000,
        id_prefix: "ok".into(),
        services: vec!["hvac".into()],
        notifications: false,
    };
    assert_eq!(plan.problem(), None);
    let problems = [
        SeedPlan { leads: 0, ..plan.clone() },
        SeedPlan {
            leads: 8_000_000,
            ..plan.clone()
        },
        SeedPlan {
            newest_ms: 5000,
            ..plan.clone()
        },
        SeedPlan {
            services: vec![],
            ..plan.clone()
        },
        SeedPlan {
            services: vec!["hvac'; DROP TABLE leads; --".into()],
            ..plan.clone()
        },
        SeedPlan {
            id_prefix: "a b".into(),
            ..plan.clone()
        },
    ];
    for p in problems {
        assert!(p.problem().is_some(), "{p:?}");
    }
}
