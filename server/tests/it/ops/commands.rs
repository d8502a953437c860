//! The operator's side through the real binary: `site --version`, migrations refused or
//! backed up at start, one server per SQLite file, `site backup` under load and killed
//! mid-way, `site restore` and the restore drill, scheduled backups in /metrics.

use crate::common;

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
    let latest = latest_version();
    assert!(shown.contains(&format!("schema sqlite {latest} postgres {latest}\n")), "{shown}");
    for (name, hash) in site_server::assets::bundle_hashes() {
        assert_eq!(hash.len(), 64);
        assert!(shown.contains(&format!("{name} sha256 {hash}\n")), "{shown}");
    }
}

/// The cluster test's newer release is the debug binary run with SITE_TEST_NEXT_RELEASE=1
/// (server/src/release.rs): another version, one migration more, other island files. Any
/// other value of the variable changes nothing.
#[test]
fn the_debug_binary_plays_the_next_release_only_when_asked() {
    let version = |value: Option<&str>| {
        let mut command = Command::new(SITE);
        command.arg("--version").env_remove("SITE_TEST_NEXT_RELEASE");
        if let Some(v) = value {
            command.env("SITE_TEST_NEXT_RELEASE", v);
        }
        let out = command.output().expect("run");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (this, next, other) = (version(None), version(Some("1")), version(Some("yes")));
    let latest = latest_version();
    assert!(next.starts_with(&format!("site {}+next\n", env!("CARGO_PKG_VERSION"))), "{next}");
    assert!(next.contains(&format!("schema sqlite {0} postgres {0}\n", latest + 1)), "{next}");
    let client = |shown: &str| shown.lines().find(|l| l.starts_with("client bundle")).map(str::to_string);
    assert_ne!(client(&this), client(&next), "other island files");
    assert_eq!(other, this, "only SITE_TEST_NEXT_RELEASE=1 turns it on");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_binary_is_refused_at_start_and_never_written() {
    let db = fresh_db("newer").await;
    {
        let conn = Connection::open(&db).expect("open");
        conn.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by) VALUES (?1, 0, ?2, 'x', 'site 9.9.9')",
            rusqlite::params![latest_version() + 1, format!("{:04}_future", latest_version() + 1)],
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
        said.contains(&format!(
            "schema version {next} ({next:04}_future, applied by site 9.9.9)",
            next = latest_version() + 1
        )) && said.contains(&format!(
            "site {} knows schema versions up to {}",
            env!("CARGO_PKG_VERSION"),
            latest_version()
        )) && said.contains("Nothing was written"),
        "{said}"
    );
    assert_eq!(file_sha256(&db), before, "the database file is unchanged");
    // The other commands that open the store refuse it too.
    let out = site(&db, &["staff", "list"]);
    assert!(
        !out.status.success() && text(&out).contains(&format!("schema version {}", latest_version() + 1)),
        "{}",
        text(&out)
    );
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

/// The newest schema version this binary knows.
fn latest_version() -> u32 {
    site_server::store::migrations::SQLITE.last().map_or(0, |m| m.version)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_is_backed_up_then_migrated_and_its_rows_get_checksums() {
    let dir = common::temp_dir("older");
    let db = dir.join("site.db");
    common::old_database(&db, 3);
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
    assert!(
        name.starts_with("pre-migration-") && name.ends_with(&format!("-schema-3-to-{}.db", latest_version())),
        "{name}"
    );
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

/// 16 clients posting leads over HTTP until `stop`; every lead acknowledged with 201 is
/// recorded with the moment its answer arrived.
fn post_leads_until(port: u16, stop: Arc<AtomicBool>, acks: Arc<AtomicU32>) -> Vec<tokio::task::JoinHandle<Vec<(String, Instant)>>> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    (0..16)
        .map(|_| {
            let (stop, acks) = (Arc::clone(&stop), Arc::clone(&acks));
            tokio::spawn(async move {
                let client = common::client();
                let mut acked = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let n = NEXT.fetch_add(1, Ordering::Relaxed);
                    let r = common::post_lead(&client, port, &common::lead_body("hvac", &common::phone(n))).await;
                    if r.status() == reqwest::StatusCode::CREATED {
                        let body: serde_json::Value = r.json().await.expect("json");
                        acked.push((body["id"].as_str().expect("id").to_string(), Instant::now()));
                        acks.fetch_add(1, Ordering::Relaxed);
                    }
                }
                acked
            })
        })
        .collect()
}

fn lead_ids(db: &Path) -> std::collections::HashSet<String> {
    let conn = Connection::open(db).expect("open");
    let mut stmt = conn.prepare("SELECT id FROM leads").expect("prepare");
    stmt.query_map([], |r| r.get(0)).expect("query").map(|r| r.expect("row")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_16_clients_post_holds_every_lead_acknowledged_before_it_and_the_drill_restores_it() {
    let dir = common::temp_dir("backup-load");
    let db = dir.join("site.db");
    let server = Site::start(&db, &[]).await;
    let stop = Arc::new(AtomicBool::new(false));
    let acks = Arc::new(AtomicU32::new(0));
    let clients = post_leads_until(server.port, Arc::clone(&stop), Arc::clone(&acks));
    // Let the load build up, then back up while it goes on.
    common::eventually(120, "200 leads acknowledged", async || acks.load(Ordering::Relaxed) >= 200).await;
    let backup = dir.join("backup.db");
    let started = Instant::now();
    let out = tokio::task::spawn_blocking({
        let (db, backup) = (db.clone(), backup.clone());
        move || site(&db, &["backup", backup.to_str().expect("utf-8")])
    })
    .await
    .expect("backup");
    let at_backup_end = acks.load(Ordering::Relaxed);
    common::eventually(120, "more leads after the backup", async || {
        acks.load(Ordering::Relaxed) >= at_backup_end + 50
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    let mut acked = Vec::new();
    for c in clients {
        acked.extend(c.await.expect("client"));
    }
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("integrity_check ok") && said.contains("leads"), "{said}");

    let before: Vec<&String> = acked.iter().filter(|(_, at)| *at < started).map(|(id, _)| id).collect();
    let after = acked.len() - before.len();
    assert!(
        before.len() >= 200 && after > 0,
        "leads acknowledged before the backup: {}, after: {after}",
        before.len()
    );
    let in_backup = lead_ids(&backup);
    for id in &before {
        assert!(
            in_backup.contains(*id),
            "lead {id} acknowledged before the backup is missing from it"
        );
    }
    // The counts it printed are the backup's.
    let leads = in_backup.len().to_string();
    assert!(
        said.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["leads", leads.as_str()]),
        "{said}"
    );

    // Restore is refused while the server runs, and changes nothing.
    let live_before = file_sha256(&db);
    let out = site(&db, &["restore", backup.to_str().expect("utf-8")]);
    let said = text(&out);
    assert!(!out.status.success());
    assert!(
        said.contains(&format!(
            "a site server is running on {} (process {})",
            db.display(),
            server.child.id()
        )) && said.contains("stop it first")
            && said.contains("kill -TERM"),
        "{said}"
    );
    assert_eq!(file_sha256(&db), live_before, "the refused restore changed nothing");
    server.stop();

    // The drill: restore, start, count.
    let total_live = lead_ids(&db).len();
    assert_eq!(total_live, acked.len(), "every acknowledged lead is in the live database");
    let out = site(&db, &["restore", backup.to_str().expect("utf-8")]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let kept: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("site.db.replaced-")))
        .collect();
    assert!(!kept.is_empty(), "the replaced database is kept beside it");
    assert!(said.contains(&format!("kept as {}", kept[0].display())), "{said}");
    let main_kept = kept
        .iter()
        .find(|p| !p.to_string_lossy().ends_with("-wal") && !p.to_string_lossy().ends_with("-shm"))
        .expect("kept");
    assert_eq!(
        lead_ids(main_kept).len(),
        total_live,
        "the replaced database still holds every lead"
    );
    assert_eq!(lead_ids(&db), in_backup, "the database is now the backup");

    let server = Site::start(&db, &[]).await;
    let r = common::post_lead(&common::client(), server.port, &common::lead_body("roofing", "(412) 999-0001")).await;
    assert_eq!(r.status(), reqwest::StatusCode::CREATED);
    server.stop();
    assert_eq!(count(&db, "leads") as usize, in_backup.len() + 1);
    let check = site_server::store::sqlite::backup::check(&db).expect("integrity_check after the drill");
    assert!(check.iter().any(|(t, n)| t == "leads" && *n as usize == in_backup.len() + 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_backup_leaves_no_file_under_the_final_name() {
    let db = fresh_db("killed").await;
    {
        // About 256 MB, so the copy takes long enough to be killed in the middle.
        let conn = Connection::open(&db).expect("open");
        conn.execute_batch(
            "CREATE TABLE filler (b BLOB); \
             INSERT INTO filler SELECT randomblob(65536) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4096) SELECT x FROM c);",
        )
        .expect("fill");
    }
    let dest = db.with_file_name("backup.db");
    let mut child = Command::new(SITE)
        .args(["backup", dest.to_str().expect("utf-8")])
        .env("DATABASE_URL", format!("sqlite:{}", db.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("backup");
    let partial = dest.with_file_name(format!(".backup.db.{}.partial", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 16 << 20 {
        assert!(Instant::now() < deadline, "the backup never started writing {}", partial.display());
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the backup ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert!(!status.success(), "killed mid-way");
    assert!(!dest.exists(), "nothing under the final name after a kill");
    // The next backup to that name cleans up and completes.
    let out = site(&db, &["backup", dest.to_str().expect("utf-8")]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!partial.exists(), "the partial file of the killed backup is removed");
    assert!(text(&out).contains("filler"), "{}", text(&out));
    // And a backup never overwrites a file.
    let out = site(&db, &["backup", dest.to_str().expect("utf-8")]);
    assert!(!out.status.success() && text(&out).contains("exists already"), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restore_refuses_a_file_that_is_not_a_good_backup() {
    let db = fresh_db("restore-bad").await;
    let before = file_sha256(&db);
    let junk = db.with_file_name("junk.db");
    std::fs::write(&junk, vec![7u8; 8192]).expect("write");
    let out = site(&db, &["restore", junk.to_str().expect("utf-8")]);
    assert!(!out.status.success() && text(&out).contains("cannot be restored"), "{}", text(&out));
    let newer = fresh_db("restore-newer").await;
    Connection::open(&newer)
        .expect("open")
        .execute(
            "INSERT INTO schema_migrations (version, applied_ms, name) VALUES (?1, 0, 'later')",
            [latest_version() + 1],
        )
        .expect("insert");
    let out = site(&db, &["restore", newer.to_str().expect("utf-8")]);
    assert!(
        !out.status.success() && text(&out).contains(&format!("schema version {}", latest_version() + 1)),
        "{}",
        text(&out)
    );
    assert_eq!(file_sha256(&db), before, "the database is untouched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_backs_up_on_its_own_prunes_the_oldest_and_reports_it_in_metrics() {
    let dir = common::temp_dir("scheduled");
    let db = dir.join("site.db");
    let backups = dir.join("backups");
    std::fs::create_dir_all(&backups).expect("dir");
    // Two old scheduled backups and an operator's own file: one old one goes (keep 2).
    for name in ["site-20200101T000000.000Z.db", "site-20200102T000000.000Z.db", "mine.db"] {
        std::fs::write(backups.join(name), b"old").expect("write");
    }
    let metrics_port = common::free_port();
    let metrics_listen = format!("127.0.0.1:{metrics_port}");
    let server = Site::start(
        &db,
        &[
            ("BACKUP_DIR", backups.to_str().expect("utf-8")),
            ("BACKUP_INTERVAL", "1h"),
            ("BACKUP_KEEP", "2"),
            ("METRICS_LISTEN", &metrics_listen),
        ],
    )
    .await;
    let client = common::client();
    let mut metrics = String::new();
    common::eventually(60, "a backup reported in /metrics", async || {
        metrics = match client.get(format!("http://{metrics_listen}/metrics")).send().await {
            Ok(r) => r.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        metrics.contains("site_backup_last_ok 1")
    })
    .await;
    let success: f64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("site_backup_last_success_timestamp_seconds "))
        .and_then(|v| v.parse().ok())
        .expect("last success");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("now")
        .as_secs_f64();
    assert!(now - success < 120.0, "{metrics}");
    assert!(metrics.contains("site_backup_failures_total 0"), "{metrics}");
    let mut names: Vec<String> = std::fs::read_dir(&backups)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], "mine.db");
    assert_eq!(names[1], "site-20200102T000000.000Z.db");
    assert!(names[2].starts_with("site-2") && names[2] != names[1], "{names:?}");
    let tables = site_server::store::sqlite::backup::check(&backups.join(&names[2])).expect("a good backup");
    assert!(tables.iter().any(|(t, _)| t == "leads"));
    server.stop();
}
