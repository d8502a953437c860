//! The PostgreSQL outbox of lead notifications: leasing due rows (FOR UPDATE SKIP LOCKED,
//! so servers never deliver the same one at once), recording outcomes, and what operators
//! and /metrics read of it (undelivered rows only, never a count of the whole table).

use super::postgres::PgStore;
use super::{Channel, OutboxCounts, OutboxItem, OutboxRow, OutboxSummary, RetryScope, StoreError};

impl PgStore {
    pub async fn claim_due(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        let rows = self.client().await?
            .query(
                "UPDATE outbox SET locked_until_ms = $1 WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_ms <= $2 \
                 AND locked_until_ms <= $2 ORDER BY next_attempt_ms, id LIMIT $3 FOR UPDATE SKIP LOCKED) \
                 RETURNING id, lead_id, channel, attempts, COALESCE(retry_from_ms, created_ms)",
                &[&(now_ms + lease_ms), &now_ms, &(limit as i64)],
            )
            .await?;
        let mut items = Vec::with_capacity(rows.len());
        for row in rows {
            let lead_id: String = row.get(1);
            let channel: String = row.get(2);
            let Some(channel) = Channel::parse(&channel) else { continue };
            if let Some(lead) = self.lead(&lead_id).await? {
                items.push(OutboxItem {
                    id: row.get(0),
                    channel,
                    attempts: row.get::<_, i64>(3) as u32,
                    since_ms: row.get(4),
                    lead,
                });
            }
        }
        Ok(items)
    }

    pub async fn finish(
        &self,
        id: i64,
        status: &'static str,
        attempts: u32,
        delivered_ms: Option<i64>,
        next_ms: i64,
        error: Option<String>,
    ) -> Result<(), StoreError> {
        self.client().await?
            .execute(
                "UPDATE outbox SET status = $2, attempts = $3, delivered_ms = $4, next_attempt_ms = CASE WHEN $2 = 'pending' THEN $5 ELSE next_attempt_ms END, \
                 locked_until_ms = 0, last_error = $6 WHERE id = $1",
                &[&id, &status, &i64::from(attempts), &delivered_ms, &next_ms, &error],
            )
            .await?;
        Ok(())
    }

    pub async fn outbox_counts(&self) -> Result<OutboxCounts, StoreError> {
        let mut counts = OutboxCounts::default();
        for row in self
            .client()
            .await?
            .query("SELECT status, COUNT(*) FROM outbox GROUP BY status", &[])
            .await?
        {
            counts.set(row.get::<_, &str>(0), row.get(1));
        }
        Ok(counts)
    }

    pub async fn outbox_summary(&self, table: &'static str) -> Result<OutboxSummary, StoreError> {
        let mut summary = OutboxSummary::default();
        for row in self
            .client()
            .await?
            .query(
                &format!("SELECT status, COUNT(*), MIN(created_ms) FROM {table} WHERE status IN ('pending', 'failed') GROUP BY status"),
                &[],
            )
            .await?
        {
            summary.add(row.get::<_, &str>(0), row.get(1), row.get(2));
        }
        Ok(summary)
    }

    pub async fn deliveries_since(&self, since_ms: i64) -> Result<Vec<super::DeliveryCount>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT channel, outcome, COUNT(*) FROM delivery_attempts WHERE at_ms >= $1 GROUP BY channel, outcome ORDER BY channel, outcome",
                &[&since_ms],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| super::DeliveryCount {
                channel: r.get(0),
                outcome: r.get(1),
                count: r.get(2),
            })
            .collect())
    }

    pub async fn outbox_rows(
        &self,
        table: &'static str,
        record: &'static str,
        status: String,
        limit: usize,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let channel = if table == "outbox" { "channel" } else { "'email'" };
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT id, {record}, {channel}, status, attempts, created_ms, last_error FROM {table} WHERE status = $1 ORDER BY created_ms, id LIMIT $2"
                ),
                &[&status, &(limit as i64)],
            )
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
            })
            .collect())
    }

    pub async fn retry_failed(&self, table: &'static str, scope: RetryScope, now_ms: i64) -> Result<u64, StoreError> {
        let one = match scope {
            RetryScope::All => None,
            RetryScope::One(id) => Some(id),
        };
        Ok(self
            .client()
            .await?
            .execute(
                &format!(
                    "UPDATE {table} SET status = 'pending', next_attempt_ms = $1, locked_until_ms = 0, retry_from_ms = $1 \
                     WHERE status = 'failed' AND ($2::BIGINT IS NULL OR id = $2)"
                ),
                &[&now_ms, &one],
            )
            .await?)
    }

    pub async fn next_due_ms(&self) -> Result<Option<i64>, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                "SELECT MIN(due) FROM (SELECT GREATEST(next_attempt_ms, locked_until_ms) AS due FROM outbox WHERE status = 'pending' \
                 UNION ALL SELECT GREATEST(next_attempt_ms, locked_until_ms) FROM mail_outbox WHERE status = 'pending') AS d",
                &[],
            )
            .await?;
        Ok(row.get(0))
    }
}
