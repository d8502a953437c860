//! The SQLite writer's flushes of its write-ahead log (docs/decisions/002-group-commit.md,
//! "The flush beside the next group"). The writer's connection commits with `synchronous =
//! NORMAL` (written to the log, not yet flushed); the syncer, a thread beside the writer,
//! flushes the log with one `fdatasync` and only then answers the groups committed before
//! the flush began, while the writer already runs the next group.

use std::fs::File;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;
use std::thread::JoinHandle;

use rusqlite::Connection;
use tokio::sync::oneshot;

use crate::store::sql::statements;

statements! {
    /// The database's journal mode: `wal` when the writer's log can be flushed beside it.
    JOURNAL_MODE = "PRAGMA journal_mode";
    /// The writer's commits go to the log without flushing it: the syncer flushes it.
    COMMIT_WITHOUT_FLUSH = "PRAGMA synchronous = NORMAL";
}

/// What a waiter is told once its group is finished: whether its write is committed and
/// on disk.
pub(super) type Done = Box<dyn FnOnce(bool) + Send>;

/// A committed group, for the syncer: its waiters, answered once the log is flushed.
pub(super) struct Committed {
    pub(super) done: Vec<Done>,
    pub(super) pings: Vec<oneshot::Sender<()>>,
    pub(super) committed: bool,
}

impl Committed {
    pub(super) fn finish(self, on_disk: bool) {
        for done in self.done {
            done(self.committed && on_disk);
        }
        for ping in self.pings {
            let _ = ping.send(());
        }
    }
}

/// What makes the commits written to the log durable: the log's file (`fdatasync`); in the
/// writer's tests, a flush they hold and release.
pub(super) trait Flush: Send + Sync {
    /// Whether everything written to the log before the call is on disk.
    fn flush(&self) -> bool;
}

impl Flush for File {
    fn flush(&self) -> bool {
        match self.sync_data() {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(error = %e, "cannot flush the write-ahead log");
                false
            }
        }
    }
}

/// The write-ahead log of `conn`'s database (the file SQLite names: `conn.path()` resolved
/// as SQLite resolves it, and `-wal`), opened for the flushes, and `conn` set to commit
/// without flushing it. A database not in WAL mode, a log that cannot be opened or a setting
/// that fails leave `synchronous = FULL`: every COMMIT then flushes in place.
pub(super) fn open_wal(conn: &Connection) -> Option<Arc<dyn Flush>> {
    let in_place = |why: &str| {
        tracing::warn!(why, "the writer's log is not flushed beside it; each commit flushes in place");
        None
    };
    match conn.query_row(JOURNAL_MODE, [], |r| r.get::<_, String>(0)) {
        Ok(mode) if mode.eq_ignore_ascii_case("wal") => {}
        Ok(_) => return in_place("the database is not in WAL mode"),
        Err(_) => return in_place("its journal mode cannot be read"),
    }
    let Some(db) = conn.path().filter(|p| !p.is_empty()) else {
        return in_place("the database has no file");
    };
    let wal = match File::open(format!("{db}-wal")) {
        Ok(file) => file,
        Err(_) => return in_place("the log's file cannot be opened"),
    };
    match conn.execute_batch(COMMIT_WITHOUT_FLUSH) {
        Ok(()) => Some(Arc::new(wal)),
        Err(_) => in_place("synchronous = NORMAL cannot be set"),
    }
}

/// How a committed group is made durable.
enum How {
    /// The syncer flushes the log beside the writer and answers the groups.
    Syncer {
        groups: std_mpsc::SyncSender<Committed>,
        thread: JoinHandle<()>,
        wal: Arc<dyn Flush>,
    },
    /// The writer flushes the log after each commit (the syncer could not start).
    Inline(Arc<dyn Flush>),
    /// Each COMMIT flushes (`synchronous = FULL`): no log to flush.
    InCommit,
}

/// The writer's way of making its groups durable, and whether a flush ever failed.
pub(super) struct Durability {
    how: How,
    failed: Arc<AtomicBool>,
}

/// How many committed groups may wait for the syncer before the writer waits for it.
const SYNC_QUEUE: usize = 64;

impl Durability {
    /// The syncer on `wal` (or, if its thread cannot start, flushes by the writer); without a
    /// log, the flush in each COMMIT.
    pub(super) fn start(wal: Option<Arc<dyn Flush>>) -> Self {
        let failed = Arc::new(AtomicBool::new(false));
        let how = match wal {
            None => How::InCommit,
            Some(wal) => {
                let (groups, queued) = std_mpsc::sync_channel::<Committed>(SYNC_QUEUE);
                let (log, failed) = (Arc::clone(&wal), Arc::clone(&failed));
                match std::thread::Builder::new()
                    .name("sqlite-syncer".into())
                    .spawn(move || syncer_loop(log.as_ref(), &failed, queued))
                {
                    Ok(thread) => How::Syncer { groups, thread, wal },
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot start the syncer; the writer flushes after each commit");
                        How::Inline(wal)
                    }
                }
            }
        };
        Self { how, failed }
    }

    /// Whether a flush failed: the writer then stops (`flush_or_fail`).
    pub(super) fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Answers `group` once it is on disk, flushing here, before the writer goes on.
    pub(super) fn finish_here(&self, group: Committed) {
        let on_disk = match &self.how {
            How::Syncer { wal, .. } | How::Inline(wal) => flush_or_fail(wal.as_ref(), &self.failed),
            How::InCommit => true,
        };
        group.finish(on_disk);
    }

    /// Has `group` answered once it is on disk: by the syncer, which the writer does not wait for.
    pub(super) fn hand_over(&self, group: Committed) {
        match &self.how {
            How::Syncer { groups, .. } => {
                if let Err(std_mpsc::SendError(group)) = groups.send(group) {
                    // The syncer is gone (it never stops before the writer): flush here.
                    self.finish_here(group);
                }
            }
            How::Inline(_) | How::InCommit => self.finish_here(group),
        }
    }

    /// Waits until the syncer has answered every group handed over.
    pub(super) fn stop(self) {
        if let How::Syncer { groups, thread, .. } = self.how {
            drop(groups);
            let _ = thread.join();
        }
    }
}

/// Once a flush failed, no later one can be trusted: Linux reports a failed write-back once
/// and marks the pages clean, so a later flush "succeeds" over a hole in the log, and what
/// follows the hole is lost at recovery. From then on every group is answered as failed and
/// the writer stops (`writer_alive` turns false, /healthz with it): a restart recovers the
/// database from what is on disk.
fn flush_or_fail(wal: &dyn Flush, failed: &AtomicBool) -> bool {
    if failed.load(Ordering::Acquire) {
        return false;
    }
    let ok = wal.flush();
    if !ok {
        failed.store(true, Ordering::Release);
    }
    ok
}

/// Flushes the log, then answers every group committed before the flush began: each flush
/// takes all the groups queued while the one before it ran.
fn syncer_loop(wal: &dyn Flush, failed: &AtomicBool, groups: std_mpsc::Receiver<Committed>) {
    while let Ok(first) = groups.recv() {
        let mut ready = vec![first];
        ready.extend(groups.try_iter());
        let on_disk = flush_or_fail(wal, failed);
        for group in ready {
            group.finish(on_disk);
        }
    }
}
