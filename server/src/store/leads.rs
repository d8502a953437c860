//! What the store keeps of a lead, as notifications and audits read it, and the answer to
//! a lead's submission. Both backends share these types.

use serde::Serialize;

use crate::leads::LeadDetails;

/// How a lead is passed on to the people who call it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Email,
    Webhook,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Webhook => "webhook",
        }
    }

    pub(super) fn parse(s: &str) -> Option<Self> {
        match s {
            "email" => Some(Channel::Email),
            "webhook" => Some(Channel::Webhook),
            _ => None,
        }
    }
}

/// The answer to a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub id: String,
    /// True when this was a repeat within the window: `id` is the first lead's.
    pub duplicate: bool,
}

/// A stored lead, as notifications and audits read it. Its fields are read from the row as
/// `LEAD_FIELDS` says (`store/lead_fields.rs`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeadRecord {
    pub id: String,
    pub received_at_ms: i64,
    pub service_slug: String,
    pub full_name: String,
    pub phone: String,
    pub zip_code: Option<String>,
    pub consent: bool,
    pub consent_text: String,
    pub consent_sha256: String,
    pub cert_url: Option<String>,
    pub cert_token: Option<String>,
    pub cert_ping_url: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub referrer: Option<String>,
    /// The Referer header the server saw (the page sends its own `page_url` and `referrer`).
    pub seen_referer: Option<String>,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_term: Option<String>,
    pub utm_content: Option<String>,
    /// The further fields, as the request gave them.
    pub details: LeadDetails,
}
