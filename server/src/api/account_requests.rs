//! POST /api/account-requests: the copy our server keeps of every sign-up, registration and
//! registration request (docs/product.md, "Accounts"), so staff hear of it even when the visitor
//! never sends the mail draft. JSON from the dialogs and the /register page's script; a
//! plain form post from /register without JavaScript, answered with a redirect to the
//! thank-you page or with the form again, the error in place (`pages::register`). Same
//! limits as the lead API.

use std::sync::Arc;

use axum::Router;
use axum::routing::post;

use super::ApiError;
use super::form::{self, Form, Kept};
use crate::accounts::validate::validate_account_request;
use crate::accounts::{AccountType, mail};
use crate::forms::{Field, Fields, Invalid};
use crate::leads::RequestContext;
use crate::pages::register::{REGISTERED_PATH, TYPE_PARAM};
use crate::pages::{PreparedPage, Refused};
use crate::phone;
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, SubmissionKind, Submitted, now_ms};

pub const ACCOUNT_REQUESTS_PATH: &str = "/api/account-requests";

const KIND: SubmissionKind = SubmissionKind::AccountRequest;

pub fn router() -> Router<Arc<AppState>> {
    Router::new().route(ACCOUNT_REQUESTS_PATH, post(form::handle::<AccountRequestForm>))
}

/// Every account request (sign-up, registration, registration request), on the forms'
/// pipeline (`api::form`): the rules of the form named in the request, and its e-mail to staff.
pub struct AccountRequestForm;

impl Form for AccountRequestForm {
    const KIND: &'static str = KIND.as_str();
    type Valid = (NewSubmission, Mail);

    /// The fields a refused post keeps for /register: the type asked for and every field a
    /// visitor types there (at most this many characters each: the form's own limits).
    const KEPT: &'static [Kept] = &[
        Kept::Text("accountType", 20),
        Kept::Text("firstName", KEPT_CHARS),
        Kept::Text("lastName", KEPT_CHARS),
        Kept::Text("email", KEPT_CHARS),
        Kept::Text("phone", KEPT_CHARS),
        Kept::Text("address", KEPT_CHARS),
        Kept::Text("propertyType", KEPT_CHARS),
        Kept::Text("serviceNeeds", KEPT_CHARS),
        Kept::Text("companyName", KEPT_CHARS),
        Kept::Text("businessType", KEPT_CHARS),
        Kept::Text("monthlyBudget", KEPT_CHARS),
        Kept::Text("serviceAreas", KEPT_CHARS),
        Kept::Text("website", KEPT_CHARS),
        Kept::Text("trafficSources", KEPT_CHARS),
        Kept::Text("monthlyVolume", KEPT_CHARS),
    ];

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
        format!("{REGISTERED_PATH}?{TYPE_PARAM}={}", account_type.slug())
    }

    /// The registration page again, with the visitor's values and the error in place.
    fn refused_page(state: &AppState, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        state.pages.get().register.answer(refused)
    }
}

const KEPT_CHARS: usize = 2000;
