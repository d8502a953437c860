//! `site`: starts the RingReady web server.
//!
//! Usage: site [--config FILE] [--catalogue DIR]
//! Environment: SITE_CONFIG, CATALOGUE_DIR, LISTEN, DATABASE_URL and the others in README.md.

use std::path::PathBuf;
use std::process::ExitCode;

use std::net::SocketAddr;
use std::sync::Arc;

use site_server::store::Store;
use site_server::{AppState, Background, CatalogueSource, app, assets, config::Config};
use tracing_subscriber::EnvFilter;

struct Args {
    config: Option<PathBuf>,
    catalogue: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        config: std::env::var_os("SITE_CONFIG").map(PathBuf::from),
        catalogue: std::env::var_os("CATALOGUE_DIR").map(PathBuf::from),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--config" => args.config = Some(it.next().ok_or("--config needs a file")?.into()),
            "--catalogue" => args.catalogue = Some(it.next().ok_or("--catalogue needs a folder")?.into()),
            "-h" | "--help" => {
                println!("usage: site [--config FILE] [--catalogue DIR]");
                std::process::exit(0);
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
    let store = Store::open(&config.server.database_url)
        .await
        .map_err(|e| format!("database {}: {e}", redact_url(&config.server.database_url)))?;
    let store = Arc::new(store);
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
    tracing::info!(%listen, "serving on http://{listen}");
    let served = axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await;
    // Requests in flight are done; let the outbox worker finish and the store flush.
    background.shutdown().await;
    served.map_err(|e| format!("server: {e}"))?;
    tracing::info!("stopped");
    Ok(())
}

/// The database URL without its password, for messages.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_string(),
    }
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
