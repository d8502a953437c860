//! Durability: a real server process takes a concurrent load of submissions and is killed
//! with SIGKILL mid-load; after a restart, every lead that was answered 2xx is there.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;
use site_server::store::Store;

fn spawn_site(port: u16, database_url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_site"))
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", database_url)
        .env("RATE_LIMIT_PER_MINUTE", "1000000")
        .env("RENDER_POOL_SIZE", "1")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start site")
}

async fn crash_under_load(database_url: &str, reopen: impl AsyncFnOnce() -> Store) {
    let port = common::free_port();
    let client = common::client();
    let mut child = spawn_site(port, database_url);
    common::wait_healthy(&client, port).await;

    let stop = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for w in 0..16u32 {
        let client = client.clone();
        let stop = Arc::clone(&stop);
        workers.push(tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let body = common::lead_body("water-damage", &common::phone(w * 50_000 + n + 1 + (std::process::id() % 1000) * 7));
                n += 1;
                let sent = client
                    .post(format!("http://127.0.0.1:{port}/.netlify/functions/submit-lead"))
                    .json(&body)
                    .send()
                    .await;
                let Ok(r) = sent else { break }; // the server is gone
                if r.status().is_success() {
                    // A 2xx whose body never fully arrived does not count as acknowledged.
                    if let Ok(v) = r.json::<Value>().await
                        && let Some(id) = v["id"].as_str()
                    {
                        acknowledged.push(id.to_string());
                    }
                }
            }
            acknowledged
        }));
    }
    // Let the load run, then kill the process without warning, mid-load.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    stop.store(true, Ordering::Relaxed);
    let mut acknowledged = Vec::new();
    for w in workers {
        acknowledged.extend(w.await.expect("worker"));
    }
    assert!(acknowledged.len() > 50, "the load got going ({} acknowledged)", acknowledged.len());

    // Restart the real server on the same database: it must come up and serve.
    let mut child = spawn_site(port, database_url);
    common::wait_healthy(&client, port).await;
    let _ = child.kill();
    let _ = child.wait();

    let store = reopen().await;
    let mut missing = Vec::new();
    for id in &acknowledged {
        if store.lead(id).await.expect("read").is_none() {
            missing.push(id.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged leads lost: {:?}",
        missing.len(),
        acknowledged.len(),
        &missing[..missing.len().min(5)]
    );
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_every_acknowledged_lead_through_sigkill() {
    let path = common::temp_dir("crash").join("site.db");
    let url = format!("sqlite:{}", path.display());
    let reopen_url = url.clone();
    crash_under_load(&url, async move || Store::open(&reopen_url).await.expect("reopen")).await;
}

/// On a schema of its own in TEST_DATABASE_URL's database (named as the store tests' are, so a
/// run that dies before dropping it has it dropped by a later one): never on whatever an
/// earlier run, or an earlier version of a migration, left in the database's public schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_every_acknowledged_lead_through_sigkill() {
    let Ok(test_url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL half of this test did not run");
        return;
    };
    let (client, connection) = tokio_postgres::connect(&test_url, tokio_postgres::NoTls).await.expect("connect");
    tokio::spawn(connection);
    let schema = format!("store_test_{}_{}_crash", site_server::store::now_ms(), std::process::id());
    client.batch_execute(&format!("CREATE SCHEMA \"{schema}\"")).await.expect("schema");
    let separator = if test_url.contains('?') { '&' } else { '?' };
    let url = format!("{test_url}{separator}options=-csearch_path%3D{schema}");
    let reopen_url = url.clone();
    crash_under_load(&url, async move || Store::open(&reopen_url).await.expect("reopen")).await;
    let _ = client.batch_execute(&format!("DROP SCHEMA \"{schema}\" CASCADE")).await;
}
