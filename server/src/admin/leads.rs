//! GET /admin/leads (the list: filters, keyset pages), GET /admin/leads/{id} (everything
//! stored, with the consent record and every delivery attempt), POST
//! /admin/leads/{id}/retry (a failed delivery back to the outbox, unless the lead is erased
//! or its number is on the do-not-call list now).

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
use crate::pages::admin::leads::{
    AdminLeadProps, AdminLeadsProps, AttemptView, ConsentView, DeliveryView, LeadFilterForm, LeadListRow, ServiceOption,
};
use crate::pages::admin::{AdminSection, Labeled};
use crate::pages::props::PageProps;
use crate::phone::UsPhone;
use crate::state::AppState;
use crate::store::lead_fields;
use crate::store::{DELIVERY_STATUSES, LeadDetail, LeadFilter, LeadRow, RetryOutcome};

/// This screen's routes (`admin/mod.rs` puts them behind the session check).
pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/leads", get(list)),
        (Method::GET, "/admin/leads/{id}", get(detail)),
        (Method::POST, "/admin/leads/{id}/retry", post(retry)),
    ]
}

/// Rows on one page of the list.
pub const PAGE: usize = 50;

#[derive(Debug, Default, Deserialize)]
pub struct LeadsQuery {
    pub service: Option<String>,
    pub status: Option<String>,
    pub phone: Option<String>,
    pub name: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub before: Option<String>,
}

/// The typed filters as the store's filter, or the reason they cannot match anything.
pub fn filter_from(state: &AppState, zone: &Zone, q: &LeadsQuery) -> (LeadFilterForm, Result<LeadFilter, String>) {
    let text = |v: &Option<String>| v.as_deref().unwrap_or("").trim().chars().take(100).collect::<String>();
    let form = LeadFilterForm {
        service: text(&q.service),
        status: text(&q.status),
        phone: text(&q.phone),
        name: text(&q.name),
        from: text(&q.from),
        to: text(&q.to),
    };
    let mut filter = LeadFilter::default();
    if !form.service.is_empty() {
        match state.catalogue.service(&form.service) {
            Some(s) => filter.service = Some(s.slug.clone()),
            None => return (form, Err("There is no such service.".into())),
        }
    }
    if !form.status.is_empty() {
        match DELIVERY_STATUSES.iter().find(|s| **s == form.status) {
            Some(s) => filter.status = Some(s.to_string()),
            None => return (form, Err("There is no such delivery status.".into())),
        }
    }
    if !form.phone.is_empty() {
        match UsPhone::parse(&form.phone) {
            Ok(p) => filter.phone = Some(p.e164()),
            Err(_) => {
                let message = format!("“{}” is not a US phone number: type its ten digits, in any format.", form.phone);
                return (form, Err(message));
            }
        }
    }
    filter.name_words = LeadFilter::words(&form.name);
    for (typed, target, end) in [(&form.from, &mut filter.from_ms, false), (&form.to, &mut filter.to_ms, true)] {
        if typed.is_empty() {
            continue;
        }
        let ms = if end { zone.day_end_ms(typed) } else { zone.day_start_ms(typed) };
        match ms {
            Some(ms) => *target = Some(ms),
            None => return (form.clone(), Err(format!("“{typed}” is not a date: use YYYY-MM-DD."))),
        }
    }
    filter.before = q.before.as_deref().and_then(|b| {
        let (ms, id) = b.split_once('.')?;
        Some((ms.parse().ok()?, id.chars().take(64).collect()))
    });
    (form, Ok(filter))
}

/// The list's query string for `form` (and a cursor), starting with `?` when not empty.
pub fn query_string(form: &LeadFilterForm, before: Option<&str>) -> String {
    query(&[
        ("service", form.service.as_str()),
        ("status", form.status.as_str()),
        ("phone", form.phone.as_str()),
        ("name", form.name.as_str()),
        ("from", form.from.as_str()),
        ("to", form.to.as_str()),
        ("before", before.unwrap_or("")),
    ])
}

