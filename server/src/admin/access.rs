//! The console's middleware: who is asking and what budget the request is charged to
//! (`identify`), the session and CSRF check in front of every console route but the sign-in
//! page (`require_session`), and the headers every console answer carries
//! (`private_headers`). Handlers never call into this file: they take the session and the
//! form as extractors (`session::StaffSession`, `form::FormFields`).

use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::{ConsoleError, Doing};
use super::form::{FormFields, MAX_FORM_BYTES};
use super::session::{self, StaffSession};
use crate::security::rate_limit::OwnBudget;
use crate::staff::session::{csrf_matches, csrf_token, id_hash};
use crate::state::AppState;

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
pub async fn identify(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    identified(&state, request, next).await.unwrap_or_else(IntoResponse::into_response)
}

async fn identified(state: &AppState, mut request: Request, next: Next) -> Result<Response, ConsoleError> {
    let found = session::current(state, request.headers()).await.doing("read the session")?;
    let ip = session::client_ip(state, request.headers(), request.extensions());
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
            if changes && let Err(limited) = state.staff_limiter.check_key(&staff.id_hash).await {
                tracing::warn!(staff = staff.staff_id, "console: a session's budget of changes is spent");
                return Err(ConsoleError::Limited {
                    wait: limited.retry_after,
                    message: MSG_STAFF_LIMITED,
                });
            }
            request.extensions_mut().insert(OwnBudget);
            request.extensions_mut().insert(staff);
        }
        None => {
            if let Some(ip) = ip
                && let Err(limited) = state.sign_in_limiter.check(ip).await
            {
                tracing::warn!("console: a client's sign-in budget is spent");
                return Err(ConsoleError::Limited {
                    wait: limited.retry_after,
                    message: MSG_SIGN_IN_LIMITED,
                });
            }
        }
    }
    Ok(next.run(request).await)
}

/// Middleware in front of every console route but the login page: no live session (as
/// `identify` found it), no entry (303 to the login page for pages, 401 for data); a form
/// that changes something must carry the session's CSRF token (else 403). Its fields go
/// into the request for the handler (`FormFields`).
pub async fn require_session(request: Request, next: Next) -> Response {
    let Some(csrf) = request.extensions().get::<StaffSession>().map(|s| s.csrf.clone()) else {
        return session::signed_out(request.method(), request.uri());
    };
    let (mut parts, body) = request.into_parts();
    if parts.method == Method::GET || parts.method == Method::HEAD {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let Ok(bytes) = to_bytes(body, MAX_FORM_BYTES).await else {
        return ConsoleError::refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Too much to send",
            "That form was too large to send. Please shorten what you typed.",
        )
        .into_response();
    };
    let fields = FormFields::parse(&bytes).unwrap_or_default();
    if !csrf_matches(&csrf, fields.get("csrf")) {
        tracing::warn!(path = parts.uri.path(), "console: form refused, its CSRF token is missing or wrong");
        return ConsoleError::refused(
            StatusCode::FORBIDDEN,
            "This form has expired",
            "Nothing was changed. Go back, reload the page and try again.",
        )
        .into_response();
    }
    parts.extensions.insert(fields);
    next.run(Request::from_parts(parts, Body::from(bytes))).await
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
