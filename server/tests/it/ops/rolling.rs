//! Rolling upgrades (docs/operations.md, "Running several servers"): an older binary runs on a
//! database a newer one migrated when every newer migration is marked compatible with it,
//! and refuses one that is not, having written nothing; every server answers for the
//! content-hashed files another release recorded in the database, by their exact names
//! only. On both stores.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use site_server::store::postgres::PgStore;
use site_server::store::{AssetRelease, KEEP_RELEASES, RecordedAsset, Store, StoreError};

use common::stores::Raw;

/// The newest schema version this binary knows (both backends have the same).
fn ours() -> i64 {
    i64::from(site_server::store::migrations::latest(site_server::store::migrations::SQLITE))
}

/// Writes a row of `schema_migrations` as a newer binary would have: `version`, marked
/// compatible back to `back`.
async fn add_newer_migration(raw: &Raw, version: i64, back: i64) {
    common::stores::execute(
        raw,
        &format!(
            "INSERT INTO schema_migrations (version, applied_ms, name, checksum, applied_by, compatible_back_to) \
             VALUES ({version}, 0, '{version:04}_newer', 'x', 'site 9.9.9', {back})"
        ),
    )
    .await;
}

/// Opens the store at `raw` again, as a server starting on it would.
async fn reopen(raw: &Raw) -> Result<Store, StoreError> {
    match raw {
        Raw::Sqlite(path) => Store::open(&format!("sqlite:{}", path.display())).await,
        Raw::Postgres { url, schema } => PgStore::connect(url, Some(schema)).await.map(Store::Postgres),
    }
}

/// The rows of `schema_migrations`, to show nothing was written.
async fn migration_rows(raw: &Raw) -> Vec<(i64, Option<String>, Option<i64>)> {
    match raw {
        Raw::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).expect("open");
            let mut stmt = conn
                .prepare("SELECT version, name, compatible_back_to FROM schema_migrations ORDER BY version")
                .expect("prepare");
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .expect("rows")
                .collect::<Result<_, _>>()
                .expect("rows")
        }
        Raw::Postgres { url, schema } => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
            tokio::spawn(connection);
            client
                .query(
                    &format!("SELECT version, name, compatible_back_to FROM \"{schema}\".schema_migrations ORDER BY version"),
                    &[],
                )
                .await
                .expect("rows")
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect()
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_binary_runs_on_newer_compatible_migrations_and_refuses_an_incompatible_one() {
    for (name, store, raw) in common::stores::raw_stores().await {
        // Every migration this binary applied records its marker.
        let rows = migration_rows(&raw).await;
        assert!(rows.iter().all(|(_, _, back)| back.is_some()), "{name}: {rows:?}");
        store.close().await;
        drop(store);

        // The next release's expand migrations, marked compatible with this one: it runs.
        add_newer_migration(&raw, ours() + 1, ours()).await;
        add_newer_migration(&raw, ours() + 2, ours()).await;
        let store = reopen(&raw)
            .await
            .unwrap_or_else(|e| panic!("{name}: compatible migrations refused: {e}"));
        assert!(store.writer_alive(), "{name}");
        store.close().await;
        drop(store);

        // A contract migration needing a binary that knows the next version: refused, and
        // the message names it and what it needs.
        add_newer_migration(&raw, ours() + 3, ours() + 1).await;
        let before = migration_rows(&raw).await;
        let refused = reopen(&raw)
            .await
            .err()
            .unwrap_or_else(|| panic!("{name}: an incompatible migration was accepted"));
        let said = refused.to_string();
        assert!(
            said.contains(&format!("schema version {}", ours() + 3))
                && said.contains(&format!(
                    "migration {} ({:04}_newer) is not marked compatible",
                    ours() + 3,
                    ours() + 3
                ))
                && said.contains(&format!("knows version {} or newer", ours() + 1))
                && said.contains("Nothing was written"),
            "{name}: {said}"
        );
        assert_eq!(migration_rows(&raw).await, before, "{name}: nothing written");
    }
}

/// `site` serving the SQLite file `db` on `port` with `env`, its output captured.
fn site_on(db: &std::path::Path, port: u16, env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_site"))
        .env("DATABASE_URL", format!("sqlite:{}", db.display()))
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("METRICS_LISTEN", "")
        .env("RENDER_POOL_SIZE", "1")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start site")
}

