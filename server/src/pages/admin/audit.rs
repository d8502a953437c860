//! The audit log (`/admin/audit`).

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::AdminFrame;

/// One line of the audit log.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AuditRow {
    pub id: String,
    /// "2026-11-22 13:45 UTC".
    pub at: String,
    pub staff: Option<String>,
    pub action: String,
    pub target: Option<String>,
    /// Where the target can be seen, when it is a page of the console.
    pub target_href: Option<String>,
    pub ip: Option<String>,
    pub detail: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminAuditProps {
    pub frame: AdminFrame,
    pub entries: Vec<AuditRow>,
    /// The next (older) page, when there is one.
    pub older_href: Option<String>,
}
