//! Several servers on one database (docs/decisions/019, 020, 021): two store handles, or two
//! whole applications, on the same SQLite file or PostgreSQL schema. A claim's lease is the
//! database's clock's and an outcome is recorded only under the claim that sent it; a
//! notification sent twice carries one `Message-ID`; on PostgreSQL a notification queued by
//! one server wakes another's worker (LISTEN/NOTIFY); one server at a time runs the
//! scheduled jobs and exports the database's figures, and another takes over when it dies;
//! a visitor's request repeated through two servers stores one lead and sends one webhook.

use crate::common;

use std::sync::Arc;

use serde_json::json;
use site_server::leads::RequestContext;
use site_server::notify::delivery_key;
use site_server::notify::email::EmailSender;
use site_server::store::{Channel, Mail, NewSubmission, Outbox, OutboxItem, Person, Store, SubmissionKind, now_ms};

use common::stores::{Raw, execute, texts, twin_stores};

/// An account request with a staff e-mail, for the mail outbox.
fn account_request(email: &str) -> (NewSubmission, Mail) {
    let request = NewSubmission {
        kind: SubmissionKind::AccountRequest,
        email: email.into(),
        phone: None,
        data: json!({ "accountType": "homeowner", "email": email }),
        context: RequestContext::default(),
    };
    let mail = Mail {
        subject: "New Homeowner Registration".into(),
        body: "Name: Dana Whitfield\n".into(),
    };
    (request, mail)
}

/// The table of an outbox.
fn table(outbox: Outbox) -> &'static str {
    match outbox {
        Outbox::Leads => "outbox",
        Outbox::Mail => "mail_outbox",
    }
}

/// Queues one notification in each outbox (a lead's e-mail, an account request's e-mail).
async fn queue_one_of_each(store: &Store, n: u32) {
    store
        .submit_lead(
            common::new_lead(&format!("+1412555{:04}", 200 + n), "hvac"),
            vec![Channel::Email],
            now_ms(),
        )
        .await
        .expect("lead");
    let (request, mail) = account_request(&format!("person{n}@example.com"));
    store.submit_form(request, Some(mail), now_ms()).await.expect("submission");
}

/// The one item a claim returned (the test's store holds one due notification per outbox).
fn only(items: Vec<OutboxItem>, what: &str) -> OutboxItem {
    assert_eq!(items.len(), 1, "{what}: {items:?}");
    items.into_iter().next().expect("one")
}

/// Ends a claim's lease now, by the database's clock: what a stalled delivery (a slow mail
/// server, a paused process) comes to once its lease has run out.
async fn expire_lease(raw: &Raw, outbox: Outbox, id: i64) {
    execute(raw, &format!("UPDATE {} SET locked_until_ms = 0 WHERE id = {id}", table(outbox))).await;
}

#[tokio::test]
async fn a_late_outcome_never_overwrites_the_claim_that_took_over() {
    for (name, a, b, raw) in twin_stores().await {
        queue_one_of_each(&a, 1).await;
        for outbox in Outbox::ALL {
            let what = format!("{name}, {}", outbox.name());
            let mine = only(a.claim_due(outbox, now_ms(), 60_000, 10).await.expect("claim"), &what);
            assert!(
                b.claim_due(outbox, now_ms(), 60_000, 10).await.expect("claim").is_empty(),
                "{what}: leased to A"
            );
            // A's delivery stalls past its lease; B claims the notification, fails to send it
            // and schedules a retry.
            expire_lease(&raw, outbox, mine.id).await;
            let theirs = only(b.claim_due(outbox, now_ms(), 60_000, 10).await.expect("claim"), &what);
            assert_eq!(theirs.id, mine.id, "{what}");
            assert_ne!(theirs.claim, mine.claim, "{what}: each claim its own token");
            assert!(
                b.mark_retry(outbox, theirs.id, theirs.claim, 1, now_ms(), "421 try later")
                    .await
                    .expect("retry"),
                "{what}: B's outcome is recorded"
            );
            // A comes back: whatever it says is dropped, the row stays as B left it.
            for late in [
                a.mark_failed(outbox, mine.id, mine.claim, 1, "timed out").await,
                a.mark_delivered(outbox, mine.id, mine.claim, 1, now_ms()).await,
                a.mark_retry(outbox, mine.id, mine.claim, 1, now_ms() + 600_000, "timed out").await,
            ] {
                assert!(!late.expect("late outcome"), "{what}: a lost claim records nothing");
            }
            let rows = a.outbox_rows(outbox, "pending", 10).await.expect("rows");
            let row = rows.iter().find(|r| r.id == mine.id).expect("still pending");
            assert_eq!(
                (row.attempts, row.last_error.as_deref(), row.claim),
                (1, Some("421 try later"), theirs.claim),
                "{what}"
            );
            // B's retry goes out: delivered once, and A's stale token still changes nothing.
            let again = only(b.claim_due(outbox, now_ms(), 60_000, 10).await.expect("claim"), &what);
            assert!(
                b.mark_delivered(outbox, again.id, again.claim, 2, now_ms())
                    .await
                    .expect("delivered"),
                "{what}"
            );
            assert!(
                !a.mark_failed(outbox, mine.id, mine.claim, 2, "timed out").await.expect("late"),
                "{what}"
            );
            let counts = a.outbox_counts(outbox).await.expect("counts");
            assert_eq!((counts.delivered, counts.pending, counts.failed), (1, 0, 0), "{what}");
        }
        a.close().await;
        b.close().await;
    }
}

