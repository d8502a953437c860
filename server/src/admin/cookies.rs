//! The console's cookies: the session (`rr_admin`) and the login form's CSRF twin
//! (`rr_admin_login`). Both `HttpOnly; SameSite=Strict; Path=/admin`, and `Secure` unless
//! the site is reached over plain HTTP on a loopback address (a developer's machine).

use axum::http::{HeaderMap, HeaderValue, header};

pub const SESSION: &str = "rr_admin";
pub const LOGIN_CSRF: &str = "rr_admin_login";

/// The value of cookie `name` in the request, if any.
pub fn get<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

/// A `Set-Cookie` value. `max_age`: None for a browser-session cookie, Some(0) to delete.
pub fn set(name: &str, value: &str, secure: bool, max_age: Option<i64>) -> HeaderValue {
    let mut text = format!("{name}={value}; Path=/admin; HttpOnly; SameSite=Strict");
    if secure {
        text.push_str("; Secure");
    }
    if let Some(age) = max_age {
        text.push_str(&format!("; Max-Age={age}"));
    }
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static("rr_admin=; Path=/admin; Max-Age=0"))
}

/// Whether cookies must be `Secure`: always, except when the request names a loopback host
/// (plain HTTP on a developer's machine or in tests, where a browser would drop them).
pub fn secure(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    let loopback = name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    !loopback
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_cookie_among_several() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; rr_admin=abc"));
        h.append(header::COOKIE, HeaderValue::from_static("rr_admin_login=def"));
        assert_eq!(get(&h, SESSION), Some("abc"));
        assert_eq!(get(&h, LOGIN_CSRF), Some("def"));
        assert_eq!(get(&h, "b"), None);
    }

    #[test]
    fn secure_except_on_loopback() {
        let host = |h: &'static str| {
            let mut m = HeaderMap::new();
            m.insert(header::HOST, HeaderValue::from_static(h));
            m
        };
        assert!(secure(&host("www.ringready.example")));
        assert!(secure(&host("10.0.0.5:8080")));
        assert!(!secure(&host("127.0.0.1:8080")));
        assert!(!secure(&host("localhost:5600")));
        assert!(!secure(&host("[::1]:8080")));
        assert_eq!(
            set(SESSION, "x", true, None),
            "rr_admin=x; Path=/admin; HttpOnly; SameSite=Strict; Secure"
        );
        assert_eq!(
            set(SESSION, "", false, Some(0)),
            "rr_admin=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0"
        );
    }
}
