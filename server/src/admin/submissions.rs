//! GET /admin/account-requests and /admin/applications (newest first, keyset pages, by
//! status), GET /admin/submissions/{id} (every field stored, where it came from, its status
//! and note), POST /admin/submissions/{id} (status and note, audited).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::error::{ConsoleError, Doing};
use super::form::FormFields;
use super::links::{encode_component, query};
use super::page;
use super::screen::Routes;
use super::session::StaffSession;
use super::zone::Zone;
use crate::pages::admin::submissions::{AdminSubmissionProps, AdminSubmissionsProps, SubmissionListRow};
use crate::pages::admin::{AdminSection, Labeled};
use crate::pages::props::PageProps;
use crate::phone::UsPhone;
use crate::state::AppState;
use crate::store::{SUBMISSION_STATUSES, SubmissionFilter, SubmissionKind, SubmissionRecord};

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/account-requests", get(account_requests)),
        (Method::GET, "/admin/applications", get(applications)),
        (Method::GET, "/admin/submissions/{id}", get(detail)),
        (Method::POST, "/admin/submissions/{id}", post(review)),
    ]
}

/// Rows on one page of a list.
pub const PAGE: usize = 50;
const MAX_NOTE: usize = 2000;

/// Where a kind is listed, its section and its names.
pub fn list_path(kind: SubmissionKind) -> &'static str {
    match kind {
        SubmissionKind::AccountRequest => "/admin/account-requests",
        SubmissionKind::CampaignApplication => "/admin/applications",
    }
}

fn section(kind: SubmissionKind) -> AdminSection {
    match kind {
        SubmissionKind::AccountRequest => AdminSection::AccountRequests,
        SubmissionKind::CampaignApplication => AdminSection::Applications,
    }
}

fn titles(kind: SubmissionKind) -> (&'static str, &'static str) {
    match kind {
        SubmissionKind::AccountRequest => ("Account requests", "Account request"),
        SubmissionKind::CampaignApplication => ("Applications", "Campaign application"),
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    pub status: Option<String>,
    pub before: Option<String>,
}

/// The typed filter as the store's, or why it cannot match anything.
pub fn filter_from(kind: SubmissionKind, q: &ListQuery) -> (String, Result<SubmissionFilter, String>) {
    let status = q.status.as_deref().unwrap_or("").trim().chars().take(20).collect::<String>();
    let mut filter = SubmissionFilter {
        kind,
        status: None,
        before: q.before.as_deref().and_then(|b| {
            let (ms, id) = b.split_once('.')?;
            Some((ms.parse().ok()?, id.chars().take(64).collect()))
        }),
    };
    if !status.is_empty() {
        match SUBMISSION_STATUSES.iter().find(|s| **s == status) {
            Some(s) => filter.status = Some(s.to_string()),
            None => return (status, Err("There is no such status.".into())),
        }
    }
    (status, Ok(filter))
}

/// A list's query string for a status (and a cursor), starting with `?` when not empty.
pub fn query_string(status: &str, before: Option<&str>) -> String {
    query(&[("status", status), ("before", before.unwrap_or(""))])
}

pub async fn account_requests(state: State<Arc<AppState>>, staff: StaffSession, q: Query<ListQuery>) -> Result<Response, ConsoleError> {
    list(state, staff, q, SubmissionKind::AccountRequest).await
}

pub async fn applications(state: State<Arc<AppState>>, staff: StaffSession, q: Query<ListQuery>) -> Result<Response, ConsoleError> {
    list(state, staff, q, SubmissionKind::CampaignApplication).await
}

async fn list(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    Query(q): Query<ListQuery>,
    kind: SubmissionKind,
) -> Result<Response, ConsoleError> {
    let zone = Zone::new(&state.config.site.time_zone);
    let (status, filter) = filter_from(kind, &q);
    let (rows, notice) = match filter {
        Ok(filter) => (
            state.store.list_submissions(&filter, PAGE + 1).await.doing("list submissions")?,
            None,
        ),
        Err(notice) => (Vec::new(), Some(notice)),
    };
    let path = list_path(kind);
    let more = rows.len() > PAGE;
    let rows: Vec<SubmissionRecord> = rows.into_iter().take(PAGE).collect();
    let next_href = more
        .then(|| {
            rows.last()
                .map(|r| format!("{path}{}", query_string(&status, Some(&format!("{}.{}", r.received_at_ms, r.id)))))
        })
        .flatten();
    let first_href = q.before.is_some().then(|| format!("{path}{}", query_string(&status, None)));
    let (title, _) = titles(kind);
    let export_href = Some(format!("{path}.csv{}", query_string(&status, None)));
    let props = PageProps::AdminSubmissions(AdminSubmissionsProps {
        frame: staff.frame(&state, section(kind)),
        title: title.to_string(),
        path: path.to_string(),
        statuses: SUBMISSION_STATUSES.iter().map(|s| s.to_string()).collect(),
        rows: rows
            .into_iter()
            .map(|r| SubmissionListRow {
                href: format!("/admin/submissions/{}", r.id),
                received: zone.local(r.received_at_ms),
                name: display_name(&r),
                company: company(&r),
                phone: phone_text(r.phone.as_deref()),
                email: r.email,
                status: r.status,
                id: r.id,
            })
            .collect(),
        status,
        notice,
        next_href,
        first_href,
        export_href,
    });
    page::render(&state, StatusCode::OK, props, title).await
}

/// A text field of a submission's stored fields, when it is there and not blank.
fn data_text<'a>(r: &'a SubmissionRecord, key: &str) -> Option<&'a str> {
    r.data.get(key).and_then(|v| v.as_str()).map(str::trim).filter(|s| !s.is_empty())
}

