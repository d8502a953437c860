//! SQLite's one writer per process (docs/decisions/002-group-commit.md): a thread that owns
//! the write connection, takes every write queued (up to `MAX_BATCH`), runs each in a
//! savepoint of one transaction and answers each waiter only once the commit is on disk.
//! Before the commit it indexes the names of the group's new leads
//! (`leads::index_new_names`).
//!
//! The commit goes to the write-ahead log with `synchronous = NORMAL` (written, not yet
//! flushed), and a second thread, the syncer, flushes the log with one `fdatasync` and only
//! then answers the group's waiters, while the writer already runs the next group: the disk's
//! flush no longer stops the writer (docs/decisions/002-group-commit.md, "The flush beside
//! the next group"). One flush answers every group committed before it began.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::thread::JoinHandle;

use async_trait::async_trait;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use super::SqliteStore;
use crate::store::backend::Writer;
use crate::store::{MAX_BATCH, StoreError};

/// A write for the writer: runs inside the group transaction and returns what to do once
/// the group's commit succeeded (true) or failed (false).
pub(super) type Write = Box<dyn FnOnce(&Connection) -> Done + Send>;

/// What the writer's queue carries.
pub(super) enum Job {
    /// A write that shares the next group.
    Write(Write),
    /// A write with a transaction of its own, so that what it does after the commit (in the
    /// writer thread, before any later write) sees the database exactly as it left it (the
    /// funnel's recount takes its snapshot there).
    Alone(Write),
    /// Answered once the group it was taken with is finished (`Writer::ping`).
    Ping(oneshot::Sender<()>),
}

/// What a waiter is told once its group is finished: whether its write is committed and
/// on disk.
type Done = Box<dyn FnOnce(bool) + Send>;

/// A committed group, for the syncer: its waiters, answered once the log is flushed.
struct Committed {
    done: Vec<Done>,
    pings: Vec<oneshot::Sender<()>>,
    committed: bool,
}

impl Committed {
    fn finish(self, on_disk: bool) {
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
    /// A failed flush answers the groups it was for as failed: their waiters are told no,
    /// though the rows may be there after all (a repeat of the same lead is then answered
    /// with the stored one, as a duplicate).
    fn flush(&self) -> bool {
        match self.sync_data() {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(error = %e, "cannot flush the write-ahead log; the group's writes are reported as failed");
                false
            }
        }
    }
}

/// Starts the writer thread on `conn`, the connection of the database at `db` (whose
/// write-ahead log the syncer flushes).
pub(super) fn start(conn: Connection, db: &Path) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    let wal = open_wal(&conn, db);
    start_with(conn, wal)
}

/// Starts the writer thread on `conn`, with `wal` flushed beside it (or, without one, each
/// commit flushed in place).
fn start_with(conn: Connection, wal: Option<Arc<dyn Flush>>) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    let (tx, rx) = mpsc::channel::<Job>(8192);
    let thread = std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || writer_loop(conn, rx, wal))
        .map_err(|e| StoreError::Database(format!("cannot start writer: {e}")))?;
    Ok((tx, thread))
}

/// The write-ahead log of `db`, opened for the syncer's flushes, and `conn` set to commit
/// without flushing it. Without the file (a database not in WAL mode), or if the setting
/// fails, the writer keeps `synchronous = FULL` and every commit flushes in place.
fn open_wal(conn: &Connection, db: &Path) -> Option<Arc<dyn Flush>> {
    let mut path = db.as_os_str().to_owned();
    path.push("-wal");
    let wal = match File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            tracing::warn!(error = %e, "no write-ahead log to flush beside the writer; each commit flushes in place");
            return None;
        }
    };
    match conn.execute_batch("PRAGMA synchronous = NORMAL") {
        Ok(()) => Some(Arc::new(wal)),
        Err(e) => {
            tracing::warn!(error = %e, "cannot commit without flushing; each commit flushes in place");
            None
        }
    }
}

impl SqliteStore {
    /// Runs `f` in the writer's next group; resolves once that group is durable.
    pub(super) async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job: Write = Box::new(move |conn: &Connection| {
            let result = in_savepoint(conn, f);
            Box::new(move |committed: bool| {
                let outcome = match (committed, result) {
                    (true, r) => r.map_err(StoreError::from),
                    (false, _) => Err(StoreError::Database("commit failed".into())),
                };
                let _ = reply.send(outcome);
            })
        });
        self.queue(Job::Write(job)).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    /// Runs `f` in a transaction of its own and, once that is durable, `then` with its result,
    /// in the writer thread before any later write is begun.
    pub(super) async fn write_alone<T: Send + 'static, U: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
        then: impl FnOnce(&T) -> U + Send + 'static,
    ) -> Result<(T, U), StoreError> {
        let (reply, answer) = oneshot::channel();
        let job: Write = Box::new(move |conn: &Connection| {
            let result = in_savepoint(conn, f);
            Box::new(move |committed: bool| {
                let outcome = match (committed, result) {
                    (true, Ok(t)) => {
                        let u = then(&t);
                        Ok((t, u))
                    }
                    (true, Err(e)) => Err(StoreError::from(e)),
                    (false, _) => Err(StoreError::Database("commit failed".into())),
                };
                let _ = reply.send(outcome);
            })
        });
        self.queue(Job::Alone(job)).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn queue(&self, job: Job) -> Result<(), StoreError> {
        let sender = self
            .writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or(StoreError::WriterStopped)?;
        sender.send(job).await.map_err(|_| StoreError::WriterStopped)
    }
}

