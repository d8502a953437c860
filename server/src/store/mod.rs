//! Durable storage for leads, consent records, certificate tokens and the notification
//! outbox: SQLite (embedded default) or PostgreSQL (shared by several servers).
//!
//! Writes from requests go through one writer per process that commits them in groups:
//! each request waits until the transaction holding its row is durable, but many requests
//! share one fsync. See docs/decisions/002-group-commit.md.

mod console;
mod erasure;
mod funnel;
pub mod migrations;
pub mod postgres;
pub mod sqlite;
mod staff;
mod submissions;
mod suppressions;

pub use console::{AttemptRecord, DELIVERY_STATUSES, DeliveryRecord, LeadDetail, LeadFilter, LeadRow, RetryOutcome};
pub use erasure::{ERASURE, Erased, Fate, PERSON_LIMIT, Person, PersonLead, PersonRecords, TableErasure};
pub use funnel::{FAST_MS, FunnelKind, FunnelRow, SlowDelivery, ZoneOffsets};
pub use staff::{AuditEntry, NewAudit, NewSession, SessionRecord, StaffAccount, StaffLogin, UNLOCK_ACTION};
pub use submissions::{
    Mail, MailCounts, MailItem, NewSubmission, SUBMISSION_STATUSES, SubmissionFilter, SubmissionKind, SubmissionRecord, dedupe_key,
};
pub use suppressions::{Listed, Suppression, masked};

use serde::Serialize;
use thiserror::Error;

use crate::leads::{NewLead, TokenRecord};

/// A second submission of the same phone for the same service within this window gets the
/// first lead's id back and no second notification.
pub const DUPLICATE_WINDOW_MS: i64 = 10 * 60 * 1000;
/// Most operations the writer commits in one transaction.
pub const MAX_BATCH: usize = 512;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("the store's writer has stopped")]
    WriterStopped,
    #[error("migration {version}: {message}")]
    Migration { version: u32, message: String },
    #[error("bad database URL: {0}")]
    Url(String),
    #[error(
        "the database is at schema version {database} ({name}, applied by {applied_by}), newer than this binary's: \
         {binary_site} knows schema versions up to {binary}. Nothing was written. Start the newer binary again, or \
         restore the backup taken before the upgrade (docs/operations.md, \"Upgrade and rollback\")"
    )]
    SchemaTooNew {
        database: i64,
        name: String,
        applied_by: String,
        binary: u32,
        binary_site: String,
    },
    #[error(
        "migration {version:04} ({name}) was applied with checksum {recorded}…, but this binary's copy has {ours}…: \
         its SQL changed after it was applied. Nothing was written; run the binary that applied it"
    )]
    MigrationChanged {
        version: u32,
        name: String,
        recorded: String,
        ours: String,
    },
    #[error("backup: {0}")]
    Backup(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        // The plain Display says only "db error"; the server's own message says what.
        match e.as_db_error() {
            Some(db) => StoreError::Database(format!("{} ({})", db.message(), db.code().code())),
            None => StoreError::Database(e.to_string()),
        }
    }
}

/// How a lead is passed on to the people who call it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Email,
    Webhook,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Webhook => "webhook",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "email" => Some(Channel::Email),
            "webhook" => Some(Channel::Webhook),
            _ => None,
        }
    }
}

/// The answer to a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub id: String,
    /// True when this was a repeat within the window: `id` is the first lead's.
    pub duplicate: bool,
}

/// A stored lead, as notifications and audits read it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeadRecord {
    pub id: String,
    pub received_at_ms: i64,
    pub service_slug: String,
    pub full_name: String,
    pub phone: String,
    pub zip_code: Option<String>,
    pub consent: bool,
    pub consent_text: String,
    pub consent_sha256: String,
    pub cert_url: Option<String>,
    pub cert_token: Option<String>,
    pub cert_ping_url: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub referrer: Option<String>,
    /// The Referer header the server saw (the page sends its own `page_url` and `referrer`).
    pub seen_referer: Option<String>,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_term: Option<String>,
    pub utm_content: Option<String>,
}

/// A notification that is due, leased to this worker for a while.
#[derive(Debug, Clone)]
pub struct OutboxItem {
    pub id: i64,
    pub channel: Channel,
    pub attempts: u32,
    /// When the current delivery effort began (creation, or the last `site outbox retry`).
    pub since_ms: i64,
    pub lead: LeadRecord,
}

/// The undelivered part of an outbox, for /metrics: read from the rows that are not
/// delivered only (an index range), never by counting the whole table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxSummary {
    pub pending: i64,
    pub failed: i64,
    /// Creation time of the oldest notification not yet delivered (pending or failed).
    pub oldest_undelivered_ms: Option<i64>,
}