/// Waits (at most 60 s) for a child told to stop; its exit status and everything it said.
fn stopped(mut child: Child) -> (std::process::ExitStatus, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "site did not stop within 60 s of SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status, said)
}

fn sigterm(child: &Child) {
    assert!(
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill")
            .success()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_binary_starts_on_a_compatible_newer_schema_and_says_so() {
    let db = common::temp_dir("rolling").join("site.db");
    Store::open(&format!("sqlite:{}", db.display())).await.expect("store").close().await;
    add_newer_migration(&Raw::Sqlite(db.clone()), ours() + 1, ours()).await;
    let port = common::free_port();
    let child = site_on(&db, port, &[]);
    common::wait_healthy(&common::client(), port).await;
    sigterm(&child);
    let (status, said) = stopped(child);
    assert!(status.success(), "{said}");
    assert!(said.contains("newer schema version, marked compatible with this binary"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sigterm_a_draining_server_fails_its_health_check_and_closes_each_connection_but_still_serves() {
    let db = common::temp_dir("drain").join("site.db");
    let port = common::free_port();
    let child = site_on(&db, port, &[("SHUTDOWN_DRAIN_MS", "4000"), ("RATE_LIMIT_PER_MINUTE", "1000")]);
    let client = common::client();
    common::wait_healthy(&client, port).await;
    let base = format!("http://127.0.0.1:{port}");
    let r = client.get(format!("{base}/healthz")).send().await.expect("health");
    assert_eq!(r.status(), 200);
    assert!(r.headers().get("connection").is_none(), "kept alive before the drain");
    sigterm(&child);
    // The drain: health fails, every answer closes its connection, and requests are served.
    let deadline = Instant::now() + Duration::from_secs(3);
    let r = loop {
        let r = client.get(format!("{base}/healthz")).send().await.expect("health while draining");
        if r.status() == 503 || Instant::now() > deadline {
            break r;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(r.status(), 503);
    assert_eq!(r.headers().get("connection").and_then(|v| v.to_str().ok()), Some("close"));
    assert!(r.text().await.expect("body").contains("draining"));
    let lead = client
        .post(format!("{base}/.netlify/functions/submit-lead"))
        .json(&common::lead_body("hvac", "(412) 555-0199"))
        .send()
        .await
        .expect("a lead while draining");
    assert_eq!(lead.status(), 201, "still serving while draining");
    assert_eq!(lead.headers().get("connection").and_then(|v| v.to_str().ok()), Some("close"));
    let (status, said) = stopped(child);
    assert!(status.success(), "{said}");
    assert!(said.contains("draining"), "{said}");
    // Then the listener is closed.
    assert!(client.get(format!("{base}/healthz")).send().await.is_err());
}

/// A file of a release this process does not embed.
fn other_file(release: &str, n: u32) -> RecordedAsset {
    let body = format!("/* release {release} */ console.log({n});").into_bytes();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &body).expect("gzip");
    RecordedAsset {
        path: format!("/assets/chunk-{release}{n}.js"),
        content_type: "text/javascript; charset=utf-8".into(),
        body,
        gzip: gz.finish().expect("gzip"),
    }
}

/// Lets the database's clock, which says when a release started, move on by a millisecond
/// or more: releases started in the same millisecond would be ordered by name.
async fn a_moment_later() {
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
}

fn release(name: &str) -> AssetRelease {
    AssetRelease {
        release: name.repeat(8),
        version: format!("9.9.{name}"),
        files: vec![other_file(name, 1), other_file(name, 2)],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hashed_file_recorded_by_another_release_is_served_immutable_with_its_type() {
    for (name, store) in common::stores::stores().await {
        let server = common::start_with_store(common::config(&[]), site_server::assets::SSR_BUNDLE, Arc::clone(&store)).await;
        server.state.record_assets().await.expect("record this release");
        let runtime = server.state.assets.runtime_url.clone();
        let ours = store
            .recorded_asset(&runtime)
            .await
            .expect("read")
            .expect("this release's runtime is recorded");
        assert_eq!(ours.content_type, "text/javascript; charset=utf-8", "{name}");
        // A restart of a release the database knows marks it started, sending no file; a
        // release it does not know is left to be recorded.
        server.state.record_assets().await.expect("record this release again");
        assert!(store.recorded_asset(&runtime).await.expect("read").is_some(), "{name}");
        let unknown = store.restart_release("not-recorded", "9.9.9", KEEP_RELEASES).await;
        assert!(!unknown.expect("restart"), "{name}: an unknown release is not marked");

        // Another server, of another release, records its files: this one answers for them.
        let other = release("b");
        a_moment_later().await;
        store.record_assets(&other, KEEP_RELEASES).await.expect("record b");
        for file in &other.files {
            let url = format!("{}{}", server.base, file.path);
            let r = server
                .client
                .get(&url)
                .header("accept-encoding", "identity")
                .send()
                .await
                .expect("get");
            assert_eq!(r.status(), 200, "{name} {url}");
            let header = |h: &str| r.headers().get(h).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
            assert_eq!(header("content-type"), "text/javascript; charset=utf-8", "{name}");
            assert_eq!(header("cache-control"), "public, max-age=31536000, immutable", "{name}");
            assert!(!header("etag").is_empty(), "{name}");
            assert_eq!(r.bytes().await.expect("body").as_ref(), file.body.as_slice(), "{name}");
            // Compressed too, as any asset.
            let r = server.client.get(&url).header("accept-encoding", "gzip").send().await.expect("get");
            assert_eq!(
                r.headers().get("content-encoding").and_then(|v| v.to_str().ok()),
                Some("gzip"),
                "{name}"
            );
        }
        // A name no release recorded, or one that is no file name, is not found.
        for path in ["/assets/chunk-NOSUCHFILE.js", "/assets/..%2Fsite.db", "/assets/a%20b.js"] {
            let r = server.client.get(format!("{}{path}", server.base)).send().await.expect("get");
            assert_eq!(r.status(), 404, "{name} {path}");
        }

        // Two releases are kept: the ones started last.
        let third = release("c");
        a_moment_later().await;
        store.record_assets(&third, KEEP_RELEASES).await.expect("record c");
        assert!(
            store.recorded_asset(&runtime).await.expect("read").is_none(),
            "{name}: the oldest release is pruned"
        );
        for file in other.files.iter().chain(&third.files) {
            assert!(
                store.recorded_asset(&file.path).await.expect("read").is_some(),
                "{name}: {} kept",
                file.path
            );
        }
        // This server still serves its own files from memory.
        let r = server.client.get(format!("{}{runtime}", server.base)).send().await.expect("get");
        assert_eq!(r.status(), 200, "{name}");
        // A server of release b starting again marks it started: c's files stay, and so do b's.
        a_moment_later().await;
        let restarted = store.restart_release(&other.release, &other.version, KEEP_RELEASES).await;
        assert!(restarted.expect("restart b"), "{name}: b is known");
        assert!(store.recorded_asset(&third.files[0].path).await.expect("read").is_some(), "{name}");
        assert!(store.recorded_asset(&other.files[0].path).await.expect("read").is_some(), "{name}");
    }
}

/// GETs `target` as written, byte for byte, over a raw connection (an HTTP client would
/// tidy `..`, `\`, NUL and raw UTF-8 away before sending): the status and the body.
async fn raw_get(addr: &str, target: &[u8]) -> (u16, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut request = b"GET ".to_vec();
    request.extend_from_slice(target);
    request.extend_from_slice(b" HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(&request).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("answered within 30 s")
        .expect("read");
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("a status line for {:?}: {text:.200}", String::from_utf8_lossy(target)));
    let body = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or_else(Vec::new, |at| answer[at + 4..].to_vec());
    (status, body)
}

/// The files served from the database answer only to their exact names: a path that
/// climbs out (`..`, percent-encoded, with backslashes), carries a NUL, is very long, has
/// double slashes or Unicode, or is not of the hashed shape is answered 404 (400 or 414 when
/// the HTTP layer refuses the request line itself), never 500, never another file's bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_file_is_served_by_its_exact_name_only() {
    for (name, store) in common::stores::stores().await {
        let server = common::start_with_store(common::config(&[]), site_server::assets::SSR_BUNDLE, Arc::clone(&store)).await;
        server.state.record_assets().await.expect("record this release");
        let other = release("d");
        store.record_assets(&other, KEEP_RELEASES).await.expect("record d");
        let file = &other.files[0].path;
        let (status, body) = raw_get(&server.addr(), file.as_bytes()).await;
        assert_eq!((status, body.as_slice()), (200, other.files[0].body.as_slice()), "{name}: {file}");
        let runtime = server.state.assets.runtime_url.clone();
        let runtime_body = server
            .client
            .get(server.url(&runtime))
            .header("accept-encoding", "identity")
            .send()
            .await
            .expect("runtime")
            .bytes()
            .await
            .expect("body");
        let bare = file.trim_start_matches("/assets/");
        let mut targets: Vec<Vec<u8>> = [
            "/assets/..".to_string(),
            "/assets/../..".into(),
            "/assets/../../../../etc/passwd".into(),
            "/assets/../site.db".into(),
            format!("/assets/../assets/{bare}"),
            format!("/assets/x/../{bare}"),
            format!("/assets/./{bare}"),
            "/assets/..%2f..%2f..%2fetc%2fpasswd".into(),
            "/assets/%2e%2e%2f%2e%2e%2fsite.db".into(),
            format!("/assets/%2E%2E%2F{bare}"),
            format!("/assets/%2e%2e/{bare}"),
            "/assets/%252e%252e%252fsite.db".into(),
            "/assets/..\\..\\site.db".into(),
            "/assets/..%5c..%5csite.db".into(),
            format!("/assets/x\\..\\{bare}"),
            format!("{file}%00"),
            format!("{file}%00.css"),
            format!("{runtime}%00.html"),
            format!("/assets//{bare}"),
            format!("//assets/{bare}"),
            format!("/assets/{bare}/"),
            format!("{file}/"),
            format!("{file}.map"),
            format!("{file}%20"),
            format!("{file};.css"),
            file.to_uppercase(),
            format!("/assets/{}.js", "a".repeat(129)),
            format!("/assets/{}", "a".repeat(8000)),
            format!("/assets/{}", "a".repeat(70_000)),
            "/assets/".into(),
            "/assets/.env".into(),
            "/assets/site.db".into(),
            "/assets/Cargo.toml".into(),
            "/assets/chunk.js".into(),
            "/assets/index.html".into(),
            "/assets/ch%C3%BCnk-dddddddd1.js".into(),
            "/assets/%EF%BC%8E%EF%BC%8E%EF%BC%8Fsite.db".into(),
            "/assets/%c0%ae%c0%ae%c0%afsite.db".into(),
            format!("/assets/{}", bare.replace('-', "\u{2010}")),
        ]
        .into_iter()
        .map(String::into_bytes)
        .collect();
        // As raw bytes: a NUL, a raw non-ASCII name and a raw backslash.
        targets.push([file.as_bytes(), b"\0"].concat());
        targets.push("/assets/chünk-dddddddd1.js".as_bytes().to_vec());
        targets.push(b"/assets/\\chunk-dddddddd1.js".to_vec());
        for target in &targets {
            let shown = String::from_utf8_lossy(target);
            let shown = shown.get(..120).unwrap_or(&shown);
            let (status, body) = raw_get(&server.addr(), target).await;
            // 400 and 414 come from the HTTP layer, refusing the request line itself (a raw
            // NUL, a target over 64 KiB) before any route sees it.
            assert!(matches!(status, 400 | 404 | 414), "{name}: {shown:?} answered {status}");
            for other_bytes in other.files.iter().map(|f| f.body.as_slice()).chain([runtime_body.as_ref()]) {
                assert!(
                    !body.windows(other_bytes.len()).any(|w| w == other_bytes),
                    "{name}: {shown:?} answered a file's bytes"
                );
            }
            let text = String::from_utf8_lossy(&body);
            assert!(
                !text.contains("SQLite format") && !text.contains("root:x:0:0"),
                "{name}: {shown:?}: {text:.200}"
            );
        }
        // The file is still served by its name.
        let (status, _) = raw_get(&server.addr(), file.as_bytes()).await;
        assert_eq!(status, 200, "{name}");
    }
}
