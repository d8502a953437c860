//! Lead e-mails over SMTP: plain text and HTML from askama templates.

use askama::Template;
use lettre::message::{Mailbox, MultiPart, SinglePart, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::NotifyConfig;
use crate::phone::UsPhone;
use crate::store::LeadRecord;
use crate::time::human_utc;

/// What both e-mail templates show.
struct LeadView<'a> {
    service: &'a str,
    name: &'a str,
    phone: &'a str,
    tel_href: &'a str,
    zip: &'a str,
    received: &'a str,
    id: &'a str,
    cert_url: &'a str,
    cert_link: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "lead_email.txt")]
struct PlainText<'a> {
    lead: &'a LeadView<'a>,
}

#[derive(Template)]
#[template(path = "lead_email.html")]
struct Html<'a> {
    lead: &'a LeadView<'a>,
}

pub struct EmailSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    config: NotifyConfig,
}

impl EmailSender {
    pub fn new(config: &NotifyConfig) -> Result<Self, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp_url)
            .map_err(|e| format!("notify.smtp_url: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(15)))
            .build();
        let from = config.from.parse().map_err(|e| format!("notify.from: {e}"))?;
        Ok(Self {
            transport,
            from,
            config: config.clone(),
        })
    }

    /// Sends the lead to its service's recipients. `service_name` is the catalogue name.
    pub async fn send(&self, lead: &LeadRecord, service_name: &str) -> Result<(), String> {
        let recipients = self.config.recipients_for(&lead.service_slug);
        if recipients.is_empty() {
            return Err("no recipients configured for this service".into());
        }
        // Every stored number passed UsPhone::parse; one that does not parse now is shown as stored.
        let (phone, tel) = match UsPhone::parse(&lead.phone) {
            Ok(number) => (number.display(), number.tel_href()),
            Err(_) => (lead.phone.clone(), format!("tel:{}", lead.phone)),
        };
        let received = human_utc(lead.received_at_ms);
        let zip = lead.zip_code.as_deref().unwrap_or("not given");
        let cert_url = lead.cert_url.as_deref().unwrap_or("none (certification script off)");
        let view = LeadView {
            service: service_name,
            name: &lead.full_name,
            phone: &phone,
            tel_href: &tel,
            zip,
            received: &received,
            id: &lead.id,
            cert_url,
            cert_link: lead.cert_url.as_deref(),
        };
        let text = PlainText { lead: &view }.render().map_err(|e| e.to_string())?;
        let html = Html { lead: &view }.render().map_err(|e| e.to_string())?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .subject(format!(
                "New callback request: {service_name}{}",
                lead.zip_code.as_deref().map(|z| format!(" ({z})")).unwrap_or_default()
            ))
            .message_id(Some(format!("<{}@leads>", lead.id)));
        for r in recipients {
            builder = builder.to(r.parse().map_err(|e| format!("recipient: {e}"))?);
        }
        let message = builder
            .multipart(
                MultiPart::alternative()
                    .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(text))
                    .singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(html)),
            )
            .map_err(|e| e.to_string())?;
        self.transport.send(message).await.map(|_| ()).map_err(|e| e.to_string())
    }
}
