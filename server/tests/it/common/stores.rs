//! The stores a store test runs against: SQLite always, PostgreSQL whenever
//! TEST_DATABASE_URL names one (.ci/run sets it to the server on our machines).

use std::sync::Arc;

use site_server::store::postgres::PgStore;
use site_server::store::{Store, now_ms};

pub async fn stores() -> Vec<(&'static str, Arc<Store>)> {
    raw_stores().await.into_iter().map(|(name, store, _)| (name, store)).collect()
}

/// Where a test store's tables are, for a test that writes to them directly (bulk fills).
#[allow(dead_code)]
pub enum Raw {
    Sqlite(std::path::PathBuf),
    Postgres { url: String, schema: String },
}

/// [`stores`], each with where its tables are.
pub async fn raw_stores() -> Vec<(&'static str, Arc<Store>, Raw)> {
    let dir = super::temp_dir("store");
    let path = dir.join("leads.db");
    let mut stores = vec![(
        "sqlite",
        Arc::new(Store::open(&format!("sqlite:{}", path.display())).await.expect("sqlite")),
        Raw::Sqlite(path),
    )];
    if let Some((store, raw)) = postgres_store().await {
        stores.push(("postgres", store, raw));
    }
    stores
}

/// A store on a fresh schema of TEST_DATABASE_URL, when that names a database.
pub async fn postgres_store() -> Option<(Arc<Store>, Raw)> {
    let url = std::env::var("TEST_DATABASE_URL").ok()?;
    drop_stale_schemas(&url).await;
    // Tests run in parallel: the counter keeps two started in the same millisecond apart.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let schema = format!("store_test_{}_{}_{n}", now_ms(), std::process::id());
    let pg = PgStore::connect(&url, Some(&schema)).await.expect("postgres (TEST_DATABASE_URL)");
    Some((Arc::new(Store::Postgres(pg)), Raw::Postgres { url, schema }))
}

/// A second store on `raw`'s database: another server sharing it (on SQLite, a second
/// store on one file, which only tests do: `site` refuses a second server).
async fn twin(raw: &Raw) -> Arc<Store> {
    Arc::new(match raw {
        Raw::Sqlite(path) => Store::open(&format!("sqlite:{}", path.display())).await.expect("sqlite twin"),
        Raw::Postgres { url, schema } => Store::Postgres(PgStore::connect(url, Some(schema)).await.expect("postgres twin")),
    })
}

/// [`raw_stores`], each with a second handle on the same database: two servers sharing it.
#[allow(dead_code)]
pub async fn twin_stores() -> Vec<(&'static str, Arc<Store>, Arc<Store>, Raw)> {
    let mut out = Vec::new();
    for (name, store, raw) in raw_stores().await {
        let twin = twin(&raw).await;
        out.push((name, store, twin, raw));
    }
    out
}

/// Two stores on one fresh PostgreSQL schema (two servers' worth), when TEST_DATABASE_URL
/// names a database.
#[allow(dead_code)]
pub async fn postgres_twins() -> Option<(Arc<Store>, Arc<Store>, Raw)> {
    let (store, raw) = postgres_store().await?;
    let twin = twin(&raw).await;
    Some((store, twin, raw))
}

/// Each test works in its own schema; schemas left by runs over an hour old are dropped.
async fn drop_stale_schemas(url: &str) {
    let Ok((client, connection)) = tokio_postgres::connect(url, tokio_postgres::NoTls).await else {
        return;
    };
    tokio::spawn(connection);
    let Ok(rows) = client
        .query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'store_test_%'", &[])
        .await
    else {
        return;
    };
    let hour_ago = now_ms() - 3_600_000;
    for row in rows {
        let name: String = row.get(0);
        let made: i64 = name.split('_').nth(2).and_then(|t| t.parse().ok()).unwrap_or(0);
        if made < hour_ago {
            let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{name}\" CASCADE")).await;
        }
    }
}

