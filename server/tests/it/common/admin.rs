//! Signing in to the staff console over real HTTP, with the cookies handled by hand (so the
//! tests see every attribute the server sets).

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use site_server::staff::password::hash_password;
use site_server::store::now_ms;

use super::TestServer;

pub const PASSWORD: &str = "a long staff passphrase";

/// An audit line by no staff account, for store calls a test makes itself.
pub fn audit(action: &'static str) -> site_server::store::NewAudit {
    site_server::store::NewAudit {
        staff_id: None,
        action,
        target: None,
        ip: None,
        detail: None,
    }
}

/// `site staff ARGS…` in process: read by the binary's own parser, run against `store` with
/// `stdin` as standard input. What it printed, or its error (a usage error as clap words it).
pub async fn staff_command(store: &site_server::store::Store, args: &[&str], stdin: &str, now_ms: i64) -> Result<String, String> {
    let line = ["site", "staff"].into_iter().chain(args.iter().copied());
    let (cli, _) = site_server::cli::parse_from(line).map_err(|e| e.to_string())?;
    let Some(site_server::cli::Command::Staff(command)) = cli.command else {
        return Err(format!("not a staff command: {args:?}"));
    };
    let mut out = Vec::new();
    site_server::staff::cli::run(&command, store, &mut stdin.as_bytes(), &mut out, now_ms).await?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Adds an active staff account with `PASSWORD`.
pub async fn add_staff(server: &TestServer, email: &str) -> i64 {
    let hash = hash_password(PASSWORD).expect("hash");
    server
        .state
        .store
        .add_staff(email, &hash, now_ms())
        .await
        .expect("add staff")
        .expect("new account")
}

/// The value of `name` among a response's Set-Cookie headers, with its attributes.
pub fn set_cookie(r: &reqwest::Response, name: &str) -> Option<String> {
    r.headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

/// Just the value of a Set-Cookie line.
pub fn cookie_value(line: &str) -> String {
    line.split(';')
        .next()
        .unwrap_or("")
        .split_once('=')
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

/// The value of the first hidden `csrf` field in a page.
pub fn csrf_in(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a csrf field") + "name=\"csrf\" value=\"".len();
    html[at..].split('"').next().unwrap_or("").to_string()
}

/// A login form: its token and the cookie twin.
pub async fn login_form(server: &TestServer) -> (String, String) {
    let r = server.get("/admin/login").await;
    assert_eq!(r.status(), StatusCode::OK);
    let cookie = cookie_value(&set_cookie(&r, "rr_admin_login").expect("login cookie"));
    let html = r.text().await.expect("body");
    (csrf_in(&html), cookie)
}

/// Posts the login form; `extra_cookie` is sent along (e.g. a fixed session id).
pub async fn post_login(server: &TestServer, email: &str, password: &str, extra_cookie: Option<&str>) -> reqwest::Response {
    let (csrf, cookie) = login_form(server).await;
    let mut cookies = format!("rr_admin_login={cookie}");
    if let Some(extra) = extra_cookie {
        cookies.push_str("; ");
        cookies.push_str(extra);
    }
    server
        .client
        .post(server.url("/admin/login"))
        .header(COOKIE, cookies)
        .form(&[
            ("email", email),
            ("password", password),
            ("csrf", csrf.as_str()),
            ("next", "/admin/audit"),
        ])
        .send()
        .await
        .expect("post login")
}

/// Signs in and returns the session cookie's value.
pub async fn sign_in(server: &TestServer, email: &str) -> String {
    let r = post_login(server, email, PASSWORD, None).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER, "signed in");
    assert_eq!(r.headers()[LOCATION], "/admin/audit");
    cookie_value(&set_cookie(&r, "rr_admin").expect("session cookie"))
}

/// GET with the session cookie.
pub async fn get(server: &TestServer, session: &str, path: &str) -> reqwest::Response {
    server
        .client
        .get(server.url(path))
        .header(COOKIE, format!("rr_admin={session}"))
        .send()
        .await
        .expect("get")
}

/// A console page's HTML and its session's CSRF token.
pub async fn page(server: &TestServer, session: &str, path: &str) -> (String, String) {
    let r = get(server, session, path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    let html = r.text().await.expect("body");
    let csrf = csrf_in(&html);
    (html, csrf)
}

/// POSTs a console form with the session cookie.
pub async fn post(server: &TestServer, session: &str, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    server
        .client
        .post(server.url(path))
        .header(COOKIE, format!("rr_admin={session}"))
        .form(fields)
        .send()
        .await
        .expect("post")
}
