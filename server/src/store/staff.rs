//! What the store keeps for the staff console's access: staff accounts, their sessions and
//! the audit log of what they do. Both stores share these types; `Store`'s methods for them
//! are here too.

use serde::Serialize;

use super::{Store, StoreError};

/// A staff account as `site staff list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaffAccount {
    pub id: i64,
    pub email: String,
    pub active: bool,
    pub created_ms: i64,
    pub disabled_ms: Option<i64>,
}

/// What checking a login needs.
#[derive(Debug, Clone)]
pub struct StaffLogin {
    pub id: i64,
    pub email: String,
    /// argon2id PHC string.
    pub password_hash: String,
    pub active: bool,
}

/// A session about to start: only the hash of the cookie's id is stored.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub id_hash: String,
    pub staff_id: i64,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// A stored session of an active staff account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub staff_id: i64,
    pub email: String,
    pub created_ms: i64,
    pub last_seen_ms: i64,
}

/// The audit action `site staff unlock` writes: a sign-in throttle forgets the account's
/// attempts made before it.
pub const UNLOCK_ACTION: &str = "staff_unlock";

/// One line of the audit log, to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAudit {
    /// None for a failed login that named no account.
    pub staff_id: Option<i64>,
    pub action: &'static str,
    /// A record id (lead, submission, staff), never a phone number or an address.
    pub target: Option<String>,
    pub ip: Option<String>,
    pub detail: Option<String>,
}

/// One line of the audit log, as staff read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditEntry {
    pub id: i64,
    pub at_ms: i64,
    pub staff_email: Option<String>,
    pub action: String,
    pub target: Option<String>,
    pub ip: Option<String>,
    pub detail: Option<String>,
}

impl Store {
    /// Adds a staff account (`email` in lower case). None when the address already has one.
    pub async fn add_staff(&self, email: &str, password_hash: &str, now_ms: i64) -> Result<Option<i64>, StoreError> {
        match self {
            Store::Sqlite(s) => s.add_staff(email, password_hash, now_ms).await,
            Store::Postgres(s) => s.add_staff(email, password_hash, now_ms).await,
        }
    }

    /// Disables the account and ends its sessions. False when there is no such account.
    pub async fn disable_staff(&self, email: &str, now_ms: i64) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.disable_staff(email, now_ms).await,
            Store::Postgres(s) => s.disable_staff(email, now_ms).await,
        }
    }

    pub async fn list_staff(&self) -> Result<Vec<StaffAccount>, StoreError> {
        match self {
            Store::Sqlite(s) => s.list_staff().await,
            Store::Postgres(s) => s.list_staff().await,
        }
    }

    pub async fn staff_login(&self, email: &str) -> Result<Option<StaffLogin>, StoreError> {
        match self {
            Store::Sqlite(s) => s.staff_login(email).await,
            Store::Postgres(s) => s.staff_login(email).await,
        }
    }

    /// Starts a session and writes its audit line, in one transaction.
    pub async fn create_session(&self, session: NewSession, audit: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.create_session(session, audit, now_ms).await,
            Store::Postgres(s) => s.create_session(session, audit, now_ms).await,
        }
    }

    /// The session with this id hash, if its account is still active.
    pub async fn session(&self, id_hash: &str) -> Result<Option<SessionRecord>, StoreError> {
        match self {
            Store::Sqlite(s) => s.session(id_hash).await,
            Store::Postgres(s) => s.session(id_hash).await,
        }
    }

    pub async fn touch_session(&self, id_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.touch_session(id_hash, now_ms).await,
            Store::Postgres(s) => s.touch_session(id_hash, now_ms).await,
        }
    }

    /// Ends a session; with `audit`, writes that line in the same transaction.
    pub async fn end_session(&self, id_hash: &str, audit: Option<NewAudit>, now_ms: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.end_session(id_hash, audit, now_ms).await,
            Store::Postgres(s) => s.end_session(id_hash, audit, now_ms).await,
        }
    }

    pub async fn audit(&self, entry: NewAudit, now_ms: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.audit(entry, now_ms).await,
            Store::Postgres(s) => s.audit(entry, now_ms).await,
        }
    }

    /// When the account `staff_id` was last unlocked (`site staff unlock`) at or after
    /// `since_ms`, if it was: a range of the audit log's time index, never the whole log.
    pub async fn staff_unlocked_since(&self, staff_id: i64, since_ms: i64) -> Result<Option<i64>, StoreError> {
        match self {
            Store::Sqlite(s) => s.staff_unlocked_since(staff_id, since_ms).await,
            Store::Postgres(s) => s.staff_unlocked_since(staff_id, since_ms).await,
        }
    }

    /// The audit log, newest first, from before the entry `before` (None: the newest).
    pub async fn audit_log(&self, before: Option<i64>, limit: usize) -> Result<Vec<AuditEntry>, StoreError> {
        match self {
            Store::Sqlite(s) => s.audit_log(before, limit).await,
            Store::Postgres(s) => s.audit_log(before, limit).await,
        }
    }
}
