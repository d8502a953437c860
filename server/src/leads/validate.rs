//! Server-side validation of a callback request, from a JSON body or a form post. The
//! first failing rule's message is what the visitor sees (spec section 8 shows it in red).

use std::collections::HashMap;

use serde_json::Value;

use super::consent::{ConsentWordings, sha256_hex};
use super::{Certificate, NewLead, RequestContext, TokenRecord, Utm, truncate};
use crate::catalogue::Catalogue;
use crate::phone::UsPhone;

pub const MSG_SERVICE: &str = "This service is not available. Please reload the page and try again.";
pub const MSG_NAME_REQUIRED: &str = "Please enter your full name.";
pub const MSG_NAME_TOO_LONG: &str = "Please enter a name of 100 characters or fewer.";
pub const MSG_NAME_INVALID: &str = "Please enter a valid name.";
pub const MSG_PHONE_REQUIRED: &str = "Please enter your phone number.";
pub const MSG_PHONE_INVALID: &str = "Please enter a valid US phone number, including the area code.";
pub const MSG_ZIP_INVALID: &str = "Please enter a valid 5-digit ZIP code.";
pub const MSG_CONSENT: &str = "Please check the box to agree to be contacted.";
pub const MSG_CONSENT_TEXT: &str = "This page is out of date. Please reload it and try again.";
pub const MSG_CERTIFICATE: &str = "We could not verify your consent certificate. Please reload the page and try again.";
pub const MSG_TOKEN: &str = "A consent certificate token is required.";

pub const MAX_NAME_CHARS: usize = 100;
const MAX_TOKEN: usize = 256;
const MAX_URL: usize = 2048;
const MAX_TCPA_TEXT: usize = 4000;
pub const CERT_URL_PREFIX: &str = "https://cert.trustedform.com/";
/// The hidden field bots fill in and people never see.
pub const HONEYPOT_FIELD: &str = "website";

/// Why a request was refused: the visitor's message and a short reason for metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    pub reason: &'static str,
    pub message: &'static str,
}

fn invalid(reason: &'static str, message: &'static str) -> Invalid {
    Invalid { reason, message }
}

/// One submitted field, whatever the encoding.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Missing,
    Text(String),
    Bool(bool),
    /// Present but of a type the field cannot have (number, array, object…).
    WrongType,
}

/// The fields of a submission, from JSON or from a form post.
pub struct Fields(HashMap<String, Field>);

impl Fields {
    /// A JSON object's fields. Anything that is not an object has no fields.
    pub fn from_json(value: &Value) -> Option<Self> {
        let object = value.as_object()?;
        let fields = object
            .iter()
            .map(|(k, v)| {
                let field = match v {
                    Value::Null => Field::Missing,
                    Value::String(s) => Field::Text(s.clone()),
                    Value::Bool(b) => Field::Bool(*b),
                    _ => Field::WrongType,
                };
                (k.clone(), field)
            })
            .collect();
        Some(Self(fields))
    }

    /// Form fields (already decoded). A checked checkbox arrives as "on".
    pub fn from_form(pairs: Vec<(String, String)>) -> Self {
        let mut fields = HashMap::new();
        for (k, v) in pairs {
            let field = if k == "consent" {
                Field::Bool(matches!(v.as_str(), "on" | "true" | "1" | "yes"))
            } else {
                Field::Text(v)
            };
            // A repeated field is ambiguous: keep it only once, as a wrong type.
            if fields.insert(k.clone(), field).is_some() {
                fields.insert(k, Field::WrongType);
            }
        }
        Self(fields)
    }

    pub fn get(&self, name: &str) -> &Field {
        self.0.get(name).unwrap_or(&Field::Missing)
    }

    /// The text of an optional field: None when missing or blank.
    fn optional_text(&self, name: &str, max: usize) -> Result<Option<String>, ()> {
        match self.get(name) {
            Field::Missing => Ok(None),
            Field::Text(s) if s.trim().is_empty() => Ok(None),
            Field::Text(s) if s.chars().count() <= max && !has_control(s) => Ok(Some(s.trim().to_string())),
            _ => Err(()),
        }
    }

    /// True when the honeypot field holds anything.
    pub fn honeypot_filled(&self) -> bool {
        match self.get(HONEYPOT_FIELD) {
            Field::Missing | Field::Bool(false) => false,
            Field::Text(s) => !s.is_empty(),
            Field::Bool(true) | Field::WrongType => true,
        }
    }
}

fn has_control(s: &str) -> bool {
    s.chars().any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
}

