//! GET /admin/leads.csv, /admin/account-requests.csv and /admin/applications.csv: the list's
//! current filter as CSV (a lead's columns: those `LEAD_FIELDS` marks `export`). Audited as an export before the first byte; then a task reads the
//! rows in keyset batches (the list's own query) and hands each batch to the connection as
//! one chunk, reading the next only once the connection took it: constant memory for any
//! number of rows.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::csv::{self, ChunkSender, ExportFailed};
use super::error::{ConsoleError, Doing};
use super::leads::{self, LeadsQuery};
use super::screen::Routes;
use super::session::StaffSession;
use super::submissions::{self, ListQuery};
use super::zone::Zone;
use crate::pages::admin::leads::LeadFilterForm;
use crate::state::AppState;
use crate::store::lead_fields::exported;
use crate::store::{LeadFilter, Store, SubmissionFilter, SubmissionKind, masked};

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/leads.csv", get(leads_csv)),
        (Method::GET, "/admin/account-requests.csv", get(account_requests_csv)),
        (Method::GET, "/admin/applications.csv", get(applications_csv)),
    ]
}

/// Rows read from the store at a time (one chunk of the body).
pub const BATCH: usize = 1000;

/// GET /admin/leads.csv
pub async fn leads_csv(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    Query(q): Query<LeadsQuery>,
) -> Result<Response, ConsoleError> {
    let zone = Zone::new(&state.config.site.time_zone);
    let (form, filter) = leads::filter_from(&state, &zone, &q);
    let mut filter = filter.map_err(ConsoleError::DataRefused)?;
    filter.before = None;
    let detail = describe_leads(&form, &filter);
    audit(&state, &staff, "leads", detail).await?;
    let (tx, body) = csv::channel();
    let store = Arc::clone(&state.store);
    tokio::spawn(stream_leads(store, filter, zone, tx));
    Ok(attachment(body, "leads.csv"))
}

/// GET /admin/account-requests.csv
pub async fn account_requests_csv(state: State<Arc<AppState>>, staff: StaffSession, q: Query<ListQuery>) -> Result<Response, ConsoleError> {
    submissions_csv(state, staff, q, SubmissionKind::AccountRequest).await
}

/// GET /admin/applications.csv
pub async fn applications_csv(state: State<Arc<AppState>>, staff: StaffSession, q: Query<ListQuery>) -> Result<Response, ConsoleError> {
    submissions_csv(state, staff, q, SubmissionKind::CampaignApplication).await
}

async fn submissions_csv(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    Query(q): Query<ListQuery>,
    kind: SubmissionKind,
) -> Result<Response, ConsoleError> {
    let (status, filter) = submissions::filter_from(kind, &q);
    let mut filter = filter.map_err(ConsoleError::DataRefused)?;
    filter.before = None;
    let target = match kind {
        SubmissionKind::AccountRequest => "account_requests",
        SubmissionKind::CampaignApplication => "applications",
    };
    let detail = if status.is_empty() {
        "all".to_string()
    } else {
        format!("status={status}")
    };
    audit(&state, &staff, target, detail).await?;
    let (tx, body) = csv::channel();
    let store = Arc::clone(&state.store);
    tokio::spawn(stream_submissions(store, filter, tx));
    Ok(attachment(body, &format!("{}.csv", target.replace('_', "-"))))
}

/// The audit line of an export (no export unaudited).
async fn audit(state: &AppState, staff: &StaffSession, target: &str, detail: String) -> Result<(), ConsoleError> {
    let now = state.staff.clock.now_ms();
    let entry = staff.audit("export", Some(format!("export:{target}")), Some(detail));
    state.store.audit(entry, now).await.doing("write the audit log")
}

