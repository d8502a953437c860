//! Console pages to answers: rendered per request by the engine pool (never cached), in
//! the staff lane; and the layer that renders a refusal (`ConsoleError::Refused`) as a
//! message page in the console's frame.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};

use super::error::{ConsoleError, Refusal};
use super::session::StaffSession;
use crate::pages::admin::{AdminMessageProps, AdminSection};
use crate::pages::props::PageProps;
use crate::render::Lane;
use crate::state::AppState;

/// The page for `props`, with `status`, rendered in the staff lane: every caller is a
/// handler behind `access::require_session` (a signed-in staff member). The one console
/// page without a session, the sign-in page, is never rendered per request (`login`).
pub async fn render(state: &AppState, status: StatusCode, props: PageProps, title: &str) -> Result<Response, ConsoleError> {
    match state.renderer.private_document(Lane::Staff, &props, title).await {
        Ok(html) => Ok((status, Html(html)).into_response()),
        Err(e) => Err(ConsoleError::render_failed(&state.error_pages, e)),
    }
}

/// A short message inside the console frame (or alone, without a session).
async fn message(state: &AppState, staff: Option<&StaffSession>, refusal: Refusal) -> Result<Response, ConsoleError> {
    let props = PageProps::AdminMessage(AdminMessageProps {
        frame: staff.map(|s| s.frame(state, AdminSection::Leads)),
        title: refusal.title.to_string(),
        message: refusal.text,
    });
    render(state, refusal.status, props, refusal.title).await
}

/// Any other path under /admin, for a signed-in staff member.
pub async fn not_found() -> ConsoleError {
    ConsoleError::not_found(
        "Not found",
        "There is no such page or record in the console. It may have been deleted.",
    )
}

/// Middleware around every console route (inside the site's guard, so its deadline covers
/// the render): an answer that is a refusal becomes its message page, in the frame of the
/// request's session when it has one.
pub async fn answer_errors(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let staff = request.extensions().get::<StaffSession>().cloned();
    let mut response = next.run(request).await;
    match response.extensions_mut().remove::<Refusal>() {
        Some(refusal) => message(&state, staff.as_ref(), refusal)
            .await
            .unwrap_or_else(IntoResponse::into_response),
        None => response,
    }
}
