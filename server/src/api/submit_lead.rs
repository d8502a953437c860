//! POST /.netlify/functions/submit-lead: validate, store durably with its outbox rows,
//! then answer. JSON in, JSON out; a plain form post (no JavaScript) gets HTML pages.

use std::sync::Arc;

use askama::Template;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::ApiError;
use super::form::{self, Form};
use crate::forms::{Field, Fields, Invalid};
use crate::leads::validate::validate_lead;
use crate::leads::{NewLead, RequestContext};
use crate::state::AppState;
use crate::store::{Submitted, now_ms};

pub const SUBMIT_LEAD_PATH: &str = "/.netlify/functions/submit-lead";

/// Where a successful no-JavaScript post lands (post/redirect/get, so a reload does not post again).
pub const THANKS_PATH: &str = "/callback-requested";

/// The endpoint and the confirmation page its no-JavaScript form posts are sent on to.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route(SUBMIT_LEAD_PATH, post(form::handle::<Callback>))
        .route(THANKS_PATH, get(thanks))
}

/// The callback request, on the forms' pipeline (`api::form`).
pub struct Callback;

impl Form for Callback {
    const KIND: &'static str = "lead";
    type Valid = NewLead;

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
        let slug = match fields.get("serviceSlug") {
            Field::Text(s) if s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => s.as_str(),
            _ => "",
        };
        format!("{THANKS_PATH}?service={slug}")
    }

    /// The form again, with the visitor's values and the error above it.
    async fn refused_page(state: &AppState, fields: Option<&Fields>, error: &ApiError) -> Response {
        let text = |name: &str| fields.map(|f| f.text_up_to(name, 200)).unwrap_or_default();
        let slug = text("serviceSlug");
        let service = state.catalogue.service(slug.trim());
        let line = service
            .map(|s| state.config.phone_for(&s.slug))
            .unwrap_or(&state.config.site.support_phone);
        let page = FormPage {
            brand: &state.config.site.brand,
            css: state.assets.css,
            error: error.message(),
            slug: service.map(|s| s.slug.as_str()),
            consent_text: state.consent.current(),
            full_name: &text("fullName"),
            phone_value: &text("phone"),
            zip_code: &text("zipCode"),
            phone: &line.display(),
            tel_href: &line.tel_href(),
        };
        match page.render() {
            Ok(html) => (error.status(), Html(html)).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "form page template failed");
                (error.status(), error.message()).into_response()
            }
        }
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

#[derive(Template)]
#[template(path = "callback_form.html")]
struct FormPage<'a> {
    brand: &'a str,
    css: &'a str,
    error: &'a str,
    slug: Option<&'a str>,
    consent_text: &'a str,
    full_name: &'a str,
    phone_value: &'a str,
    zip_code: &'a str,
    phone: &'a str,
    tel_href: &'a str,
}

#[derive(Template)]
#[template(path = "callback_thanks.html")]
struct ThanksPage<'a> {
    brand: &'a str,
    css: &'a str,
    slug: &'a str,
    phone: &'a str,
    tel_href: &'a str,
    back_href: &'a str,
    back_label: &'a str,
}

#[derive(Deserialize)]
pub struct ThanksQuery {
    service: Option<String>,
}

/// GET /callback-requested: the confirmation a no-JavaScript visitor sees.
pub async fn thanks(State(state): State<Arc<AppState>>, Query(query): Query<ThanksQuery>) -> Response {
    let service = query.service.as_deref().and_then(|s| state.catalogue.service(s));
    let line = service
        .map(|s| state.config.phone_for(&s.slug))
        .unwrap_or(&state.config.site.support_phone);
    let back_href = service.map(|s| format!("/{}", s.slug)).unwrap_or_else(|| "/".into());
    let page = ThanksPage {
        brand: &state.config.site.brand,
        css: state.assets.css,
        slug: service.map(|s| s.slug.as_str()).unwrap_or("site"),
        phone: &line.display(),
        tel_href: &line.tel_href(),
        back_href: &back_href,
        back_label: service.map(|s| s.name.as_str()).unwrap_or("the home page"),
    };
    let mut response = match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "thanks page template failed");
            (StatusCode::OK, "Thanks! We received your request and will call you shortly.").into_response()
        }
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
