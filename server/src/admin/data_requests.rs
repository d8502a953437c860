//! GET /admin/data-requests (every record stored for a phone number, typed in any format, or
//! an e-mail address) and POST /admin/data-requests/erase (deletes them on request: leads
//! are erased down to the consent record the law requires us to keep, account requests and
//! applications deleted; each one audited).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::error::{ConsoleError, Doing};
use super::form::FormFields;
use super::links::encode_component;
use super::page;
use super::screen::Routes;
use super::session::StaffSession;
use super::zone::Zone;
use crate::pages::admin::AdminSection;
use crate::pages::admin::data_requests::{AdminDataRequestsProps, PersonRecordRow};
use crate::pages::props::PageProps;
use crate::phone::UsPhone;
use crate::state::AppState;
use crate::store::{Person, SubmissionKind, masked};

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/data-requests", get(page)),
        (Method::POST, "/admin/data-requests/erase", post(erase)),
    ]
}

/// Whom a typed phone number or e-mail address names, or why it names no one.
pub fn person(typed: &str) -> Result<Person, String> {
    let typed = typed.trim();
    if typed.contains('@') {
        let email = typed.to_lowercase();
        let ok = email.split_once('@').is_some_and(|(a, b)| !a.is_empty() && b.contains('.')) && !email.contains(char::is_whitespace);
        return if ok {
            Ok(Person::Email(email))
        } else {
            Err(format!("“{typed}” is not an e-mail address."))
        };
    }
    UsPhone::parse(typed)
        .map(|p| Person::PhoneE164(p.e164()))
        .map_err(|_| format!("“{typed}” is neither a US phone number nor an e-mail address."))
}

/// Whom a search was for, as the audit log keeps it: enough to tell searches apart, never
/// the whole number or address.
fn masked_person(who: &Person) -> String {
    match who {
        Person::PhoneE164(phone) => masked(phone),
        Person::Email(email) => {
            let (local, domain) = email.split_once('@').unwrap_or((email, ""));
            let first: String = local.chars().take(1).collect();
            format!("email:{first}***@{domain}")
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct DataQuery {
    q: Option<String>,
    done: Option<String>,
}

pub async fn page(State(state): State<Arc<AppState>>, staff: StaffSession, Query(q): Query<DataQuery>) -> Result<Response, ConsoleError> {
    let typed = q.q.as_deref().unwrap_or("").trim().chars().take(200).collect::<String>();
    let done = q.done.as_deref().and_then(|d| {
        let (l, s) = d.split_once('.')?;
        Some((l.parse::<i64>().ok()?, s.parse::<i64>().ok()?))
    });
    let mut props = AdminDataRequestsProps {
        frame: staff.frame(&state, AdminSection::DataRequests),
        notice: done.map(|(l, s)| {
            format!("Done: {l} lead(s) erased down to their consent record, {s} account request(s) or application(s) deleted.")
        }),
        notice_is_error: false,
        searched: false,
        records: Vec::new(),
        can_erase: false,
        query: typed.clone(),
    };
    if typed.is_empty() {
        return page::render(&state, StatusCode::OK, PageProps::AdminDataRequests(props), "Data requests").await;
    }
    let who = match person(&typed) {
        Ok(p) => p,
        Err(message) => {
            props.notice = Some(message);
            props.notice_is_error = true;
            return page::render(&state, StatusCode::OK, PageProps::AdminDataRequests(props), "Data requests").await;
        }
    };
    let found = state.store.person_records(&who).await.doing("find a person's records")?;
    // Every search is audited, as opening a lead is: who looked for whom (masked), and what was found.
    let detail = format!(
        "{} lead(s), {} account request(s) or application(s)",
        found.leads.len(),
        found.submissions.len()
    );
    let now = state.staff.clock.now_ms();
    state
        .store
        .audit(staff.audit("data_search", Some(masked_person(&who)), Some(detail)), now)
        .await
        .doing("write the audit log")?;
    let zone = Zone::new(&state.config.site.time_zone);
    props.searched = true;
    props.can_erase = !found.submissions.is_empty() || found.leads.iter().any(|l| l.erased_ms.is_none());
    for l in found.leads {
        let service = state
            .catalogue
            .service(&l.service_slug)
            .map(|s| s.name.clone())
            .unwrap_or(l.service_slug);
        props.records.push(PersonRecordRow {
            href: format!("/admin/leads/{}", l.id),
            received: zone.local(l.received_at_ms),
            kind: format!("Lead: {service}"),
            name: l.full_name,
            state: match l.erased_ms {
                Some(ms) => format!("Erased {} (consent record kept)", zone.local(ms)),
                None => "Stored".into(),
            },
        });
    }
    for s in found.submissions {
        props.records.push(PersonRecordRow {
            href: format!("/admin/submissions/{}", s.id),
            received: zone.local(s.received_at_ms),
            kind: match s.kind {
                SubmissionKind::AccountRequest => "Account request".into(),
                SubmissionKind::CampaignApplication => "Campaign application".into(),
            },
            name: s.email,
            state: s.status,
        });
    }
    page::render(&state, StatusCode::OK, PageProps::AdminDataRequests(props), "Data requests").await
}

/// POST /admin/data-requests/erase: q (the phone number or e-mail address searched for).
pub async fn erase(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let typed = form.get("q").trim().chars().take(200).collect::<String>();
    let who = person(&typed).map_err(|message| ConsoleError::bad_request("Nothing to delete", message))?;
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("erase", None, Some("data request".into()));
    let done = state.store.erase_person(&who, audit, now).await.doing("erase a person's records")?;
    Ok(Redirect::to(&format!(
        "/admin/data-requests?q={}&done={}.{}",
        encode_component(&typed),
        done.leads,
        done.submissions
    ))
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_in_any_format_or_an_email_names_a_person() {
        assert_eq!(person("(412) 555-0134"), Ok(Person::PhoneE164("+14125550134".into())));
        assert_eq!(person(" Dana@Example.COM "), Ok(Person::Email("dana@example.com".into())));
        assert!(person("dana@").is_err());
        assert!(person("555-01").is_err());
    }
}
