//! Per-client rate limits with `governor` (GCRA): `per_minute` requests in a burst, refilled
//! evenly over a minute. A client is an IPv4 address or an IPv6 /64 (one subscriber's
//! network: rotating addresses inside it does not escape the limit). Memory is bounded:
//! past `MAX_KEYS` clients, idle ones are forgotten, and if every one is active the table
//! starts afresh. The same limiter keys other things too: the staff console charges each
//! signed-in session to a budget of its own (`RateLimiter<String>`, by session).
//!
//! On PostgreSQL, several servers share one database: a limit made [`RateLimiter::shared`]
//! is counted there instead, in windows of a minute by the database's clock, so a client
//! gets one allowance however many servers its requests reach
//! (docs/decisions/022-shared-limits.md). Should the database not answer, each server
//! counts alone (in memory, as above) until it does: a charge waits for the database at most
//! [`SHARED_CHARGE_DEADLINE`] (less when the request timeout is short), then the request is
//! counted here, logged about once a minute and counted in `/metrics`
//! (`site_rate_limit_fallbacks_total`).

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter as Gcra};

use crate::config::ServerConfig;
use crate::metrics::Metrics;
use crate::store::{LimitKey, Store, Verdict};

/// Clients remembered at most (about 100 bytes each).
pub const MAX_KEYS: usize = 100_000;
/// How often (in checks) the table's size is looked at.
const SIZE_CHECK_EVERY: u64 = 1024;
/// The longest a request waits for the shared count before it is counted on this server
/// instead (docs/decisions/022-shared-limits.md). A charge takes a millisecond or two, and
/// the database cancels one that takes over `store::postgres::CHARGE_STATEMENT_TIMEOUT_MS`
/// (200 ms), so this is reached only when the database is stalled or out of reach. Half a
/// second: a visitor hardly notices it, and it is a small part of any request timeout but a
/// very short one ([`shared_charge_deadline`]).
pub const SHARED_CHARGE_DEADLINE: Duration = Duration::from_millis(500);

/// How long a shared charge may wait in a server whose requests must be answered within
/// `request_timeout`: [`SHARED_CHARGE_DEADLINE`], or a quarter of the request's time when
/// that is less, so the fallback always leaves the request most of its own.
pub fn shared_charge_deadline(request_timeout: Duration) -> Duration {
    SHARED_CHARGE_DEADLINE.min(request_timeout / 4)
}

/// A request the limit refused: its client may send again after `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    pub retry_after: Duration,
}

/// Put into a request that was charged to a budget of its own (a signed-in staff
/// session's): the per-client limit on state-changing requests (`api::guard`) leaves it alone.
#[derive(Debug, Clone, Copy)]
pub struct OwnBudget;

type Keyed<K> = Gcra<K, DefaultKeyedStateStore<K>, DefaultClock>;

/// A limit per key: per client address (the default), or per anything else hashable.
pub struct RateLimiter<K: Hash + Eq + Clone = ClientKey> {
    quota: Quota,
    max_keys: usize,
    limiter: RwLock<Arc<Keyed<K>>>,
    checks: AtomicU64,
    shared: Option<Shared>,
}

/// Where a shared limit is counted: the database, under a scope of its own.
struct Shared {
    store: Arc<Store>,
    scope: &'static str,
    /// How long a charge may wait for the database ([`shared_charge_deadline`]).
    deadline: Duration,
    /// Where a request counted on this server instead is counted.
    metrics: Arc<Metrics>,
    /// When the last failure to count there was logged (ms), so a database that is down is
    /// reported about once a minute, not per request.
    warned_ms: AtomicI64,
}

/// What a limit's key is in the shared count: its text (hashed with the scope there).
pub trait Subject {
    fn subject(&self) -> String;
}

impl Subject for ClientKey {
    fn subject(&self) -> String {
        self.0.to_string()
    }
}

impl Subject for String {
    fn subject(&self) -> String {
        self.clone()
    }
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self::with_max_keys(per_minute, MAX_KEYS)
    }

    pub fn with_max_keys(per_minute: u32, max_keys: usize) -> Self {
        Self::build(per_minute, max_keys)
    }

    /// Takes one request from `ip`'s allowance, refused when it is spent.
    pub async fn check(&self, ip: IpAddr) -> Result<(), RateLimited> {
        self.check_key(&client_key(ip)).await
    }
}

