//! Lead webhooks: the lead as JSON, POSTed with an HMAC-SHA256 signature of the body.

use hmac::{Hmac, Mac};
use serde_json::json;
use sha2::Sha256;

use crate::store::LeadRecord;
use crate::time::rfc3339;

pub const SIGNATURE_HEADER: &str = "x-signature-256";

pub struct WebhookSender {
    client: reqwest::Client,
    url: String,
    secret: String,
}

impl WebhookSender {
    pub fn new(url: &str, secret: &str) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .user_agent("ringready-lead-webhook/1")
            .build()
            .map_err(|e| format!("notify.webhook_url: {e}"))?;
        Ok(Self {
            client,
            url: url.to_string(),
            secret: secret.to_string(),
        })
    }

    pub async fn send(&self, lead: &LeadRecord, attempt: u32) -> Result<(), String> {
        let body = payload(lead).to_string();
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header(SIGNATURE_HEADER, signature(&self.secret, body.as_bytes()))
            .header("x-lead-id", &lead.id)
            .header("x-delivery-attempt", attempt.to_string())
            .body(body)
            .send()
            .await
            .map_err(|e| format!("webhook request: {e}"))?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!("webhook answered {}", response.status()))
        }
    }
}

/// "sha256=<hex of HMAC-SHA256(secret, body)>".
pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(m) => m,
        Err(_) => return String::new(), // HMAC takes keys of any length; never reached
    };
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    format!("sha256={}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

pub fn payload(lead: &LeadRecord) -> serde_json::Value {
    json!({
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
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn signature_matches_rfc4231_case_2() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        assert_eq!(
            super::signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
