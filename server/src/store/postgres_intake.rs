//! PostgreSQL: submissions (account requests, campaign applications) and their e-mails.
//! Writes go through the shared writer (an `Op::Form` in its group transaction).

use tokio::sync::oneshot;
use tokio_postgres::{GenericClient, Row};

use super::erasure::{Erased, PERSON_LIMIT, Person, PersonLead, PersonRecords, erase_lead_set, lead_tables};
use super::intake::{data_text, data_value};
use super::postgres::{Op, PgStore};
use super::review::SubmissionFilter;
use super::{
    DUPLICATE_WINDOW_MS, Mail, MailCounts, MailItem, NewAudit, NewSubmission, StoreError, SubmissionKind, SubmissionRecord, Submitted,
    new_lead_id,
};

const SUBMISSION_COLUMNS: &str = "id, kind, received_at_ms, email, phone, data, ip, user_agent, page_url, status, note";

impl PgStore {
    pub async fn submit_form(&self, submission: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Form {
            submission: Box::new(submission),
            mail,
            now_ms,
            reply,
        })
        .await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    pub async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(&format!("SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE id = $1"), &[&id])
            .await?;
        row.as_ref().map(submission_from_row).transpose()
    }

    pub async fn claim_due_mail(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<MailItem>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "UPDATE mail_outbox SET locked_until_ms = $1 WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'pending' \
                 AND next_attempt_ms <= $2 AND locked_until_ms <= $2 ORDER BY next_attempt_ms, id LIMIT $3 FOR UPDATE SKIP LOCKED) \
                 RETURNING id, submission_id, created_ms, subject, body, attempts, COALESCE(retry_from_ms, created_ms)",
                &[&(now_ms + lease_ms), &now_ms, &(limit as i64)],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| MailItem {
                id: r.get(0),
                submission_id: r.get(1),
                received_at_ms: r.get(2),
                subject: r.get(3),
                body: r.get(4),
                attempts: r.get::<_, i64>(5) as u32,
                since_ms: r.get(6),
            })
            .collect())
    }

    pub async fn finish_mail(
        &self,
        id: i64,
        status: &'static str,
        attempts: u32,
        delivered_ms: Option<i64>,
        next_ms: i64,
        error: Option<String>,
    ) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "UPDATE mail_outbox SET status = $2, attempts = $3, delivered_ms = $4, \
                 next_attempt_ms = CASE WHEN $2 = 'pending' THEN $5 ELSE next_attempt_ms END, locked_until_ms = 0, last_error = $6 WHERE id = $1",
                &[&id, &status, &i64::from(attempts), &delivered_ms, &next_ms, &error],
            )
            .await?;
        Ok(())
    }

    pub async fn mail_counts(&self) -> Result<MailCounts, StoreError> {
        let mut counts = MailCounts::default();
        for row in self
            .client()
            .await?
            .query("SELECT status, COUNT(*) FROM mail_outbox GROUP BY status", &[])
            .await?
        {
            counts.set(row.get::<_, &str>(0), row.get(1));
        }
        Ok(counts)
    }
}

/// Inserts a submission and its e-mail inside the writer's transaction. The advisory lock
/// on the dedupe key makes the repeat check atomic across servers sharing the database.
pub(super) async fn insert_submission(
    tx: &impl GenericClient,
    sub: &NewSubmission,
    mail: Option<&Mail>,
    now_ms: i64,
) -> Result<Submitted, StoreError> {
    tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", &[&sub.dedupe_key])
        .await?;
    let earlier = tx
        .query_opt(
            "SELECT id FROM submissions WHERE dedupe_key = $1 AND received_at_ms >= $2 ORDER BY received_at_ms LIMIT 1",
            &[&sub.dedupe_key, &(now_ms - DUPLICATE_WINDOW_MS)],
        )
        .await?;
    if let Some(row) = earlier {
        return Ok(Submitted {
            id: row.get(0),
            duplicate: true,
        });
    }
    let id = new_lead_id();
    let c = &sub.context;
    tx.execute(
        "INSERT INTO submissions (id, kind, received_at_ms, dedupe_key, email, phone, data, ip, user_agent, page_url) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            &id,
            &sub.kind.as_str(),
            &now_ms,
            &sub.dedupe_key,
            &sub.email.to_lowercase(),
            &sub.phone,
            &data_text(&sub.data),
            &c.ip,
            &c.user_agent,
            &c.page_url,
        ],
    )
    .await?;
    if let Some(mail) = mail {
        tx.execute(
            "INSERT INTO mail_outbox (submission_id, subject, body, status, attempts, next_attempt_ms, created_ms) \
             VALUES ($1, $2, $3, 'pending', 0, $4, $4)",
            &[&id, &mail.subject, &mail.body, &now_ms],
        )
        .await?;
    }
    Ok(Submitted { id, duplicate: false })
}