#[async_trait]
impl Writer for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn writer_alive(&self) -> bool {
        let sender_open = self
            .writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|s| !s.is_closed());
        let thread_running = self
            .thread
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|t| !t.is_finished());
        sender_open && thread_running
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue(Job::Ping(reply)).await?;
        answer.await.map_err(|_| StoreError::WriterStopped)
    }

    async fn close(&self) {
        // Dropping the sender lets the writer drain what is queued and stop.
        drop(self.writer.lock().unwrap_or_else(|p| p.into_inner()).take());
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }
}

fn writer_loop(mut conn: Connection, mut jobs: mpsc::Receiver<Job>, wal: Option<Arc<dyn Flush>>) {
    // The syncer, when there is a log to flush; without it each group is answered in place.
    let syncer = wal.and_then(|wal| {
        let (tx, rx) = std_mpsc::channel::<Committed>();
        let keep = Arc::clone(&wal);
        let thread = std::thread::Builder::new()
            .name("sqlite-syncer".into())
            .spawn(move || syncer_loop(wal.as_ref(), rx))
            .map_err(|e| tracing::warn!(error = %e, "cannot start the syncer; each commit flushes in place"))
            .ok()?;
        Some((tx, thread, keep))
    });
    if syncer.is_none() {
        let _ = conn.execute_batch("PRAGMA synchronous = FULL");
    }
    // A write that must be alone, taken while a group was gathered: it comes next.
    let mut held: Option<Job> = None;
    while let Some(first) = held.take().or_else(|| jobs.blocking_recv()) {
        let mut batch = Vec::new();
        let mut pings = Vec::new();
        match first {
            Job::Alone(write) => {
                // Answered here, once on disk, before any later write begins.
                let group = commit_batch(&mut conn, vec![write], Vec::new());
                let on_disk = syncer.as_ref().is_none_or(|(_, _, wal)| wal.flush());
                group.finish(on_disk);
                continue;
            }
            Job::Write(write) => batch.push(write),
            Job::Ping(reply) => pings.push(reply),
        }
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(Job::Write(write)) => batch.push(write),
                Ok(Job::Ping(reply)) => pings.push(reply),
                Ok(alone @ Job::Alone(_)) => {
                    held = Some(alone);
                    break;
                }
                Err(_) => break,
            }
        }
        // Pings alone go to the syncer too: answered after every group before them.
        let group = commit_batch(&mut conn, batch, pings);
        match &syncer {
            Some((tx, _, _)) => {
                if let Err(std_mpsc::SendError(group)) = tx.send(group) {
                    // The syncer is gone (it never stops before the writer): flush here.
                    let on_disk = syncer.as_ref().is_some_and(|(_, _, wal)| wal.flush());
                    group.finish(on_disk);
                }
            }
            None => group.finish(true),
        }
    }
    // Every group handed over is answered before the writer's thread ends.
    if let Some((tx, thread, _)) = syncer {
        drop(tx);
        let _ = thread.join();
    }
}

/// Flushes the log, then answers every group committed before the flush began: each flush
/// takes all the groups queued while the one before it ran.
fn syncer_loop(wal: &dyn Flush, groups: std_mpsc::Receiver<Committed>) {
    while let Ok(first) = groups.recv() {
        let mut ready = vec![first];
        ready.extend(groups.try_iter());
        let on_disk = wal.flush();
        for group in ready {
            group.finish(on_disk);
        }
    }
}

