//! SQLite: one file in WAL mode; a write is on disk before it is answered. One writer
//! thread owns the write connection and commits queued operations in groups, its log
//! flushed by a thread beside it (`writer.rs`); reads use their own connection. Opening a database checks it, backs it up when migrations are due, and
//! applies them. Each concern's statements are in the file of its name, the twin of the
//! PostgreSQL file beside it (`../postgres/`). The limits several servers share have no
//! file here: one server runs per file and keeps them in memory
//! (docs/decisions/022-shared-limits.md); their tables exist, empty, for the schemas' sake.

/// The database's clock, in Unix milliseconds, as SQL: what leases are set and judged by (on
/// SQLite the one server's own clock, read by SQLite). A macro, so the statements that read it
/// are constants (`concat!`), made at compile time rather than formatted at every call.
macro_rules! db_now_ms {
    () => {
        "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
    };
}

mod assets;
mod campaigns;
mod console;
mod funnel;
mod jobs;
mod leads;
mod outbox;
mod seed;
mod staff;
mod submissions;
mod syncer;
mod writer;

pub mod backup;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};
use tokio::sync::mpsc;

use super::StoreError;
use super::backend::{Backend, Limits};
use super::migrations::{self, Applied};
use super::sql::{self, Dialect, Listed, built, statements};

statements! {
    /// How every connection is set up. temp_store = MEMORY: the journals of savepoints and
    /// of statements that fire triggers (every lead's INSERT) stay in memory instead of a
    /// temporary file, which cost the writer a write system call per page
    /// (docs/decisions/027-intake-speed.md). The writer's own connection then commits with
    /// `synchronous = NORMAL`, its log flushed beside it (`writer.rs`).
    CONFIGURE = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;";
    /// The columns of the table `?1`.
    TABLE_COLUMNS = "SELECT name FROM pragma_table_info(?1)";
    /// The table that records the migrations (older databases lack its last four columns:
    /// `migrations::ADDED_COLUMNS`).
    MIGRATIONS_TABLE = "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL, \
         name TEXT, checksum TEXT, applied_by TEXT, compatible_back_to INTEGER)";
}

/// Every statement of this backend's own, by name (the store tests prepare each on SQLite);
/// the shared ones are `sql::ALL`, the built ones `sql::built::examples`.
pub fn statements() -> impl Iterator<Item = &'static Listed> {
    [
        STATEMENTS,
        assets::STATEMENTS,
        backup::STATEMENTS,
        console::STATEMENTS,
        funnel::STATEMENTS,
        jobs::STATEMENTS,
        leads::STATEMENTS,
        outbox::STATEMENTS,
        seed::STATEMENTS,
        staff::STATEMENTS,
        submissions::STATEMENTS,
        syncer::STATEMENTS,
    ]
    .into_iter()
    .flatten()
}

pub struct SqliteStore {
    writer: Mutex<Option<mpsc::Sender<writer::Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    reader: Arc<Mutex<Connection>>,
    /// The database file, for a connection of a task's own (the funnel's recount reads a
    /// snapshot for as long as it counts, which the shared reader must not be held for).
    path: PathBuf,
}

impl Backend for SqliteStore {
    fn shared_limits(&self) -> Option<&dyn Limits> {
        None
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.execute_batch(CONFIGURE)?;
    Ok(())
}

impl SqliteStore {
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with(path, None).await
    }

    /// Opens (or creates) the database and applies the missing migrations. An existing
    /// database is first checked read-only: one this binary must not touch is refused before
    /// anything is written; when migrations are due and `backup_dir` is set, a checked
    /// backup is taken before they are applied.
    pub async fn open_with(path: &Path, backup_dir: Option<&Path>) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Database(format!("cannot create {}: {e}", dir.display())))?;
        }
        let path = path.to_path_buf();
        let backup_dir = backup_dir.map(Path::to_path_buf);
        let file = path.clone();
        let (write_conn, reader) = tokio::task::spawn_blocking(move || -> Result<_, StoreError> {
            precheck(&path, backup_dir.as_deref())?;
            let mut conn = Connection::open(&path)?;
            configure(&conn)?;
            migrate(&mut conn)?;
            let reader = Connection::open(&path)?;
            configure(&reader)?;
            Ok((conn, reader))
        })
        .await
        .map_err(|e| StoreError::Database(e.to_string()))??;
        let (tx, thread) = writer::start(write_conn)?;
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
            reader: Arc::new(Mutex::new(reader)),
            path: file,
        })
    }

    /// A read connection of the caller's own, set up as the store's (opened off the async
    /// threads).
    pub(super) async fn open_reader(&self) -> Result<Connection, StoreError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || -> Result<Connection, StoreError> {
            let conn = Connection::open(&path)?;
            configure(&conn)?;
            Ok(conn)
        })
        .await
        .map_err(|e| StoreError::Database(e.to_string()))?
    }

    /// Runs `f` on the read connection, off the async threads.
    pub(super) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let reader = Arc::clone(&self.reader);
        tokio::task::spawn_blocking(move || {
            let conn = reader.lock().unwrap_or_else(|p| p.into_inner());
            f(&conn).map_err(StoreError::from)
        })
        .await
        .map_err(|e| StoreError::Database(e.to_string()))?
    }
}

