//! Starts the real application on a loopback port for a test and talks to it over HTTP.
#![allow(dead_code)]

pub mod admin;
pub mod stores;

use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Once, OnceLock};

use site_server::config::Config;
use site_server::serve::{ServeOptions, Workers, serve};
use site_server::store::{Outbox, Store};
use site_server::{AppState, Background, CatalogueSource, app, assets, metrics_app};

pub struct TestServer {
    pub base: String,
    /// The metrics listener (`server.metrics_listen`), on a port of its own.
    pub metrics_base: String,
    pub state: Arc<AppState>,
    pub client: reqwest::Client,
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }

    /// The Prometheus exposition from the metrics listener.
    pub async fn metrics(&self) -> String {
        let r = self
            .client
            .get(format!("{}/metrics", self.metrics_base))
            .send()
            .await
            .expect("metrics");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        r.text().await.expect("metrics text")
    }

    /// The address of the site's listener, for tests that speak HTTP over a raw socket.
    pub fn addr(&self) -> String {
        self.base.trim_start_matches("http://").to_string()
    }
}

/// The default configuration with `(ENV_VAR, value)` overrides.
pub fn config(env: &[(&str, &str)]) -> Config {
    let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Config::build(None, &env).expect("config")
}

/// One server with the default configuration and the real bundle, warmed as `site` does
/// at start, shared by every test that needs nothing else. It runs on its own runtime thread, so each
/// test (each with its own runtime) gets a fresh client for it.
pub async fn start() -> TestServer {
    static SHARED: OnceLock<(String, String, Arc<AppState>)> = OnceLock::new();
    let (base, metrics_base, state) = SHARED.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let server = start_with(config(&[]), assets::SSR_BUNDLE).await;
                server.state.warm().await;
                tx.send((server.base.clone(), server.metrics_base.clone(), Arc::clone(&server.state)))
                    .expect("send");
                std::future::pending::<()>().await;
            });
        });
        rx.recv().expect("shared server started")
    });
    TestServer {
        base: base.clone(),
        metrics_base: metrics_base.clone(),
        state: Arc::clone(state),
        client: client(),
    }
}

/// An HTTP client for tests (it does not follow redirects).
pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// A fresh folder for one test's files, `site-test-<label>-<pid>-<n>` in the system's
/// temporary folder. It is removed when the thread that asked for it ends (so ask on the
/// test's own thread, not in a spawned task): for a test, after the test returned and its
/// runtime (with every server and store on it) is gone.
/// When the test failed it is kept for a look, its path printed with the failure, until
/// the next run starts: that removes every such folder whose process has ended (a failed
/// test's, a killed run's, the shared server's of [`start`]).
pub fn temp_dir(label: &str) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    static SWEEP: Once = Once::new();
    SWEEP.call_once(|| {
        remove_stale_dirs();
        keep_dirs_of_failed_tests();
    });
    let dir = std::env::temp_dir().join(format!(
        "site-test-{label}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    THREAD_DIRS.with(|d| d.dirs.borrow_mut().push(dir.clone()));
    dir
}

/// The folders [`temp_dir`] made on this thread, removed when it ends unless a panic (a
/// failed assertion) happened on it first.
struct ThreadDirs {
    dirs: RefCell<Vec<PathBuf>>,
    failed: Cell<bool>,
}

thread_local! {
    static THREAD_DIRS: ThreadDirs = const {
        ThreadDirs {
            dirs: RefCell::new(Vec::new()),
            failed: Cell::new(false),
        }
    };
}

impl Drop for ThreadDirs {
    fn drop(&mut self) {
        if !self.failed.get() {
            for dir in self.dirs.get_mut().drain(..) {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// Marks the panicking thread's folders as kept, and names them, before the panic is
/// reported as usual.
fn keep_dirs_of_failed_tests() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = THREAD_DIRS.try_with(|d| {
            d.failed.set(true);
            if let Ok(dirs) = d.dirs.try_borrow()
                && !dirs.is_empty()
            {
                eprintln!("the test's files are kept in {dirs:?}");
            }
        });
        report(info);
    }));
}

/// Removes the `site-test-*` folders whose process has ended (where /proc tells).
fn remove_stale_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("site-test-") else {
            continue;
        };
        let Some(pid) = rest.rsplit('-').nth(1).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The variable that tells a child process started by [`run_alone`] which test it runs.
const ALONE: &str = "SITE_TEST_ALONE";

/// For a test that needs the process to itself (one that counts every allocation of it):
/// `module` is the test's `module_path!()` and `function` its name, which make the test's
/// name (`admin::export::function`) wherever the module sits. In the test process it runs
/// this binary again with only that test, in a child process, and passes when that passed;
/// in the child, it runs `body` on a runtime of its own.
pub fn run_alone<F: Future<Output = ()>>(module: &str, function: &str, body: impl FnOnce() -> F) {
    // `module_path!()` starts with the crate's name (`it::`), which test names leave out.
    let module = module.split_once("::").map_or("", |(_, rest)| rest);
    let name = &format!("{module}::{function}");
    if std::env::var(ALONE).is_ok_and(|n| n == *name) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(body());
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, name)
        .output()
        .expect("run the test binary again");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    eprintln!("{said}");
    assert!(
        out.status.success() && said.contains("test result: ok. 1 passed"),
        "{name}, run alone: {}\n{said}",
        out.status
    );
}

