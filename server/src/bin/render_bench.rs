//! `render_bench`: times QuickJS renders of each page type on one engine, outside the pool
//! and the cache, with the page table the server builds at start.
//!
//! Usage: render_bench [--iterations N] [--warmup N] [--props-out FILE] [--service SLUG]
//! (`render_bench --help`; the configuration as for `site`: SITE_CONFIG and the settings.)
//!
//! Prints one line per page type:
//!   `quickjs <page> n=<N> median_ms=<x> p90_ms=<y> min_ms=<z> bytes=<markup length>`
//! With `--props-out`, writes `{ "<page>": { "props": "<props JSON>", "markup": "<html>" } }`
//! so `bench/node-render.mjs` can render the same props in Node and compare the markup.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{CommandFactory, FromArgMatches, Parser};
use serde_json::{Map, Value, json};
use site_server::assets::{self, Assets, Icons};
use site_server::catalogue::Catalogue;
use site_server::config::{Config, Overrides, Settings};
use site_server::pages::{PageTable, PreparedPage};
use site_server::render::Engine;
use site_server::render::quickjs::{QuickJsEngine, QuickJsLimits};

/// Times QuickJS renders of each page type on one engine, outside the pool and the cache.
#[derive(Parser)]
#[command(name = "render_bench")]
struct Args {
    /// Timed renders per page type (at least 1).
    #[arg(long, value_name = "N", default_value_t = 200)]
    iterations: usize,
    /// Untimed renders first.
    #[arg(long, value_name = "N", default_value_t = 10)]
    warmup: usize,
    /// Write each page's props and markup to FILE, for node-render.mjs.
    #[arg(long, value_name = "FILE")]
    props_out: Option<PathBuf>,
    /// The service page to time.
    #[arg(long, value_name = "SLUG", default_value = "hvac")]
    service: String,
    /// A configuration file, as for `site`.
    #[arg(long, env = "SITE_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    settings: Settings,
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("render_bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let matches = Args::command().get_matches();
    let args = Args::from_arg_matches(&matches).map_err(|e| e.to_string())?;
    let config = Config::load(args.config.as_deref(), &Overrides::from_matches(&matches)).map_err(|e| e.to_string())?;
    let iterations = args.iterations.max(1);

    // The same steps as AppState::new, without starting the pool.
    let icons = Icons::load()?;
    let exists = |name: &str| icons.contains(name);
    let catalogue = Catalogue::embedded(&exists).map_err(|e| format!("catalogue {e}"))?;
    let assets = Assets::load();
    let table = PageTable::build(
        &config,
        &catalogue,
        Arc::new(site_server::catalogue::CampaignList::seed(&catalogue)),
        &icons,
        &site_server::leads::consent::ConsentWordings::load(&config.site.brand).map_err(|e| e.to_string())?,
        &assets.shell_version(),
    )
    .map_err(|e| format!("page props: {e}"))?;

    let pick = |path: &str| -> Result<Arc<PreparedPage>, String> {
        table.routes.get(path).cloned().ok_or(format!("the page table has no route {path}"))
    };
    let pages = [
        ("home", pick("/")?),
        ("campaigns", pick("/campaigns")?),
        ("service", pick(&format!("/{}", args.service))?),
        ("not-found", Arc::clone(&table.not_found)),
    ];

    let limits = QuickJsLimits {
        memory_bytes: config.render.memory_limit_mb << 20,
        stack_bytes: 1 << 20,
    };
    let timeout = Duration::from_millis(config.render.timeout_ms);
    // The server's engine threads get a 4 MiB stack; the main thread's is at least that.
    let started = Instant::now();
    let mut engine = QuickJsEngine::new(assets::SSR_BUNDLE, limits).map_err(|e| e.to_string())?;
    println!("quickjs engine-start ms={:.3}", ms(started.elapsed()));

    let mut written = Map::new();
    for (name, page) in &pages {
        if page.page != *name {
            return Err(format!("expected a {name} page, the table gave {}", page.page));
        }
        let mut markup = String::new();
        for _ in 0..args.warmup {
            markup = engine
                .render(page.page, &page.props_json, timeout)
                .map_err(|e| format!("{name}: {e}"))?;
        }
        let mut samples = Vec::with_capacity(iterations);
        for _ in 0..iterations {
            let t = Instant::now();
            markup = engine
                .render(page.page, &page.props_json, timeout)
                .map_err(|e| format!("{name}: {e}"))?;
            samples.push(t.elapsed());
        }
        samples.sort_unstable();
        println!(
            "quickjs {name} n={} median_ms={:.3} p90_ms={:.3} min_ms={:.3} bytes={}",
            samples.len(),
            ms(quantile(&samples, 0.5)),
            ms(quantile(&samples, 0.9)),
            ms(samples[0]),
            markup.len(),
        );
        written.insert((*name).to_string(), json!({ "props": page.props_json, "markup": markup }));
    }

    if let Some(path) = &args.props_out {
        let text = serde_json::to_string(&Value::Object(written)).map_err(|e| format!("props JSON: {e}"))?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
