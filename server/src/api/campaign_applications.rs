//! POST /api/campaign-applications: an affiliate's campaign application, validated with the
//! form's rules, stored with its staff e-mail in one transaction, then answered. JSON from
//! the application modal; a plain form post from the apply page, which works without
//! JavaScript (`pages::campaign_apply`), answered with a redirect to /campaigns/applied or
//! with the apply page again.

use std::sync::Arc;

use axum::Router;
use axum::routing::post;

use super::ApiError;
use super::form::{self, Form, Kept};
use crate::applications::validate::validate_application;
use crate::forms::{Field, Fields, Invalid, is_web_url};
use crate::leads::RequestContext;
use crate::pages::campaign_apply::{APPLIED_PATH, CAMPAIGNS_FIELD};
use crate::pages::{PreparedPage, Refused};
use crate::phone;
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, SubmissionKind, Submitted, now_ms};

pub const APPLICATIONS_PATH: &str = "/api/campaign-applications";

const KIND: SubmissionKind = SubmissionKind::CampaignApplication;

pub fn router() -> Router<Arc<AppState>> {
    Router::new().route(APPLICATIONS_PATH, post(form::handle::<CampaignApplicationForm>))
}

/// The campaign application, on the forms' pipeline (`api::form`).
pub struct CampaignApplicationForm;

impl Form for CampaignApplicationForm {
    const KIND: &'static str = KIND.as_str();
    type Valid = (NewSubmission, Mail);

    /// The fields a refused post keeps for the apply page (a little over each field's limit).
    const KEPT: &'static [Kept] = &[
        Kept::Text("firstName", 200),
        Kept::Text("lastName", 200),
        Kept::Text("email", 300),
        Kept::Text("phone", 60),
        Kept::Text("company", 300),
        Kept::Text("website", 600),
        Kept::Text("experience", 20),
        Kept::Text("monthlyVolume", 20),
        Kept::List(CAMPAIGNS_FIELD, 300),
        Kept::Text("additionalInfo", 2100),
    ];

    fn validate(state: &AppState, fields: &Fields, mut context: RequestContext) -> Result<Self::Valid, Invalid> {
        let pages = state.pages.get();
        let mut application = validate_application(fields, &pages.campaigns.live)?;
        application.selected_campaign_ids = application
            .selected_campaigns
            .iter()
            .filter_map(|name| pages.campaigns.ids.get(name).copied())
            .collect();
        // The page the modal was opened on, when it says so and it is a web address.
        if let Field::Text(url) = fields.get("pageUrl")
            && is_web_url(url)
        {
            context.page_url = Some(url.clone());
        }
        let mail = Mail {
            subject: application.mail_subject(),
            body: application.mail_body(now_ms()),
        };
        let data = application.data();
        let submission = NewSubmission {
            kind: KIND,
            email: application.email.clone(),
            phone: Some(phone::for_records(&application.phone)),
            data,
            context,
        };
        Ok((submission, mail))
    }

    async fn store(state: &AppState, (submission, mail): Self::Valid) -> Result<Submitted, ApiError> {
        form::store_submission(state, submission, mail).await
    }

    fn thanks_path(_: &Fields) -> String {
        APPLIED_PATH.to_string()
    }

    /// The apply page again, with the visitor's values and the error.
    fn refused_page(state: &AppState, refused: Refused) -> Result<PreparedPage, serde_json::Error> {
        state.pages.get().apply.answer(refused)
    }
}
