//! The workers: started beside the HTTP server, stopped after it has finished the requests
//! in flight: the outbox worker (on every server), the scheduled jobs (on one server at a
//! time: the retention purge and the database's figures for /metrics) and, when
//! `backup.dir` is set, the scheduled backups.
//!
//! Several servers may share one PostgreSQL database. Each delivers notifications; one at a
//! time runs the scheduled jobs, holding a lease on them in the database (`job_leader`, by
//! the database's clock) that it renews every third of `server.leader_lease_ms`; when it
//! stops renewing (it died, or lost the database), another takes the lease when it runs out
//! (docs/decisions/020). On SQLite the one server holds it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::metrics::Metrics;
use crate::state::AppState;
use crate::store::{self, Store};

/// How often the server running the scheduled jobs reads the database's figures for /metrics.
const SUMMARY_EVERY: Duration = Duration::from_secs(2);
/// How often the retention purge runs (and at once on a server that starts running the jobs).
const RETENTION_EVERY: Duration = Duration::from_secs(24 * 60 * 60);

/// The tasks that run beside the HTTP server: the outbox worker and the scheduled jobs.
/// Dropped without [`Background::shutdown`], its tasks end where they are, as a killed
/// process's would: no lease given up, nothing flushed.
pub struct Background {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    store: Arc<Store>,
}

impl Background {
    pub fn start(state: &Arc<AppState>) -> Self {
        let (stop, stopped) = watch::channel(false);
        let notifier = Arc::clone(&state.notifier).run(stopped.clone());
        let jobs = scheduled_jobs(Arc::clone(state), holder_name(), stopped.clone());
        let summary = database_figures(Arc::clone(state), stopped.clone());
        let mut tasks = vec![tokio::spawn(notifier), tokio::spawn(jobs), tokio::spawn(summary)];
        tasks.push(tokio::spawn(business_zone_job(
            Arc::clone(&state.store),
            crate::admin::zone::Zone::new(&state.config.site.time_zone),
        )));
        let backup = &state.config.backup;
        if let (Some(dir), Some(interval)) = (backup.dir(), backup.interval()) {
            match crate::ops::sqlite_path(&state.config.server.database_url) {
                Some(db) => {
                    let schedule = crate::ops::backup::Schedule {
                        dir: dir.to_path_buf(),
                        interval,
                        keep: backup.keep,
                    };
                    tasks.push(tokio::spawn(crate::ops::backup::scheduled(
                        db,
                        schedule,
                        Arc::clone(&state.metrics),
                        stopped,
                    )));
                }
                None => tracing::warn!(
                    "backup.dir is set but the database is PostgreSQL: back it up with pg_dump (docs/operations.md); no scheduled backups"
                ),
            }
        }
        Self {
            stop,
            tasks,
            store: Arc::clone(&state.store),
        }
    }

