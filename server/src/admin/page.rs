//! Console pages to answers: rendered per request by the engine pool (never cached), in
//! the staff lane.

use std::time::Duration;

use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

use super::access::StaffSession;
use crate::pages::errors;
use crate::pages::props::{AdminMessageProps, AdminSection, PageProps};
use crate::render::Lane;
use crate::state::AppState;

/// The page for `props`, with `status`, rendered in the staff lane: every caller is a
/// handler behind `access::require_session` (a signed-in staff member). The one console
/// page without a session, the sign-in page, is never rendered per request (`login`).
pub async fn render(state: &AppState, status: StatusCode, props: PageProps, title: &str) -> Response {
    match state.renderer.private_document(Lane::Staff, &props, title).await {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => errors::respond(&state.error_pages, e),
    }
}

/// A short message inside the console frame (or alone, without a session).
pub async fn message(state: &AppState, staff: Option<&StaffSession>, status: StatusCode, title: &str, text: &str) -> Response {
    let props = PageProps::AdminMessage(AdminMessageProps {
        frame: staff.map(|s| s.frame(state, AdminSection::Leads)),
        title: title.to_string(),
        message: text.to_string(),
    });
    render(state, status, props, title).await
}

/// Any other path under /admin, for a signed-in staff member.
pub async fn not_found(State(state): State<Arc<AppState>>, Extension(staff): Extension<StaffSession>) -> Response {
    message(
        &state,
        Some(&staff),
        StatusCode::NOT_FOUND,
        "Not found",
        "There is no such page or record in the console. It may have been deleted.",
    )
    .await
}

/// The database could not be read: a plain 503 (no render needed).
pub fn unavailable() -> Response {
    let mut r = (
        StatusCode::SERVICE_UNAVAILABLE,
        "The staff console cannot reach its database just now. Please try again in a moment.",
    )
        .into_response();
    r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    r
}

/// A console budget is spent: a plain 429 with Retry-After (no render needed).
pub fn too_many(wait: Duration, message: &'static str) -> Response {
    let mut r = (StatusCode::TOO_MANY_REQUESTS, message).into_response();
    if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}
