//! GET /admin/campaigns (the list, found by name, filtered by status; `?edit=<id>` fills the
//! form with one and shows its history), POST /admin/campaigns (add one, or change the one
//! its `id` names), POST /admin/campaigns/status (pause, resume, end). Every save is checked
//! (`crate::campaigns::check`, the name among the campaigns not ended), written with its
//! history and audit line in one transaction, and on this server's public pages before the
//! answer (`AppState::refresh_campaigns`); the other servers follow through the store's
//! notifications (docs/decisions/032-campaigns-in-the-store.md).

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
use crate::campaigns::{check, name_taken};
use crate::catalogue::PAYMENT_TERMS;
use crate::pages::admin::AdminSection;
use crate::pages::admin::campaigns::{AdminCampaignsProps, CampaignForm, CampaignHistoryRow, CampaignRow, ImportLine};
use crate::pages::props::PageProps;
use crate::state::AppState;
use crate::store::{CAMPAIGN_STATUSES, CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved, campaign_changes};

pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/campaigns", get(list)),
        (Method::POST, "/admin/campaigns", post(save)),
        (Method::POST, "/admin/campaigns/status", post(set_status)),
    ]
}

const LIST_PATH: &str = "/admin/campaigns";

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    name: Option<String>,
    status: Option<String>,
    edit: Option<i64>,
    done: Option<String>,
    /// How many campaigns an import saved.
    count: Option<u64>,
}

/// The form's label of a stored field (the history's words).
fn label(field: &str) -> &str {
    match field {
        "name" => "Name",
        "status" => "Status",
        "payouts" => "Payout",
        "payment_terms" => "Payment terms",
        "geos" => "GEOs",
        "promo_allowed" => "Promotion note",
        "cap" => "Cap",
        "inbound" => "Inbound",
        "transfer" => "Transfer",
        "seconds" => "Call length (seconds)",
        "hours" => "Hours",
        "notes" => "Notes",
        other => other,
    }
}

fn done_notice(done: Option<&str>, count: u64) -> Option<String> {
    if done == Some("imported") {
        return Some(format!(
            "Import saved: {count} campaign(s) added or changed. The public pages show them now."
        ));
    }
    Some(
        match done? {
            "added" => "Campaign added. The public pages show it now.",
            "changed" => "Campaign saved. The public pages show the change now.",
            "unchanged" => "Nothing to save: the campaign already had these values.",
            "paused" => "Campaign paused: it is off the public lists and takes no applications.",
            "resumed" => "Campaign live again: it is back on the public lists.",
            "ended" => "Campaign ended: kept for its history and applications, never shown publicly.",
            _ => return None,
        }
        .to_string(),
    )
}

fn form_of(r: &CampaignRecord) -> CampaignForm {
    let f = &r.fields;
    CampaignForm {
        id: Some(r.id),
        name: f.name.clone(),
        status: f.status.clone(),
        payouts: f.payouts.clone(),
        payment_terms: f.payment_terms.clone(),
        geos: f.geos.clone(),
        promo_allowed: f.promo_allowed.clone().unwrap_or_default(),
        cap: f.cap.clone(),
        inbound: f.inbound,
        transfer: f.transfer,
        seconds: f.seconds.to_string(),
        hours: f.hours.clone(),
        notes: f.notes.clone(),
    }
}

fn blank_form() -> CampaignForm {
    CampaignForm {
        status: "LIVE".into(),
        seconds: "120".into(),
        hours: "HOVER TO SEE".into(),
        inbound: true,
        ..CampaignForm::default()
    }
}

struct View {
    search: String,
    status: String,
    notice: Option<String>,
    notice_is_error: bool,
    form: CampaignForm,
    import: ImportView,
}

/// An import's text and what became of it (`campaigns_csv.rs`).
#[derive(Debug, Default)]
pub struct ImportView {
    pub text: String,
    pub error: Option<String>,
    pub lines: Vec<ImportLine>,
}

/// The screen with an import's preview or refusal.
pub async fn render_import(
    state: &AppState,
    staff: &StaffSession,
    import: ImportView,
    status: StatusCode,
) -> Result<Response, ConsoleError> {
    let view = View {
        search: String::new(),
        status: String::new(),
        notice: None,
        notice_is_error: false,
        form: blank_form(),
        import,
    };
    render(state, staff, view, status).await
}

