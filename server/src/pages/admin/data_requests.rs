//! Data requests (`/admin/data-requests`): a person's records found, and erased.

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// A record found for a data request.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct PersonRecordRow {
    pub href: String,
    pub received: String,
    /// "Lead: Heating & cooling", "Account request", "Campaign application".
    pub kind: String,
    pub name: String,
    /// "Erased 2026-11-22 08:45 EST (consent record kept)", or a submission's status.
    pub state: String,
}

/// Data requests: everything stored for a phone number or an e-mail address, and its deletion.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminDataRequestsProps {
    pub frame: AdminFrame,
    /// The phone number or e-mail address as typed.
    pub query: String,
    pub notice: Option<String>,
    pub notice_is_error: bool,
    /// A search was made (so an empty result means nothing is stored).
    pub searched: bool,
    pub records: Vec<PersonRecordRow>,
    /// There is something left to erase or delete.
    pub can_erase: bool,
}
