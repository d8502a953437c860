//! PostgreSQL: the staff console's reads and changes of leads, the do-not-call list, and
//! data requests (a person's records found and erased).

use async_trait::async_trait;
use tokio_postgres::types::ToSql;

use super::PgStore;
use super::submissions::submission_from_row;
use crate::store::backend::{Console, Leads};
use crate::store::console::{AttemptRecord, DeliveryRecord, LeadDetail, LeadFilter, LeadRow, RetryOutcome, retry_audit};
use crate::store::erasure::{Erased, PERSON_LIMIT, Person, PersonLead, PersonRecords};
use crate::store::lead_fields::{ROW_HEAD, exported};
use crate::store::sql::built::{self, NameRoute, Param};
use crate::store::sql::{self, AUDIT_INSERT_INTO, Dialect, SUBMISSION_COLUMNS, statements};
use crate::store::suppressions::{Listed, Suppression};
use crate::store::{NewAudit, StoreError};

statements! {
    /// One statement: the notification `$1` of the lead `$2` is locked, then checked (erased,
    /// on the list now, failed) and changed at `$3` with its audit line (staff `$4`, action
    /// `$5`, target `$6`, address `$7`, detail `$8`, or `$9` when it was suppressed).
    RETRY_DELIVERY = "WITH t AS (SELECT o.id, o.status, l.erased_ms IS NOT NULL AS erased, \
         EXISTS (SELECT 1 FROM suppressions s WHERE s.phone_e164 = l.phone_e164) AS listed \
         FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE o.id = $1 AND o.lead_id = $2 FOR UPDATE OF o), \
         u AS (UPDATE outbox SET status = CASE WHEN t.listed THEN 'suppressed' ELSE 'pending' END, \
         next_attempt_ms = CASE WHEN t.listed THEN next_attempt_ms ELSE $3 END, \
         retry_from_ms = CASE WHEN t.listed THEN retry_from_ms ELSE $3 END, locked_until_ms = 0 \
         FROM t WHERE outbox.id = t.id AND t.status = 'failed' AND NOT t.erased RETURNING outbox.status), \
         a AS (INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail) \
         SELECT $3, $4, $5, $6, $7, CASE WHEN u.status = 'suppressed' THEN $9 ELSE $8 END FROM u RETURNING 1) \
         SELECT (SELECT status FROM t), (SELECT erased_ms IS NOT NULL FROM leads WHERE id = $2), (SELECT status FROM u), \
         (SELECT COUNT(*) FROM a)";
    /// The do-not-call list (only the number `$1`, when given) below the cursor (`$2`, `$3`),
    /// newest first, `$4` rows.
    SUPPRESSIONS = "SELECT p.phone_e164, p.reason, p.added_ms, s.email FROM suppressions p LEFT JOIN staff s ON s.id = p.staff_id \
         WHERE ($1::TEXT IS NULL OR p.phone_e164 = $1) AND ($2::BIGINT IS NULL OR (p.added_ms, p.phone_e164) < ($2, $3::TEXT)) \
         ORDER BY p.added_ms DESC, p.phone_e164 DESC LIMIT $4";
    /// One statement: the number `$1` listed (for the reason `$2`, at `$3`, by staff `$4`),
    /// audited when new (action `$5`, target `$6`, address `$7`, detail `$8`), and its leads'
    /// undelivered notifications suppressed (rows another server is claiming are waited
    /// for, then marked).
    SUPPRESS = built format!(
        "WITH p AS (INSERT INTO suppressions (phone_e164, reason, added_ms, staff_id) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (phone_e164) DO NOTHING RETURNING 1), \
         a AS ({AUDIT_INSERT_INTO} SELECT $3, $4, $5, $6, $7, $8 FROM p RETURNING 1), \
         o AS (UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE status IN ('pending', 'failed') \
         AND lead_id IN (SELECT id FROM leads WHERE phone_e164 = $1) RETURNING 1) \
         SELECT (SELECT COUNT(*) FROM a), (SELECT COUNT(*) FROM o)"
    );
    /// The number `$1` off the list, audited at `$2` when it was on it.
    UNSUPPRESS = built format!(
        "WITH p AS (DELETE FROM suppressions WHERE phone_e164 = $1 RETURNING 1), \
         a AS ({AUDIT_INSERT_INTO} SELECT $2, $3, $4, $5, $6, $7 FROM p RETURNING 1) SELECT COUNT(*) FROM a"
    );
    /// The leads of the phone `$1`, newest first, `$2` of them.
    PERSON_LEADS = "SELECT id, received_at_ms, service_slug, full_name, erased_ms FROM leads WHERE $1::TEXT IS NOT NULL AND phone_e164 = $1 \
         ORDER BY received_at_ms DESC, id DESC LIMIT $2";
    /// The submissions of the phone `$1` or the e-mail `$2`, newest first, `$3` of them.
    PERSON_SUBMISSIONS = built format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE ($1::TEXT IS NOT NULL AND phone = $1) OR ($2::TEXT IS NOT NULL AND email = $2) \
         ORDER BY received_at_ms DESC, id DESC LIMIT $3"
    );
    /// Locks the notifications of the phone `$1`'s leads not erased yet.
    LOCK_PERSON_NOTIFICATIONS = "SELECT 1 FROM outbox WHERE lead_id IN \
         (SELECT id FROM leads WHERE $1::TEXT IS NOT NULL AND phone_e164 = $1 AND erased_ms IS NULL) FOR UPDATE";
    /// `sql::built::postgres_erasure`, made once.
    ERASE_PERSON = built built::postgres_erasure();
}

