//! The workers: started beside the HTTP server, stopped after it has finished the requests
//! in flight: the outbox worker, the retention job and, when `backup.dir` is set, the
//! scheduled backups.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::state::AppState;
use crate::store::{self, Store};

/// The tasks that run beside the HTTP server: the outbox worker and the retention job.
pub struct Background {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    store: Arc<Store>,
}

impl Background {
    pub fn start(state: &Arc<AppState>) -> Self {
        let (stop, stopped) = watch::channel(false);
        let notifier = Arc::clone(&state.notifier).run(stopped.clone());
        let retention = retention_job(Arc::clone(&state.store), state.config.leads.retention_days, stopped.clone());
        let mut tasks = vec![tokio::spawn(notifier), tokio::spawn(retention)];
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

    /// Lets the worker finish the delivery in progress, then flushes and closes the store.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
        self.store.close().await;
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

/// Deletes leads and certificate records older than the retention period: at start, then daily.
async fn retention_job(store: Arc<Store>, days: u32, mut stop: watch::Receiver<bool>) {
    let period = Duration::from_secs(24 * 60 * 60);
    loop {
        let cutoff = store::now_ms() - i64::from(days) * 24 * 60 * 60 * 1000;
        match store.purge_before(cutoff).await {
            Ok((leads, certs)) => tracing::info!(leads, certificates = certs, days, "retention: old records deleted"),
            Err(e) => tracing::error!(error = %e, "retention job failed"),
        }
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            _ = stop.changed() => return,
        }
    }
}
