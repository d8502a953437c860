//! `site`: starts the RingReady web server, or runs an operator's command.
//!
//! Usage: site [--config FILE] [--catalogue DIR]
//!        site --version
//!        site [--config FILE] outbox retry [--all | ID | mail:ID]
//!        site [--config FILE] staff add EMAIL | disable EMAIL | unlock EMAIL | list
//!        site [--config FILE] backup FILE | restore FILE               (the SQLite database)
//!        site [--config FILE] copy-store [--from sqlite://PATH] --to postgres://…
//! The operator's commands do their work in `site_server::ops`; this file only dispatches.
//! Environment: SITE_CONFIG, CATALOGUE_DIR, LISTEN, DATABASE_URL and the others in README.md.

use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::Arc;

use site_server::ops;
use site_server::serve::{ServeOptions, serve};
use site_server::store::{Outbox, Retried, RetryScope, Store};
use site_server::urls::redact;
use site_server::{AppState, Background, CatalogueSource, app, assets, config::Config, metrics_app};
use tokio::sync::watch;
use tracing_subscriber::EnvFilter;

struct Args {
    config: Option<PathBuf>,
    catalogue: Option<PathBuf>,
    command: Option<Command>,
    /// `staff …`: manage staff accounts instead of serving.
    staff: Option<Vec<String>>,
}

/// An operator's command instead of serving.
enum Command {
    /// `outbox retry`: list the failed notifications; `--all` or an id: send them again.
    OutboxRetry(Option<Retry>),
    /// `backup FILE`: a checked copy of the SQLite database, taken while the site runs.
    Backup(PathBuf),
    /// `restore FILE`: a backup put in place of the SQLite database (the site stopped).
    Restore(PathBuf),
    /// `copy-store --from sqlite://PATH --to postgres://…`.
    CopyStore { from: Option<String>, to: String },
}

/// What `outbox retry` sends again.
#[derive(Clone, Copy)]
enum Retry {
    /// Every failed notification of every outbox.
    All,
    /// One row: an id of the leads' outbox, or `mail:ID` of the submission e-mails'.
    One(Outbox, i64),
}

