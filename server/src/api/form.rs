//! The one pipeline of every public form (the callback request, account requests, campaign
//! applications): read the request ([`Submission`]), discard it when the honeypot is filled,
//! validate it with the form's rules, store it, and answer: 201 `{"id"}` to JSON, or a 303 to
//! the form's thank-you page for a plain form post (post/redirect/get). A refusal is an
//! [`ApiError`]: the JSON error, or for a form post the form's page again, made the same way
//! for every form: the fields the form keeps ([`Form::KEPT`]) with what the visitor sent, the
//! message, the refusal's status ([`Refused`]), rendered by React for that answer alone,
//! never cached. What differs between the forms is their [`Form`]: a route is
//! `post(form::handle::<TheForm>)` (docs/architecture.md, "Add a form").

use std::future::Future;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;

use super::ApiError;
use super::request::{Encoding, SentAs, Submission};
use crate::forms::{Field, Fields, Invalid, truncate};
use crate::leads::RequestContext;
use crate::pages::props::{FormError, FormValues};
use crate::pages::{PreparedPage, Refused, errors};
use crate::state::AppState;
use crate::store::{Mail, NewSubmission, Submitted, new_lead_id, now_ms};

/// What one form brings to the pipeline.
pub trait Form: Send + Sync + 'static {
    /// Its name in logs and in the submission metrics (`store::SubmissionKind::as_str`).
    const KIND: &'static str;

    /// What its rules make of the fields: everything `store` needs.
    type Valid: Send;

    /// The fields a refused form post keeps for its page, in any order.
    const KEPT: &'static [Kept];

    /// Its rules, in the form's order: the first that fails is the visitor's message.
    /// `context` is where the request came from, to keep with it.
    fn validate(state: &AppState, fields: &Fields, context: RequestContext) -> Result<Self::Valid, Invalid>;

    /// Stores what was validated, committed (with its notifications) before it returns; a
    /// store failure is `ApiError::Unavailable`, logged here with what it was about.
    fn store(state: &AppState, valid: Self::Valid) -> impl Future<Output = Result<Submitted, ApiError>> + Send;

    /// Where a plain form post goes once accepted (or discarded as a bot's): its thank-you
    /// page, from the fields sent. It must be a valid header value.
    fn thanks_path(fields: &Fields) -> String;

    /// For a plain form post refused: the form's page again, with `refused` (the values
    /// kept, the error, the status) in its props. The pipeline renders it and adds the
    /// refusal's headers.
    fn refused_page(state: &AppState, refused: Refused) -> Result<PreparedPage, serde_json::Error>;

    /// Counts a request whose honeypot was filled.
    fn count_honeypot(state: &AppState) {
        state.metrics.submission(Self::KIND, "honeypot");
        tracing::info!(kind = Self::KIND, "honeypot filled; submission discarded");
    }

    /// Counts a refusal.
    fn count_refusal(state: &AppState, _error: &ApiError) {
        state.metrics.submission(Self::KIND, "rejected");
    }
}

/// POST handler of the form `F`.
pub async fn handle<F: Form>(
    State(state): State<Arc<AppState>>,
    SentAs(sent_as): SentAs,
    submission: Result<Submission, ApiError>,
) -> Response {
    let Submission { encoding, fields, context } = match submission {
        Ok(s) => s,
        Err(e) => return refuse::<F>(&state, sent_as, None, e).await,
    };
    match submit::<F>(&state, &fields, context).await {
        Ok(submitted) => match encoding {
            Encoding::Json => answer(&submitted),
            Encoding::Form => Redirect::to(&F::thanks_path(&fields)).into_response(),
        },
        Err(e) => refuse::<F>(&state, Some(encoding), Some(&fields), e).await,
    }
}

/// A bot that filled the honeypot is told it worked, and nothing is kept.
async fn submit<F: Form>(state: &AppState, fields: &Fields, context: RequestContext) -> Result<Submitted, ApiError> {
    if fields.honeypot_filled() {
        F::count_honeypot(state);
        return Ok(Submitted {
            id: new_lead_id(),
            duplicate: false,
        });
    }
    let valid = F::validate(state, fields, context)?;
    F::store(state, valid).await
}

/// Counts the refusal, then answers it: the JSON error, or for a form post the form's page.
/// `fields` is None when the body could not be read.
async fn refuse<F: Form>(state: &AppState, encoding: Option<Encoding>, fields: Option<&Fields>, error: ApiError) -> Response {
    F::count_refusal(state, &error);
    match encoding {
        Some(Encoding::Form) => {
            let page = F::refused_page(state, refusal(F::KEPT, fields, &error));
            let mut response = refused_answer(state, page, &error).await;
            error.add_headers(&mut response);
            response
        }
        _ => error.into_response(),
    }
}