/// How many of the newest leads (of the other filters) a name search tests first.
const NAME_WALK: usize = 5000;
/// Up to which page size a name search tests them first (the CSV export reads its own way).
const NAME_WALK_PAGE: usize = 200;

#[async_trait]
impl Console for PgStore {
    /// Leads matching `filter`, newest first. A name search on a page's worth of rows first
    /// tests the newest `NAME_WALK` leads of the other filters against the name (a few ms):
    /// when a whole page matches there, it is the answer. Otherwise the name is rare among
    /// them and the name index's matches are read and sorted (`+ 0` keeps the planner from
    /// walking the time index instead, which for a word missing from its statistics means
    /// all of it: 1.5–2.5 s with 1M leads).
    async fn list_leads(&self, filter: &LeadFilter, limit: usize) -> Result<Vec<LeadRow>, StoreError> {
        if filter.name_words.is_empty() || limit > NAME_WALK_PAGE {
            let (sql, params) = built::lead_list(filter, Dialect::Postgres, NameRoute::ByIndex, limit);
            return self.list_query(&sql, params).await;
        }
        let (sql, params) = built::lead_list_name_walk(filter, NAME_WALK, limit);
        let rows = self.list_query(&sql, params).await?;
        if rows.len() == limit {
            return Ok(rows);
        }
        let (sql, params) = built::lead_list_by_name_index(filter, limit);
        self.list_query(&sql, params).await
    }

    async fn lead_detail(&self, id: &str) -> Result<Option<LeadDetail>, StoreError> {
        let Some(lead) = self.lead(id).await? else { return Ok(None) };
        let client = self.client().await?;
        let row = client.query_one(sql::LEAD_DELIVERY.pg, &[&id]).await?;
        let deliveries = client
            .query(sql::LEAD_DELIVERIES.pg, &[&id])
            .await?
            .iter()
            .map(|r| DeliveryRecord {
                id: r.get(0),
                channel: r.get(1),
                status: r.get(2),
                attempts: r.get(3),
                last_error: r.get(4),
                next_attempt_ms: r.get(5),
                delivered_ms: r.get(6),
            })
            .collect();
        let attempts = client
            .query(sql::LEAD_ATTEMPTS.pg, &[&id])
            .await?
            .iter()
            .map(|r| AttemptRecord {
                channel: r.get(0),
                at_ms: r.get(1),
                outcome: r.get(2),
                error: r.get(3),
            })
            .collect();
        let suppressed_now = client.query_opt(sql::PHONE_SUPPRESSED.pg, &[&lead.phone]).await?.is_some();
        Ok(Some(LeadDetail {
            lead,
            delivery_status: row.get(0),
            erased_ms: row.get(1),
            deliveries,
            attempts,
            suppressed_now,
        }))
    }

    /// One statement: the notification is locked, then checked (erased, on the list now,
    /// failed) and changed with its audit line.
    async fn retry_delivery(&self, lead_id: &str, outbox_id: i64, audit: NewAudit, now_ms: i64) -> Result<RetryOutcome, StoreError> {
        let suppressed_detail = retry_audit(audit.clone(), RetryOutcome::Suppressed).detail;
        let row = self
            .client()
            .await?
            .query_one(
                RETRY_DELIVERY,
                &[
                    &outbox_id,
                    &lead_id,
                    &now_ms,
                    &audit.staff_id,
                    &audit.action,
                    &audit.target,
                    &audit.ip,
                    &audit.detail,
                    &suppressed_detail,
                ],
            )
            .await?;
        let (status, erased, changed): (Option<String>, Option<bool>, Option<String>) = (row.get(0), row.get(1), row.get(2));
        Ok(match (status.as_deref(), erased, changed.as_deref()) {
            // An erased lead's undelivered notifications are deleted.
            (_, Some(true), _) => RetryOutcome::Erased,
            (None, _, _) => RetryOutcome::NotFailed,
            (Some("suppressed"), _, _) | (_, _, Some("suppressed")) => RetryOutcome::Suppressed,
            (_, _, Some("pending")) => RetryOutcome::Queued,
            _ => RetryOutcome::NotFailed,
        })
    }