async fn render(state: &AppState, staff: &StaffSession, view: View, status: StatusCode) -> Result<Response, ConsoleError> {
    let all = state.store.campaigns().await.doing("read the campaigns")?;
    let zone = Zone::new(&state.config.site.time_zone);
    let needle = view.search.to_lowercase();
    let rows = all
        .iter()
        .filter(|r| needle.is_empty() || r.fields.name.to_lowercase().contains(&needle))
        .filter(|r| view.status.is_empty() || r.fields.status == view.status)
        .map(|r| CampaignRow {
            id: r.id,
            name: r.fields.name.clone(),
            status: r.fields.status.clone(),
            payouts: r.fields.payouts.clone(),
            payment_terms: r.fields.payment_terms.clone(),
            geos: r.fields.geos.clone(),
            changed: zone.local(r.changed_ms),
            changed_by: r.changed_by.clone(),
        })
        .collect();
    let history = match view.form.id {
        Some(id) => state
            .store
            .campaign_changes(id)
            .await
            .doing("read the campaign's history")?
            .into_iter()
            .map(|c| CampaignHistoryRow {
                at: zone.local(c.at_ms),
                by: c.staff_email,
                field: label(&c.field).to_string(),
                from: c.old_value,
                to: c.new_value,
            })
            .collect(),
        None => Vec::new(),
    };
    let props = PageProps::AdminCampaigns(Box::new(AdminCampaignsProps {
        frame: staff.frame(state, AdminSection::Campaigns),
        rows,
        search: view.search,
        status: view.status,
        statuses: CAMPAIGN_STATUSES.iter().map(|s| s.to_string()).collect(),
        payment_terms: PAYMENT_TERMS.iter().map(|s| s.to_string()).collect(),
        notice: view.notice,
        notice_is_error: view.notice_is_error,
        form: view.form,
        history,
        import_text: view.import.text,
        import_error: view.import.error,
        import_preview: view.import.lines,
    }));
    page::render(state, status, props, "Campaigns").await
}

pub async fn list(State(state): State<Arc<AppState>>, staff: StaffSession, Query(q): Query<ListQuery>) -> Result<Response, ConsoleError> {
    let search: String = q.name.as_deref().unwrap_or("").trim().chars().take(150).collect();
    let status = q.status.filter(|s| CAMPAIGN_STATUSES.contains(&s.as_str())).unwrap_or_default();
    let form = match q.edit {
        Some(id) => match state
            .store
            .campaigns()
            .await
            .doing("read the campaigns")?
            .iter()
            .find(|r| r.id == id)
        {
            Some(r) => form_of(r),
            None => {
                return Err(ConsoleError::not_found(
                    "No such campaign",
                    "Go back to the campaigns and choose one from the list.",
                ));
            }
        },
        None => blank_form(),
    };
    let view = View {
        search,
        status,
        notice: done_notice(q.done.as_deref(), q.count.unwrap_or(0)),
        notice_is_error: false,
        form,
        import: ImportView::default(),
    };
    render(&state, &staff, view, StatusCode::OK).await
}

/// The form as posted, trimmed, and the fields it makes (or the first rule broken).
fn read_form(form: &FormFields) -> (CampaignForm, Result<CampaignFields, String>) {
    let text = |name: &str| form.get(name).trim().to_string();
    let id = form.get("id").trim().parse::<i64>().ok();
    let typed = CampaignForm {
        id,
        name: text("name"),
        status: text("status"),
        payouts: text("payouts"),
        payment_terms: text("payment_terms"),
        geos: text("geos"),
        promo_allowed: text("promo_allowed"),
        cap: text("cap"),
        inbound: form.get("inbound") == "yes",
        transfer: form.get("transfer") == "yes",
        seconds: text("seconds"),
        hours: text("hours"),
        notes: form.get("notes").trim().replace("\r\n", "\n"),
    };
    let Ok(seconds) = typed.seconds.parse::<i64>() else {
        return (typed, Err("Call length: a whole number of seconds from 1 to 3600.".into()));
    };
    let fields = CampaignFields {
        name: typed.name.clone(),
        status: typed.status.clone(),
        payouts: typed.payouts.clone(),
        payment_terms: typed.payment_terms.clone(),
        geos: typed.geos.clone(),
        promo_allowed: (!typed.promo_allowed.is_empty()).then(|| typed.promo_allowed.clone()),
        cap: typed.cap.clone(),
        inbound: typed.inbound,
        transfer: typed.transfer,
        seconds,
        hours: typed.hours.clone(),
        notes: typed.notes.clone(),
    };
    let checked = check(&fields).map(|()| fields).map_err(|p| p.message);
    (typed, checked)
}

