//! Counters for /metrics in the Prometheus text format. Plain atomics: no labels beyond the
//! few fixed ones here and the route templates of the router, so there is nothing to
//! configure or leak. Every series is named `site_…`, but the standard `process_…` ones that
//! stock dashboards read (docs/operations.md, "Monitoring", lists them and the 0.2.0 renames).
//!
//! With several servers on one database, the figures read from the database (the outboxes'
//! depth and oldest undelivered notification, the last 24 hours' deliveries) are exported
//! by the server running the scheduled jobs only (`site_jobs_leader 1`), so that a sum across
//! servers counts them once; every other series is this server's own
//! (docs/operations.md, "Monitoring").
//!
//! `Health` hands out `store`'s outbox and delivery counts to /metrics and the console's
//! health page.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::Duration;

use crate::store::{DeliveryCount, OutboxSummary};

/// How far back the delivery figures look.
pub const DELIVERIES_WINDOW_MS: i64 = 24 * 3_600_000;

/// The notification figures the worker last read from the store: what /metrics exposes and
/// the console's health page shows (both read them here, so they always agree).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Health {
    /// Each outbox's undelivered part ("leads", "mail"), by name.
    pub outboxes: Vec<(&'static str, OutboxSummary)>,
    /// Delivery attempts of lead notifications in the last [`DELIVERIES_WINDOW_MS`].
    pub deliveries_24h: Vec<DeliveryCount>,
    /// The server's scheduled backups (None: `backup.dir` is not set).
    pub backups: Option<BackupFigures>,
}

/// What the server knows of its scheduled backups (times in Unix milliseconds, 0: none yet).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackupFigures {
    pub last_attempt_ms: i64,
    pub last_success_ms: i64,
    pub last_ok: bool,
    pub last_duration_ms: u64,
    pub last_bytes: u64,
    pub failures: u64,
}

/// The render cache's and the render pool's counters, read when /metrics is asked.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderFigures {
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Renders refused because their queue was full (answered 503).
    pub rejected: u64,
    /// Renders the engines did for visitors' pages.
    pub public_renders: u64,
    /// Renders the engines did for signed-in staff (the console's pages).
    pub staff_renders: u64,
}

/// Adds one to the counter of `key` in `counters`.
fn count<K: Ord>(counters: &Mutex<BTreeMap<K, u64>>, key: K) {
    *counters.lock().unwrap_or_else(|p| p.into_inner()).entry(key).or_insert(0) += 1;
}

/// Upper bounds (seconds) of the accept-to-delivered latency histogram.
const LATENCY_BUCKETS: [f64; 12] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0];