pub async fn list(State(state): State<Arc<AppState>>, staff: StaffSession, Query(q): Query<LeadsQuery>) -> Result<Response, ConsoleError> {
    let zone = Zone::new(&state.config.site.time_zone);
    let (form, filter) = filter_from(&state, &zone, &q);
    let (rows, notice) = match filter {
        Ok(filter) => (state.store.list_leads(&filter, PAGE + 1).await.doing("list leads")?, None),
        Err(notice) => (Vec::new(), Some(notice)),
    };
    let more = rows.len() > PAGE;
    let rows: Vec<LeadRow> = rows.into_iter().take(PAGE).collect();
    let next_href = more
        .then(|| {
            rows.last().map(|r| {
                format!(
                    "/admin/leads{}",
                    query_string(&form, Some(&format!("{}.{}", r.received_at_ms, r.id)))
                )
            })
        })
        .flatten();
    let first_href = q.before.is_some().then(|| format!("/admin/leads{}", query_string(&form, None)));
    let props = PageProps::AdminLeads(AdminLeadsProps {
        frame: staff.frame(&state, AdminSection::Leads),
        export_href: format!("/admin/leads.csv{}", query_string(&form, None)),
        services: state
            .catalogue
            .services
            .iter()
            .map(|s| ServiceOption {
                slug: s.slug.clone(),
                name: s.name.clone(),
            })
            .collect(),
        statuses: DELIVERY_STATUSES.iter().map(|s| s.to_string()).collect(),
        rows: rows.into_iter().map(|r| list_row(&state, &zone, r)).collect(),
        filter: form,
        notice,
        next_href,
        first_href,
        time_zone: zone.name.clone(),
    });
    page::render(&state, StatusCode::OK, props, "Leads").await
}

fn list_row(state: &AppState, zone: &Zone, r: LeadRow) -> LeadListRow {
    let stored = r.field("phone_e164").unwrap_or_default();
    let phone = UsPhone::parse(stored).ok();
    LeadListRow {
        href: format!("/admin/leads/{}", r.id),
        received: zone.local(r.received_at_ms),
        service: service_name(state, r.field("service_slug").unwrap_or_default()),
        name: r.field("full_name").unwrap_or_default().to_string(),
        phone: phone.as_ref().map(UsPhone::display).unwrap_or_else(|| stored.to_string()),
        tel_href: phone.as_ref().map(UsPhone::tel_href).unwrap_or_else(|| format!("tel:{stored}")),
        zip: r.field("zip_code").unwrap_or_default().to_string(),
        status: r.delivery_status.clone(),
        id: r.id.clone(),
    }
}

fn service_name(state: &AppState, slug: &str) -> String {
    state
        .catalogue
        .service(slug)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| slug.to_string())
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
    let detail = state
        .store
        .lead_detail(&id)
        .await
        .doing("read a lead")?
        .ok_or_else(|| ConsoleError::not_found("Lead not found", "There is no lead with that id. It may have been deleted."))?;
    let now = state.staff.clock.now_ms();
    state
        .store
        .audit(staff.audit("view_consent", Some(format!("lead:{}", detail.lead.id)), None), now)
        .await
        .doing("write the audit log")?;
    let notice = match q.done.as_deref() {
        Some("retry") => Some("The delivery was sent back to the outbox: it is tried again now.".to_string()),
        Some("not-failed") => Some("That delivery has not failed, so there is nothing to retry.".to_string()),
        Some("suppressed") => Some("Not sent: the number is on the do-not-call list, so the delivery is marked suppressed.".to_string()),
        Some("erased") => Some("Not sent: this lead was erased on request, so nothing is sent for it.".to_string()),
        _ => None,
    };
    let props = PageProps::AdminLead(Box::new(lead_props(&state, &staff, detail, notice)));
    page::render(&state, StatusCode::OK, props, "Lead").await
}

