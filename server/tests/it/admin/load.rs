//! The staff console under load, over real HTTP on both stores: the sign-in page is React's
//! markup filled in per visit (byte for byte what React renders, and no render per load);
//! requests without a session have a per-address limit; signed-in staff render on capacity
//! that no public burst can take (no 503 for staff while public renders are refused); and
//! staff changes are charged to their session's own budget, never to the visitors'
//! per-address limit, while a request without a live session stays on it.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, COOKIE, LOCATION, RETRY_AFTER};
use site_server::admin::access::{MSG_SIGN_IN_LIMITED, MSG_STAFF_LIMITED};
use site_server::assets;
use site_server::pages::admin::login::AdminLoginProps;
use site_server::pages::props::PageProps;
use site_server::pages::sign_in::TITLE;
use site_server::render::Lane;
use site_server::staff::session::id_hash;
use tokio::task::JoinSet;

use common::admin::{add_staff, cookie_value, get, page, post, set_cookie, sign_in};
use common::stores::stores;
use common::{TestServer, config, start_with_store};

const MSG_WRONG: &str = "That e-mail address and password do not match an active staff account.";
const MSG_EXPIRED: &str = "The sign-in form had expired. Please sign in again.";

async fn servers(env: &[(&str, &str)], bundle: &str) -> Vec<(&'static str, TestServer)> {
    let mut out = Vec::new();
    for (name, store) in stores().await {
        out.push((name, start_with_store(config(env), bundle, store).await));
    }
    out
}

/// The number in a metrics line such as `name{labels} 3`.
async fn metric(server: &TestServer, series: &str) -> u64 {
    let text = server.metrics().await;
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.trim().parse().ok()))
        .unwrap_or_else(|| panic!("no {series} in /metrics"))
}

const PUBLIC_RENDERS: &str = "site_renders_total{lane=\"public\"}";
const STAFF_RENDERS: &str = "site_renders_total{lane=\"staff\"}";
const REJECTED: &str = "site_render_queue_rejected_total";

/// Renders of both lanes so far.
async fn all_renders(server: &TestServer) -> u64 {
    metric(server, PUBLIC_RENDERS).await + metric(server, STAFF_RENDERS).await
}

/// What React renders for the sign-in page with these values, through the server's own pool.
async fn react_sign_in(server: &TestServer, csrf: &str, email: &str, next: &str, error: Option<&str>) -> String {
    let props = PageProps::AdminLogin(AdminLoginProps {
        brand: server.state.config.site.brand.clone(),
        csrf: csrf.to_string(),
        email: email.to_string(),
        next: next.to_string(),
        error: error.map(str::to_string),
    });
    server
        .state
        .renderer
        .private_document(Lane::Public, &props, TITLE)
        .await
        .expect("React renders the sign-in page")
}

/// A sign-in page as the server answered it: status, body and the form token's cookie.
async fn sign_in_answer(r: reqwest::Response) -> (StatusCode, String, String) {
    let status = r.status();
    let csrf = cookie_value(&set_cookie(&r, "rr_admin_login").expect("a form token cookie"));
    (status, r.text().await.expect("body"), csrf)
}

