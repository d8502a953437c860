//! POST /api/campaign-applications: an affiliate's campaign application, validated with the
//! form's rules, stored with its staff e-mail in one transaction, then answered. JSON from
//! the application modal; a plain form post from the apply page, which works without
//! JavaScript (GET /campaigns/apply?campaign=…, the 'Apply Now' links' target) and is
//! answered with HTML pages.

use std::collections::HashSet;
use std::sync::Arc;

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use super::ApiError;
use super::form::{self, Form};
use crate::applications::validate::validate_application;
use crate::applications::{EXPERIENCE, MONTHLY_VOLUME};
use crate::forms::{Field, Fields, Invalid, is_web_url, percent_decode};
use crate::leads::RequestContext;
use crate::phone;
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, SubmissionKind, Submitted, now_ms};

pub const APPLICATIONS_PATH: &str = "/api/campaign-applications";
/// The application form as a page of its own (the no-JavaScript path).
pub const APPLY_PATH: &str = "/campaigns/apply";
/// Where a successful no-JavaScript post lands (post/redirect/get).
pub const APPLIED_PATH: &str = "/campaigns/applied";

const KIND: SubmissionKind = SubmissionKind::CampaignApplication;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route(APPLICATIONS_PATH, post(form::handle::<CampaignApplicationForm>))
        .route(APPLY_PATH, get(apply_page))
        .route(APPLIED_PATH, get(applied_page))
}

/// The campaign application, on the forms' pipeline (`api::form`).
pub struct CampaignApplicationForm;

impl Form for CampaignApplicationForm {
    const KIND: &'static str = KIND.as_str();
    type Valid = (NewSubmission, Mail);

    fn validate(state: &AppState, fields: &Fields, mut context: RequestContext) -> Result<Self::Valid, Invalid> {
        let application = validate_application(fields, &state.catalogue.campaigns)?;
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

    /// The apply page again, with the visitor's values and the error above the buttons.
    async fn refused_page(state: &AppState, fields: Option<&Fields>, error: &ApiError) -> Response {
        let values = fields.map(FormValues::from_fields).unwrap_or_default();
        render(state, &values, Some(error.message()), error.status())
    }
}

/// What the apply page's fields hold.
#[derive(Default)]
struct FormValues {
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    company: String,
    website: String,
    experience: String,
    monthly_volume: String,
    campaigns: HashSet<String>,
    additional_info: String,
}

impl FormValues {
    fn from_fields(fields: &Fields) -> Self {
        let text = |name: &str, max: usize| fields.text_up_to(name, max);
        let campaigns = match fields.get("selectedCampaigns") {
            Field::List(names) => names.iter().cloned().collect(),
            Field::Text(name) => HashSet::from([name.clone()]),
            _ => HashSet::new(),
        };
        Self {
            first_name: text("firstName", 200),
            last_name: text("lastName", 200),
            email: text("email", 300),
            phone: text("phone", 60),
            company: text("company", 300),
            website: text("website", 600),
            experience: text("experience", 20),
            monthly_volume: text("monthlyVolume", 20),
            campaigns,
            additional_info: text("additionalInfo", 2100),
        }
    }
}

struct Choice<'a> {
    value: &'a str,
    label: &'a str,
    selected: bool,
}

#[derive(Template)]
#[template(path = "campaign_apply.html")]
struct ApplyPage<'a> {
    brand: &'a str,
    css: &'a str,
    phone: &'a str,
    tel_href: &'a str,
    email: &'a str,
    error: Option<&'a str>,
    v: &'a FormValues,
    /// The campaigns already chosen, in catalogue order (the note above the list).
    chosen: Vec<&'a str>,
    campaigns: Vec<Choice<'a>>,
    experience: Vec<Choice<'a>>,
    volume: Vec<Choice<'a>>,
}

fn render(state: &AppState, values: &FormValues, error: Option<&str>, status: StatusCode) -> Response {
    let site = &state.config.site;
    let live = state.catalogue.campaigns.iter().filter(|c| c.status == "LIVE");
    let choices = |options: &'static [(&'static str, &'static str)], current: &str| -> Vec<Choice<'static>> {
        options
            .iter()
            .map(|(value, label)| Choice {
                value,
                label,
                selected: *value == current,
            })
            .collect()
    };
    let page = ApplyPage {
        brand: &site.brand,
        css: state.assets.css,
        phone: &site.support_phone.display(),
        tel_href: &site.support_phone.tel_href(),
        email: &site.info_email,
        error,
        v: values,
        chosen: live
            .clone()
            .filter(|c| values.campaigns.contains(&c.campaign))
            .map(|c| c.campaign.as_str())
            .collect(),
        campaigns: live
            .map(|c| Choice {
                value: &c.campaign,
                label: &c.campaign,
                selected: values.campaigns.contains(&c.campaign),
            })
            .collect(),
        experience: choices(&EXPERIENCE, &values.experience),
        volume: choices(&MONTHLY_VOLUME, &values.monthly_volume),
    };
    let mut response = match page.render() {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "apply page template failed");
            (status, error.unwrap_or("Please try again.").to_string()).into_response()
        }
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// GET /campaigns/apply?campaign=…: the application form, that campaign already chosen (an
/// unknown or malformed name chooses none).
pub async fn apply_page(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    let mut values = FormValues::default();
    let chosen = uri.query().unwrap_or("").split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (key == "campaign").then(|| percent_decode(value))
    });
    if let Some(name) = chosen.filter(|n| n.len() <= 300) {
        values.campaigns.insert(name);
    }
    render(&state, &values, None, StatusCode::OK)
}

#[derive(Template)]
#[template(path = "campaign_applied.html")]
struct AppliedPage<'a> {
    brand: &'a str,
    css: &'a str,
    phone: &'a str,
    tel_href: &'a str,
    email: &'a str,
}

/// GET /campaigns/applied: the confirmation a no-JavaScript applicant sees.
pub async fn applied_page(State(state): State<Arc<AppState>>) -> Response {
    let site = &state.config.site;
    let page = AppliedPage {
        brand: &site.brand,
        css: state.assets.css,
        phone: &site.support_phone.display(),
        tel_href: &site.support_phone.tel_href(),
        email: &site.info_email,
    };
    let mut response = match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "applied page template failed");
            "Application Submitted!".into_response()
        }
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