/// Checks a callback request in the order of the form and builds the lead to store.
pub fn validate_lead(
    fields: &Fields,
    catalogue: &Catalogue,
    consent: &ConsentWordings,
    mut context: RequestContext,
) -> Result<NewLead, Invalid> {
    let service_slug = match fields.get("serviceSlug") {
        Field::Text(s) if catalogue.service(s.trim()).is_some() => s.trim().to_string(),
        _ => return Err(invalid("service", MSG_SERVICE)),
    };

    let full_name = match fields.get("fullName") {
        Field::Text(s) if !s.trim().is_empty() => s.trim().to_string(),
        _ => return Err(invalid("name", MSG_NAME_REQUIRED)),
    };
    if full_name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid("name", MSG_NAME_TOO_LONG));
    }
    if full_name.chars().any(char::is_control) || !full_name.chars().any(char::is_alphabetic) {
        return Err(invalid("name", MSG_NAME_INVALID));
    }

    let phone = match fields.get("phone") {
        Field::Text(s) if !s.trim().is_empty() => UsPhone::parse(s).map_err(|_| invalid("phone", MSG_PHONE_INVALID))?.e164(),
        Field::Text(_) | Field::Missing => return Err(invalid("phone", MSG_PHONE_REQUIRED)),
        _ => return Err(invalid("phone", MSG_PHONE_INVALID)),
    };

    let zip_code = match fields.get("zipCode") {
        Field::Missing => None,
        Field::Text(s) if s.trim().is_empty() => None,
        Field::Text(s) if is_zip(s.trim()) => Some(s.trim().to_string()),
        _ => return Err(invalid("zip", MSG_ZIP_INVALID)),
    };

    if fields.get("consent") != &Field::Bool(true) {
        return Err(invalid("consent", MSG_CONSENT));
    }

    let consent_text = match fields.get("tcpa_text") {
        Field::Text(s) if s.len() <= MAX_TCPA_TEXT => consent.matching(s).ok_or(invalid("consent_text", MSG_CONSENT_TEXT))?.to_string(),
        _ => return Err(invalid("consent_text", MSG_CONSENT_TEXT)),
    };

    let certificate = certificate(fields)?;

    // Page context sent by the page itself wins over the Referer header the server saw.
    let page_url = fields.optional_text("pageUrl", MAX_URL).ok().flatten();
    let referrer = fields.optional_text("referrer", MAX_URL).ok().flatten();
    if page_url.is_some() {
        context.page_url = page_url;
    }
    if referrer.is_some() {
        context.referrer = referrer;
    }
    context.utm = context.page_url.as_deref().map(Utm::from_url).unwrap_or_default();

    Ok(NewLead {
        service_slug,
        full_name,
        phone,
        zip_code,
        consent_sha256: sha256_hex(&consent_text),
        consent_text,
        certificate,
        context,
    })
}

fn certificate(fields: &Fields) -> Result<Certificate, Invalid> {
    let bad = || invalid("certificate", MSG_CERTIFICATE);
    // The page sends trustedform_*; a no-JavaScript form post carries the script's own fields.
    let pick = |a: &str, b: &str, max: usize| -> Result<Option<String>, Invalid> {
        match fields.optional_text(a, max).map_err(|()| bad())? {
            Some(v) => Ok(Some(v)),
            None => fields.optional_text(b, max).map_err(|()| bad()),
        }
    };
    let cert_url = pick("trustedform_cert_url", "xxTrustedFormCertUrl", MAX_URL)?;
    let token = pick("trustedform_token", "xxTrustedFormToken", MAX_TOKEN)?;
    let ping_url = pick("trustedform_ping", "xxTrustedFormPingUrl", MAX_URL)?;
    if let Some(url) = &cert_url
        && (!url.starts_with(CERT_URL_PREFIX) || url.len() == CERT_URL_PREFIX.len() || url.contains(char::is_whitespace))
    {
        return Err(bad());
    }
    Ok(Certificate { cert_url, token, ping_url })
}

/// Checks a record-token body.
pub fn validate_token(fields: &Fields, catalogue: &Catalogue) -> Result<TokenRecord, Invalid> {
    let bad = || invalid("certificate", MSG_CERTIFICATE);
    let token = match fields.optional_text("token", MAX_TOKEN) {
        Ok(Some(t)) => t,
        _ => return Err(invalid("certificate", MSG_TOKEN)),
    };
    let service_slug = match fields.get("serviceSlug") {
        Field::Text(s) if catalogue.service(s.trim()).is_some() => s.trim().to_string(),
        _ => return Err(invalid("service", MSG_SERVICE)),
    };
    let ping_url = fields.optional_text("ping", MAX_URL).map_err(|()| bad())?;
    let cert_url = fields.optional_text("certUrl", MAX_URL).map_err(|()| bad())?;
    if let Some(url) = &cert_url
        && !url.starts_with(CERT_URL_PREFIX)
    {
        return Err(bad());
    }
    Ok(TokenRecord {
        token: truncate(&token, MAX_TOKEN),
        ping_url,
        service_slug,
        cert_url,
    })
}

fn is_zip(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
    match b.len() {
        5 => digits(b),
        10 => digits(&b[..5]) && b[5] == b'-' && digits(&b[6..]),
        _ => false,
    }
}
