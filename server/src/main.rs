//! `site`: starts the RingReady web server, or runs an operator's command. `cli` parses the
//! command line (`site --help` lists the commands and every environment variable); the
//! operator's commands do their work in `site_server::ops` and `staff::cli`; this file
//! dispatches, sets up the log, and runs the server.
//!
//! `site seed` (hidden from `--help`) goes to `Store::seed_leads`; serving takes the SQLite
//! server lock (`ops::lock`) first.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use site_server::catalogue::SLUGS;
use site_server::cli::{self, Cli, Command, ConfigCommand, LogFormat, OutboxCommand, OutboxId, Sources};
use site_server::config::{Overrides, ServerConfig};
use site_server::ops;
use site_server::serve::{ServeOptions, Workers, serve};
use site_server::store::{Outbox, Retried, RetryScope, SeedPlan, Store};
use site_server::systemd::{self, Notifier};
use site_server::urls::redact;
use site_server::{AppState, Background, CatalogueSource, app, assets, config::Config, metrics_app};
use tokio::sync::watch;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The log's levels unless RUST_LOG says otherwise.
const DEFAULT_LOG: &str = "info,lettre=warn,hyper=warn,reqwest=warn,tokio_postgres=warn,rustls=warn";

/// The exit status of an invalid configuration found by `site config check` (as clap's for
/// a usage error).
const INVALID: u8 = 2;