/// The person a submission is from: first and last name (every account form and the
/// application ask for both), or the first of the other usual name fields.
pub fn display_name(r: &SubmissionRecord) -> String {
    let parts: Vec<&str> = ["firstName", "lastName"].iter().filter_map(|k| data_text(r, k)).collect();
    if !parts.is_empty() {
        return parts.join(" ");
    }
    ["fullName", "name", "contactName"]
        .iter()
        .find_map(|k| data_text(r, k))
        .map(str::to_string)
        .unwrap_or_default()
}

/// The company a submission names, when there is one (contractors and affiliates give one,
/// homeowners do not).
pub fn company(r: &SubmissionRecord) -> Option<String> {
    ["companyName", "company", "businessName"]
        .iter()
        .find_map(|k| data_text(r, k))
        .map(str::to_string)
}

fn phone_text(phone: Option<&str>) -> String {
    match phone {
        Some(p) => UsPhone::parse(p).map(|u| u.display()).unwrap_or_else(|_| p.to_string()),
        None => String::new(),
    }
}

/// "businessName" → "Business name".
fn label(key: &str) -> String {
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if c == '_' || c == '-' {
            out.push(' ');
        } else if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else if i == 0 {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The stored fields as labelled text (never a honeypot).
pub fn fields(data: &serde_json::Value) -> Vec<Labeled> {
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string).unwrap_or_else(|| i.to_string()))
            .collect::<Vec<_>>()
            .join(", "),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    };
    match data {
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !k.starts_with("hp_"))
            .map(|(k, v)| Labeled {
                label: label(k),
                value: text(v),
            })
            .collect(),
        other => vec![Labeled {
            label: "Data".into(),
            value: text(other),
        }],
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct DetailQuery {
    done: Option<String>,
}

pub async fn detail(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    Path(id): Path<String>,
    Query(q): Query<DetailQuery>,
) -> Result<Response, ConsoleError> {
    let notice = (q.done.as_deref() == Some("saved")).then(|| "Saved.".to_string());
    show(&state, &staff, &id, notice, false, None).await
}

/// The refusal when there is no such submission.
fn not_found() -> ConsoleError {
    ConsoleError::not_found(
        "Not found",
        "There is no account request or application with that id. It may have been deleted.",
    )
}