impl<K: Hash + Eq + Clone + Subject> RateLimiter<K> {
    /// Counted in `store` for every server on it, under `scope`, when the store keeps the
    /// limits (its `shared_limits`: PostgreSQL); else as it is, in memory. A charge waits
    /// for the database at most [`shared_charge_deadline`] of `request_timeout`; a request
    /// counted here instead is counted in `metrics`.
    pub fn shared(mut self, store: &Arc<Store>, scope: &'static str, metrics: &Arc<Metrics>, request_timeout: Duration) -> Self {
        if store.shared_limits().is_some() {
            self.shared = Some(Shared {
                store: Arc::clone(store),
                scope,
                deadline: shared_charge_deadline(request_timeout),
                metrics: Arc::clone(metrics),
                warned_ms: AtomicI64::new(i64::MIN),
            });
        }
        self
    }

    /// Takes one request from `key`'s allowance, refused when it is spent.
    pub async fn check_key(&self, key: &K) -> Result<(), RateLimited> {
        if let Some(shared) = &self.shared
            && let Some(limits) = shared.store.shared_limits()
        {
            let charge = limits.charge(LimitKey::new(shared.scope, &key.subject()), self.quota.burst_size().get());
            // On expiry the charge is dropped, and with it the worker's way to answer: one
            // the worker has not yet sent to the database is then left uncounted there
            // (`store/postgres/limits.rs`).
            let failure = match tokio::time::timeout(shared.deadline, charge).await {
                Ok(Ok(Verdict::Allowed)) => return Ok(()),
                Ok(Ok(Verdict::Refused { retry_after_ms })) => {
                    return Err(RateLimited {
                        retry_after: Duration::from_millis(retry_after_ms.max(0) as u64),
                    });
                }
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {} ms", shared.deadline.as_millis()),
            };
            shared.metrics.limit_fallback(shared.scope);
            let now = crate::store::now_ms();
            let last = shared.warned_ms.load(Ordering::Relaxed);
            if now.saturating_sub(last) >= 60_000 && shared.warned_ms.swap(now, Ordering::Relaxed) == last {
                tracing::warn!(error = %failure, scope = shared.scope, "rate limit: the shared count failed; counting on this server");
            }
        }
        self.check_here(key)
    }
}

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    /// A limit keyed by `K` (for addresses, [`RateLimiter::new`] keys by client).
    pub fn keyed(per_minute: u32) -> Self {
        Self::build(per_minute, MAX_KEYS)
    }

    fn build(per_minute: u32, max_keys: usize) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN));
        Self {
            quota,
            max_keys,
            limiter: RwLock::new(Arc::new(Gcra::keyed(quota))),
            checks: AtomicU64::new(0),
            shared: None,
        }
    }

    /// Takes one request from `key`'s allowance in this server's own count.
    pub fn check_here(&self, key: &K) -> Result<(), RateLimited> {
        let limiter = Arc::clone(&self.limiter.read().unwrap_or_else(|p| p.into_inner()));
        let result = limiter.check_key(key).map_err(|not_until| RateLimited {
            retry_after: not_until.wait_time_from(limiter.clock().now()),
        });
        if self.checks.fetch_add(1, Ordering::Relaxed).is_multiple_of(SIZE_CHECK_EVERY) {
            self.bound(&limiter);
        }
        result
    }

    /// Clients remembered now.
    pub fn len(&self) -> usize {
        self.limiter.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the table within `max_keys`: idle clients first, everyone if that is not enough.
    fn bound(&self, limiter: &Keyed<K>) {
        if limiter.len() <= self.max_keys {
            return;
        }
        limiter.retain_recent();
        limiter.shrink_to_fit();
        if limiter.len() > self.max_keys {
            tracing::warn!(clients = limiter.len(), "rate limit table full of active clients; starting afresh");
            *self.limiter.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(Gcra::keyed(self.quota));
        }
    }
}

/// A client as every per-client limit counts it (the rate limit and the sign-in lockout):
/// made only by [`client_key`], so no limit can key a client another way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

/// The client of an address: IPv4 as it is, IPv6 by its /64 (one subscriber's network),
/// and an IPv4-mapped IPv6 address (`::ffff:203.0.113.50`) as its IPv4 address.
pub fn client_key(ip: IpAddr) -> ClientKey {
    ClientKey(match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    })
}

