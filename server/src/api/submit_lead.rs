//! POST /.netlify/functions/submit-lead: validate, store durably with its outbox rows,
//! then answer. JSON in, JSON out; a plain form post (no JavaScript) is answered with a
//! redirect to /callback-requested or with the form again (`pages::callback`).

use std::sync::Arc;

use axum::Router;
use axum::routing::post;

use super::ApiError;
use super::form::{self, Form, Kept};
use crate::forms::{Field, Fields, Invalid};
use crate::leads::validate::validate_lead;
use crate::leads::{NewLead, RequestContext};
use crate::pages::callback::{CALLBACK_REQUESTED_PATH, SERVICE_FIELD, SERVICE_PARAM};
use crate::pages::{PreparedPage, Refused};
use crate::state::AppState;
use crate::store::lead_fields::{LEAD_FIELDS, Sent, TYPED};
use crate::store::{Submitted, now_ms};

pub const SUBMIT_LEAD_PATH: &str = "/.netlify/functions/submit-lead";

pub fn router() -> Router<Arc<AppState>> {
    Router::new().route(SUBMIT_LEAD_PATH, post(form::handle::<Callback>))
}

/// The fields of `LEAD_FIELDS` the visitor types, each at most 200 characters, in order.
const TYPED_KEPT: [Kept; TYPED] = {
    let mut out = [Kept::Text("", 0); TYPED];
    let (mut i, mut n) = (0, 0);
    while i < LEAD_FIELDS.len() {
        if let Sent::Typed(name) = LEAD_FIELDS[i].sent {
            out[n] = Kept::Text(name, 200);
            n += 1;
        }
        i += 1;
    }
    out
};

/// The callback request, on the forms' pipeline (`api::form`).
pub struct Callback;

impl Form for Callback {
    const KIND: &'static str = "lead";
    type Valid = NewLead;

    /// What the visitor types (the consent box is ticked again by hand), and the service:
    /// the fields `LEAD_FIELDS` marks `Sent::Typed`.
    const KEPT: &'static [Kept] = &TYPED_KEPT;

    fn validate(state: &AppState, fields: &Fields, context: RequestContext) -> Result<NewLead, Invalid> {
        validate_lead(fields, &state.catalogue, &state.consent, context)
    }

    /// Committed, with its outbox rows, before this returns.
    async fn store(state: &AppState, lead: NewLead) -> Result<Submitted, ApiError> {
        let slug = lead.service_slug.clone();
        let channels = state.notifier.channels_for(&slug);
        // A lead with no channel has nothing in the outbox: waking the worker would only
        // have it look (docs/decisions/027-intake-speed.md).
        let queued = !channels.is_empty();
        let submitted = state
            .store
            .submit_lead(lead, channels, now_ms())
            .await
            .inspect_err(|e| tracing::error!(error = %e, service = %slug, "could not store a lead"))?;
        if submitted.duplicate {
            state.metrics.lead_duplicate();
            tracing::info!(lead = %submitted.id, service = %slug, "repeat submission answered with the earlier lead");
        } else {
            state.metrics.lead_accepted();
            if queued {
                state.notifier.wake.notify_one();
            }
            tracing::info!(lead = %submitted.id, service = %slug, "lead accepted");
        }
        Ok(submitted)
    }

    /// The thank-you page of the service asked about (a slug of lower-case letters and
    /// dashes, or none).
    fn thanks_path(fields: &Fields) -> String {
        let slug = match fields.get(SERVICE_FIELD) {
            Field::Text(s) if s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => s.as_str(),
            _ => "",
        };
        format!("{CALLBACK_REQUESTED_PATH}?{SERVICE_PARAM}={slug}")
    }

    /// The form again, with the visitor's values and the error above it.
    fn refused_page(state: &AppState, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        state.pages.get().callback.answer(refused)
    }

    /// The lead API's own counters, older than the submission metrics.
    fn count_honeypot(state: &AppState) {
        state.metrics.lead_honeypot();
        tracing::info!("honeypot filled; submission discarded");
    }

    fn count_refusal(state: &AppState, error: &ApiError) {
        state.metrics.rejected(error.reason());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_post_keeps_the_service_and_what_the_visitor_typed() {
        let names: Vec<&str> = Callback::KEPT
            .iter()
            .map(|k| match k {
                Kept::Text(name, _) | Kept::List(name, _) => *name,
            })
            .collect();
        assert_eq!(names[..4], [SERVICE_FIELD, "fullName", "phone", "zipCode"]);
    }
}