/// The detail page; `typed` is the form shown back after a refusal (status, note). Without
/// it the page is a look at the record, audited before anything is shown.
async fn show(
    state: &AppState,
    staff: &StaffSession,
    id: &str,
    notice: Option<String>,
    is_error: bool,
    typed: Option<(String, String)>,
) -> Result<Response, ConsoleError> {
    let r = state.store.submission(id).await.doing("read a submission")?.ok_or_else(not_found)?;
    if typed.is_none() {
        // A look at the record is audited before anything is shown; without the line, nothing is.
        let entry = staff.audit("view_submission", Some(format!("submission:{}", r.id)), None);
        state
            .store
            .audit(entry, state.staff.clock.now_ms())
            .await
            .doing("write the audit log")?;
    }
    let zone = Zone::new(&state.config.site.time_zone);
    let (_, kind_label) = titles(r.kind);
    let context = [("IP address", &r.ip), ("Browser", &r.user_agent), ("Page", &r.page_url)]
        .into_iter()
        .filter_map(|(l, v)| {
            v.as_ref().map(|v| Labeled {
                label: l.to_string(),
                value: v.clone(),
            })
        })
        .collect();
    let (status, note) = typed.unwrap_or((r.status.clone(), r.note.clone().unwrap_or_default()));
    let mut fields = fields(&r.data);
    if let Some(today) = campaigns_today(state, &r.data).await? {
        fields.push(today);
    }
    let props = PageProps::AdminSubmission(Box::new(AdminSubmissionProps {
        frame: staff.frame(state, section(r.kind)),
        kind_label: kind_label.to_string(),
        list_href: list_path(r.kind).to_string(),
        received: zone.local_precise(r.received_at_ms),
        phone: phone_text(r.phone.as_deref()),
        fields,
        context,
        statuses: SUBMISSION_STATUSES.iter().map(|s| s.to_string()).collect(),
        status,
        note,
        notice,
        notice_is_error: is_error,
        email: r.email,
        id: r.id,
    }));
    let code = if is_error { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    page::render(state, code, props, kind_label).await
}

/// An application's campaigns as they are today, by the ids it recorded (the names beside
/// them are the ones the applicant saw): "Name (status)", and the name applied for when it
/// has changed since. None for a record without ids (an account request, an older one).
async fn campaigns_today(state: &AppState, data: &serde_json::Value) -> Result<Option<Labeled>, ConsoleError> {
    let Some(ids) = data
        .get("selectedCampaignIds")
        .and_then(|v| v.as_array())
        .filter(|ids| !ids.is_empty())
    else {
        return Ok(None);
    };
    let named: Vec<&str> = data
        .get("selectedCampaigns")
        .and_then(|v| v.as_array())
        .map(|names| names.iter().filter_map(|n| n.as_str()).collect())
        .unwrap_or_default();
    let stored = state.store.campaigns().await.doing("read the campaigns")?;
    let today = ids
        .iter()
        .enumerate()
        .map(|(n, id)| {
            let then = named.get(n).copied().unwrap_or("");
            match stored.iter().find(|c| Some(c.id) == id.as_i64()) {
                Some(c) if c.fields.name == then => format!("{} ({})", c.fields.name, c.fields.status),
                Some(c) => format!("{} ({}; applied for as \u{201c}{then}\u{201d})", c.fields.name, c.fields.status),
                None => format!("{then} (no longer stored)"),
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Some(Labeled {
        label: "Campaigns today".into(),
        value: today,
    }))
}

/// POST /admin/submissions/{id}: status and note.
pub async fn review(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    form: FormFields,
    Path(id): Path<String>,
) -> Result<Response, ConsoleError> {
    let typed_status = form.get("status").trim().chars().take(20).collect::<String>();
    let note = form
        .get("note")
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .take(MAX_NOTE)
        .collect::<String>();
    let Some(status) = SUBMISSION_STATUSES.iter().find(|s| **s == typed_status) else {
        let message = format!("Choose one of the statuses: {}.", SUBMISSION_STATUSES.join(", "));
        return show(&state, &staff, &id, Some(message), true, Some((typed_status, note))).await;
    };
    let note = note.trim();
    let note = (!note.is_empty()).then_some(note);
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("review", Some(format!("submission:{id}")), Some(format!("status {status}")));
    if !state
        .store
        .review_submission(&id, status, note, audit, now)
        .await
        .doing("review a submission")?
    {
        return Err(not_found());
    }
    Ok(Redirect::to(&format!("/admin/submissions/{}?done=saved", encode_component(&id))).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_labelled_and_honeypots_left_out() {
        let data = serde_json::json!({ "businessName": "Acme", "hp_website": "x", "services": ["hvac", "roofing"], "seats": 3 });
        let f = fields(&data);
        let pairs: Vec<(&str, &str)> = f.iter().map(|l| (l.label.as_str(), l.value.as_str())).collect();
        assert!(pairs.contains(&("Business name", "Acme")));
        assert!(pairs.contains(&("Services", "hvac, roofing")));
        assert!(pairs.contains(&("Seats", "3")));
        assert!(!pairs.iter().any(|(l, _)| l.starts_with("Hp")));
    }
}
