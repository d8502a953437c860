//! The failed-login throttle: too many failures for one account, or from one IP, within the
//! window lock that account or IP out until the window has passed. Unknown accounts are
//! counted like known ones, so the lockout says nothing about which addresses exist.
//! Kept in memory: each server counts its own attempts.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;

/// Failures counted within this window.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failures for one account (by the address typed) that lock it out.
pub const PER_ACCOUNT: usize = 5;
/// Failures from one IP that lock it out.
pub const PER_IP: usize = 20;
/// Keys kept before old ones are swept.
const SWEEP_AT: usize = 10_000;

/// The login is refused without checking the password, until `retry_after_ms` have passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockedOut {
    pub retry_after_ms: i64,
}

#[derive(Default)]
pub struct LoginThrottle {
    accounts: Mutex<HashMap<String, VecDeque<i64>>>,
    ips: Mutex<HashMap<IpAddr, VecDeque<i64>>>,
}

impl LoginThrottle {
    /// Refuses while the account or the IP is locked out.
    pub fn check(&self, account: &str, ip: Option<IpAddr>, now_ms: i64) -> Result<(), LockedOut> {
        let account_wait = wait(&self.accounts, &account.to_lowercase(), PER_ACCOUNT, now_ms);
        let ip_wait = ip.and_then(|ip| wait(&self.ips, &ip, PER_IP, now_ms));
        match account_wait.into_iter().chain(ip_wait).max() {
            Some(retry_after_ms) => Err(LockedOut { retry_after_ms }),
            None => Ok(()),
        }
    }

    /// Counts a failed login.
    pub fn failed(&self, account: &str, ip: Option<IpAddr>, now_ms: i64) {
        record(&self.accounts, account.to_lowercase(), PER_ACCOUNT, now_ms);
        if let Some(ip) = ip {
            record(&self.ips, ip, PER_IP, now_ms);
        }
    }

    /// A successful login clears the account's failures (not the IP's).
    pub fn succeeded(&self, account: &str) {
        self.accounts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&account.to_lowercase());
    }
}

fn wait<K: std::hash::Hash + Eq>(map: &Mutex<HashMap<K, VecDeque<i64>>>, key: &K, limit: usize, now_ms: i64) -> Option<i64> {
    let map = map.lock().unwrap_or_else(|p| p.into_inner());
    let times = map.get(key)?;
    let recent: Vec<i64> = times.iter().copied().filter(|t| now_ms - t < WINDOW_MS).collect();
    // Locked until the oldest of the last `limit` failures leaves the window.
    (recent.len() >= limit).then(|| recent[recent.len() - limit] + WINDOW_MS - now_ms)
}

fn record<K: std::hash::Hash + Eq>(map: &Mutex<HashMap<K, VecDeque<i64>>>, key: K, limit: usize, now_ms: i64) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    if map.len() >= SWEEP_AT {
        map.retain(|_, times| times.back().is_some_and(|t| now_ms - t < WINDOW_MS));
    }
    let times = map.entry(key).or_default();
    times.push_back(now_ms);
    while times.len() > limit {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_locks_after_five_failures_whatever_the_ip() {
        let t = LoginThrottle::default();
        let now = 10_000_000;
        for i in 0..PER_ACCOUNT {
            assert!(t.check("A@x.example", Some(IpAddr::from([10, 0, 0, i as u8])), now).is_ok());
            t.failed("a@x.example", Some(IpAddr::from([10, 0, 0, i as u8])), now);
        }
        let locked = t
            .check("a@X.example", Some(IpAddr::from([10, 9, 9, 9])), now + 1000)
            .expect_err("locked");
        assert_eq!(locked.retry_after_ms, WINDOW_MS - 1000);
        assert!(t.check("other@x.example", None, now).is_ok(), "other accounts are not locked");
        assert!(t.check("a@x.example", None, now + WINDOW_MS).is_ok(), "unlocked after the window");
    }

    #[test]
    fn an_ip_locks_after_twenty_failures_across_accounts() {
        let t = LoginThrottle::default();
        let ip = Some(IpAddr::from([192, 0, 2, 1]));
        for i in 0..PER_IP {
            t.failed(&format!("user{i}@x.example"), ip, 5_000);
        }
        assert!(t.check("new@x.example", ip, 6_000).is_err());
        assert!(t.check("new@x.example", Some(IpAddr::from([192, 0, 2, 2])), 6_000).is_ok());
        t.succeeded("user1@x.example");
        assert!(
            t.check("new@x.example", ip, 6_000).is_err(),
            "a success clears the account, not the IP"
        );
    }
}
