//! The workers: started beside the HTTP server, stopped after it has finished the requests
//! in flight: the outbox worker (on every server), the scheduled jobs (on one server at a
//! time: the retention purge, the funnel's recount when its counts are due to be made anew,
//! and the database's figures for /metrics), the comparison of this server's time zone with
//! the funnel's (on every server), the campaigns' watch (on every server: the pages follow
//! a change another server made, woken by PostgreSQL's notifications, with a slow poll
//! behind them) and, when `backup.dir` is set, the scheduled backups.
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
use crate::store::{self, RecountHold, Store, ZoneOffsets};

/// How often every server reads the campaigns when no notification came (PostgreSQL's
/// listener down, or SQLite's file changed by a restore): the slow poll behind the wake-ups.
const CAMPAIGNS_POLL: Duration = Duration::from_secs(30);

/// How often the server running the scheduled jobs reads the database's figures for /metrics.
const SUMMARY_EVERY: Duration = Duration::from_secs(2);
/// How often the retention purge runs (and at once on a server that starts running the jobs).
const RETENTION_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// How often the server running the scheduled jobs sees whether the funnel's counts are due
/// to be made anew (and at once on taking the jobs), and every server compares its time zone
/// with the one they are counted in.
const FUNNEL_EVERY: Duration = Duration::from_secs(60);

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
        let zone_watch = funnel_zone_watch(Arc::clone(state), stopped.clone());
        let campaigns = campaigns_watch(Arc::clone(state), stopped.clone());
        let mut tasks = vec![
            tokio::spawn(notifier),
            tokio::spawn(jobs),
            tokio::spawn(summary),
            tokio::spawn(zone_watch),
            tokio::spawn(campaigns),
        ];
        let backup = &state.config.backup;
        if let Some(socket) = backup.litestream_socket() {
            match crate::ops::sqlite_path(&state.config.server.database_url).map(|db| std::path::absolute(&db)) {
                Some(Ok(db)) => tasks.push(tokio::spawn(crate::replication::watch(
                    socket.to_path_buf(),
                    db,
                    Arc::clone(&state.metrics),
                    stopped.clone(),
                ))),
                Some(Err(e)) => {
                    tracing::warn!(error = %e, "backup.litestream_socket: the database's absolute path is unknown; the replica is not watched")
                }
                None => tracing::warn!(
                    "backup.litestream_socket is set but the database is PostgreSQL: Litestream replicates SQLite only; the socket is not asked"
                ),
            }
        }
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
    let mut next_funnel: Option<Instant> = None;
    let mut funnel: Option<JoinHandle<()>> = None;
    let zone = crate::admin::zone::Zone::new(&state.config.site.time_zone).offsets();
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
            next_funnel = None;
        }
        if leading && next_retention.is_none_or(|at| asked >= at) && retention.as_ref().is_none_or(JoinHandle::is_finished) {
            retention = Some(tokio::spawn(retention_purge(
                Arc::clone(&state.store),
                state.config.leads.retention_days,
                Arc::clone(&state.metrics),
            )));
            next_retention = Some(asked + RETENTION_EVERY);
        }
        if leading && next_funnel.is_none_or(|at| asked >= at) && funnel.as_ref().is_none_or(JoinHandle::is_finished) {
            funnel = Some(tokio::spawn(funnel_recount(
                Arc::clone(&state.store),
                zone.clone(),
                Arc::clone(&state.metrics),
            )));
            next_funnel = Some(asked + FUNNEL_EVERY);
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
    // A recount stopped half-way is done again by the next server to run the jobs
    // (`funnel_recount` still says it is due); a stop does not wait for it.
    if let Some(recount) = funnel {
        recount.abort();
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

/// Counts the funnel anew when its counts are due to be (`FunnelState::recount_reason`: the
/// zone `business_zone` holds is not this server's, or a migration or a recount cut short
/// asked for it; `site_scheduled_job_runs_total{job="funnel_recount"}` counts them). Run by the server holding the scheduled jobs only, so servers set to other
/// zones never take turns counting anew: they say so instead (`funnel_zone_watch`). Leads
/// keep arriving meanwhile (`store::funnel`).
async fn funnel_recount(store: Arc<Store>, zone: ZoneOffsets, metrics: Arc<Metrics>) {
    let reason = match store.funnel_state().await {
        Ok(state) => state.recount_reason(&zone),
        Err(e) => {
            tracing::error!(error = %e, "funnel: cannot read its time zone; tried again in a minute");
            return;
        }
    };
    let Some(reason) = reason else { return };
    tracing::info!(zone = %zone.zone, reason = %reason, "funnel: counting the daily counts anew; leads keep arriving meanwhile");
    let started = std::time::Instant::now();
    match store.recount_funnel(&zone, &reason, RecountHold::none()).await {
        Ok(()) => {
            metrics.job_ran("funnel_recount");
            tracing::info!(zone = %zone.zone, ms = started.elapsed().as_millis() as u64, "funnel: daily counts made anew for the time zone")
        }
        Err(e) => tracing::error!(error = %e, "funnel: the recount failed; it is done again in a minute"),
    }
}

/// Compares this server's time zone with the one the database counts the funnel's days in,
/// at start and every minute (every server): `site_funnel_zone_mismatch` on /metrics, and a
/// warning in the log when they come to differ (an error of the configuration, or two time
/// zone databases during an upgrade), a note when they agree again.
async fn funnel_zone_watch(state: Arc<AppState>, mut stop: watch::Receiver<bool>) {
    let own = crate::admin::zone::Zone::new(&state.config.site.time_zone);
    let mut differed: Option<bool> = None;
    loop {
        match state.store.funnel_state().await {
            Ok(counted) => {
                let differs = crate::admin::zone::ZoneAgreement::of(&own, &counted).differs();
                state.metrics.set_funnel_zone_mismatch(differs);
                if differs && differed != Some(true) {
                    tracing::warn!(
                        database_zone = %counted.zone.zone,
                        server_zone = %own.name,
                        "funnel: this server's time zone differs from the one the database counts days in (written by the \
                         server running the scheduled jobs); its console shows the days as counted. Give every server the \
                         same site.time_zone and release"
                    );
                } else if !differs && differed == Some(true) {
                    tracing::info!(zone = %own.name, "funnel: this server's time zone agrees with the database's again");
                }
                differed = Some(differs);
            }
            Err(e) => tracing::debug!(error = %e, "funnel: cannot read the database's time zone; tried again in a minute"),
        }
        tokio::select! {
            () = tokio::time::sleep(FUNNEL_EVERY) => {}
            _ = stop.changed() => return,
        }
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

/// Rebuilds this server's pages when the campaigns changed: at each of the store's wake-ups
/// (PostgreSQL's `site_campaigns` notifications) and every `CAMPAIGNS_POLL` in case one was
/// missed. A change this server saved is on its pages already (the console refreshes them).
async fn campaigns_watch(state: Arc<AppState>, mut stop: watch::Receiver<bool>) {
    let wake = Arc::new(tokio::sync::Notify::new());
    let listener = state.store.watch_campaigns(Arc::clone(&wake), stop.clone());
    loop {
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(CAMPAIGNS_POLL) => {}
            _ = stop.changed() => break,
        }
        if let Err(e) = state.refresh_campaigns().await {
            tracing::warn!(error = %e, "cannot read the campaigns; the pages show them as they were");
        }
    }
    if let Some(listener) = listener {
        let _ = listener.await;
    }
}
