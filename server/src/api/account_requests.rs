//! POST /api/account-requests: the copy our server keeps of every sign-up, registration and
//! registration request (docs/product.md, "Accounts"), so staff hear of it even when the visitor
//! never sends the mail draft. JSON from the dialogs and the /register page's script; a
//! plain form post from /register without JavaScript, answered with HTML (the form again
//! with the error in place, or the thank-you page). Same limits as the lead API.

use std::collections::BTreeMap;
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
use crate::accounts::validate::validate_account_request;
use crate::accounts::{AccountType, mail};
use crate::forms::{Field, Fields, Invalid, truncate};
use crate::leads::RequestContext;
use crate::pages::errors;
use crate::pages::props::FormError;
use crate::pages::register::register_path;
use crate::phone;
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, SubmissionKind, Submitted, now_ms};

pub const ACCOUNT_REQUESTS_PATH: &str = "/api/account-requests";

/// Where a no-JavaScript request lands once stored (post/redirect/get).
pub const REGISTERED_PATH: &str = "/register/thanks";

const KIND: SubmissionKind = SubmissionKind::AccountRequest;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route(ACCOUNT_REQUESTS_PATH, post(form::handle::<AccountRequestForm>))
        .route(REGISTERED_PATH, get(thanks))
}

/// Every account request (sign-up, registration, registration request), on the forms'
/// pipeline (`api::form`): the rules of the form named in the request, and its e-mail to staff.
pub struct AccountRequestForm;

impl Form for AccountRequestForm {
    const KIND: &'static str = KIND.as_str();
    type Valid = (NewSubmission, Mail);

    fn validate(_: &AppState, fields: &Fields, context: RequestContext) -> Result<Self::Valid, Invalid> {
        let request = validate_account_request(fields)?;
        let mail = mail::mail(&request, &context, now_ms());
        let data = request.data();
        let submission = NewSubmission {
            kind: KIND,
            email: request.email().to_string(),
            phone: Some(request.get("phone")).filter(|p| !p.is_empty()).map(phone::for_records),
            data,
            context,
        };
        Ok((submission, mail))
    }

    async fn store(state: &AppState, (submission, mail): Self::Valid) -> Result<Submitted, ApiError> {
        form::store_submission(state, submission, mail).await
    }

    /// The thank-you page of the account type asked for (a homeowner's when it cannot be read).
    fn thanks_path(fields: &Fields) -> String {
        let account_type = match fields.get("accountType") {
            Field::Text(t) => AccountType::parse(t).unwrap_or(AccountType::Homeowner),
            _ => AccountType::Homeowner,
        };
        format!("{REGISTERED_PATH}?type={}", account_type.slug())
    }

    /// The registration page again, with the visitor's values and the error in place.
    async fn refused_page(state: &AppState, fields: Option<&Fields>, error: &ApiError) -> Response {
        form_error(state, fields, error).await
    }
}

/// Form fields a visitor types on /register, kept in the error answer (at most this many
/// characters each: the form's own limits).
const KEPT_FIELDS: [&str; 14] = [
    "firstName",
    "lastName",
    "email",
    "phone",
    "address",
    "propertyType",
    "serviceNeeds",
    "companyName",
    "businessType",
    "monthlyBudget",
    "serviceAreas",
    "website",
    "trafficSources",
    "monthlyVolume",
];
const KEPT_CHARS: usize = 2000;

async fn form_error(state: &AppState, fields: Option<&Fields>, error: &ApiError) -> Response {
    let text = |name: &str| match fields.map(|f| f.get(name)) {
        Some(Field::Text(s)) => Some(truncate(s, KEPT_CHARS)),
        _ => None,
    };
    let account_type = text("accountType").and_then(|t| AccountType::parse(&t));
    let values: BTreeMap<String, String> = KEPT_FIELDS
        .iter()
        .filter_map(|name| text(name).map(|v| (name.to_string(), v)))
        .collect();
    let field = match error {
        ApiError::Invalid(invalid) if KEPT_FIELDS.contains(&invalid.reason) => invalid.reason.to_string(),
        _ => String::new(),
    };
    let form_error = FormError {
        field,
        message: error.message().to_string(),
    };
    let page = match state.pages.register.answer(account_type, values, form_error) {
        Ok(page) => page,
        Err(e) => {
            tracing::error!(error = %e, "registration page props");
            return (error.status(), error.message()).into_response();
        }
    };
    match state.renderer.html(&page).await {
        Ok(html) => (error.status(), Html(html)).into_response(),
        Err(e) => errors::respond(&state.error_pages, e),
    }
}

#[derive(Template)]
#[template(path = "register_thanks.html")]
struct ThanksPage<'a> {
    brand: &'a str,
    css: &'a str,
    type_label: &'a str,
    phone: &'a str,
    tel_href: &'a str,
    email: &'a str,
    back_href: &'a str,
}

#[derive(Deserialize)]
pub struct ThanksQuery {
    #[serde(rename = "type")]
    account_type: Option<String>,
}

/// GET /register/thanks: what a visitor sees once the request is in.
pub async fn thanks(State(state): State<Arc<AppState>>, Query(query): Query<ThanksQuery>) -> Response {
    let account_type = query.account_type.as_deref().and_then(AccountType::from_slug);
    let site = &state.config.site;
    let page = ThanksPage {
        brand: &site.brand,
        css: state.assets.css,
        type_label: account_type.map(AccountType::label).unwrap_or("account"),
        phone: &site.support_phone.display(),
        tel_href: &site.support_phone.tel_href(),
        email: &site.info_email,
        back_href: &register_path(None),
    };
    let mut response = match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "registration thanks page template failed");
            (
                StatusCode::OK,
                "Registration Submitted! We'll create your account and send login credentials within 24 hours.",
            )
                .into_response()
        }
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