/// Runs SQL straight on a test store's tables (for what no code path of the site writes,
/// or to read what the store does not hand out).
#[allow(dead_code)]
pub async fn execute(raw: &Raw, sql: &str) {
    match raw {
        Raw::Sqlite(path) => {
            let conn = open_sqlite(path);
            conn.execute_batch(sql).expect("sql");
        }
        Raw::Postgres { .. } => {
            pg_client(raw).await.batch_execute(sql).await.expect("sql");
        }
    }
}

/// The text of the first column of every row of `sql` (NULL as None).
#[allow(dead_code)]
pub async fn texts(raw: &Raw, sql: &str) -> Vec<Option<String>> {
    match raw {
        Raw::Sqlite(path) => {
            let conn = open_sqlite(path);
            let mut stmt = conn.prepare(sql).expect("prepare");
            let rows = stmt
                .query_map([], |r| {
                    Ok(match r.get_ref(0)? {
                        rusqlite::types::ValueRef::Null => None,
                        rusqlite::types::ValueRef::Integer(i) => Some(i.to_string()),
                        rusqlite::types::ValueRef::Real(f) => Some(f.to_string()),
                        rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                            Some(String::from_utf8_lossy(t).into_owned())
                        }
                    })
                })
                .expect("query");
            rows.map(|r| r.expect("row")).collect()
        }
        Raw::Postgres { .. } => {
            let rows = pg_client(raw).await.simple_query(sql).await.expect("query");
            rows.iter()
                .filter_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(r) => Some(r.get(0).map(str::to_string)),
                    _ => None,
                })
                .collect()
        }
    }
}

/// Every (table, column) of the store's live schema, as the database describes it.
#[allow(dead_code)]
pub async fn columns(raw: &Raw) -> std::collections::BTreeSet<(String, String)> {
    match raw {
        Raw::Sqlite(path) => {
            let conn = open_sqlite(path);
            let tables = site_server::store::sqlite::backup::user_tables(&conn).expect("tables");
            let mut out = std::collections::BTreeSet::new();
            for table in tables {
                let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)").expect("prepare");
                let names = stmt.query_map([&table], |r| r.get::<_, String>(0)).expect("columns");
                for name in names {
                    out.insert((table.clone(), name.expect("name")));
                }
            }
            out
        }
        Raw::Postgres { schema, .. } => pg_client(raw)
            .await
            .query(
                "SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c \
                 JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
                 WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE'",
                &[schema],
            )
            .await
            .expect("columns")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect(),
    }
}

/// Prepares `sql` on a test store's database (`$N` placeholders on PostgreSQL, `?N` on
/// SQLite) without running it: how many parameters it takes, or the database's refusal.
#[allow(dead_code)]
pub async fn parameter_count(raw: &Raw, pg: &str, sqlite: &str) -> Result<usize, String> {
    match raw {
        Raw::Sqlite(path) => open_sqlite(path)
            .prepare(sqlite)
            .map(|stmt| stmt.parameter_count())
            .map_err(|e| e.to_string()),
        Raw::Postgres { .. } => pg_client(raw)
            .await
            .prepare(pg)
            .await
            .map(|stmt| stmt.params().len())
            .map_err(|e| e.as_db_error().map_or_else(|| e.to_string(), |db| db.message().to_string())),
    }
}

/// A connection to a test store's SQLite file, beside the store's own.
fn open_sqlite(path: &std::path::Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).expect("open sqlite");
    conn.busy_timeout(std::time::Duration::from_secs(30)).expect("busy timeout");
    conn
}

/// A connection to a test store's PostgreSQL schema, beside the store's own.
#[allow(dead_code)]
pub async fn pg_client(raw: &Raw) -> tokio_postgres::Client {
    let Raw::Postgres { url, schema } = raw else {
        panic!("not a PostgreSQL store")
    };
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("postgres");
    tokio::spawn(connection);
    client
        .batch_execute(&format!("SET search_path TO \"{schema}\""))
        .await
        .expect("search path");
    client
}
