//! PostgreSQL: submissions besides leads (account requests, campaign applications), stored
//! with their e-mail through the writer's group transaction (an `Op::Form`), and the
//! console's list and review of them.

use async_trait::async_trait;
use tokio::sync::oneshot;
use tokio_postgres::{GenericClient, Row};

use super::PgStore;
use super::queue::Op;
use crate::store::backend::Submissions;
use crate::store::sql::{self, AUDIT_INSERT_INTO, SUBMISSION_COLUMNS, statements};
use crate::store::submissions::{SubmissionFilter, data_text, data_value};
use crate::store::{
    DUPLICATE_WINDOW_MS, Mail, NewAudit, NewSubmission, StoreError, SubmissionKind, SubmissionRecord, Submitted, new_lead_id,
};

statements! {
    /// The submissions of the kind `$1` (and status `$2`, when given) below the cursor (`$3`,
    /// `$4`), newest first, `$5` of them.
    LIST_SUBMISSIONS = built format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE kind = $1 AND ($2::TEXT IS NULL OR status = $2) \
         AND ($3::BIGINT IS NULL OR (received_at_ms, id) < ($3, $4::TEXT)) ORDER BY received_at_ms DESC, id DESC LIMIT $5"
    );
    /// The submission `$1` reviewed (its status `$2` and note `$3`) with its audit line at
    /// `$4` (staff `$5`, action `$6`, target `$7`, address `$8`, detail `$9`).
    REVIEW_SUBMISSION = built format!(
        "WITH u AS (UPDATE submissions SET status = $2, note = $3 WHERE id = $1 RETURNING 1), \
         a AS ({AUDIT_INSERT_INTO} SELECT $4, $5, $6, $7, $8, $9 FROM u RETURNING 1) \
         SELECT COUNT(*) FROM a"
    );
    /// Takes the advisory lock of the dedupe key `$1` until the transaction ends.
    LOCK_DEDUPE_KEY = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";
}

#[async_trait]
impl Submissions for PgStore {
    async fn submit_form(&self, submission: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Op::Form {
            dedupe_key: submission.dedupe_key(),
            submission: Box::new(submission),
            mail,
            now_ms,
            reply,
        })
        .await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError> {
        let row = self.client().await?.query_opt(sql::SUBMISSION.pg, &[&id]).await?;
        row.as_ref().map(submission_from_row).transpose()
    }

    async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError> {
        let (before_ms, before_id) = match &filter.before {
            Some((ms, id)) => (Some(*ms), Some(id.clone())),
            None => (None, None),
        };
        let rows = self
            .client()
            .await?
            .query(
                LIST_SUBMISSIONS.as_str(),
                &[&filter.kind.as_str(), &filter.status, &before_ms, &before_id, &(limit as i64)],
            )
            .await?;
        rows.iter().map(submission_from_row).collect()
    }

    async fn review_submission(&self, id: &str, status: &str, note: Option<&str>, a: NewAudit, now_ms: i64) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                REVIEW_SUBMISSION.as_str(),
                &[&id, &status, &note, &now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
            )
            .await?;
        Ok(row.get::<_, i64>(0) == 1)
    }
}

/// Inserts a submission (whose [`NewSubmission::dedupe_key`] is `dedupe_key`) and its e-mail
/// inside the writer's transaction. The advisory lock on the dedupe key makes the repeat
/// check atomic across servers sharing the database.
pub(super) async fn insert_submission(
    tx: &impl GenericClient,
    sub: &NewSubmission,
    dedupe_key: &str,
    mail: Option<&Mail>,
    now_ms: i64,
) -> Result<Submitted, StoreError> {
    tx.execute(LOCK_DEDUPE_KEY, &[&dedupe_key]).await?;
    let earlier = tx
        .query_opt(sql::EARLIER_SUBMISSION.pg, &[&dedupe_key, &(now_ms - DUPLICATE_WINDOW_MS)])
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
        sql::INSERT_SUBMISSION.pg,
        &[
            &id,
            &sub.kind.as_str(),
            &now_ms,
            &dedupe_key,
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
        tx.execute(sql::INSERT_MAIL.pg, &[&id, &mail.subject, &mail.body, &now_ms]).await?;
    }
    Ok(Submitted { id, duplicate: false })
}

pub(super) fn submission_from_row(r: &Row) -> Result<SubmissionRecord, StoreError> {
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
