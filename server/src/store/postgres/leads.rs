//! PostgreSQL: leads and certificate tokens (written through the writer's group
//! transaction, `writer.rs`), and their retention.

use async_trait::async_trait;
use tokio::sync::oneshot;
use tokio_postgres::Row;

use super::PgStore;
use super::writer::Op;
use crate::leads::{NewLead, TokenRecord};
use crate::store::backend::Leads;
use crate::store::{Channel, LeadRecord, StoreError, Submitted};

#[async_trait]
impl Leads for PgStore {
    async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Lead {
            lead: Box::new(lead),
            channels,
            now_ms,
            reply,
        })
        .await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Token { record, now_ms, reply }).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError> {
        self.client()
            .await?
            .execute(
                "DELETE FROM outbox WHERE lead_id IN (SELECT id FROM leads WHERE received_at_ms < $1)",
                &[&cutoff_ms],
            )
            .await?;
        let leads = self
            .client()
            .await?
            .execute("DELETE FROM leads WHERE received_at_ms < $1", &[&cutoff_ms])
            .await?;
        let certs = self
            .client()
            .await?
            .execute("DELETE FROM certificates WHERE recorded_at_ms < $1", &[&cutoff_ms])
            .await?;
        // Their e-mails go with them (ON DELETE CASCADE).
        self.client()
            .await?
            .execute("DELETE FROM submissions WHERE received_at_ms < $1", &[&cutoff_ms])
            .await?;
        // An audit line is written after the record it names was received, so the same
        // cutoff never drops it before that record.
        self.client()
            .await?
            .execute("DELETE FROM staff_audit WHERE at_ms < $1", &[&cutoff_ms])
            .await?;
        self.client()
            .await?
            .execute(
                "DELETE FROM consent_texts c WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.consent_sha256 = c.sha256)",
                &[],
            )
            .await?;
        Ok((leads, certs))
    }

    async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!("SELECT {LEAD_COLUMNS} FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256 WHERE l.id = $1"),
                &[&id],
            )
            .await?;
        Ok(row.as_ref().map(lead_from_row))
    }

    async fn count_leads(&self) -> Result<i64, StoreError> {
        Ok(self.client().await?.query_one("SELECT COUNT(*) FROM leads", &[]).await?.get(0))
    }

    async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT token, ping_url, service_slug, cert_url FROM certificates WHERE token = $1",
                &[&token],
            )
            .await?;
        Ok(row.map(|r| TokenRecord {
            token: r.get(0),
            ping_url: r.get(1),
            service_slug: r.get(2),
            cert_url: r.get(3),
        }))
    }
}

/// How many columns `LEAD_COLUMNS` selects.
pub(super) const LEAD_COLUMN_COUNT: usize = 22;
pub(super) const LEAD_COLUMNS: &str = "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text, l.consent_sha256, \
     l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.utm_term, l.utm_content, l.seen_referer";

pub(super) fn lead_from_row(r: &Row) -> LeadRecord {
    LeadRecord {
        id: r.get(0),
        received_at_ms: r.get(1),
        service_slug: r.get(2),
        full_name: r.get(3),
        phone: r.get(4),
        zip_code: r.get(5),
        consent: r.get(6),
        consent_text: r.get(7),
        consent_sha256: r.get(8),
        cert_url: r.get(9),
        cert_token: r.get(10),
        cert_ping_url: r.get(11),
        ip: r.get(12),
        user_agent: r.get(13),
        page_url: r.get(14),
        referrer: r.get(15),
        utm_source: r.get(16),
        utm_medium: r.get(17),
        utm_campaign: r.get(18),
        utm_term: r.get(19),
        utm_content: r.get(20),
        seen_referer: r.get(21),
    }
}
