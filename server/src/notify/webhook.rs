//! Lead webhooks: the lead as JSON, POSTed with an HMAC-SHA256 signature of a timestamp and
//! the body (`X-Signature-256: t=<unix seconds>,v1=<hex>`, the MAC of "<t>.<body>"), so a
//! receiver can refuse a replayed delivery (docs/operations.md, "The webhook"), and an `Idempotency-Key`
//! naming the notification (`lead-ID.webhook`), the same on every attempt and every server,
//! so a receiver can drop a repeat sent after a crash (docs/decisions/019). Redirects are
//! never followed: any 3xx is a failed delivery. Errors never carry the URL (it may hold a
//! secret).

use hmac::{Hmac, KeyInit, Mac};
use serde_json::json;
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::hex::hex;
use crate::store::LeadRecord;
use crate::store::lead_fields::{LEAD_FIELDS, Webhook};
use crate::time::rfc3339;

pub const SIGNATURE_HEADER: &str = "x-signature-256";
/// The header naming the notification: one value per notification, whatever the attempt.
pub const IDEMPOTENCY_HEADER: &str = "idempotency-key";

pub struct WebhookSender {
    client: reqwest::Client,
    url: String,
    secret: String,
}

impl WebhookSender {
    pub fn new(url: &str, secret: &str) -> Result<Self, String> {
        // Checked at load too; checked here again so no sender is ever made for another URL.
        if !crate::urls::webhook_allowed(url) {
            return Err("notify.webhook_url: must be an https URL (http only to a loopback host)".into());
        }
        let mut builder = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent("ringready-lead-webhook/1");
        if reqwest::Url::parse(url).is_ok_and(|u| u.scheme() == "http") {
            // Plain http goes to this machine only: never through a proxy named in the
            // environment (HTTP_PROXY), which would carry the lead elsewhere in clear.
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| format!("notify.webhook_url: {}", e.without_url()))?;
        Ok(Self {
            client,
            url: url.to_string(),
            secret: secret.to_string(),
        })
    }

    /// POSTs the lead; `key` names the notification (`Idempotency-Key`).
    pub async fn send(&self, lead: &LeadRecord, attempt: u32, key: &str) -> Result<(), String> {
        let body = payload(lead).to_string();
        let timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header(SIGNATURE_HEADER, signature(&self.secret, timestamp, body.as_bytes()))
            .header("x-lead-id", &lead.id)
            .header(IDEMPOTENCY_HEADER, key)
            .header("x-delivery-attempt", attempt.to_string())
            .body(body)
            .send()
            .await
            .map_err(|e| format!("webhook request: {}", e.without_url()))?;
        if response.status().is_success() {
            Ok(())
        } else if response.status().is_redirection() {
            Err(format!(
                "webhook answered {} (redirects are not followed)",
                response.status().as_u16()
            ))
        } else {
            Err(format!("webhook answered {}", response.status().as_u16()))
        }
    }
}

/// "t=<timestamp>,v1=<hex of HMAC-SHA256(secret, "<timestamp>.<body>")>".
pub fn signature(secret: &str, timestamp: u64, body: &[u8]) -> String {
    format!("t={timestamp},v1={}", hex(&mac(secret, timestamp, body)))
}

/// The receiver's check, as the README describes it: the header's MAC is that of its own
/// timestamp and the body, and the timestamp is within `tolerance_secs` of `now_secs`.
pub fn verify(secret: &str, header: &str, body: &[u8], now_secs: u64, tolerance_secs: u64) -> bool {
    let mut timestamp = None;
    let mut given = None;
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<u64>().ok(),
            Some(("v1", v)) => given = Some(v),
            _ => {}
        }
    }
    let (Some(t), Some(given)) = (timestamp, given) else { return false };
    let expected = hex(&mac(secret, t, body));
    let same: bool = expected.as_bytes().ct_eq(given.as_bytes()).into();
    same && now_secs.abs_diff(t) <= tolerance_secs
}

fn mac(secret: &str, timestamp: u64, body: &[u8]) -> Vec<u8> {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return Vec::new(); // HMAC takes keys of any length; never reached
    };
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.finalize().into_bytes().to_vec()
}

pub fn payload(lead: &LeadRecord) -> serde_json::Value {
    let mut payload = json!({
        "id": lead.id,
        "receivedAt": rfc3339(lead.received_at_ms),
        "serviceSlug": lead.service_slug,
        "fullName": lead.full_name,
        "phone": lead.phone,
        "zipCode": lead.zip_code,
        "consent": lead.consent,
        "tcpaText": lead.consent_text,
        "tcpaTextSha256": lead.consent_sha256,
        "trustedform": { "certUrl": lead.cert_url, "token": lead.cert_token, "pingUrl": lead.cert_ping_url },
        "source": {
            "ip": lead.ip, "userAgent": lead.user_agent, "pageUrl": lead.page_url, "referrer": lead.referrer,
            "utm": { "source": lead.utm_source, "medium": lead.utm_medium, "campaign": lead.utm_campaign, "term": lead.utm_term, "content": lead.utm_content },
        },
    });
    // The further fields, each under its key (`LEAD_FIELDS`, `store/lead_fields.rs`).
    for f in &LEAD_FIELDS {
        if let (Webhook::Key(key), Some(object)) = (f.webhook, payload.as_object_mut()) {
            object.insert(key.to_string(), json!((f.get)(lead)));
        }
    }
    payload
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_signature_covers_the_timestamp_and_the_body() {
        // HMAC-SHA256("Jefe", "1.{}"), computed independently (Python's hmac module).
        let header = super::signature("Jefe", 1, b"{}");
        assert!(header.starts_with("t=1,v1="), "{header}");
        let now = 1_700_000_000;
        let fresh = super::signature("Jefe", now, b"{}");
        assert!(super::verify("Jefe", &fresh, b"{}", now + 30, 300));
        assert!(!super::verify("Jefe", &fresh, b"{ }", now, 300), "another body");
        assert!(!super::verify("Jefe", &fresh, b"{}", now + 301, 300), "a replay after the window");
        assert!(!super::verify("other", &fresh, b"{}", now, 300), "another secret");
        let moved = fresh.replace(&format!("t={now}"), &format!("t={}", now + 10));
        assert!(!super::verify("Jefe", &moved, b"{}", now, 300), "a timestamp changed by hand");
    }
}
