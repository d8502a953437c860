//! The leads list (`/admin/leads`) and a lead with its consent record and deliveries
//! (`/admin/leads/{id}`).

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::{AdminFrame, Labeled};

/// A service to filter by.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct ServiceOption {
    pub slug: String,
    pub name: String,
}

/// The leads list's filters as typed (shown back in the form).
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct LeadFilterForm {
    pub service: String,
    pub status: String,
    pub phone: String,
    pub name: String,
    /// YYYY-MM-DD, in the business's time zone.
    pub from: String,
    pub to: String,
}

/// One row of the leads list.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct LeadListRow {
    pub id: String,
    pub href: String,
    /// In the business's time zone: "2026-11-22 08:45 EST".
    pub received: String,
    pub service: String,
    pub name: String,
    /// "(412) 555-0134".
    pub phone: String,
    pub tel_href: String,
    pub zip: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminLeadsProps {
    pub frame: AdminFrame,
    pub filter: LeadFilterForm,
    pub services: Vec<ServiceOption>,
    pub statuses: Vec<String>,
    pub rows: Vec<LeadListRow>,
    /// Why the filter matched nothing it could search (a phone that is not a US number, …).
    pub notice: Option<String>,
    pub next_href: Option<String>,
    /// The first page with the same filters, when this is a later one.
    pub first_href: Option<String>,
    /// The CSV export of the same filters.
    pub export_href: String,
    /// The business's time zone, as the times are shown.
    pub time_zone: String,
}

/// The consent record, as a compliance team asks for it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct ConsentView {
    /// The exact wording the visitor was shown, as stored.
    pub text: String,
    pub sha256: String,
    pub cert_url: Option<String>,
    pub cert_token: Option<String>,
    pub ping_url: Option<String>,
    /// "2026-11-22T13:45:07.123Z".
    pub received_utc: String,
    /// In the business's time zone, with its name.
    pub received_local: String,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub referrer: Option<String>,
    pub utm: Vec<Labeled>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    pub id: String,
    pub channel: String,
    pub status: String,
    pub attempts: String,
    pub last_error: Option<String>,
    /// When it is next tried (pending) or was delivered.
    pub when: String,
    pub can_retry: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct AttemptView {
    pub channel: String,
    pub at: String,
    pub outcome: String,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminLeadProps {
    pub frame: AdminFrame,
    pub id: String,
    pub service: String,
    pub name: String,
    pub phone: String,
    pub phone_e164: String,
    pub tel_href: String,
    pub zip: String,
    /// The further fields of the lead, each with its label (`LEAD_FIELDS` with `console:
    /// Show::Line`, `store/lead_fields.rs`), those with a value.
    pub details: Vec<Labeled>,
    pub status: String,
    /// When a data request erased it down to its consent record.
    pub erased: Option<String>,
    /// Its number is on the do-not-call list now.
    pub suppressed_now: bool,
    pub consent: ConsentView,
    pub deliveries: Vec<DeliveryView>,
    pub attempts: Vec<AttemptView>,
    /// What the last action did ("The e-mail will be sent again now.").
    pub notice: Option<String>,
}
