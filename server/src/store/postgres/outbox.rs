//! The PostgreSQL outboxes (lead notifications and submission e-mails): leasing due rows (FOR
//! UPDATE SKIP LOCKED, so servers never claim the same one at once; the lease by the
//! database's clock, each claim a new token), recording outcomes only under the claim that
//! sent them (docs/decisions/019), sending failed ones again, waking the workers of every
//! server when one is queued (`listen.rs`), and what operators and /metrics read of them
//! (undelivered rows only, never a count of the whole table). The twin of
//! `sqlite/outbox.rs`.

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::leads::{LEAD_COLUMN_COUNT, lead_from_row};
use super::{DB_NOW_MS, PgStore};
use crate::store::backend::Outboxes;
use crate::store::sql::{self, statements};
use crate::store::{
    Attempt, Channel, DeliveryCount, Mail, Notice, Outbox, OutboxCounts, OutboxItem, OutboxRow, OutboxSummary, Retried, RetryScope,
    StoreError,
};

statements! {
    /// How long after `$1` the next pending notification is due: its retry time judged against
    /// `$1`, its lease against the database's clock.
    NEXT_DUE = concat!(
        "SELECT MIN(due) FROM (SELECT GREATEST(next_attempt_ms - $1, locked_until_ms - ",
        db_now_ms!(),
        ") AS due FROM outbox WHERE status = 'pending' \
         UNION ALL SELECT GREATEST(next_attempt_ms - $1, locked_until_ms - ",
        db_now_ms!(),
        ") FROM mail_outbox WHERE status = 'pending') AS d"
    );

    /// Leases for `$1` up to `$3` submission e-mails due at `$2`.
    CLAIM_MAIL = concat!(
        "UPDATE mail_outbox SET locked_until_ms = ",
        db_now_ms!(),
        " + $1, claim_token = claim_token + 1 WHERE id IN \
         (SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_ms <= $2 AND locked_until_ms <= ",
        db_now_ms!(),
        " ORDER BY next_attempt_ms, id LIMIT $3 FOR UPDATE SKIP LOCKED) \
         RETURNING id, submission_id, subject, body, attempts, COALESCE(retry_from_ms, created_ms), claim_token"
    );

    /// Marks suppressed the lead notifications due at `$2` whose number is listed, and leases for
    /// `$1` up to `$3` of the others, each with its lead. Built once, at its first use (the lead's
    /// columns are built from `LEAD_FIELDS`, which `concat!` cannot read).
    CLAIM_LEADS = built format!(
            "WITH suppressed AS (UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE id IN \
             (SELECT o.id FROM outbox o JOIN leads l ON l.id = o.lead_id JOIN suppressions s ON s.phone_e164 = l.phone_e164 \
             WHERE o.status = 'pending' AND o.next_attempt_ms <= $2 AND o.locked_until_ms <= {DB_NOW_MS} FOR UPDATE OF o SKIP LOCKED) RETURNING 1), \
             q AS (UPDATE outbox SET locked_until_ms = {DB_NOW_MS} + $1, claim_token = claim_token + 1 WHERE id IN \
             (SELECT o.id FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE o.status = 'pending' AND o.next_attempt_ms <= $2 \
             AND o.locked_until_ms <= {DB_NOW_MS} AND l.erased_ms IS NULL AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.phone_e164 = l.phone_e164) \
             ORDER BY o.next_attempt_ms, o.id LIMIT $3 FOR UPDATE OF o SKIP LOCKED) \
             RETURNING id, lead_id, channel, attempts, COALESCE(retry_from_ms, created_ms) AS since_ms, claim_token) \
             SELECT {lead_columns}, q.id, q.channel, q.attempts, q.since_ms, q.claim_token \
             FROM q JOIN leads l ON l.id = q.lead_id JOIN consent_texts c ON c.sha256 = l.consent_sha256",
            lead_columns = sql::built::lead_columns()
    );

    /// One statement: the failed lead notifications (all, or only `$2`) of listed numbers
    /// marked suppressed, the others that may be sent (`Outbox::sendable`) made pending at
    /// `$1` (the two sets cannot overlap); it answers how many of each.
    RETRY_LEADS = built format!(
        "WITH s AS (UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE status = 'failed' AND ($2::BIGINT IS NULL OR id = $2) \
         AND EXISTS (SELECT 1 FROM leads l JOIN suppressions s ON s.phone_e164 = l.phone_e164 WHERE l.id = outbox.lead_id) RETURNING 1), \
         r AS (UPDATE outbox SET status = 'pending', next_attempt_ms = $1, locked_until_ms = 0, retry_from_ms = $1 \
         WHERE status = 'failed' AND ($2::BIGINT IS NULL OR id = $2) AND {} RETURNING 1) \
         SELECT (SELECT COUNT(*) FROM r), (SELECT COUNT(*) FROM s)",
        Outbox::Leads.sendable()
    );
    /// As `RETRY_LEADS`, for the submissions' e-mails (never suppressed).
    RETRY_MAIL = built format!(
        "WITH r AS (UPDATE mail_outbox SET status = 'pending', next_attempt_ms = $1, locked_until_ms = 0, retry_from_ms = $1 \
         WHERE status = 'failed' AND ($2::BIGINT IS NULL OR id = $2) AND {} RETURNING 1) \
         SELECT (SELECT COUNT(*) FROM r), 0::BIGINT",
        Outbox::Mail.sendable()
    );
}