#[tokio::test]
async fn the_sign_in_page_is_reacts_markup_filled_in_without_a_render() {
    for (name, server) in servers(&[("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "100000")], assets::SSR_BUNDLE).await {
        // The first load renders the page once; no later one renders at all.
        assert_eq!(server.get("/admin/login").await.status(), StatusCode::OK, "{name}");
        let renders = all_renders(&server).await;
        let hostile_next = "/admin/leads?phone=+1412&name='O\"Brien<b>&x";
        let hostile_email = "o'brien\"<script>&amp;@ringready.example";
        let mut answers = Vec::new();
        let plain = sign_in_answer(server.get("/admin/login").await).await;
        answers.push((plain, String::new(), site_server::admin::HOME_PATH.to_string(), None));
        let url = format!("/admin/login?next={}", site_server::admin::links::encode_component(hostile_next));
        let with_next = sign_in_answer(server.get(&url).await).await;
        answers.push((with_next, String::new(), hostile_next.to_string(), None));
        // A wrong password: the page again, with the address typed (lower-cased) and the error.
        let (_, form_cookie) = {
            let (status, html, cookie) = sign_in_answer(server.get("/admin/login").await).await;
            assert_eq!(status, StatusCode::OK);
            (html, cookie)
        };
        let wrong = server
            .client
            .post(server.url("/admin/login"))
            .header(COOKIE, format!("rr_admin_login={form_cookie}"))
            .form(&[
                ("email", hostile_email),
                ("password", "not the password"),
                ("csrf", form_cookie.as_str()),
                ("next", hostile_next),
            ])
            .send()
            .await
            .expect("post");
        let wrong = sign_in_answer(wrong).await;
        assert_eq!(wrong.0, StatusCode::UNAUTHORIZED, "{name}");
        answers.push((wrong, hostile_email.to_lowercase(), hostile_next.to_string(), Some(MSG_WRONG)));
        // A form without its token: the expired-form message.
        let expired = server
            .client
            .post(server.url("/admin/login"))
            .form(&[("email", "ana@ringready.example"), ("password", "x"), ("next", "/admin/audit")])
            .send()
            .await
            .expect("post");
        let expired = sign_in_answer(expired).await;
        assert_eq!(expired.0, StatusCode::FORBIDDEN, "{name}");
        answers.push((expired, "ana@ringready.example".into(), "/admin/audit".into(), Some(MSG_EXPIRED)));
        assert_eq!(
            all_renders(&server).await,
            renders,
            "{name}: no sign-in page load or answer rendered"
        );

        let mut tokens = std::collections::HashSet::new();
        for ((status, html, csrf), email, next, error) in answers {
            assert!(status == StatusCode::OK || error.is_some(), "{name}: {status}");
            assert_eq!(csrf.len(), 64, "{name}: a fresh 256-bit token");
            assert!(tokens.insert(csrf.clone()), "{name}: every visit gets its own token");
            let react = react_sign_in(&server, &csrf, &email, &next, error).await;
            assert_eq!(
                html, react,
                "{name}: the page for {email:?} {next:?} {error:?} is byte for byte React's"
            );
            assert!(!html.contains('\u{E000}'), "{name}: no mark is left");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_sign_in_page_loads_renders_nothing_and_never_answers_staff_503() {
    let env = [
        ("RENDER_POOL_SIZE", "1"),
        ("RENDER_QUEUE_SIZE", "2"),
        ("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "100000"),
    ];
    for (name, server) in servers(&env, assets::SSR_BUNDLE).await {
        add_staff(&server, "ana@ringready.example").await;
        let session = sign_in(&server, "ana@ringready.example").await;
        let public = metric(&server, PUBLIC_RENDERS).await;
        let staff = metric(&server, STAFF_RENDERS).await;
        let server = Arc::new(server);
        let mut burst = JoinSet::new();
        for _ in 0..300 {
            let server = Arc::clone(&server);
            burst.spawn(async move { server.get("/admin/login").await.status() });
        }
        let mut staff_answers = Vec::new();
        for _ in 0..9 {
            staff_answers.push(get(&server, &session, "/admin/leads").await.status());
        }
        let mut statuses = Vec::new();
        while let Some(done) = burst.join_next().await {
            statuses.push(done.expect("task"));
        }
        assert!(statuses.iter().all(|s| *s == StatusCode::OK), "{name}: {statuses:?}");
        assert!(staff_answers.iter().all(|s| *s == StatusCode::OK), "{name}: {staff_answers:?}");
        assert_eq!(metric(&server, PUBLIC_RENDERS).await, public, "{name}: the burst rendered nothing");
        assert_eq!(
            metric(&server, STAFF_RENDERS).await,
            staff + 9,
            "{name}: each staff page rendered in the staff lane"
        );
        assert_eq!(metric(&server, REJECTED).await, 0, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_render_on_capacity_a_public_render_burst_cannot_take() {
    // Every registration page render takes 25 ms: a few dozen concurrent no-JavaScript form
    // answers (rendered per request) keep the one public engine and its queue full.
    let bundle = common::bundle_with_faults("if (page === 'register') { var t0 = Date.now(); while (Date.now() - t0 < 25) {} }");
    let env = [
        ("RENDER_POOL_SIZE", "1"),
        ("RENDER_QUEUE_SIZE", "2"),
        ("RATE_LIMIT_PER_MINUTE", "1000000"),
        ("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "100000"),
    ];
    for (name, server) in servers(&env, &bundle).await {
        add_staff(&server, "ben@ringready.example").await;
        let session = sign_in(&server, "ben@ringready.example").await;
        let server = Arc::new(server);
        let stop = Arc::new(AtomicBool::new(false));
        let mut burst = JoinSet::new();
        for _ in 0..40 {
            let (server, stop) = (Arc::clone(&server), Arc::clone(&stop));
            burst.spawn(async move {
                let mut statuses = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let r = server
                        .client
                        .post(server.url("/api/account-requests"))
                        .form(&[("source", "request"), ("accountType", "pilot")])
                        .send()
                        .await
                        .expect("post");
                    statuses.push(r.status());
                }
                statuses
            });
        }
        // Wait until public renders are being refused, then load console pages.
        common::eventually(20, "the public render queue to overflow", async || {
            metric(&server, REJECTED).await > 0
        })
        .await;
        let mut staff_answers = Vec::new();
        for path in ["/admin/leads", "/admin/suppressions", "/admin/audit", "/admin/health"].repeat(5) {
            staff_answers.push((path, get(&server, &session, path).await.status()));
        }
        stop.store(true, Ordering::Relaxed);
        let mut public = Vec::new();
        while let Some(done) = burst.join_next().await {
            public.extend(done.expect("task"));
        }
        let refused = public.iter().filter(|s| **s == StatusCode::SERVICE_UNAVAILABLE).count();
        assert!(refused > 0, "{name}: the public lane was full during the test");
        assert!(
            public
                .iter()
                .all(|s| *s == StatusCode::BAD_REQUEST || *s == StatusCode::SERVICE_UNAVAILABLE),
            "{name}"
        );
        let failed: Vec<_> = staff_answers.iter().filter(|(_, s)| *s != StatusCode::OK).collect();
        assert!(
            failed.is_empty(),
            "{name}: staff answers {failed:?} while {refused} public renders were refused"
        );
    }
}

#[tokio::test]
async fn console_requests_without_a_session_have_a_per_address_limit() {
    // Five a minute: one more every 12 s, so the refusals below come before any refill.
    for (name, server) in servers(&[("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "5")], assets::SSR_BUNDLE).await {
        add_staff(&server, "cy@ringready.example").await;
        // Signing in costs two: the form and its post.
        let session = sign_in(&server, "cy@ringready.example").await;
        let forged = format!("rr_admin={}", "f".repeat(64));
        let mut statuses = Vec::new();
        for (path, cookie) in [
            ("/admin/login", None),
            ("/admin/leads", None),
            ("/admin/leads.csv", Some(forged.as_str())),
        ] {
            let mut request = server.client.get(server.url(path));
            if let Some(c) = cookie {
                request = request.header(COOKIE, c);
            }
            statuses.push(request.send().await.expect("get").status());
        }
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::SEE_OTHER, StatusCode::UNAUTHORIZED],
            "{name}: within the budget"
        );
        // Spent: the sign-in page, the redirects to it, data routes, forged cookies and the
        // sign-in form's post are all refused, with a wait and a clear message.
        for (method, path, cookie) in [
            ("GET", "/admin/login", None),
            ("GET", "/admin/leads", None),
            ("GET", "/admin/leads.csv", None),
            ("GET", "/admin/leads", Some(forged.as_str())),
            ("POST", "/admin/login", None),
        ] {
            let mut request = server
                .client
                .request(method.parse().expect("method"), server.url(path))
                .form(&[("email", "cy@ringready.example")]);
            if let Some(c) = cookie {
                request = request.header(COOKIE, c);
            }
            let r = request.send().await.expect("request");
            let what = format!("{name}: {method} {path} {cookie:?}");
            assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{what}");
            let wait: u64 = r.headers()[RETRY_AFTER].to_str().expect("ascii").parse().expect("seconds");
            assert!((1..=60).contains(&wait), "{what}: Retry-After {wait}");
            assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{what}");
            assert_eq!(r.text().await.expect("body"), MSG_SIGN_IN_LIMITED, "{what}");
        }
        // The signed-in staff member at the same address is not charged to it.
        for path in ["/admin/leads", "/admin/login", "/admin/audit"] {
            let r = get(&server, &session, path).await;
            assert!(
                r.status() == StatusCode::OK || r.status() == StatusCode::SEE_OTHER,
                "{name}: {path}"
            );
        }
        let r = get(&server, &session, "/admin/login?next=/admin/audit").await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: signed in, straight on");
        assert_eq!(r.headers()[LOCATION], "/admin/audit", "{name}");
    }
}

#[tokio::test]
async fn staff_changes_are_charged_to_their_session_not_to_the_visitors_address() {
    // The visitors' limit as shipped (20 a minute per address).
    for (name, server) in servers(&[("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "1000")], assets::SSR_BUNDLE).await {
        add_staff(&server, "dee@ringready.example").await;
        let session = sign_in(&server, "dee@ringready.example").await;
        let (_, csrf) = page(&server, &session, "/admin/suppressions").await;
        // A morning's review work from the office address: 100 changes in well under a minute.
        for n in 0..100 {
            let phone = common::phone(1000 + n);
            let r = post(
                &server,
                &session,
                "/admin/suppressions",
                &[("csrf", csrf.as_str()), ("phone", phone.as_str()), ("reason", "Replied STOP")],
            )
            .await;
            assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: change {n} went through");
        }
        let listed = server.state.store.suppressions(None, None, 1000).await.expect("list");
        assert_eq!(listed.len(), 100, "{name}: every change was made");
        // A visitor at the same address still has the visitors' budget, less the sign-in
        // post (19 of 20; one more if a refill came meanwhile, one every 3 s), and no more.
        let visitor = || {
            server
                .client
                .post(server.url("/.netlify/functions/submit-lead"))
                .header("content-type", "application/json")
                .body("{}")
                .send()
        };
        let mut accepted = 0;
        while accepted < 30 {
            let r = visitor().await.expect("post");
            if r.status() == StatusCode::TOO_MANY_REQUESTS {
                break;
            }
            assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}: visitor post {accepted}");
            accepted += 1;
        }
        assert!((19..=21).contains(&accepted), "{name}: the visitor had {accepted} posts before 429");
        // A cookie that names no live session buys nothing: it stays on the visitors' limit.
        let forged = server
            .client
            .post(server.url("/admin/suppressions"))
            .header(COOKIE, format!("rr_admin={}", "f".repeat(64)))
            .form(&[("csrf", csrf.as_str()), ("phone", "(412) 555-0199"), ("reason", "x")])
            .send()
            .await
            .expect("post");
        assert_eq!(forged.status(), StatusCode::TOO_MANY_REQUESTS, "{name}: a forged session");
        // While the staff member carries on.
        let r = post(
            &server,
            &session,
            "/admin/suppressions",
            &[("csrf", csrf.as_str()), ("phone", "(412) 555-0198"), ("reason", "Asked by phone")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
    }
}

#[tokio::test]
async fn a_staff_sessions_changes_have_a_budget_of_their_own() {
    let env = [
        ("ADMIN_STAFF_RATE_LIMIT_PER_MINUTE", "5"),
        ("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "1000"),
    ];
    for (name, server) in servers(&env, assets::SSR_BUNDLE).await {
        add_staff(&server, "eli@ringready.example").await;
        let first = sign_in(&server, "eli@ringready.example").await;
        let second = sign_in(&server, "eli@ringready.example").await;
        let (_, csrf) = page(&server, &first, "/admin/suppressions").await;
        let add = |session: &str, csrf: &str, n: u32| {
            let phone = common::phone(2000 + n);
            let (server, session, csrf) = (&server, session.to_string(), csrf.to_string());
            async move {
                post(
                    server,
                    &session,
                    "/admin/suppressions",
                    &[("csrf", csrf.as_str()), ("phone", phone.as_str()), ("reason", "Replied STOP")],
                )
                .await
            }
        };
        for n in 0..5 {
            assert_eq!(add(&first, &csrf, n).await.status(), StatusCode::SEE_OTHER, "{name}: change {n}");
        }
        let r = add(&first, &csrf, 5).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{name}: the session's budget is spent");
        let wait: u64 = r.headers()[RETRY_AFTER].to_str().expect("ascii").parse().expect("seconds");
        assert!((1..=60).contains(&wait), "{name}: Retry-After {wait}");
        assert_eq!(r.text().await.expect("body"), MSG_STAFF_LIMITED, "{name}");
        let phone = site_server::phone::UsPhone::parse(&common::phone(2005)).expect("phone").e164();
        let listed = server.state.store.suppressions(Some(&phone), None, 10).await.expect("list");
        assert!(listed.is_empty(), "{name}: the refused change was not made");
        // Reading is not limited, and another session has its own budget.
        assert_eq!(get(&server, &first, "/admin/suppressions").await.status(), StatusCode::OK, "{name}");
        let (_, csrf2) = page(&server, &second, "/admin/suppressions").await;
        assert_eq!(
            add(&second, &csrf2, 6).await.status(),
            StatusCode::SEE_OTHER,
            "{name}: another session"
        );
        assert_ne!(id_hash(&first), id_hash(&second));
    }
}
