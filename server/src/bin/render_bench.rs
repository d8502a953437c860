//! `render_bench`: times QuickJS renders of each page type on one engine, outside the pool
//! and the cache, with the page table the server builds at start.
//!
//! Usage: render_bench [--iterations N] [--warmup N] [--props-out FILE] [--service SLUG]
//!
//! Prints one line per page type:
//!   `quickjs <page> n=<N> median_ms=<x> p90_ms=<y> min_ms=<z> bytes=<markup length>`
//! With `--props-out`, writes `{ "<page>": { "props": "<props JSON>", "markup": "<html>" } }`
//! so `server/benches/node-render.mjs` can render the same props in Node and compare the markup.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use site_server::assets::{self, Assets, Icons};
use site_server::catalogue::Catalogue;
use site_server::config::Config;
use site_server::pages::{PageTable, PreparedPage};
use site_server::render::Engine;
use site_server::render::quickjs::{QuickJsEngine, QuickJsLimits};

struct Args {
    iterations: usize,
    warmup: usize,
    props_out: Option<PathBuf>,
    service: String,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        iterations: 200,
        warmup: 10,
        props_out: None,
        service: "hvac".into(),
    };
    let mut it = std::env::args().skip(1);
    let number = |flag: &str, value: Option<String>| -> Result<usize, String> {
        let value = value.ok_or(format!("{flag} needs a number"))?;
        value.parse().map_err(|_| format!("{flag}: not a number: {value:?}"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--iterations" => args.iterations = number("--iterations", it.next())?.max(1),
            "--warmup" => args.warmup = number("--warmup", it.next())?,
            "--props-out" => args.props_out = Some(it.next().ok_or("--props-out needs a file")?.into()),
            "--service" => args.service = it.next().ok_or("--service needs a slug")?,
            "-h" | "--help" => {
                println!("usage: render_bench [--iterations N] [--warmup N] [--props-out FILE] [--service SLUG]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(args)
}

/// The value at quantile `q` (0..=1) of sorted samples, nearest-rank.
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
    let args = parse_args()?;
    let config_file = std::env::var_os("SITE_CONFIG").map(PathBuf::from);
    let config = Config::load(config_file.as_deref()).map_err(|e| e.to_string())?;

    // The same steps as AppState::new, without starting the pool.
    let icons = Icons::load()?;
    let exists = |name: &str| icons.contains(name);
    let catalogue = Catalogue::embedded(&exists).map_err(|e| format!("catalogue {e}"))?;
    let assets = Assets::load();
    let table = PageTable::build(
        &config,
        &catalogue,
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
        let mut samples = Vec::with_capacity(args.iterations);
        for _ in 0..args.iterations {
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
