//! `site backup FILE`, and the server's scheduled backups (`backup.dir`, `backup.interval`,
//! `backup.keep`). The copy itself (online, checked, renamed only when complete) is
//! `store::sqlite::backup`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::metrics::Metrics;
use crate::store::sqlite::backup::{self as sqlite_backup, BackupReport};

/// Scheduled backups are named `site-<UTC time>.db`; only these are pruned.
const SCHEDULED_PREFIX: &str = "site-";

/// `site backup FILE`: copies the database at `db` to `dest`, checks the copy and prints
/// what it holds. Any problem is an error (and no file under `dest`).
pub fn run(db: &Path, dest: &Path, out: &mut impl Write) -> Result<(), String> {
    let report = sqlite_backup::backup(db, dest).map_err(|e| e.to_string())?;
    print_report(&report, out).map_err(|e| e.to_string())
}

/// The lines `site backup` and `site restore` print: where, how big, how long, and every
/// table's rows.
pub fn print_report(report: &BackupReport, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "backup written to {} ({} bytes in {} ms), integrity_check ok",
        report.path.display(),
        report.bytes,
        report.elapsed.as_millis()
    )?;
    print_counts(&report.tables, out)
}

/// One line per table: its name and row count.
pub fn print_counts(tables: &[(String, i64)], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{:<24} {:>12}", "table", "rows")?;
    for (name, n) in tables {
        writeln!(out, "{name:<24} {n:>12}")?;
    }
    Ok(())
}

/// Where and how often the server backs up, from `backup.*`.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub dir: PathBuf,
    pub interval: Duration,
    pub keep: usize,
}

/// The name of a scheduled backup taken at `now_ms`.
pub fn scheduled_name(now_ms: i64) -> String {
    format!("{SCHEDULED_PREFIX}{}.db", crate::time::file_stamp(now_ms))
}

/// Backs up the database at `db` into `schedule.dir` at start and then every interval,
/// pruning the oldest beyond `keep`, until `stop` turns true. Each outcome goes to /metrics
/// and the log.
pub async fn scheduled(db: PathBuf, schedule: Schedule, metrics: Arc<Metrics>, mut stop: watch::Receiver<bool>) {
    metrics.backups_enabled();
    loop {
        let started = std::time::Instant::now();
        let dest = schedule.dir.join(scheduled_name(crate::store::now_ms()));
        let (db_copy, dir, keep) = (db.clone(), schedule.dir.clone(), schedule.keep);
        let outcome = tokio::task::spawn_blocking(move || {
            let report = sqlite_backup::backup(&db_copy, &dest).map_err(|e| e.to_string())?;
            let pruned = prune(&dir, keep).map_err(|e| format!("pruning {}: {e}", dir.display()))?;
            Ok::<_, String>((report, pruned))
        })
        .await
        .unwrap_or_else(|e| Err(e.to_string()));
        let ms = started.elapsed().as_millis() as u64;
        match outcome {
            Ok((report, pruned)) => {
                metrics.backup_finished(true, crate::store::now_ms(), ms, report.bytes);
                tracing::info!(file = %report.path.display(), bytes = report.bytes, ms, pruned = pruned.len(), "backup written and checked");
            }
            Err(e) => {
                metrics.backup_finished(false, crate::store::now_ms(), ms, 0);
                tracing::error!(error = %e, "scheduled backup failed");
            }
        }
        tokio::select! {
            () = tokio::time::sleep(schedule.interval) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Deletes the oldest scheduled backups in `dir` beyond the newest `keep`; returns them.
/// Other files (pre-migration backups, an operator's own) are left alone.
pub fn prune(dir: &Path, keep: usize) -> std::io::Result<Vec<PathBuf>> {
    let mut scheduled: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(SCHEDULED_PREFIX) && n.ends_with(".db"))
        })
        .collect();
    // The names hold the UTC time: sorting them sorts by age.
    scheduled.sort();
    let excess = scheduled.len().saturating_sub(keep);
    let old: Vec<PathBuf> = scheduled.into_iter().take(excess).collect();
    for path in &old {
        std::fs::remove_file(path)?;
    }
    Ok(old)
}

#[cfg(test)]
mod tests {
    #[test]
    fn prune_keeps_the_newest_scheduled_backups_and_nothing_else_is_touched() {
        let dir = std::env::temp_dir().join(format!("site-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let names = [
            super::scheduled_name(1_000_000_000_000),
            super::scheduled_name(1_000_000_060_000),
            super::scheduled_name(1_000_000_120_000),
            "pre-migration-x.db".to_string(),
            "mine.db".to_string(),
        ];
        for n in &names {
            std::fs::write(dir.join(n), b"x").expect("write");
        }
        let removed = super::prune(&dir, 2).expect("prune");
        assert_eq!(removed, vec![dir.join(&names[0])]);
        for n in &names[1..] {
            assert!(dir.join(n).exists(), "{n} kept");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
