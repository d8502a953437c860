//! The console's cookies: the session (`rr_admin`) and the login form's CSRF twin
//! (`rr_admin_login`). Both `HttpOnly; SameSite=Strict; Path=/admin`, and `Secure` whenever
//! the configured public URL is https.

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

/// Whether cookies must be `Secure`: whenever the configured public URL is https. Decided
/// from configuration, not from the request: a proxy may hand requests on with its own
/// loopback upstream as Host. Only a site configured on plain http (a developer's machine)
/// gets cookies without it, which a browser would otherwise drop.
pub fn secure(public_url: &str) -> bool {
    public_url.starts_with("https://")
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
    fn secure_whenever_the_public_url_is_https() {
        assert!(secure("https://www.ringready.example"));
        assert!(!secure("http://127.0.0.1:8080"));
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
