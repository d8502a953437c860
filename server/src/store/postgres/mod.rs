//! PostgreSQL, for several app servers sharing one database. As with SQLite, one writer per
//! process, on a thread of its own, commits request writes in groups (`writer.rs`); reads,
//! outbox claims and session checks take a connection of a small pool
//! (`server.database_pool_size`), so a slow console query holds up none of the others;
//! notifications are leased with FOR UPDATE SKIP LOCKED so servers never deliver the same one
//! twice at once. Duplicate checks take transaction-scoped advisory locks first, so two
//! servers cannot both store the same repeat. TLS follows the URL's `sslmode` (`tls.rs`).
//! Each concern's statements are in the file of its name, the twin of the SQLite file beside
//! it (`../sqlite/`).

/// The database's clock, in Unix milliseconds, as SQL: what leases, the shared limits'
/// windows and the releases' start times are set and judged by, the same for every server
/// whatever its own clock says. A macro, so constant statements can `concat!` it.
macro_rules! db_now_ms {
    () => {
        "(EXTRACT(EPOCH FROM now()) * 1000)::BIGINT"
    };
}

/// [`db_now_ms!`] for statements built with `format!`, once (a `LazyLock`).
const DB_NOW_MS: &str = db_now_ms!();

mod assets;
mod campaigns;
mod console;
mod funnel;
mod jobs;
mod leads;
mod limits;
mod listen;
mod outbox;
mod queue;
mod seed;
mod staff;
mod submissions;
mod writer;

pub mod tls;

pub use funnel::count_lead_days;
pub use limits::CHARGE_STATEMENT_TIMEOUT_MS;

use std::sync::Mutex;
use std::time::Duration;

use deadpool_postgres::{Hook, HookError, Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Client;

use super::StoreError;
use super::backend::{Backend, Limits};
use super::migrations::{self, Applied};
use super::sql::{self, Dialect, Listed, built, statements};
use tls::PgTarget;

statements! {
    /// Takes the advisory lock of each key of `$1`, sorted (two transactions always take theirs
    /// in the same order: no deadlock), until the transaction ends: the writer's duplicate
    /// keys, the sign-in throttle's accounts and clients.
    LOCK_KEYS = "SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT unnest($1::BIGINT[]) AS k ORDER BY k) keys";
    /// The lock that serialises migrations across servers (`$1`, `MIGRATION_LOCK`).
    LOCK_MIGRATIONS = "SELECT pg_advisory_lock($1)";
    UNLOCK_MIGRATIONS = "SELECT pg_advisory_unlock($1)";
    /// The columns `schema_migrations` has in the current schema.
    MIGRATION_COLUMNS = "SELECT column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = 'schema_migrations'";
    /// The table that records the migrations (older databases lack its last four columns:
    /// `migrations::ADDED_COLUMNS`).
    MIGRATIONS_TABLE = "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL, \
         name TEXT, checksum TEXT, applied_by TEXT, compatible_back_to BIGINT)";
}

/// Every statement of this backend's own, by name (the store tests prepare each on
/// PostgreSQL); the shared ones are `sql::ALL`, the built ones `sql::built::examples`.
pub fn statements() -> impl Iterator<Item = &'static Listed> {
    [
        STATEMENTS,
        assets::STATEMENTS,
        campaigns::STATEMENTS,
        console::STATEMENTS,
        funnel::STATEMENTS,
        jobs::STATEMENTS,
        leads::STATEMENTS,
        limits::STATEMENTS,
        listen::STATEMENTS,
        outbox::STATEMENTS,
        seed::STATEMENTS,
        staff::STATEMENTS,
        submissions::STATEMENTS,
        writer::STATEMENTS,
    ]
    .into_iter()
    .flatten()
}

/// Key of the advisory lock that serialises migrations across servers.
const MIGRATION_LOCK: i64 = 0x5249_4e47;

pub struct PgStore {
    writer: Mutex<Option<mpsc::Sender<queue::Queued>>>,
    /// Answers once the writer thread has finished its last group.
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
    /// Reads, outbox claims and updates, session checks (the writer has its own
    /// connection); a connection the database dropped is replaced when next taken.
    pool: Pool,
    /// The shared rate limits' worker (`limits.rs`), stopped by `close`.
    limits: limits::Worker,
    /// Where the outbox's listener connects (`listen.rs`).
    target: PgTarget,
    schema: Option<String>,
}

impl Backend for PgStore {
    fn shared_limits(&self) -> Option<&dyn Limits> {
        Some(self)
    }
}

/// Connections in the pool when the configuration does not say (`server.database_pool_size`).
pub const DEFAULT_POOL_SIZE: usize = 4;
/// How long opening one of the pool's connections may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many times in all a transaction is tried while PostgreSQL aborts it to break a
/// deadlock with another (an erasure, a listing, a delivery and the writer's group change the
/// funnel's daily rows, each in its own order): the next try usually finds the other one
/// committed.
pub(super) const CONTENTION_TRIES: usize = 4;

