//! Signing in to the staff console under attack, on both stores and over real HTTP: however
//! many guesses arrive at once, at most 5 per account and 20 per client reach the password
//! check in 15 minutes; a client is keyed as the rate limit keys it (an IPv6 /64, an
//! IPv4-mapped address as its IPv4 address); `site staff unlock` lifts an account's lockout;
//! every sign-in and console look-up leaves its audit line; the cookies are `Secure`
//! whenever the public URL is https, whatever Host the request names.

use crate::common;

use std::sync::Arc;

use reqwest::StatusCode;
use reqwest::header::COOKIE;
use serde_json::json;
use site_server::assets;
use site_server::leads::RequestContext;
use site_server::staff::throttle::{PER_ACCOUNT, PER_CLIENT};
use site_server::store::{NewSubmission, Person, Store, SubmissionKind};

use common::admin::{PASSWORD, add_staff, cookie_value, login_form, page, set_cookie, sign_in};
use common::stores::stores;
use common::{TestServer, config, start_with_store};

/// One server per store; visitors are told apart by X-Forwarded-For (a trusted proxy), and
/// the rate limit is out of the way: the lockout is what is tested.
async fn servers(extra: &[(&str, &str)]) -> Vec<(&'static str, TestServer)> {
    let mut env = vec![("RATE_LIMIT_PER_MINUTE", "100000"), ("TRUST_FORWARDED_FOR", "true")];
    env.extend_from_slice(extra);
    let mut out = Vec::new();
    for (name, store) in stores().await {
        out.push((name, start_with_store(config(&env), assets::SSR_BUNDLE, store).await));
    }
    out
}

/// A login form's token and its cookie twin, good for any number of posts.
struct Form {
    csrf: String,
    cookie: String,
}

async fn form(server: &TestServer) -> Arc<Form> {
    let (csrf, cookie) = login_form(server).await;
    Arc::new(Form { csrf, cookie })
}

/// POSTs a sign-in from the visitor `client_ip`.
async fn attempt(server: &TestServer, form: &Form, client_ip: &str, email: &str, password: &str) -> reqwest::Response {
    server
        .client
        .post(server.url("/admin/login"))
        .header(COOKIE, format!("rr_admin_login={}", form.cookie))
        .header("x-forwarded-for", client_ip)
        .form(&[
            ("email", email),
            ("password", password),
            ("csrf", form.csrf.as_str()),
            ("next", "/admin"),
        ])
        .send()
        .await
        .expect("post login")
}

