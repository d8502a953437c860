//! Who may use the console: the session found once for every console request and the
//! budget the request is charged to (`identify`), the session check in front of every
//! console route but the sign-in page, the CSRF check of every form that changes
//! something, and the headers every console answer carries.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{AdminRoute, Kind, LOGIN_PATH, cookies, page};
use crate::leads::percent_decode;
use crate::pages::props::{AdminFrame, AdminSection};
use crate::security::rate_limit::{OwnBudget, client_ip};
use crate::staff::session::{self, TOUCH_AFTER_MS, csrf_matches, csrf_token, id_hash, is_live, well_formed};
use crate::state::AppState;
use crate::store::NewAudit;

/// Largest form body the console reads.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// The signed-in staff member, put into the request by the session check.
#[derive(Debug, Clone)]
pub struct StaffSession {
    pub staff_id: i64,
    pub email: String,
    /// SHA-256 of the cookie's id: how the store knows the session.
    pub id_hash: String,
    pub csrf: String,
    pub ip: Option<IpAddr>,
}

impl StaffSession {
    /// The frame around a console page in `section`.
    pub fn frame(&self, state: &AppState, section: AdminSection) -> AdminFrame {
        AdminFrame {
            brand: state.config.site.brand.clone(),
            staff_email: self.email.clone(),
            csrf: self.csrf.clone(),
            section,
        }
    }

    /// An audit line for an action of this staff member.
    pub fn audit(&self, action: &'static str, target: Option<String>, detail: Option<String>) -> NewAudit {
        NewAudit {
            staff_id: Some(self.staff_id),
            action,
            target,
            ip: self.ip.map(|ip| ip.to_string()),
            detail,
        }
    }
}

/// A form's fields (URL-encoded), read once by the CSRF check and handed to the handler.
#[derive(Debug, Clone, Default)]
pub struct FormFields(pub Vec<(String, String)>);

impl FormFields {
    pub fn parse(body: &[u8]) -> Option<Self> {
        let text = std::str::from_utf8(body).ok()?;
        Some(Self(
            text.split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect(),
        ))
    }

    /// The first value of `name`, trimmed ("" when absent).
    pub fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).unwrap_or("")
    }
}

/// The request's client IP as the API sees it (from X-Forwarded-For only when configured
/// to trust it).
pub fn request_ip(state: &AppState, headers: &HeaderMap, connect: Option<&ConnectInfo<SocketAddr>>) -> Option<IpAddr> {
    client_ip(headers, connect.map(|c| c.0), &state.config.server)
}