#[tokio::test]
async fn a_server_whose_clock_runs_ahead_never_takes_a_leased_notification() {
    for (name, a, b, _raw) in twin_stores().await {
        queue_one_of_each(&b, 2).await;
        for outbox in Outbox::ALL {
            let what = format!("{name}, {}", outbox.name());
            let mine = only(a.claim_due(outbox, now_ms(), 120_000, 10).await.expect("claim"), &what);
            // B's clock says four minutes later than A's: past A's two-minute lease by B's
            // reckoning, not by the database's.
            let ahead = now_ms() + 4 * 60_000;
            assert!(
                b.claim_due(outbox, ahead, 120_000, 10).await.expect("claim").is_empty(),
                "{what}: a fast clock must not end another server's lease"
            );
            assert!(
                a.mark_delivered(outbox, mine.id, mine.claim, 1, now_ms()).await.expect("delivered"),
                "{what}"
            );
        }
        a.close().await;
        b.close().await;
    }
}

/// The `Message-ID` header of a raw message.
fn message_id(raw: &str) -> Option<String> {
    raw.lines()
        .find_map(|l| l.strip_prefix("Message-ID:").or_else(|| l.strip_prefix("Message-Id:")))
        .map(|v| v.trim().to_string())
}

#[tokio::test]
async fn a_notification_sent_again_after_a_crash_carries_the_same_message_id() {
    let smtp = common::SmtpServer::start().await;
    let config = common::config(&[("SMTP_URL", &smtp.url()), ("NOTIFY_RECIPIENTS", "dispatch@ringready.example")]);
    let sender = EmailSender::new(&config.notify).expect("sender");
    let mut sent = Vec::new();
    for (name, a, b, raw) in twin_stores().await {
        let lead = a
            .submit_lead(common::new_lead("+14125550193", "hvac"), vec![Channel::Email], now_ms())
            .await
            .expect("lead");
        // A sends the e-mail and dies before recording it; its lease runs out; B sends it again.
        let mine = only(a.claim_due(Outbox::Leads, now_ms(), 60_000, 10).await.expect("claim"), name);
        let record = mine.lead().expect("a lead").clone();
        sender.send(&record, "HVAC", &delivery_key(&mine.notice)).await.expect("A sends");
        expire_lease(&raw, Outbox::Leads, mine.id).await;
        let theirs = only(b.claim_due(Outbox::Leads, now_ms(), 60_000, 10).await.expect("claim"), name);
        sender.send(&record, "HVAC", &delivery_key(&theirs.notice)).await.expect("B sends");
        assert!(
            b.mark_delivered(Outbox::Leads, theirs.id, theirs.claim, 1, now_ms())
                .await
                .expect("delivered")
        );
        sent.push(lead.id);
    }
    let messages = smtp.wait_for(2 * sent.len(), 20).await;
    for id in sent {
        let ids: Vec<_> = messages.iter().filter(|m| m.contains(&id)).map(|m| message_id(m)).collect();
        let expected = Some(format!("<lead-{id}.email@ringready.example>"));
        assert_eq!(ids, [expected.clone(), expected], "one Message-ID, named after the notification");
    }
}