impl PgStore {
    pub async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError> {
        let (before_ms, before_id) = match &filter.before {
            Some((ms, id)) => (Some(*ms), Some(id.clone())),
            None => (None, None),
        };
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE kind = $1 AND ($2::TEXT IS NULL OR status = $2) \
                     AND ($3::BIGINT IS NULL OR (received_at_ms, id) < ($3, $4::TEXT)) ORDER BY received_at_ms DESC, id DESC LIMIT $5"
                ),
                &[&filter.kind.as_str(), &filter.status, &before_ms, &before_id, &(limit as i64)],
            )
            .await?;
        rows.iter().map(submission_from_row).collect()
    }

    pub async fn review_submission(
        &self,
        id: &str,
        status: &str,
        note: Option<&str>,
        a: NewAudit,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                "WITH u AS (UPDATE submissions SET status = $2, note = $3 WHERE id = $1 RETURNING 1), \
                 a AS (INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail) SELECT $4, $5, $6, $7, $8, $9 FROM u RETURNING 1) \
                 SELECT COUNT(*) FROM a",
                &[&id, &status, &note, &now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
            )
            .await?;
        Ok(row.get::<_, i64>(0) == 1)
    }
}

impl PgStore {
    pub async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        let client = self.client().await?;
        let leads = client
            .query(
                "SELECT id, received_at_ms, service_slug, full_name, erased_ms FROM leads WHERE $1::TEXT IS NOT NULL AND phone_e164 = $1 \
                 ORDER BY received_at_ms DESC, id DESC LIMIT $2",
                &[&phone, &(PERSON_LIMIT as i64)],
            )
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
            .query(
                &format!(
                    "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE ($1::TEXT IS NOT NULL AND phone = $1) OR ($2::TEXT IS NOT NULL AND email = $2) \
                     ORDER BY received_at_ms DESC, id DESC LIMIT $3"
                ),
                &[&phone, &email, &(PERSON_LIMIT as i64)],
            )
            .await?
            .iter()
            .map(submission_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PersonRecords { leads, submissions })
    }

    /// One statement, so one transaction: erase the leads, end their notifications, delete
    /// the submissions (their e-mails go by cascade), and an audit line per record.
    pub async fn erase_person(&self, person: &Person, a: NewAudit, now_ms: i64) -> Result<Erased, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        let mut ctes = vec![format!(
            "l AS (UPDATE leads SET {}, erased_ms = $3::BIGINT WHERE $1::TEXT IS NOT NULL AND phone_e164 = $1 AND erased_ms IS NULL RETURNING id)",
            erase_lead_set()
        )];
        // Each sub-statement sees the rows as they were before the statement, so the rows
        // deleted and the rows cleared must not overlap.
        for (n, (t, key)) in lead_tables().enumerate() {
            let keep = match t.deleted_rows {
                Some(rows) => {
                    ctes.push(format!(
                        "d{n} AS (DELETE FROM {} WHERE {key} IN (SELECT id FROM l) AND {rows} RETURNING 1)",
                        t.table
                    ));
                    format!(" AND NOT ({rows})")
                }
                None => String::new(),
            };
            let set = t.clear_set();
            if !set.is_empty() {
                ctes.push(format!(
                    "c{n} AS (UPDATE {} SET {set} WHERE {key} IN (SELECT id FROM l){keep} RETURNING 1)",
                    t.table
                ));
            }
        }
        ctes.push(
            "s AS (DELETE FROM submissions WHERE ($1::TEXT IS NOT NULL AND phone = $1) OR ($2::TEXT IS NOT NULL AND email = $2) RETURNING id)"
                .into(),
        );
        ctes.push(
            "a AS (INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail) \
             SELECT $3::BIGINT, $4::BIGINT, 'erase', 'lead:' || id, $5::TEXT, $6::TEXT FROM l UNION ALL \
             SELECT $3::BIGINT, $4::BIGINT, 'delete', 'submission:' || id, $5::TEXT, $6::TEXT FROM s RETURNING 1)"
                .into(),
        );
        let sql = format!(
            "WITH {} SELECT (SELECT COUNT(*) FROM l), (SELECT COUNT(*) FROM s), (SELECT COUNT(*) FROM a)",
            ctes.join(", ")
        );
        let row = self
            .client()
            .await?
            .query_one(&sql, &[&phone, &email, &now_ms, &a.staff_id, &a.ip, &a.detail])
            .await?;
        Ok(Erased {
            leads: row.get(0),
            submissions: row.get(1),
        })
    }
}

fn submission_from_row(r: &Row) -> Result<SubmissionRecord, StoreError> {
    let kind: String = r.get(1);
    let kind = SubmissionKind::parse(&kind).ok_or_else(|| StoreError::Database(format!("unknown submission kind {kind:?}")))?;
    Ok(SubmissionRecord {
        id: r.get(0),
        kind,
        received_at_ms: r.get(2),
        email: r.get(3),
        phone: r.get(4),
        data: data_value(r.get(5)),
        ip: r.get(6),
        user_agent: r.get(7),
        page_url: r.get(8),
        status: r.get(9),
        note: r.get(10),
    })
}
