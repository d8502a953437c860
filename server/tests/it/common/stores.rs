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
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        drop_stale_schemas(&url).await;
        // Tests run in parallel: the counter keeps two started in the same millisecond apart.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let schema = format!("store_test_{}_{}_{n}", now_ms(), std::process::id());
        let pg = PgStore::connect(&url, Some(&schema)).await.expect("postgres (TEST_DATABASE_URL)");
        stores.push((
            "postgres",
            Arc::new(Store::Postgres(pg)),
            Raw::Postgres { url: url.clone(), schema },
        ));
    }
    stores
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

/// Adds `n` leads straight into the store's tables in one statement (a recursive CTE on
/// SQLite, generate_series on PostgreSQL): lead `i` is `bulk-{i:08}`, received `base_ms + i`
/// seconds, named "Person {i}", phone +1412 555 plus `i` (mod 10 000), service hvac or
/// roofing in turn. Triggers keep the name index and delivery status as for any lead.
#[allow(dead_code)]
pub async fn bulk_leads(raw: &Raw, n: i64, base_ms: i64) {
    let sha = "ab".repeat(32);
    match raw {
        Raw::Sqlite(path) => {
            let conn = open_sqlite(path);
            conn.execute(
                "INSERT OR IGNORE INTO consent_texts (sha256, text, first_seen_ms) VALUES (?1, 'I agree.', 0)",
                [&sha],
            )
            .expect("consent text");
            conn.execute(
                "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?1) \
                 INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256) \
                 SELECT printf('bulk-%08d', i), ?2 + i * 1000, CASE i % 2 WHEN 0 THEN 'hvac' ELSE 'roofing' END, \
                 'Person ' || i, printf('+1412555%04d', i % 10000), '15213', 1, ?3 FROM k",
                rusqlite::params![n, base_ms, sha],
            )
            .expect("bulk leads");
        }
        Raw::Postgres { .. } => {
            let client = pg_client(raw).await;
            client
                .execute(
                    "INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ($1, 'I agree.', 0) ON CONFLICT DO NOTHING",
                    &[&sha],
                )
                .await
                .expect("consent text");
            client
                .execute(
                    "INSERT INTO leads (id, received_at_ms, service_slug, full_name, phone_e164, zip_code, consent, consent_sha256) \
                     SELECT 'bulk-' || lpad(i::text, 8, '0'), $2::BIGINT + i * 1000, CASE i % 2 WHEN 0 THEN 'hvac' ELSE 'roofing' END, \
                     'Person ' || i, '+1412555' || lpad((i % 10000)::text, 4, '0'), '15213', TRUE, $3 \
                     FROM generate_series(0::BIGINT, $1::BIGINT - 1) AS i",
                    &[&n, &base_ms, &sha],
                )
                .await
                .expect("bulk leads");
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
