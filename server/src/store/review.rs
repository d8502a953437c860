//! What the staff console reads and changes of submissions (account requests, campaign
//! applications): a kind's list (newest first, keyset pages, optionally one status) and the
//! status and note staff set, audited in the same transaction.

use super::{NewAudit, Store, StoreError, SubmissionKind, SubmissionRecord};

/// The statuses staff can give a submission; new ones start as the first.
pub const SUBMISSION_STATUSES: [&str; 4] = ["new", "contacted", "approved", "rejected"];

/// One page of a kind's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionFilter {
    pub kind: SubmissionKind,
    /// One of [`SUBMISSION_STATUSES`].
    pub status: Option<String>,
    /// Keyset cursor: rows strictly older than this (received_at_ms, id).
    pub before: Option<(i64, String)>,
}

impl Store {
    /// Submissions matching `filter`, newest first, at most `limit`.
    pub async fn list_submissions(&self, filter: &SubmissionFilter, limit: usize) -> Result<Vec<SubmissionRecord>, StoreError> {
        match self {
            Store::Sqlite(s) => s.list_submissions(filter, limit).await,
            Store::Postgres(s) => s.list_submissions(filter, limit).await,
        }
    }

    /// Sets a submission's status and note, writing `audit` in the same transaction. False
    /// when there is no such submission.
    pub async fn review_submission(
        &self,
        id: &str,
        status: &str,
        note: Option<&str>,
        audit: NewAudit,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.review_submission(id, status, note, audit, now_ms).await,
            Store::Postgres(s) => s.review_submission(id, status, note, audit, now_ms).await,
        }
    }
}
