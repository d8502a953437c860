//! Durable storage for leads, consent records, certificate tokens, submissions, the staff
//! console's records and the notification outboxes: SQLite (embedded default) or
//! PostgreSQL (shared by several servers).
//!
//! One contract, two backends: `backend.rs` declares every operation, one trait per concern;
//! `sqlite/<concern>.rs` and `postgres/<concern>.rs` implement each (the compiler checks they
//! match), and [`Store`] hands every call to the backend it opened. The types both backends
//! share are in the files beside this one (docs/decisions/013-store-contract.md).
//!
//! Writes from requests go through one writer per process that commits them in groups:
//! each request waits until the transaction holding its row is durable, but many requests
//! share one fsync. See docs/decisions/002-group-commit.md.
//!
//! Beside this file: `sql/` (the statements both run word for word, those built at run
//! time, and the `statements!` lists each backend file declares its own in,
//! docs/decisions/015), `migrations.rs`, `lead_fields.rs` (`LEAD_FIELDS`, a lead's fields
//! declared once), `erasure.rs` (`ERASURE`) and `seed.rs` (`SeedPlan`); each file says what
//! it holds.

mod assets;
pub mod backend;
mod campaigns;
mod console;
mod erasure;
mod funnel;
pub mod lead_fields;
mod leads;
mod limits;
pub mod migrations;
mod outbox;
pub mod postgres;
mod seed;
pub mod sql;
pub mod sqlite;
mod staff;
mod submissions;
mod suppressions;

pub use assets::{AssetRelease, KEEP_RELEASES, RecordedAsset};
pub use backend::Backend;
pub use campaigns::{
    CAMPAIGN_STATUSES, CampaignChange, CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved, changes as campaign_changes,
};
pub use console::{AttemptRecord, DELIVERY_STATUSES, DeliveryRecord, LeadDetail, LeadFilter, LeadRow, RetryOutcome};
pub use erasure::{ERASURE, Erased, Fate, PERSON_LIMIT, Person, PersonLead, PersonRecords, TableErasure};
pub use funnel::{
    FAST_MS, FunnelKind, FunnelRow, FunnelState, RecountHeld, RecountHold, SlowDelivery, Source, VISITOR_SOURCE_PREFIX, ZoneOffsets,
    new_lead_source_key,
};
pub use leads::{Channel, LeadRecord, Submitted};
pub use limits::{LIMIT_WINDOW_MS, LimitKey, LoginRules, Reserved, Verdict};
pub use outbox::{Attempt, DeliveryCount, Notice, Outbox, OutboxCounts, OutboxItem, OutboxRow, OutboxSummary, Retried, RetryScope};
pub use seed::{
    SEED_CONSENT_SHA256, SEED_CONSENT_TEXT, SEED_FAILED_EVERY, SEED_FIRST_NAMES, SEED_LAST_NAMES, SEED_MAX_LEADS, SEED_PENDING_EVERY,
    SEED_SUPPRESSED_EVERY, SeedPlan, Seeded,
};
pub use staff::{AuditEntry, NewAudit, NewSession, SessionRecord, StaffAccount, StaffLogin, UNLOCK_ACTION};
pub use submissions::{Mail, NewSubmission, SUBMISSION_STATUSES, SubmissionFilter, SubmissionKind, SubmissionRecord};
pub use suppressions::{Listed, Suppression, masked};

use thiserror::Error;

/// A second submission of the same phone for the same service within this window gets the
/// first lead's id back and no second notification.
pub const DUPLICATE_WINDOW_MS: i64 = 10 * 60 * 1000;
/// Most operations the writer commits in one transaction.
pub const MAX_BATCH: usize = 512;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    /// PostgreSQL aborted the transaction to break a deadlock or a serialization conflict
    /// with another one: the same transaction, run again, can succeed.
    #[error("database: {0}")]
    Contention(String),
    #[error("the store's writer has stopped")]
    WriterStopped,
    #[error("migration {version}: {message}")]
    Migration { version: u32, message: String },
    #[error("bad database URL: {0}")]
    Url(String),
    #[error(
        "the database is at schema version {database} ({name}, applied by {applied_by}), newer than this binary's: \
         {binary_site} knows schema versions up to {binary}, and migration {blocking} ({blocking_name}) is not marked \
         compatible with it (it needs a binary that knows version {needs} or newer). Nothing was written. Start the \
         newer binary again, or restore the backup taken before the upgrade (docs/operations.md, \"Upgrade and rollback\")",
        binary_site = migrations::applied_by()
    )]
    SchemaTooNew {
        database: i64,
        name: String,
        applied_by: String,
        binary: u32,
        /// The first migration this binary does not know that is not marked compatible with it.
        blocking: i64,
        blocking_name: String,
        /// The schema version that migration needs a binary to know.
        needs: i64,
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
        // The plain Display says only "db error"; the server's own message says what. Other
        // kinds name only the kind ("authentication error", "error performing TLS handshake"):
        // the cause says why (a refused certificate, "server did not use channel binding").
        match (e.as_db_error(), std::error::Error::source(&e)) {
            (Some(db), _) => {
                let message = format!("{} ({})", db.message(), db.code().code());
                let code = db.code();
                if *code == tokio_postgres::error::SqlState::T_R_DEADLOCK_DETECTED
                    || *code == tokio_postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
                {
                    StoreError::Contention(message)
                } else {
                    StoreError::Database(message)
                }
            }
            (None, Some(cause)) => StoreError::Database(format!("{e}: {cause}")),
            (None, None) => StoreError::Database(e.to_string()),
        }
    }
}

/// The open database. Every operation is a method of [`Backend`] (`backend.rs`), reached
/// through `Deref`: `store.submit_lead(…)` runs the open backend's.
// One per process, shared behind an Arc: the variants' difference in size costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Store {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PgStore),
}

impl std::ops::Deref for Store {
    type Target = dyn Backend;

    fn deref(&self) -> &Self::Target {
        match self {
            Store::Sqlite(s) => s,
            Store::Postgres(s) => s,
        }
    }
}

impl Store {
    /// Opens the database named by `url` (sqlite:PATH or postgres://…) and applies migrations.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_with(url, None).await
    }

    /// As `open`, and when migrations are due on an existing SQLite database and
    /// `backup_dir` is set, first writes a checked backup there (`pre-migration-…​.db`).
    pub async fn open_with(url: &str, backup_dir: Option<&std::path::Path>) -> Result<Self, StoreError> {
        Self::open_pooled(url, backup_dir, postgres::DEFAULT_POOL_SIZE).await
    }

    /// As `open_with`, and on PostgreSQL with a pool of `pool_size` connections
    /// (`server.database_pool_size`).
    pub async fn open_pooled(url: &str, backup_dir: Option<&std::path::Path>, pool_size: usize) -> Result<Self, StoreError> {
        if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
            Ok(Store::Sqlite(
                sqlite::SqliteStore::open_with(std::path::Path::new(path), backup_dir).await?,
            ))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Store::Postgres(postgres::PgStore::connect_pooled(url, None, pool_size).await?))
        } else {
            Err(StoreError::Url("use sqlite:PATH or postgres://…".into()))
        }
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