/// Checks an existing database read-only (so a refused one is never written to) and, when
/// migrations are due and `backup_dir` is set, backs it up first.
fn precheck(path: &Path, backup_dir: Option<&Path>) -> Result<(), StoreError> {
    if std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
        return Ok(());
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let applied = applied_migrations(&conn)?;
    let pending = migrations::pending(migrations::sqlite(), &applied)?;
    drop(conn);
    if let (Some(dir), Some(first)) = (backup_dir, pending.first())
        && !applied.is_empty()
    {
        let from = applied.iter().map(|a| a.version).max().unwrap_or(0);
        let to = migrations::latest(migrations::sqlite());
        let name = format!(
            "pre-migration-{}-schema-{from}-to-{to}.db",
            crate::time::file_stamp(super::now_ms())
        );
        let report = backup::backup(path, &dir.join(name))?;
        tracing::info!(backup = %report.path.display(), first = first.version, "backup taken before applying migrations");
    }
    Ok(())
}

/// The rows of `schema_migrations` (none when the table does not exist yet).
pub(crate) fn applied_migrations(conn: &Connection) -> rusqlite::Result<Vec<Applied>> {
    let columns = table_columns(conn, "schema_migrations")?;
    if columns.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare(&built::applied_migrations(Dialect::Sqlite, |name| {
        columns.iter().any(|c| c == name)
    }))?;
    let rows = stmt.query_map([], |r| {
        Ok(Applied {
            version: r.get(0)?,
            name: r.get(1)?,
            checksum: r.get(2)?,
            applied_by: r.get(3)?,
            compatible_back_to: r.get(4)?,
        })
    })?;
    rows.collect()
}

fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(TABLE_COLUMNS)?;
    let rows = stmt.query_map(params![table], |r| r.get(0))?;
    rows.collect()
}

/// Applies the missing migrations in one `BEGIN IMMEDIATE` transaction: SQLite's write
/// lock, so a second process opening the file waits, then finds them applied.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(MIGRATIONS_TABLE)?;
    let columns = table_columns(&tx, "schema_migrations")?;
    for (column, _, _) in migrations::ADDED_COLUMNS {
        if !columns.iter().any(|c| c == column)
            && let Some(add) = built::add_migration_column(Dialect::Sqlite, column)
        {
            tx.execute_batch(&add)?;
        }
    }
    let applied = applied_migrations(&tx)?;
    let pending = migrations::pending(migrations::sqlite(), &applied)?;
    migrations::log_newer(migrations::sqlite(), &applied);
    if applied.iter().any(|a| a.checksum.is_none() || a.compatible_back_to.is_none()) {
        // Rows from before checksums or the marker were kept: record what this binary has.
        for m in migrations::sqlite() {
            tx.execute(
                sql::FILL_MIGRATION.sqlite,
                params![m.version, m.name, m.checksum(), m.compatible_back_to],
            )?;
        }
    }
    for m in pending {
        tx.execute_batch(m.sql).map_err(|e| StoreError::Migration {
            version: m.version,
            message: e.to_string(),
        })?;
        tx.execute(
            sql::RECORD_MIGRATION.sqlite,
            params![
                m.version,
                super::now_ms(),
                m.name,
                m.checksum(),
                migrations::applied_by(),
                m.compatible_back_to
            ],
        )?;
        tracing::info!(version = m.version, name = m.name, "migration applied");
    }
    tx.commit()?;
    Ok(())
}
