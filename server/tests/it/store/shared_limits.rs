//! The limits several servers on one PostgreSQL share (docs/decisions/022-shared-limits.md),
//! with two app servers (two stores, two routers) on one database over real HTTP: a client
//! whose requests are spread over both gets one rate limit and one sign-in lockout, not
//! two, and new servers started on the database within the window (a restart) keep both;
//! expired windows are purged. The pool: a slow console query does not hold up a
//! session check on the same server. SQLite keeps its limits in memory, as before.
//! PostgreSQL parts run when TEST_DATABASE_URL is set.

use crate::common;

use std::sync::Arc;

use reqwest::StatusCode;
use reqwest::header::{COOKIE, RETRY_AFTER};
use site_server::assets;
use site_server::staff::throttle::{PER_ACCOUNT, PER_CLIENT};
use site_server::store::backend::Limits;
use site_server::store::{LeadFilter, LimitKey, LoginRules, Reserved, Store, Verdict, now_ms};

use common::admin::{add_staff, login_form};
use common::stores::{Raw, pg_client};
use common::{TestServer, config, start_with_store};

const SUBMIT: &str = "/.netlify/functions/submit-lead";

/// Two stores on one fresh schema of TEST_DATABASE_URL: two servers' worth.
async fn two_stores() -> Option<(Arc<Store>, Arc<Store>, Raw)> {
    let twins = common::stores::postgres_twins().await;
    if twins.is_none() {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test did not run");
    }
    twins
}

/// The limits a PostgreSQL store keeps for every server on it.
fn limits(store: &Store) -> &dyn Limits {
    store.shared_limits().expect("PostgreSQL keeps the shared limits")
}