#[async_trait]
impl Outboxes for PgStore {
    async fn claim_due(&self, outbox: Outbox, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        match outbox {
            Outbox::Leads => self.claim_leads(now_ms, lease_ms, limit).await,
            Outbox::Mail => self.claim_mail(now_ms, lease_ms, limit).await,
        }
    }

    async fn finish(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, attempt: Attempt) -> Result<bool, StoreError> {
        let changed = self
            .client()
            .await?
            .execute(
                outbox.sql().finish.pg,
                &[
                    &id,
                    &attempt.status(),
                    &i64::from(attempts),
                    &attempt.delivered_ms(),
                    &attempt.next_ms(),
                    &attempt.error(),
                    &claim,
                ],
            )
            .await?;
        Ok(changed > 0)
    }

    async fn outbox_counts(&self, outbox: Outbox) -> Result<OutboxCounts, StoreError> {
        let mut counts = OutboxCounts::default();
        for row in self.client().await?.query(outbox.sql().counts.pg, &[]).await? {
            counts.set(row.get::<_, &str>(0), row.get(1));
        }
        Ok(counts)
    }

    async fn outbox_summary(&self, outbox: Outbox) -> Result<OutboxSummary, StoreError> {
        let mut summary = OutboxSummary::default();
        for row in self.client().await?.query(outbox.sql().summary.pg, &[]).await? {
            summary.add(row.get::<_, &str>(0), row.get(1), row.get(2));
        }
        Ok(summary)
    }

    async fn deliveries_since(&self, since_ms: i64) -> Result<Vec<DeliveryCount>, StoreError> {
        let rows = self.client().await?.query(sql::DELIVERIES_SINCE.pg, &[&since_ms]).await?;
        Ok(rows
            .iter()
            .map(|r| DeliveryCount {
                channel: r.get(0),
                outcome: r.get(1),
                count: r.get(2),
            })
            .collect())
    }

    async fn outbox_rows(&self, outbox: Outbox, status: &str, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(outbox.sql().rows.pg, &[&status, &(limit as i64)])
            .await?;
        Ok(rows
            .iter()
            .map(|r| OutboxRow {
                id: r.get(0),
                record_id: r.get(1),
                channel: r.get(2),
                status: r.get(3),
                attempts: r.get(4),
                created_ms: r.get(5),
                last_error: r.get(6),
                claim: r.get(7),
            })
            .collect())
    }

    /// One statement: the failed notifications of listed numbers are marked suppressed, the
    /// others that may be sent (`Outbox::sendable`) made pending (the two sets cannot overlap).
    async fn retry_failed(&self, outbox: Outbox, scope: RetryScope, now_ms: i64) -> Result<Retried, StoreError> {
        let one = match scope {
            RetryScope::All => None,
            RetryScope::One(id) => Some(id),
        };
        let retry = match outbox {
            Outbox::Leads => RETRY_LEADS.as_str(),
            Outbox::Mail => RETRY_MAIL.as_str(),
        };
        let row = self.client().await?.query_one(retry, &[&now_ms, &one]).await?;
        Ok(Retried {
            sent: row.get::<_, i64>(0) as u64,
            suppressed: row.get::<_, i64>(1) as u64,
        })
    }

    async fn next_due_in_ms(&self, now_ms: i64) -> Result<Option<i64>, StoreError> {
        let row = self.client().await?.query_one(NEXT_DUE, &[&now_ms]).await?;
        Ok(row.get(0))
    }

    fn watch_queue(&self, wake: Arc<Notify>, stop: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
        Some(tokio::spawn(super::listen::wake_on_notify(
            self.target.clone(),
            self.schema.clone(),
            super::listen::OUTBOX,
            wake,
            stop,
        )))
    }
}

impl PgStore {
    /// One statement, so one snapshot and one transaction: due notifications of listed
    /// numbers are marked suppressed, the others of leads not erased are leased (rows another
    /// server is claiming or changing are skipped, and a row changed since the snapshot is
    /// checked again as it is now; leases by the database's clock, each claim a new token),
    /// and each comes back with its lead as the claim saw it.
    async fn claim_leads(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(CLAIM_LEADS.as_str(), &[&lease_ms, &now_ms, &(limit as i64)])
            .await?;
        let at = LEAD_COLUMN_COUNT;
        Ok(rows
            .iter()
            .filter_map(|row| {
                let channel = Channel::parse(row.get::<_, &str>(at + 1))?;
                Some(OutboxItem {
                    id: row.get(at),
                    claim: row.get(at + 4),
                    attempts: row.get::<_, i64>(at + 2) as u32,
                    since_ms: row.get(at + 3),
                    notice: Notice::Lead {
                        channel,
                        lead: Box::new(lead_from_row(row)),
                    },
                })
            })
            .collect())
    }

    /// Leases due submission e-mails (rows another server is claiming are skipped).
    async fn claim_mail(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(CLAIM_MAIL, &[&lease_ms, &now_ms, &(limit as i64)])
            .await?;
        Ok(rows
            .iter()
            .map(|r| OutboxItem {
                id: r.get(0),
                claim: r.get(6),
                attempts: r.get::<_, i64>(4) as u32,
                since_ms: r.get(5),
                notice: Notice::Mail {
                    submission_id: r.get(1),
                    mail: Mail {
                        subject: r.get(2),
                        body: r.get(3),
                    },
                },
            })
            .collect())
    }
}
