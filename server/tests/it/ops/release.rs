//! CHANGELOG.md against the code: its newest release is the version in Cargo.toml (the one
//! `site --version`, /metrics and the package say), and the newest schema version it states
//! is the highest migration, with the "runs beside" bound the migrations' markers give
//! (docs/decisions/024-rolling-upgrades.md). The package itself is checked by
//! `make test-release` (scripts/release/check_package.py).

use std::path::Path;

use site_server::store::migrations::{self, Migration};

fn changelog() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../CHANGELOG.md")).expect("CHANGELOG.md")
}

/// The sections, newest first: (heading's name, e.g. "Unreleased" or "0.2.0", its text).
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("## [") {
            let name = rest.split(']').next().unwrap_or_default().to_string();
            out.push((name, String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The number after `- **Label:**` in a section, when it states one.
fn stated(body: &str, label: &str) -> Option<u32> {
    let line = body.lines().find(|l| l.starts_with(&format!("- **{label}:**")))?;
    line.split(|c: char| !c.is_ascii_digit()).find(|w| !w.is_empty())?.parse().ok()
}

/// The highest NNNN_name.sql in server/migrations/<backend>.
fn highest_migration_file(backend: &str) -> u32 {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
    std::fs::read_dir(&dir)
        .expect("migrations dir")
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next()?.parse().ok())
        .max()
        .expect("a migration")
}

/// The oldest schema version whose binaries can run on a database at `list`'s newest
/// migration: every migration newer than what they know must be marked compatible with it.
fn oldest_that_runs_beside(list: &[Migration]) -> u32 {
    let newest = list.iter().map(|m| m.version).max().expect("migrations");
    (1..=newest)
        .find(|&known| list.iter().filter(|m| m.version > known).all(|m| m.compatible_back_to <= known))
        .expect("the newest itself")
}

#[test]
fn the_changelog_names_this_version_and_its_schema() {
    let text = changelog();
    let sections = sections(&text);
    let releases: Vec<&(String, String)> = sections.iter().filter(|(name, _)| name != "Unreleased").collect();
    let (newest, _) = releases.first().expect("a release in CHANGELOG.md");
    assert_eq!(
        newest,
        env!("CARGO_PKG_VERSION"),
        "CHANGELOG.md's newest release is not the version in Cargo.toml: add its section, or set the version"
    );
    assert!(
        text.contains(&format!("## [{newest}] - 20")),
        "the newest release's heading has its date: ## [{newest}] - YYYY-MM-DD"
    );
    for (name, body) in &releases {
        assert!(
            name.split('.').count() == 3 && name.split('.').all(|n| n.parse::<u32>().is_ok()),
            "{name}: semantic version"
        );
        assert!(stated(body, "Schema version").is_some(), "{name} states its schema version");
        assert!(body.contains("- **Runs beside:**"), "{name} says what runs beside it");
        assert!(body.contains("- **Upgrade:**"), "{name} says what an operator must do");
    }
    // Versions and schema versions only grow, newest first.
    for pair in releases.windows(2) {
        let (newer, older) = (&pair[0].0, &pair[1].0);
        let parse = |v: &str| v.split('.').map(|n| n.parse::<u32>().unwrap_or(0)).collect::<Vec<_>>();
        assert!(parse(newer) > parse(older), "{newer} is listed above {older}");
        assert!(stated(&pair[0].1, "Schema version") >= stated(&pair[1].1, "Schema version"));
    }
}

#[test]
fn the_newest_schema_version_in_the_changelog_is_the_highest_migration() {
    let text = changelog();
    // Unreleased states one once a change adds a migration; else the newest release's holds.
    let (name, body) = sections(&text)
        .into_iter()
        .find(|(_, body)| stated(body, "Schema version").is_some())
        .expect("a section stating its schema version");
    let schema = stated(&body, "Schema version").expect("stated");
    let sqlite = highest_migration_file("sqlite");
    assert_eq!(sqlite, highest_migration_file("postgres"), "both stores have the same migrations");
    assert_eq!(
        migrations::SQLITE.iter().map(|m| m.version).max(),
        Some(sqlite),
        "the binary knows every migration file"
    );
    assert_eq!(
        schema, sqlite,
        "CHANGELOG.md's [{name}] says schema version {schema}, server/migrations/ goes up to {sqlite}"
    );
    // "Runs beside: builds at schema version N or newer", N from the markers of both stores.
    let beside = oldest_that_runs_beside(migrations::SQLITE);
    assert_eq!(beside, oldest_that_runs_beside(migrations::POSTGRES), "both stores' markers agree");
    if let Some(line) = body.lines().find(|l| l.starts_with("- **Runs beside:**")) {
        assert!(
            line.contains(&format!("schema version {beside} or newer")),
            "[{name}]'s 'Runs beside' must say 'schema version {beside} or newer' (the migrations' markers): {line}"
        );
    } else if name == "Unreleased" {
        panic!("[Unreleased] states a schema version: say what runs beside it too");
    }
}
