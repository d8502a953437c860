//! URLs the operator configures: where a client will really connect, read by the parser
//! the HTTP and SMTP clients themselves use (`url`, through reqwest), and the one way a URL
//! is written to a log or a message, without its credentials.

use std::net::IpAddr;

use reqwest::Url;

/// Query parameters shown as they are when a URL is logged; every other one's value may
/// be a credential (`password`, `sslpassword`, `sslkey`, `options`…) and is hidden.
const SHOWN_PARAMETERS: &[&str] = &[
    "sslmode",
    "sslrootcert",
    "sslnegotiation",
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "application_name",
    "connect_timeout",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_retries",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
    "tls",
];

/// What stands for a hidden value.
const HIDDEN: &str = "…";

/// `url` as it may be logged: the password of its user part, the value of every query
/// parameter that is not known to be harmless, and any fragment replaced by "…". When the
/// URL cannot be read plainly (an '@' or a '/' where a user name would be) the whole user
/// part is hidden: the redaction errs on the side of hiding.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        // sqlite:PATH and the like carry no credentials; anything else is hidden whole.
        return if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            HIDDEN.to_string()
        };
    };
    // The last '@' ends the user part (a password may hold '@', '/', '?' or '#').
    let (user, location) = match rest.rsplit_once('@') {
        Some((userinfo, after)) => {
            let name = userinfo.split_once(':').map_or(userinfo, |(name, _)| name);
            let plain = !name.is_empty() && !name.contains(['/', '?', '#', '@']);
            let shown = match (plain, userinfo.contains(':')) {
                (true, true) => format!("{name}:{HIDDEN}@"),
                (true, false) => format!("{name}@"),
                (false, _) => format!("{HIDDEN}@"),
            };
            (shown, after)
        }
        None => (String::new(), rest),
    };
    let (location, fragment) = match location.split_once('#') {
        Some((before, _)) => (before, format!("#{HIDDEN}")),
        None => (location, String::new()),
    };
    let query = match location.split_once('?') {
        Some((_, q)) => {
            let pairs: Vec<String> = q
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let key = pair.split_once('=').map_or(pair, |(k, _)| k);
                    // Compared as written: an escaped name is not known, so it is hidden.
                    let known = SHOWN_PARAMETERS.iter().any(|s| key.eq_ignore_ascii_case(s));
                    if known { pair.to_string() } else { format!("{key}={HIDDEN}") }
                })
                .collect();
            format!("?{}", pairs.join("&"))
        }
        None => String::new(),
    };
    let path = location.split_once('?').map_or(location, |(p, _)| p);
    format!("{scheme}://{user}{path}{query}{fragment}")
}

/// The host a client connects to for `url`, as the `url` crate parses it (reqwest and
/// lettre both do): a name in lower case, an IPv4 address, or an IPv6 one in brackets.
/// None when the URL has no host or does not parse.
pub fn host(url: &str) -> Option<String> {
    let parsed = Url::parse(url).ok()?;
    parsed.host_str().filter(|h| !h.is_empty()).map(str::to_ascii_lowercase)
}

/// True for `localhost` and loopback addresses (127.0.0.0/8, ::1): traffic that never
/// leaves the machine.
pub fn is_loopback_host(host: &str) -> bool {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    bare.eq_ignore_ascii_case("localhost") || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether a lead may be POSTed to `url`: https anywhere, or plain http to a loopback host,
/// judged on the host the HTTP client will connect to.
pub fn webhook_allowed(url: &str) -> bool {
    let Ok(parsed) = Url::parse(url) else { return false };
    match (parsed.scheme(), parsed.host_str()) {
        ("https", Some(h)) => !h.is_empty(),
        ("http", Some(h)) => is_loopback_host(h),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_credential_form_is_hidden() {
        assert_eq!(
            redact("postgres://site:pw@db.example:5432/site?sslmode=verify-full&password=pw2&sslpassword=x&sslkey=/k&options=-c%20a"),
            "postgres://site:…@db.example:5432/site?sslmode=verify-full&password=…&sslpassword=…&sslkey=…&options=…"
        );
        assert_eq!(
            redact("postgresql://site@db/site?PASSWORD=pw"),
            "postgresql://site@db/site?PASSWORD=…"
        );
        assert_eq!(
            redact("postgres://db/site?pass%77ord=pw&sslmode=require"),
            "postgres://db/site?pass%77ord=…&sslmode=require"
        );
        // A password holding '@', '/' and '?' unescaped: the last '@' ends it.
        assert_eq!(redact("postgres://u:p@s/s?w@h:5432/db"), "postgres://u:…@h:5432/db");
        // An '@' that cannot end a user part: everything before it is hidden.
        assert_eq!(redact("postgres://h/db?application_name=a@b"), "postgres://…@b");
        assert_eq!(redact("smtp://user:secret@mail.example:587"), "smtp://user:…@mail.example:587");
        assert_eq!(redact("https://hooks.example/x?token=abc#sig"), "https://hooks.example/x?token=…#…");
        assert_eq!(redact("sqlite://data/site.db"), "sqlite://data/site.db");
        assert_eq!(redact("sqlite:data/site.db"), "sqlite:data/site.db");
        assert_eq!(redact("user:pw@host"), "…");
    }

    #[test]
    fn the_host_is_the_one_the_client_connects_to() {
        assert_eq!(host("http://203.0.113.9\\@127.0.0.1/hook").as_deref(), Some("203.0.113.9"));
        assert_eq!(host("http://127.0.0.1@203.0.113.9/").as_deref(), Some("203.0.113.9"));
        assert_eq!(host("HTTP://LocalHost:8080/x").as_deref(), Some("localhost"));
        assert_eq!(host("http://[::1]:8080/").as_deref(), Some("[::1]"));
        assert_eq!(host("http://0x7f.1/").as_deref(), Some("127.0.0.1"));
        for refused in [
            "http://203.0.113.9\\@127.0.0.1/hook",
            "http://127.0.0.1@203.0.113.9/hook",
            "http://203.0.113.9#@127.0.0.1/",
            "http://203.0.113.9?@127.0.0.1/",
            "http://localhost.evil.example/",
            "http://127.0.0.1.nip.io/",
            "http://[::ffff:203.0.113.9]/",
            "ftp://127.0.0.1/",
            "https://",
            "not a url",
        ] {
            assert!(!webhook_allowed(refused), "{refused}");
        }
        for allowed in [
            "http://127.0.0.1:9/hook",
            "http://[::1]:9/",
            "http://localhost:9/",
            "HTTP://127.0.0.2/",
            "https://hooks.example/x",
        ] {
            assert!(webhook_allowed(allowed), "{allowed}");
        }
        assert!(is_loopback_host("[::1]") && is_loopback_host("127.9.9.9") && !is_loopback_host("10.0.0.1"));
    }
}