const USAGE: &str = "usage: site [--config FILE] [--catalogue DIR]\n       site --version\n       site [--config FILE] outbox retry [--all | ID | mail:ID]\n       site [--config FILE] backup FILE\n       site [--config FILE] restore FILE\n       site [--config FILE] copy-store [--from sqlite://PATH] --to postgres://…";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        config: std::env::var_os("SITE_CONFIG").map(PathBuf::from),
        catalogue: std::env::var_os("CATALOGUE_DIR").map(PathBuf::from),
        command: None,
        staff: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--config" => args.config = Some(it.next().ok_or("--config needs a file")?.into()),
            "--catalogue" => args.catalogue = Some(it.next().ok_or("--catalogue needs a folder")?.into()),
            "staff" => {
                args.staff = Some(it.by_ref().collect());
            }
            "-V" | "--version" => {
                print!("{}", site_server::ops::version::describe());
                std::process::exit(0);
            }
            "backup" | "restore" => {
                let file = it.next().ok_or_else(|| format!("{arg} needs a file\n{USAGE}"))?;
                args.command = Some(if arg == "backup" {
                    Command::Backup(file.into())
                } else {
                    Command::Restore(file.into())
                });
            }
            "copy-store" => {
                let (mut from, mut to) = (None, None);
                while let Some(flag) = it.next() {
                    match flag.as_str() {
                        "--from" => from = Some(it.next().ok_or("--from needs sqlite://PATH")?),
                        "--to" => to = Some(it.next().ok_or("--to needs postgres://…")?),
                        other => return Err(format!("copy-store: unknown argument {other:?}\n{USAGE}")),
                    }
                }
                let to = to.ok_or_else(|| format!("copy-store needs --to postgres://…\n{USAGE}"))?;
                args.command = Some(Command::CopyStore { from, to });
            }
            "-h" | "--help" => {
                println!("{USAGE}\n{}", site_server::staff::cli::USAGE);
                std::process::exit(0);
            }
            "outbox" => {
                if it.next().as_deref() != Some("retry") {
                    return Err(format!("outbox: the command is `outbox retry`\n{USAGE}"));
                }
                let scope = match it.next().as_deref() {
                    None => None,
                    Some("--all") => Some(Retry::All),
                    Some(id) => {
                        let (outbox, number) = match id.strip_prefix("mail:") {
                            Some(n) => (Outbox::Mail, n),
                            None => (Outbox::Leads, id),
                        };
                        let number = number.parse().map_err(|_| format!("outbox retry: {id:?} is not an outbox id"))?;
                        Some(Retry::One(outbox, number))
                    }
                };
                args.command = Some(Command::OutboxRetry(scope));
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    // Libraries stay at warn: an SMTP or HTTP client's own info lines could carry addresses.
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,lettre=warn,hyper=warn,reqwest=warn,tokio_postgres=warn,rustls=warn"));
    // LOG_FORMAT=json gives one JSON object a line, for log collectors.
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f == "json") {
        tracing_subscriber::fmt().json().with_env_filter(filter).with_target(false).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).with_target(false).init();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let args = parse_args()?;
    let config = Config::load(args.config.as_deref()).map_err(|e| e.to_string())?;
    let source = match &args.catalogue {
        Some(dir) => CatalogueSource::Dir(dir),
        None => CatalogueSource::Embedded,
    };
    let url = &config.server.database_url;
    let sqlite_file = || ops::sqlite_path(url).ok_or_else(|| sqlite_only(url));
    match &args.command {
        Some(Command::Backup(file)) => return ops::backup::run(&sqlite_file()?, file, &mut std::io::stdout()),
        Some(Command::Restore(file)) => return ops::restore::run(&sqlite_file()?, file, &mut std::io::stdout()),
        Some(Command::CopyStore { from, to }) => {
            let from = match from {
                Some(from) => ops::copy_store::source_path(from)?,
                None => sqlite_file()?,
            };
            return ops::copy_store::copy_store(&from, to, None, &mut std::io::stdout())
                .await
                .map(|_| ());
        }
        _ => {}
    }
    // Serving: one server per SQLite file (held until the process ends).
    let serving = args.staff.is_none() && args.command.is_none();
    let _lock = match ops::sqlite_path(url) {
        Some(db) if serving => Some(ops::lock::DatabaseLock::acquire(&db).map_err(|e| match e.pid() {
            Some(pid) => format!(
                "another site server (process {pid}) is running on {}: two servers must not share one SQLite file \
                 (use PostgreSQL to run several, docs/operations.md)",
                db.display()
            ),
            None => e.to_string(),
        })?),
        _ => None,
    };
    let backup_dir = if serving { config.backup.dir() } else { None };
    let store = Store::open_with(url, backup_dir)
        .await
        .map_err(|e| format!("database {}: {e}", redact(url)))?;
    if let Some(command) = &args.staff {
        let result = site_server::staff::cli::run(
            command,
            &store,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout(),
            site_server::store::now_ms(),
        )
        .await;
        store.close().await;
        return result;
    }
    let store = Arc::new(store);
    if let Some(Command::OutboxRetry(scope)) = args.command {
        let result = outbox_retry(&store, scope).await;
        store.close().await;
        return result;
    }
    tracing::info!(backend = store.backend(), "database ready");
    let state = AppState::new(config, source, assets::SSR_BUNDLE, store).map_err(|e| e.to_string())?;
    if !state.config.notify.email_enabled() && !state.config.notify.webhook_enabled() {
        tracing::warn!("no notification channel configured (notify.smtp_url, notify.webhook_url): leads are stored but nobody is told");
    }
    let background = Background::start(&state);
    let report = state.warm().await;
    tracing::info!(
        pages = report.pages,
        failed = report.failed,
        ms = report.elapsed.as_millis() as u64,
        engines = state.renderer.pool.engines(),
        "render cache warmed"
    );
    let listen = state.config.server.listen;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let data = data_location(&state.config.server.database_url);
    tracing::info!(%listen, "serving on http://{listen}, data in {data}");
    let options = ServeOptions::from_config(&state.config.server);
    let (stop, stopping) = watch::channel(false);
    let metrics = match state.config.server.metrics_addr() {
        Some(addr) => match tokio::net::TcpListener::bind(addr).await {
            Ok(listener) => {
                tracing::info!(%addr, "metrics on http://{addr}/metrics");
                Some(tokio::spawn(serve(
                    listener,
                    metrics_app(Arc::clone(&state)),
                    options,
                    stopped(stopping.clone()),
                )))
            }
            // The site matters more than its metrics: say so and go on.
            Err(e) => {
                tracing::error!(%addr, error = %e, "cannot listen for /metrics (server.metrics_listen); metrics not served");
                None
            }
        },
        None => None,
    };
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop.send(true);
    });
    serve(listener, app(state), options, stopped(stopping)).await;
    if let Some(metrics) = metrics {
        let _ = metrics.await;
    }
    // Requests in flight are done (or out of time); let the outbox worker finish and the store flush.
    background.shutdown().await;
    tracing::info!("stopped");
    Ok(())
}

