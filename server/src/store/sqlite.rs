//! SQLite: one file in WAL mode with full fsync. One writer thread owns the write
//! connection and commits queued operations in groups; reads use their own connection.
//! The notification outbox is in `sqlite_outbox.rs`.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior, params};
use tokio::sync::{mpsc, oneshot};

use super::migrations::{self, Applied};
use super::{Channel, DUPLICATE_WINDOW_MS, LeadRecord, MAX_BATCH, StoreError, Submitted, new_lead_id};
use crate::leads::{NewLead, TokenRecord};

/// Work for the writer: runs inside the group transaction and returns what to do once the
/// group's commit succeeded (true) or failed (false).
type Job = Box<dyn FnOnce(&Connection) -> Box<dyn FnOnce(bool) + Send> + Send>;

pub struct SqliteStore {
    writer: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    reader: Arc<Mutex<Connection>>,
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")?;
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
        let (tx, rx) = mpsc::channel::<Job>(8192);
        let thread = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer_loop(write_conn, rx))
            .map_err(|e| StoreError::Database(format!("cannot start writer: {e}")))?;
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// Runs `f` in the writer's next group; resolves once that group is durable.
    pub(super) async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |conn: &Connection| {
            let result = in_savepoint(conn, f);
            Box::new(move |committed: bool| {
                let outcome = match (committed, result) {
                    (true, r) => r.map_err(StoreError::from),
                    (false, _) => Err(StoreError::Database("commit failed".into())),
                };
                let _ = reply.send(outcome);
            })
        });
        let sender = self
            .writer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or(StoreError::WriterStopped)?;
        sender.send(job).await.map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

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

    pub async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError> {
        self.write(move |conn| {
            let earlier: Option<String> = conn
                .query_row(
                    "SELECT id FROM leads WHERE phone_e164 = ?1 AND service_slug = ?2 AND received_at_ms >= ?3 ORDER BY received_at_ms LIMIT 1",
                    params![lead.phone, lead.service_slug, now_ms - DUPLICATE_WINDOW_MS],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = earlier {
                return Ok(Submitted { id, duplicate: true });
            }
            conn.prepare_cached("INSERT OR IGNORE INTO consent_texts (sha256, text, first_seen_ms) VALUES (?1, ?2, ?3)")?
                .execute(params![lead.consent_sha256, lead.consent_text, now_ms])?;
            let id = new_lead_id();
            let c = &lead.context;
            conn.prepare_cached(
                "INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256, \
                 cert_url, cert_token, cert_ping_url, ip, user_agent, page_url, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, \
                 seen_referer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
            )?
            .execute(params![
                id, now_ms, lead.service_slug, lead.full_name, lead.phone, lead.zip_code, lead.consent_sha256,
                lead.certificate.cert_url, lead.certificate.token, lead.certificate.ping_url,
                c.ip, c.user_agent, c.page_url, c.referrer, c.utm.source, c.utm.medium, c.utm.campaign, c.utm.term, c.utm.content,
                c.seen_referer
            ])?;
            let mut outbox = conn.prepare_cached(
                "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms) VALUES (?1, ?2, 'pending', 0, ?3, ?3)",
            )?;
            for channel in channels {
                outbox.execute(params![id, channel.as_str(), now_ms])?;
            }
            Ok(Submitted { id, duplicate: false })
        })
        .await
    }

    pub async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO certificates (token, ping_url, cert_url, service_slug, recorded_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?5) \
                 ON CONFLICT (token) DO UPDATE SET ping_url = COALESCE(ping_url, excluded.ping_url), cert_url = COALESCE(cert_url, excluded.cert_url), \
                 updated_at_ms = excluded.updated_at_ms",
            )?
            .execute(params![record.token, record.ping_url, record.cert_url, record.service_slug, now_ms])?;
            Ok(())
        })
        .await
    }

    pub fn writer_alive(&self) -> bool {
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

    pub async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError> {
        self.write(move |conn| {
            conn.execute(
                "DELETE FROM outbox WHERE lead_id IN (SELECT id FROM leads WHERE received_at_ms < ?1)",
                params![cutoff_ms],
            )?;
            let leads = conn.execute("DELETE FROM leads WHERE received_at_ms < ?1", params![cutoff_ms])?;
            let certs = conn.execute("DELETE FROM certificates WHERE recorded_at_ms < ?1", params![cutoff_ms])?;
            // Their e-mails go with them (ON DELETE CASCADE).
            conn.execute("DELETE FROM submissions WHERE received_at_ms < ?1", params![cutoff_ms])?;
            // An audit line is written after the record it names was received, so the same
            // cutoff never drops it before that record.
            conn.execute("DELETE FROM staff_audit WHERE at_ms < ?1", params![cutoff_ms])?;
            conn.execute(
                "DELETE FROM consent_texts WHERE sha256 NOT IN (SELECT DISTINCT consent_sha256 FROM leads)",
                [],
            )?;
            Ok((leads as u64, certs as u64))
        })
        .await
    }

    pub async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| select_lead(conn, &id)).await
    }

    pub async fn count_leads(&self) -> Result<i64, StoreError> {
        self.read(|conn| conn.query_row("SELECT COUNT(*) FROM leads", [], |r| r.get(0)))
            .await
    }

    pub async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        let token = token.to_string();
        self.read(move |conn| {
            conn.query_row(
                "SELECT token, ping_url, service_slug, cert_url FROM certificates WHERE token = ?1",
                params![token],
                |r| {
                    Ok(TokenRecord {
                        token: r.get(0)?,
                        ping_url: r.get(1)?,
                        service_slug: r.get(2)?,
                        cert_url: r.get(3)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    pub async fn close(&self) {
        // Dropping the sender lets the writer drain what is queued and stop.
        drop(self.writer.lock().unwrap_or_else(|p| p.into_inner()).take());
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }
}

fn writer_loop(mut conn: Connection, mut jobs: mpsc::Receiver<Job>) {
    while let Some(first) = jobs.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        commit_batch(&mut conn, batch);
    }
}

fn commit_batch(conn: &mut Connection, batch: Vec<Job>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        tracing::error!(error = %e, "cannot begin a write transaction");
        for job in batch {
            // Run nothing; tell every waiter it failed.
            drop(job);
        }
        return;
    }
    let completions: Vec<_> = batch.into_iter().map(|job| job(conn)).collect();
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
fn in_savepoint<T>(conn: &Connection, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    conn.execute_batch("SAVEPOINT op")?;
    match f(conn) {
        Ok(v) => {
            conn.execute_batch("RELEASE op")?;
            Ok(v)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK TO op; RELEASE op");
            Err(e)
        }
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
    let pending = migrations::pending(migrations::SQLITE, &applied)?;
    drop(conn);
    if let (Some(dir), Some(first)) = (backup_dir, pending.first())
        && !applied.is_empty()
    {
        let from = applied.iter().map(|a| a.version).max().unwrap_or(0);
        let to = migrations::latest(migrations::SQLITE);
        let name = format!(
            "pre-migration-{}-schema-{from}-to-{to}.db",
            crate::time::file_stamp(super::now_ms())
        );
        let report = super::sqlite_backup::backup(path, &dir.join(name))?;
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
    let column = |name: &str| {
        if columns.iter().any(|c| c == name) {
            name.to_string()
        } else {
            "NULL".to_string()
        }
    };
    let mut stmt = conn.prepare(&format!(
        "SELECT version, {}, {}, {} FROM schema_migrations ORDER BY version",
        column("name"),
        column("checksum"),
        column("applied_by")
    ))?;
    let rows = stmt.query_map([], |r| {
        Ok(Applied {
            version: r.get(0)?,
            name: r.get(1)?,
            checksum: r.get(2)?,
            applied_by: r.get(3)?,
        })
    })?;
    rows.collect()
}

fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let rows = stmt.query_map(params![table], |r| r.get(0))?;
    rows.collect()
}

/// Applies the missing migrations in one `BEGIN IMMEDIATE` transaction: SQLite's write
/// lock, so a second process opening the file waits, then finds them applied.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(migrations::SQLITE_TABLE)?;
    let columns = table_columns(&tx, "schema_migrations")?;
    for column in migrations::ADDED_COLUMNS {
        if !columns.iter().any(|c| c == column) {
            tx.execute_batch(&format!("ALTER TABLE schema_migrations ADD COLUMN {column} TEXT"))?;
        }
    }
    let pending = migrations::pending(migrations::SQLITE, &applied_migrations(&tx)?)?;
    // Rows from before checksums were kept: record what this binary has.
    for m in migrations::SQLITE {
        tx.execute(
            "UPDATE schema_migrations SET name = ?2, checksum = ?3 WHERE version = ?1 AND checksum IS NULL",
            params![m.version, m.name, m.checksum()],
        )?;
    }
    for m in pending {
        tx.execute_batch(m.sql).map_err(|e| StoreError::Migration {
            version: m.version,
            message: e.to_string(),
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![m.version, super::now_ms(), m.name, m.checksum(), migrations::applied_by()],
        )?;
        tracing::info!(version = m.version, name = m.name, "migration applied");
    }
    tx.commit()?;
    Ok(())
}

const LEAD_COLUMNS: &str = "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text, l.consent_sha256, \
     l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.utm_term, l.utm_content, l.seen_referer";

pub(super) fn select_lead(conn: &Connection, id: &str) -> rusqlite::Result<Option<LeadRecord>> {
    conn.prepare_cached(&format!(
        "SELECT {LEAD_COLUMNS} FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256 WHERE l.id = ?1"
    ))?
    .query_row(params![id], lead_from_row)
    .optional()
}

fn lead_from_row(r: &Row<'_>) -> rusqlite::Result<LeadRecord> {
    Ok(LeadRecord {
        id: r.get(0)?,
        received_at_ms: r.get(1)?,
        service_slug: r.get(2)?,
        full_name: r.get(3)?,
        phone: r.get(4)?,
        zip_code: r.get(5)?,
        consent: r.get(6)?,
        consent_text: r.get(7)?,
        consent_sha256: r.get(8)?,
        cert_url: r.get(9)?,
        cert_token: r.get(10)?,
        cert_ping_url: r.get(11)?,
        ip: r.get(12)?,
        user_agent: r.get(13)?,
        page_url: r.get(14)?,
        referrer: r.get(15)?,
        utm_source: r.get(16)?,
        utm_medium: r.get(17)?,
        utm_campaign: r.get(18)?,
        utm_term: r.get(19)?,
        utm_content: r.get(20)?,
        seen_referer: r.get(21)?,
    })
}
