//! The operator's side through the real binary: `site --version`, migrations refused or
//! backed up at start, one server per SQLite file, `site backup` under load and killed
//! mid-way, `site restore` and the restore drill, scheduled backups in /metrics.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use sha2::{Digest, Sha256};
use site_server::store::Store;

const SITE: &str = env!("CARGO_BIN_EXE_site");

/// A `site` server process, stopped (SIGKILL) when dropped.
struct Site {
    child: Child,
    port: u16,
}

impl Site {
    async fn start(db: &Path, env: &[(&str, &str)]) -> Site {
        let port = common::free_port();
        let mut cmd = Command::new(SITE);
        cmd.env("LISTEN", format!("127.0.0.1:{port}"))
            .env("DATABASE_URL", format!("sqlite:{}", db.display()))
            .env("METRICS_LISTEN", "")
            .env("RENDER_POOL_SIZE", "1")
            .env("RATE_LIMIT_PER_MINUTE", "1000000")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("start site");
        common::wait_healthy(&common::client(), port).await;
        Site { child, port }
    }

    /// SIGTERM, then waits for a clean exit.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "clean exit: {status}");
                return;
            }
            assert!(Instant::now() < deadline, "site did not stop within 30 s of SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `site ARGS` against the SQLite file `db` and returns what it did.
fn site(db: &Path, args: &[&str]) -> Output {
    Command::new(SITE)
        .args(args)
        .env("DATABASE_URL", format!("sqlite:{}", db.display()))
        .output()
        .expect("run site")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn file_sha256(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("read");
    Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh site database (every migration applied), closed.
async fn fresh_db(label: &str) -> PathBuf {
    let db = common::temp_dir(label).join("site.db");
    let store = Store::open(&format!("sqlite:{}", db.display())).await.expect("store");
    store.close().await;
    db
}

fn count(db: &Path, table: &str) -> i64 {
    let conn = Connection::open(db).expect("open");
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .expect("count")
}

#[test]
fn version_names_the_commit_the_schema_and_the_bundles() {
    let out = Command::new(SITE).arg("--version").output().expect("run");
    assert!(out.status.success());
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.starts_with(&format!("site {}\n", env!("CARGO_PKG_VERSION"))), "{shown}");
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success());
    let commit = head.map_or("unknown".to_string(), |o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    assert!(shown.contains(&format!("commit {commit}\n")), "{shown}");
    assert!(shown.contains("schema sqlite 4 postgres 4\n"), "{shown}");
    for (name, hash) in site_server::assets::bundle_hashes() {
        assert_eq!(hash.len(), 64);
        assert!(shown.contains(&format!("{name} sha256 {hash}\n")), "{shown}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_binary_is_refused_at_start_and_never_written() {
    let db = fresh_db("newer").await;
    {
        let conn = Connection::open(&db).expect("open");
        conn.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by) VALUES (5, 0, '0005_future', 'x', 'site 9.9.9')",
            [],
        )
        .expect("insert");
    }
    let before = file_sha256(&db);
    let port = common::free_port().to_string();
    let out = Command::new(SITE)
        .env("DATABASE_URL", format!("sqlite:{}", db.display()))
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("METRICS_LISTEN", "")
        .output()
        .expect("run");
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("schema version 5 (0005_future, applied by site 9.9.9)")
            && said.contains(&format!("site {} knows schema versions up to 4", env!("CARGO_PKG_VERSION")))
            && said.contains("Nothing was written"),
        "{said}"
    );
    assert_eq!(file_sha256(&db), before, "the database file is unchanged");
    // The other commands that open the store refuse it too.
    let out = site(&db, &["staff", "list"]);
    assert!(!out.status.success() && text(&out).contains("schema version 5"), "{}", text(&out));
    assert_eq!(file_sha256(&db), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_changed_after_it_was_applied_is_refused() {
    let db = fresh_db("changed").await;
    {
        let conn = Connection::open(&db).expect("open");
        conn.execute("UPDATE schema_migrations SET checksum = 'abcdef0123456789' WHERE version = 2", [])
            .expect("update");
    }
    let before = file_sha256(&db);
    let e = Store::open(&format!("sqlite:{}", db.display())).await.err().expect("refused");
    let said = e.to_string();
    assert!(
        said.contains("migration 0002 (0002_intake) was applied with checksum abcdef012345"),
        "{said}"
    );
    assert_eq!(file_sha256(&db), before);
}

/// Applies the first `n` SQLite migrations the way the binary before checksums did.
fn old_database(db: &Path, n: usize) {
    let conn = Connection::open(db).expect("open");
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)",
    )
    .expect("table");
    for m in &site_server::store::migrations::SQLITE[..n] {
        conn.execute_batch(m.sql).expect("migration");
        conn.execute("INSERT INTO schema_migrations VALUES (?1, 0)", [m.version])
            .expect("row");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_is_backed_up_then_migrated_and_its_rows_get_checksums() {
    let dir = common::temp_dir("older");
    let db = dir.join("site.db");
    old_database(&db, 3);
    let backups = dir.join("backups");
    let store = Store::open_with(&format!("sqlite:{}", db.display()), Some(&backups))
        .await
        .expect("migrated");
    store.close().await;
    let conn = Connection::open(&db).expect("open");
    let rows: Vec<(i64, String, String)> = conn
        .prepare("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect())
        .expect("rows");
    let known = site_server::store::migrations::SQLITE;
    assert_eq!(rows.len(), known.len());
    for ((version, name, checksum), m) in rows.iter().zip(known) {
        assert_eq!(
            (*version, name.as_str(), checksum.clone()),
            (i64::from(m.version), m.name, m.checksum())
        );
    }
    let taken: Vec<PathBuf> = std::fs::read_dir(&backups)
        .expect("backup dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(taken.len(), 1, "{taken:?}");
    let name = taken[0].file_name().expect("name").to_string_lossy().into_owned();
    assert!(name.starts_with("pre-migration-") && name.ends_with("-schema-3-to-4.db"), "{name}");
    let backup = Connection::open(&taken[0]).expect("open backup");
    let newest: i64 = backup
        .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| r.get(0))
        .expect("max");
    assert_eq!(newest, 3, "the backup is the database as it was before the migration");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_cannot_run_on_one_sqlite_file() {
    let db = common::temp_dir("two").join("site.db");
    let first = Site::start(&db, &[]).await;
    let port = common::free_port().to_string();
    let out = Command::new(SITE)
        .env("DATABASE_URL", format!("sqlite:{}", db.display()))
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("METRICS_LISTEN", "")
        .output()
        .expect("run");
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains(&format!("another site server (process {}) is running on", first.child.id())),
        "{said}"
    );
    // Commands that share the database with a running server still work.
    let out = site(&db, &["staff", "list"]);
    assert!(out.status.success(), "{}", text(&out));
    first.stop();
}
