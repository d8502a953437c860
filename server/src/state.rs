//! The shared state every handler reads (`AppState`), and its construction at start:
//! catalogue, consent wording, store, notifier, page table, render pool, error pages and
//! security headers.
//!
//! `AppState::check` is what `site config check` builds of it: everything but the engines,
//! the listener and the database. `AppState::record_assets` writes this release's hashed
//! files to the database at start, or only marks the release started when the database
//! already knows it (docs/decisions/024).

use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::assets::{Assets, Icons};
use crate::catalogue::{self, CampaignList, Catalogue};
use crate::config::{self, Config};
use crate::encoding::{Coding, Encoded};
use crate::leads::consent::ConsentWordings;
use crate::live::Live;
use crate::metrics::Metrics;
use crate::notify::Notifier;
use crate::pages::errors::ErrorPages;
use crate::pages::renderer::{PageRenderer, WarmReport};
use crate::pages::{PageTable, PreparedPage};
use crate::render::cache::CacheKey;
use crate::render::quickjs::{QuickJsEngine, QuickJsLimits};
use crate::render::{self, PoolOptions, RenderPool};
use crate::security::SecurityHeaders;
use crate::security::rate_limit::RateLimiter;
use crate::store::{self, AssetRelease, RecordedAsset, Store};

/// Everything a request handler may need, built once at start.
pub struct AppState {
    pub config: Config,
    pub catalogue: Arc<Catalogue>,
    pub consent: ConsentWordings,
    pub store: Arc<Store>,
    pub notifier: Arc<Notifier>,
    pub metrics: Arc<Metrics>,
    pub rate_limiter: RateLimiter,
    /// The staff console's requests without a session, per client (`admin.sign_in_rate_limit_per_minute`).
    pub sign_in_limiter: RateLimiter,
    /// Signed-in staff's form posts, per session (`admin.staff_rate_limit_per_minute`),
    /// instead of `rate_limiter`.
    pub staff_limiter: RateLimiter<String>,
    pub assets: Assets,
    /// Other releases' files this server answered for, read from the database once each.
    pub fetched_assets: crate::assets::Fetched,
    /// The pages, rebuilt whole when a campaign changes (`refresh_campaigns`).
    pub pages: Live<PageTable>,
    /// What the page table is rebuilt from besides the configuration and the catalogues.
    page_inputs: PageInputs,
    /// One rebuild at a time.
    campaigns_refresh: tokio::sync::Mutex<()>,
    pub renderer: Arc<PageRenderer>,
    pub error_pages: Arc<ErrorPages>,
    pub security: Arc<SecurityHeaders>,
    /// The staff console's clock and failed-login throttle.
    pub staff: crate::staff::Access,
    /// The pages without their scripts, for `make bench` (`render.noscript_variants`).
    pub noscript: crate::noscript::Variants,
    /// Set on SIGTERM while the server drains (`serve.rs`): /healthz answers 503.
    pub draining: Arc<std::sync::atomic::AtomicBool>,
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
    #[error("cannot read the campaigns from the database: {0}")]
    Campaigns(store::StoreError),
}

/// What the server builds from the configuration and the catalogue before anything runs.
struct Content {
    catalogue: Catalogue,
    consent: ConsentWordings,
    assets: Assets,
    inputs: PageInputs,
}

/// The page table's inputs kept to build it again: the icon set and the shell's version.
struct PageInputs {
    icons: Icons,
    shell: String,
}

impl Content {
    fn load(config: &Config, source: CatalogueSource<'_>) -> Result<Self, StartError> {
        // TLS for webhooks and SMTP uses ring; a second install (tests) is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let icons = Icons::load().map_err(StartError::Icons)?;
        let exists = |name: &str| icons.contains(name);
        let catalogue = match source {
            CatalogueSource::Embedded => Catalogue::embedded(&exists)?,
            CatalogueSource::Dir(dir) => Catalogue::from_dir(dir, &exists)?,
        };
        let consent = ConsentWordings::load(&config.site.brand).map_err(StartError::Setup)?;
        let assets = Assets::load();
        let shell = assets.shell_version();
        Ok(Self {
            catalogue,
            consent,
            assets,
            inputs: PageInputs { icons, shell },
        })
    }
}

impl PageInputs {
    /// The page table showing `campaigns`.
    fn pages(
        &self,
        config: &Config,
        catalogue: &Catalogue,
        consent: &ConsentWordings,
        campaigns: CampaignList,
    ) -> Result<PageTable, StartError> {
        PageTable::build(config, catalogue, Arc::new(campaigns), &self.icons, consent, &self.shell)
            .map_err(|e| StartError::Setup(format!("page props: {e}")))
    }
}

