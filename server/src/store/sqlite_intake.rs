//! SQLite: submissions (account requests, campaign applications) and their e-mails.

use rusqlite::{OptionalExtension, Row, params};

use super::erasure::{Erased, PERSON_LIMIT, Person, PersonLead, PersonRecords, erase_lead_set, lead_tables};
use super::intake::{data_text, data_value};
use super::review::SubmissionFilter;
use super::sqlite::SqliteStore;
use super::sqlite_staff::insert_audit;
use super::{
    DUPLICATE_WINDOW_MS, Mail, MailCounts, MailItem, NewAudit, NewSubmission, StoreError, SubmissionKind, SubmissionRecord, Submitted,
    new_lead_id,
};

const SUBMISSION_COLUMNS: &str = "id, kind, received_at_ms, email, phone, data, ip, user_agent, page_url, status, note";

impl SqliteStore {
    pub async fn submit_form(&self, sub: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError> {
        self.write(move |conn| {
            let earlier: Option<String> = conn
                .prepare_cached(
                    "SELECT id FROM submissions WHERE dedupe_key = ?1 AND received_at_ms >= ?2 ORDER BY received_at_ms LIMIT 1",
                )?
                .query_row(params![sub.dedupe_key, now_ms - DUPLICATE_WINDOW_MS], |r| r.get(0))
                .optional()?;
            if let Some(id) = earlier {
                return Ok(Submitted { id, duplicate: true });
            }
            let id = new_lead_id();
            let c = &sub.context;
            conn.prepare_cached(
                "INSERT INTO submissions (id, kind, received_at_ms, dedupe_key, email, phone, data, ip, user_agent, page_url) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                id,
                sub.kind.as_str(),
                now_ms,
                sub.dedupe_key,
                sub.email.to_lowercase(),
                sub.phone,
                data_text(&sub.data),
                c.ip,
                c.user_agent,
                c.page_url
            ])?;
            if let Some(mail) = mail {
                conn.prepare_cached(
                    "INSERT INTO mail_outbox (submission_id, subject, body, status, attempts, next_attempt_ms, created_ms) \
                     VALUES (?1, ?2, ?3, 'pending', 0, ?4, ?4)",
                )?
                .execute(params![id, mail.subject, mail.body, now_ms])?;
            }
            Ok(Submitted { id, duplicate: false })
        })
        .await
    }

    pub async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            conn.prepare_cached(&format!("SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE id = ?1"))?
                .query_row(params![id], submission_from_row)
                .optional()
        })
        .await
    }

    pub async fn claim_due_mail(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<MailItem>, StoreError> {
        self.write(move |conn| {
            let mut stmt = conn.prepare_cached(
                "UPDATE mail_outbox SET locked_until_ms = ?1 WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'pending' \
                 AND next_attempt_ms <= ?2 AND locked_until_ms <= ?2 ORDER BY next_attempt_ms, id LIMIT ?3) \
                 RETURNING id, submission_id, created_ms, subject, body, attempts, COALESCE(retry_from_ms, created_ms)",
            )?;
            let rows = stmt.query_map(params![now_ms + lease_ms, now_ms, limit as i64], |r| {
                Ok(MailItem {
                    id: r.get(0)?,
                    submission_id: r.get(1)?,
                    received_at_ms: r.get(2)?,
                    subject: r.get(3)?,
                    body: r.get(4)?,
                    attempts: r.get(5)?,
                    since_ms: r.get(6)?,
                })
            })?;
            rows.collect()
        })
        .await
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
        self.write(move |conn| {
            conn.prepare_cached(
                "UPDATE mail_outbox SET status = ?2, attempts = ?3, delivered_ms = ?4, \
                 next_attempt_ms = CASE WHEN ?2 = 'pending' THEN ?5 ELSE next_attempt_ms END, locked_until_ms = 0, last_error = ?6 WHERE id = ?1",
            )?
            .execute(params![id, status, attempts, delivered_ms, next_ms, error])?;
            Ok(())
        })
        .await
    }

    pub async fn mail_counts(&self) -> Result<MailCounts, StoreError> {
        self.read(|conn| {
            let mut counts = MailCounts::default();
            let mut stmt = conn.prepare_cached("SELECT status, COUNT(*) FROM mail_outbox GROUP BY status")?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
            for row in rows {
                let (status, n) = row?;
                counts.set(&status, n);
            }
            Ok(counts)
        })
        .await
    }
}

