//! The limits several servers share through PostgreSQL (docs/decisions/022-shared-limits.md):
//! the per-client rate limits, counted in windows of the database's clock, and the staff
//! sign-in throttle's attempts. SQLite has one server per file, which keeps them in memory
//! (`security::rate_limit`, `staff::throttle`): these types are what the shared ones trade in.

use sha2::{Digest, Sha256};

/// The length of a rate limit's window, by the database's clock.
pub const LIMIT_WINDOW_MS: i64 = 60_000;

/// What a shared limit counts by: a SHA-256 digest of its scope and its subject (a client's
/// address, a session, a typed e-mail), so the database holds no address or e-mail.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LimitKey([u8; 32]);

impl LimitKey {
    /// The key of `subject` in `scope` ("api", "sign-in", "account"…): the same subject in
    /// two scopes is two keys.
    pub fn new(scope: &str, subject: &str) -> Self {
        let mut hash = Sha256::new();
        hash.update(scope.as_bytes());
        hash.update([0]);
        hash.update(subject.as_bytes());
        Self(hash.finalize().into())
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// What a request charged to a shared rate limit came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    /// Over the limit: the window ends in `retry_after_ms`.
    Refused {
        retry_after_ms: i64,
    },
}

/// The sign-in throttle's rules: within `window_ms`, at most `per_account` attempts for one
/// account and `per_client` from one client reach the password check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginRules {
    pub window_ms: i64,
    pub per_account: u32,
    pub per_client: u32,
}

/// What a shared sign-in reservation came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reserved {
    /// Counted: settle it with this id once the password is checked.
    Attempt(i64),
    /// Refused unchecked for `retry_after_ms`; `account` when the account's own limit is spent.
    Locked { retry_after_ms: i64, account: bool },
}