/// Where the catalogue comes from.
pub enum CatalogueSource<'a> {
    Embedded,
    Dir(&'a std::path::Path),
}

impl AppState {
    /// Loads catalogue and assets, imports the catalogue's campaigns into `store` (the opened
    /// database) when it holds none, builds the page table once with the store's public
    /// campaigns, and starts the render pool with `ssr_bundle`. Nothing is rendered: before
    /// it serves, `site` warms the cache ([`AppState::warm`]); a server left cold renders each
    /// page on its first request.
    pub async fn new(config: Config, source: CatalogueSource<'_>, ssr_bundle: &str, store: Arc<Store>) -> Result<Arc<Self>, StartError> {
        let content = Content::load(&config, source)?;
        let seed = crate::campaigns::seed(&content.catalogue);
        if store
            .import_campaigns(&seed, store::now_ms())
            .await
            .map_err(StartError::Campaigns)?
        {
            tracing::info!(campaigns = seed.len(), "imported the catalogue's campaigns into the store");
        }
        let campaigns = store.campaigns().await.map_err(StartError::Campaigns)?;
        let pages = content
            .inputs
            .pages(&config, &content.catalogue, &content.consent, crate::campaigns::public(&campaigns))?;
        let Content {
            catalogue,
            consent,
            assets,
            inputs,
        } = content;
        let catalogue = Arc::new(catalogue);
        let metrics = Arc::new(Metrics::default());
        let notifier = Arc::new(
            Notifier::new(&config.notify, Arc::clone(&store), Arc::clone(&catalogue), Arc::clone(&metrics)).map_err(StartError::Setup)?,
        );
        // On PostgreSQL, counted in the database for every server on it (docs/decisions/022).
        let request_timeout = Duration::from_millis(config.server.request_timeout_ms);
        let rate_limiter = RateLimiter::new(config.api.rate_limit_per_minute).shared(&store, "api", &metrics, request_timeout);
        let sign_in_limiter =
            RateLimiter::new(config.admin.sign_in_rate_limit_per_minute).shared(&store, "console-signed-out", &metrics, request_timeout);
        let staff_limiter =
            RateLimiter::keyed(config.admin.staff_rate_limit_per_minute).shared(&store, "console-session", &metrics, request_timeout);
        let staff = crate::staff::Access {
            clock: Default::default(),
            throttle: crate::staff::LoginThrottle::on(&store),
        };
        let bundle = ssr_bundle.to_string();
        let limits = QuickJsLimits {
            memory_bytes: config.render.memory_limit_mb << 20,
            stack_bytes: 1 << 20,
        };
        let pool = RenderPool::start(
            move || QuickJsEngine::new(&bundle, limits),
            PoolOptions {
                engines: config.render_pool_size(),
                staff_engines: config.render.staff_engines,
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
            sign_in: Default::default(),
        });
        let error_pages = Arc::new(ErrorPages::new(&config, assets.css)?);
        let security = Arc::new(SecurityHeaders::new(
            &assets.css_csp_hash,
            &assets.bootstrap_csp_hash,
            &config.tracking,
            &config.site.public_url,
        ));
        Ok(Arc::new(Self {
            config,
            catalogue,
            consent,
            store,
            notifier,
            metrics,
            rate_limiter,
            sign_in_limiter,
            staff_limiter,
            assets,
            fetched_assets: Default::default(),
            pages: Live::new(pages),
            page_inputs: inputs,
            campaigns_refresh: Default::default(),
            renderer,
            error_pages,
            security,
            staff,
            noscript: Default::default(),
            draining: Default::default(),
        }))
    }

    /// What `new` checks before it starts anything, for `site config check`: the catalogue,
    /// the consent wording, the page table, the error pages and the notification channels'
    /// senders, built from `config` and dropped. No engine, listener or database.
    pub fn check(config: &Config, source: CatalogueSource<'_>) -> Result<(), StartError> {
        let content = Content::load(config, source)?;
        content
            .inputs
            .pages(config, &content.catalogue, &content.consent, CampaignList::seed(&content.catalogue))?;
        Notifier::senders(&config.notify).map_err(StartError::Setup)?;
        ErrorPages::new(config, content.assets.css)?;
        Ok(())
    }

