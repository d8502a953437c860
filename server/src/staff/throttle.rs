//! The sign-in throttle: within the window, at most `PER_ACCOUNT` attempts for one account
//! (by the address typed) and `PER_CLIENT` from one client (an IPv4 address or an IPv6
//! /64, as the rate limit counts it) ever reach the password check, however many arrive at
//! once. An attempt is reserved, for its account and its client together under one lock,
//! before the password is checked, and settled after: a failure keeps its place in both
//! counts, a success gives its places back and forgives the account's failures (not the
//! client's). Unknown accounts are counted like known ones, so the lockout says nothing
//! about which addresses exist.
//!
//! With SQLite (one server per file) the counts are kept in memory. With PostgreSQL they are
//! kept in the database, shared by every server on it (`store`'s `shared_limits`,
//! docs/decisions/022-shared-limits.md): a client gets one allowance, however many servers
//! its attempts reach; should the database not answer, each server counts alone meanwhile.
//! Either way: [`LoginThrottle::reserve`] → check the password → [`Attempt::failed`] or
//! [`Attempt::succeeded`] (an attempt dropped unsettled counts as failed); and
//! [`LoginThrottle::unlock`] for `site staff unlock`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::security::rate_limit::{ClientKey, Subject};
use crate::store::backend::Limits;
use crate::store::{LimitKey, LoginRules, Reserved, Store};

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

/// The rules as the shared count takes them.
const RULES: LoginRules = LoginRules {
    window_ms: WINDOW_MS,
    per_account: PER_ACCOUNT as u32,
    per_client: PER_CLIENT as u32,
};

#[derive(Default)]
pub struct LoginThrottle {
    counts: Mutex<Counts>,
    /// The database that keeps the counts for every server, when it does (PostgreSQL).
    shared: Option<Arc<Store>>,
}

/// A reserved attempt: settle it once the password is checked. Dropped unsettled (the
/// request was cancelled or timed out mid-check), it counts as a failure.
pub struct Attempt<'a> {
    throttle: &'a LoginThrottle,
    counted: Counted,
    settled: bool,
}

/// Where an attempt is counted.
enum Counted {
    Here {
        id: u64,
        account: String,
        client: Option<ClientKey>,
    },
    Shared {
        id: i64,
        account: LimitKey,
    },
}

/// The shared count's key of an account (the address typed, in lower case).
fn account_key(account: &str) -> LimitKey {
    LimitKey::new("sign-in-account", account)
}

impl LoginThrottle {
    /// The throttle of a server on `store`: counted in the database when it keeps the limits
    /// of every server on it, else in memory.
    pub fn on(store: &Arc<Store>) -> Self {
        Self {
            counts: Mutex::default(),
            shared: store.shared_limits().is_some().then(|| Arc::clone(store)),
        }
    }

    /// The database's count, when it keeps one for every server.
    fn shared(&self) -> Option<&dyn Limits> {
        self.shared.as_deref().and_then(|store| store.shared_limits())
    }