/// The message for a SQLite-only command run against PostgreSQL.
fn sqlite_only(url: &str) -> String {
    format!(
        "this command works on the SQLite database, and DATABASE_URL is {}: back PostgreSQL up with pg_dump and restore it with pg_restore (docs/operations.md)",
        redact(url)
    )
}

/// Where the data lives, for the start message: the SQLite file's absolute path, or the
/// PostgreSQL URL without its credentials.
fn data_location(url: &str) -> String {
    match url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        Some(path) => {
            let path = std::path::Path::new(path);
            let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            format!("{} (SQLite)", shown.display())
        }
        None => format!("{} (PostgreSQL)", redact(url)),
    }
}

/// Resolves once `stopping` turns true (or its sender is gone).
async fn stopped(mut stopping: watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}

/// `site outbox retry`: without a scope, lists the failed notifications; with one, makes
/// them pending again (a running server delivers them within seconds).
async fn outbox_retry(store: &Store, scope: Option<Retry>) -> Result<(), String> {
    let now = site_server::store::now_ms();
    let done = match scope {
        None => return list_failed(store).await,
        Some(Retry::All) => {
            let mut done = Retried::default();
            for outbox in Outbox::ALL {
                let r = store.retry_failed(outbox, RetryScope::All, now).await.map_err(|e| e.to_string())?;
                done.sent += r.sent;
                done.suppressed += r.suppressed;
            }
            done
        }
        Some(Retry::One(outbox, id)) => store
            .retry_failed(outbox, RetryScope::One(id), now)
            .await
            .map_err(|e| e.to_string())?,
    };
    println!("{} notification(s) will be sent again", done.sent);
    if done.suppressed > 0 {
        println!(
            "{} notification(s) not sent: the number is on the do-not-call list (marked suppressed)",
            done.suppressed
        );
    }
    if done.sent + done.suppressed == 0 && matches!(scope, Some(Retry::One(..))) {
        return Err("no failed notification has that id".into());
    }
    Ok(())
}

/// The failed notifications of every outbox, oldest first (ids, never addresses).
async fn list_failed(store: &Store) -> Result<(), String> {
    let mut any = false;
    for outbox in Outbox::ALL {
        let failed = store.outbox_rows(outbox, "failed", 1000).await.map_err(|e| e.to_string())?;
        for row in &failed {
            if !any {
                println!(
                    "{:>10}  {:<8}  {:>8}  {:<20}  {:<36}  last error",
                    "id", "channel", "attempts", "created (UTC)", "lead or submission"
                );
                any = true;
            }
            let id = match outbox {
                Outbox::Leads => row.id.to_string(),
                Outbox::Mail => format!("mail:{}", row.id),
            };
            println!(
                "{id:>10}  {:<8}  {:>8}  {:<20}  {:<36}  {}",
                row.channel,
                row.attempts,
                site_server::time::human_utc(row.created_ms),
                row.record_id,
                row.last_error.as_deref().unwrap_or("")
            );
        }
    }
    if any {
        println!("send one again with `site outbox retry ID` (or mail:ID), all with `site outbox retry --all`");
    } else {
        println!("no failed notifications");
    }
    Ok(())
}

/// Resolves on SIGINT or SIGTERM: axum then stops accepting and finishes requests in flight.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}
