//! Per-IP token buckets: `per_minute` requests in a burst, refilled evenly over a minute.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Buckets kept before idle (full) ones are swept.
const SWEEP_AT: usize = 50_000;

/// A request the limit refused: its IP's bucket has a token again after `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    pub retry_after: Duration,
}

pub struct RateLimiter {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute: f64::from(per_minute.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`, refused when the bucket is empty.
    pub fn check(&self, ip: IpAddr) -> Result<(), RateLimited> {
        self.check_at(ip, Instant::now()).map_err(|retry_after| RateLimited { retry_after })
    }

    /// `check` at a given instant; Err(wait) when the bucket is empty.
    pub fn check_at(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let rate = self.per_minute / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= SWEEP_AT {
            let full = self.per_minute;
            buckets.retain(|_, (tokens, at)| *tokens + now.saturating_duration_since(*at).as_secs_f64() * rate < full);
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.per_minute, now));
        *tokens = (*tokens + now.saturating_duration_since(*at).as_secs_f64() * rate).min(self.per_minute);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_an_even_refill() {
        let limiter = RateLimiter::new(3);
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let t = Instant::now();
        assert!(limiter.check_at(ip, t).is_ok());
        assert!(limiter.check_at(ip, t).is_ok());
        assert!(limiter.check_at(ip, t).is_ok());
        let wait = limiter.check_at(ip, t).expect_err("empty");
        assert!(wait <= Duration::from_secs(20) && wait > Duration::from_secs(19));
        assert!(limiter.check_at(other, t).is_ok(), "buckets are per IP");
        assert!(limiter.check_at(ip, t + Duration::from_secs(21)).is_ok(), "refilled after 20 s");
    }
}
