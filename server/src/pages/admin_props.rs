//! The props of the staff console's pages (`/admin`): rendered per request, never cached.
//! Times arrive formatted (QuickJS has no `Intl`, and hydration needs the same text on both
//! sides). Part of the same generated contract as `props.rs`.

use serde::Serialize;
#[cfg(test)]
use ts_rs::TS;

/// The console's sections, as its navigation lists them.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "kebab-case")]
pub enum AdminSection {
    Funnel,
    Leads,
    AccountRequests,
    Applications,
    Suppressions,
    DataRequests,
    Health,
    Audit,
}

/// What every console page shows around its content: who is signed in, and the token
/// every form posts back.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminFrame {
    pub brand: String,
    pub staff_email: String,
    /// The session's CSRF token: a hidden `csrf` field in every form that changes something.
    pub csrf: String,
    pub section: AdminSection,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminLoginProps {
    pub brand: String,
    /// The login form's own CSRF token (a cookie holds its twin).
    pub csrf: String,
    /// The address typed before (never the password).
    pub email: String,
    /// Where to go after signing in (a console path).
    pub next: String,
    pub error: Option<String>,
}

/// A message inside the console (not found, expired form, …).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminMessageProps {
    pub frame: Option<AdminFrame>,
    pub title: String,
    pub message: String,
}

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

/// A label and its value.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct Labeled {
    pub label: String,
    pub value: String,
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

/// One figure of the health page.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct HealthFigure {
    pub label: String,
    pub value: String,
    /// Marks a figure that wants attention (failed notifications, an old backlog).
    pub alert: bool,
}

/// A group of figures (an outbox, the last day's deliveries, …), shown as one table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct HealthGroup {
    pub title: String,
    /// Where the figures come from, in a sentence.
    pub note: String,
    pub figures: Vec<HealthFigure>,
}

/// The health page: the notification figures /metrics exposes, in groups.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminHealthProps {
    pub frame: AdminFrame,
    pub groups: Vec<HealthGroup>,
    /// When the figures were read ("2026-11-22 13:45 UTC").
    pub read_at: String,
}

/// One series of the funnel's charts (a service or a source, or "Other"), with its total
/// over the period.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct FunnelSeries {
    pub label: String,
    pub total: u32,
}

/// One local day of the funnel.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct FunnelDay {
    /// YYYY-MM-DD, in the business's time zone.
    pub date: String,
    /// Leads of each of `services` (same order), then of `sources`.
    pub by_service: Vec<u32>,
    pub by_source: Vec<u32>,
    pub leads: u32,
    /// Delivered, the last notification within a minute of arrival.
    pub fast: u32,
    pub suppressed: u32,
    pub erased: u32,
}

/// One of the slowest deliveries of the period.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SlowDeliveryRow {
    pub href: String,
    pub service: String,
    pub channel: String,
    /// In the business's time zone.
    pub received: String,
    /// "4 min", "12.5 s".
    pub took: String,
}

/// A period the funnel can show.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
pub struct FunnelPeriod {
    pub days: u32,
    pub href: String,
    pub current: bool,
}

/// The console's first screen: the business's leads of the last 30 or 90 days.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct AdminFunnelProps {
    pub frame: AdminFrame,
    pub periods: Vec<FunnelPeriod>,
    pub days: u32,
    /// The first and last day shown, YYYY-MM-DD.
    pub from: String,
    pub to: String,
    pub time_zone: String,
    pub leads: u32,
    pub delivered: u32,
    pub fast: u32,
    /// `fast` of `leads`, "87%" ("none" without leads).
    pub fast_share: String,
    pub suppressed: u32,
    pub erased: u32,
    /// The busiest services, then "Other" when there are more.
    pub services: Vec<FunnelSeries>,
    /// The busiest sources, then "Other" when there are more.
    pub sources: Vec<FunnelSeries>,
    /// Every day of the period, oldest first.
    pub rows: Vec<FunnelDay>,
    pub slowest: Vec<SlowDeliveryRow>,
}
