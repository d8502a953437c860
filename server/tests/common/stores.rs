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
            let conn = rusqlite::Connection::open(path).expect("open sqlite");
            conn.busy_timeout(std::time::Duration::from_secs(30)).expect("busy timeout");
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
        Raw::Postgres { url, schema } => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("postgres");
            tokio::spawn(connection);
            client
                .batch_execute(&format!("SET search_path TO \"{schema}\""))
                .await
                .expect("search path");
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