fn refused(typed: CampaignForm, message: String) -> View {
    View {
        search: String::new(),
        status: String::new(),
        notice: Some(message),
        notice_is_error: true,
        form: typed,
        import: ImportView::default(),
    }
}

/// Saves, puts the change on this server's pages, and goes back to the campaign.
async fn apply(
    state: &Arc<AppState>,
    staff: &StaffSession,
    edit: CampaignEdit,
    action: &'static str,
    detail: String,
) -> Result<Result<i64, String>, ConsoleError> {
    let now = state.staff.clock.now_ms();
    let audit = staff.audit(action, edit.id.map(|id| id.to_string()), Some(detail));
    let saved = state
        .store
        .save_campaigns(std::slice::from_ref(&edit), staff.staff_id, vec![audit], now)
        .await
        .doing("save the campaign")?;
    let id = match saved {
        CampaignSaved::Saved(ids) => ids.first().copied().unwrap_or_default(),
        CampaignSaved::NameTaken(name) => return Ok(Err(name_taken(&name))),
        CampaignSaved::Unknown(_) => {
            return Err(ConsoleError::not_found(
                "No such campaign",
                "Go back to the campaigns and choose one from the list.",
            ));
        }
    };
    if let Err(e) = state.refresh_campaigns().await {
        tracing::error!(error = %e, "the campaign is saved, but this server's pages could not be rebuilt");
    }
    Ok(Ok(id))
}

fn done(id: i64, what: &str) -> Response {
    Redirect::to(&format!("{LIST_PATH}?edit={id}&done={}", encode_component(what))).into_response()
}

/// POST /admin/campaigns: the form's fields, and `id` when it changes a stored campaign.
pub async fn save(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let (typed, checked) = read_form(&form);
    let fields = match checked {
        Ok(fields) => fields,
        Err(message) => return render(&state, &staff, refused(typed, message), StatusCode::BAD_REQUEST).await,
    };
    let old = match typed.id {
        Some(id) => match state
            .store
            .campaigns()
            .await
            .doing("read the campaigns")?
            .into_iter()
            .find(|r| r.id == id)
        {
            Some(r) => Some(r.fields),
            None => {
                return Err(ConsoleError::not_found(
                    "No such campaign",
                    "Go back to the campaigns and choose one from the list.",
                ));
            }
        },
        None => None,
    };
    let changed: Vec<&str> = campaign_changes(old.as_ref(), &fields).into_iter().map(|(f, _, _)| f).collect();
    if old.is_some() && changed.is_empty() {
        return Ok(done(typed.id.unwrap_or_default(), "unchanged"));
    }
    let action = if old.is_some() { "campaign-change" } else { "campaign-add" };
    let edit = CampaignEdit { id: typed.id, fields };
    match apply(&state, &staff, edit, action, changed.join(", ")).await? {
        Ok(id) => Ok(done(id, if old.is_some() { "changed" } else { "added" })),
        Err(message) => render(&state, &staff, refused(typed, message), StatusCode::BAD_REQUEST).await,
    }
}

/// POST /admin/campaigns/status: `id` and `status` (LIVE to resume, paused, ended).
pub async fn set_status(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let status = form.get("status");
    let (Ok(id), true) = (form.get("id").parse::<i64>(), CAMPAIGN_STATUSES.contains(&status)) else {
        return Err(ConsoleError::bad_request(
            "Not a campaign's status",
            "Go back and use the buttons beside the campaign.",
        ));
    };
    let Some(record) = state
        .store
        .campaigns()
        .await
        .doing("read the campaigns")?
        .into_iter()
        .find(|r| r.id == id)
    else {
        return Err(ConsoleError::not_found(
            "No such campaign",
            "Go back to the campaigns and choose one from the list.",
        ));
    };
    if record.fields.status == "ended" && status != "ended" {
        return Err(ConsoleError::bad_request(
            "The campaign has ended",
            "An ended campaign stays ended: add a new one instead.",
        ));
    }
    let mut fields = record.fields.clone();
    fields.status = status.to_string();
    let what = match status {
        "paused" => "paused",
        "ended" => "ended",
        _ => "resumed",
    };
    let edit = CampaignEdit { id: Some(id), fields };
    match apply(&state, &staff, edit, "campaign-status", status.to_string()).await? {
        Ok(id) => Ok(done(id, what)),
        Err(message) => {
            let view = refused(form_of(&record), message);
            render(&state, &staff, view, StatusCode::BAD_REQUEST).await
        }
    }
}