    /// Reserves an attempt for `account` from `client`, or refuses while either is locked out.
    pub async fn reserve(&self, account: &str, client: Option<ClientKey>, now_ms: i64) -> Result<Attempt<'_>, LockedOut> {
        let account = account.to_lowercase();
        if let Some(limits) = self.shared() {
            let key = account_key(&account);
            let client_key = client.map(|c| LimitKey::new("sign-in-client", &c.subject()));
            match limits.reserve_login(&key, client_key.as_ref(), RULES, now_ms).await {
                Ok(Reserved::Attempt(id)) => {
                    return Ok(Attempt {
                        throttle: self,
                        counted: Counted::Shared { id, account: key },
                        settled: false,
                    });
                }
                Ok(Reserved::Locked { retry_after_ms, account }) => return Err(LockedOut { retry_after_ms, account }),
                Err(e) => tracing::warn!(error = %e, "sign-in throttle: the shared count failed; counting on this server"),
            }
        }
        self.reserve_here(account, client, now_ms)
    }

    fn reserve_here(&self, account: String, client: Option<ClientKey>, now_ms: i64) -> Result<Attempt<'_>, LockedOut> {
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
            counted: Counted::Here { id, account, client },
            settled: false,
        })
    }

    /// Forgets the account's attempts made at or before `at_ms` (an operator lifted its
    /// lockout then). Its client's counts stay.
    pub async fn unlock(&self, account: &str, at_ms: i64) {
        let account = account.to_lowercase();
        if let Some(limits) = self.shared()
            && let Err(e) = limits.unlock_login(&account_key(&account), at_ms).await
        {
            tracing::warn!(error = %e, "sign-in throttle: cannot lift a lockout in the shared count");
        }
        if let Some(entries) = self.lock().accounts.get_mut(&account) {
            entries.retain(|e| e.at_ms > at_ms);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Attempt<'_> {
    /// The password was wrong (or the account disabled): the attempt stays counted.
    pub async fn failed(self) {
        self.settle(false).await;
    }

    /// The password was right: this attempt counts against neither limit, and the
    /// account's failures are forgiven (attempts still being checked stay counted).
    pub async fn succeeded(self) {
        self.settle(true).await;
    }

    async fn settle(mut self, succeeded: bool) {
        self.settled = true;
        match &self.counted {
            Counted::Shared { id, account } => {
                if let Some(limits) = self.throttle.shared() {
                    settle_shared(limits, *id, account, succeeded).await;
                }
            }
            Counted::Here { .. } => self.settle_here(succeeded),
        }
    }

    /// Settles an attempt counted in this server's memory (nothing for a shared one).
    fn settle_here(&self, succeeded: bool) {
        let Counted::Here { id, account, client } = &self.counted else {
            return;
        };
        let mut counts = self.throttle.lock();
        if succeeded {
            if let Some(entries) = counts.accounts.get_mut(account) {
                entries.retain(|e| !e.failed && e.id != *id);
            }
            if let Some(entries) = client.and_then(|k| counts.clients.get_mut(&k)) {
                entries.retain(|e| e.id != *id);
            }
        } else {
            let account = counts.accounts.get_mut(account).into_iter().flatten();
            account.filter(|e| e.id == *id).for_each(|e| e.failed = true);
            if let Some(entries) = client.and_then(|k| counts.clients.get_mut(&k)) {
                entries.iter_mut().filter(|e| e.id == *id).for_each(|e| e.failed = true);
            }
        }
    }
}

async fn settle_shared(limits: &dyn Limits, id: i64, account: &LimitKey, succeeded: bool) {
    if let Err(e) = limits.settle_login(id, account, succeeded).await {
        tracing::warn!(error = %e, "sign-in throttle: cannot settle an attempt in the shared count");
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        match &self.counted {
            Counted::Here { .. } => self.settle_here(false),
            // It already counts as reserved; marked failed too, so a later success forgives it.
            Counted::Shared { id, account } => {
                if let (Some(store), Ok(runtime)) = (self.throttle.shared.clone(), tokio::runtime::Handle::try_current()) {
                    let (id, account) = (*id, account.clone());
                    runtime.spawn(async move {
                        if let Some(limits) = store.shared_limits() {
                            settle_shared(limits, id, &account, false).await;
                        }
                    });
                }
            }
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

    #[tokio::test]
    async fn reservations_count_before_any_password_is_checked() {
        let t = LoginThrottle::default();
        let now = 10_000_000;
        let mut held = Vec::new();
        for i in 0..PER_ACCOUNT {
            held.push(t.reserve("A@x.example", client(i as u8), now).await.expect("reserved"));
        }
        let locked = t.reserve("a@X.example", client(99), now + 1000).await.err().expect("locked");
        assert_eq!(locked.retry_after_ms, WINDOW_MS - 1000);
        assert!(locked.account);
        assert!(
            t.reserve("other@x.example", None, now).await.is_ok(),
            "other accounts are not locked"
        );
        for attempt in held {
            attempt.failed().await;
        }
        assert!(t.reserve("a@x.example", None, now + WINDOW_MS - 1).await.is_err());
        assert!(
            t.reserve("a@x.example", None, now + WINDOW_MS).await.is_ok(),
            "unlocked after the window"
        );
    }

    #[tokio::test]
    async fn a_success_forgives_the_account_but_not_attempts_still_being_checked() {
        let t = LoginThrottle::default();
        for _ in 0..PER_ACCOUNT - 2 {
            t.reserve("a@x.example", client(1), 5_000).await.expect("reserved").failed().await;
        }
        let in_flight = t.reserve("a@x.example", client(1), 5_000).await.expect("the fourth");
        let right = t.reserve("a@x.example", client(2), 5_000).await.expect("the fifth");
        assert!(
            t.reserve("a@x.example", client(3), 5_000).await.is_err(),
            "three failed and two in flight"
        );
        right.succeeded().await;
        // The three failures are forgiven; the attempt still being checked stays counted.
        let mut held = Vec::new();
        for _ in 0..PER_ACCOUNT - 1 {
            held.push(t.reserve("a@x.example", client(3), 5_500).await.expect("a place"));
        }
        assert!(
            t.reserve("a@x.example", client(3), 5_500).await.is_err(),
            "four new and the one in flight"
        );
        in_flight.failed().await;
        drop(held);
        assert!(
            t.reserve("a@x.example", client(4), 5_500).await.is_err(),
            "attempts dropped unsettled count as failures"
        );
        t.unlock("A@x.example", 5_500).await;
        assert!(t.reserve("a@x.example", client(5), 5_501).await.is_ok(), "unlocked");
    }

    #[tokio::test]
    async fn a_client_locks_after_twenty_attempts_across_accounts() {
        let t = LoginThrottle::default();
        for i in 0..PER_CLIENT {
            t.reserve(&format!("user{i}@x.example"), client(1), 5_000)
                .await
                .expect("reserved")
                .failed()
                .await;
        }
        let locked = t.reserve("new@x.example", client(1), 6_000).await.err().expect("locked");
        assert!(!locked.account);
        assert!(t.reserve("new@x.example", client(2), 6_000).await.is_ok());
        let ok = t.reserve("user1@x.example", client(3), 6_000).await.expect("another client");
        ok.succeeded().await;
        assert!(
            t.reserve("new@x.example", client(1), 6_000).await.is_err(),
            "a success clears the account, not the client"
        );
    }
}
