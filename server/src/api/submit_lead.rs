//! POST /.netlify/functions/submit-lead: validate, store durably with its outbox rows,
//! then answer. JSON in, JSON out; a plain form post (no JavaScript) gets HTML pages.

use std::sync::Arc;

use askama::Template;
use axum::Router;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::{ApiError, Encoding, Submission, intake, read};
use crate::leads::RequestContext;
use crate::leads::validate::{Field, Fields, validate_lead};
use crate::state::AppState;
use crate::store::{Submitted, new_lead_id, now_ms};

pub const SUBMIT_LEAD_PATH: &str = "/.netlify/functions/submit-lead";

/// Where a successful no-JavaScript post lands (post/redirect/get, so a reload does not post again).
pub const THANKS_PATH: &str = "/callback-requested";

/// The endpoint and the confirmation page its no-JavaScript form posts are sent on to.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().route(SUBMIT_LEAD_PATH, post(handle)).route(THANKS_PATH, get(thanks))
}

pub async fn handle(State(state): State<Arc<AppState>>, request: Request) -> Response {
    // The encoding is known even when reading failed: a form post is answered with HTML.
    let (sent_as, submission) = read(&state, request).await;
    let Submission { encoding, fields, context } = match submission {
        Ok(s) => s,
        Err(e) => return refuse(&state, sent_as, None, e),
    };
    match submit(&state, &fields, context).await {
        Ok(submitted) => accepted(encoding, &submitted, &fields),
        Err(e) => refuse(&state, Some(encoding), Some(&fields), e),
    }
}

/// Validates and stores the lead: committed (with its outbox rows) before this returns.
async fn submit(state: &AppState, fields: &Fields, context: RequestContext) -> Result<Submitted, ApiError> {
    if fields.honeypot_filled() {
        // Bots are told it worked and nothing is kept.
        state.metrics.lead_honeypot();
        tracing::info!("honeypot filled; submission discarded");
        return Ok(Submitted {
            id: new_lead_id(),
            duplicate: false,
        });
    }
    let lead = validate_lead(fields, &state.catalogue, &state.consent, context)?;
    let slug = lead.service_slug.clone();
    let channels = state.notifier.channels_for(&slug);
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
        state.notifier.wake.notify_one();
        tracing::info!(lead = %submitted.id, service = %slug, "lead accepted");
    }
    Ok(submitted)
}

/// Counts the refusal, then answers it: the JSON error, or for a form post the form again
/// with the visitor's values and the error above it.
fn refuse(state: &AppState, encoding: Option<Encoding>, fields: Option<&Fields>, error: ApiError) -> Response {
    state.metrics.rejected(error.reason());
    match encoding {
        Some(Encoding::Form) => form_error(state, fields, &error),
        _ => error.into_response(),
    }
}

/// 201 with the lead's id (`intake::answer`: a repeat is answered exactly like a new lead, so
/// the answer never tells that this phone asked about this service); a form post is sent on
/// to the thank-you page.
fn accepted(encoding: Encoding, submitted: &Submitted, fields: &Fields) -> Response {
    match encoding {
        Encoding::Json => intake::answer(submitted),
        Encoding::Form => {
            let slug = match fields.get("serviceSlug") {
                Field::Text(s) if s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => s.clone(),
                _ => String::new(),
            };
            let location = format!("{THANKS_PATH}?service={slug}");
            let mut r = StatusCode::SEE_OTHER.into_response();
            if let Ok(v) = HeaderValue::from_str(&location) {
                r.headers_mut().insert(header::LOCATION, v);
            }
            r
        }
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

/// The form again, with the visitor's values and the error above it.
fn form_error(state: &AppState, fields: Option<&Fields>, error: &ApiError) -> Response {
    let text = |name: &str| match fields.map(|f| f.get(name)) {
        Some(Field::Text(s)) => s.chars().take(200).collect::<String>(),
        _ => String::new(),
    };
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
    let mut response = match page.render() {
        Ok(html) => (error.status(), Html(html)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "form page template failed");
            (error.status(), error.message()).into_response()
        }
    };
    error.add_headers(&mut response);
    response
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
