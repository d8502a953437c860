//! The sign-in throttle: within the window, at most `PER_ACCOUNT` attempts for one account
//! (by the address typed) and `PER_CLIENT` from one client (an IPv4 address or an IPv6
//! /64, as the rate limit counts it) ever reach the password check, however many arrive at
//! once. An attempt is reserved, for its account and its client together under one lock,
//! before the password is checked, and settled after: a failure keeps its place in both
//! counts, a success gives its places back and forgives the account's failures (not the
//! client's). Unknown accounts are counted like known ones, so the lockout says nothing
//! about which addresses exist.
//!
//! Kept in memory: each server counts its own attempts. The interface is what a count
//! shared between servers would offer too: [`LoginThrottle::reserve`] → check the password
//! → [`Attempt::failed`] or [`Attempt::succeeded`] (an attempt dropped unsettled counts as
//! failed); and [`LoginThrottle::unlock`] for `site staff unlock`.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::security::rate_limit::ClientKey;

/// Attempts counted within this window.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Attempts for one account (by the address typed) that reach the password check.
pub const PER_ACCOUNT: usize = 5;
/// Attempts from one client that reach the password check.
pub const PER_CLIENT: usize = 20;
/// Keys kept before idle ones are swept.
const SWEEP_AT: usize = 10_000;

/// The sign-in is refused without checking the password, until `retry_after_ms` have passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockedOut {
    pub retry_after_ms: i64,
    /// The account's own limit is spent (what `site staff unlock` lifts).
    pub account: bool,
}

/// One counted attempt: reserved, or settled as a failure.
#[derive(Debug, Clone, Copy)]
struct Entry {
    id: u64,
    at_ms: i64,
    failed: bool,
}

#[derive(Default)]
struct Counts {
    accounts: HashMap<String, Vec<Entry>>,
    clients: HashMap<ClientKey, Vec<Entry>>,
    next_id: u64,
}

#[derive(Default)]
pub struct LoginThrottle {
    counts: Mutex<Counts>,
}

/// A reserved attempt: settle it once the password is checked. Dropped unsettled (the
/// request was cancelled or timed out mid-check), it counts as a failure.
pub struct Attempt<'a> {
    throttle: &'a LoginThrottle,
    id: u64,
    account: String,
    client: Option<ClientKey>,
    settled: bool,
}

