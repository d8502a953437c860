//! The do-not-call list. A lead from a listed number is still stored (it is a legal record)
//! but marked suppressed and never handed to the outbox: the database's triggers see to it
//! (migration 0004), whichever writer stores the lead. The list also binds at delivery
//! (docs/decisions/011): adding a number marks every undelivered notification of its leads
//! suppressed in the same transaction, and the outbox claim and every Retry check the list
//! in theirs.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suppression {
    pub phone_e164: String,
    pub reason: String,
    pub added_ms: i64,
    pub staff_email: Option<String>,
}

/// What adding a number to the list did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    /// False when the number was on the list already.
    pub added: bool,
    /// Undelivered notifications of its leads (pending, being sent, failed) now suppressed.
    pub stopped: u64,
}

/// A phone number as the audit log keeps it: enough to tell entries apart, not to dial.
pub fn masked(phone_e164: &str) -> String {
    let chars: Vec<char> = phone_e164.chars().collect();
    if chars.len() < 8 {
        return "phone:***".into();
    }
    let head: String = chars[..5].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("phone:{head}***{tail}")
}
