//! SQLite: submissions besides leads (account requests, campaign applications), stored with
//! their e-mail in one transaction, and the console's list and review of them.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, Row, params};

use super::SqliteStore;
use super::staff::insert_audit;
use crate::store::backend::Submissions;
use crate::store::sql::{self, SUBMISSION_COLUMNS, statements};
use crate::store::submissions::{SubmissionFilter, data_text, data_value};
use crate::store::{
    DUPLICATE_WINDOW_MS, Mail, NewAudit, NewSubmission, StoreError, SubmissionKind, SubmissionRecord, Submitted, new_lead_id,
};

statements! {
    /// The submissions of the kind `?1` (and status `?2`, when given) below the cursor (`?3`,
    /// `?4`), newest first, `?5` of them.
    LIST_SUBMISSIONS = built format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE kind = ?1 AND (?2 IS NULL OR status = ?2) \
         AND (?3 IS NULL OR (received_at_ms, id) < (?3, ?4)) ORDER BY received_at_ms DESC, id DESC LIMIT ?5"
    );
    /// The submission `?1` reviewed: its status `?2` and note `?3`.
    REVIEW_SUBMISSION = "UPDATE submissions SET status = ?2, note = ?3 WHERE id = ?1";
}

#[async_trait]
impl Submissions for SqliteStore {
    async fn submit_form(&self, sub: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError> {
        let dedupe_key = sub.dedupe_key();
        self.write(move |conn| {
            let earlier: Option<String> = conn
                .prepare_cached(sql::EARLIER_SUBMISSION.sqlite)?
                .query_row(params![dedupe_key, now_ms - DUPLICATE_WINDOW_MS], |r| r.get(0))
                .optional()?;
            if let Some(id) = earlier {
                return Ok(Submitted { id, duplicate: true });
            }
            let id = new_lead_id();
            let c = &sub.context;
            conn.prepare_cached(sql::INSERT_SUBMISSION.sqlite)?.execute(params![
                id,
                sub.kind.as_str(),
                now_ms,
                dedupe_key,
                sub.email.to_lowercase(),
                sub.phone,
                data_text(&sub.data),
                c.ip,
                c.user_agent,
                c.page_url
            ])?;
            if let Some(mail) = mail {
                conn.prepare_cached(sql::INSERT_MAIL.sqlite)?
                    .execute(params![id, mail.subject, mail.body, now_ms])?;
            }
            Ok(Submitted { id, duplicate: false })
        })
        .await
    }

    async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            conn.prepare_cached(sql::SUBMISSION.sqlite)?
                .query_row(params![id], submission_from_row)
                .optional()
        })
        .await
    }

    async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError> {
        let kind = filter.kind.as_str();
        let status = filter.status.clone();
        let (before_ms, before_id) = match &filter.before {
            Some((ms, id)) => (Some(*ms), Some(id.clone())),
            None => (None, None),
        };
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&LIST_SUBMISSIONS)?;
            let rows = stmt.query_map(params![kind, status, before_ms, before_id, limit as i64], submission_from_row)?;
            rows.collect()
        })
        .await
    }

    async fn review_submission(
        &self,
        id: &str,
        status: &str,
        note: Option<&str>,
        audit: NewAudit,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, status, note) = (id.to_string(), status.to_string(), note.map(str::to_string));
        self.write(move |conn| {
            let changed = conn.prepare_cached(REVIEW_SUBMISSION)?.execute(params![id, status, note])?;
            if changed == 1 {
                insert_audit(conn, &audit, now_ms)?;
            }
            Ok(changed == 1)
        })
        .await
    }
}

pub(super) fn submission_from_row(r: &Row<'_>) -> rusqlite::Result<SubmissionRecord> {
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
