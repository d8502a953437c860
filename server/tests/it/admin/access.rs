//! Who gets into the staff console, on both stores: every /admin route refused without a
//! session (walked from the router's own list), sign-in and sign-out, session ids renewed at
//! sign-in, idle and absolute expiry on the console's clock, CSRF, the failed-login lockout
//! with one answer for every failure, and the console kept private (no-store, noindex, not
//! in robots or the sitemap, never in the render cache).

use crate::common;

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, COOKIE, LOCATION};
use site_server::admin::{Kind, routes};
use site_server::assets;
use site_server::staff::session::{ABSOLUTE_MS, IDLE_MS};
use site_server::staff::throttle::{PER_ACCOUNT, WINDOW_MS};

use common::admin::{PASSWORD, add_staff, cookie_value, get, page, post, post_login, set_cookie, sign_in};
use common::stores::{Raw, raw_stores, stores};
use common::{TestServer, config, start_with_store};

async fn servers() -> Vec<(&'static str, TestServer)> {
    let mut out = Vec::new();
    for (name, store) in stores().await {
        // The walk below posts to every route many times, without a session: more than one
        // visitor's rate limit, and more than the console's limit for signed-out requests.
        let config = config(&[("RATE_LIMIT_PER_MINUTE", "10000"), ("ADMIN_SIGN_IN_RATE_LIMIT_PER_MINUTE", "10000")]);
        out.push((name, start_with_store(config, assets::SSR_BUNDLE, store).await));
    }
    out
}

fn private(r: &reqwest::Response, what: &str) {
    assert_eq!(r.headers()[CACHE_CONTROL], "no-store", "{what}");
    assert_eq!(r.headers()["x-robots-tag"], "noindex, nofollow", "{what}");
    assert_eq!(r.headers()["cross-origin-opener-policy"], "same-origin", "{what}");
}

#[tokio::test]
async fn every_admin_route_is_refused_without_a_live_session() {
    for (name, server) in servers().await {
        add_staff(&server, "ana@ringready.example").await;
        let expired = sign_in(&server, "ana@ringready.example").await;
        server.state.staff.clock.advance(IDLE_MS);
        let list = routes();
        assert!(list.len() >= 4, "{name}: the console's routes");
        for cookie in [
            None,
            Some("rr_admin=not-a-session".to_string()),
            Some(format!("rr_admin={}", "f".repeat(64))),
            Some(format!("rr_admin={expired}")),
        ] {
            for route in &list {
                let path = route.path.replace("{id}", "0190d1c4-6f1e-7a4b-9c1e-123456789abc");
                let mut request = server.client.request(route.method.clone(), server.url(&path));
                if let Some(c) = &cookie {
                    request = request.header(COOKIE, c);
                }
                let r = request.form(&[("csrf", "x")]).send().await.expect("request");
                let what = format!("{name}: {} {path} with {cookie:?}", route.method);
                private(&r, &what);
                match route.kind {
                    Kind::Data => assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{what}"),
                    Kind::Page => {
                        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{what}");
                        let location = r.headers()[LOCATION].to_str().expect("location");
                        assert!(location.starts_with("/admin/login?next=/admin"), "{what}: {location}");
                    }
                }
            }
        }
        // A path the console does not have is refused the same way: nothing to learn.
        let r = server.get("/admin/no-such-page").await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
    }
}

#[tokio::test]
async fn sign_in_renews_the_session_id_and_sign_out_ends_it() {
    for (name, server) in servers().await {
        add_staff(&server, "ben@ringready.example").await;
        let form = server.get("/admin/login?next=/admin/audit").await;
        private(&form, "the login page");
        let login_cookie = set_cookie(&form, "rr_admin_login").expect("form cookie");
        assert!(
            login_cookie.contains("HttpOnly") && login_cookie.contains("SameSite=Strict") && login_cookie.contains("Path=/admin"),
            "{login_cookie}"
        );
        let html = form.text().await.expect("body");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"), "{name}");
        assert!(html.contains("Staff sign-in") && html.contains("name=\"password\""), "{name}");
        assert!(!html.contains("rel=\"canonical\""), "{name}: a private page has no canonical link");

        // A session id planted before sign-in (fixation) is never the one that gets used.
        let planted = "e".repeat(64);
        let r = post_login(&server, "Ben@RingReady.example", PASSWORD, Some(&format!("rr_admin={planted}"))).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        let line = set_cookie(&r, "rr_admin").expect("session cookie");
        assert!(
            line.contains("HttpOnly") && line.contains("SameSite=Strict") && line.contains("Path=/admin"),
            "{line}"
        );
        assert!(line.contains("; Secure"), "{name}: the public URL is https: {line}");
        let session = cookie_value(&line);
        assert_eq!(session.len(), 64, "{name}: 256 random bits in hex");
        assert_ne!(session, planted, "{name}");
        let again = sign_in(&server, "ben@ringready.example").await;
        assert_ne!(again, session, "{name}: every sign-in gets a new id");

        let (html, csrf) = page(&server, &session, "/admin/audit").await;
        assert!(
            html.contains("Signed in as ben@ringready.example") && html.contains(">login<"),
            "{name}"
        );
        assert!(!html.contains(&session), "{name}: the session id never appears in a page");
        let r = post(&server, &session, "/admin/logout", &[("csrf", &csrf)]).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert_eq!(r.headers()[LOCATION], "/admin/login", "{name}");
        assert!(set_cookie(&r, "rr_admin").expect("cleared").contains("Max-Age=0"), "{name}");
        assert_eq!(
            get(&server, &session, "/admin/audit").await.status(),
            StatusCode::SEE_OTHER,
            "{name}: ended"
        );
        assert_eq!(
            get(&server, &again, "/admin/audit").await.status(),
            StatusCode::OK,
            "{name}: the other session lives on"
        );
        let log = server.state.store.audit_log(None, 10).await.expect("audit");
        assert_eq!(log[0].action, "logout", "{name}");
        assert_eq!(log[0].staff_email.as_deref(), Some("ben@ringready.example"), "{name}");
        assert!(log[0].ip.as_deref().is_some_and(|ip| ip == "127.0.0.1"), "{name}");
    }
}

