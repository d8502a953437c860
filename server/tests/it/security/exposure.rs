//! What could leak, checked through the real binary and real HTTP: database credentials in
//! the start line and start errors, any secret setting in a running server's logs or
//! figures (by variable or by flag), a lead sent in clear to a host the webhook check did
//! not see, a visitor's address chosen by the visitor behind a proxy, and backups readable
//! by other users.

use crate::common;

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use site_server::assets;

use common::stores::stores;
use common::{TestServer, config, start_with_store};

const SITE: &str = env!("CARGO_BIN_EXE_site");
const SUBMIT: &str = "/.netlify/functions/submit-lead";

/// `site` run by `sh` with umask 022 (so a file's mode is what the server chose, not what
/// a strict umask made of it) and the given environment.
fn site_command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg("umask 022; exec \"$0\" \"$@\"").arg(SITE).args(args);
    cmd.env("NO_COLOR", "1").env("METRICS_LISTEN", "").env("RENDER_POOL_SIZE", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn output_text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Runs a command that should end on its own within 60 s (a refused start): its exit
/// status, or None when it was still running and had to be stopped, and what it wrote.
async fn run_to_end(mut cmd: Command) -> (Option<std::process::ExitStatus>, String) {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start site");
    let mut status = None;
    for _ in 0..600 {
        status = child.try_wait().expect("wait");
        if status.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (status, stop(child).await)
}

/// Sends SIGTERM and returns everything the process wrote.
async fn stop(mut child: std::process::Child) -> String {
    if child.try_wait().expect("wait").is_none() {
        let pid = child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
    }
    for _ in 0..200 {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut logs = String::new();
    child.stdout.take().expect("stdout").read_to_string(&mut logs).expect("read");
    child.stderr.take().expect("stderr").read_to_string(&mut logs).expect("read");
    logs
}

const SECRETS: [&str; 4] = ["UserinfoSecret1", "QuerySecret2", "SslSecret3", "KeySecret4"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_credentials_never_reach_the_start_line_or_a_start_error() {
    // Start errors: a database that does not answer, every credential form in its URL.
    let url = "postgres://site:UserinfoSecret1@127.0.0.1:1/site?password=QuerySecret2&sslpassword=SslSecret3&sslkey=KeySecret4";
    for bad in [
        url,
        &url.replace("127.0.0.1:1", "127.0.0.1:1:2"),
        &format!("{url}&sslmode=nonsense"),
    ] {
        let (status, text) = run_to_end(site_command(&[], &[("DATABASE_URL", bad), ("LISTEN", "127.0.0.1:0")])).await;
        assert!(status.is_some_and(|s| !s.success()), "{text}");
        for secret in SECRETS {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("database postgres://site:"), "the error names the database: {text}");
    }
    let dir = common::temp_dir("redact");
    let out = site_command(&["backup", dir.join("b.db").to_str().expect("utf-8")], &[("DATABASE_URL", url)])
        .output()
        .expect("run site");
    let text = output_text(&out);
    assert!(!out.status.success() && text.contains("pg_dump"), "{text}");
    for secret in SECRETS {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // The start line of a server on PostgreSQL whose URL carries its password twice.
    let Ok(test_url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL start line was not checked");
        return;
    };
    let (client, connection) = tokio_postgres::connect(&test_url, tokio_postgres::NoTls).await.expect("connect");
    tokio::spawn(connection);
    let schema = format!("redact_{}_{}", site_server::store::now_ms(), std::process::id());
    client.batch_execute(&format!("CREATE SCHEMA \"{schema}\"")).await.expect("schema");
    let (base, query) = test_url.split_once('?').unwrap_or((&test_url, ""));
    let (scheme, rest) = base.split_once("://").expect("a URL");
    let (user, host) = rest.split_once('@').expect("a user in TEST_DATABASE_URL");
    let user = user.split(':').next().unwrap_or(user);
    let mut served = format!("{scheme}://{user}:UserinfoSecret1@{host}?password=QuerySecret2&options=-csearch_path%3D{schema}");
    if !query.is_empty() {
        served.push('&');
        served.push_str(query);
    }
    let port = common::free_port();
    let listen = format!("127.0.0.1:{port}");
    let child = site_command(&[], &[("DATABASE_URL", &served), ("LISTEN", &listen)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start site");
    common::wait_healthy(&common::client(), port).await;
    let logs = stop(child).await;
    let _ = client.batch_execute(&format!("DROP SCHEMA \"{schema}\" CASCADE")).await;
    let start_line = logs.lines().find(|l| l.contains("serving on")).unwrap_or_default();
    assert!(start_line.contains("(PostgreSQL)") && start_line.contains(host), "{logs}");
    for secret in SECRETS {
        assert!(!logs.contains(secret), "{secret} in {logs}");
    }
}

#[tokio::test]
async fn a_plain_http_webhook_must_connect_to_a_loopback_host_as_the_client_parses_it() {
    // The HTTP client reads the backslash as the end of the host: 203.0.113.9 is where it
    // would connect, whatever comes after the '@'.
    let db = common::temp_dir("webhook").join("site.db");
    let (status, text) = run_to_end(site_command(
        &[],
        &[
            ("WEBHOOK_URL", "http://203.0.113.9\\@127.0.0.1/hook"),
            ("WEBHOOK_SECRET", "0123456789abcdef"),
            ("DATABASE_URL", &format!("sqlite:{}", db.display())),
            ("LISTEN", "127.0.0.1:0"),
        ],
    ))
    .await;
    assert!(status.is_some_and(|s| !s.success()), "refused at start: {text}");
    assert!(text.contains("notify.webhook_url"), "{text}");
    assert!(!db.exists(), "refused before the database was opened");
}

async fn servers(env: &[(&str, &str)]) -> Vec<(&'static str, TestServer)> {
    let mut out = Vec::new();
    for (name, store) in stores().await {
        out.push((name, start_with_store(config(env), assets::SSR_BUNDLE, store).await));
    }
    out
}

/// Posts a lead whose X-Forwarded-For comes in `lines` (one header line each); the
/// address the consent record stored, or the refusal's status.
async fn lead_ip(server: &TestServer, lines: &[&str], n: u32) -> Result<Option<String>, StatusCode> {
    let mut request = server.client.post(server.url(SUBMIT));
    for line in lines {
        request = request.header("x-forwarded-for", *line);
    }
    let r = request
        .json(&common::lead_body("hvac", &common::phone(n)))
        .send()
        .await
        .expect("post");
    if r.status() != StatusCode::CREATED {
        return Err(r.status());
    }
    let id = r.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    Ok(server.state.store.lead(&id).await.expect("read").expect("stored").ip)
}

#[tokio::test]
async fn the_visitor_is_the_entry_the_trusted_proxies_wrote_across_every_header_line() {
    for (name, server) in servers(&[("TRUST_FORWARDED_FOR", "true"), ("RATE_LIMIT_PER_MINUTE", "2")]).await {
        // The client sent the first line; the proxy appended its own as a second one.
        for n in 0..2 {
            let chosen = format!("192.0.2.{n}");
            let ip = lead_ip(&server, &[&chosen, "203.0.113.7"], n).await;
            assert_eq!(ip, Ok(Some("203.0.113.7".into())), "{name}");
        }
        let third = lead_ip(&server, &["192.0.2.99", "203.0.113.7"], 3).await;
        assert_eq!(third, Err(StatusCode::TOO_MANY_REQUESTS), "{name}: one visitor, one limit");
    }
    // A load balancer, then Caddy: two hops, so the visitor is the second entry from the right.
    for (name, server) in servers(&[("TRUST_FORWARDED_FOR", "true"), ("TRUSTED_PROXY_HOPS", "2")]).await {
        let ip = lead_ip(&server, &["192.0.2.1, 198.51.100.9", "10.0.0.2"], 10).await;
        assert_eq!(ip, Ok(Some("198.51.100.9".into())), "{name}");
        let ip = lead_ip(&server, &["192.0.2.1", "198.51.100.8, 10.0.0.2"], 11).await;
        assert_eq!(ip, Ok(Some("198.51.100.8".into())), "{name}");
        // Fewer entries than hops (a request that skipped the balancer): the first one.
        let ip = lead_ip(&server, &["198.51.100.7"], 12).await;
        assert_eq!(ip, Ok(Some("198.51.100.7".into())), "{name}");
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).expect("metadata").permissions().mode() & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_backup_is_readable_by_its_owner_only() {
    let dir = common::temp_dir("backup-mode");
    let db = dir.join("site.db");
    common::old_database(&db, 3);
    let backups = dir.join("backups");
    let port = common::free_port();
    let child = site_command(
        &[],
        &[
            ("DATABASE_URL", &format!("sqlite:{}", db.display())),
            ("LISTEN", &format!("127.0.0.1:{port}")),
            ("BACKUP_DIR", backups.to_str().expect("utf-8")),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start site");
    common::wait_healthy(&common::client(), port).await;
    common::eventually(60, "a scheduled backup", async || {
        std::fs::read_dir(&backups)
            .map(|d| d.flatten().any(|e| e.file_name().to_string_lossy().starts_with("site-")))
            .unwrap_or(false)
    })
    .await;
    let manual = dir.join("manual.db");
    let out = site_command(
        &["backup", manual.to_str().expect("utf-8")],
        &[("DATABASE_URL", &format!("sqlite:{}", db.display()))],
    )
    .output()
    .expect("run site backup");
    assert!(out.status.success(), "{}", output_text(&out));
    stop(child).await;
    let mut files: Vec<_> = std::fs::read_dir(&backups).expect("dir").flatten().map(|e| e.path()).collect();
    files.push(manual);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    assert!(names.iter().any(|n| n.contains("pre-migration-")), "{names:?}");
    assert!(names.iter().any(|n| n.contains("/site-")), "{names:?}");
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    assert_eq!(mode(&backups), 0o700, "the folder the server made for them");
}

/// A server process killed when the test fails before stopping it.
struct Running(Option<std::process::Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The four secrets of the configuration, as the start-up test gives them.
const CONFIG_SECRETS: [&str; 4] = [
    "DbPassword-Secret1",
    "SmtpPassword-Secret2",
    "WebhookKey-Secret3",
    "MetricsToken-Secret4",
];

/// A server started with every secret setting (the database's password when PostgreSQL runs
/// here, the SMTP relay's password, the webhook's key, the metrics token), given by the
/// environment and then by flags: nothing it writes from start to stop names one, with a
/// lead's e-mail and webhook failing meanwhile (the relay and the receiver are not there)
/// and /metrics asked with a wrong token, then with the right one (whose figures name none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_reaches_the_logs_given_by_environment_or_flag() {
    let pg = std::env::var("TEST_DATABASE_URL").ok();
    for by_flag in [false, true] {
        let dir = common::temp_dir("secret-logs");
        let (database_url, store, schema) = match &pg {
            Some(url) => {
                let schema = format!(
                    "store_test_{}_{}_secrets{by_flag}",
                    site_server::store::now_ms(),
                    std::process::id()
                );
                let pg = site_server::store::postgres::PgStore::connect(url, Some(&schema))
                    .await
                    .expect("postgres");
                let (base, query) = url.split_once('?').unwrap_or((url, ""));
                let (scheme, rest) = base.split_once("://").expect("a URL");
                let (user, host) = rest.split_once('@').expect("a user in TEST_DATABASE_URL");
                let user = user.split(':').next().unwrap_or(user);
                let mut served = format!("{scheme}://{user}:{}@{host}?options=-csearch_path%3D{schema}", CONFIG_SECRETS[0]);
                if !query.is_empty() {
                    served.push('&');
                    served.push_str(query);
                }
                (served, site_server::store::Store::Postgres(pg), Some(schema))
            }
            None => {
                let db = dir.join("site.db");
                let url = format!("sqlite:{}", db.display());
                let store = site_server::store::Store::open(&url).await.expect("sqlite");
                (url, store, None)
            }
        };
        let how = if by_flag { "by flag" } else { "by environment" };
        let (port, metrics_port) = (common::free_port(), common::free_port());
        let (listen, metrics_listen) = (format!("127.0.0.1:{port}"), format!("127.0.0.1:{metrics_port}"));
        let smtp_url = format!("smtp://mailer:{}@127.0.0.1:{}", CONFIG_SECRETS[1], common::free_port());
        let webhook_url = format!("http://127.0.0.1:{}/hook", common::free_port());
        let webhook_secret = format!("{}-long-enough", CONFIG_SECRETS[2]);
        let metrics_token = format!("{}-long-enough", CONFIG_SECRETS[3]);
        let secrets = [
            ("DATABASE_URL", "--database-url", database_url.as_str()),
            ("SMTP_URL", "--smtp-url", smtp_url.as_str()),
            ("WEBHOOK_SECRET", "--webhook-secret", webhook_secret.as_str()),
            ("METRICS_TOKEN", "--metrics-token", metrics_token.as_str()),
        ];
        let mut env = vec![
            ("LISTEN", listen.as_str()),
            ("METRICS_LISTEN", metrics_listen.as_str()),
            ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
            ("WEBHOOK_URL", webhook_url.as_str()),
        ];
        let mut args = Vec::new();
        for (var, flag, value) in secrets {
            if by_flag {
                args.extend([flag, value]);
            } else {
                env.push((var, value));
            }
        }
        let mut child = Running(Some(
            site_command(&args, &env)
                .current_dir(&dir)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start site"),
        ));
        let client = common::client();
        common::wait_healthy(&client, port).await;
        let r = common::post_lead(&client, port, &common::lead_body("hvac", &common::phone(31))).await;
        assert_eq!(r.status(), StatusCode::CREATED);
        common::eventually(60, "the e-mail and the webhook were each tried", async || {
            let rows = store
                .outbox_rows(site_server::store::Outbox::Leads, "pending", 10)
                .await
                .expect("rows");
            rows.len() == 2 && rows.iter().all(|r| r.attempts >= 1)
        })
        .await;
        // The token guards /metrics on the site's own listener.
        let r = client
            .get(format!("http://{listen}/metrics"))
            .bearer_auth("a-wrong-token-of-some-length")
            .send()
            .await
            .expect("metrics");
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        let r = client
            .get(format!("http://{listen}/metrics"))
            .bearer_auth(&metrics_token)
            .send()
            .await
            .expect("metrics");
        assert_eq!(r.status(), StatusCode::OK, "the token given {how} is the one in force");
        let figures = r.text().await.expect("figures");
        for secret in CONFIG_SECRETS {
            assert!(!figures.contains(secret), "{how}: {secret} in the metrics");
        }
        let logs = stop(child.0.take().expect("running")).await;
        store.close().await;
        if let (Some(url), Some(schema)) = (&pg, schema) {
            let (db, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
            tokio::spawn(connection);
            let _ = db.batch_execute(&format!("DROP SCHEMA \"{schema}\" CASCADE")).await;
        }
        assert!(logs.contains("serving on") && logs.contains("stopped"), "{how}: {logs}");
        let database = if pg.is_some() { "(PostgreSQL)" } else { "(SQLite)" };
        assert!(logs.contains(database), "{how}: the start line names the database: {logs}");
        for secret in CONFIG_SECRETS {
            assert!(!logs.contains(secret), "{how}: {secret} in {logs}");
        }
    }
}
