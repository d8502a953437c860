//! What the staff console reads and changes of leads: the filtered list (keyset pages,
//! newest first), one lead with its deliveries and every attempt, and a failed delivery
//! sent back to the outbox. Both stores share these types (the list's SQL is built by
//! `sql/built.rs`).

use serde::Serialize;

use super::lead_fields::exported;
use super::{LeadRecord, NewAudit};

/// Delivery statuses a lead can have (kept by the database's triggers, see migration 0003).
pub const DELIVERY_STATUSES: [&str; 5] = ["pending", "delivered", "failed", "suppressed", "none"];

/// The leads list's filters; every one optional, all combined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadFilter {
    pub service: Option<String>,
    /// One of [`DELIVERY_STATUSES`].
    pub status: Option<String>,
    /// E.164.
    pub phone: Option<String>,
    /// Words of the name, each matching the start of a word of the stored name.
    pub name_words: Vec<String>,
    /// Received at or after (UTC ms).
    pub from_ms: Option<i64>,
    /// Received before (UTC ms).
    pub to_ms: Option<i64>,
    /// Keyset cursor: rows strictly older than this (received_at_ms, id).
    pub before: Option<(i64, String)>,
}

impl LeadFilter {
    /// Search words from what a person typed: letters and digits only, lower case.
    pub fn words(typed: &str) -> Vec<String> {
        typed
            .split(|c: char| c.is_whitespace() || c == '-' || c == '\'' || c == '.' || c == ',')
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .take(40)
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .take(5)
            .collect()
    }
}

/// One row of the leads list (and of the export).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeadRow {
    pub id: String,
    pub received_at_ms: i64,
    pub delivery_status: String,
    /// The values of the fields the list and the export read (`lead_fields::exported`), in
    /// their order.
    pub fields: Vec<Option<String>>,
}

impl LeadRow {
    /// The value of the field stored in `column`, if the list reads it and it has one.
    pub fn field(&self, column: &str) -> Option<&str> {
        exported()
            .zip(&self.fields)
            .find(|(f, _)| f.column == column)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// A notification of a lead (one outbox row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeliveryRecord {
    pub id: i64,
    pub channel: String,
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub next_attempt_ms: i64,
    pub delivered_ms: Option<i64>,
}

/// One attempt at delivering a notification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttemptRecord {
    pub channel: String,
    pub at_ms: i64,
    pub outcome: String,
    pub error: Option<String>,
}

/// Everything stored about one lead.
#[derive(Debug, Clone, PartialEq)]
pub struct LeadDetail {
    pub lead: LeadRecord,
    pub delivery_status: String,
    /// When a data request erased it down to its consent record.
    pub erased_ms: Option<i64>,
    pub deliveries: Vec<DeliveryRecord>,
    pub attempts: Vec<AttemptRecord>,
    /// Whether its phone number is on the do-not-call list now.
    pub suppressed_now: bool,
}

/// What a console Retry did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryOutcome {
    /// Back in the outbox, due now.
    Queued,
    /// Not sent: the lead's number is on the do-not-call list (the notification is marked
    /// suppressed, if it was not already).
    Suppressed,
    /// Not sent: the lead was erased on request.
    Erased,
    /// No such failed notification of that lead (delivered, pending, or none).
    NotFailed,
}

/// The audit line of a console Retry that changed something, its outcome in the detail.
pub(super) fn retry_audit(audit: NewAudit, outcome: RetryOutcome) -> NewAudit {
    match outcome {
        RetryOutcome::Suppressed => NewAudit {
            detail: Some(format!(
                "{}: not sent, the number is on the do-not-call list",
                audit.detail.as_deref().unwrap_or("delivery")
            )),
            ..audit
        },
        _ => audit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_words_are_letters_and_digits_in_lower_case() {
        assert_eq!(LeadFilter::words("  María  O'Brien-Smith "), ["maría", "o", "brien", "smith"]);
        assert_eq!(LeadFilter::words("\"*) OR 1=1 --"), ["or", "11"]);
        assert!(LeadFilter::words("*** --").is_empty());
    }
}