impl SqliteStore {
    pub async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError> {
        let kind = filter.kind.as_str();
        let status = filter.status.clone();
        let (before_ms, before_id) = match &filter.before {
            Some((ms, id)) => (Some(*ms), Some(id.clone())),
            None => (None, None),
        };
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE kind = ?1 AND (?2 IS NULL OR status = ?2) \
                 AND (?3 IS NULL OR (received_at_ms, id) < (?3, ?4)) ORDER BY received_at_ms DESC, id DESC LIMIT ?5"
            ))?;
            let rows = stmt.query_map(params![kind, status, before_ms, before_id, limit as i64], submission_from_row)?;
            rows.collect()
        })
        .await
    }

    pub async fn review_submission(
        &self,
        id: &str,
        status: &str,
        note: Option<&str>,
        audit: NewAudit,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, status, note) = (id.to_string(), status.to_string(), note.map(str::to_string));
        self.write(move |conn| {
            let changed = conn
                .prepare_cached("UPDATE submissions SET status = ?2, note = ?3 WHERE id = ?1")?
                .execute(params![id, status, note])?;
            if changed == 1 {
                insert_audit(conn, &audit, now_ms)?;
            }
            Ok(changed == 1)
        })
        .await
    }
}

impl SqliteStore {
    pub async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        self.read(move |conn| {
            let leads = conn
                .prepare_cached(
                    "SELECT id, received_at_ms, service_slug, full_name, erased_ms FROM leads WHERE ?1 IS NOT NULL AND phone_e164 = ?1 \
                     ORDER BY received_at_ms DESC, id DESC LIMIT ?2",
                )?
                .query_map(params![phone, PERSON_LIMIT as i64], |r| {
                    Ok(PersonLead {
                        id: r.get(0)?,
                        received_at_ms: r.get(1)?,
                        service_slug: r.get(2)?,
                        full_name: r.get(3)?,
                        erased_ms: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let submissions = conn
                .prepare_cached(&format!(
                    "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE (?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email = ?2) \
                     ORDER BY received_at_ms DESC, id DESC LIMIT ?3"
                ))?
                .query_map(params![phone, email, PERSON_LIMIT as i64], submission_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(PersonRecords { leads, submissions })
        })
        .await
    }

    pub async fn erase_person(&self, person: &Person, audit: NewAudit, now_ms: i64) -> Result<Erased, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        self.write(move |conn| {
            let leads = conn
                .prepare_cached("SELECT id FROM leads WHERE ?1 IS NOT NULL AND phone_e164 = ?1 AND erased_ms IS NULL")?
                .query_map(params![phone], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            for id in &leads {
                conn.prepare_cached(&format!("UPDATE leads SET {}, erased_ms = ?2 WHERE id = ?1", erase_lead_set()))?
                    .execute(params![id, now_ms])?;
                // Its notifications end: the undelivered ones go (one being sent now finds
                // its row gone), the rest keep no error text.
                for (t, key) in lead_tables() {
                    if let Some(rows) = t.deleted_rows {
                        conn.prepare_cached(&format!("DELETE FROM {} WHERE {key} = ?1 AND {rows}", t.table))?
                            .execute(params![id])?;
                    }
                    let set = t.clear_set();
                    if !set.is_empty() {
                        conn.prepare_cached(&format!("UPDATE {} SET {set} WHERE {key} = ?1", t.table))?
                            .execute(params![id])?;
                    }
                }
                let line = NewAudit {
                    action: "erase",
                    target: Some(format!("lead:{id}")),
                    ..audit.clone()
                };
                insert_audit(conn, &line, now_ms)?;
            }
            let subs = conn
                .prepare_cached("SELECT id FROM submissions WHERE (?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email = ?2)")?
                .query_map(params![phone, email], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            for id in &subs {
                conn.prepare_cached("DELETE FROM mail_outbox WHERE submission_id = ?1")?
                    .execute(params![id])?;
                conn.prepare_cached("DELETE FROM submissions WHERE id = ?1")?.execute(params![id])?;
                let line = NewAudit {
                    action: "delete",
                    target: Some(format!("submission:{id}")),
                    ..audit.clone()
                };
                insert_audit(conn, &line, now_ms)?;
            }
            Ok(Erased {
                leads: leads.len() as i64,
                submissions: subs.len() as i64,
            })
        })
        .await
    }
}

fn submission_from_row(r: &Row<'_>) -> rusqlite::Result<SubmissionRecord> {
    let kind: String = r.get(1)?;
    let kind = SubmissionKind::parse(&kind).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, format!("unknown submission kind {kind:?}").into())
    })?;
    Ok(SubmissionRecord {
        id: r.get(0)?,
        kind,
        received_at_ms: r.get(2)?,
        email: r.get(3)?,
        phone: r.get(4)?,
        data: data_value(r.get(5)?),
        ip: r.get(6)?,
        user_agent: r.get(7)?,
        page_url: r.get(8)?,
        status: r.get(9)?,
        note: r.get(10)?,
    })
}