#[tokio::test]
async fn sessions_end_after_30_idle_minutes_or_12_hours() {
    for (name, server) in servers().await {
        add_staff(&server, "cy@ringready.example").await;
        let clock = &server.state.staff.clock;
        let idle = sign_in(&server, "cy@ringready.example").await;
        clock.advance(IDLE_MS - 60_000);
        assert_eq!(
            get(&server, &idle, "/admin/audit").await.status(),
            StatusCode::OK,
            "{name}: 29 idle minutes"
        );
        clock.advance(IDLE_MS - 60_000);
        assert_eq!(
            get(&server, &idle, "/admin/audit").await.status(),
            StatusCode::OK,
            "{name}: use keeps it alive"
        );
        clock.advance(IDLE_MS);
        assert_eq!(
            get(&server, &idle, "/admin/audit").await.status(),
            StatusCode::SEE_OTHER,
            "{name}: 30 idle minutes"
        );

        let busy = sign_in(&server, "cy@ringready.example").await;
        let step = 20 * 60 * 1000;
        let mut elapsed = 0;
        while elapsed + step < ABSOLUTE_MS {
            clock.advance(step);
            elapsed += step;
            assert_eq!(
                get(&server, &busy, "/admin/audit").await.status(),
                StatusCode::OK,
                "{name}: {elapsed} ms"
            );
        }
        clock.advance(ABSOLUTE_MS - elapsed);
        assert_eq!(
            get(&server, &busy, "/admin/audit").await.status(),
            StatusCode::SEE_OTHER,
            "{name}: 12 hours, however busy"
        );
    }
}

#[tokio::test]
async fn forms_without_the_csrf_token_change_nothing() {
    for (name, server) in servers().await {
        add_staff(&server, "di@ringready.example").await;
        let session = sign_in(&server, "di@ringready.example").await;
        for fields in [vec![], vec![("csrf", "0".repeat(64))], vec![("csrf", String::new())]] {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let r = post(&server, &session, "/admin/logout", &fields).await;
            assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}: {fields:?}");
            private(&r, "the refusal");
            assert!(r.text().await.expect("body").contains("This form has expired"), "{name}");
        }
        assert_eq!(
            get(&server, &session, "/admin/audit").await.status(),
            StatusCode::OK,
            "{name}: still signed in"
        );

        // The login form: its token must match its cookie.
        let (csrf, _) = common::admin::login_form(&server).await;
        let r = server
            .client
            .post(server.url("/admin/login"))
            .header(COOKIE, format!("rr_admin_login={}", "1".repeat(64)))
            .form(&[("email", "di@ringready.example"), ("password", PASSWORD), ("csrf", csrf.as_str())])
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}");
        assert!(set_cookie(&r, "rr_admin").is_none(), "{name}: no session");
    }
}