/// The live session the request's cookie names, if any. An expired one is deleted.
pub async fn current(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<(String, crate::store::SessionRecord)>, crate::store::StoreError> {
    let Some(cookie) = cookies::get(headers, cookies::SESSION).filter(|c| well_formed(c)) else {
        return Ok(None);
    };
    let hash = id_hash(cookie);
    let Some(record) = state.store.session(&hash).await? else {
        return Ok(None);
    };
    let now = state.staff.clock.now_ms();
    if !is_live(record.created_ms, record.last_seen_ms, now) {
        state.store.end_session(&hash, None, now).await?;
        return Ok(None);
    }
    if now - record.last_seen_ms >= TOUCH_AFTER_MS {
        state.store.touch_session(&hash, now).await?;
    }
    Ok(Some((cookie.to_string(), record)))
}

/// Answered when a signed-out client has spent `admin.sign_in_rate_limit_per_minute`.
pub const MSG_SIGN_IN_LIMITED: &str = "Too many requests to the staff console from your connection. Please wait a minute and try again.";
/// Answered when a staff session has spent `admin.staff_rate_limit_per_minute`.
pub const MSG_STAFF_LIMITED: &str =
    "You have made too many changes in the last minute. Nothing was changed: please wait a moment and try again.";

/// Middleware in front of every console route, the sign-in page included, and outside the
/// site's guard: finds the request's live session once and charges the request to its
/// budget.
///
/// - Signed in: a form post counts against the session's own budget
///   (`admin.staff_rate_limit_per_minute`), never against the visitors' per-address limit
///   (so staff who share an office address are not throttled as one visitor); the session
///   goes into the request for `require_session` and the handlers, and its pages render in
///   the staff lane.
/// - Not signed in (no cookie, or a forged, ended or expired one): every request counts
///   against the per-address sign-in limit (`admin.sign_in_rate_limit_per_minute`), and a
///   form post against the visitors' limit as well (the guard's).
pub async fn identify(State(state): State<Arc<AppState>>, mut request: Request, next: Next) -> Response {
    let found = match current(&state, request.headers()).await {
        Ok(found) => found,
        Err(e) => {
            tracing::error!(error = %e, "console: cannot read the session");
            return page::unavailable();
        }
    };
    let ip = request_ip(&state, request.headers(), request.extensions().get::<ConnectInfo<SocketAddr>>());
    match found {
        Some((cookie, record)) => {
            let staff = StaffSession {
                staff_id: record.staff_id,
                email: record.email,
                id_hash: id_hash(&cookie),
                csrf: csrf_token(&cookie),
                ip,
            };
            let changes = !matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
            if changes && let Err(limited) = state.staff_limiter.check_key(&staff.id_hash) {
                tracing::warn!(staff = staff.staff_id, "console: a session's budget of changes is spent");
                return page::too_many(limited.retry_after, MSG_STAFF_LIMITED);
            }
            request.extensions_mut().insert(OwnBudget);
            request.extensions_mut().insert(staff);
        }
        None => {
            if let Some(ip) = ip
                && let Err(limited) = state.sign_in_limiter.check(ip)
            {
                tracing::warn!("console: a client's sign-in budget is spent");
                return page::too_many(limited.retry_after, MSG_SIGN_IN_LIMITED);
            }
        }
    }
    next.run(request).await
}

/// Middleware in front of every console route but the login page: no live session (as
/// `identify` found it), no entry (303 to the login page for pages, 401 for data); a form
/// that changes something must carry the session's CSRF token (else 403).
pub async fn require_session(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let kind = AdminRoute::kind_of(request.uri().path());
    let Some(staff) = request.extensions().get::<StaffSession>().cloned() else {
        return refuse(&request, kind);
    };
    let (mut parts, body) = request.into_parts();
    let body = if parts.method == Method::GET || parts.method == Method::HEAD {
        body
    } else {
        let bytes = match to_bytes(body, MAX_FORM_BYTES).await {
            Ok(b) => b,
            Err(_) => {
                return page::message(
                    &state,
                    Some(&staff),
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Too much to send",
                    "That form was too large to send. Please shorten what you typed.",
                )
                .await;
            }
        };
        let fields = FormFields::parse(&bytes).unwrap_or_default();
        if !csrf_matches(&staff.csrf, fields.get("csrf")) {
            tracing::warn!(path = parts.uri.path(), "console: form refused, its CSRF token is missing or wrong");
            return page::message(
                &state,
                Some(&staff),
                StatusCode::FORBIDDEN,
                "This form has expired",
                "Nothing was changed. Go back, reload the page and try again.",
            )
            .await;
        }
        parts.extensions.insert(fields);
        Body::from(bytes)
    };
    next.run(Request::from_parts(parts, body)).await
}

/// The answer without a session: 303 to the login page (coming back here after) for a page,
/// 401 for data.
fn refuse(request: &Request, kind: Kind) -> Response {
    if kind == Kind::Data {
        return (StatusCode::UNAUTHORIZED, "Sign in to the staff console first.").into_response();
    }
    let back = if request.method() == Method::GET {
        request.uri().path_and_query().map(|p| p.as_str()).unwrap_or("/admin")
    } else {
        super::HOME_PATH
    };
    let location = format!("{LOGIN_PATH}?next={}", encode_component(back));
    let mut r = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(&location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

/// What every console answer carries: never stored by a cache, never indexed, and its
/// window cut off from any other site's (Cross-Origin-Opener-Policy).
pub async fn private_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex, nofollow"),
    );
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}

/// Where to go after signing in: a console path, else the console's home.
pub fn safe_next(next: &str) -> String {
    let ok = next.starts_with("/admin")
        && !next.starts_with(LOGIN_PATH)
        && !next.contains("//")
        && !next.contains('\\')
        && next.len() <= 512
        && !next.chars().any(|c| c.is_control());
    if ok { next.to_string() } else { super::HOME_PATH.to_string() }
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

/// A new random id for a session or a login form.
pub fn new_token() -> Option<String> {
    session::random_token()
        .inspect_err(|e| tracing::error!(error = %e, "console: no randomness from the operating system"))
        .ok()
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
            assert_eq!(safe_next(bad), super::super::HOME_PATH, "{bad}");
        }
        assert_eq!(encode_component("/admin/leads?a=1&b=+"), "/admin/leads%3Fa%3D1%26b%3D%2B");
    }

    #[test]
    fn form_fields_decode() {
        let f = FormFields::parse(b"csrf=abc&phone=%28412%29+555-0134&empty=").expect("utf-8");
        assert_eq!(f.get("phone"), "(412) 555-0134");
        assert_eq!(f.get("csrf"), "abc");
        assert_eq!(f.get("missing"), "");
    }
}