/// Runs the group in one transaction; its waiters are answered by whoever finishes it.
fn commit_batch(conn: &mut Connection, batch: Vec<Write>, pings: Vec<oneshot::Sender<()>>) -> Committed {
    if batch.is_empty() {
        return Committed {
            done: Vec::new(),
            pings,
            committed: true,
        };
    }
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        tracing::error!(error = %e, "cannot begin a write transaction");
        // Run nothing; tell every waiter it failed.
        drop(batch);
        return Committed {
            done: Vec::new(),
            pings,
            committed: false,
        };
    }
    let done: Vec<_> = batch.into_iter().map(|job| job(conn)).collect();
    // Outside every job's savepoint, so one failure here undoes none of them: the names wait
    // for the next group.
    if let Err(e) = super::leads::index_new_names(conn) {
        tracing::error!(error = %e, "cannot index the new leads' names; the next group retries");
    }
    let committed = match conn.execute_batch("COMMIT") {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(error = %e, "group commit failed; rolling back");
            let _ = conn.execute_batch("ROLLBACK");
            false
        }
    };
    Committed { done, pings, committed }
}

/// Runs `f` so that its failure undoes only its own writes, not the rest of the group.
/// Its two statements are prepared once per connection, as every statement a lead runs.
fn in_savepoint<T>(conn: &Connection, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    conn.prepare_cached("SAVEPOINT op")?.execute([])?;
    match f(conn) {
        Ok(v) => {
            conn.prepare_cached("RELEASE op")?.execute([])?;
            Ok(v)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK TO op; RELEASE op");
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use super::*;

    /// A flush the test holds until it opens the gate, counting the flushes begun.
    #[derive(Default)]
    struct Gate {
        state: Mutex<(bool, u32)>,
        changed: Condvar,
    }

    impl Gate {
        fn open(&self) {
            self.state.lock().unwrap_or_else(|p| p.into_inner()).0 = true;
            self.changed.notify_all();
        }

        fn wait_for_flushes(&self, n: u32) {
            let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            let (_state, timeout) = self
                .changed
                .wait_timeout_while(state, Duration::from_secs(10), |s| s.1 < n)
                .unwrap_or_else(|p| p.into_inner());
            assert!(!timeout.timed_out(), "no flush began");
        }
    }

    impl Flush for Gate {
        fn flush(&self) -> bool {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            state.1 += 1;
            self.changed.notify_all();
            while !state.0 {
                state = self.changed.wait(state).unwrap_or_else(|p| p.into_inner());
            }
            true
        }
    }

    /// A write of the row `n`, which tells `answers` how its group finished.
    fn insert(n: i64, answers: &std_mpsc::Sender<(i64, bool)>) -> Job {
        let answers = answers.clone();
        Job::Write(Box::new(move |conn: &Connection| {
            let ok = conn.execute("INSERT INTO t (n) VALUES (?1)", [n]).is_ok();
            Box::new(move |committed: bool| {
                let _ = answers.send((n, ok && committed));
            })
        }))
    }

    fn rows(db: &Path) -> i64 {
        let conn = Connection::open(db).expect("open");
        conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).expect("count")
    }

    #[test]
    fn a_write_is_answered_only_after_the_flush_and_the_next_group_commits_meanwhile() {
        let dir = std::env::temp_dir().join(format!("site-writer-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let db = dir.join("w.db");
        let conn = Connection::open(&db).expect("open");
        conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)")
            .expect("schema");
        let gate = Arc::new(Gate::default());
        let (jobs, thread) = start_with(conn, Some(gate.clone() as Arc<dyn Flush>)).expect("start");
        let (answers_tx, answers) = std_mpsc::channel();

        jobs.blocking_send(insert(1, &answers_tx)).expect("send");
        gate.wait_for_flushes(1);
        assert_eq!(rows(&db), 1, "the first group is committed");
        assert!(answers.try_recv().is_err(), "answered before its flush");

        // The writer is free while the flush waits: the next group commits, unanswered too.
        jobs.blocking_send(insert(2, &answers_tx)).expect("send");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while rows(&db) < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the second group waited for the first one's flush"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            answers.recv_timeout(Duration::from_millis(100)).is_err(),
            "answered before its flush"
        );

        gate.open();
        let mut answered: Vec<_> = (0..2)
            .map(|_| answers.recv_timeout(Duration::from_secs(10)).expect("answered"))
            .collect();
        answered.sort_unstable();
        assert_eq!(answered, [(1, true), (2, true)]);
        drop(jobs);
        thread.join().expect("the writer stops");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A flush that fails.
    struct Broken;

    impl Flush for Broken {
        fn flush(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_write_whose_flush_failed_is_answered_as_failed() {
        let dir = std::env::temp_dir().join(format!("site-writer-broken-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let conn = Connection::open(dir.join("w.db")).expect("open");
        conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)")
            .expect("schema");
        let (jobs, thread) = start_with(conn, Some(Arc::new(Broken) as Arc<dyn Flush>)).expect("start");
        let (answers_tx, answers) = std_mpsc::channel();
        jobs.blocking_send(insert(1, &answers_tx)).expect("send");
        assert_eq!(answers.recv_timeout(Duration::from_secs(10)).expect("answered"), (1, false));
        drop(jobs);
        thread.join().expect("the writer stops");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