#[tokio::test]
async fn one_server_runs_the_scheduled_jobs_and_another_takes_over_when_it_dies() {
    for (name, a, b, raw) in twin_stores().await {
        // One webhook notification that cannot go (no webhook is set up): pending for good.
        a.submit_lead(common::new_lead("+14125550194", "hvac"), vec![Channel::Webhook], now_ms())
            .await
            .expect("lead");
        let config = common::config(&[("LEADER_LEASE_MS", "5000")]);
        let (one, one_workers) = common::start_with_background(config.clone(), site_server::assets::SSR_BUNDLE, a).await;
        let (two, two_workers) = common::start_with_background(config, site_server::assets::SSR_BUNDLE, b).await;
        let mut leader = None;
        common::eventually(30, "one of the two runs the jobs and exports the outbox", async || {
            let figures = [one.metrics().await, two.metrics().await];
            let leaders: Vec<usize> = (0..2)
                .filter(|i| common::sample(&figures[*i], "site_jobs_leader") == Some(1.0))
                .collect();
            if leaders.len() != 1 || !figures.iter().all(|m| common::sample(m, "site_jobs_leader").is_some()) {
                return false;
            }
            let (l, other) = (&figures[leaders[0]], &figures[1 - leaders[0]]);
            assert_eq!(common::sample(other, "site_jobs_leader"), Some(0.0), "{name}");
            assert_eq!(
                common::sample(other, "site_scheduled_job_runs_total{job=\"retention\"}"),
                None,
                "{name}: only the leader purges"
            );
            assert!(
                !other.contains("site_outbox_depth{") && !other.contains("site_outbox_oldest_undelivered_seconds{"),
                "{name}: the database's figures come from the leader only: {other}"
            );
            leader = Some(leaders[0]);
            common::sample(l, "site_scheduled_job_runs_total{job=\"retention\"}") == Some(1.0)
                && common::sample(l, "site_outbox_depth{outbox=\"leads\",status=\"pending\"}") == Some(1.0)
        })
        .await;
        let leader = leader.expect("a leader");
        let (servers, mut workers) = ([one, two], [Some(one_workers), Some(two_workers)]);
        let holder = servers[0].state.store.jobs_leader().await.expect("read").expect("held");
        assert!(holder.contains(&format!(":{}:", std::process::id())), "{name}: {holder}");
        // The leader dies: its workers stop where they are, and its lease is not given up.
        drop(workers[leader].take());
        let survivor = &servers[1 - leader];
        common::eventually(30, "the other server takes the jobs over", async || {
            let m = survivor.metrics().await;
            common::sample(&m, "site_jobs_leader") == Some(1.0)
                && common::sample(&m, "site_scheduled_job_runs_total{job=\"retention\"}") == Some(1.0)
                && common::sample(&m, "site_outbox_depth{outbox=\"leads\",status=\"pending\"}") == Some(1.0)
        })
        .await;
        let now_held = survivor.state.store.jobs_leader().await.expect("read").expect("held");
        assert_ne!(now_held, holder, "{name}: a new holder");
        // The survivor stops in order: it gives the lease up.
        if let Some(w) = workers[1 - leader].take() {
            w.shutdown(std::time::Duration::from_secs(10)).await;
        }
        let left: Vec<_> = texts(&raw, "SELECT holder FROM job_leader").await;
        assert!(left.is_empty(), "{name}: given up on stopping: {left:?}");
    }
}

#[tokio::test]
async fn a_lead_taken_by_one_server_is_sent_by_another_woken_by_the_database() {
    let twins = twin_stores().await;
    let Some((_, a, b, Raw::Postgres { url, schema })) = twins.into_iter().find(|(name, ..)| *name == "postgres") else {
        return; // PostgreSQL only: SQLite has one server, woken by its own requests.
    };
    let smtp = common::SmtpServer::start().await;
    let config = common::config(&[
        ("SMTP_URL", &smtp.url()),
        ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
        ("RATE_LIMIT_PER_MINUTE", "1000"),
        // Only a wake-up can make B look at the outbox within the test.
        ("NOTIFY_POLL_INTERVAL_MS", "3600000"),
    ]);
    let taker = common::start_without_workers(config.clone(), a).await;
    let (worker, _workers) = common::start_with_background(config, site_server::assets::SSR_BUNDLE, b).await;
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("postgres");
    tokio::spawn(connection);
    let name = format!("site-listener:{schema}");
    let listeners = async || -> Vec<i32> {
        client
            .query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", &[&name])
            .await
            .expect("pg_stat_activity")
            .iter()
            .map(|r| r.get(0))
            .collect()
    };
    let mut pids = Vec::new();
    common::eventually(30, "B listens", async || {
        pids = listeners().await;
        pids.len() == 1
    })
    .await;
    let first = common::accepted_lead(&taker, &common::lead_body("hvac", &common::phone(401)), "").await;
    let messages = smtp.wait_for(1, 30).await;
    assert!(messages[0].contains(&first), "B sent A's lead");

    // The listening connection drops (a restart of PostgreSQL, a network cut): B connects
    // again, and a lead queued after that still wakes it.
    client
        .execute("SELECT pg_terminate_backend($1)", &[&pids[0]])
        .await
        .expect("terminate");
    common::eventually(60, "B listens again", async || {
        let now = listeners().await;
        now.len() == 1 && now != pids
    })
    .await;
    let second = common::accepted_lead(&taker, &common::lead_body("hvac", &common::phone(402)), "").await;
    let messages = smtp.wait_for(2, 30).await;
    assert!(messages.iter().any(|m| m.contains(&second)), "B sent A's second lead");
    common::eventually(10, "both recorded once", async || {
        worker.state.store.outbox_counts(Outbox::Leads).await.expect("counts").delivered == 2
    })
    .await;
}

