//! What the store keeps for the staff console's access: staff accounts, their sessions and
//! the audit log of what they do. Both stores share these types (the operations are
//! `backend::Staff`).

use serde::Serialize;

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