/// `attempt` (one transaction, rolled back whole when aborted) run again while PostgreSQL
/// aborts it for a deadlock or a serialization conflict, `CONTENTION_TRIES` times in all.
pub(super) async fn retried_on_contention<T, F, Fut>(what: &str, mut attempt: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, StoreError>>,
{
    let mut tries = 1;
    loop {
        match attempt().await {
            Err(StoreError::Contention(e)) if tries < CONTENTION_TRIES => {
                tracing::warn!(error = %e, tries, what, "aborted by a deadlock; trying it again");
                tries += 1;
            }
            other => return other,
        }
    }
}

async fn connect_one(target: &PgTarget, schema: Option<&str>) -> Result<Client, StoreError> {
    let (client, connection) = target.connect().await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!(error = %e, "postgres connection closed");
        }
    });
    client.batch_execute(&built::pg_session_setup(schema, true)).await?;
    Ok(client)
}

/// The pool of `size` connections to `target`, each set up as [`connect_one`] sets its
/// own (over the same TLS), opened when first needed.
fn pool(target: &PgTarget, schema: Option<&str>, size: usize) -> Result<Pool, StoreError> {
    let config = ManagerConfig {
        recycling_method: RecyclingMethod::Fast,
    };
    let manager = match &target.tls {
        None => Manager::from_config(target.config.clone(), tokio_postgres::NoTls, config),
        Some(tls) => Manager::from_config(target.config.clone(), tls.clone(), config),
    };
    let setup = built::pg_session_setup(schema, false);
    Pool::builder(manager)
        .max_size(size.max(1))
        .runtime(Runtime::Tokio1)
        .create_timeout(Some(CONNECT_TIMEOUT))
        .post_create(Hook::async_fn(move |client, _| {
            let setup = setup.clone();
            Box::pin(async move { client.batch_execute(&setup).await.map_err(HookError::Backend) })
        }))
        .build()
        .map_err(|e| StoreError::Database(format!("connection pool: {e}")))
}

impl PgStore {
    /// Connects, applies migrations and starts the writer, with a pool of
    /// [`DEFAULT_POOL_SIZE`] connections. `schema` isolates tests.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<Self, StoreError> {
        Self::connect_pooled(url, schema, DEFAULT_POOL_SIZE).await
    }

    /// As [`PgStore::connect`], with a pool of `pool_size` connections.
    pub async fn connect_pooled(url: &str, schema: Option<&str>, pool_size: usize) -> Result<Self, StoreError> {
        if let Some(s) = schema
            && !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(StoreError::Url(format!("schema name {s:?}")));
        }
        let target = PgTarget::parse(url)?;
        let mut client = connect_one(&target, schema).await?;
        migrate(&mut client).await?;
        let (tx, rx) = mpsc::channel::<queue::Queued>(8192);
        let stopped = writer::start(target.clone(), schema, rx).await?;
        let pool = pool(&target, schema, pool_size)?;
        let limits = limits::Worker::start(target.clone(), schema.map(str::to_string));
        Ok(Self {
            writer: Mutex::new(Some(tx)),
            stopped: Mutex::new(Some(stopped)),
            pool,
            limits,
            target,
            schema: schema.map(str::to_string),
        })
    }

    /// A connection of the pool, waiting for one while all are busy (a closed one is
    /// replaced by a new one).
    pub(super) async fn client(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(e) => StoreError::from(e),
            other => StoreError::Database(format!("connection pool: {other}")),
        })
    }
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client.execute(LOCK_MIGRATIONS, &[&MIGRATION_LOCK]).await?;
    let result = apply_migrations(client).await;
    let _ = client.execute(UNLOCK_MIGRATIONS, &[&MIGRATION_LOCK]).await;
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
    let columns: Vec<String> = client.query(MIGRATION_COLUMNS, &[]).await?.iter().map(|r| r.get(0)).collect();
    if columns.is_empty() {
        return Ok(Vec::new());
    }
    let select = built::applied_migrations(Dialect::Postgres, |name| columns.iter().any(|c| c == name));
    let rows = client.query(&select, &[]).await?;
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
    let pending = migrations::pending(migrations::postgres(), &applied)?;
    migrations::log_newer(migrations::postgres(), &applied);
    client.batch_execute(MIGRATIONS_TABLE).await?;
    for (column, _, _) in migrations::ADDED_COLUMNS {
        if let Some(add) = built::add_migration_column(Dialect::Postgres, column) {
            client.batch_execute(&add).await?;
        }
    }
    if applied.iter().any(|a| a.checksum.is_none() || a.compatible_back_to.is_none()) {
        // Rows from before checksums or the marker were kept: record what this binary has.
        for m in migrations::postgres() {
            client
                .execute(
                    sql::FILL_MIGRATION.pg,
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
            sql::RECORD_MIGRATION.pg,
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
