//! `site config check`: loads the configuration from the same layers `site serve` reads
//! (defaults, file, environment, flags), checks it the same way, then builds what the server
//! builds from it before anything starts (catalogue, pages, notification senders:
//! `AppState::check`). It prints every value with where it came from, and the problems
//! found. It listens nowhere and opens no database: a PostgreSQL login or a SQLite file
//! that cannot be written is found by starting the server (or `site staff list`), not here.

use std::io::Write;
use std::path::Path;

use crate::cli::Sources;
use crate::config::{Config, Overrides, shown_settings};
use crate::state::{AppState, CatalogueSource};

/// Prints the report to `out` and the problems to `err`; true when the configuration is
/// valid.
pub fn run(sources: &Sources, overrides: &Overrides, out: &mut impl Write, err: &mut impl Write) -> std::io::Result<bool> {
    let file = sources.config.as_deref();
    writeln!(
        out,
        "config file  {}",
        source(file, &sources.config_from, "none (the built-in defaults)")
    )?;
    let catalogue = sources.catalogue.as_deref();
    writeln!(
        out,
        "catalogue    {}",
        source(catalogue, &sources.catalogue_from, "built into the binary")
    )?;
    writeln!(out, "database     not opened (the check listens nowhere and opens no database)")?;
    let layers = Config::layers(file, overrides);
    let unreadable = match shown_settings(&layers) {
        Ok(rows) => {
            let width = rows.iter().map(|r| r.key.len()).max().unwrap_or(0);
            let value_width = rows.iter().map(|r| r.value.chars().count()).max().unwrap_or(0).min(48);
            writeln!(out)?;
            writeln!(out, "{:width$}  {:value_width$}  from", "setting", "value")?;
            for r in &rows {
                writeln!(out, "{:width$}  {:value_width$}  {}", r.key, r.value, r.from)?;
            }
            None
        }
        Err(e) => Some(e),
    };
    // Checked whatever the table showed: its error names the file that cannot be read.
    let mut problems: Vec<String> = match Config::check(&layers) {
        Ok(config) => {
            let source = match catalogue {
                Some(dir) => CatalogueSource::Dir(dir),
                None => CatalogueSource::Embedded,
            };
            AppState::check(&config, source).err().map(|e| e.to_string()).into_iter().collect()
        }
        Err(found) => found.iter().map(ToString::to_string).collect(),
    };
    if problems.is_empty()
        && let Some(e) = unreadable
    {
        problems.push(e.to_string());
    }
    writeln!(out)?;
    if problems.is_empty() {
        writeln!(out, "the configuration is valid")?;
        return Ok(true);
    }
    writeln!(out, "the configuration is not valid: {} problem(s)", problems.len())?;
    for p in &problems {
        writeln!(err, "error: {p}")?;
    }
    Ok(false)
}

/// "PATH (environment SITE_CONFIG)", "PATH (flag --config)", or `none`.
fn source(path: Option<&Path>, from: &Option<String>, none: &str) -> String {
    match (path, from) {
        (Some(path), Some(from)) => format!("{} ({from})", path.display()),
        (Some(path), None) => path.display().to_string(),
        (None, _) => none.to_string(),
    }
}
