//! What the store keeps of submissions besides leads (account requests, campaign
//! applications) and of the e-mails about them, and what the staff console reads and
//! changes of them: a kind's list (newest first, keyset pages, optionally one status) and
//! the status and note staff set, audited in the same transaction. Both stores share these
//! types.

use serde::Serialize;

use crate::leads::RequestContext;

/// Which form a submission came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmissionKind {
    AccountRequest,
    CampaignApplication,
}

impl SubmissionKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            SubmissionKind::AccountRequest => "account_request",
            SubmissionKind::CampaignApplication => "campaign_application",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "account_request" => Some(SubmissionKind::AccountRequest),
            "campaign_application" => Some(SubmissionKind::CampaignApplication),
            _ => None,
        }
    }
}

/// A validated submission, ready to store. What makes a repeat of it is derived from its
/// own fields by the store ([`NewSubmission::dedupe_key`]).
#[derive(Debug, Clone)]
pub struct NewSubmission {
    pub kind: SubmissionKind,
    /// The visitor's e-mail address (stored in lower case, to find a person's records).
    pub email: String,
    /// E.164 when it parses as a phone number, else as typed.
    pub phone: Option<String>,
    /// The validated fields. Never a password.
    pub data: serde_json::Value,
    pub context: RequestContext,
}

impl NewSubmission {
    /// What makes a repeat, derived by each store's submit path (and nowhere else): a hash of
    /// the whole request (its kind and every field of `data`, the e-mail address in lower
    /// case), so only an identical request is a repeat. A request that differs in anything
    /// (another person using the same address, another account type, another answer) is
    /// stored and mailed as its own; the same key within the duplicate window is not.
    pub(super) fn dedupe_key(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut data = self.data.clone();
        if let Some(email) = data.get_mut("email")
            && let Some(text) = email.as_str()
        {
            *email = serde_json::Value::String(text.to_lowercase());
        }
        // serde_json writes an object's keys in order, so equal requests hash alike.
        let kind = self.kind.as_str();
        let digest = Sha256::digest(format!("{kind}\n{data}").as_bytes());
        let hex = crate::hex::hex(&digest);
        format!("{kind}|{hex}")
    }
}

/// A plain-text e-mail to the notification recipients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub subject: String,
    pub body: String,
}

/// A stored submission.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SubmissionRecord {
    pub id: String,
    pub kind: SubmissionKind,
    pub received_at_ms: i64,
    pub email: String,
    pub phone: Option<String>,
    pub data: serde_json::Value,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub status: String,
    pub note: Option<String>,
}

/// The JSON text stored for `data`.
pub(super) fn data_text(data: &serde_json::Value) -> String {
    data.to_string()
}

/// The stored JSON text read back; text that is not JSON (never written by us) reads as a string.
pub(super) fn data_value(text: String) -> serde_json::Value {
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}

/// The statuses staff can give a submission; new ones start as the first.
pub const SUBMISSION_STATUSES: [&str; 4] = ["new", "contacted", "approved", "rejected"];

/// One page of a kind's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionFilter {
    pub kind: SubmissionKind,
    /// One of [`SUBMISSION_STATUSES`].
    pub status: Option<String>,
    /// Keyset cursor: rows strictly older than this (received_at_ms, id).
    pub before: Option<(i64, String)>,
}