fn lead_props(state: &AppState, staff: &StaffSession, d: LeadDetail, notice: Option<String>) -> AdminLeadProps {
    let zone = Zone::new(&state.config.site.time_zone);
    let l = d.lead;
    let phone = UsPhone::parse(&l.phone).ok();
    let utm = [
        ("utm_source", &l.utm_source),
        ("utm_medium", &l.utm_medium),
        ("utm_campaign", &l.utm_campaign),
        ("utm_term", &l.utm_term),
        ("utm_content", &l.utm_content),
    ]
    .into_iter()
    .filter_map(|(label, v)| {
        v.as_ref().map(|v| Labeled {
            label: label.to_string(),
            value: v.clone(),
        })
    })
    .collect();
    let details = lead_fields::lines(&l, |f| f.console)
        .into_iter()
        .map(|(label, value)| Labeled {
            label: label.to_string(),
            value: value.to_string(),
        })
        .collect();
    AdminLeadProps {
        frame: staff.frame(state, AdminSection::Leads),
        details,
        service: service_name(state, &l.service_slug),
        name: l.full_name.clone(),
        phone: phone.as_ref().map(UsPhone::display).unwrap_or_else(|| l.phone.clone()),
        tel_href: phone.as_ref().map(UsPhone::tel_href).unwrap_or_else(|| format!("tel:{}", l.phone)),
        phone_e164: l.phone.clone(),
        zip: l.zip_code.clone().unwrap_or_default(),
        status: d.delivery_status,
        erased: d.erased_ms.map(|ms| zone.local(ms)),
        suppressed_now: d.suppressed_now,
        consent: ConsentView {
            text: l.consent_text,
            sha256: l.consent_sha256,
            cert_url: l.cert_url,
            cert_token: l.cert_token,
            ping_url: l.cert_ping_url,
            received_utc: crate::time::rfc3339(l.received_at_ms),
            received_local: zone.local_precise(l.received_at_ms),
            ip: l.ip,
            user_agent: l.user_agent,
            page_url: l.page_url,
            referrer: l.referrer,
            utm,
        },
        deliveries: d
            .deliveries
            .into_iter()
            .map(|o| DeliveryView {
                id: o.id.to_string(),
                when: match (o.status.as_str(), o.delivered_ms) {
                    ("delivered", Some(ms)) => format!("delivered {}", zone.local(ms)),
                    ("pending", _) => format!("next try {}", zone.local(o.next_attempt_ms)),
                    _ => String::new(),
                },
                can_retry: o.status == "failed" && !d.suppressed_now && d.erased_ms.is_none(),
                channel: o.channel,
                status: o.status,
                attempts: o.attempts.to_string(),
                last_error: o.last_error,
            })
            .collect(),
        attempts: d
            .attempts
            .into_iter()
            .map(|a| AttemptView {
                channel: a.channel,
                at: zone.local_precise(a.at_ms),
                outcome: a.outcome,
                error: a.error,
            })
            .collect(),
        id: l.id,
        notice,
    }
}

pub async fn retry(
    State(state): State<Arc<AppState>>,
    staff: StaffSession,
    form: FormFields,
    Path(id): Path<String>,
) -> Result<Response, ConsoleError> {
    let Ok(outbox_id) = form.get("delivery").parse::<i64>() else {
        return Err(ConsoleError::bad_request(
            "Nothing to retry",
            "The form named no delivery. Go back and use its Retry button.",
        ));
    };
    let now = state.staff.clock.now_ms();
    let audit = staff.audit("retry", Some(format!("lead:{id}")), Some(format!("delivery {outbox_id}")));
    let done = match state
        .store
        .retry_delivery(&id, outbox_id, audit, now)
        .await
        .doing("retry a delivery")?
    {
        RetryOutcome::Queued => {
            state.notifier.wake.notify_one();
            "retry"
        }
        RetryOutcome::Suppressed => "suppressed",
        RetryOutcome::Erased => "erased",
        RetryOutcome::NotFailed => "not-failed",
    };
    Ok(Redirect::to(&format!("/admin/leads/{}?done={done}", encode_component(&id))).into_response())
}
