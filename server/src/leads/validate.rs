//! Server-side validation of a callback request, from a JSON body or a form post. The
//! first failing rule's message is what the visitor sees (docs/product.md, "The callback request").

use super::consent::ConsentWordings;
use super::{Certificate, LeadDetails, NewLead, RequestContext, TokenRecord, Utm};
use crate::catalogue::Catalogue;
use crate::forms::{Field, Fields, Invalid, MAX_URL, has_control, is_format_char, is_web_url, truncate};
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
/// Combining marks allowed on one letter (Vietnamese stacks two; "Zalgo" text stacks dozens).
pub const MAX_COMBINING_RUN: usize = 3;
const MAX_TOKEN: usize = 256;
const MAX_TCPA_TEXT: usize = 4000;
pub const CERT_URL_PREFIX: &str = "https://cert.trustedform.com/";

/// The text of an optional field: None when missing or blank, Err when it is not a text,
/// is longer than `max` characters or holds a control character.
fn optional_text(fields: &Fields, name: &str, max: usize) -> Result<Option<String>, ()> {
    match fields.get(name) {
        Field::Missing => Ok(None),
        Field::Text(s) if s.trim().is_empty() => Ok(None),
        Field::Text(s) if s.chars().count() <= max && !has_control(s) => Ok(Some(s.trim().to_string())),
        _ => Err(()),
    }
}

fn invalid(reason: &'static str, message: &'static str) -> Invalid {
    Invalid { reason, message }
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
    if !is_plain_name(&full_name) {
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

    let wording = match fields.get("tcpa_text") {
        Field::Text(s) if s.len() <= MAX_TCPA_TEXT => consent.matching(s).ok_or(invalid("consent_text", MSG_CONSENT_TEXT))?,
        _ => return Err(invalid("consent_text", MSG_CONSENT_TEXT)),
    };

    let certificate = certificate(fields)?;

    // Page context sent by the page itself wins over the Referer header the server saw
    // (which stays beside it, as `seen_referer`). Anything but a clean http(s) URL is dropped.
    let page_url = optional_text(fields, "pageUrl", MAX_URL).ok().flatten().filter(|u| is_web_url(u));
    let referrer = optional_text(fields, "referrer", MAX_URL).ok().flatten().filter(|u| is_web_url(u));
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
        consent_sha256: wording.sha256.clone(),
        consent_text: wording.text.clone(),
        certificate,
        context,
        details: LeadDetails {},
    })
}

fn certificate(fields: &Fields) -> Result<Certificate, Invalid> {
    let bad = || invalid("certificate", MSG_CERTIFICATE);
    // The page sends trustedform_*; a no-JavaScript form post carries the script's own fields.
    let pick = |a: &str, b: &str, max: usize| -> Result<Option<String>, Invalid> {
        match optional_text(fields, a, max).map_err(|()| bad())? {
            Some(v) => Ok(Some(v)),
            None => optional_text(fields, b, max).map_err(|()| bad()),
        }
    };
    let cert_url = pick("trustedform_cert_url", "xxTrustedFormCertUrl", MAX_URL)?;
    let token = pick("trustedform_token", "xxTrustedFormToken", MAX_TOKEN)?;
    let ping_url = pick("trustedform_ping", "xxTrustedFormPingUrl", MAX_URL)?;
    check_certificate(cert_url.as_deref(), token.as_deref(), ping_url.as_deref()).map_err(|()| bad())?;
    Ok(Certificate { cert_url, token, ping_url })
}

/// Checks a record-token body.
pub fn validate_token(fields: &Fields, catalogue: &Catalogue) -> Result<TokenRecord, Invalid> {
    let bad = || invalid("certificate", MSG_CERTIFICATE);
    let token = match optional_text(fields, "token", MAX_TOKEN) {
        Ok(Some(t)) => t,
        _ => return Err(invalid("certificate", MSG_TOKEN)),
    };
    let service_slug = match fields.get("serviceSlug") {
        Field::Text(s) if catalogue.service(s.trim()).is_some() => s.trim().to_string(),
        _ => return Err(invalid("service", MSG_SERVICE)),
    };
    let ping_url = optional_text(fields, "ping", MAX_URL).map_err(|()| bad())?;
    let cert_url = optional_text(fields, "certUrl", MAX_URL).map_err(|()| bad())?;
    check_certificate(cert_url.as_deref(), Some(&token), ping_url.as_deref()).map_err(|()| bad())?;
    Ok(TokenRecord {
        token: truncate(&token, MAX_TOKEN),
        ping_url,
        service_slug,
        cert_url,
    })
}

/// The one rule for the certificate fields of submit-lead and record-token (docs/product.md, "The callback request"):
/// the certificate URL is `https://cert.trustedform.com/<id>`, the token an id, and the ping
/// URL an https URL on a TrustedForm host. Ids are letters, digits, `-` and `_`.
fn check_certificate(cert_url: Option<&str>, token: Option<&str>, ping_url: Option<&str>) -> Result<(), ()> {
    if let Some(url) = cert_url
        && !url.strip_prefix(CERT_URL_PREFIX).is_some_and(is_certificate_id)
    {
        return Err(());
    }
    if let Some(token) = token
        && !is_certificate_id(token)
    {
        return Err(());
    }
    if let Some(url) = ping_url
        && !is_trustedform_url(url)
    {
        return Err(());
    }
    Ok(())
}

fn is_certificate_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_TOKEN && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// An https URL on `trustedform.com` or one of its subdomains, with a clean path.
pub fn is_trustedform_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://") else { return false };
    let (host, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let host = host.to_ascii_lowercase();
    (host == "trustedform.com" || host.ends_with(".trustedform.com"))
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && is_web_url(url)
        && path.bytes().all(|b| b.is_ascii_alphanumeric() || b"/-._~?=&%+:".contains(&b))
}

/// A name people write: a letter at least, no control or format characters (bidi
/// overrides, zero-width characters), no line or paragraph separators, and at most
/// `MAX_COMBINING_RUN` combining marks on one letter. The zero-width (non-)joiner is kept
/// between two letters, where Persian and Indic spellings need it.
fn is_plain_name(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    let mut run = 0;
    for (i, &c) in chars.iter().enumerate() {
        let joiner_in_word = matches!(c, '\u{200C}' | '\u{200D}')
            && i > 0
            && chars[i - 1].is_alphabetic()
            && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
        if c.is_control() || (is_format_char(c) && !joiner_in_word) || matches!(c, '\u{2028}' | '\u{2029}') {
            return false;
        }
        if unicode_normalization::char::is_combining_mark(c) {
            run += 1;
            if run > MAX_COMBINING_RUN {
                return false;
            }
        } else {
            run = 0;
        }
    }
    name.chars().any(char::is_alphabetic)
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_list_is_a_wrong_type_to_the_lead_rules() {
        // What a repeated key or an array meant to the lead API before lists existed.
        let f = Fields::from_json(&json!({ "zipCode": ["15213"], "pageUrl": ["https://x.example/"] })).expect("object");
        assert_eq!(optional_text(&f, "zipCode", 10), Err(()));
        assert_eq!(optional_text(&f, "pageUrl", 100), Err(()));
    }
}