/// Upper bounds (seconds) of the request duration histogram: a cached page is answered in
/// well under a millisecond, a lead in a few (its group commit), a console page in tens; the
/// top buckets hold renders near their deadline (`render.timeout_ms`, 2 s) and slow exports.
const REQUEST_BUCKETS: [f64; 14] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The route label of an answer the page fallback gave (a page of the catalogue, a
/// redirect): the router has no template for them.
pub const PAGE_ROUTE: &str = "(page)";
/// The route label of every request no route matched (the not-found page and the like), so
/// that paths a visitor makes up never become label values.
pub const UNMATCHED_ROUTE: &str = "(unmatched)";

/// One route's request durations: a count per bucket (not cumulative: one atomic add per
/// request; the exposition adds them up), the overflow last.
#[derive(Default)]
struct Durations {
    buckets: [AtomicU64; REQUEST_BUCKETS.len() + 1],
    sum_us: AtomicU64,
}

impl Durations {
    fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        let i = REQUEST_BUCKETS.iter().position(|b| seconds <= *b).unwrap_or(REQUEST_BUCKETS.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }
}

#[derive(Default)]
pub struct Metrics {
    leads_accepted: AtomicU64,
    leads_duplicate: AtomicU64,
    leads_honeypot: AtomicU64,
    tokens_recorded: AtomicU64,
    rejected: Mutex<BTreeMap<&'static str, u64>>,
    deliveries: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
    submissions: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
    latency_buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_ms: AtomicU64,
    /// The undelivered part of each outbox ("leads", …), as the worker last read it.
    outboxes: Mutex<BTreeMap<&'static str, OutboxSummary>>,
    /// Delivery attempts in the last 24 hours, as the worker last read them.
    deliveries_24h: Mutex<Vec<DeliveryCount>>,
    /// Answers by status class (index 0: 1xx … 4: 5xx).
    responses: [AtomicU64; 5],
    /// Request durations of [`PAGE_ROUTE`], the most common answer, kept apart so that timing
    /// one takes no lock and no hash.
    page_durations: Durations,
    /// Request durations by route template (the router's few, and [`UNMATCHED_ROUTE`]): a
    /// route's entry is made once, then read under the shared lock.
    durations: RwLock<HashMap<Box<str>, Durations>>,
    /// The server's own backups, once they are configured.
    backups: Mutex<Option<BackupFigures>>,
    /// Litestream's replica as `replication::watch` last saw it (whether Litestream
    /// answered, how far behind the replica is), once the watch is on.
    replica: Mutex<Option<(bool, Duration)>>,
    /// Whether this server runs the scheduled jobs now (and exports the database's figures).
    leader: AtomicBool,
    /// Scheduled jobs this server ran, by job.
    job_runs: Mutex<BTreeMap<&'static str, u64>>,
    /// Delivery outcomes not recorded because the claim was lost, by channel.
    outcomes_dropped: Mutex<BTreeMap<&'static str, u64>>,
    /// Requests a shared rate limit counted on this server alone (the database's count did
    /// not answer in time, or failed), by limit.
    limit_fallbacks: Mutex<BTreeMap<&'static str, u64>>,
    /// This server's time zone differs from the one the funnel's days are counted in, as it
    /// last compared them.
    funnel_zone_mismatch: AtomicBool,
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
        count(&self.rejected, reason);
    }

    /// A form submission besides leads. kind: "account_request" or "campaign_application";
    /// outcome: "accepted", "duplicate", "honeypot" or "rejected".
    pub fn submission(&self, kind: &'static str, outcome: &'static str) {
        count(&self.submissions, (kind, outcome));
    }

    /// outcome: "delivered", "retry" or "failed".
    pub fn delivery(&self, channel: &'static str, outcome: &'static str) {
        count(&self.deliveries, (channel, outcome));
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

    /// Whether this server runs the scheduled jobs (and so exports the database's figures).
    pub fn set_leader(&self, leading: bool) {
        self.leader.store(leading, Ordering::Relaxed);
    }

    pub fn leading(&self) -> bool {
        self.leader.load(Ordering::Relaxed)
    }

    /// A scheduled job ("retention") ran on this server.
    pub fn job_ran(&self, job: &'static str) {
        count(&self.job_runs, job);
    }

    /// Whether this server's time zone differs from the one the database counts the funnel's
    /// days in (compared every minute, and at each view of the funnel or the health page).
    pub fn set_funnel_zone_mismatch(&self, differs: bool) {
        self.funnel_zone_mismatch.store(differs, Ordering::Relaxed);
    }

    /// A delivery's outcome was not recorded: its claim had been taken over.
    pub fn outcome_dropped(&self, channel: &'static str) {
        count(&self.outcomes_dropped, channel);
    }

    /// A request of the shared rate limit `scope` was counted on this server alone.
    pub fn limit_fallback(&self, scope: &'static str) {
        count(&self.limit_fallbacks, scope);
    }

    /// Records what the worker read of outbox `name` (pending, failed, oldest undelivered).
    pub fn set_outbox(&self, name: &'static str, summary: OutboxSummary) {
        self.outboxes.lock().unwrap_or_else(|p| p.into_inner()).insert(name, summary);
    }

    /// Records what the worker read of the last 24 hours' delivery attempts.
    pub fn set_deliveries_24h(&self, counts: Vec<DeliveryCount>) {
        *self.deliveries_24h.lock().unwrap_or_else(|p| p.into_inner()) = counts;
    }

    /// An answer the router gave, by its status code.
    pub fn response(&self, status: u16) {
        if let Some(class) = (status / 100).checked_sub(1).filter(|c| *c < 5) {
            self.responses[class as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// An answer that took `took`, for the route template that matched (None: the fallback
    /// answered; `status` then tells a page or redirect from a request nothing matched).
    /// No allocation but the first time a route is seen. Returns the route's label.
    pub fn request<'a>(&self, route: Option<&'a str>, status: u16, took: Duration) -> &'a str {
        let route = route.unwrap_or(if status < 400 { PAGE_ROUTE } else { UNMATCHED_ROUTE });
        if route == PAGE_ROUTE {
            self.page_durations.observe(took);
            return route;
        }
        if let Some(d) = self.durations.read().unwrap_or_else(|p| p.into_inner()).get(route) {
            d.observe(took);
            return route;
        }
        self.durations
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .entry(route.into())
            .or_default()
            .observe(took);
        route
    }

    /// Scheduled backups are on: their figures appear (zeros until the first one).
    pub fn backups_enabled(&self) {
        let mut b = self.backups.lock().unwrap_or_else(|p| p.into_inner());
        b.get_or_insert_with(BackupFigures::default);
    }

    /// A scheduled backup ended at `at_ms`: written and checked (`ok`), or not.
    pub fn backup_finished(&self, ok: bool, at_ms: i64, duration_ms: u64, bytes: u64) {
        let mut b = self.backups.lock().unwrap_or_else(|p| p.into_inner());
        let f = b.get_or_insert_with(BackupFigures::default);
        f.last_attempt_ms = at_ms;
        f.last_ok = ok;
        f.last_duration_ms = duration_ms;
        if ok {
            f.last_success_ms = at_ms;
            f.last_bytes = bytes;
        } else {
            f.failures += 1;
        }
    }

    /// Litestream answered (`up`) or not, and the replica is `lag` behind.
    pub fn set_replica(&self, up: bool, lag: Duration) {
        *self.replica.lock().unwrap_or_else(|p| p.into_inner()) = Some((up, lag));
    }

    /// The notification and backup figures as the workers last recorded them.
    pub fn health(&self) -> Health {
        Health {
            outboxes: self
                .outboxes
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .map(|(name, o)| (*name, *o))
                .collect(),
            deliveries_24h: self.deliveries_24h.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            backups: *self.backups.lock().unwrap_or_else(|p| p.into_inner()),
        }
    }

    /// The whole exposition, from memory (no database read); `now_ms` ages the oldest
    /// undelivered notification.
    pub fn render(&self, render: RenderFigures, now_ms: i64) -> String {
        let mut out = String::with_capacity(4096);
        let _ = writeln!(
            out,
            "# HELP site_build_info The running build: its version and git commit.\n# TYPE site_build_info gauge\nsite_build_info{{version=\"{}\",commit=\"{}\"}} 1",
            label_value(crate::release::version()),
            label_value(env!("SITE_GIT_COMMIT"))
        );
        ProcessFigures::read().write(&mut out);
        self.write_durations(&mut out);
        let mut counter = |name: &str, help: &str, value: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        };
        counter(
            "site_leads_accepted_total",
            "New leads stored.",
            self.leads_accepted.load(Ordering::Relaxed),
        );
        counter(
            "site_leads_duplicate_total",
            "Repeat submissions answered with an earlier lead.",
            self.leads_duplicate.load(Ordering::Relaxed),
        );
        counter(
            "site_leads_honeypot_total",
            "Submissions discarded because the honeypot was filled.",
            self.leads_honeypot.load(Ordering::Relaxed),
        );
        counter(
            "site_certificate_tokens_recorded_total",
            "Certificate tokens recorded.",
            self.tokens_recorded.load(Ordering::Relaxed),
        );
        counter(
            "site_render_cache_hits_total",
            "Pages served from the render cache.",
            render.cache_hits,
        );
        counter(
            "site_render_cache_misses_total",
            "Pages that had to be rendered.",
            render.cache_misses,
        );
        counter(
            "site_render_queue_rejected_total",
            "Renders refused because the render queue was full (answered 503).",
            render.rejected,
        );
        let _ = writeln!(
            out,
            "# HELP site_renders_total Renders the engines did, by lane (public pages; the console for signed-in staff).\n# TYPE site_renders_total counter\nsite_renders_total{{lane=\"public\"}} {}\nsite_renders_total{{lane=\"staff\"}} {}",
            render.public_renders, render.staff_renders
        );
        let _ = writeln!(
            out,
            "# HELP site_http_responses_total Answers of the site's router, by status class.\n# TYPE site_http_responses_total counter"
        );
        for (i, n) in self.responses.iter().enumerate() {
            let _ = writeln!(
                out,
                "site_http_responses_total{{class=\"{}xx\"}} {}",
                i + 1,
                n.load(Ordering::Relaxed)
            );
        }
        let _ = writeln!(
            out,
            "# HELP site_leads_rejected_total Submissions refused, by reason.\n# TYPE site_leads_rejected_total counter"
        );
        for (reason, n) in self.rejected.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "site_leads_rejected_total{{reason=\"{reason}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP site_submissions_total Account requests and campaign applications, by kind and outcome.\n# TYPE site_submissions_total counter"
        );
        for ((kind, outcome), n) in self.submissions.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "site_submissions_total{{kind=\"{kind}\",outcome=\"{outcome}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP site_rate_limit_fallbacks_total Requests a shared rate limit counted on this server alone, because the database's count did not answer within its deadline or failed, by limit.\n# TYPE site_rate_limit_fallbacks_total counter"
        );
        for (scope, n) in self.limit_fallbacks.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "site_rate_limit_fallbacks_total{{limit=\"{scope}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP site_notification_deliveries_total Delivery attempts, by channel and outcome.\n# TYPE site_notification_deliveries_total counter"
        );
        for ((channel, outcome), n) in self.deliveries.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(
                out,
                "site_notification_deliveries_total{{channel=\"{channel}\",outcome=\"{outcome}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP site_notification_delivery_seconds Time from accepting a lead to delivering its notification.\n# TYPE site_notification_delivery_seconds histogram"
        );
        for (i, bound) in LATENCY_BUCKETS.iter().enumerate() {
            let _ = writeln!(
                out,
                "site_notification_delivery_seconds_bucket{{le=\"{bound}\"}} {}",
                self.latency_buckets[i].load(Ordering::Relaxed)
            );
        }
        let count = self.latency_count.load(Ordering::Relaxed);
        let _ = writeln!(out, "site_notification_delivery_seconds_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "site_notification_delivery_seconds_sum {}",
            self.latency_sum_ms.load(Ordering::Relaxed) as f64 / 1000.0
        );
        let _ = writeln!(out, "site_notification_delivery_seconds_count {count}");
        let _ = writeln!(
            out,
            "# HELP site_notification_outcomes_dropped_total Delivery outcomes not recorded because another claim had taken the notification over (its lease ran out), by channel.\n# TYPE site_notification_outcomes_dropped_total counter"
        );
        for (channel, n) in self.outcomes_dropped.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "site_notification_outcomes_dropped_total{{channel=\"{channel}\"}} {n}");
        }
        let leading = self.leading();
        let _ = writeln!(
            out,
            "# HELP site_jobs_leader 1 when this server runs the scheduled jobs and exports the database's figures (outbox_*, site_notification_deliveries_24h); one server at a time.\n# TYPE site_jobs_leader gauge\nsite_jobs_leader {}",
            u8::from(leading)
        );
        let _ = writeln!(
            out,
            "# HELP site_scheduled_job_runs_total Scheduled jobs this server ran, by job.\n# TYPE site_scheduled_job_runs_total counter"
        );
        for (job, n) in self.job_runs.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "site_scheduled_job_runs_total{{job=\"{job}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP site_funnel_zone_mismatch 1 when this server's site.time_zone (or its time zone rules) differs from the zone the database counts the funnel's days in; the console's funnel and health page say which.\n# TYPE site_funnel_zone_mismatch gauge\nsite_funnel_zone_mismatch {}",
            u8::from(self.funnel_zone_mismatch.load(Ordering::Relaxed))
        );
        let mut health = self.health();
        if !leading {
            // Database-wide figures: the server running the scheduled jobs exports them.
            health.outboxes.clear();
            health.deliveries_24h.clear();
        }
        let outboxes = &health.outboxes;
        let _ = writeln!(
            out,
            "# HELP site_outbox_depth Notifications not delivered, by outbox and status (pending: being retried; failed: given up, see `site outbox retry`); database-wide, from the server with site_jobs_leader 1 only.\n# TYPE site_outbox_depth gauge"
        );
        for (name, o) in outboxes.iter() {
            let _ = writeln!(out, "site_outbox_depth{{outbox=\"{name}\",status=\"pending\"}} {}", o.pending);
            let _ = writeln!(out, "site_outbox_depth{{outbox=\"{name}\",status=\"failed\"}} {}", o.failed);
        }
        let _ = writeln!(
            out,
            "# HELP site_outbox_oldest_undelivered_seconds Age of the oldest notification not yet delivered (0: none); database-wide, from the server with site_jobs_leader 1 only.\n# TYPE site_outbox_oldest_undelivered_seconds gauge"
        );
        for (name, o) in outboxes.iter() {
            let age = o.oldest_undelivered_ms.map_or(0.0, |t| (now_ms - t).max(0) as f64 / 1000.0);
            let _ = writeln!(out, "site_outbox_oldest_undelivered_seconds{{outbox=\"{name}\"}} {age}");
        }
        let _ = writeln!(
            out,
            "# HELP site_notification_deliveries_24h Delivery attempts of lead notifications in the last 24 hours, by channel and outcome; database-wide, from the server with site_jobs_leader 1 only.\n# TYPE site_notification_deliveries_24h gauge"
        );
        for d in &health.deliveries_24h {
            let _ = writeln!(
                out,
                "site_notification_deliveries_24h{{channel=\"{}\",outcome=\"{}\"}} {}",
                label_value(&d.channel),
                label_value(&d.outcome),
                d.count
            );
        }
        if let Some(b) = health.backups {
            let secs = |ms: i64| ms as f64 / 1000.0;
            let mut gauge = |name: &str, help: &str, value: f64| {
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
            };
            gauge(
                "site_backup_last_success_timestamp_seconds",
                "When the last scheduled backup was written and checked (Unix time; 0: none yet).",
                secs(b.last_success_ms),
            );
            gauge(
                "site_backup_last_attempt_timestamp_seconds",
                "When the last scheduled backup ended, whatever its outcome (Unix time; 0: none yet).",
                secs(b.last_attempt_ms),
            );
            gauge(
                "site_backup_last_ok",
                "1 when the last scheduled backup succeeded, 0 when it failed (or none ran yet).",
                if b.last_ok { 1.0 } else { 0.0 },
            );
            gauge(
                "site_backup_last_duration_seconds",
                "How long the last scheduled backup took.",
                b.last_duration_ms as f64 / 1000.0,
            );
            gauge("site_backup_last_size_bytes", "Size of the last good backup.", b.last_bytes as f64);
            let _ = writeln!(
                out,
                "# HELP site_backup_failures_total Scheduled backups that failed.\n# TYPE site_backup_failures_total counter\nsite_backup_failures_total {}",
                b.failures
            );
        }
        if let Some((up, lag)) = *self.replica.lock().unwrap_or_else(|p| p.into_inner()) {
            let _ = writeln!(
                out,
                "# HELP site_replica_up 1 when Litestream's control socket answered the last question about the replica.\n# TYPE site_replica_up gauge\nsite_replica_up {}",
                u8::from(up)
            );
            let _ = writeln!(
                out,
                "# HELP site_replica_lag_seconds How long ago the newest moment was whose commits are all in Litestream's replica.\n# TYPE site_replica_lag_seconds gauge\nsite_replica_lag_seconds {}",
                lag.as_secs_f64()
            );
        }
        out
    }
}

