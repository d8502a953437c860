//! PostgreSQL: leads and certificate tokens (written through the writer's group
//! transaction, `writer.rs`), and their retention.

use async_trait::async_trait;
use tokio::sync::oneshot;
use tokio_postgres::Row;

use super::PgStore;
use super::queue::Op;
use crate::leads::{NewLead, TokenRecord};
use crate::store::backend::Leads;
use crate::store::lead_fields::{RECORD_COLUMNS, RECORD_HEAD, record_from};
use crate::store::sql::{self, Dialect, built, statements};
use crate::store::{Channel, LeadRecord, StoreError, Submitted};

statements! {
    /// The wordings no lead refers to any more.
    PURGE_CONSENT = "DELETE FROM consent_texts c WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.consent_sha256 = c.sha256)";
}

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
        let client = self.client().await?;
        client.execute(sql::PURGE_OUTBOX.pg, &[&cutoff_ms]).await?;
        let leads = client.execute(sql::PURGE_LEADS.pg, &[&cutoff_ms]).await?;
        let certs = client.execute(sql::PURGE_CERTIFICATES.pg, &[&cutoff_ms]).await?;
        // Their e-mails go with them (ON DELETE CASCADE).
        client.execute(sql::PURGE_SUBMISSIONS.pg, &[&cutoff_ms]).await?;
        // An audit line is written after the record it names was received, so the same
        // cutoff never drops it before that record.
        client.execute(sql::PURGE_AUDIT.pg, &[&cutoff_ms]).await?;
        client.execute(PURGE_CONSENT, &[]).await?;
        Ok((leads, certs))
    }

    async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        let row = self.client().await?.query_opt(built::lead(Dialect::Postgres), &[&id]).await?;
        Ok(row.as_ref().map(lead_from_row))
    }

    async fn count_leads(&self) -> Result<i64, StoreError> {
        Ok(self.client().await?.query_one(sql::COUNT_LEADS.pg, &[]).await?.get(0))
    }

    async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        let row = self.client().await?.query_opt(sql::TOKEN.pg, &[&token]).await?;
        Ok(row.map(|r| TokenRecord {
            token: r.get(0),
            ping_url: r.get(1),
            service_slug: r.get(2),
            cert_url: r.get(3),
        }))
    }
}

pub(super) use crate::store::sql::LEAD_COLUMN_COUNT;

/// A stored lead from `built::lead_columns()` (the first columns of `r`).
pub(super) fn lead_from_row(r: &Row) -> LeadRecord {
    let fields = (RECORD_HEAD.len()..RECORD_COLUMNS).map(|i| r.get(i)).collect();
    record_from(r.get(0), r.get(1), r.get(2), r.get(3), fields)
}
