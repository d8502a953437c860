//! Session ids and CSRF tokens. The cookie carries 256 random bits (hex); the database keeps
//! only their SHA-256, so a copy of the database opens no session. A session lives until it
//! has been idle for 30 minutes or, however busy, for 12 hours.

use crate::hex::hex;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A session unused this long has ended.
pub const IDLE_MS: i64 = 30 * 60 * 1000;
/// No session lives longer than this.
pub const ABSOLUTE_MS: i64 = 12 * 60 * 60 * 1000;
/// `last_seen` is written again only when it is older than this (one write a minute at most).
pub const TOUCH_AFTER_MS: i64 = 60 * 1000;

/// A fresh random value: 32 bytes from the operating system, as 64 hex digits.
pub fn random_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// What the database keeps of a session id: its SHA-256, hex.
pub fn id_hash(cookie: &str) -> String {
    hex(&Sha256::digest(cookie.as_bytes()))
}

/// The CSRF token of a session: derived from the secret id, so it needs no storage, and it
/// cannot be computed from what the database keeps.
pub fn csrf_token(cookie: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"rr-admin-csrf\0");
    h.update(cookie.as_bytes());
    hex(&h.finalize())
}

/// Whether a submitted CSRF token is the expected one (compared in constant time; the
/// lengths are not secret).
pub fn csrf_matches(expected: &str, submitted: &str) -> bool {
    expected.as_bytes().ct_eq(submitted.as_bytes()).into()
}

/// Whether a cookie value has the shape of one of ours (64 lower-case hex digits).
pub fn well_formed(value: &str) -> bool {
    value.len() == 64 && value.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether a session created at `created_ms` and last used at `last_seen_ms` is still live.
pub fn is_live(created_ms: i64, last_seen_ms: i64, now_ms: i64) -> bool {
    now_ms - last_seen_ms < IDLE_MS && now_ms - created_ms < ABSOLUTE_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_hex_and_stored_only_hashed() {
        let a = random_token().expect("random");
        let b = random_token().expect("random");
        assert!(well_formed(&a) && well_formed(&b) && a != b);
        assert_eq!(id_hash(&a).len(), 64);
        assert_ne!(id_hash(&a), a);
        assert_ne!(csrf_token(&a), id_hash(&a), "the CSRF token is not what the database keeps");
        assert!(csrf_matches(&csrf_token(&a), &csrf_token(&a)));
        assert!(!csrf_matches(&csrf_token(&a), &csrf_token(&b)));
        assert!(!csrf_matches(&csrf_token(&a), ""));
        assert!(!well_formed("../../etc") && !well_formed(&a.to_uppercase()));
    }

    #[test]
    fn sessions_end_when_idle_or_old() {
        let t = 1_000_000_000;
        assert!(is_live(t, t, t + IDLE_MS - 1));
        assert!(!is_live(t, t, t + IDLE_MS));
        assert!(is_live(t, t + ABSOLUTE_MS - 1000, t + ABSOLUTE_MS - 1));
        assert!(!is_live(t, t + ABSOLUTE_MS - 1000, t + ABSOLUTE_MS), "busy, but 12 hours old");
    }
}