#[tokio::test]
async fn failed_logins_get_one_answer_and_lock_out() {
    for (name, server) in servers().await {
        add_staff(&server, "eve@ringready.example").await;
        let answer = |r: reqwest::Response| async move {
            let status = r.status();
            let html = r.text().await.expect("body");
            let at = html.find("role=\"alert\"").expect("an alert");
            (
                status,
                html[at..].split('<').next().map(str::to_string).unwrap_or_default(),
                html.len(),
            )
        };
        let wrong = answer(post_login(&server, "eve@ringready.example", "not the passphrase", None).await).await;
        let unknown = answer(post_login(&server, "nobody@ringready.example", "not the passphrase", None).await).await;
        assert_eq!(wrong.0, StatusCode::UNAUTHORIZED, "{name}");
        assert_eq!((wrong.0, &wrong.1), (unknown.0, &unknown.1), "{name}: no user enumeration");
        // The pages differ only in the address typed back into the form.
        assert_eq!(wrong.2 - "eve".len(), unknown.2 - "nobody".len(), "{name}");

        server.state.store.disable_staff("eve@ringready.example", 0).await.expect("disable");
        let disabled = answer(post_login(&server, "eve@ringready.example", PASSWORD, None).await).await;
        assert_eq!(
            (disabled.0, &disabled.1),
            (wrong.0, &wrong.1),
            "{name}: a disabled account looks the same"
        );

        add_staff(&server, "fay@ringready.example").await;
        for _ in 0..PER_ACCOUNT {
            let r = post_login(&server, "fay@ringready.example", "wrong passphrase!", None).await;
            assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{name}");
        }
        let r = post_login(&server, "fay@ringready.example", PASSWORD, None).await;
        assert_eq!(
            r.status(),
            StatusCode::TOO_MANY_REQUESTS,
            "{name}: locked out, even with the right password"
        );
        assert!(r.headers().contains_key("retry-after"), "{name}");
        assert!(set_cookie(&r, "rr_admin").is_none(), "{name}");
        for _ in 0..PER_ACCOUNT {
            post_login(&server, "ghost@ringready.example", "wrong passphrase!", None).await;
        }
        let ghost = post_login(&server, "ghost@ringready.example", "wrong passphrase!", None).await;
        assert_eq!(
            ghost.status(),
            StatusCode::TOO_MANY_REQUESTS,
            "{name}: unknown addresses lock out the same way"
        );

        server.state.staff.clock.advance(WINDOW_MS);
        let r = post_login(&server, "fay@ringready.example", PASSWORD, None).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}: unlocked after the window");
        let log = server.state.store.audit_log(None, 50).await.expect("audit");
        assert!(
            log.iter().filter(|e| e.action == "login_failed").count() >= 2 * PER_ACCOUNT + 3,
            "{name}"
        );
        assert!(
            log.iter().all(|e| e.detail.as_deref().is_none_or(|d| !d.contains("passphrase"))),
            "{name}"
        );
    }
}

#[tokio::test]
async fn the_console_stays_out_of_robots_the_sitemap_and_the_render_cache() {
    let (_, server) = servers().await.remove(0);
    add_staff(&server, "gus@ringready.example").await;
    let robots = server.get("/robots.txt").await.text().await.expect("robots");
    assert!(robots.contains("Disallow: /admin\n"), "{robots}");
    let sitemap = server.get("/sitemap.xml").await.text().await.expect("sitemap");
    assert!(!sitemap.contains("/admin"), "{sitemap}");
    let session = sign_in(&server, "gus@ringready.example").await;
    let cache = &server.state.renderer.cache;
    let before = (cache.hits(), cache.misses());
    for _ in 0..3 {
        let r = get(&server, &session, "/admin/audit").await;
        assert_eq!(r.status(), StatusCode::OK);
        private(&r, "a console page");
        assert!(
            r.text()
                .await
                .expect("body")
                .contains("<meta name=\"robots\" content=\"noindex, nofollow\">")
        );
    }
    assert_eq!(
        (cache.hits(), cache.misses()),
        before,
        "console pages never go through the render cache"
    );
    let r = get(&server, &session, "/admin/no-such-page").await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    private(&r, "the console's not-found page");
}

#[tokio::test]
async fn a_database_failure_answers_503_and_a_missing_record_the_consoles_own_page() {
    for (name, store, raw) in raw_stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "kim@ringready.example").await;
        let session = sign_in(&server, "kim@ringready.example").await;
        // No such record: 404 with the console's own page, in the frame of the session.
        let r = get(&server, &session, "/admin/leads/0190d1c4-6f1e-7a4b-9c1e-123456789abc").await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{name}");
        private(&r, "a missing lead");
        let html = r.text().await.expect("body");
        assert!(
            html.contains("Lead not found") && html.contains("kim@ringready.example"),
            "{name}: {html}"
        );
        // The table the do-not-call list is read from is gone: 503, said plainly, with Retry-After.
        match raw {
            Raw::Sqlite(path) => rusqlite::Connection::open(path)
                .and_then(|c| c.execute_batch("DROP TABLE suppressions"))
                .expect("drop the table"),
            Raw::Postgres { url, schema } => {
                let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("postgres");
                tokio::spawn(connection);
                client
                    .batch_execute(&format!("DROP TABLE \"{schema}\".suppressions CASCADE"))
                    .await
                    .expect("drop the table");
            }
        }
        let r = get(&server, &session, "/admin/suppressions").await;
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{name}");
        assert_eq!(r.headers()["retry-after"], "5", "{name}");
        private(&r, "the console's 503");
        assert!(r.text().await.expect("body").contains("cannot reach its database"), "{name}");
        // The rest of the console still answers.
        let r = get(&server, &session, "/admin/audit").await;
        assert_eq!(r.status(), StatusCode::OK, "{name}");
    }
}