    /// Lets the worker finish the deliveries in progress (each bounded by
    /// `notify.send_timeout_ms`) and gives up the jobs' lease (so another server takes it at
    /// once), then flushes and closes the store; all within `grace` each, whatever a mail
    /// relay, a webhook receiver or the database does. What is cut off there ends as a killed
    /// process's work would: a notification whose send was cut is sent again when its lease
    /// runs out (late, never lost).
    pub async fn shutdown(mut self, grace: Duration) {
        let _ = self.stop.send(true);
        let tasks = std::mem::take(&mut self.tasks);
        let aborts: Vec<_> = tasks.iter().map(JoinHandle::abort_handle).collect();
        let finished = async {
            for task in tasks {
                let _ = task.await;
            }
        };
        if tokio::time::timeout(grace, finished).await.is_err() {
            tracing::warn!(
                grace_ms = grace.as_millis() as u64,
                "the workers did not stop within the shutdown grace period; stopping them where they are"
            );
            for abort in aborts {
                abort.abort();
            }
        }
        if tokio::time::timeout(grace, self.store.close()).await.is_err() {
            tracing::warn!(
                grace_ms = grace.as_millis() as u64,
                "the database did not close within the shutdown grace period"
            );
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// This process's name in `job_leader`: host, process id and a random part (a process id
/// can come back after a restart).
fn holder_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let host = if host.is_empty() { "unknown".to_string() } else { host };
    let random = uuid::Uuid::now_v7().simple().to_string();
    format!("{host}:{}:{}", std::process::id(), &random[random.len() - 8..])
}

/// Holds (or waits for) the scheduled jobs' lease, and runs the jobs while it holds it: the
/// retention purge at once, then daily. Each renewal is bounded by a third of the lease, so
/// this server stops counting itself the runner (and stops exporting the database's
/// figures) before the lease can run out under it. On stop, the lease is given up.
async fn scheduled_jobs(state: Arc<AppState>, holder: String, mut stop: watch::Receiver<bool>) {
    let lease = Duration::from_millis(state.config.server.leader_lease_ms);
    let renew_every = lease / 3;
    let mut leading = false;
    let mut next_retention: Option<Instant> = None;
    let mut retention: Option<JoinHandle<()>> = None;
    loop {
        let asked = Instant::now();
        let held = match tokio::time::timeout(renew_every, state.store.lead_jobs(&holder, lease.as_millis() as i64)).await {
            Ok(Ok(held)) => held,
            Ok(Err(e)) => {
                tracing::error!(error = %e, "scheduled jobs: cannot take or renew the lease");
                false
            }
            Err(_) => {
                tracing::error!("scheduled jobs: the lease's renewal took too long");
                false
            }
        };
        if held != leading {
            if held {
                tracing::info!(holder = %holder, "this server runs the scheduled jobs now");
            } else {
                tracing::warn!(holder = %holder, "this server no longer runs the scheduled jobs");
            }
            leading = held;
            state.metrics.set_leader(held);
            next_retention = None;
        }
        if leading && next_retention.is_none_or(|at| asked >= at) && retention.as_ref().is_none_or(JoinHandle::is_finished) {
            retention = Some(tokio::spawn(retention_purge(
                Arc::clone(&state.store),
                state.config.leads.retention_days,
                Arc::clone(&state.metrics),
            )));
            next_retention = Some(asked + RETENTION_EVERY);
        }
        tokio::select! {
            () = tokio::time::sleep_until(asked + renew_every) => {}
            _ = stop.changed() => break,
        }
    }
    if leading {
        state.metrics.set_leader(false);
        if let Err(e) = state.store.resign_jobs(&holder).await {
            tracing::warn!(error = %e, "scheduled jobs: cannot give the lease up; another server takes it when it runs out");
        }
    }
    if let Some(purge) = retention {
        let _ = purge.await;
    }
}

/// Reads the database's figures for /metrics every two seconds while this server runs the
/// scheduled jobs (the only one that exports them).
async fn database_figures(state: Arc<AppState>, mut stop: watch::Receiver<bool>) {
    loop {
        if state.metrics.leading() {
            let _ = tokio::time::timeout(SUMMARY_EVERY, state.notifier.refresh_summary()).await;
        }
        tokio::select! {
            () = tokio::time::sleep(SUMMARY_EVERY) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Gives the database the business's time zone for the funnel's daily counts, at start (a
/// new zone, or the first start after migration 0007, counts them anew from the leads).
async fn business_zone_job(store: Arc<Store>, zone: crate::admin::zone::Zone) {
    let started = std::time::Instant::now();
    match store.ensure_business_zone(&zone.offsets()).await {
        Ok(true) => {
            tracing::info!(zone = %zone.name, ms = started.elapsed().as_millis() as u64, "funnel: daily counts made anew for the time zone")
        }
        Ok(false) => {}
        Err(e) => tracing::error!(error = %e, "funnel: cannot write the time zone; the console's funnel tries again when it is opened"),
    }
}

/// Deletes leads and certificate records older than the retention period (run by the
/// server holding the jobs' lease: when it takes it, then daily).
async fn retention_purge(store: Arc<Store>, days: u32, metrics: Arc<Metrics>) {
    let cutoff = store::now_ms() - i64::from(days) * 24 * 60 * 60 * 1000;
    match store.purge_before(cutoff).await {
        Ok((leads, certs)) => tracing::info!(leads, certificates = certs, days, "retention: old records deleted"),
        Err(e) => tracing::error!(error = %e, "retention job failed"),
    }
    metrics.job_ran("retention");
}
