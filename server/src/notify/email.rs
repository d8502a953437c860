//! Lead e-mails over SMTP: plain text and HTML from askama templates. Mail to any host but
//! a loopback one goes over TLS (STARTTLS required, or `smtps://`), unless the operator
//! opts out with `notify.smtp_allow_plaintext`. Every e-mail's `Message-ID` is made from
//! its notification's key (`<lead-ID.email@DOMAIN>`, DOMAIN that of `notify.from`), the same
//! on every attempt and every server, so a mail system can drop a repeat sent after a crash
//! (docs/decisions/019).

use askama::Template;
use lettre::message::{Mailbox, MultiPart, SinglePart, header::ContentType};
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::NotifyConfig;
use crate::phone::UsPhone;
use crate::store::{LeadRecord, Mail, lead_fields};
use crate::time::human_utc;
use crate::urls::{host, is_loopback_host};

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
    /// The further fields, label and value (`LEAD_FIELDS` with `email: Show::Line`,
    /// `store/lead_fields.rs`), those with a value.
    more: Vec<(&'static str, &'a str)>,
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
    /// The `Message-ID` of the notification whose key is `key`: `<KEY@DOMAIN>`, DOMAIN the
    /// sender's.
    pub fn message_id(&self, key: &str) -> String {
        format!("<{key}@{}>", self.from.email.domain())
    }

    pub fn new(config: &NotifyConfig) -> Result<Self, String> {
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp_url)
            .map_err(|e| format!("notify.smtp_url: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(15)));
        match tls_rule(&config.smtp_url, config.smtp_allow_plaintext) {
            SmtpTls::AsConfigured => {}
            SmtpTls::RequireStartTls(host) => {
                let parameters = TlsParameters::new(host).map_err(|e| format!("notify.smtp_url: {e}"))?;
                builder = builder.tls(Tls::Required(parameters));
            }
            SmtpTls::PlaintextAllowed(host) => {
                tracing::warn!(host = %host, "e-mail to a non-loopback SMTP host without TLS (notify.smtp_allow_plaintext)");
            }
        }
        let transport = builder.build();
        let from = config.from.parse().map_err(|e| format!("notify.from: {e}"))?;
        Ok(Self {
            transport,
            from,
            config: config.clone(),
        })
    }

    /// Sends a submission's plain-text e-mail (account request, campaign application); `key`
    /// names the notification (its `Message-ID`).
    pub async fn send_mail(&self, key: &str, mail: &Mail, recipients: &[String]) -> Result<(), String> {
        if recipients.is_empty() {
            return Err("no recipients configured".into());
        }
        let mut builder = Message::builder()
            .from(self.from.clone())
            .subject(mail.subject.clone())
            .message_id(Some(self.message_id(key)));
        for r in recipients {
            builder = builder.to(r.parse().map_err(|e| format!("recipient: {e}"))?);
        }
        let message = builder
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body.clone())
            .map_err(|e| e.to_string())?;
        self.transport.send(message).await.map(|_| ()).map_err(|e| e.to_string())
    }

    /// Sends the lead to its service's recipients. `service_name` is the catalogue name; `key`
    /// names the notification (its `Message-ID`).
    pub async fn send(&self, lead: &LeadRecord, service_name: &str, key: &str) -> Result<(), String> {
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
            more: lead_fields::lines(lead, |f| f.email),
        };
        let text = PlainText { lead: &view }.render().map_err(|e| e.to_string())?;
        let html = Html { lead: &view }.render().map_err(|e| e.to_string())?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .subject(format!(
                "New callback request: {service_name}{}",
                lead.zip_code.as_deref().map(|z| format!(" ({z})")).unwrap_or_default()
            ))
            .message_id(Some(self.message_id(key)));
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

/// What the TLS rule makes of an SMTP URL.
#[derive(Debug, PartialEq, Eq)]
pub enum SmtpTls {
    /// `smtps://`, `?tls=required`, or a loopback host: lettre's reading of the URL stands.
    AsConfigured,
    /// A non-loopback host over `smtp://` without `tls=required`: STARTTLS is made
    /// mandatory (without it, lettre would send credentials and leads in clear).
    RequireStartTls(String),
    /// As above, but the operator opted out (`notify.smtp_allow_plaintext`).
    PlaintextAllowed(String),
}

/// The host is the one lettre connects to: read by the same URL parser.
pub fn tls_rule(url: &str, allow_plaintext: bool) -> SmtpTls {
    let Some(host) = host(url) else { return SmtpTls::AsConfigured };
    let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    let tls_required = query.split('&').any(|p| p == "tls=required");
    if url.starts_with("smtps://") || tls_required || is_loopback_host(&host) {
        SmtpTls::AsConfigured
    } else if allow_plaintext {
        SmtpTls::PlaintextAllowed(host)
    } else {
        SmtpTls::RequireStartTls(host)
    }
}

#[cfg(test)]
mod tests {
    use askama::Template;

    use super::{Html, LeadView, PlainText, SmtpTls, tls_rule};

    /// The further fields (`Show::Line`) come after the ZIP code, one line each, and none
    /// leaves the e-mail as it was.
    #[test]
    fn further_fields_are_a_line_each_after_the_zip_code() -> Result<(), askama::Error> {
        let mut view = LeadView {
            service: "HVAC",
            name: "Dana",
            phone: "(412) 555-0134",
            tel_href: "tel:+14125550134",
            zip: "15213",
            received: "now",
            id: "id-1",
            cert_url: "none",
            cert_link: None,
            more: Vec::new(),
        };
        let plain = PlainText { lead: &view }.render()?;
        assert!(plain.contains("ZIP:      15213\nReceived: now\n"), "{plain}");
        view.more = vec![("Best time", "mornings"), ("Floor", "2")];
        let plain = PlainText { lead: &view }.render()?;
        assert!(
            plain.contains("ZIP:      15213\nBest time: mornings\nFloor: 2\nReceived: now\n"),
            "{plain}"
        );
        let html = Html { lead: &view }.render()?;
        assert!(
            html.contains("<td>15213</td></tr>\n<tr><td style=\"color:#475569\">Best time</td><td>mornings</td></tr>"),
            "{html}"
        );
        Ok(())
    }

    #[test]
    fn only_loopback_hosts_may_be_reached_in_clear() {
        assert_eq!(tls_rule("smtp://127.0.0.1:2525", false), SmtpTls::AsConfigured);
        assert_eq!(tls_rule("smtp://localhost:25", false), SmtpTls::AsConfigured);
        assert_eq!(tls_rule("smtp://[::1]:25", false), SmtpTls::AsConfigured);
        assert_eq!(tls_rule("smtps://user:pass@mail.example", false), SmtpTls::AsConfigured);
        assert_eq!(tls_rule("smtp://mail.example:587?tls=required", false), SmtpTls::AsConfigured);
        assert_eq!(
            tls_rule("smtp://user:pass@mail.example:587", false),
            SmtpTls::RequireStartTls("mail.example".into())
        );
        assert_eq!(
            tls_rule("smtp://mail.example:587?tls=opportunistic", false),
            SmtpTls::RequireStartTls("mail.example".into())
        );
        assert_eq!(tls_rule("smtp://10.0.0.5:25", true), SmtpTls::PlaintextAllowed("10.0.0.5".into()));
    }
}