impl Metrics {
    /// `site_http_request_duration_seconds`, by route, routes in order.
    fn write_durations(&self, out: &mut String) {
        let name = "site_http_request_duration_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time to answer a request (to the answer's head), by route template ({PAGE_ROUTE}: a page or redirect; {UNMATCHED_ROUTE}: nothing matched).\n# TYPE {name} histogram"
        );
        let durations = self.durations.read().unwrap_or_else(|p| p.into_inner());
        let mut routes: Vec<(&str, &Durations)> = durations.iter().map(|(r, d)| (&**r, d)).collect();
        // As every route, shown once it has been seen.
        if self.page_durations.buckets.iter().any(|n| n.load(Ordering::Relaxed) > 0) {
            routes.push((PAGE_ROUTE, &self.page_durations));
        }
        routes.sort_by(|a, b| a.0.cmp(b.0));
        for (route, d) in routes {
            let route = label_value(route);
            let mut total = 0;
            for (i, n) in d.buckets.iter().enumerate() {
                total += n.load(Ordering::Relaxed);
                match REQUEST_BUCKETS.get(i) {
                    Some(bound) => {
                        let _ = writeln!(out, "{name}_bucket{{route=\"{route}\",le=\"{bound}\"}} {total}");
                    }
                    None => {
                        let _ = writeln!(out, "{name}_bucket{{route=\"{route}\",le=\"+Inf\"}} {total}");
                    }
                }
            }
            let sum = d.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
            let _ = writeln!(
                out,
                "{name}_sum{{route=\"{route}\"}} {sum}\n{name}_count{{route=\"{route}\"}} {total}"
            );
        }
    }
}

