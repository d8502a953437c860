//! GET /admin/audit: the audit log, newest first, 50 lines a page.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use super::error::{ConsoleError, Doing};
use super::page;
use super::screen::Routes;
use super::session::StaffSession;
use crate::pages::admin::AdminSection;
use crate::pages::admin::audit::{AdminAuditProps, AuditRow};
use crate::pages::props::PageProps;
use crate::state::AppState;
use crate::store::AuditEntry;

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![(Method::GET, "/admin/audit", get(page))]
}

const PAGE: usize = 50;

#[derive(Deserialize)]
pub struct AuditQuery {
    before: Option<i64>,
}

pub async fn page(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    Query(query): Query<AuditQuery>,
) -> Result<Response, ConsoleError> {
    let mut entries = state.store.audit_log(query.before, PAGE + 1).await.doing("read the audit log")?;
    let older_href = (entries.len() > PAGE).then(|| {
        entries.truncate(PAGE);
        format!("/admin/audit?before={}", entries.last().map(|e| e.id).unwrap_or(0))
    });
    let props = PageProps::AdminAudit(AdminAuditProps {
        frame: staff.frame(&state, AdminSection::Audit),
        entries: entries.into_iter().map(row).collect(),
        older_href,
    });
    page::render(&state, StatusCode::OK, props, "Audit log").await
}

fn row(e: AuditEntry) -> AuditRow {
    let target_href = e.target.as_deref().and_then(|t| {
        let (kind, id) = t.split_once(':')?;
        match kind {
            "lead" => Some(format!("/admin/leads/{id}")),
            "submission" => Some(format!("/admin/submissions/{id}")),
            _ => None,
        }
    });
    AuditRow {
        id: e.id.to_string(),
        at: crate::time::human_utc(e.at_ms),
        staff: e.staff_email,
        action: e.action,
        target: e.target,
        target_href,
        ip: e.ip,
        detail: e.detail,
    }
}
