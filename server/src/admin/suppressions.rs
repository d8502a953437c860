//! GET /admin/suppressions (the do-not-call list, newest first, a page at a time, or the one
//! number searched for, typed in any format), POST /admin/suppressions (add a number with a
//! reason), POST /admin/suppressions/remove. A lead from a listed number is stored, marked
//! suppressed and never delivered; the visitor sees the usual success. Adding a number also
//! stops every notification of its earlier leads not delivered yet.

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
use crate::pages::admin::suppressions::{AdminSuppressionsProps, SuppressionRow};
use crate::pages::props::PageProps;
use crate::phone::UsPhone;
use crate::state::AppState;
use crate::store::masked;

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/suppressions", get(list)),
        (Method::POST, "/admin/suppressions", post(add)),
        (Method::POST, "/admin/suppressions/remove", post(remove)),
    ]
}

/// Numbers on one page of the list.
pub const PAGE: usize = 50;
const MAX_REASON: usize = 200;

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    phone: Option<String>,
    done: Option<String>,
    /// Notifications stopped by the number just added.
    stopped: Option<u64>,
    /// Keyset cursor: the page after the row added at this time with this number ("ms.+1…").
    before: Option<String>,
}

/// The notice after an action, from the redirect's `done` (and `stopped`).
fn done_notice(done: Option<&str>, stopped: u64) -> Option<String> {
    Some(match done? {
        "added" if stopped > 0 => format!(
            "Added to the do-not-call list. Its next leads are kept but not delivered, and {stopped} notification(s) of its earlier leads that were not delivered yet never will be."
        ),
        "added" => "Added to the do-not-call list. Its next leads are kept but not delivered.".to_string(),
        "already" => "That number was already on the list.".to_string(),
        "removed" => "Removed from the do-not-call list. Its next leads are delivered again.".to_string(),
        "absent" => "That number was not on the list.".to_string(),
        _ => return None,
    })
}

pub async fn list(State(state): State<Arc<AppState>>, staff: StaffSession, Query(q): Query<ListQuery>) -> Result<Response, ConsoleError> {
    let search = q.phone.as_deref().unwrap_or("").trim().chars().take(40).collect::<String>();
    let mut view = ListView {
        search: search.clone(),
        ..ListView::default()
    };
    let filter = match (search.is_empty(), UsPhone::parse(&search)) {
        (true, _) => None,
        (false, Ok(p)) => Some(p.e164()),
        (false, Err(_)) => {
            view.notice = Some(format!("“{search}” is not a US phone number: type its ten digits, in any format."));
            view.notice_is_error = true;
            return render(&state, &staff, view, StatusCode::OK).await;
        }
    };
    view.notice = done_notice(q.done.as_deref(), q.stopped.unwrap_or(0));
    let before = q.before.as_deref().and_then(|b| {
        let (ms, phone) = b.split_once('.')?;
        Some((ms.parse::<i64>().ok()?, phone.chars().take(20).collect::<String>()))
    });
    let paged = before.is_some();
    let rows = state
        .store
        .suppressions(filter.as_deref(), before, PAGE + 1)
        .await
        .doing("read the do-not-call list")?;
    let more = rows.len() > PAGE;
    let rows: Vec<_> = rows.into_iter().take(PAGE).collect();
    view.next_href = more.then(|| rows.last()).flatten().map(|r| {
        format!(
            "{LIST_PATH}?before={}",
            encode_component(&format!("{}.{}", r.added_ms, r.phone_e164))
        )
    });
    view.first_href = paged.then(|| LIST_PATH.to_string());
    let zone = Zone::new(&state.config.site.time_zone);
    view.rows = rows
        .into_iter()
        .map(|s| SuppressionRow {
            phone: UsPhone::parse(&s.phone_e164)
                .map(|p| p.display())
                .unwrap_or_else(|_| s.phone_e164.clone()),
            phone_e164: s.phone_e164,
            reason: s.reason,
            added: zone.local(s.added_ms),
            added_by: s.staff_email,
        })
        .collect();
    render(&state, &staff, view, StatusCode::OK).await
}

const LIST_PATH: &str = "/admin/suppressions";

/// What the page shows besides its frame.
#[derive(Debug, Default)]
struct ListView {
    rows: Vec<SuppressionRow>,
    search: String,
    notice: Option<String>,
    notice_is_error: bool,
    /// The add form's values, shown again after a refusal.
    phone: String,
    reason: String,
    next_href: Option<String>,
    first_href: Option<String>,
}

async fn render(state: &AppState, staff: &StaffSession, view: ListView, status: StatusCode) -> Result<Response, ConsoleError> {
    let props = PageProps::AdminSuppressions(AdminSuppressionsProps {
        frame: staff.frame(state, AdminSection::Suppressions),
        rows: view.rows,
        search: view.search,
        notice: view.notice,
        notice_is_error: view.notice_is_error,
        phone: view.phone,
        reason: view.reason,
        next_href: view.next_href,
        first_href: view.first_href,
    });
    page::render(state, status, props, "Do not call").await
}

/// POST /admin/suppressions: phone (any format) and reason.
pub async fn add(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let typed = form.get("phone").chars().take(40).collect::<String>();
    let reason = form
        .get("reason")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REASON)
        .collect::<String>();
    let refuse = |message: String| {
        let view = ListView {
            notice: Some(message),
            notice_is_error: true,
            phone: typed.clone(),
            reason: reason.clone(),
            ..ListView::default()
        };
        let (state, staff) = (&state, &staff);
        async move { render(state, staff, view, StatusCode::BAD_REQUEST).await }
    };
    let phone = match UsPhone::parse(&typed) {
        Ok(p) => p.e164(),
        Err(_) => return refuse(format!("“{typed}” is not a US phone number: type its ten digits, in any format.")).await,
    };
    if reason.trim().is_empty() {
        return refuse("Say why the number goes on the list (for example: Replied STOP).".into()).await;
    }
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("suppress", Some(masked(&phone)), Some(reason.clone()));
    let listed = state
        .store
        .suppress(&phone, reason.trim(), audit, now)
        .await
        .doing("add to the do-not-call list")?;
    Ok(if listed.added && listed.stopped > 0 {
        done(&phone, &format!("added&stopped={}", listed.stopped))
    } else {
        done(&phone, if listed.added { "added" } else { "already" })
    })
}

/// POST /admin/suppressions/remove: phone.
pub async fn remove(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let Ok(phone) = UsPhone::parse(form.get("phone")).map(|p| p.e164()) else {
        return Err(ConsoleError::bad_request(
            "Not a phone number",
            "Go back and use the Remove button beside the number.",
        ));
    };
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("unsuppress", Some(masked(&phone)), None);
    let removed = state
        .store
        .unsuppress(&phone, audit, now)
        .await
        .doing("remove from the do-not-call list")?;
    Ok(done(&phone, if removed { "removed" } else { "absent" }))
}

fn done(phone: &str, what: &str) -> Response {
    Redirect::to(&format!("{LIST_PATH}?phone={}&done={what}", encode_component(phone))).into_response()
}
