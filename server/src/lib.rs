//! The RingReady web server: React pages rendered in QuickJS, served from a precompressed
//! cache, behind strict security headers. See README.md and ../shared/design.md.

pub mod api;
pub mod assets;
pub mod catalogue;
pub mod config;
pub mod encoding;
pub mod leads;
pub mod metrics;
pub mod notify;
pub mod pages;
pub mod phone;
pub mod render;
pub mod routes;
pub mod security;
pub mod store;
pub mod time;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use thiserror::Error;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use api::rate_limit::RateLimiter;
use assets::{Assets, Icons};
use catalogue::Catalogue;
use config::Config;
use leads::consent::ConsentWordings;
use metrics::Metrics;
use notify::Notifier;
use pages::PageTable;
use pages::errors::ErrorPages;
use pages::renderer::{PageRenderer, WarmReport};
use render::quickjs::{QuickJsEngine, QuickJsLimits};
use render::{PoolOptions, RenderPool};
use security::SecurityHeaders;
use store::Store;

/// Everything a request handler may need, built once at start.
pub struct AppState {
    pub config: Config,
    pub catalogue: Arc<Catalogue>,
    pub consent: ConsentWordings,
    pub store: Arc<Store>,
    pub notifier: Arc<Notifier>,
    pub metrics: Arc<Metrics>,
    pub rate_limiter: RateLimiter,
    pub assets: Assets,
    pub pages: PageTable,
    pub renderer: Arc<PageRenderer>,
    pub error_pages: Arc<ErrorPages>,
    pub security: Arc<SecurityHeaders>,
}

#[derive(Debug, Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error("catalogue {0}")]
    Catalogue(#[from] catalogue::CatalogueError),
    #[error("{0}")]
    Icons(String),
    #[error("render engine: {0}")]
    Render(#[from] render::RenderError),
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// Where the catalogue comes from.
pub enum CatalogueSource<'a> {
    Embedded,
    Dir(&'a std::path::Path),
}

impl AppState {
    /// Loads catalogue and assets, builds the page table and starts the render pool with
    /// `ssr_bundle`. `store` is the opened database.
    pub fn new(config: Config, source: CatalogueSource<'_>, ssr_bundle: &str, store: Arc<Store>) -> Result<Arc<Self>, StartError> {
        // TLS for webhooks and SMTP uses ring; a second install (tests) is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let icons = Icons::load().map_err(StartError::Icons)?;
        let exists = |name: &str| icons.contains(name);
        let catalogue = match source {
            CatalogueSource::Embedded => Catalogue::embedded(&exists)?,
            CatalogueSource::Dir(dir) => Catalogue::from_dir(dir, &exists)?,
        };
        let catalogue = Arc::new(catalogue);
        let consent = ConsentWordings::load(&config.site.brand).map_err(StartError::Setup)?;
        let metrics = Arc::new(Metrics::default());
        let notifier = Arc::new(
            Notifier::new(&config.notify, Arc::clone(&store), Arc::clone(&catalogue), Arc::clone(&metrics)).map_err(StartError::Setup)?,
        );
        let rate_limiter = RateLimiter::new(config.api.rate_limit_per_minute);
        let assets = Assets::load();
        let pages = PageTable::build(&config, &catalogue, &icons, &consent, &assets.shell_version())
            .map_err(|e| StartError::Setup(format!("page props: {e}")))?;
        let bundle = ssr_bundle.to_string();
        let limits = QuickJsLimits {
            memory_bytes: config.render.memory_limit_mb << 20,
            stack_bytes: 1 << 20,
        };
        let pool = RenderPool::start(
            move || QuickJsEngine::new(&bundle, limits),
            PoolOptions {
                engines: config.render_pool_size(),
                queue: config.render.queue_size,
                timeout: Duration::from_millis(config.render.timeout_ms),
                thread_stack_bytes: 4 << 20,
            },
        )?;
        let renderer = Arc::new(PageRenderer {
            pool,
            cache: Default::default(),
            css: assets.css,
            bootstrap: assets.bootstrap,
            brand: config.site.brand.clone(),
        });
        let error_pages = Arc::new(ErrorPages::new(&config, assets.css)?);
        let security = Arc::new(SecurityHeaders::new(
            &assets.css_csp_hash,
            &assets.bootstrap_csp_hash,
            &config.tracking,
        ));
        Ok(Arc::new(Self {
            config,
            catalogue,
            consent,
            store,
            notifier,
            metrics,
            rate_limiter,
            assets,
            pages,
            renderer,
            error_pages,
            security,
        }))
    }

    /// Renders every canonical page and the not-found page into the cache.
    pub async fn warm(&self) -> WarmReport {
        let mut all: Vec<_> = self.pages.routes.values().cloned().collect();
        all.push(Arc::clone(&self.pages.not_found));
        self.renderer.warm(all).await
    }
}

/// The tasks that run beside the HTTP server: the outbox worker and the retention job.
pub struct Background {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    store: Arc<Store>,
}

impl Background {
    pub fn start(state: &Arc<AppState>) -> Self {
        let (stop, stopped) = watch::channel(false);
        let notifier = Arc::clone(&state.notifier).run(stopped.clone());
        let retention = retention_job(Arc::clone(&state.store), state.config.leads.retention_days, stopped);
        Self {
            stop,
            tasks: vec![tokio::spawn(notifier), tokio::spawn(retention)],
            store: Arc::clone(&state.store),
        }
    }

    /// Lets the worker finish the delivery in progress, then flushes and closes the store.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
        self.store.close().await;
    }
}

/// Deletes leads and certificate records older than the retention period: at start, then daily.
async fn retention_job(store: Arc<Store>, days: u32, mut stop: watch::Receiver<bool>) {
    let period = Duration::from_secs(24 * 60 * 60);
    loop {
        let cutoff = store::now_ms() - i64::from(days) * 24 * 60 * 60 * 1000;
        match store.purge_before(cutoff).await {
            Ok((leads, certs)) => tracing::info!(leads, certificates = certs, days, "retention: old records deleted"),
            Err(e) => tracing::error!(error = %e, "retention job failed"),
        }
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            _ = stop.changed() => return,
        }
    }
}

/// The whole HTTP application.
pub fn app(state: Arc<AppState>) -> Router {
    let security = Arc::clone(&state.security);
    routes::router(state).layer(axum::middleware::map_response_with_state(security, security::add_headers))
}
