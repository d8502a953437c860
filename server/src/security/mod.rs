//! Security headers on every answer (HSTS when the public URL is https), the cross-site
//! rule for state-changing requests, and the per-client rate limit. Third-party hosts enter
//! the CSP only while their switch is on in configuration.
//!
//! Rate limits are per IPv4 address or IPv6 /64, or per any other key (a staff session's
//! budget); on PostgreSQL they are counted in the database for every server
//! (docs/decisions/022).

pub mod cross_site;
pub mod rate_limit;

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

use crate::config::TrackingConfig;

/// TrustedForm's hosts (docs/product.md, "The callback request").
const TRUSTEDFORM_HOSTS: &str = "https://cdn.trustedform.com https://api.trustedform.com";
/// The ad pixel's hosts.
const PIXEL_SCRIPT_HOST: &str = "https://connect.facebook.net";
const PIXEL_BEACON_HOST: &str = "https://www.facebook.com";

#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    headers: Vec<(HeaderName, HeaderValue)>,
    /// Tells this set from any other the process makes (several servers in one test
    /// process, each with its own policy): what a document's heads were made for
    /// (`encoding::HeadsFor`).
    id: u64,
}

impl SecurityHeaders {
    /// `style_hash` and `script_hash` allow the inline stylesheet and the inline bootstrap.
    /// `public_url` decides HSTS: sent only when the site's canonical origin is https.
    pub fn new(style_hash: &str, script_hash: &str, tracking: &TrackingConfig, public_url: &str) -> Self {
        let mut script = vec!["'self'", script_hash];
        let mut img = vec!["'self'", "data:"];
        let mut connect = vec!["'self'"];
        if tracking.trustedform {
            script.push(TRUSTEDFORM_HOSTS);
            img.push(TRUSTEDFORM_HOSTS);
            connect.push(TRUSTEDFORM_HOSTS);
        }
        if tracking.pixel {
            script.push(PIXEL_SCRIPT_HOST);
            img.push(PIXEL_BEACON_HOST);
            connect.push(PIXEL_BEACON_HOST);
        }
        let csp = format!(
            "default-src 'self'; script-src {}; style-src {style_hash}; img-src {}; connect-src {}; font-src 'self'; \
             object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            script.join(" "),
            img.join(" "),
            connect.join(" "),
        );
        let value = |s: &str| HeaderValue::from_str(s).unwrap_or(HeaderValue::from_static("default-src 'none'"));
        let mut headers = Vec::new();
        if public_url.starts_with("https://") {
            // Two years, the value browsers' preload lists ask for; subdomains are the operator's call.
            headers.push((header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=63072000")));
        }
        headers.extend([
            (header::CONTENT_SECURITY_POLICY, value(&csp)),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")),
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            // No Cross-Origin-Opener-Policy here, deliberately. It puts every navigation into
            // the site in a new browsing context group, so a fresh renderer process, which made
            // the first paint's work about a third slower and was most of Lighthouse's blocking
            // time. What is given up: a cross-site page that opened ours keeps its
            // `window.opener` handle (it can navigate our tab elsewhere, count our frames and
            // post messages, which nothing here listens to), and browsers that isolate by
            // opener group, such as Chrome on low-memory Android, may share a process with the
            // opener. Framing stays denied (frame-ancestors, X-Frame-Options), public pages
            // hold no session, and the staff console, which does, sends the header
            // (admin::access::private_headers).
            (
                HeaderName::from_static("permissions-policy"),
                HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
            ),
        ]);
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self { headers, id }
    }
}

impl SecurityHeaders {
    /// This set's number, unique in the process.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Every header with its value, in the order they are set.
    pub fn iter(&self) -> impl Iterator<Item = (&HeaderName, &HeaderValue)> {
        self.headers.iter().map(|(name, value)| (name, value))
    }

    /// Adds every header to an answer's `headers`; one the answer set itself (the console's
    /// stricter policy) keeps its own value.
    pub fn add_to(&self, headers: &mut HeaderMap) {
        for (name, value) in &self.headers {
            if let header::Entry::Vacant(slot) = headers.entry(name) {
                slot.insert(value.clone());
            }
        }
    }
}
