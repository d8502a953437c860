//! PostgreSQL, for several app servers sharing one database. As with SQLite, one writer per
//! process, on a thread of its own, commits request writes in groups (`writer.rs`);
//! notifications are leased with FOR UPDATE SKIP LOCKED so servers never deliver the same one
//! twice at once. Duplicate checks take transaction-scoped advisory locks first, so two
//! servers cannot both store the same repeat. TLS follows the URL's `sslmode` (`tls.rs`).
//! Each concern's statements are in the file of its name, the twin of the SQLite file beside
//! it (`../sqlite/`).

mod assets;
mod console;
mod funnel;
mod jobs;
mod leads;
mod listen;
mod outbox;
mod seed;
mod staff;
mod submissions;
mod writer;

pub mod tls;

use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Client;

use super::StoreError;
use super::migrations::{self, Applied};
use tls::PgTarget;

/// Key of the advisory lock that serialises migrations across servers.
const MIGRATION_LOCK: i64 = 0x5249_4e47;

pub struct PgStore {
    writer: Mutex<Option<mpsc::Sender<writer::Op>>>,
    /// Answers once the writer thread has finished its last group.
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
    /// Reads and outbox updates (the writer has its own connection); replaced when lost.
    reader: tokio::sync::Mutex<Arc<Client>>,
    target: PgTarget,
    schema: Option<String>,
}

async fn connect_one(target: &PgTarget, schema: Option<&str>) -> Result<Client, StoreError> {
    let (client, connection) = target.connect().await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!(error = %e, "postgres connection closed");
        }
    });
    // Named so operators (and tests) can tell our sessions apart in pg_stat_activity.
    let name = match schema {
        Some(schema) => format!("site-server:{schema}"),
        None => "site-server".to_string(),
    };
    client.batch_execute(&format!("SET application_name = '{name}'")).await?;
    if let Some(schema) = schema {
        client
            .batch_execute(&format!(
                "CREATE SCHEMA IF NOT EXISTS \"{schema}\"; SET search_path TO \"{schema}\""
            ))
            .await?;
    }
    Ok(client)
}

impl PgStore {
    /// Connects, applies migrations and starts the writer. `schema` isolates tests.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<Self, StoreError> {
        if let Some(s) = schema
            && !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(StoreError::Url(format!("schema name {s:?}")));
        }
        let target = PgTarget::parse(url)?;
        let mut client = connect_one(&target, schema).await?;
        migrate(&mut client).await?;
        let (tx, rx) = mpsc::channel::<writer::Op>(8192);
        let stopped = writer::start(target.clone(), schema, rx).await?;
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            stopped: Mutex::new(Some(stopped)),
            reader: tokio::sync::Mutex::new(Arc::new(client)),
            target,
            schema: schema.map(str::to_string),
        })
    }

    /// The reader connection, reconnected first if the database dropped it.
    pub(super) async fn client(&self) -> Result<Arc<Client>, StoreError> {
        let mut reader = self.reader.lock().await;
        if reader.is_closed() {
            *reader = Arc::new(connect_one(&self.target, self.schema.as_deref()).await?);
        }
        Ok(Arc::clone(&reader))
    }
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK]).await?;
    let result = apply_migrations(client).await;
    let _ = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await;
    result
}

/// Connects to the database `url` names (in `schema`, when given) and applies the missing
/// migrations, without starting a writer: for `site copy-store`.
pub async fn connect_migrated(url: &str, schema: Option<&str>) -> Result<Client, StoreError> {
    let target = PgTarget::parse(url)?;
    let mut client = connect_one(&target, schema).await?;
    migrate(&mut client).await?;
    Ok(client)
}

/// The rows of `schema_migrations` in the current schema (none before the first start).
async fn applied_migrations(client: &Client) -> Result<Vec<Applied>, StoreError> {
    let columns: Vec<String> = client
        .query(
            "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'schema_migrations'",
            &[],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if columns.is_empty() {
        return Ok(Vec::new());
    }
    let column = |name: &str, null: &str| {
        if columns.iter().any(|c| c == name) {
            name.to_string()
        } else {
            null.to_string()
        }
    };
    let rows = client
        .query(
            &format!(
                "SELECT version, {}, {}, {}, {} FROM schema_migrations ORDER BY version",
                column("name", "NULL::text"),
                column("checksum", "NULL::text"),
                column("applied_by", "NULL::text"),
                column("compatible_back_to", "NULL::bigint")
            ),
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| Applied {
            version: r.get(0),
            name: r.get(1),
            checksum: r.get(2),
            applied_by: r.get(3),
            compatible_back_to: r.get(4),
        })
        .collect())
}

/// Under the advisory lock: refuses a database this binary must not touch before writing
/// anything, then applies each missing migration in its own transaction.
async fn apply_migrations(client: &mut Client) -> Result<(), StoreError> {
    let applied = applied_migrations(client).await?;
    let pending = migrations::pending(migrations::POSTGRES, &applied)?;
    migrations::log_newer(migrations::POSTGRES, &applied);
    client.batch_execute(migrations::POSTGRES_TABLE).await?;
    for (column, _, pg_type) in migrations::ADDED_COLUMNS {
        client
            .batch_execute(&format!(
                "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS {column} {pg_type}"
            ))
            .await?;
    }
    if applied.iter().any(|a| a.checksum.is_none() || a.compatible_back_to.is_none()) {
        // Rows from before checksums or the marker were kept: record what this binary has.
        for m in migrations::POSTGRES {
            client
                .execute(
                    "UPDATE schema_migrations SET name = COALESCE(name, $2), checksum = COALESCE(checksum, $3), \
                     compatible_back_to = COALESCE(compatible_back_to, $4) \
                     WHERE version = $1 AND (checksum IS NULL OR compatible_back_to IS NULL)",
                    &[&i64::from(m.version), &m.name, &m.checksum(), &i64::from(m.compatible_back_to)],
                )
                .await?;
        }
    }
    for m in pending {
        let tx = client.transaction().await?;
        tx.batch_execute(m.sql).await.map_err(|e| StoreError::Migration {
            version: m.version,
            message: StoreError::from(e).to_string(),
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by, compatible_back_to) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &i64::from(m.version),
                &super::now_ms(),
                &m.name,
                &m.checksum(),
                &migrations::applied_by(),
                &i64::from(m.compatible_back_to),
            ],
        )
        .await?;
        tx.commit().await?;
        tracing::info!(version = m.version, name = m.name, "migration applied");
    }
    Ok(())
}
