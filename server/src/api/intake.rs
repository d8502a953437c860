//! What the form endpoints besides the lead API share (account requests, campaign
//! applications): storing a validated submission with its e-mail to staff, and the answer.
//! Each endpoint reads its request with `api::read` and validates with its own rules first.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::ApiError;
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, SubmissionKind, Submitted, new_lead_id, now_ms};

/// Stores the submission and (when e-mail is set up) its e-mail in one durable transaction,
/// then wakes the outbox worker. Committed before this returns.
pub async fn accept(state: &AppState, submission: NewSubmission, mail: Mail) -> Result<Submitted, ApiError> {
    let kind = submission.kind.as_str();
    let mail = state.notifier.mail_enabled().then_some(mail);
    let submitted = state
        .store
        .submit_form(submission, mail, now_ms())
        .await
        .inspect_err(|e| tracing::error!(error = %e, kind, "could not store a submission"))?;
    if submitted.duplicate {
        state.metrics.submission(kind, "duplicate");
        tracing::info!(submission = %submitted.id, kind, "repeat submission answered with the earlier one");
    } else {
        state.metrics.submission(kind, "accepted");
        state.notifier.wake.notify_one();
        tracing::info!(submission = %submitted.id, kind, "submission accepted");
    }
    Ok(submitted)
}

/// What a bot that filled the honeypot is told: it worked. Nothing is kept.
pub fn discard(state: &AppState, kind: SubmissionKind) -> Submitted {
    state.metrics.submission(kind.as_str(), "honeypot");
    tracing::info!(kind = kind.as_str(), "honeypot filled; submission discarded");
    Submitted {
        id: new_lead_id(),
        duplicate: false,
    }
}

/// 201 `{ "id" }`, for every form's JSON answer (leads too). A repeat is answered exactly
/// like a new submission, with an id of its own: the earlier one's id (a UUIDv7, which
/// carries its time), or any other difference, would tell whoever sends a request that an
/// identical one came in recently.
pub fn answer(submitted: &Submitted) -> Response {
    let id = if submitted.duplicate { new_lead_id() } else { submitted.id.clone() };
    let mut response = (StatusCode::CREATED, Json(json!({ "id": id }))).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