/// All `guesses` (address, password) sent at the same moment from `client_ip`, each on its
/// own connection; their statuses in the order given.
async fn at_once(server: &TestServer, client_ip: &str, guesses: Vec<(String, String)>) -> Vec<StatusCode> {
    let form = form(server).await;
    let barrier = Arc::new(tokio::sync::Barrier::new(guesses.len()));
    let mut tasks = Vec::new();
    for (email, password) in guesses {
        let (form, barrier) = (Arc::clone(&form), Arc::clone(&barrier));
        let (base, ip) = (server.base.clone(), client_ip.to_string());
        tasks.push(tokio::spawn(async move {
            // A client of its own: a connection of its own.
            let client = common::client();
            barrier.wait().await;
            client
                .post(format!("{base}/admin/login"))
                .header(COOKIE, format!("rr_admin_login={}", form.cookie))
                .header("x-forwarded-for", ip)
                .form(&[
                    ("email", email.as_str()),
                    ("password", password.as_str()),
                    ("csrf", form.csrf.as_str()),
                ])
                .send()
                .await
                .expect("post login")
                .status()
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.expect("task"));
    }
    statuses
}

fn count(statuses: &[StatusCode], status: StatusCode) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

async fn failed_logins(store: &Store) -> usize {
    let log = store.audit_log(None, 500).await.expect("audit");
    log.iter().filter(|e| e.action == "login_failed").count()
}

async fn staff_command(store: &Store, args: &[&str], now_ms: i64) -> Result<String, String> {
    common::admin::staff_command(store, args, "", now_ms).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forty_guesses_at_once_reach_the_password_check_at_most_five_times() {
    for (name, server) in servers(&[]).await {
        add_staff(&server, "kim@ringready.example").await;
        let wrong: Vec<(String, String)> = (0..40)
            .map(|i| ("kim@ringready.example".to_string(), format!("wrong guess number {i}")))
            .collect();
        let statuses = at_once(&server, "198.51.100.10", wrong).await;
        assert_eq!(count(&statuses, StatusCode::UNAUTHORIZED), PER_ACCOUNT, "{name}: {statuses:?}");
        assert_eq!(
            count(&statuses, StatusCode::TOO_MANY_REQUESTS),
            40 - PER_ACCOUNT,
            "{name}: {statuses:?}"
        );
        assert_eq!(failed_logins(&server.state.store).await, PER_ACCOUNT, "{name}: checked 5 times");
        let form = form(&server).await;
        let r = attempt(&server, &form, "198.51.100.11", "kim@ringready.example", PASSWORD).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{name}: locked, whoever asks");

        // The right password sent 40th, with 39 wrong ones at the same moment: it gets in only
        // if it is one of the five that reach the check. Without it, exactly five wrong ones
        // do. With it, its success gives its place back and forgives the failures already
        // settled (staff/throttle.rs), so guesses that arrive after it may reach the check
        // too: at most four wrong ones beside it, and five after it.
        add_staff(&server, "lou@ringready.example").await;
        let mut guesses: Vec<(String, String)> = (0..39)
            .map(|i| ("lou@ringready.example".to_string(), format!("wrong guess number {i}")))
            .collect();
        guesses.push(("lou@ringready.example".to_string(), PASSWORD.to_string()));
        let statuses = at_once(&server, "198.51.100.12", guesses).await;
        let (wrong, right) = (count(&statuses, StatusCode::UNAUTHORIZED), count(&statuses, StatusCode::SEE_OTHER));
        let checked = wrong + right;
        match right {
            0 => assert_eq!(wrong, PER_ACCOUNT, "{name}: {statuses:?}"),
            1 => assert!(
                wrong < 2 * PER_ACCOUNT,
                "{name}: {wrong} wrong ones reached the check: {statuses:?}"
            ),
            _ => panic!("{name}: one right password got in {right} times: {statuses:?}"),
        }
        assert_eq!(
            count(&statuses, StatusCode::TOO_MANY_REQUESTS),
            40 - checked,
            "{name}: {statuses:?}"
        );
        assert_eq!(
            failed_logins(&server.state.store).await,
            PER_ACCOUNT + count(&statuses, StatusCode::UNAUTHORIZED)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_client_reaches_the_password_check_at_most_twenty_times_at_once() {
    for (name, server) in servers(&[]).await {
        add_staff(&server, "max@ringready.example").await;
        // 40 accounts, two guesses each at most: only the client's limit can bite.
        let guesses: Vec<(String, String)> = (0..40)
            .map(|i| (format!("user{}@ringready.example", i / 2), format!("wrong guess number {i}")))
            .collect();
        let statuses = at_once(&server, "2001:db8:7:7::1", guesses).await;
        assert_eq!(count(&statuses, StatusCode::UNAUTHORIZED), PER_CLIENT, "{name}: {statuses:?}");
        assert_eq!(failed_logins(&server.state.store).await, PER_CLIENT, "{name}");
        let form = form(&server).await;
        for (ip, locked) in [
            ("2001:db8:7:7::1", true),
            ("2001:db8:7:7:ffff:ffff:ffff:fffe", true),
            ("2001:db8:7:8::1", false),
            ("198.51.100.20", false),
        ] {
            let r = attempt(&server, &form, ip, "max@ringready.example", PASSWORD).await;
            let expected = if locked {
                StatusCode::TOO_MANY_REQUESTS
            } else {
                StatusCode::SEE_OTHER
            };
            assert_eq!(r.status(), expected, "{name}: from {ip}");
        }
    }
}

#[tokio::test]
async fn the_client_lock_is_keyed_like_the_rate_limit() {
    for (name, server) in servers(&[]).await {
        add_staff(&server, "ned@ringready.example").await;
        let form = form(&server).await;
        for (locked_by, also_locked) in [("2001:db8:1:2::1", "2001:db8:1:2::2"), ("203.0.113.50", "::ffff:203.0.113.50")] {
            for i in 0..PER_CLIENT {
                let r = attempt(
                    &server,
                    &form,
                    locked_by,
                    &format!("guess{i}@ringready.example"),
                    "wrong passphrase!",
                )
                .await;
                assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{name}");
            }
            let r = attempt(&server, &form, also_locked, "ned@ringready.example", PASSWORD).await;
            assert_eq!(
                r.status(),
                StatusCode::TOO_MANY_REQUESTS,
                "{name}: {also_locked} is the client {locked_by} is"
            );
        }
    }
}

#[tokio::test]
async fn staff_unlock_lifts_an_account_lockout_and_is_audited() {
    for (name, server) in servers(&[]).await {
        let id = add_staff(&server, "ola@ringready.example").await;
        let form = form(&server).await;
        for _ in 0..PER_ACCOUNT {
            let r = attempt(&server, &form, "198.51.100.30", "ola@ringready.example", "wrong passphrase!").await;
            assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{name}");
        }
        let r = attempt(&server, &form, "198.51.100.31", "ola@ringready.example", PASSWORD).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{name}: anyone could lock her out");

        let store = &server.state.store;
        let now = server.state.staff.clock.now_ms();
        let unknown = staff_command(store, &["unlock", "nobody@ringready.example"], now).await;
        assert_eq!(unknown, Err("nobody@ringready.example has no staff account".into()), "{name}");
        let said = staff_command(store, &["unlock", "Ola@RingReady.example"], now)
            .await
            .expect("unlock");
        assert!(said.contains("unlocked ola@ringready.example"), "{name}: {said}");
        server.state.staff.clock.advance(1);
        let r = attempt(&server, &form, "198.51.100.31", "ola@ringready.example", PASSWORD).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: unlocked");
        let log = store.audit_log(None, 20).await.expect("audit");
        let unlock = log.iter().find(|e| e.action == "staff_unlock").expect("an unlock line");
        assert_eq!(unlock.target.as_deref(), Some(format!("staff:{id}").as_str()), "{name}");
        assert_eq!(unlock.detail.as_deref(), Some("command line"), "{name}");

        // Guessing again locks again: the unlock forgave the attempts before it, not after.
        for _ in 0..PER_ACCOUNT {
            attempt(&server, &form, "198.51.100.32", "ola@ringready.example", "wrong passphrase!").await;
        }
        let r = attempt(&server, &form, "198.51.100.31", "ola@ringready.example", PASSWORD).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{name}");
    }
}

fn submission(kind: SubmissionKind) -> NewSubmission {
    let email = "pat@example.com".to_string();
    NewSubmission {
        kind,
        email,
        phone: Some("+14125550166".into()),
        data: json!({ "businessName": "Pat's Plumbing", "accountType": "contractor", "hp_website": "" }),
        context: RequestContext::default(),
    }
}

#[tokio::test]
async fn failed_sign_ins_look_ups_and_disabling_leave_audit_lines() {
    for (name, server) in servers(&[]).await {
        let store = &server.state.store;
        let id = add_staff(&server, "pia@ringready.example").await;
        let form = form(&server).await;
        attempt(&server, &form, "198.51.100.40", "pia@ringready.example", "wrong passphrase!").await;
        attempt(&server, &form, "198.51.100.40", "nobody@ringready.example", "wrong passphrase!").await;
        let log = store.audit_log(None, 10).await.expect("audit");
        assert_eq!(log[0].action, "login_failed");
        assert_eq!(log[0].staff_email, None, "{name}: no account, no staff id");
        assert_eq!(log[1].action, "login_failed");
        assert_eq!(
            log[1].staff_email.as_deref(),
            Some("pia@ringready.example"),
            "{name}: the account guessed at"
        );

        let session = sign_in(&server, "pia@ringready.example").await;
        let request = store
            .submit_form(submission(SubmissionKind::AccountRequest), None, 1_700_000_000_000)
            .await
            .expect("stored")
            .id;
        let application = store
            .submit_form(submission(SubmissionKind::CampaignApplication), None, 1_700_000_001_000)
            .await
            .expect("stored")
            .id;
        for id in [&request, &application] {
            page(&server, &session, &format!("/admin/submissions/{id}")).await;
            let log = store.audit_log(None, 1).await.expect("audit");
            assert_eq!(
                (log[0].action.as_str(), log[0].target.as_deref()),
                ("view_submission", Some(format!("submission:{id}").as_str())),
                "{name}"
            );
            assert_eq!(log[0].staff_email.as_deref(), Some("pia@ringready.example"), "{name}");
        }
        for (typed, person, target) in [
            ("412.555.0166", Person::PhoneE164("+14125550166".into()), "phone:+1412***0166"),
            (
                "Pat%40Example.com",
                Person::Email("pat@example.com".into()),
                "email:p***@example.com",
            ),
        ] {
            page(&server, &session, &format!("/admin/data-requests?q={typed}")).await;
            let found = store.person_records(&person).await.expect("records");
            assert!(!found.submissions.is_empty(), "{name}");
            let log = store.audit_log(None, 1).await.expect("audit");
            assert_eq!(
                (log[0].action.as_str(), log[0].target.as_deref()),
                ("data_search", Some(target)),
                "{name}"
            );
            let detail = format!(
                "{} lead(s), {} account request(s) or application(s)",
                found.leads.len(),
                found.submissions.len()
            );
            assert_eq!(log[0].detail.as_deref(), Some(detail.as_str()), "{name}");
            assert!(!format!("{:?}", log[0]).contains("5550166"), "{name}: never the whole number");
        }

        let now = server.state.staff.clock.now_ms();
        staff_command(store, &["disable", "pia@ringready.example"], now)
            .await
            .expect("disable");
        let log = store.audit_log(None, 1).await.expect("audit");
        assert_eq!(
            (log[0].action.as_str(), log[0].target.as_deref()),
            ("staff_disable", Some(format!("staff:{id}").as_str())),
            "{name}"
        );
    }
}

#[tokio::test]
async fn cookies_are_secure_when_the_public_url_is_https_whatever_the_host() {
    for (name, server) in servers(&[]).await {
        add_staff(&server, "quinn@ringready.example").await;
        // A proxy that hands the request on with its loopback upstream as Host.
        let r = server.get("/admin/login").await;
        let line = set_cookie(&r, "rr_admin_login").expect("form cookie");
        assert!(line.contains("; Secure"), "{name}: {line}");
        let form = form(&server).await;
        let r = attempt(&server, &form, "198.51.100.50", "quinn@ringready.example", PASSWORD).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        let line = set_cookie(&r, "rr_admin").expect("session cookie");
        assert!(line.contains("; Secure"), "{name}: {line}");
        assert_eq!(cookie_value(&line).len(), 64, "{name}");
    }
    // A site served over plain http (a developer's machine): never Secure, whatever the Host.
    for (name, server) in servers(&[("PUBLIC_URL", "http://127.0.0.1:8080")]).await {
        let r = server
            .client
            .get(server.url("/admin/login"))
            .header("host", "staff.ringready.example")
            .send()
            .await
            .expect("get");
        let line = set_cookie(&r, "rr_admin_login").expect("form cookie");
        assert!(!line.contains("Secure"), "{name}: {line}");
    }
}