fn main() -> ExitCode {
    // Before any thread starts (the log's writer is the first).
    site_server::memory::configure();
    let (cli, overrides) = cli::parse();
    if cli.version {
        print!("{}", ops::version::describe());
        return ExitCode::SUCCESS;
    }
    // Libraries stay at warn: an SMTP or HTTP client's own info lines could carry addresses.
    // Targets (`info,site_server::app=debug`): a level, then a level per module path.
    let filter = cli
        .sources
        .log
        .as_deref()
        .and_then(|f| f.parse::<Targets>().ok())
        .unwrap_or_else(|| DEFAULT_LOG.parse().unwrap_or_default());
    // Lines go to standard output through a thread of their own, in order; when it falls
    // behind, a request waits rather than a line being dropped. `_log` flushes it on return.
    // Colours only on a terminal (never in a log file), and never with NO_COLOR set.
    let colours = std::io::IsTerminal::is_terminal(&std::io::stdout()) && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let (log_writer, _log) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("site-log")
        .finish(std::io::stdout());
    // The builder lets every level through: the filter decides.
    let all = tracing_subscriber::filter::LevelFilter::TRACE;
    match cli.sources.log_format {
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_max_level(all)
            .with_target(false)
            .with_writer(log_writer)
            .finish()
            .with(filter)
            .init(),
        LogFormat::Text => tracing_subscriber::fmt()
            .with_max_level(all)
            .with_target(false)
            .with_ansi(colours)
            .with_writer(log_writer)
            .finish()
            .with(filter)
            .init(),
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli, overrides)) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli, overrides: Overrides) -> Result<ExitCode, String> {
    let Cli { sources, command, .. } = cli;
    let load = || Config::load(sources.config.as_deref(), &overrides).map_err(|e| e.to_string());
    let out = &mut std::io::stdout();
    match command.unwrap_or(Command::Serve) {
        Command::Config(ConfigCommand::Check) => {
            let valid = ops::config_check::run(&sources, &overrides, out, &mut std::io::stderr()).map_err(|e| e.to_string())?;
            return Ok(if valid { ExitCode::SUCCESS } else { ExitCode::from(INVALID) });
        }
        Command::Serve => serve_site(load()?, &sources).await?,
        Command::Backup { file } => ops::backup::run(&sqlite_file(&load()?)?, &file, out)?,
        Command::Restore { file } => ops::restore::run(&sqlite_file(&load()?)?, &file, out)?,
        Command::CopyStore { from, to } => {
            let from = match from {
                Some(from) => ops::copy_store::source_path(&from)?,
                None => sqlite_file(&load()?)?,
            };
            ops::copy_store::copy_store(&from, &to, None, out).await?;
        }
        Command::Outbox(OutboxCommand::Retry { all, id }) => {
            let store = open(&load()?.server, None).await?;
            let result = outbox_retry(&store, all, id).await;
            store.close().await;
            result?;
        }
        Command::Seed {
            leads,
            newest_ms,
            spacing_ms,
            id_prefix,
            notifications,
        } => {
            let plan = SeedPlan {
                leads,
                newest_ms: newest_ms.unwrap_or_else(site_server::store::now_ms),
                spacing_ms,
                id_prefix,
                services: SLUGS.iter().map(|s| s.to_string()).collect(),
                notifications,
            };
            if let Some(problem) = plan.problem() {
                eprintln!("error: site seed: {problem}");
                return Ok(ExitCode::from(INVALID));
            }
            let store = open(&load()?.server, None).await?;
            let result = store.seed_leads(&plan).await;
            store.close().await;
            let seeded = result.map_err(|e| format!("site seed: {e}"))?;
            writeln!(out, "seeded {} leads, {} notifications", seeded.leads, seeded.notifications).map_err(|e| e.to_string())?;
        }
        Command::Staff(staff) => {
            let store = open(&load()?.server, None).await?;
            let now = site_server::store::now_ms();
            let result = site_server::staff::cli::run(&staff, &store, &mut std::io::stdin().lock(), out, now).await;
            store.close().await;
            result?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The SQLite file of the configured database, for the commands that work on SQLite only.
fn sqlite_file(config: &Config) -> Result<std::path::PathBuf, String> {
    let url = &config.server.database_url;
    ops::sqlite_path(url).ok_or_else(|| sqlite_only(url))
}

/// The configured store, with the folder for a backup before migrations when serving.
async fn open(server: &ServerConfig, backup_dir: Option<&std::path::Path>) -> Result<Store, String> {
    let url = &server.database_url;
    Store::open_pooled(url, backup_dir, server.database_pool_size)
        .await
        .map_err(|e| format!("database {}: {e}", redact(url)))
}

/// `site serve`: one server per SQLite file (the lock is held until the process ends).
async fn serve_site(config: Config, sources: &Sources) -> Result<(), String> {
    let url = &config.server.database_url;
    let _lock = match ops::sqlite_path(url) {
        Some(db) => Some(ops::lock::DatabaseLock::acquire(&db).map_err(|e| match e.pid() {
            Some(pid) => format!(
                "another site server (process {pid}) is running on {}: two servers must not share one SQLite file \
                 (use PostgreSQL to run several, docs/operations.md)",
                db.display()
            ),
            None => e.to_string(),
        })?),
        None => None,
    };
    let store = Arc::new(open(&config.server, config.backup.dir()).await?);
    tracing::info!(backend = store.backend(), "database ready");
    let source = match &sources.catalogue {
        Some(dir) => CatalogueSource::Dir(dir),
        None => CatalogueSource::Embedded,
    };
    // The store's campaigns (imported from the catalogue on the first start) on the pages.
    let state = AppState::new(config, source, assets::SSR_BUNDLE, store)
        .await
        .map_err(|e| e.to_string())?;
    if !state.config.notify.email_enabled() && !state.config.notify.webhook_enabled() {
        tracing::warn!("no notification channel configured (notify.smtp_url, notify.webhook_url): leads are stored but nobody is told");
    }
    // Before this server serves a page, every server can answer for the files it names.
    state
        .record_assets()
        .await
        .map_err(|e| format!("cannot record this release's assets in the database: {e}"))?;
    let background = Background::start(&state);
    let report = state.warm().await;
    site_server::memory::release_free_memory();
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
    let workers = Workers::per_core().map_err(|e| format!("cannot start the connection threads: {e}"))?;
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
                    Default::default(),
                    Arc::clone(&workers),
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
    // Ready: migrated, warm, both listeners bound. Under systemd (Type=notify) this is what
    // `systemctl start` and `restart` wait for.
    let notifier = notifier();
    if let Some(n) = &notifier {
        n.tell(&format!("READY=1\nSTATUS=serving on http://{listen}"));
    }
    let watchdog = notifier.as_ref().and_then(|n| watchdog(Arc::clone(n), Arc::clone(&state)));
    tokio::spawn(async move {
        shutdown_signal().await;
        if let Some(n) = &notifier {
            n.tell("STOPPING=1\nSTATUS=draining and stopping");
        }
        let _ = stop.send(true);
    });
    let draining = Arc::clone(&state.draining);
    serve(listener, app(state), options, stopped(stopping), draining, Arc::clone(&workers)).await;
    if let Some(metrics) = metrics {
        let _ = metrics.await;
    }
    if let Some(watchdog) = watchdog {
        watchdog.abort();
    }
    // Requests in flight are done (or out of time); let the outbox worker finish and the store flush.
    background.shutdown(options.shutdown_grace).await;
    workers.stop();
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

/// systemd's notification socket, when the server runs as a `Type=notify` service.
fn notifier() -> Option<Arc<Notifier>> {
    match Notifier::from_env() {
        Ok(n) => n.map(Arc::new),
        Err(e) => {
            tracing::warn!(error = %e, "NOTIFY_SOCKET is set but unusable: systemd is not told when the server is ready");
            None
        }
    }
}

/// When systemd asks for a watchdog (`WatchdogSec=` sets `WATCHDOG_USEC`), pings it every
/// half period while the parts that can hang answer: the store's writer takes a no-op off
/// its queue within the period (a writer stuck in a commit does not), and at least one
/// render engine runs (as /healthz checks; a render past its deadline is interrupted, so an
/// engine stops rather than hangs). A wedged server stops pinging and systemd restarts it;
/// one whose database is unreachable keeps pinging (its pages still serve).
fn watchdog(notifier: Arc<Notifier>, state: Arc<AppState>) -> Option<tokio::task::JoinHandle<()>> {
    let every = systemd::watchdog_interval()?;
    tracing::info!(every_ms = every.as_millis() as u64, "pinging the systemd watchdog");
    Some(tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let writer = tokio::time::timeout(every, state.store.ping()).await;
            let engines = state.renderer.pool.live_engines();
            match writer {
                Ok(Ok(())) if engines > 0 => notifier.tell("WATCHDOG=1"),
                Ok(Ok(())) => tracing::error!("no render engine running: not pinging the systemd watchdog"),
                Ok(Err(e)) => tracing::error!(error = %e, "the store's writer has stopped: not pinging the systemd watchdog"),
                Err(_) => tracing::error!(
                    waited_ms = every.as_millis() as u64,
                    "the store's writer did not answer: not pinging the systemd watchdog"
                ),
            }
        }
    }))
}

/// Resolves once `stopping` turns true (or its sender is gone).
async fn stopped(mut stopping: watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}

/// `site outbox retry`: without a scope, lists the failed notifications; with one, makes
/// them pending again (a running server delivers them within seconds).
async fn outbox_retry(store: &Store, all: bool, one: Option<OutboxId>) -> Result<(), String> {
    let now = site_server::store::now_ms();
    let done = match (all, one) {
        (false, None) => return list_failed(store).await,
        (true, _) => {
            let mut done = Retried::default();
            for outbox in Outbox::ALL {
                let r = store.retry_failed(outbox, RetryScope::All, now).await.map_err(|e| e.to_string())?;
                done.sent += r.sent;
                done.suppressed += r.suppressed;
            }
            done
        }
        (false, Some(OutboxId { outbox, id })) => store
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
    if done.sent + done.suppressed == 0 && one.is_some() {
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
