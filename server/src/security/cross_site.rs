//! Which state-changing requests come from another site (docs/decisions/008-cross-site-requests.md).
//!
//! A browser says where a request comes from in `Sec-Fetch-Site` (every current browser);
//! older ones only in `Origin`. A request carrying neither was not made by a page in a
//! browser (a script, a server, a test client), so it cannot carry a visitor's cookies or
//! a visitor's IP on another site's behalf, and is let through.

use axum::http::{HeaderMap, header};

/// Why a request was judged cross-site (for logs and the rejected-requests metric).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Same origin, or no browser provenance at all.
    Allowed,
    /// `Sec-Fetch-Site` said `cross-site` or `same-site`.
    FetchMetadata,
    /// No `Sec-Fetch-Site`, and `Origin` is neither the public URL nor the host asked for.
    Origin,
}

/// Judges a state-changing request. `public_origin` is `site.public_url` (scheme://host[:port]).
pub fn judge(headers: &HeaderMap, public_origin: &str) -> Verdict {
    if let Some(site) = headers.get("sec-fetch-site") {
        // "none": the visitor acted in the browser itself (typed, bookmarked), not a page.
        return match site.as_bytes() {
            b"same-origin" | b"none" => Verdict::Allowed,
            _ => Verdict::FetchMetadata,
        };
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Verdict::Allowed;
    };
    let Ok(origin) = origin.to_str() else {
        return Verdict::Origin;
    };
    if origin.eq_ignore_ascii_case(public_origin) {
        return Verdict::Allowed;
    }
    // The origin the browser is on is the host it sent this request to: the same server,
    // reached under another name than the public URL (a staging host, 127.0.0.1 in development).
    let authority = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .filter(|a| !a.is_empty() && !a.contains('/'));
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (authority, host) {
        (Some(a), Some(h)) if a.eq_ignore_ascii_case(h) => Verdict::Allowed,
        _ => Verdict::Origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn fetch_metadata_first_then_origin() {
        let public = "https://www.ringready.example";
        let judge = |pairs: &[(&'static str, &'static str)]| judge(&headers(pairs), public);
        assert_eq!(judge(&[]), Verdict::Allowed, "not a browser");
        assert_eq!(judge(&[("sec-fetch-site", "same-origin")]), Verdict::Allowed);
        assert_eq!(judge(&[("sec-fetch-site", "none")]), Verdict::Allowed);
        assert_eq!(judge(&[("sec-fetch-site", "cross-site")]), Verdict::FetchMetadata);
        assert_eq!(judge(&[("sec-fetch-site", "same-site")]), Verdict::FetchMetadata);
        assert_eq!(
            judge(&[("sec-fetch-site", "cross-site"), ("origin", "https://www.ringready.example")]),
            Verdict::FetchMetadata,
            "Fetch Metadata wins"
        );
        assert_eq!(judge(&[("origin", "https://www.ringready.example")]), Verdict::Allowed);
        assert_eq!(judge(&[("origin", "https://evil.example")]), Verdict::Origin);
        assert_eq!(judge(&[("origin", "null")]), Verdict::Origin);
        assert_eq!(
            judge(&[("origin", "http://127.0.0.1:8080"), ("host", "127.0.0.1:8080")]),
            Verdict::Allowed
        );
        assert_eq!(
            judge(&[("origin", "http://127.0.0.1:8081"), ("host", "127.0.0.1:8080")]),
            Verdict::Origin
        );
    }
}