/// A field a refused form post keeps for its page: its name, and at most how many
/// characters of it (of each of its texts, for a list) come back.
#[derive(Debug, Clone, Copy)]
pub enum Kept {
    /// A field of one text.
    Text(&'static str, usize),
    /// A field of several texts (checkboxes sharing a name); one ticked arrives as one text.
    List(&'static str, usize),
}

/// The most texts a list field keeps.
const MAX_KEPT_ITEMS: usize = 200;

/// What a refused form post's page shows, made the same way for every form: the fields of
/// `kept` the request holds (none when it could not be read), the error (marking its field
/// when it is one of them), and the refusal's status.
fn refusal(kept: &[Kept], fields: Option<&Fields>, error: &ApiError) -> Refused {
    let mut values = FormValues::default();
    for field in kept {
        match (*field, fields.map(|f| f.get(field_name(*field)))) {
            (Kept::Text(name, max), Some(Field::Text(s))) => {
                values.text.insert(name.to_string(), truncate(s, max));
            }
            (Kept::List(name, max), Some(Field::Text(s))) => {
                values.lists.insert(name.to_string(), vec![truncate(s, max)]);
            }
            (Kept::List(name, max), Some(Field::List(items))) => {
                let items = items.iter().take(MAX_KEPT_ITEMS).map(|s| truncate(s, max)).collect();
                values.lists.insert(name.to_string(), items);
            }
            _ => {}
        }
    }
    let field = match error {
        ApiError::Invalid(invalid) if kept.iter().any(|k| field_name(*k) == invalid.reason) => invalid.reason.to_string(),
        _ => String::new(),
    };
    Refused {
        values,
        error: FormError {
            field,
            message: error.message().to_string(),
        },
        status: error.status(),
    }
}

fn field_name(kept: Kept) -> &'static str {
    match kept {
        Kept::Text(name, _) | Kept::List(name, _) => name,
    }
}

/// A refused form post's page, rendered now for this answer and never cached, with its
/// status (the caller adds the refusal's headers).
async fn refused_answer(state: &AppState, page: Result<PreparedPage, serde_json::Error>, error: &ApiError) -> Response {
    let page = match page {
        Ok(page) => page,
        Err(e) => {
            tracing::error!(error = %e, "a refused form's page props");
            return (error.status(), error.message()).into_response();
        }
    };
    match state.renderer.html(&page).await {
        Ok(html) => (page.status, Html(html)).into_response(),
        Err(e) => errors::respond(&state.error_pages, e),
    }
}

/// 201 `{ "id" }`, every form's JSON answer. A repeat is answered exactly like a new
/// submission, with an id of its own: the earlier one's id (a UUIDv7, which carries its
/// time), or any other difference, would tell whoever sends a request that an identical one
/// came in recently.
pub fn answer(submitted: &Submitted) -> Response {
    let id = if submitted.duplicate { new_lead_id() } else { submitted.id.clone() };
    let mut response = (StatusCode::CREATED, Json(json!({ "id": id }))).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `Form::store` of a form that is not a lead: the submission and (when e-mail is set up)
/// its e-mail to staff in one durable transaction, then the outbox worker woken.
pub async fn store_submission(state: &AppState, submission: NewSubmission, mail: Mail) -> Result<Submitted, ApiError> {
    let kind = submission.kind.as_str();
    let mail = state.notifier.mail_enabled().then_some(mail);
    let queued = mail.is_some();
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
        if queued {
            state.notifier.wake.notify_one();
        }
        tracing::info!(submission = %submitted.id, kind, "submission accepted");
    }
    Ok(submitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEPT: &[Kept] = &[Kept::Text("name", 5), Kept::Text("phone", 20), Kept::List("picks", 3)];

    fn invalid(reason: &'static str) -> ApiError {
        ApiError::Invalid(Invalid {
            reason,
            message: "Name is required",
        })
    }

    #[test]
    fn a_refusal_keeps_the_declared_fields_cut_to_their_length_and_nothing_else() {
        let fields = Fields::from_form(vec![
            ("name".into(), "<b>Omar</b>".into()),
            ("picks".into(), "Roofing".into()),
            ("picks".into(), "Solar".into()),
            ("password".into(), "hunter2".into()),
            ("hp_website".into(), String::new()),
        ]);
        let refused = refusal(KEPT, Some(&fields), &invalid("name"));
        assert_eq!(refused.values.text.get("name").map(String::as_str), Some("<b>Om"));
        assert!(!refused.values.text.contains_key("phone"), "a field not sent is not kept");
        assert!(!refused.values.text.contains_key("password") && !refused.values.text.contains_key("hp_website"));
        assert_eq!(refused.values.lists["picks"], ["Roo", "Sol"]);
        assert_eq!(
            refused.error,
            FormError {
                field: "name".into(),
                message: "Name is required".into()
            }
        );
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);

        // One box ticked is one text; a list where one text belongs is not kept.
        let fields = Fields::from_json(&json!({ "picks": "Roofing", "name": ["a", "b"], "phone": 412 })).expect("object");
        let refused = refusal(KEPT, Some(&fields), &invalid("zip"));
        assert_eq!(refused.values.lists["picks"], ["Roo"]);
        assert!(refused.values.text.is_empty());
        assert_eq!(refused.error.field, "", "a reason that names no kept field marks none");
    }

    #[test]
    fn a_body_that_could_not_be_read_keeps_nothing_and_says_why() {
        let refused = refusal(KEPT, None, &ApiError::Unreadable);
        assert_eq!(refused.values, FormValues::default());
        assert_eq!(refused.error.message, super::super::MSG_UNREADABLE);
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        let refused = refusal(KEPT, None, &ApiError::Unavailable);
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    }
}