/// The E.164 form of a [`common::phone`] number, as a lead and its webhook carry it.
fn e164(phone: &str) -> String {
    format!("+1{}", phone.chars().filter(char::is_ascii_digit).collect::<String>())
}

/// Sends `body` twice, the first through `first` and the second through `second`: one after
/// the other (the visitor's browser retrying), or both at the same moment, each on a
/// connection of its own. Both are answered 201, as a new lead would be.
async fn post_twice(first: &common::TestServer, second: &common::TestServer, body: &serde_json::Value, at_once: bool) {
    let post = |base: String, barrier: Option<Arc<tokio::sync::Barrier>>| {
        let body = body.clone();
        async move {
            let client = common::client();
            if let Some(barrier) = barrier {
                barrier.wait().await;
            }
            client
                .post(format!("{base}/.netlify/functions/submit-lead"))
                .json(&body)
                .send()
                .await
                .expect("post")
                .status()
        }
    };
    let statuses = if at_once {
        let barrier = Some(Arc::new(tokio::sync::Barrier::new(2)));
        let one = tokio::spawn(post(first.base.clone(), barrier.clone()));
        let two = tokio::spawn(post(second.base.clone(), barrier));
        [one.await.expect("task"), two.await.expect("task")]
    } else {
        [post(first.base.clone(), None).await, post(second.base.clone(), None).await]
    };
    assert_eq!(statuses, [reqwest::StatusCode::CREATED; 2], "{body}");
}

/// The same submission POSTed twice, through two servers on one PostgreSQL (once one after
/// the other, once at the same moment) or twice through SQLite's one server: one lead is
/// stored, one webhook notification queued, and the receiver is sent it once. Each server
/// runs its workers, so either may be the one that sends.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_request_repeated_through_two_servers_stores_one_lead_and_sends_one_webhook() {
    for (name, a, b, _) in twin_stores().await {
        let hook = common::Hook::start(200).await;
        let env = [
            ("WEBHOOK_URL", hook.url.as_str()),
            ("WEBHOOK_SECRET", "a webhook secret of some length"),
            ("RATE_LIMIT_PER_MINUTE", "100000"),
        ];
        let one = common::start_with_store(common::config(&env), site_server::assets::SSR_BUNDLE, a).await;
        // SQLite has one server per file (`site` refuses a second): both requests reach it.
        let two = match name {
            "postgres" => Some(common::start_with_store(common::config(&env), site_server::assets::SSR_BUNDLE, b).await),
            _ => None,
        };
        let second = two.as_ref().unwrap_or(&one);
        let mut phones = Vec::new();
        for (n, at_once) in [(0, false), (1, true), (2, false), (3, true)] {
            let phone = common::phone(7000 + n);
            // Every other pair starts at the second server.
            let (x, y) = if n % 2 == 0 { (&one, second) } else { (second, &one) };
            post_twice(x, y, &common::lead_body("hvac", &phone), at_once).await;
            phones.push(e164(&phone));
        }
        let store = &one.state.store;
        for phone in &phones {
            let found = store.person_records(&Person::PhoneE164(phone.clone())).await.expect("records");
            assert_eq!(found.leads.len(), 1, "{name}: {phone} is stored once");
        }
        common::eventually(30, "every webhook is delivered", async || {
            store.outbox_counts(Outbox::Leads).await.expect("counts").delivered == phones.len() as i64
        })
        .await;
        let counts = store.outbox_counts(Outbox::Leads).await.expect("counts");
        assert_eq!((counts.pending, counts.failed), (0, 0), "{name}: one notification per lead");
        // Give a second send, were there one, the time to arrive.
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        for phone in &phones {
            let sent: Vec<_> = hook.requests().into_iter().filter(|r| &r.phone == phone).collect();
            assert_eq!(sent.len(), 1, "{name}: {phone}'s webhook is sent once: {sent:?}");
        }
        assert_eq!(hook.requests().len(), phones.len(), "{name}: nothing else was sent");
        for s in [Some(one), two].into_iter().flatten() {
            s.state.store.close().await;
        }
    }
}