impl OutboxSummary {
    /// Records one row of `SELECT status, COUNT(*), MIN(created_ms) … GROUP BY status`.
    fn add(&mut self, status: &str, n: i64, oldest: Option<i64>) {
        match status {
            "pending" => self.pending = n,
            "failed" => self.failed = n,
            _ => return,
        }
        self.oldest_undelivered_ms = match (self.oldest_undelivered_ms, oldest) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// Delivery attempts of lead notifications in a period, for one channel and outcome
/// ("delivered", "retry", "failed").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryCount {
    pub channel: String,
    pub outcome: String,
    pub count: i64,
}

/// The outboxes the worker delivers from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outbox {
    /// Lead notifications (`outbox`: e-mail and webhook).
    Leads,
    /// E-mails about account requests and campaign applications (`mail_outbox`).
    Mail,
}

impl Outbox {
    pub const ALL: [Outbox; 2] = [Outbox::Leads, Outbox::Mail];

    /// Its name in /metrics and in `site outbox retry`.
    pub fn name(self) -> &'static str {
        match self {
            Outbox::Leads => "leads",
            Outbox::Mail => "mail",
        }
    }

    /// Its table and the column naming the record a row is about.
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Outbox::Leads => ("outbox", "lead_id"),
            Outbox::Mail => ("mail_outbox", "submission_id"),
        }
    }

    /// The condition (on a row of its table, named by the table) under which a notification
    /// may be sent: its lead is neither erased nor a number on the do-not-call list. A
    /// submission's e-mails are deleted with it, so any row left may go.
    fn sendable(self) -> &'static str {
        match self {
            Outbox::Leads => {
                "EXISTS (SELECT 1 FROM leads l WHERE l.id = outbox.lead_id AND l.erased_ms IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.phone_e164 = l.phone_e164))"
            }
            Outbox::Mail => "TRUE",
        }
    }
}

/// One outbox row as operators see it (`site outbox retry` lists the failed ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    /// The lead (or, in the mail outbox, the submission) it is about.
    pub record_id: String,
    pub channel: String,
    pub status: String,
    pub attempts: i64,
    pub created_ms: i64,
    pub last_error: Option<String>,
}

/// Which failed notifications `Store::retry_failed` sends again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryScope {
    All,
    One(i64),
}

/// What `Store::retry_failed` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Retried {
    /// Made pending again, due now.
    pub sent: u64,
    /// Not sent: the number is on the do-not-call list now, so they are marked suppressed.
    pub suppressed: u64,
}

/// Counts of outbox rows by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxCounts {
    pub pending: i64,
    pub delivered: i64,
    pub failed: i64,
}

impl OutboxCounts {
    /// Records the count of one status row of `SELECT status, COUNT(*) … GROUP BY status`.
    fn set(&mut self, status: &str, n: i64) {
        match status {
            "pending" => self.pending = n,
            "delivered" => self.delivered = n,
            "failed" => self.failed = n,
            _ => {}
        }
    }
}

// One per process, shared behind an Arc: the variants' difference in size costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Store {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PgStore),
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            Store::Sqlite($s) => $e,
            Store::Postgres($s) => $e,
        }
    };
}