impl LoginThrottle {
    /// Reserves an attempt for `account` from `client`, or refuses while either is locked out.
    pub fn reserve(&self, account: &str, client: Option<ClientKey>, now_ms: i64) -> Result<Attempt<'_>, LockedOut> {
        let account = account.to_lowercase();
        let mut counts = self.lock();
        if counts.accounts.len() + counts.clients.len() >= SWEEP_AT {
            counts.accounts.retain(|_, e| e.iter().any(|e| now_ms - e.at_ms < WINDOW_MS));
            counts.clients.retain(|_, e| e.iter().any(|e| now_ms - e.at_ms < WINDOW_MS));
        }
        let account_wait = counts.accounts.get_mut(&account).and_then(|e| wait(e, PER_ACCOUNT, now_ms));
        let client_wait = client.and_then(|k| counts.clients.get_mut(&k).and_then(|e| wait(e, PER_CLIENT, now_ms)));
        if let Some(retry_after_ms) = account_wait.into_iter().chain(client_wait).max() {
            return Err(LockedOut {
                retry_after_ms,
                account: account_wait.is_some(),
            });
        }
        let id = counts.next_id;
        counts.next_id += 1;
        let entry = Entry {
            id,
            at_ms: now_ms,
            failed: false,
        };
        counts.accounts.entry(account.clone()).or_default().push(entry);
        if let Some(k) = client {
            counts.clients.entry(k).or_default().push(entry);
        }
        Ok(Attempt {
            throttle: self,
            id,
            account,
            client,
            settled: false,
        })
    }

    /// Forgets the account's attempts made at or before `at_ms` (an operator lifted its
    /// lockout then). Its client's counts stay.
    pub fn unlock(&self, account: &str, at_ms: i64) {
        if let Some(entries) = self.lock().accounts.get_mut(&account.to_lowercase()) {
            entries.retain(|e| e.at_ms > at_ms);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Attempt<'_> {
    /// The password was wrong (or the account disabled): the attempt stays counted.
    pub fn failed(mut self) {
        self.mark_failed();
    }

    /// The password was right: this attempt counts against neither limit, and the
    /// account's failures are forgiven (attempts still being checked stay counted).
    pub fn succeeded(mut self) {
        self.settled = true;
        let mut counts = self.throttle.lock();
        if let Some(entries) = counts.accounts.get_mut(&self.account) {
            entries.retain(|e| !e.failed && e.id != self.id);
        }
        if let Some(entries) = self.client.and_then(|k| counts.clients.get_mut(&k)) {
            entries.retain(|e| e.id != self.id);
        }
    }

    fn mark_failed(&mut self) {
        self.settled = true;
        let mut counts = self.throttle.lock();
        let id = self.id;
        let account = counts.accounts.get_mut(&self.account).into_iter().flatten();
        account.filter(|e| e.id == id).for_each(|e| e.failed = true);
        if let Some(entries) = self.client.and_then(|k| counts.clients.get_mut(&k)) {
            entries.iter_mut().filter(|e| e.id == id).for_each(|e| e.failed = true);
        }
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if !self.settled {
            self.mark_failed();
        }
    }
}

/// Drops the entries that left the window; while `limit` remain, how long until the oldest
/// of the newest `limit` leaves it.
fn wait(entries: &mut Vec<Entry>, limit: usize, now_ms: i64) -> Option<i64> {
    entries.retain(|e| now_ms - e.at_ms < WINDOW_MS);
    if entries.len() < limit {
        return None;
    }
    let mut times: Vec<i64> = entries.iter().map(|e| e.at_ms).collect();
    times.sort_unstable();
    Some(times[times.len() - limit] + WINDOW_MS - now_ms)
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;
    use crate::security::rate_limit::client_key;

    fn client(last: u8) -> Option<ClientKey> {
        Some(client_key(IpAddr::from([10, 0, 0, last])))
    }

    #[test]
    fn reservations_count_before_any_password_is_checked() {
        let t = LoginThrottle::default();
        let now = 10_000_000;
        let held: Vec<Attempt> = (0..PER_ACCOUNT)
            .map(|i| t.reserve("A@x.example", client(i as u8), now).expect("reserved"))
            .collect();
        let locked = t.reserve("a@X.example", client(99), now + 1000).err().expect("locked");
        assert_eq!(locked.retry_after_ms, WINDOW_MS - 1000);
        assert!(locked.account);
        assert!(t.reserve("other@x.example", None, now).is_ok(), "other accounts are not locked");
        for attempt in held {
            attempt.failed();
        }
        assert!(t.reserve("a@x.example", None, now + WINDOW_MS - 1).is_err());
        assert!(t.reserve("a@x.example", None, now + WINDOW_MS).is_ok(), "unlocked after the window");
    }

    #[test]
    fn a_success_forgives_the_account_but_not_attempts_still_being_checked() {
        let t = LoginThrottle::default();
        for _ in 0..PER_ACCOUNT - 2 {
            t.reserve("a@x.example", client(1), 5_000).expect("reserved").failed();
        }
        let in_flight = t.reserve("a@x.example", client(1), 5_000).expect("the fourth");
        let right = t.reserve("a@x.example", client(2), 5_000).expect("the fifth");
        assert!(
            t.reserve("a@x.example", client(3), 5_000).is_err(),
            "three failed and two in flight"
        );
        right.succeeded();
        // The three failures are forgiven; the attempt still being checked stays counted.
        let held: Vec<Attempt> = (0..PER_ACCOUNT - 1)
            .map(|_| t.reserve("a@x.example", client(3), 5_500).expect("a place"))
            .collect();
        assert!(
            t.reserve("a@x.example", client(3), 5_500).is_err(),
            "four new and the one in flight"
        );
        in_flight.failed();
        drop(held);
        assert!(
            t.reserve("a@x.example", client(4), 5_500).is_err(),
            "attempts dropped unsettled count as failures"
        );
        t.unlock("A@x.example", 5_500);
        assert!(t.reserve("a@x.example", client(5), 5_501).is_ok(), "unlocked");
    }

    #[test]
    fn a_client_locks_after_twenty_attempts_across_accounts() {
        let t = LoginThrottle::default();
        for i in 0..PER_CLIENT {
            t.reserve(&format!("user{i}@x.example"), client(1), 5_000)
                .expect("reserved")
                .failed();
        }
        let locked = t.reserve("new@x.example", client(1), 6_000).err().expect("locked");
        assert!(!locked.account);
        assert!(t.reserve("new@x.example", client(2), 6_000).is_ok());
        let ok = t.reserve("user1@x.example", client(3), 6_000).expect("another client");
        ok.succeeded();
        assert!(
            t.reserve("new@x.example", client(1), 6_000).is_err(),
            "a success clears the account, not the client"
        );
    }
}