    async fn suppressions(&self, phone: Option<&str>, before: Option<(i64, String)>, limit: usize) -> Result<Vec<Suppression>, StoreError> {
        let (before_ms, before_phone) = before.unzip();
        let rows = self
            .client()
            .await?
            .query(SUPPRESSIONS, &[&phone, &before_ms, &before_phone, &(limit as i64)])
            .await?;
        Ok(rows
            .iter()
            .map(|r| Suppression {
                phone_e164: r.get(0),
                reason: r.get(1),
                added_ms: r.get(2),
                staff_email: r.get(3),
            })
            .collect())
    }

    /// One statement: the number listed (audited when new) and its leads' undelivered
    /// notifications suppressed. Rows another server is claiming are waited for, then marked.
    async fn suppress(&self, phone: &str, reason: &str, a: NewAudit, now_ms: i64) -> Result<Listed, StoreError> {
        let client = self.client().await?;
        let row = super::retried_on_contention("suppress", || async {
            Ok(client
                .query_one(
                    SUPPRESS.as_str(),
                    &[&phone, &reason, &now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
                )
                .await?)
        })
        .await?;
        Ok(Listed {
            added: row.get::<_, i64>(0) == 1,
            stopped: row.get::<_, i64>(1) as u64,
        })
    }

    async fn unsuppress(&self, phone: &str, a: NewAudit, now_ms: i64) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                UNSUPPRESS.as_str(),
                &[&phone, &now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
            )
            .await?;
        Ok(row.get::<_, i64>(0) == 1)
    }

    // Data requests (docs/decisions/011): a person's records, and their erasure.
    async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        let client = self.client().await?;
        let leads = client
            .query(PERSON_LEADS, &[&phone, &(PERSON_LIMIT as i64)])
            .await?
            .iter()
            .map(|r| PersonLead {
                id: r.get(0),
                received_at_ms: r.get(1),
                service_slug: r.get(2),
                full_name: r.get(3),
                erased_ms: r.get(4),
            })
            .collect();
        let submissions = client
            .query(PERSON_SUBMISSIONS.as_str(), &[&phone, &email, &(PERSON_LIMIT as i64)])
            .await?
            .iter()
            .map(submission_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PersonRecords { leads, submissions })
    }

    /// One statement, so one transaction: erase the leads, end their notifications, delete
    /// the submissions (their e-mails go by cascade), and an audit line per record.
    async fn erase_person(&self, person: &Person, a: NewAudit, now_ms: i64) -> Result<Erased, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        // First lock the person's notifications: a delivery outcome being recorded meanwhile
        // (whose trigger writes a delivery attempt, with its error) commits before the erasure
        // reads anything, so the erasure's statement sees that attempt and clears it; one
        // recorded after finds its notification gone and records nothing.
        // Aborted to break a deadlock (the funnel's daily rows, with the writer's group): the
        // whole transaction again.
        let row = super::retried_on_contention("erase", || async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            tx.execute(LOCK_PERSON_NOTIFICATIONS, &[&phone]).await?;
            let row = tx
                .query_one(ERASE_PERSON.as_str(), &[&phone, &email, &now_ms, &a.staff_id, &a.ip, &a.detail])
                .await?;
            tx.commit().await?;
            Ok(row)
        })
        .await?;
        Ok(Erased {
            leads: row.get(0),
            submissions: row.get(1),
        })
    }
}

impl PgStore {
    async fn list_query(&self, sql: &str, params: Vec<Param>) -> Result<Vec<LeadRow>, StoreError> {
        let boxed: Vec<Box<dyn ToSql + Sync + Send>> = params
            .into_iter()
            .map(|p| -> Box<dyn ToSql + Sync + Send> {
                match p {
                    Param::Text(s) => Box::new(s),
                    Param::Int(i) => Box::new(i),
                }
            })
            .collect();
        let refs: Vec<&(dyn ToSql + Sync)> = boxed.iter().map(|b| b.as_ref() as &(dyn ToSql + Sync)).collect();
        let rows = self.client().await?.query(sql, &refs).await?;
        Ok(rows
            .iter()
            .map(|r| LeadRow {
                id: r.get(0),
                received_at_ms: r.get(1),
                delivery_status: r.get(2),
                fields: (ROW_HEAD.len()..ROW_HEAD.len() + exported().count()).map(|i| r.get(i)).collect(),
            })
            .collect())
    }
}
