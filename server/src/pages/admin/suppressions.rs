//! The do-not-call list (`/admin/suppressions`).

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// A number on the do-not-call list.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SuppressionRow {
    /// "(412) 555-0134".
    pub phone: String,
    pub phone_e164: String,
    pub reason: String,
    pub added: String,
    pub added_by: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminSuppressionsProps {
    pub frame: AdminFrame,
    pub rows: Vec<SuppressionRow>,
    /// The number searched for, as typed.
    pub search: String,
    /// What the last action did, or why it could not.
    pub notice: Option<String>,
    /// The notice reports a refusal (shown as an error).
    pub notice_is_error: bool,
    /// The add form's values, when it is shown again after a refusal.
    pub phone: String,
    pub reason: String,
    /// The next (older) page, when there is one.
    pub next_href: Option<String>,
    /// The first page, when this is a later one.
    pub first_href: Option<String>,
}
