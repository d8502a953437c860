//! Leads: what a visitor's callback request is, the consent wording it agreed to, and the
//! rules a request must pass before we accept it (whatever the browser checked).

pub mod consent;
pub mod validate;

use serde::Serialize;

use crate::forms::{derived_text, percent_decode, truncate};

/// A validated callback request, ready to store. Each member the store keeps is a field of
/// `LEAD_FIELDS` (`store/lead_fields.rs`); a test's lead starts from `Default`, so a new
/// optional member needs no change to the tests.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NewLead {
    pub service_slug: String,
    pub full_name: String,
    /// E.164, e.g. +18005550100.
    pub phone: String,
    pub zip_code: Option<String>,
    /// The consent wording exactly as sent (the visitor's copy of what they saw).
    pub consent_text: String,
    /// SHA-256 of the wording after white space is folded, hex.
    pub consent_sha256: String,
    pub certificate: Certificate,
    pub context: RequestContext,
    pub details: LeadDetails,
}

/// The further fields of a callback request, beyond its service, name, phone and ZIP code:
/// each optional, kept with the lead and shown to staff as `LEAD_FIELDS` declares
/// (`store/lead_fields.rs`). A stored lead carries them too (`LeadRecord`). None yet: the
/// recipe "Add a field to a lead" (docs/architecture.md) adds one here.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeadDetails {}

/// The consent certificate (TrustedForm) fields; empty when the script was off.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Certificate {
    pub cert_url: Option<String>,
    pub token: Option<String>,
    pub ping_url: Option<String>,
}

/// Where the request came from: kept with the lead as part of the consent record.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RequestContext {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub referrer: Option<String>,
    /// The Referer header the server saw, kept beside what the page says it was on.
    pub seen_referer: Option<String>,
    pub utm: Utm,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Utm {
    pub source: Option<String>,
    pub medium: Option<String>,
    pub campaign: Option<String>,
    pub term: Option<String>,
    pub content: Option<String>,
}

impl Utm {
    /// The utm_* parameters of a page URL's query string, decoded, without the control and
    /// format characters an escape can put in them (`%00`, `%1B`…: `forms::derived_text`),
    /// at most 200 characters each.
    pub fn from_url(url: &str) -> Self {
        let mut utm = Utm::default();
        let Some((_, query)) = url.split_once('?') else { return utm };
        let query = query.split('#').next().unwrap_or("");
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(value) = derived_text(&percent_decode(value)) else {
                continue;
            };
            let value = Some(truncate(&value, 200));
            match key {
                "utm_source" => utm.source = value,
                "utm_medium" => utm.medium = value,
                "utm_campaign" => utm.campaign = value,
                "utm_term" => utm.term = value,
                "utm_content" => utm.content = value,
                _ => {}
            }
        }
        utm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utm_parameters_come_from_the_page_url() {
        let utm = Utm::from_url("https://x.example/hvac?utm_source=google&utm_medium=cpc&utm_campaign=spring%20promo&gclid=1#top");
        assert_eq!(utm.source.as_deref(), Some("google"));
        assert_eq!(utm.medium.as_deref(), Some("cpc"));
        assert_eq!(utm.campaign.as_deref(), Some("spring promo"));
        assert_eq!(utm.term, None);
        assert_eq!(Utm::from_url("https://x.example/hvac"), Utm::default());
    }

    #[test]
    fn escaped_control_characters_do_not_reach_a_utm_value() {
        let utm =
            Utm::from_url("https://x.example/hvac?utm_source=goo%00gle&utm_medium=c%01p%1Bc%7F&utm_campaign=%00&utm_term=%C2%85x%E2%80%AE");
        assert_eq!(utm.source.as_deref(), Some("google"));
        assert_eq!(utm.medium.as_deref(), Some("cpc"));
        assert_eq!(utm.campaign, None, "nothing left");
        assert_eq!(utm.term.as_deref(), Some("x"), "C1 and format characters too");
    }
}

/// A certificate record from record-token, kept by token.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenRecord {
    pub token: String,
    pub ping_url: Option<String>,
    pub service_slug: String,
    pub cert_url: Option<String>,
}
