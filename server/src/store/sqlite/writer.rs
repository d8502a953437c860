//! SQLite's one writer per process (docs/decisions/002-group-commit.md): a thread that owns
//! the write connection, takes every write queued (up to `MAX_BATCH`), runs each in a
//! savepoint of one transaction and answers each waiter only once the commit is on disk.
//! Before the commit it indexes the names of the group's new leads
//! (`leads::index_new_names`).
//!
//! The commit goes to the write-ahead log without flushing it, and the syncer (`syncer.rs`)
//! flushes the log and answers the group's waiters while the writer already runs the next
//! group.

use std::sync::Arc;
use std::thread::JoinHandle;

use async_trait::async_trait;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use super::SqliteStore;
use super::syncer::{Committed, Done, Durability, Flush, open_wal};
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

/// Starts the writer thread on `conn`; its log is flushed beside it when it has one
/// (`open_wal`).
pub(super) fn start(conn: Connection) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    spawn(conn, open_wal)
}

/// Starts the writer thread on `conn`, with `wal` as its log (the tests' flushes).
#[cfg(test)]
fn start_with(conn: Connection, wal: Arc<dyn Flush>) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    spawn(conn, move |_| Some(wal))
}

fn spawn(
    conn: Connection,
    wal: impl FnOnce(&Connection) -> Option<Arc<dyn Flush>> + Send + 'static,
) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    let (tx, rx) = mpsc::channel::<Job>(8192);
    let thread = std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || {
            let wal = wal(&conn);
            writer_loop(conn, rx, wal);
        })
        .map_err(|e| StoreError::Database(format!("cannot start writer: {e}")))?;
    Ok((tx, thread))
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
    let durability = Durability::start(wal);
    // A write that must be alone, taken while a group was gathered: it comes next.
    let mut held: Option<Job> = None;
    while let Some(first) = held.take().or_else(|| jobs.blocking_recv()) {
        if durability.failed() {
            tracing::error!("the write-ahead log could not be flushed: the writer stops; restart the server");
            break;
        }
        let mut batch = Vec::new();
        let mut pings = Vec::new();
        match first {
            Job::Alone(write) => {
                // Answered here, once on disk, before any later write begins.
                durability.finish_here(commit_batch(&mut conn, vec![write], Vec::new()));
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
        durability.hand_over(commit_batch(&mut conn, batch, pings));
    }
    // Every group handed over is answered before the writer's thread ends.
    durability.stop();
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
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc as std_mpsc;
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use super::*;

    /// Flushes the test lets through one at a time: `allow(n)` lets the first n end.
    #[derive(Default)]
    struct Gate {
        /// (flushes allowed to end, flushes begun)
        state: Mutex<(u32, u32)>,
        changed: Condvar,
    }

    impl Gate {
        fn allow(&self, n: u32) {
            self.state.lock().unwrap_or_else(|p| p.into_inner()).0 = n;
            self.changed.notify_all();
        }

        fn wait_for_flushes(&self, n: u32) {
            let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            let (_state, timeout) = self
                .changed
                .wait_timeout_while(state, Duration::from_secs(10), |s| s.1 < n)
                .unwrap_or_else(|p| p.into_inner());
            assert!(!timeout.timed_out(), "flush {n} never began");
        }
    }

    impl Flush for Gate {
        fn flush(&self) -> bool {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            state.1 += 1;
            let mine = state.1;
            self.changed.notify_all();
            while state.0 < mine {
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

    fn rows(db: &std::path::Path) -> i64 {
        let conn = Connection::open(db).expect("open");
        conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).expect("count")
    }

    /// A database in WAL mode with a table `t`, in a folder of the test's own.
    fn database(name: &str) -> (std::path::PathBuf, Connection) {
        let dir = std::env::temp_dir().join(format!("site-writer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let db = dir.join("w.db");
        let conn = Connection::open(&db).expect("open");
        conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)")
            .expect("schema");
        (db, conn)
    }

    fn wait_for_rows(db: &std::path::Path, n: i64) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while rows(db) < n {
            assert!(
                std::time::Instant::now() < deadline,
                "row {n} was not committed while a flush waited"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// A writer on a database of its own whose flushes a gate holds, and its answers:
    /// (database, gate, queue, thread, answers' sender, answers).
    type Gated = (
        std::path::PathBuf,
        Arc<Gate>,
        mpsc::Sender<Job>,
        JoinHandle<()>,
        std_mpsc::Sender<(i64, bool)>,
        std_mpsc::Receiver<(i64, bool)>,
    );

    fn gated(name: &str) -> Gated {
        let (db, conn) = database(name);
        let gate = Arc::new(Gate::default());
        let (jobs, thread) = start_with(conn, gate.clone()).expect("start");
        let (answers_tx, answers) = std_mpsc::channel();
        (db, gate, jobs, thread, answers_tx, answers)
    }

    const NOT_YET: Duration = Duration::from_millis(100);
    const SOON: Duration = Duration::from_secs(10);

    #[test]
    fn a_write_is_answered_only_after_a_flush_begun_after_its_commit() {
        let (db, gate, jobs, thread, answers_tx, answers) = gated("order");

        jobs.blocking_send(insert(1, &answers_tx)).expect("send");
        gate.wait_for_flushes(1);
        assert_eq!(rows(&db), 1, "the first group is committed");
        assert!(answers.recv_timeout(NOT_YET).is_err(), "answered before its flush");

        // The writer is free while the flush waits: the next group commits, unanswered.
        jobs.blocking_send(insert(2, &answers_tx)).expect("send");
        wait_for_rows(&db, 2);

        // The first flush began before the second group's commit: it answers only the first.
        gate.allow(1);
        assert_eq!(answers.recv_timeout(SOON).expect("answered"), (1, true));
        assert!(
            answers.recv_timeout(NOT_YET).is_err(),
            "answered by a flush begun before its commit"
        );
        gate.wait_for_flushes(2);
        gate.allow(2);
        assert_eq!(answers.recv_timeout(SOON).expect("answered"), (2, true));
        drop(jobs);
        thread.join().expect("the writer stops");
    }

    /// A write alone is answered once flushed, before any later write runs.
    #[test]
    fn a_write_alone_is_flushed_before_the_next_write_runs() {
        let (db, gate, jobs, thread, answers_tx, answers) = gated("alone");
        let Job::Write(write) = insert(1, &answers_tx) else {
            unreachable!()
        };
        jobs.blocking_send(Job::Alone(write)).expect("send");
        jobs.blocking_send(insert(2, &answers_tx)).expect("send");
        gate.wait_for_flushes(1);
        std::thread::sleep(NOT_YET);
        assert_eq!(rows(&db), 1, "the next write ran before the write alone was flushed");
        gate.allow(2);
        assert_eq!(answers.recv_timeout(SOON).expect("answered"), (1, true));
        assert_eq!(answers.recv_timeout(SOON).expect("answered"), (2, true));
        drop(jobs);
        thread.join().expect("the writer stops");
    }

    /// The first flush fails once, then every flush would succeed.
    #[derive(Default)]
    struct FailsOnce(AtomicBool);

    impl Flush for FailsOnce {
        fn flush(&self) -> bool {
            self.0.swap(true, Ordering::SeqCst)
        }
    }

    #[test]
    fn after_a_failed_flush_every_write_is_refused_and_the_writer_stops() {
        let (_db, conn) = database("failed");
        let (jobs, thread) = start_with(conn, Arc::new(FailsOnce::default())).expect("start");
        let (answers_tx, answers) = std_mpsc::channel();
        jobs.blocking_send(insert(1, &answers_tx)).expect("send");
        assert_eq!(answers.recv_timeout(SOON).expect("answered"), (1, false));
        // A later flush would succeed, over a hole in the log: never trusted.
        let _ = jobs.blocking_send(insert(2, &answers_tx));
        let deadline = std::time::Instant::now() + SOON;
        while !thread.is_finished() {
            assert!(std::time::Instant::now() < deadline, "the writer did not stop");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            answers.try_iter().all(|(_, ok)| !ok),
            "a write after the failed flush was answered yes"
        );
        assert!(
            jobs.blocking_send(insert(3, &answers_tx)).is_err(),
            "the writer takes no more writes"
        );
    }

    /// The real thing: the writer finds the log SQLite writes and commits without flushing in
    /// COMMIT, and a database not in WAL mode keeps the flush in COMMIT.
    #[test]
    fn the_log_is_the_file_sqlite_names_and_only_in_wal_mode() {
        let (db, conn) = database("real");
        // A symbolic link to the database: the log is beside the file, not beside the link.
        let link = db.with_file_name("link.db");
        std::os::unix::fs::symlink(&db, &link).expect("link");
        drop(conn);
        let conn = Connection::open(&link).expect("open");
        conn.execute_batch("PRAGMA journal_mode = WAL; INSERT INTO t VALUES (0)")
            .expect("write");
        assert!(open_wal(&conn).is_some(), "the log of a WAL database");
        let mode: i64 = conn.query_row("PRAGMA synchronous", [], |r| r.get(0)).expect("mode");
        assert_eq!(mode, 1, "commits without flushing (NORMAL)");

        let plain = db.with_file_name("plain.db");
        let conn = Connection::open(&plain).expect("open");
        conn.execute_batch("PRAGMA journal_mode = DELETE; CREATE TABLE t (n INTEGER)")
            .expect("schema");
        assert!(open_wal(&conn).is_none(), "no log outside WAL mode");
        let mode: i64 = conn.query_row("PRAGMA synchronous", [], |r| r.get(0)).expect("mode");
        assert_eq!(mode, 2, "each COMMIT flushes (FULL)");
    }
}
