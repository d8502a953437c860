//! SQLite's one writer per process (docs/decisions/002-group-commit.md): a thread that owns
//! the write connection, takes every write queued (up to `MAX_BATCH`), runs each in a
//! savepoint of one transaction and answers each waiter only after the commit. Before the
//! commit it indexes the names of the group's new leads (`leads::index_new_names`).

use std::thread::JoinHandle;

use async_trait::async_trait;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use super::SqliteStore;
use crate::store::backend::Writer;
use crate::store::{MAX_BATCH, StoreError};

/// A write for the writer: runs inside the group transaction and returns what to do once
/// the group's commit succeeded (true) or failed (false).
pub(super) type Write = Box<dyn FnOnce(&Connection) -> Box<dyn FnOnce(bool) + Send> + Send>;

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

/// Starts the writer thread on `conn`.
pub(super) fn start(conn: Connection) -> Result<(mpsc::Sender<Job>, JoinHandle<()>), StoreError> {
    let (tx, rx) = mpsc::channel::<Job>(8192);
    let thread = std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || writer_loop(conn, rx))
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

fn writer_loop(mut conn: Connection, mut jobs: mpsc::Receiver<Job>) {
    // A write that must be alone, taken while a group was gathered: it comes next.
    let mut held: Option<Job> = None;
    while let Some(first) = held.take().or_else(|| jobs.blocking_recv()) {
        let mut batch = Vec::new();
        let mut pings = Vec::new();
        match first {
            Job::Alone(write) => {
                commit_batch(&mut conn, vec![write]);
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
        if !batch.is_empty() {
            commit_batch(&mut conn, batch);
        }
        for ping in pings {
            let _ = ping.send(());
        }
    }
}

fn commit_batch(conn: &mut Connection, batch: Vec<Write>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        tracing::error!(error = %e, "cannot begin a write transaction");
        for job in batch {
            // Run nothing; tell every waiter it failed.
            drop(job);
        }
        return;
    }
    let completions: Vec<_> = batch.into_iter().map(|job| job(conn)).collect();
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
    for done in completions {
        done(committed);
    }
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