/// The filter as the audit log keeps it: never a whole phone number, never the name typed.
fn describe_leads(form: &LeadFilterForm, filter: &LeadFilter) -> String {
    let mut parts = Vec::new();
    if let Some(s) = &filter.service {
        parts.push(format!("service={s}"));
    }
    if let Some(s) = &filter.status {
        parts.push(format!("status={s}"));
    }
    if let Some(p) = &filter.phone {
        parts.push(masked(p));
    }
    if !filter.name_words.is_empty() {
        parts.push("name search".to_string());
    }
    if !form.from.is_empty() {
        parts.push(format!("from={}", form.from));
    }
    if !form.to.is_empty() {
        parts.push(format!("to={}", form.to));
    }
    if parts.is_empty() { "all".to_string() } else { parts.join(" ") }
}

fn attachment(body: axum::body::Body, filename: &str) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

/// Sends `chunk`; false when the connection has gone (the export stops there).
async fn send(tx: &ChunkSender, chunk: String) -> bool {
    tx.send(Ok(chunk.into())).await.is_ok()
}

async fn stream_leads(store: Arc<Store>, mut filter: LeadFilter, zone: Zone, tx: ChunkSender) {
    let mut head = String::new();
    let local = format!("Received ({})", zone.name);
    let labels = exported().map(|f| f.label.to_string());
    let titles: Vec<String> = ["Lead id".to_string(), "Received (UTC)".to_string(), local]
        .into_iter()
        .chain(labels)
        .chain(["Delivery status".to_string()])
        .collect();
    csv::push_row(&mut head, &titles);
    if !send(&tx, head).await {
        return;
    }
    loop {
        let rows = match store.list_leads(&filter, BATCH).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!(error = %e, "console: an export cannot read its next leads");
                let _ = tx.send(Err(ExportFailed)).await;
                return;
            }
        };
        let Some(last) = rows.last() else { return };
        filter.before = Some((last.received_at_ms, last.id.clone()));
        let full = rows.len() == BATCH;
        let mut chunk = String::with_capacity(rows.len() * 128);
        for r in rows {
            let cells: Vec<String> = [r.id, crate::time::rfc3339(r.received_at_ms), zone.local(r.received_at_ms)]
                .into_iter()
                .chain(r.fields.into_iter().map(Option::unwrap_or_default))
                .chain([r.delivery_status])
                .collect();
            csv::push_row(&mut chunk, &cells);
        }
        if !send(&tx, chunk).await || !full {
            return;
        }
    }
}

async fn stream_submissions(store: Arc<Store>, mut filter: SubmissionFilter, tx: ChunkSender) {
    let mut head = String::new();
    csv::push_row(
        &mut head,
        &[
            "Id",
            "Received (UTC)",
            "Status",
            "Name",
            "Company",
            "Email",
            "Phone",
            "Note",
            "Fields (JSON)",
        ],
    );
    if !send(&tx, head).await {
        return;
    }
    loop {
        let rows = match store.list_submissions(&filter, BATCH).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!(error = %e, "console: an export cannot read its next submissions");
                let _ = tx.send(Err(ExportFailed)).await;
                return;
            }
        };
        let Some(last) = rows.last() else { return };
        filter.before = Some((last.received_at_ms, last.id.clone()));
        let full = rows.len() == BATCH;
        let mut chunk = String::with_capacity(rows.len() * 256);
        for r in rows {
            let name = submissions::display_name(&r);
            let company = submissions::company(&r).unwrap_or_default();
            let fields = match r.data {
                serde_json::Value::Object(mut map) => {
                    map.retain(|k, _| !k.starts_with("hp_"));
                    serde_json::Value::Object(map).to_string()
                }
                other => other.to_string(),
            };
            csv::push_row(
                &mut chunk,
                &[
                    r.id,
                    crate::time::rfc3339(r.received_at_ms),
                    r.status,
                    name,
                    company,
                    r.email,
                    r.phone.unwrap_or_default(),
                    r.note.unwrap_or_default(),
                    fields,
                ],
            );
        }
        if !send(&tx, chunk).await || !full {
            return;
        }
    }
}