/// A label value as the exposition format wants it (backslash, quote and newline escaped).
fn label_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

mod process;
pub use process::ProcessFigures;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_durations_are_counted_by_route_with_cumulative_buckets() {
        let m = Metrics::default();
        m.request(Some("/api/leads"), 201, Duration::from_micros(800));
        m.request(Some("/api/leads"), 201, Duration::from_millis(30));
        m.request(None, 200, Duration::from_micros(100));
        m.request(None, 404, Duration::from_secs(20));
        let text = m.render(RenderFigures::default(), 0);
        let name = "site_http_request_duration_seconds";
        for line in [
            format!("{name}_bucket{{route=\"/api/leads\",le=\"0.0005\"}} 0"),
            format!("{name}_bucket{{route=\"/api/leads\",le=\"0.001\"}} 1"),
            format!("{name}_bucket{{route=\"/api/leads\",le=\"0.05\"}} 2"),
            format!("{name}_bucket{{route=\"/api/leads\",le=\"+Inf\"}} 2"),
            format!("{name}_count{{route=\"/api/leads\"}} 2"),
            format!("{name}_sum{{route=\"/api/leads\"}} 0.0308"),
            format!("{name}_bucket{{route=\"(page)\",le=\"0.0005\"}} 1"),
            format!("{name}_bucket{{route=\"(unmatched)\",le=\"10\"}} 0"),
            format!("{name}_bucket{{route=\"(unmatched)\",le=\"+Inf\"}} 1"),
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line}:\n{text}");
        }
        assert!(text.contains("site_build_info{version=\""), "{text}");
    }
}
