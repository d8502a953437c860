//! The stores a store test runs against: SQLite always, PostgreSQL whenever
//! TEST_DATABASE_URL names one (.ci/run sets it to the server on our machines).

use std::sync::Arc;

use site_server::store::postgres::PgStore;
use site_server::store::{Store, now_ms};

pub async fn stores() -> Vec<(&'static str, Arc<Store>)> {
    let dir = super::temp_dir("store");
    let mut stores = vec![(
        "sqlite",
        Arc::new(
            Store::open(&format!("sqlite:{}", dir.join("leads.db").display()))
                .await
                .expect("sqlite"),
        ),
    )];
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        drop_stale_schemas(&url).await;
        // Tests run in parallel: the counter keeps two started in the same millisecond apart.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let schema = format!("store_test_{}_{}_{n}", now_ms(), std::process::id());
        let pg = PgStore::connect(&url, Some(&schema)).await.expect("postgres (TEST_DATABASE_URL)");
        stores.push(("postgres", Arc::new(Store::Postgres(pg))));
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
