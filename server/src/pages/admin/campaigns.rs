//! The campaigns (`/admin/campaigns`): the list, the add and change form, each one's history.

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// A campaign in the list.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct CampaignRow {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    /// LIVE, paused or ended.
    pub status: String,
    pub payouts: String,
    pub payment_terms: String,
    pub geos: String,
    pub changed: String,
    pub changed_by: Option<String>,
}

/// The add or change form's values, as typed.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct CampaignForm {
    /// None: a new campaign.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub id: Option<i64>,
    pub name: String,
    pub status: String,
    pub payouts: String,
    pub payment_terms: String,
    pub geos: String,
    pub promo_allowed: String,
    pub cap: String,
    pub inbound: bool,
    pub transfer: bool,
    pub seconds: String,
    pub hours: String,
    pub notes: String,
}

/// One field a save changed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct CampaignHistoryRow {
    pub at: String,
    pub by: Option<String>,
    /// The form's label of the field.
    pub field: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminCampaignsProps {
    pub frame: AdminFrame,
    pub rows: Vec<CampaignRow>,
    /// The name searched for, as typed.
    pub search: String,
    /// The status the list is filtered by ("" for all).
    pub status: String,
    pub statuses: Vec<String>,
    pub payment_terms: Vec<String>,
    pub notice: Option<String>,
    pub notice_is_error: bool,
    /// The form: the campaign being changed, or a new one.
    pub form: CampaignForm,
    /// The changed campaign's history, newest first.
    pub history: Vec<CampaignHistoryRow>,
    /// The CSV pasted for an import, shown again with its preview or its refusal.
    pub import_text: String,
    /// Why the import was refused (its line number first).
    pub import_error: Option<String>,
    /// What each line of the import would do, before it is confirmed.
    pub import_preview: Vec<ImportLine>,
}

/// One line of an import's preview.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct ImportLine {
    #[cfg_attr(test, ts(type = "number"))]
    pub line: i64,
    pub name: String,
    /// "Added", "Unchanged" or "Changed: payouts, geos".
    pub what: String,
}
