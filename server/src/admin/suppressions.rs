//! GET /admin/suppressions (the do-not-call list), POST /admin/suppressions (add a number
//! with a reason), POST /admin/suppressions/remove. A lead from a listed number is stored,
//! marked suppressed and never delivered; the visitor sees the usual success.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::access::{FormFields, StaffSession, encode_component};
use super::page;
use super::zone::Zone;
use crate::pages::props::{AdminSection, AdminSuppressionsProps, PageProps, SuppressionRow};
use crate::phone::UsPhone;
use crate::state::AppState;
use crate::store::masked;

const SHOWN: usize = 200;
const MAX_REASON: usize = 200;

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    phone: Option<String>,
    done: Option<String>,
}

pub async fn list(State(state): State<Arc<AppState>>, Extension(staff): Extension<StaffSession>, Query(q): Query<ListQuery>) -> Response {
    let search = q.phone.as_deref().unwrap_or("").trim().chars().take(40).collect::<String>();
    let (filter, mut notice, mut is_error) = match (search.is_empty(), UsPhone::parse(&search)) {
        (true, _) => (None, None, false),
        (false, Ok(p)) => (Some(p.e164()), None, false),
        (false, Err(_)) => (
            None,
            Some(format!("“{search}” is not a US phone number: type its ten digits, in any format.")),
            true,
        ),
    };
    if notice.is_none() {
        notice = match q.done.as_deref() {
            Some("added") => Some("Added to the do-not-call list. Its next leads are kept but not delivered.".to_string()),
            Some("already") => Some("That number was already on the list.".to_string()),
            Some("removed") => Some("Removed from the do-not-call list. Its next leads are delivered again.".to_string()),
            Some("absent") => Some("That number was not on the list.".to_string()),
            _ => None,
        };
        is_error = false;
    }
    if is_error {
        return render(
            &state,
            &staff,
            Vec::new(),
            search,
            notice,
            true,
            String::new(),
            String::new(),
            StatusCode::OK,
        )
        .await;
    }
    let rows = match state.store.suppressions(filter.as_deref(), SHOWN).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "console: cannot read the do-not-call list");
            return page::unavailable();
        }
    };
    let zone = Zone::new(&state.config.site.time_zone);
    let rows = rows
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
    render(
        &state,
        &staff,
        rows,
        search,
        notice,
        false,
        String::new(),
        String::new(),
        StatusCode::OK,
    )
    .await
}

#[allow(clippy::too_many_arguments)]
async fn render(
    state: &AppState,
    staff: &StaffSession,
    rows: Vec<SuppressionRow>,
    search: String,
    notice: Option<String>,
    notice_is_error: bool,
    phone: String,
    reason: String,
    status: StatusCode,
) -> Response {
    let props = PageProps::AdminSuppressions(AdminSuppressionsProps {
        frame: staff.frame(state, AdminSection::Suppressions),
        rows,
        search,
        notice,
        notice_is_error,
        phone,
        reason,
    });
    page::render(state, status, props, "Do not call").await
}

/// POST /admin/suppressions: phone (any format) and reason.
pub async fn add(
    State(state): State<Arc<AppState>>,
    Extension(staff): Extension<StaffSession>,
    Extension(form): Extension<FormFields>,
) -> Response {
    let typed = form.get("phone").chars().take(40).collect::<String>();
    let reason = form
        .get("reason")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REASON)
        .collect::<String>();
    let refuse = |message: String| {
        let (state, staff, typed, reason) = (&state, &staff, typed.clone(), reason.clone());
        async move {
            render(
                state,
                staff,
                Vec::new(),
                String::new(),
                Some(message),
                true,
                typed,
                reason,
                StatusCode::BAD_REQUEST,
            )
            .await
        }
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
    match state.store.suppress(&phone, reason.trim(), audit, now).await {
        Ok(added) => done(&phone, if added { "added" } else { "already" }),
        Err(e) => {
            tracing::error!(error = %e, "console: cannot add to the do-not-call list");
            page::unavailable()
        }
    }
}

/// POST /admin/suppressions/remove: phone.
pub async fn remove(
    State(state): State<Arc<AppState>>,
    Extension(staff): Extension<StaffSession>,
    Extension(form): Extension<FormFields>,
) -> Response {
    let Ok(phone) = UsPhone::parse(form.get("phone")).map(|p| p.e164()) else {
        return page::message(
            &state,
            Some(&staff),
            StatusCode::BAD_REQUEST,
            "Not a phone number",
            "Go back and use the Remove button beside the number.",
        )
        .await;
    };
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("unsuppress", Some(masked(&phone)), None);
    match state.store.unsuppress(&phone, audit, now).await {
        Ok(removed) => done(&phone, if removed { "removed" } else { "absent" }),
        Err(e) => {
            tracing::error!(error = %e, "console: cannot remove from the do-not-call list");
            page::unavailable()
        }
    }
}

fn done(phone: &str, what: &str) -> Response {
    Redirect::to(&format!("/admin/suppressions?phone={}&done={what}", encode_component(phone))).into_response()
}