/// Applies the first `n` SQLite migrations to a new file `db` the way the binary before
/// checksums did: a database an older release left.
pub fn old_database(db: &std::path::Path, n: usize) {
    let conn = rusqlite::Connection::open(db).expect("open");
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

/// Starts the app on a loopback port with a fresh SQLite database and its background tasks
/// (cache cold: pages render on first request).
pub async fn start_with(config: Config, bundle: &str) -> TestServer {
    let db = temp_dir("db").join("site.db");
    let store = Arc::new(Store::open(&format!("sqlite:{}", db.display())).await.expect("store"));
    start_with_store(config, bundle, store).await
}

/// The application state with a fresh SQLite database and no listener, for driving
/// `app(state)` in process (cache cold, no background tasks).
pub async fn state_in_process(config: Config) -> Arc<AppState> {
    let db = temp_dir("db").join("site.db");
    let store = Arc::new(Store::open(&format!("sqlite:{}", db.display())).await.expect("store"));
    AppState::new(config, CatalogueSource::Embedded, assets::SSR_BUNDLE, store)
        .await
        .expect("state")
}

pub async fn start_with_store(config: Config, bundle: &str, store: Arc<Store>) -> TestServer {
    let (server, background) = start_with_background(config, bundle, store).await;
    // The workers live as long as the test's runtime.
    std::mem::forget(background);
    server
}

/// As [`start_with_store`], handing back its workers: dropping them stops them where they
/// are, as killing the process would (the scheduled jobs' lease is not given up).
pub async fn start_with_background(config: Config, bundle: &str, store: Arc<Store>) -> (TestServer, Background) {
    let state = AppState::new(config, CatalogueSource::Embedded, bundle, store)
        .await
        .expect("state");
    let background = Background::start(&state);
    (serve_state(state).await, background)
}

/// The application on `store` with no workers at all: it takes requests and queues
/// notifications, and delivers none (another server's worker must).
pub async fn start_without_workers(config: Config, store: Arc<Store>) -> TestServer {
    let state = AppState::new(config, CatalogueSource::Embedded, assets::SSR_BUNDLE, store)
        .await
        .expect("state");
    serve_state(state).await
}

/// Serves `state` on loopback ports (the site and the metrics listener).
async fn serve_state(state: Arc<AppState>) -> TestServer {
    // Not warmed: pages render on first request, which is all most tests need.
    // The binary's own connection loop (deadlines and all), as `site` runs it.
    let options = ServeOptions::from_config(&state.config.server);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    // Two connection threads, as on our 2-core machines; they end with the test's runtime,
    // which drops the listener's task.
    let workers = Workers::start(2).expect("connection threads");
    tokio::spawn(serve(
        listener,
        app(Arc::clone(&state)),
        options,
        std::future::pending(),
        Arc::clone(&state.draining),
        Arc::clone(&workers),
    ));
    let metrics_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let metrics_addr: SocketAddr = metrics_listener.local_addr().expect("addr");
    tokio::spawn(serve(
        metrics_listener,
        metrics_app(Arc::clone(&state)),
        options,
        std::future::pending(),
        Default::default(),
        workers,
    ));
    TestServer {
        base: format!("http://{addr}"),
        metrics_base: format!("http://{metrics_addr}"),
        state,
        client: client(),
    }
}

/// The real bundle with its `render` wrapped so that chosen services misbehave.
pub fn bundle_with_faults(faults: &str) -> String {
    format!(
        "{}\n;(function () {{ var real = globalThis.render; globalThis.render = function (page, propsJson) {{ var slug = page === 'service' ? JSON.parse(propsJson).service.slug : ''; {faults}; return real(page, propsJson); }}; }})();",
        assets::SSR_BUNDLE
    )
}

/// Text with the entities that React and askama write turned back into characters.
pub fn unescape_html(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&#60;", "<")
        .replace("&gt;", ">")
        .replace("&#62;", ">")
        .replace("&#38;", "&")
        .replace("&amp;", "&")
}

/// The consent wording the site shows now.
pub fn consent_text() -> String {
    site_server::leads::consent::ConsentWordings::load("RingReady")
        .expect("consent")
        .current()
        .to_string()
}

/// A valid submit-lead body for `phone`.
pub fn lead_body(slug: &str, phone: &str) -> serde_json::Value {
    serde_json::json!({
        "serviceSlug": slug,
        "fullName": "Maria Gonzalez",
        "phone": phone,
        "zipCode": "15213",
        "consent": true,
        "trustedform_token": "",
        "trustedform_ping": "",
        "trustedform_cert_url": "",
        "tcpa_text": consent_text(),
    })
}

/// POSTs a lead's JSON to `server` with a Referer header (empty: none) and returns the id of
/// its 201.
pub async fn accepted_lead(server: &TestServer, body: &serde_json::Value, referer: &str) -> String {
    let mut request = server.client.post(server.url("/.netlify/functions/submit-lead")).json(body);
    if !referer.is_empty() {
        request = request.header("referer", referer);
    }
    let r = request.send().await.expect("post");
    assert_eq!(r.status(), reqwest::StatusCode::CREATED);
    r.json::<serde_json::Value>().await.expect("json")["id"]
        .as_str()
        .expect("id")
        .to_string()
}

/// Gives up the lead's webhook once it has been tried (the worker itself retries for days,
/// docs/decisions/009): what the worker does after `notify.give_up_after_hours`.
pub async fn give_up_webhook(store: &Store, lead: &str) {
    for _ in 0..200 {
        let rows = store
            .outbox_rows(site_server::store::Outbox::Leads, "pending", 1000)
            .await
            .expect("rows");
        if let Some(row) = rows
            .iter()
            .find(|r| r.record_id == lead && r.channel == "webhook" && r.attempts >= 1)
        {
            // The worker may claim the row again between the read and this write (its retry
            // is due within 200 ms); the outcome then does not hold and the loop reads again.
            if store
                .mark_failed(Outbox::Leads, row.id, row.claim, row.attempts as u32, "connection refused")
                .await
                .expect("mark failed")
            {
                return;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("lead {lead}: its webhook was never tried");
}

/// A distinct valid phone number for the n-th lead of a test.
pub fn phone(n: u32) -> String {
    format!("(412) {:03}-{:04}", 200 + (n / 10_000) % 800, n % 10_000)
}

/// A real SMTP server (scripts/smtp-server.mjs: nodemailer's smtp-server under Node) on a
/// loopback port, storing what it receives in a Maildir.
pub struct SmtpServer {
    pub port: u16,
    pub maildir: PathBuf,
    /// The address it listens on (127.0.0.1 unless started with `start_on`).
    pub host: String,
    child: Option<std::process::Child>,
}

/// The SMTP test server's script; it needs the npm packages (`make deps`).
fn smtp_script() -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(
        root.join("node_modules/smtp-server").exists(),
        "the SMTP tests need the npm packages: run `make deps` (npm ci)"
    );
    root.join("scripts/smtp-server.mjs")
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

impl SmtpServer {
    pub async fn start() -> Self {
        Self::start_on("127.0.0.1").await
    }

    /// The same server listening on `host` (an address of this machine).
    pub async fn start_on(host: &str) -> Self {
        let maildir = temp_dir("maildir").join("box");
        let mut s = Self {
            port: free_port(),
            maildir,
            host: host.to_string(),
            child: None,
        };
        s.resume().await;
        s
    }

    /// (Re)starts the server on the same port and Maildir.
    pub async fn resume(&mut self) {
        let child = std::process::Command::new("node")
            .arg(smtp_script())
            .args(["--listen", &format!("{}:{}", self.host, self.port), "--maildir"])
            .arg(&self.maildir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the SMTP test server (node scripts/smtp-server.mjs)");
        self.child = Some(child);
        for _ in 0..100 {
            if tokio::net::TcpStream::connect((self.host.as_str(), self.port)).await.is_ok() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the SMTP test server did not start on port {}", self.port);
    }

    /// Kills the server: connections are refused until `resume`.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://{}:{}", self.host, self.port)
    }

    /// Every message received so far, as raw text.
    pub fn messages(&self) -> Vec<String> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            if let Ok(entries) = std::fs::read_dir(self.maildir.join(sub)) {
                for e in entries.flatten() {
                    if let Ok(text) = std::fs::read_to_string(e.path()) {
                        out.push(text);
                    }
                }
            }
        }
        out
    }

    /// Waits until at least `n` messages arrived (or panics after `secs`).
    pub async fn wait_for(&self, n: usize, secs: u64) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let m = self.messages();
            if m.len() >= n {
                return m;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "only {} of {n} e-mails arrived in {secs} s",
                m.len()
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Undoes quoted-printable soft line breaks and =XX escapes, enough to search a message.
pub fn unfold_qp(text: &str) -> String {
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let mut out = String::with_capacity(joined.len());
    let bytes = joined.as_bytes();
    let mut i = 0;
    let mut buf = Vec::new();
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"), 16)
        {
            buf.push(b);
            i += 3;
            continue;
        }
        buf.push(bytes[i]);
        i += 1;
    }
    out.push_str(&String::from_utf8_lossy(&buf));
    out
}

/// Waits until the server on `port` answers /healthz (the real binary warms its cache
/// first, which takes minutes on a machine as busy as ours can be).
pub async fn wait_healthy(client: &reqwest::Client, port: u16) {
    for _ in 0..3000 {
        if client
            .get(format!("http://127.0.0.1:{port}/healthz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("site did not become healthy on port {port}");
}

/// POSTs a JSON lead to a server process on `port`.
pub async fn post_lead(client: &reqwest::Client, port: u16, body: &serde_json::Value) -> reqwest::Response {
    client
        .post(format!("http://127.0.0.1:{port}/.netlify/functions/submit-lead"))
        .json(body)
        .send()
        .await
        .expect("post")
}

/// An address of this machine that is not a loopback one (the interface a packet to the
/// outside would leave by; nothing is sent). Tests of the "non-loopback host" rules use it.
pub fn non_loopback_ip() -> String {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").expect("udp");
    socket
        .connect("192.0.2.1:9")
        .expect("a route off this machine (tests of non-loopback rules need one)");
    let ip = socket.local_addr().expect("addr").ip();
    assert!(!ip.is_loopback() && !ip.is_unspecified(), "no non-loopback address: {ip}");
    ip.to_string()
}

/// A valid lead for the store, as validation would build it.
pub fn new_lead(phone_e164: &str, slug: &str) -> site_server::leads::NewLead {
    use site_server::leads::consent::sha256_hex;
    let text = consent_text();
    site_server::leads::NewLead {
        service_slug: slug.into(),
        full_name: "Dana Whitfield".into(),
        phone: phone_e164.into(),
        zip_code: Some("15213".into()),
        consent_sha256: sha256_hex(&text),
        consent_text: text,
        ..Default::default()
    }
}

/// A peer that accepts every connection and then says nothing, ever: a mail relay or a
/// webhook receiver gone silent. It counts the connections it took.
pub struct SilentPeer {
    pub port: u16,
    connections: Arc<std::sync::atomic::AtomicUsize>,
}

impl SilentPeer {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let connections = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = Arc::clone(&connections);
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                held.push(stream);
            }
        });
        Self { port, connections }
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// The value of the sample `series` (name and labels, as written) in a /metrics exposition.
#[allow(dead_code)]
pub fn sample(metrics: &str, series: &str) -> Option<f64> {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.strip_prefix(' ')))
        .and_then(|v| v.trim().parse().ok())
}

/// Polls `probe` every 50 ms until it holds, or panics naming `what` after `secs`.
pub async fn eventually<F: AsyncFnMut() -> bool>(secs: u64, what: &str, mut probe: F) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while !probe().await {
        assert!(std::time::Instant::now() < deadline, "not within {secs} s: {what}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A small deterministic generator (xorshift) for the hostile-input tests, so a failure can
/// be replayed from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// A webhook receiver on a loopback port that answers every request with the status it is
/// set to, and records each request's lead (its id, phone, the whole of it) and the answer it got.
#[derive(Clone)]
pub struct Hook {
    pub url: String,
    status: Arc<std::sync::atomic::AtomicU16>,
    seen: Arc<std::sync::Mutex<Vec<HookRequest>>>,
}

/// One request a [`Hook`] received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookRequest {
    pub lead_id: String,
    pub phone: String,
    /// The status it answered.
    pub status: u16,
    /// The whole lead as sent (null when the body was not JSON).
    pub lead: serde_json::Value,
}

impl Hook {
    pub async fn start(status: u16) -> Self {
        let hook = Self {
            url: String::new(),
            status: Arc::new(std::sync::atomic::AtomicU16::new(status)),
            seen: Arc::default(),
        };
        let app = {
            let hook = hook.clone();
            axum::Router::new().route(
                "/hook",
                axum::routing::post(move |body: axum::body::Bytes| {
                    let hook = hook.clone();
                    async move {
                        let lead: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                        let status = hook.status.load(Ordering::SeqCst);
                        hook.seen.lock().expect("lock").push(HookRequest {
                            lead_id: lead["id"].as_str().unwrap_or("").to_string(),
                            phone: lead["phone"].as_str().unwrap_or("").to_string(),
                            status,
                            lead,
                        });
                        axum::http::StatusCode::from_u16(status).unwrap_or(axum::http::StatusCode::OK)
                    }
                }),
            )
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            url: format!("http://127.0.0.1:{port}/hook"),
            ..hook
        }
    }

    /// From now on every request is answered with `status`.
    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    pub fn requests(&self) -> Vec<HookRequest> {
        self.seen.lock().expect("lock").clone()
    }

    /// Requests about `lead_id` that were answered 2xx (delivered).
    pub fn delivered(&self, lead_id: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.lead_id == lead_id && (200..300).contains(&r.status))
            .count()
    }

    /// Requests about `lead_id`, whatever they were answered.
    pub fn tries(&self, lead_id: &str) -> usize {
        self.requests().iter().filter(|r| r.lead_id == lead_id).count()
    }
}

/// One HTTP/1.1 answer off the front of `buf` (a head, then a Content-Length body).
pub fn take_answer(buf: &mut Vec<u8>) -> Option<(String, Vec<u8>)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = String::from_utf8_lossy(&buf[..end]).to_string();
    let length: usize = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if buf.len() < end + length {
        return None;
    }
    let body = buf[end..end + length].to_vec();
    buf.drain(..end + length);
    Some((head, body))
}
