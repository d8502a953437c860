//! The SQLite outboxes (lead notifications and submission e-mails): leasing due rows in the
//! writer's transaction (for leads, the do-not-call list and erasure checked there), by
//! SQLite's clock and with a token per claim, recording outcomes only under the claim that
//! sent them, sending failed ones again, and what operators and /metrics read of them
//! (undelivered rows only, never a count of the whole table). The twin of
//! `postgres/outbox.rs`.

use std::sync::Arc;

use async_trait::async_trait;
use rusqlite::params;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::SqliteStore;
use super::leads::select_lead;
use crate::store::backend::Outboxes;
use crate::store::sql::{self, statements};
use crate::store::{
    Attempt, Channel, DeliveryCount, Mail, Notice, Outbox, OutboxCounts, OutboxItem, OutboxRow, OutboxSummary, Retried, RetryScope,
    StoreError,
};

statements! {
    /// How long after `?1` the next pending notification is due: its retry time judged against
    /// `?1`, its lease against SQLite's clock.
    NEXT_DUE = concat!(
        "SELECT MIN(due) FROM (SELECT MAX(next_attempt_ms - ?1, locked_until_ms - ",
        db_now_ms!(),
        ") AS due FROM outbox WHERE status = 'pending' \
         UNION ALL SELECT MAX(next_attempt_ms - ?1, locked_until_ms - ",
        db_now_ms!(),
        ") FROM mail_outbox WHERE status = 'pending')"
    );

    /// Marks suppressed the lead notifications due at `?1`, not leased, whose number is listed.
    SUPPRESS_DUE = concat!(
        "UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE status = 'pending' AND next_attempt_ms <= ?1 \
         AND locked_until_ms <= ",
        db_now_ms!(),
        " AND EXISTS (SELECT 1 FROM leads l JOIN suppressions s ON s.phone_e164 = l.phone_e164 \
         WHERE l.id = outbox.lead_id)"
    );

    /// Leases for `?1` up to `?3` lead notifications due at `?2` (none of an erased lead).
    CLAIM_LEADS = concat!(
        "UPDATE outbox SET locked_until_ms = ",
        db_now_ms!(),
        " + ?1, claim_token = claim_token + 1 WHERE id IN \
         (SELECT o.id FROM outbox o WHERE o.status = 'pending' AND o.next_attempt_ms <= ?2 AND o.locked_until_ms <= ",
        db_now_ms!(),
        " AND EXISTS (SELECT 1 FROM leads l WHERE l.id = o.lead_id AND l.erased_ms IS NULL) \
         ORDER BY o.next_attempt_ms, o.id LIMIT ?3) \
         RETURNING id, lead_id, channel, attempts, COALESCE(retry_from_ms, created_ms), claim_token"
    );

    /// Leases for `?1` up to `?3` submission e-mails due at `?2`.
    CLAIM_MAIL = concat!(
        "UPDATE mail_outbox SET locked_until_ms = ",
        db_now_ms!(),
        " + ?1, claim_token = claim_token + 1 WHERE id IN \
         (SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_ms <= ?2 AND locked_until_ms <= ",
        db_now_ms!(),
        " ORDER BY next_attempt_ms, id LIMIT ?3) \
         RETURNING id, submission_id, subject, body, attempts, COALESCE(retry_from_ms, created_ms), claim_token"
    );

    /// Marks suppressed the failed lead notifications (all, or only `?1`) whose number is listed.
    RETRY_SUPPRESS = "UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE status = 'failed' AND (?1 IS NULL OR id = ?1) \
         AND EXISTS (SELECT 1 FROM leads l JOIN suppressions s ON s.phone_e164 = l.phone_e164 WHERE l.id = outbox.lead_id)";
    /// Back to pending at `?1` the failed lead notifications (all, or only `?2`) that may be
    /// sent (`Outbox::sendable`).
    RETRY_LEADS = built format!(
        "UPDATE outbox SET status = 'pending', next_attempt_ms = ?1, locked_until_ms = 0, retry_from_ms = ?1 \
         WHERE status = 'failed' AND (?2 IS NULL OR id = ?2) AND {}",
        Outbox::Leads.sendable()
    );
    /// As `RETRY_LEADS`, for the submissions' e-mails.
    RETRY_MAIL = built format!(
        "UPDATE mail_outbox SET status = 'pending', next_attempt_ms = ?1, locked_until_ms = 0, retry_from_ms = ?1 \
         WHERE status = 'failed' AND (?2 IS NULL OR id = ?2) AND {}",
        Outbox::Mail.sendable()
    );
}

#[async_trait]
impl Outboxes for SqliteStore {
    async fn claim_due(&self, outbox: Outbox, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        match outbox {
            Outbox::Leads => self.claim_leads(now_ms, lease_ms, limit).await,
            Outbox::Mail => self.claim_mail(now_ms, lease_ms, limit).await,
        }
    }

    async fn finish(&self, outbox: Outbox, id: i64, claim: i64, attempts: u32, attempt: Attempt) -> Result<bool, StoreError> {
        self.write(move |conn| {
            let changed = conn.prepare_cached(outbox.sql().finish.sqlite)?.execute(params![
                id,
                attempt.status(),
                attempts,
                attempt.delivered_ms(),
                attempt.next_ms(),
                attempt.error(),
                claim
            ])?;
            Ok(changed > 0)
        })
        .await
    }

