//! Counters for /metrics in the Prometheus text format. Plain atomics: no labels beyond the
//! few fixed ones here, so there is nothing to configure or leak.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::store::OutboxCounts;

/// Upper bounds (seconds) of the accept-to-delivered latency histogram.
const LATENCY_BUCKETS: [f64; 12] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0];

#[derive(Default)]
pub struct Metrics {
    leads_accepted: AtomicU64,
    leads_duplicate: AtomicU64,
    leads_honeypot: AtomicU64,
    tokens_recorded: AtomicU64,
    rejected: Mutex<BTreeMap<&'static str, u64>>,
    deliveries: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
    latency_buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_ms: AtomicU64,
}

impl Metrics {
    pub fn lead_accepted(&self) {
        self.leads_accepted.fetch_add(1, Ordering::Relaxed);
    }

    pub fn lead_duplicate(&self) {
        self.leads_duplicate.fetch_add(1, Ordering::Relaxed);
    }

    pub fn lead_honeypot(&self) {
        self.leads_honeypot.fetch_add(1, Ordering::Relaxed);
    }

    pub fn token_recorded(&self) {
        self.tokens_recorded.fetch_add(1, Ordering::Relaxed);
    }

    pub fn rejected(&self, reason: &'static str) {
        *self.rejected.lock().unwrap_or_else(|p| p.into_inner()).entry(reason).or_insert(0) += 1;
    }

    /// outcome: "delivered", "retry" or "failed".
    pub fn delivery(&self, channel: &'static str, outcome: &'static str) {
        *self
            .deliveries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry((channel, outcome))
            .or_insert(0) += 1;
    }

    pub fn delivered_after(&self, ms: i64) {
        let seconds = ms.max(0) as f64 / 1000.0;
        for (i, bound) in LATENCY_BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                self.latency_buckets[i].fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_ms.fetch_add(ms.max(0) as u64, Ordering::Relaxed);
    }

    /// The whole exposition. `outbox` is read from the database at scrape time.
    pub fn render(&self, cache_hits: u64, cache_misses: u64, outbox: Option<OutboxCounts>) -> String {
        let mut out = String::with_capacity(2048);
        let mut counter = |name: &str, help: &str, value: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        };
        counter(
            "leads_accepted_total",
            "New leads stored.",
            self.leads_accepted.load(Ordering::Relaxed),
        );
        counter(
            "leads_duplicate_total",
            "Repeat submissions answered with an earlier lead.",
            self.leads_duplicate.load(Ordering::Relaxed),
        );
        counter(
            "leads_honeypot_total",
            "Submissions discarded because the honeypot was filled.",
            self.leads_honeypot.load(Ordering::Relaxed),
        );
        counter(
            "certificate_tokens_recorded_total",
            "Certificate tokens recorded.",
            self.tokens_recorded.load(Ordering::Relaxed),
        );
        counter("render_cache_hits_total", "Pages served from the render cache.", cache_hits);
        counter("render_cache_misses_total", "Pages that had to be rendered.", cache_misses);
        let _ = writeln!(
            out,
            "# HELP leads_rejected_total Submissions refused, by reason.\n# TYPE leads_rejected_total counter"
        );
        for (reason, n) in self.rejected.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "leads_rejected_total{{reason=\"{reason}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP notification_deliveries_total Delivery attempts, by channel and outcome.\n# TYPE notification_deliveries_total counter"
        );
        for ((channel, outcome), n) in self.deliveries.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(
                out,
                "notification_deliveries_total{{channel=\"{channel}\",outcome=\"{outcome}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP notification_delivery_seconds Time from accepting a lead to delivering its notification.\n# TYPE notification_delivery_seconds histogram"
        );
        for (i, bound) in LATENCY_BUCKETS.iter().enumerate() {
            let _ = writeln!(
                out,
                "notification_delivery_seconds_bucket{{le=\"{bound}\"}} {}",
                self.latency_buckets[i].load(Ordering::Relaxed)
            );
        }
        let count = self.latency_count.load(Ordering::Relaxed);
        let _ = writeln!(out, "notification_delivery_seconds_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "notification_delivery_seconds_sum {}",
            self.latency_sum_ms.load(Ordering::Relaxed) as f64 / 1000.0
        );
        let _ = writeln!(out, "notification_delivery_seconds_count {count}");
        if let Some(o) = outbox {
            let _ = writeln!(out, "# HELP outbox_depth Notifications by status.\n# TYPE outbox_depth gauge");
            let _ = writeln!(out, "outbox_depth{{status=\"pending\"}} {}", o.pending);
            let _ = writeln!(out, "outbox_depth{{status=\"failed\"}} {}", o.failed);
            let _ = writeln!(out, "outbox_depth{{status=\"delivered\"}} {}", o.delivered);
        }
        out
    }
}
