//! The console's paths and links: the fixed paths, what a path answers with, values
//! percent-encoded into a query string, where a signed-out request is sent to sign in, and
//! where to go after signing in.

pub const LOGIN_PATH: &str = "/admin/login";
pub const LOGOUT_PATH: &str = "/admin/logout";
/// Where a signed-in staff member lands.
pub const HOME_PATH: &str = "/admin";

/// What a route answers with: a page (303 to the login page without a session) or data
/// (401 without a session).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Page,
    Data,
}

impl Kind {
    /// Data routes are the ones whose path names a format.
    pub fn of(path: &str) -> Kind {
        if path.ends_with(".csv") || path.ends_with(".json") {
            Kind::Data
        } else {
            Kind::Page
        }
    }
}

/// Percent-encodes everything but unreserved characters and `/`.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A query string of the pairs whose value is not empty, starting with `?` (empty when all
/// are).
pub fn query(pairs: &[(&str, &str)]) -> String {
    let q: Vec<String> = pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", encode_component(v)))
        .collect();
    if q.is_empty() { String::new() } else { format!("?{}", q.join("&")) }
}

/// The sign-in page, coming back to `back` after.
pub fn login_href(back: &str) -> String {
    format!("{LOGIN_PATH}?next={}", encode_component(back))
}

/// Where to go after signing in: a console path, else the console's home.
pub fn safe_next(next: &str) -> String {
    let ok = next.starts_with("/admin")
        && !next.starts_with(LOGIN_PATH)
        && !next.contains("//")
        && !next.contains('\\')
        && next.len() <= 512
        && !next.chars().any(|c| c.is_control());
    if ok { next.to_string() } else { HOME_PATH.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_console_paths_are_followed_after_login() {
        assert_eq!(safe_next("/admin/leads?phone=%2B1412"), "/admin/leads?phone=%2B1412");
        for bad in [
            "https://evil.example/",
            "//evil.example",
            "/admin//evil",
            "/admin\\x",
            "/hvac",
            "/admin/login?next=/x",
        ] {
            assert_eq!(safe_next(bad), HOME_PATH, "{bad}");
        }
        assert_eq!(encode_component("/admin/leads?a=1&b=+"), "/admin/leads%3Fa%3D1%26b%3D%2B");
        assert_eq!(login_href("/admin/leads?a=1"), "/admin/login?next=/admin/leads%3Fa%3D1");
    }

    #[test]
    fn empty_values_are_left_out_of_a_query() {
        assert_eq!(query(&[("status", ""), ("before", "")]), "");
        assert_eq!(
            query(&[("status", "new"), ("q", ""), ("before", "1.a b")]),
            "?status=new&before=1.a%20b"
        );
    }
}