    /// Records this release's content-hashed files (the island bundle, the icon sprite, the
    /// campaigns' data) in the database, so that every server, whatever its release, can
    /// answer for them while a rolling upgrade runs; the files of all but the two releases
    /// started last are deleted (docs/operations.md, "Running several servers"). A release
    /// the database knows already (a restart) is only marked started: its files are neither
    /// copied nor sent again.
    pub async fn record_assets(&self) -> Result<(), store::StoreError> {
        // (path, content type, bodies), borrowed until the database asks for them.
        let mut files: Vec<(&str, &str, &Encoded)> = self
            .assets
            .files
            .iter()
            .filter(|(path, asset)| asset.immutable && path.starts_with("/assets/"))
            .map(|(path, asset)| (path.as_ref(), asset.content_type.to_str().unwrap_or_default(), &asset.body))
            .collect();
        let pages = self.pages.get();
        let (sprite_path, sprite) = &pages.icon_sprite;
        files.push((sprite_path, "image/svg+xml", sprite));
        let (campaigns_path, campaigns) = &pages.campaigns_json;
        files.push((campaigns_path, "application/json", campaigns));
        files.sort_by(|a, b| a.0.cmp(b.0));
        let mut paths = Sha256::new();
        for (path, _, _) in &files {
            paths.update(path.as_bytes());
            paths.update(b"\n");
        }
        let release = crate::hex::hex(&paths.finalize());
        let version = crate::release::version();
        if self.store.restart_release(&release, version, store::KEEP_RELEASES).await? {
            return Ok(());
        }
        let release = AssetRelease {
            release,
            version: version.to_string(),
            files: files
                .into_iter()
                .map(|(path, content_type, body)| recorded(path, content_type, body))
                .collect(),
        };
        self.store.record_assets(&release, store::KEEP_RELEASES).await
    }

    /// Renders every canonical page and the not-found page into the cache, and the staff
    /// sign-in page (so that no visit to it ever waits for a render).
    pub async fn warm(&self) -> WarmReport {
        let mut report = self.renderer.warm(warmed(&self.pages.get())).await;
        if let Err(e) = self.renderer.sign_in_page().await {
            tracing::error!(error = %e, "warming the sign-in page failed");
            report.failed += 1;
        }
        report
    }
}

impl AppState {
    /// Makes the pages show the store's campaigns: when the public ones differ from those the
    /// pages show, builds the page table again, renders its pages that are not cached yet,
    /// puts it in place of the old one in one step (a visitor gets the old pages or the new,
    /// never a mix), and drops the documents only the old one named from the render cache.
    /// True when it changed the pages. The table is built off the async threads: it compresses
    /// the pages' changed bodies, and a connection worker runs many visitors' connections.
    pub async fn refresh_campaigns(self: &Arc<Self>) -> Result<bool, StartError> {
        let _one = self.campaigns_refresh.lock().await;
        let list = crate::campaigns::public(&self.store.campaigns().await?);
        let old = self.pages.get();
        if *old.campaigns == list {
            return Ok(false);
        }
        let me = Arc::clone(self);
        let table = tokio::task::spawn_blocking(move || me.page_inputs.pages(&me.config, &me.catalogue, &me.consent, list))
            .await
            .map_err(|e| StartError::Setup(format!("building the pages: {e}")))??;
        let cold = warmed(&table)
            .into_iter()
            .filter(|p| !self.renderer.cache.contains(&p.key))
            .collect();
        let report = self.renderer.warm(cold).await;
        if report.failed > 0 {
            tracing::error!(
                failed = report.failed,
                "rendering the pages of the changed campaigns failed; they render on request"
            );
        }
        let kept = keys(&table);
        self.pages.set(Arc::new(table));
        let gone: Vec<CacheKey> = keys(&old).into_iter().filter(|k| !kept.contains(k)).collect();
        self.renderer.cache.remove(&gone);
        tracing::info!(pages = report.pages, dropped = gone.len(), "the pages show the changed campaigns");
        Ok(true)
    }
}

/// The pages rendered ahead: every canonical page, the not-found page and each unlisted
/// page's default (its other variants render on their first request).
fn warmed(pages: &PageTable) -> Vec<Arc<PreparedPage>> {
    let mut all: Vec<_> = pages.routes.values().cloned().collect();
    all.push(Arc::clone(&pages.not_found));
    all.extend(pages.unlisted.values().map(|u| Arc::clone(&u.otherwise)));
    all
}

/// The cache keys of every page of `pages`, the unlisted pages' variants too.
fn keys(pages: &PageTable) -> std::collections::HashSet<CacheKey> {
    let mut out: std::collections::HashSet<CacheKey> = warmed(pages).iter().map(|p| p.key).collect();
    for unlisted in pages.unlisted.values() {
        out.extend(unlisted.by_value.values().map(|p| p.key));
    }
    out
}

/// A file as the database records it.
fn recorded(path: &str, content_type: &str, body: &Encoded) -> RecordedAsset {
    RecordedAsset {
        path: path.to_string(),
        content_type: content_type.to_string(),
        body: body.body(Coding::Identity).to_vec(),
        gzip: body.body(Coding::Gzip).to_vec(),
    }
}