/// The visitor's address: from `X-Forwarded-For` when `server.trust_forwarded_for` (set
/// only behind your own proxy; see [`forwarded_client`]), else the connection's peer.
/// Warns once when forwarding headers arrive while they are not trusted (a proxy in front
/// makes every visitor share its address and so its rate limit).
pub fn client_ip(headers: &HeaderMap, peer: Option<SocketAddr>, server: &ServerConfig) -> Option<IpAddr> {
    if server.trust_forwarded_for {
        if let Some(ip) = forwarded_client(headers, server.trusted_proxy_hops) {
            return Some(ip);
        }
    } else {
        warn_if_forwarded(headers);
    }
    peer.map(|p| p.ip())
}

/// The visitor in `X-Forwarded-For` behind `hops` proxies of ours. Every line of the header
/// is read, in order, as one comma-separated list (a proxy may append its entry as a line
/// of its own). Each of our proxies appended one entry, so the visitor is the entry `hops`
/// places from the right (the ones to its right name our own proxies); with fewer entries
/// than that (a request that skipped an outer proxy), the first one. None when that entry
/// is not an address (with or without a port).
pub fn forwarded_client(headers: &HeaderMap, hops: usize) -> Option<IpAddr> {
    let lines: Vec<String> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    let entries: Vec<&str> = lines
        .iter()
        .flat_map(|line| line.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    let entry = entries.get(entries.len().saturating_sub(hops.max(1)))?;
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// Called for requests while forwarding headers are not trusted: the first one that
/// carries them is reported (once per process).
pub fn warn_if_forwarded(headers: &HeaderMap) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if (headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded")) && !WARNED.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            "requests arrive with X-Forwarded-For or Forwarded but server.trust_forwarded_for is off: \
             behind a proxy every visitor shares one rate limit; set TRUST_FORWARDED_FOR=true if the proxy is yours"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusal_with_a_wait() {
        let limiter = RateLimiter::new(3);
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(limiter.check_here(&client_key(ip)).is_ok());
        }
        let refused = limiter.check_here(&client_key(ip)).expect_err("spent");
        assert!(refused.retry_after <= Duration::from_secs(20) && refused.retry_after > Duration::from_secs(15));
        assert!(limiter.check_here(&client_key(other)).is_ok(), "limits are per client");
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(client_key(mapped), client_key(IpAddr::from([192, 0, 2, 7])));
    }

    #[test]
    fn the_visitor_is_counted_from_the_right_across_every_line() {
        let headers = |lines: &[&'static str]| {
            let mut h = HeaderMap::new();
            for line in lines {
                h.append("x-forwarded-for", axum::http::HeaderValue::from_static(line));
            }
            h
        };
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        let two_lines = headers(&["192.0.2.1, 192.0.2.2", "198.51.100.3"]);
        assert_eq!(forwarded_client(&two_lines, 1), ip("198.51.100.3"));
        assert_eq!(forwarded_client(&two_lines, 2), ip("192.0.2.2"));
        assert_eq!(forwarded_client(&two_lines, 3), ip("192.0.2.1"));
        assert_eq!(forwarded_client(&two_lines, 4), ip("192.0.2.1"), "fewer entries: the first");
        assert_eq!(forwarded_client(&headers(&["198.51.100.3:4711"]), 1), ip("198.51.100.3"));
        assert_eq!(forwarded_client(&headers(&["[2001:db8::1]:4711"]), 1), ip("2001:db8::1"));
        assert_eq!(forwarded_client(&headers(&["203.0.113.1,,  "]), 1), ip("203.0.113.1"));
        assert_eq!(forwarded_client(&headers(&["unknown"]), 1), None);
        assert_eq!(forwarded_client(&HeaderMap::new(), 1), None);
    }

    #[test]
    fn memory_stays_bounded_under_a_flood_of_clients() {
        let limiter = RateLimiter::with_max_keys(5, 2_000);
        for n in 0..50_000u32 {
            let _ = limiter.check_here(&client_key(IpAddr::from(n.to_be_bytes())));
        }
        assert!(limiter.len() <= 2_000 + SIZE_CHECK_EVERY as usize, "{} clients kept", limiter.len());
    }
}
