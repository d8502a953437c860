//! The account requests and the campaign applications (`/admin/account-requests`,
//! `/admin/applications`), and one of them (`/admin/submissions/{id}`).

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

use super::{AdminFrame, Labeled};

/// One row of the account requests or applications list.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SubmissionListRow {
    pub id: String,
    pub href: String,
    pub received: String,
    /// The person, as the form gave their name.
    pub name: String,
    /// Their company, when the form asked for one.
    pub company: Option<String>,
    pub email: String,
    pub phone: String,
    pub status: String,
}

/// The account requests or the campaign applications.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminSubmissionsProps {
    pub frame: AdminFrame,
    /// "Account requests" or "Applications".
    pub title: String,
    /// This list's path ("/admin/account-requests").
    pub path: String,
    /// The status filtered by, or "".
    pub status: String,
    pub statuses: Vec<String>,
    pub rows: Vec<SubmissionListRow>,
    pub notice: Option<String>,
    pub next_href: Option<String>,
    pub first_href: Option<String>,
    /// The CSV export of the same filter, once there is one.
    pub export_href: Option<String>,
}

/// One account request or application: every field stored, and its status and note.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminSubmissionProps {
    pub frame: AdminFrame,
    pub id: String,
    /// "Account request" or "Campaign application".
    pub kind_label: String,
    /// The list it belongs to.
    pub list_href: String,
    pub received: String,
    pub email: String,
    pub phone: String,
    /// The form's fields, in the order stored.
    pub fields: Vec<Labeled>,
    /// Where it came from: IP, browser, page.
    pub context: Vec<Labeled>,
    pub status: String,
    pub statuses: Vec<String>,
    pub note: String,
    pub notice: Option<String>,
    pub notice_is_error: bool,
}
