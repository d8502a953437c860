//! POST /.netlify/functions/record-token: keeps the consent certificate's token (upsert by
//! token) as soon as the page sees it, before any lead is sent. Answers 204.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;

use super::{ApiError, Submission};
use crate::leads::validate::validate_token;
use crate::state::AppState;
use crate::store::now_ms;

pub const RECORD_TOKEN_PATH: &str = "/.netlify/functions/record-token";

pub fn router() -> Router<Arc<AppState>> {
    Router::new().route(RECORD_TOKEN_PATH, post(handle))
}

pub async fn handle(State(state): State<Arc<AppState>>, submission: Submission) -> Result<StatusCode, ApiError> {
    let record = validate_token(&submission.fields, &state.catalogue)?;
    state
        .store
        .record_token(record, now_ms())
        .await
        .inspect_err(|e| tracing::error!(error = %e, "could not store a certificate token"))?;
    state.metrics.token_recorded();
    Ok(StatusCode::NO_CONTENT)
}