impl Store {
    /// Opens the database named by `url` (sqlite:PATH or postgres://…) and applies migrations.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_with(url, None).await
    }

    /// As `open`, and when migrations are due on an existing SQLite database and
    /// `backup_dir` is set, first writes a checked backup there (`pre-migration-…​.db`).
    pub async fn open_with(url: &str, backup_dir: Option<&std::path::Path>) -> Result<Self, StoreError> {
        if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
            Ok(Store::Sqlite(
                sqlite::SqliteStore::open_with(std::path::Path::new(path), backup_dir).await?,
            ))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Store::Postgres(postgres::PgStore::connect(url, None).await?))
        } else {
            Err(StoreError::Url("use sqlite:PATH or postgres://…".into()))
        }
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Stores a lead and one outbox row per channel in one durable transaction, unless the
    /// same phone asked about the same service within the window.
    pub async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError> {
        dispatch!(self, s => s.submit_lead(lead, channels, now_ms).await)
    }

    /// Records a certificate token: inserts it, or fills the fields its record lacks (a
    /// record is never overwritten, whoever sends the token again).
    pub async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_token(record, now_ms).await)
    }

    /// Leases up to `limit` due notifications for `lease_ms`. In the same transaction, due
    /// notifications whose lead's number is on the do-not-call list are marked suppressed
    /// instead, and none of an erased lead is ever returned: the list and erasure bind at
    /// delivery (docs/decisions/011).
    pub async fn claim_due(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<OutboxItem>, StoreError> {
        dispatch!(self, s => s.claim_due(now_ms, lease_ms, limit).await)
    }

    /// The outcome of a delivery is recorded only while the notification is still pending: one
    /// suppressed meanwhile stays suppressed (unless it did go out: then it is delivered), one
    /// erased meanwhile is gone.
    pub async fn mark_delivered(&self, id: i64, attempts: u32, now_ms: i64) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish(id, "delivered", attempts, Some(now_ms), 0, None).await)
    }

    pub async fn mark_retry(&self, id: i64, attempts: u32, next_ms: i64, error: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish(id, "pending", attempts, None, next_ms, Some(error.to_string())).await)
    }

    pub async fn mark_failed(&self, id: i64, attempts: u32, error: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish(id, "failed", attempts, None, 0, Some(error.to_string())).await)
    }

    pub async fn outbox_counts(&self) -> Result<OutboxCounts, StoreError> {
        dispatch!(self, s => s.outbox_counts().await)
    }

    /// An outbox's pending and failed counts and its oldest undelivered notification, read
    /// from the undelivered rows only.
    pub async fn outbox_summary(&self, outbox: Outbox) -> Result<OutboxSummary, StoreError> {
        let (table, _) = outbox.table();
        dispatch!(self, s => s.outbox_summary(table).await)
    }

    /// Delivery attempts of lead notifications at or after `since_ms`, by channel and
    /// outcome (an index range over their time).
    pub async fn deliveries_since(&self, since_ms: i64) -> Result<Vec<DeliveryCount>, StoreError> {
        dispatch!(self, s => s.deliveries_since(since_ms).await)
    }

    /// An outbox's rows with `status` ("pending", "failed", "delivered"), oldest first, at most `limit`.
    pub async fn outbox_rows(&self, outbox: Outbox, status: &str, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        let (table, record) = outbox.table();
        dispatch!(self, s => s.outbox_rows(table, record, status.to_string(), limit).await)
    }

    /// Makes an outbox's failed notifications pending again, due now, with a fresh delivery
    /// effort (another full retry period), in one transaction that checks the do-not-call list
    /// and erasure: a lead's notification whose number is listed now is marked suppressed
    /// instead, and one of an erased lead is never sent.
    pub async fn retry_failed(&self, outbox: Outbox, scope: RetryScope, now_ms: i64) -> Result<Retried, StoreError> {
        dispatch!(self, s => s.retry_failed(outbox, scope, now_ms).await)
    }

    /// False once the writer has stopped (closed, or its thread or task ended): writes would fail.
    pub fn writer_alive(&self) -> bool {
        dispatch!(self, s => s.writer_alive())
    }

    /// The earliest time a pending notification (lead or submission e-mail) is due, if any.
    pub async fn next_due_ms(&self) -> Result<Option<i64>, StoreError> {
        dispatch!(self, s => s.next_due_ms().await)
    }

    /// Deletes leads (with their outbox rows), certificate records and submissions received
    /// before `cutoff_ms`, and the staff audit lines written before it: an audit line is
    /// never written before the record it names was received, so it is kept at least as
    /// long as that record (and as long as the records, not forever).
    pub async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError> {
        dispatch!(self, s => s.purge_before(cutoff_ms).await)
    }

    pub async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        dispatch!(self, s => s.lead(id).await)
    }

    pub async fn count_leads(&self) -> Result<i64, StoreError> {
        dispatch!(self, s => s.count_leads().await)
    }

    pub async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        dispatch!(self, s => s.token(token).await)
    }

    /// Stores a submission (account request, campaign application) and, unless `mail` is
    /// None, its e-mail to the notification recipients, in one durable transaction; a
    /// repeat of the same `dedupe_key` within the window gets the first id and no e-mail.
    pub async fn submit_form(&self, submission: NewSubmission, mail: Option<Mail>, now_ms: i64) -> Result<Submitted, StoreError> {
        dispatch!(self, s => s.submit_form(submission, mail, now_ms).await)
    }

    pub async fn submission(&self, id: &str) -> Result<Option<SubmissionRecord>, StoreError> {
        dispatch!(self, s => s.submission(id).await)
    }

    /// Leases up to `limit` due submission e-mails for `lease_ms`.
    pub async fn claim_due_mail(&self, now_ms: i64, lease_ms: i64, limit: usize) -> Result<Vec<MailItem>, StoreError> {
        dispatch!(self, s => s.claim_due_mail(now_ms, lease_ms, limit).await)
    }

    pub async fn mark_mail_delivered(&self, id: i64, attempts: u32, now_ms: i64) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish_mail(id, "delivered", attempts, Some(now_ms), 0, None).await)
    }

    pub async fn mark_mail_retry(&self, id: i64, attempts: u32, next_ms: i64, error: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish_mail(id, "pending", attempts, None, next_ms, Some(error.to_string())).await)
    }

    pub async fn mark_mail_failed(&self, id: i64, attempts: u32, error: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish_mail(id, "failed", attempts, None, 0, Some(error.to_string())).await)
    }

    pub async fn mail_counts(&self) -> Result<MailCounts, StoreError> {
        dispatch!(self, s => s.mail_counts().await)
    }

    /// Waits until every write handed to the writer is committed, then stops it.
    pub async fn close(&self) {
        dispatch!(self, s => s.close().await)
    }
}

/// A new time-ordered lead id.
pub fn new_lead_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Milliseconds since the Unix epoch, UTC.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