/// Waits, if need be, until the database's clock has just started a rate limit window, so
/// that the few requests of a test all fall into one (windows are a minute long).
async fn fresh_window(db: &tokio_postgres::Client) {
    let row = db
        .query_one("SELECT ((extract(epoch FROM clock_timestamp()) * 1000)::BIGINT % 60000)", &[])
        .await
        .expect("clock");
    let into: i64 = row.get(0);
    if into > 40_000 {
        tokio::time::sleep(std::time::Duration::from_millis((60_000 - into + 200) as u64)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_charged_through_two_stores_at_once_is_allowed_its_limit_once() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    assert!(a.shared_limits().is_some());
    fresh_window(&pg_client(&raw).await).await;
    let limit = 25;
    let key = LimitKey::new("test", "203.0.113.9");
    let mut tasks = Vec::new();
    for i in 0..60 {
        let store = Arc::clone(if i % 2 == 0 { &a } else { &b });
        let key = key.clone();
        tasks.push(tokio::spawn(
            async move { limits(&store).charge(key, limit).await.expect("charge") },
        ));
    }
    let mut allowed = 0;
    for t in tasks {
        match t.await.expect("task") {
            Verdict::Allowed => allowed += 1,
            Verdict::Refused { retry_after_ms } => assert!((1..=60_000).contains(&retry_after_ms), "{retry_after_ms}"),
        }
    }
    assert_eq!(allowed, limit, "60 requests at once through two servers: the limit, once");
    let other = limits(&b)
        .charge(LimitKey::new("test", "203.0.113.10"), limit)
        .await
        .expect("charge");
    assert_eq!(other, Verdict::Allowed, "another key has its own allowance");
    a.close().await;
    assert!(
        limits(&a).charge(key, limit).await.is_err(),
        "the worker stopped with its store: the server's own limits take over"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_spread_over_two_servers_gets_one_rate_limit() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    let env = [("RATE_LIMIT_PER_MINUTE", "6"), ("TRUST_FORWARDED_FOR", "true")];
    let servers = [
        start_with_store(config(&env), assets::SSR_BUNDLE, a).await,
        start_with_store(config(&env), assets::SSR_BUNDLE, b).await,
    ];
    fresh_window(&pg_client(&raw).await).await;
    let post = async |server: &TestServer, visitor: &str, n: u32| {
        server
            .client
            .post(server.url(SUBMIT))
            .header("x-forwarded-for", visitor)
            .json(&common::lead_body("hvac", &common::phone(n)))
            .send()
            .await
            .expect("post")
    };
    for n in 0..6 {
        let r = post(&servers[n as usize % 2], "198.51.100.7", n).await;
        assert_eq!(r.status(), StatusCode::CREATED, "request {n} of 6, on server {}", n % 2);
    }
    for (i, server) in servers.iter().enumerate() {
        let r = post(server, "198.51.100.7", 10 + i as u32).await;
        assert_eq!(
            r.status(),
            StatusCode::TOO_MANY_REQUESTS,
            "the 7th and 8th, on server {i}: one limit, not two"
        );
        let wait: u64 = r.headers()[RETRY_AFTER].to_str().expect("text").parse().expect("seconds");
        assert!((1..=60).contains(&wait), "Retry-After {wait}");
    }
    let r = post(&servers[1], "198.51.100.8", 20).await;
    assert_eq!(r.status(), StatusCode::CREATED, "another visitor is not limited");
    for s in &servers {
        s.state.store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guesses_spread_over_two_servers_lock_the_account_once() {
    let Some((a, b, _)) = two_stores().await else { return };
    let env = [("RATE_LIMIT_PER_MINUTE", "100000"), ("TRUST_FORWARDED_FOR", "true")];
    let servers = [
        start_with_store(config(&env), assets::SSR_BUNDLE, a).await,
        start_with_store(config(&env), assets::SSR_BUNDLE, b).await,
    ];
    add_staff(&servers[0], "ola@ringready.example").await;
    let guess = async |server: &TestServer, visitor: &str, password: &str| {
        let (csrf, cookie) = login_form(server).await;
        server
            .client
            .post(server.url("/admin/login"))
            .header(COOKIE, format!("rr_admin_login={cookie}"))
            .header("x-forwarded-for", visitor)
            .form(&[("email", "ola@ringready.example"), ("password", password), ("csrf", csrf.as_str())])
            .send()
            .await
            .expect("post login")
            .status()
    };
    for n in 0..PER_ACCOUNT {
        // Each guess from a client of its own: only the account's count is at stake.
        let status = guess(&servers[n % 2], &format!("192.0.2.{n}"), "wrong").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "guess {n}, on server {}", n % 2);
    }
    for (i, server) in servers.iter().enumerate() {
        let status = guess(server, "192.0.2.99", common::admin::PASSWORD).await;
        assert_eq!(
            status,
            StatusCode::TOO_MANY_REQUESTS,
            "server {i}: locked after {PER_ACCOUNT} guesses over both, even with the right password"
        );
    }
    for s in &servers {
        s.state.store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_windows_and_attempts_are_purged() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    let db = pg_client(&raw).await;
    assert_eq!(
        limits(&a).charge(LimitKey::new("test", "current"), 5).await.expect("charge"),
        Verdict::Allowed
    );
    db.batch_execute(
        "INSERT INTO rate_windows (key, window_end_ms, hits) VALUES ('\\x00', 1000, 3); \
         INSERT INTO login_attempts (account, client, at_ms, expires_ms) VALUES ('\\x01', NULL, 1000, 2000), \
         ('\\x02', NULL, 1000, 9000000000000)",
    )
    .await
    .expect("old rows");
    assert_eq!(limits(&b).purge_limits().await.expect("purge"), 2, "the expired window and attempt");
    let left = |table: &'static str| {
        let db = &db;
        async move {
            let row = db.query_one(&format!("SELECT COUNT(*) FROM {table}"), &[]).await.expect("count");
            row.get::<_, i64>(0)
        }
    };
    assert_eq!(left("rate_windows").await, 1, "the current window stays");
    assert_eq!(left("login_attempts").await, 1, "the attempt still in its window stays");
    a.close().await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_console_query_does_not_hold_up_a_session_check() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    b.close().await;
    let server = start_with_store(config(&[]), assets::SSR_BUNDLE, a).await;
    let session = common::admin::sign_in(&server, {
        add_staff(&server, "ned@ringready.example").await;
        "ned@ringready.example"
    })
    .await;
    let Raw::Postgres { schema, .. } = &raw else {
        panic!("a PostgreSQL pair")
    };
    let ours = format!("site-server:{schema}");
    // Another connection holds the leads table: the console's lead list waits for it.
    let mut db = pg_client(&raw).await;
    let lock = db.transaction().await.expect("begin");
    lock.batch_execute("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE").await.expect("lock");
    let store = Arc::clone(&server.state.store);
    let slow = tokio::spawn(async move { store.list_leads(&LeadFilter::default(), 50).await });
    common::eventually(30, "the lead list is waiting for the lock", async || {
        let row = pg_client(&raw)
            .await
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' \
                 AND query LIKE '%FROM leads%'",
                &[&ours],
            )
            .await
            .expect("activity");
        row.get::<_, i64>(0) > 0
    })
    .await;
    // The same server checks a session (the console's every request) meanwhile.
    let r = server
        .client
        .get(server.url("/admin/audit"))
        .header(COOKIE, format!("rr_admin={session}"))
        .send()
        .await
        .expect("audit page");
    assert_eq!(r.status(), StatusCode::OK, "signed in, while the slow query still waits");
    assert!(!slow.is_finished(), "the slow query was still running");
    lock.rollback().await.expect("release");
    slow.await.expect("task").expect("the lead list, once the lock is gone");
    server.state.store.close().await;
}

/// The sample of `site_rate_limit_fallbacks_total` for `limit` in a /metrics text (0 when absent).
fn fallbacks(metrics: &str, limit: &str) -> u64 {
    let prefix = format!("site_rate_limit_fallbacks_total{{limit=\"{limit}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map_or(0, |n| n.trim().parse().expect("a count"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_limits_table_falls_back_to_the_servers_own_count_within_the_request_timeout() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    b.close().await;
    let timeout = std::time::Duration::from_millis(2000);
    let env = [
        ("RATE_LIMIT_PER_MINUTE", "3"),
        ("REQUEST_TIMEOUT_MS", "2000"),
        ("TRUST_FORWARDED_FOR", "true"),
    ];
    let server = start_with_store(config(&env), assets::SSR_BUNDLE, a).await;
    let Raw::Postgres { schema, .. } = &raw else {
        panic!("a PostgreSQL pair")
    };
    let ours = format!("site-server:{schema}");
    fresh_window(&pg_client(&raw).await).await;
    let visitor = "198.51.100.40";
    // A client that gives up long after the request timeout: a request that hangs fails the
    // test rather than the test hanging.
    let post = async |n: u32| {
        let started = std::time::Instant::now();
        let r = server
            .client
            .post(server.url(SUBMIT))
            .header("x-forwarded-for", visitor)
            .json(&common::lead_body("hvac", &common::phone(300 + n)))
            .timeout(std::time::Duration::from_secs(15))
            .send()
            .await
            .unwrap_or_else(|e| panic!("request {n} got no answer: {e}"));
        (r, started.elapsed())
    };

    // Another session holds the limits' table: every shared charge waits on it.
    let mut db = pg_client(&raw).await;
    let lock = db.transaction().await.expect("begin");
    lock.batch_execute("LOCK TABLE rate_windows IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");
    for n in 0..3 {
        let (r, took) = post(n).await;
        assert_eq!(r.status(), StatusCode::CREATED, "lead {n}, while the limits' table is locked");
        assert!(took < timeout, "lead {n} answered in {took:?}: within the request timeout");
        let id = r.json::<serde_json::Value>().await.expect("json")["id"]
            .as_str()
            .expect("id")
            .to_string();
        assert!(server.state.store.lead(&id).await.expect("read").is_some(), "lead {n} is stored");
    }
    assert_eq!(fallbacks(&server.metrics().await, "api"), 3, "each counted on this server instead");
    let (r, took) = post(3).await;
    assert_eq!(
        r.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "the server's own count holds the limit (3 a minute) meanwhile"
    );
    assert!(took < timeout, "refused in {took:?}");
    assert_eq!(fallbacks(&server.metrics().await, "api"), 4);

    // The database cancels each charge itself (its statement timeout): none is left waiting
    // on the lock, so none can count once it is released.
    let db = pg_client(&raw).await;
    let running = async || -> i64 {
        db.query_one(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE '%rate_windows%'",
            &[&ours],
        )
        .await
        .expect("activity")
        .get(0)
    };
    common::eventually(5, "no charge still waiting on the lock", async || running().await == 0).await;
    lock.rollback().await.expect("release");
    // None of the charges made while the table was locked counted in the database: each
    // was counted on this server instead.
    let key = LimitKey::new("api", visitor);
    let hits = async || -> Option<i32> {
        db.query_opt("SELECT hits FROM rate_windows WHERE key = $1", &[&key.as_bytes()])
            .await
            .expect("hits")
            .map(|r| r.get(0))
    };
    assert_eq!(hits().await, None, "nothing counted while locked");
    // The shared count works again: this server's own allowance is spent, yet the next
    // request is allowed, counted in the database.
    let (r, _) = post(4).await;
    assert_eq!(r.status(), StatusCode::CREATED, "counted in the database again");
    assert_eq!(hits().await, Some(1));
    assert_eq!(fallbacks(&server.metrics().await, "api"), 4, "no fallback once the table is free");
    server.state.store.close().await;
}

/// A server's restart on PostgreSQL: its store is closed (its limits' worker and connections
/// with it, as when the process stops) and a new server opens a new store on the same
/// schema, with nothing in memory.
async fn restarted(raw: &Raw, env: &[(&str, &str)]) -> TestServer {
    let Raw::Postgres { url, schema } = raw else {
        panic!("a PostgreSQL pair")
    };
    let store = site_server::store::postgres::PgStore::connect(url, Some(schema))
        .await
        .expect("the same schema, again");
    start_with_store(config(env), assets::SSR_BUNDLE, Arc::new(Store::Postgres(store))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitors_rate_limit_outlives_a_restart_of_every_server_within_the_window() {
    let Some((a, b, raw)) = two_stores().await else {
        return;
    };
    let env = [("RATE_LIMIT_PER_MINUTE", "6"), ("TRUST_FORWARDED_FOR", "true")];
    let servers = [
        start_with_store(config(&env), assets::SSR_BUNDLE, a).await,
        start_with_store(config(&env), assets::SSR_BUNDLE, b).await,
    ];
    fresh_window(&pg_client(&raw).await).await;
    let post = async |server: &TestServer, visitor: &str, n: u32| {
        server
            .client
            .post(server.url(SUBMIT))
            .header("x-forwarded-for", visitor)
            .json(&common::lead_body("hvac", &common::phone(n)))
            .send()
            .await
            .expect("post")
            .status()
    };
    for n in 0..6 {
        let status = post(&servers[n as usize % 2], "198.51.100.7", n).await;
        assert_eq!(status, StatusCode::CREATED, "request {n} of 6, on server {}", n % 2);
    }
    // Both servers stop; two new ones start on the same database, within the minute.
    for s in servers {
        s.state.store.close().await;
    }
    let servers = [restarted(&raw, &env).await, restarted(&raw, &env).await];
    for (i, server) in servers.iter().enumerate() {
        assert_eq!(
            post(server, "198.51.100.7", 10 + i as u32).await,
            StatusCode::TOO_MANY_REQUESTS,
            "restarted server {i}: the visitor's six are still counted"
        );
    }
    assert_eq!(
        post(&servers[0], "198.51.100.8", 20).await,
        StatusCode::CREATED,
        "another visitor is not limited"
    );
    for s in &servers {
        s.state.store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_lockout_outlives_a_restart_of_every_server_until_its_window_ends() {
    let Some((a, b, raw)) = two_stores().await else { return };
    let env = [("RATE_LIMIT_PER_MINUTE", "100000"), ("TRUST_FORWARDED_FOR", "true")];
    let servers = [
        start_with_store(config(&env), assets::SSR_BUNDLE, a).await,
        start_with_store(config(&env), assets::SSR_BUNDLE, b).await,
    ];
    add_staff(&servers[0], "ola@ringready.example").await;
    add_staff(&servers[0], "pia@ringready.example").await;
    let guess = async |server: &TestServer, visitor: &str, email: &str, password: &str| {
        let (csrf, cookie) = login_form(server).await;
        server
            .client
            .post(server.url("/admin/login"))
            .header(COOKIE, format!("rr_admin_login={cookie}"))
            .header("x-forwarded-for", visitor)
            .form(&[("email", email), ("password", password), ("csrf", csrf.as_str())])
            .send()
            .await
            .expect("post login")
            .status()
    };
    // The account's lockout: five guesses from five clients, over both servers.
    for n in 0..PER_ACCOUNT {
        let status = guess(&servers[n % 2], &format!("192.0.2.{n}"), "ola@ringready.example", "wrong").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "guess {n}, on server {}", n % 2);
    }
    // A client's lockout: twenty guesses from one address, each at an account of its own.
    for n in 0..PER_CLIENT {
        let email = format!("user{n}@ringready.example");
        let status = guess(&servers[n % 2], "203.0.113.77", &email, "wrong").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "client guess {n}, on server {}", n % 2);
    }
    // Every server stops; two new ones start on the same database.
    for s in servers {
        s.state.store.close().await;
    }
    let servers = [restarted(&raw, &env).await, restarted(&raw, &env).await];
    let right = common::admin::PASSWORD;
    for (i, server) in servers.iter().enumerate() {
        assert_eq!(
            guess(server, "192.0.2.99", "ola@ringready.example", right).await,
            StatusCode::TOO_MANY_REQUESTS,
            "restarted server {i}: the account is still locked, even with the right password"
        );
        assert_eq!(
            guess(server, "203.0.113.77", "pia@ringready.example", right).await,
            StatusCode::TOO_MANY_REQUESTS,
            "restarted server {i}: the client is still locked, even with the right password"
        );
    }
    // The lockouts end with their window, not with a restart.
    for server in &servers {
        server.state.staff.clock.advance(site_server::staff::throttle::WINDOW_MS);
    }
    assert_eq!(
        guess(&servers[1], "192.0.2.99", "ola@ringready.example", right).await,
        StatusCode::SEE_OTHER,
        "the account signs in once the window has passed"
    );
    assert_eq!(
        guess(&servers[0], "203.0.113.77", "pia@ringready.example", right).await,
        StatusCode::SEE_OTHER,
        "the client signs in once the window has passed"
    );
    for s in &servers {
        s.state.store.close().await;
    }
}

#[tokio::test]
async fn sqlite_keeps_its_limits_in_memory() {
    for (name, store) in common::stores::stores().await {
        assert_eq!(store.shared_limits().is_some(), name == "postgres", "{name}");
        if name == "sqlite" {
            let server = start_with_store(config(&[("RATE_LIMIT_PER_MINUTE", "2")]), assets::SSR_BUNDLE, store).await;
            for n in 0..2 {
                let r = server
                    .client
                    .post(server.url(SUBMIT))
                    .json(&common::lead_body("hvac", &common::phone(n)))
                    .send()
                    .await;
                assert_eq!(r.expect("post").status(), StatusCode::CREATED);
            }
            let r = server
                .client
                .post(server.url(SUBMIT))
                .json(&common::lead_body("hvac", &common::phone(9)))
                .send()
                .await;
            assert_eq!(r.expect("post").status(), StatusCode::TOO_MANY_REQUESTS);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_reserved_through_two_stores_at_once_take_the_places_once() {
    let Some((a, b, _)) = two_stores().await else { return };
    let rules = LoginRules {
        window_ms: 900_000,
        per_account: 5,
        per_client: 20,
    };
    let account = LimitKey::new("test-account", "ola@ringready.example");
    let now = now_ms();
    let mut tasks = Vec::new();
    for i in 0..30 {
        let store = Arc::clone(if i % 2 == 0 { &a } else { &b });
        let account = account.clone();
        tasks.push(tokio::spawn(async move {
            limits(&store).reserve_login(&account, None, rules, now).await.expect("reserve")
        }));
    }
    let mut places = Vec::new();
    for t in tasks {
        match t.await.expect("task") {
            Reserved::Attempt(id) => places.push(id),
            Reserved::Locked { retry_after_ms, account } => {
                assert!(account, "the account's limit");
                assert_eq!(retry_after_ms, rules.window_ms, "until the first attempt leaves the window");
            }
        }
    }
    assert_eq!(places.len(), 5, "30 at once through two servers: 5 places, once");
    // A success forgives the account's failures: one failed, then one right.
    limits(&a).settle_login(places[0], &account, false).await.expect("failed");
    limits(&b).settle_login(places[1], &account, true).await.expect("succeeded");
    for (i, id) in places.iter().enumerate().skip(2) {
        limits(&a).settle_login(*id, &account, i % 2 == 0).await.expect("settle");
    }
    let again = limits(&b).reserve_login(&account, None, rules, now + 1).await.expect("reserve");
    assert!(matches!(again, Reserved::Attempt(_)), "{again:?}");
    a.close().await;
    b.close().await;
}