    async fn outbox_counts(&self, outbox: Outbox) -> Result<OutboxCounts, StoreError> {
        self.read(move |conn| {
            let mut counts = OutboxCounts::default();
            let mut stmt = conn.prepare_cached(outbox.sql().counts.sqlite)?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
            for row in rows {
                let (status, n) = row?;
                counts.set(&status, n);
            }
            Ok(counts)
        })
        .await
    }

    async fn outbox_summary(&self, outbox: Outbox) -> Result<OutboxSummary, StoreError> {
        self.read(move |conn| {
            let mut summary = OutboxSummary::default();
            let mut stmt = conn.prepare_cached(outbox.sql().summary.sqlite)?;
            let rows = stmt.query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, Option<i64>>(2)?))
            })?;
            for row in rows {
                let (status, n, oldest) = row?;
                summary.add(&status, n, oldest);
            }
            Ok(summary)
        })
        .await
    }

    async fn deliveries_since(&self, since_ms: i64) -> Result<Vec<DeliveryCount>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(sql::DELIVERIES_SINCE.sqlite)?;
            let rows = stmt.query_map(params![since_ms], |r| {
                Ok(DeliveryCount {
                    channel: r.get(0)?,
                    outcome: r.get(1)?,
                    count: r.get(2)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn outbox_rows(&self, outbox: Outbox, status: &str, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        let status = status.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(outbox.sql().rows.sqlite)?;
            let rows = stmt.query_map(params![status, limit as i64], |r| {
                Ok(OutboxRow {
                    id: r.get(0)?,
                    record_id: r.get(1)?,
                    channel: r.get(2)?,
                    status: r.get(3)?,
                    attempts: r.get(4)?,
                    created_ms: r.get(5)?,
                    last_error: r.get(6)?,
                    claim: r.get(7)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn retry_failed(&self, outbox: Outbox, scope: RetryScope, now_ms: i64) -> Result<Retried, StoreError> {
        let one = match scope {
            RetryScope::All => None,
            RetryScope::One(id) => Some(id),
        };
        self.write(move |conn| {
            let (suppressed, retry) = match outbox {
                Outbox::Leads => (conn.prepare_cached(RETRY_SUPPRESS)?.execute(params![one])?, RETRY_LEADS.as_str()),
                Outbox::Mail => (0, RETRY_MAIL.as_str()),
            };
            let sent = conn.prepare_cached(retry)?.execute(params![now_ms, one])?;
            Ok(Retried {
                sent: sent as u64,
                suppressed: suppressed as u64,
            })
        })
        .await
    }

    async fn next_due_in_ms(&self, now_ms: i64) -> Result<Option<i64>, StoreError> {
        self.read(move |conn| conn.prepare_cached(NEXT_DUE)?.query_row(params![now_ms], |r| r.get(0)))
            .await
    }

    fn watch_queue(&self, _wake: Arc<Notify>, _stop: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
        None
    }
}

impl SqliteStore {
    /// Leases due notifications (their leases by SQLite's clock, each claim a new token). The
    /// do-not-call list and erasure bind here, in the claim's transaction: a due notification
    /// of a listed number is marked suppressed instead, and one of an erased lead is never
    /// leased (erasure deletes it in any case).
    async fn claim_leads(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(SUPPRESS_DUE)?.execute(params![now_ms])?;
            let mut claimed: Vec<(i64, String, String, u32, i64, i64)> = Vec::new();
            {
                let mut stmt = conn.prepare_cached(CLAIM_LEADS)?;
                let rows = stmt.query_map(params![lease_ms, now_ms, limit as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
                })?;
                for row in rows {
                    claimed.push(row?);
                }
            }
            let mut items = Vec::with_capacity(claimed.len());
            for (id, lead_id, channel, attempts, since_ms, claim) in claimed {
                let Some(channel) = Channel::parse(&channel) else { continue };
                if let Some(lead) = select_lead(conn, &lead_id)? {
                    items.push(OutboxItem {
                        id,
                        claim,
                        attempts,
                        since_ms,
                        notice: Notice::Lead {
                            channel,
                            lead: Box::new(lead),
                        },
                    });
                }
            }
            Ok(items)
        })
        .await
    }

    /// Leases due submission e-mails.
    async fn claim_mail(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        self.write(move |conn| {
            let mut stmt = conn.prepare_cached(CLAIM_MAIL)?;
            let rows = stmt.query_map(params![lease_ms, now_ms, limit as i64], |r| {
                Ok(OutboxItem {
                    id: r.get(0)?,
                    claim: r.get(6)?,
                    attempts: r.get(4)?,
                    since_ms: r.get(5)?,
                    notice: Notice::Mail {
                        submission_id: r.get(1)?,
                        mail: Mail {
                            subject: r.get(2)?,
                            body: r.get(3)?,
                        },
                    },
                })
            })?;
            rows.collect()
        })
        .await
    }
}
