//! The repository's documents cannot drift from the code: the module map in
//! docs/architecture.md ("Module map") matches the crate's `crate::` imports and keeps each
//! row to a line, no two source files import each other, every comment or document cites only files and headings the repository
//! has, a "`name` in `path`" pointer names a file that holds the name, and the README stays
//! short enough to read in five minutes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` (recursively), skipping build outputs and installed packages.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(
                name.as_str(),
                "node_modules" | "target" | "dist" | ".tools" | ".git" | "test-results" | "playwright-report"
            ) {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The module map

/// One row of the map: the modules it names and what they may import (None: anything).
struct Row {
    modules: Vec<String>,
    may_import: Option<BTreeSet<String>>,
}

/// The backticked names of a table cell, each reduced to its module: `ops/` and
/// `version.rs` to `ops` and `version`, `leads::consent` to `leads`.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|name| {
            let first = name.split("::").next().unwrap_or(name);
            first.trim_end_matches('/').trim_end_matches(".rs").to_string()
        })
        .collect()
}

fn module_map(modules: &BTreeSet<String>) -> Vec<Row> {
    let doc = read(&repo().join("docs/architecture.md"));
    let section = doc
        .split("## Module map")
        .nth(1)
        .expect("docs/architecture.md has a \"Module map\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut rows: Vec<Row> = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "a module map row has three cells: {line}");
        let named: Vec<String> = backticked(cells[0])
            .into_iter()
            .filter(|m| modules.contains(m) || m == "main")
            .collect();
        assert!(!named.is_empty(), "a module map row names no module of the crate: {line}");
        let rule = cells[2].trim();
        let may_import = if rule.starts_with("everything") {
            None
        } else if rule.starts_with("all below") {
            Some(BTreeSet::new()) // filled in below, once every row is read
        } else {
            Some(backticked(rule).into_iter().filter(|m| modules.contains(m)).collect())
        };
        rows.push(Row {
            modules: named,
            may_import,
        });
    }
    // "all below": every module of the rows that follow.
    for i in 0..rows.len() {
        if rows[i].may_import.as_ref().is_some_and(BTreeSet::is_empty) && section_says_all_below(section, &rows[i].modules[0]) {
            let below: BTreeSet<String> = rows[i + 1..].iter().flat_map(|r| r.modules.clone()).collect();
            rows[i].may_import = Some(below);
        }
    }
    rows
}

fn section_says_all_below(section: &str, module: &str) -> bool {
    section
        .lines()
        .find(|l| l.starts_with(&format!("| `{module}")))
        .is_some_and(|l| l.trim_end_matches('|').trim_end().ends_with("all below"))
}

/// The crate's top-level modules, from lib.rs.
fn crate_modules() -> BTreeSet<String> {
    read(&repo().join("server/src/lib.rs"))
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect()
}

/// The source files of a top-level module: `x.rs`, or everything under `x/`.
fn module_files(module: &str) -> Vec<PathBuf> {
    let src = repo().join("server/src");
    let mut files = Vec::new();
    if module == "main" {
        files.push(src.join("main.rs"));
        files_under(&src.join("bin"), &mut files);
    } else {
        // `x.rs`, `x/`, or both (`config.rs` beside `config/`).
        files_under(&src.join(module), &mut files);
        if src.join(format!("{module}.rs")).exists() {
            files.push(src.join(format!("{module}.rs")));
        }
    }
    files.retain(|f| f.extension().is_some_and(|e| e == "rs"));
    files
}

/// The top-level modules a file names through `crate::` (or `site_server::` in the binary),
/// grouped imports included, comments left out.
fn imports_of(text: &str, prefix: &str) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c, d::{e, f}}`: the names at the group's first depth.
            let mut depth = 1;
            let mut name = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => {
                        if !name.is_empty() {
                            found.insert(std::mem::take(&mut name));
                        }
                        at_start = true;
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && at_start {
                    if c.is_alphanumeric() || c == '_' {
                        name.push(c);
                        continue;
                    } else if name.is_empty() && c.is_whitespace() {
                        continue;
                    } else if !name.is_empty() {
                        found.insert(std::mem::take(&mut name));
                        at_start = false;
                    }
                }
            }
            if !name.is_empty() {
                found.insert(name);
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            found.insert(name);
        }
    }
    found.retain(|n| !n.is_empty() && n != "self");
    found
}

#[test]
fn the_module_map_matches_the_crates_imports() {
    let modules = crate_modules();
    let rows = module_map(&modules);
    let mapped: BTreeSet<String> = rows.iter().flat_map(|r| r.modules.clone()).collect();
    let unmapped: Vec<&String> = modules.iter().filter(|m| !mapped.contains(*m)).collect();
    assert!(
        unmapped.is_empty(),
        "modules missing from docs/architecture.md's module map: {unmapped:?}"
    );

    let mut wrong: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in &rows {
        for module in &row.modules {
            let prefix = if module == "main" { "site_server::" } else { "crate::" };
            let mut imports = BTreeSet::new();
            for file in module_files(module) {
                imports.extend(imports_of(&read(&file), prefix));
            }
            // The lib's re-exports at the top (`site_server::AppState`) are the state module's.
            imports.retain(|m| modules.contains(m) && m != module);
            if let Some(allowed) = &row.may_import {
                for m in imports.iter().filter(|m| !allowed.contains(*m)) {
                    wrong.entry(module.clone()).or_default().insert(m.clone());
                }
            }
            graph.insert(module.clone(), imports);
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that docs/architecture.md's module map does not allow (module: what it imports): {wrong:?}. \
         Add them to the row's \"May import\" cell if they belong there, or move the shared part lower."
    );
    let mut pairs = Vec::new();
    for (a, imports) in &graph {
        for b in imports {
            if a < b && graph.get(b).is_some_and(|i| i.contains(a)) {
                pairs.push((a.clone(), b.clone()));
            }
        }
    }
    assert!(pairs.is_empty(), "modules that import each other: {pairs:?}");
}

// ---------------------------------------------------------------------------------------
// File circles

/// Every source file of the crate by its module path (`store/postgres/writer.rs`:
/// `["store", "postgres", "writer"]`; a `mod.rs` is its folder's module), with its path.
fn source_files() -> BTreeMap<Vec<String>, PathBuf> {
    let src = repo().join("server/src");
    let mut files = Vec::new();
    files_under(&src, &mut files);
    files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .filter_map(|f| {
            let relative = f.strip_prefix(&src).ok()?.with_extension("");
            let mut module: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            // The binary's files (`main.rs`, `bin/`) are their own crates' roots.
            if module.first().is_some_and(|m| m == "main" || m == "bin" || m == "lib") {
                return None;
            }
            Some((module, f))
        })
        .collect()
}

/// The `crate::` and `super::` paths of a Rust text, each as the module path it names
/// (`super::` resolved against `module`, the text's own), grouped uses expanded
/// (`crate::store::{sql, backend::Leads}`: `store::sql` and `store::backend::Leads`). Line
/// comments and the unit tests (`#[cfg(test)] mod tests`, to the end) are left out.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(at) if !l[..at].contains('"') => &l[..at],
            _ => l,
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        let rest: String = chars[i..chars.len().min(i + 7)].iter().collect();
        if starts_word && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            // `super` is the module's parent (a `mod.rs` too: its module is its folder's),
            // and each further `super::` one more up.
            let mut base: Vec<String> = Vec::new();
            let mut at = i;
            if rest.starts_with("crate::") {
                at += "crate::".len();
            } else {
                base = module.to_vec();
                while chars[at..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
                    base.pop();
                    at += "super::".len();
                }
            }
            let (paths, end) = read_tree(&chars, at);
            for p in paths {
                let mut full = base.clone();
                full.extend(p);
                found.push(full);
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// The paths of a use tree starting at `at` (`a::b`, `a::{b, c::d}`, `{a, b}`), and where
/// it ends.
fn read_tree(chars: &[char], mut at: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    loop {
        let word: String = chars[at..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').collect();
        if !word.is_empty() {
            at += word.chars().count();
            prefix.push(word);
            if chars[at..].starts_with(&[':', ':']) {
                at += 2;
                continue;
            }
            return (vec![prefix], at);
        }
        if chars.get(at) == Some(&'{') {
            at += 1;
            let mut paths = Vec::new();
            loop {
                while chars.get(at).is_some_and(|c| c.is_whitespace() || *c == ',') {
                    at += 1;
                }
                match chars.get(at) {
                    None => return (paths, at),
                    Some('}') => return (paths, at + 1),
                    _ => {}
                }
                let (inner, end) = read_tree(chars, at);
                for p in inner {
                    let mut full = prefix.clone();
                    full.extend(p);
                    paths.push(full);
                }
                // Skip what ends the item (` as x`, `*`) up to its comma or the brace.
                at = end;
                while chars.get(at).is_some_and(|c| *c != ',' && *c != '}') {
                    at += 1;
                }
            }
        }
        // `crate::*`, or nothing a path can continue with.
        return (vec![prefix], at);
    }
}

/// The source file a module path lands in: the longest prefix that is a file's module.
fn resolve<'a>(path: &[String], files: &'a BTreeMap<Vec<String>, PathBuf>) -> Option<&'a Vec<String>> {
    (1..=path.len()).rev().find_map(|n| files.get_key_value(&path[..n]).map(|(k, _)| k))
}

/// Pairs of source files that import each other, a folder's `mod.rs` and the files under it
/// aside (a parent declares and re-exports its children, which may use what it holds).
fn file_circles(files: &BTreeMap<Vec<String>, PathBuf>, texts: &BTreeMap<Vec<String>, String>) -> Vec<(String, String)> {
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for module in files.keys() {
        let Some(text) = texts.get(module) else { continue };
        let targets = named_paths(text, module)
            .iter()
            .filter_map(|p| resolve(p, files))
            .filter(|t| *t != module)
            .collect();
        edges.insert(module, targets);
    }
    let mut pairs = Vec::new();
    for (a, targets) in &edges {
        for b in targets {
            let related = a.starts_with(b) || b.starts_with(a);
            if a < b && !related && edges.get(b).is_some_and(|t| t.contains(a)) {
                pairs.push((a.join("::"), b.join("::")));
            }
        }
    }
    pairs
}

#[test]
fn no_two_source_files_import_each_other() {
    let files = source_files();
    let texts = files.iter().map(|(m, path)| (m.clone(), read(path))).collect();
    let pairs = file_circles(&files, &texts);
    assert!(
        pairs.is_empty(),
        "source files that import each other (move what both need into a file of its own that imports neither): {pairs:?}"
    );
}

#[test]
fn file_imports_are_resolved_through_crate_super_and_groups() {
    let module = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    let mut files = BTreeMap::new();
    for m in [
        "store",
        "store::postgres",
        "store::postgres::writer",
        "store::postgres::queue",
        "store::postgres::leads",
        "store::sql",
        "pages::renderer",
    ] {
        files.insert(module(m), PathBuf::new());
    }
    let texts: BTreeMap<Vec<String>, String> = [
        (
            "store::postgres::writer",
            "use super::queue::{Op, Queued};\nuse crate::store::{sql, Channel};\n// super::leads",
        ),
        (
            "store::postgres::queue",
            "use super::super::sql::X;\nfn f() { super::writer::start() }",
        ),
        (
            "store::postgres::leads",
            "use super::{PgStore, writer::Op};\n#[cfg(test)]\nmod tests { use super::queue; }",
        ),
        ("store::postgres", "mod writer;\nuse crate::pages::renderer as r;"),
    ]
    .into_iter()
    .map(|(m, t)| (module(m), t.to_string()))
    .collect();
    let paths = named_paths(&texts[&module("store::postgres::queue")], &module("store::postgres::queue"));
    assert_eq!(paths, [module("store::sql::X"), module("store::postgres::writer::start")]);
    let grouped = named_paths(&texts[&module("store::postgres::leads")], &module("store::postgres::leads"));
    assert_eq!(grouped, [module("store::postgres::PgStore"), module("store::postgres::writer::Op")]);
    // writer and queue name each other; leads names writer only; the folder's mod.rs is
    // related to everything under it.
    assert_eq!(
        file_circles(&files, &texts),
        [("store::postgres::queue".to_string(), "store::postgres::writer".to_string())]
    );
}

/// A module map row fits on a line: the details belong in the module's own `//!` comment.
const MODULE_MAP_ROW_MAX: usize = 200;

#[test]
fn module_map_rows_fit_on_a_line() {
    let doc = read(&repo().join("docs/architecture.md"));
    let section = doc.split("## Module map").nth(1).expect("a \"Module map\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let long: Vec<String> = section
        .lines()
        .filter(|l| l.starts_with("| `") && l.chars().count() > MODULE_MAP_ROW_MAX)
        .map(|l| format!("{} characters: {}", l.chars().count(), l.chars().take(60).collect::<String>()))
        .collect();
    assert!(
        long.is_empty(),
        "module map rows over {MODULE_MAP_ROW_MAX} characters (move the details into the module's own //! comment):\n{}",
        long.join("\n")
    );
}

#[test]
fn imports_are_read_from_single_and_grouped_uses() {
    let text = "use crate::store::Store;\nuse crate::{config::Config, phone, time::{now, Clock}};\n// crate::pages\nlet x = crate::metrics::Health;\nsite_server::ops";
    let found: Vec<String> = imports_of(text, "crate::").into_iter().collect();
    assert_eq!(found, ["config", "metrics", "phone", "store", "time"]);
}

// ---------------------------------------------------------------------------------------
// Citations

const ROOTS: [&str; 10] = [
    "server",
    "client",
    "ssr-bundle",
    "e2e",
    "catalogue",
    "scripts",
    "deploy",
    "docs",
    "bench",
    ".ci",
];
const ROOT_FILES: [&str; 5] = ["README.md", "Makefile", "Cargo.toml", "package.json", "openapi.yaml"];

fn repository_texts() -> Vec<(PathBuf, String)> {
    let top = repo();
    let mut files = Vec::new();
    for root in ROOTS {
        files_under(&top.join(root), &mut files);
    }
    files.extend(ROOT_FILES.iter().map(|f| top.join(f)));
    files
        .into_iter()
        // This file spells out what it looks for.
        .filter(|f| !f.ends_with("tests/docs.rs") && !f.ends_with("tests/it/docs.rs"))
        .filter_map(|f| std::fs::read(&f).ok().and_then(|b| String::from_utf8(b).ok()).map(|t| (f, t)))
        .collect()
}

/// Citations of documents that live outside the repository (the founders' own notes).
fn outside_citations(text: &str) -> Vec<String> {
    let forbidden = [
        concat!("design", ".md"),
        concat!("spec", ".md"),
        concat!("spec", " section"),
        concat!("../", "shared"),
    ];
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if forbidden.iter().any(|f| line.to_lowercase().contains(f)) {
            found.push(format!("line {}: {}", n + 1, line.trim()));
            continue;
        }
        // A section sign and a number, unless an RFC's.
        let mut rest = line;
        while let Some(at) = rest.find('§') {
            let before = &rest[..at];
            let after = rest[at + '§'.len_utf8()..].trim_start();
            if after.starts_with(|c: char| c.is_ascii_digit())
                && before
                    .trim_end()
                    .rsplit(' ')
                    .nth(1)
                    .is_none_or(|w| w.trim_start_matches('(') != "RFC")
            {
                found.push(format!("line {}: {}", n + 1, line.trim()));
                break;
            }
            rest = &rest[at + '§'.len_utf8()..];
        }
    }
    found
}

/// Repository paths a text names (`docs/operations.md`, `client/lib/phone.ts`), with what
/// follows each (to read a cited heading).
fn cited_paths(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for root in ROOTS {
        let needle = format!("{root}/");
        let mut from = 0;
        while let Some(at) = text[from..].find(&needle) {
            let start = from + at;
            from = start + needle.len();
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '$' | '{' | '@')) {
                continue; // part of a longer path or a URL
            }
            let path: String = text[start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
                .collect();
            let rest = &text[start + path.len()..];
            if rest.starts_with(['*', '<', '{', '$']) || path.contains("NNN") {
                continue; // a pattern, not a file
            }
            let path = path.trim_end_matches(['.', '-']).to_string();
            let last = path.rsplit('/').next().unwrap_or_default();
            if !(last.contains('.') || last.is_empty() || path.starts_with("docs/decisions/")) {
                continue; // `server/nginx` in a printed ratio: a file is named by its extension
            }
            let follows: String = rest.chars().take(120).collect();
            found.push((path, follows));
        }
    }
    found
}

fn headings(markdown: &str) -> BTreeSet<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect()
}

/// Whether a cited path names something the repository has: a file or folder, a decision
/// by its number alone (`docs/decisions/011`), or a file with an extension the citation
/// leaves out.
fn exists(top: &Path, path: &str) -> bool {
    if top.join(path).exists() {
        return true;
    }
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    std::fs::read_dir(top.join(dir)).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            file.starts_with(&format!("{name}-")) || file.starts_with(&format!("{name}."))
        })
    })
}

#[test]
fn comments_and_documents_cite_only_what_the_repository_has() {
    let top = repo();
    let mut problems = Vec::new();
    for (file, text) in repository_texts() {
        let shown = file.strip_prefix(&top).unwrap_or(&file).display().to_string();
        for line in outside_citations(&text) {
            problems.push(format!("{shown}: cites a document outside the repository: {line}"));
        }
        for (path, follows) in cited_paths(&text) {
            if !exists(&top, &path) {
                problems.push(format!("{shown}: names {path}, which the repository does not have"));
                continue;
            }
            // `docs/x.md, "Heading"`: the heading must be one of that document's.
            if path.ends_with(".md")
                && let Some(quoted) = follows.strip_prefix(", \"").or_else(|| follows.strip_prefix(" \""))
                && let Some((heading, _)) = quoted.split_once('"')
                // A heading may be quoted across a line break.
                && !headings(&read(&top.join(&path))).contains(&heading.split_whitespace().collect::<Vec<_>>().join(" "))
            {
                problems.push(format!(
                    "{shown}: cites the heading \"{heading}\" of {path}, which it does not have"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{} citations to fix:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_citation_check_finds_what_it_should() {
    assert_eq!(outside_citations(&format!("// ({} section 5)", "spec")).len(), 1);
    assert_eq!(outside_citations(concat!("// design", ".md ", "§", "7")).len(), 1);
    assert_eq!(outside_citations(concat!("// (", "§", " 4, states)")).len(), 1);
    assert!(outside_citations(concat!("/// by its weights (RFC 9110 ", "§", "12.5.3)")).is_empty());
    let cited = cited_paths("// see docs/product.md, \"Pages\" and https://x.example/docs/a.md and client/lib/*.ts");
    assert_eq!(
        cited,
        [(
            "docs/product.md".to_string(),
            ", \"Pages\" and https://x.example/docs/a.md and client/lib/*.ts".to_string()
        )]
    );
    assert!(exists(&repo(), "docs/decisions/001"));
    assert!(!exists(&repo(), "client/islands/NoSuchIsland.tsx"));
}

/// "`name` in `path`" (the path backticked or not, on the same line or the next): the name
/// and the repository path it points into. Only paths from the repository's root are read
/// (`server/src/x.rs`, `rustfmt.toml`); a path relative to its context (`admin/mod.rs`) is not.
fn name_pointers(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after_open = &rest[open + 1..];
        let Some(close) = after_open.find('`') else { break };
        let name = &after_open[..close];
        let after = &after_open[close + 1..];
        rest = after;
        if name.is_empty() || name.contains('\n') {
            continue;
        }
        let Some(tail) = after.strip_prefix(" in") else { continue };
        if !tail.starts_with([' ', '\n']) {
            continue; // "`x` into", "`x` inside"
        }
        // The next line of a comment starts with its marker.
        let tail = tail.trim_start_matches([' ', '\n', '\t', '*', '/', '!', '#']);
        let tail = tail.strip_prefix('`').unwrap_or(tail);
        let path: String = tail
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
            .collect();
        let path = path.trim_end_matches(['.', '-']).to_string();
        let from_root = ROOTS.iter().any(|r| path.starts_with(&format!("{r}/")))
            || (!path.contains('/') && path.contains('.') && repo().join(&path).is_file());
        if from_root && path.rsplit('/').next().is_some_and(|last| last.contains('.')) {
            found.push((name.to_string(), path));
        }
    }
    found
}

/// Whether a file holds what a pointer names: every word of the name (`PageTable::build`:
/// `PageTable` and `build`; `<Honeypot />`: `Honeypot`), placeholders aside (`N`,
/// `<concern>`).
fn holds(text: &str, name: &str) -> bool {
    let mut words = String::new();
    let mut rest = name;
    while let Some(at) = rest.find('<') {
        words.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match after.find('>') {
            Some(end) if after[..end].chars().all(|c| c.is_ascii_lowercase() || c == '_') && end > 0 => rest = &after[end + 1..],
            _ => {
                words.push('<');
                rest = after;
            }
        }
    }
    words.push_str(rest);
    words
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() > 1)
        .all(|w| text.contains(w))
}

#[test]
fn pointers_to_a_name_in_a_file_hold() {
    let top = repo();
    let mut problems = Vec::new();
    for (file, text) in repository_texts() {
        let shown = file.strip_prefix(&top).unwrap_or(&file).display().to_string();
        for (name, path) in name_pointers(&text) {
            match std::fs::read_to_string(top.join(&path)) {
                Ok(target) if holds(&target, &name) => {}
                Ok(_) => problems.push(format!("{shown}: points at `{name}` in {path}, which does not hold it")),
                Err(_) => problems.push(format!("{shown}: points at `{name}` in {path}, which the repository does not have")),
            }
        }
    }
    assert!(problems.is_empty(), "{} pointers to fix:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_pointer_check_finds_what_it_should() {
    let text = "/** nothing (`HONEYPOT_FIELD` in\n * server/src/forms/fields.rs). `x` in `dir` and `max_width` in `rustfmt.toml`, `y` into server/a.rs, `Labeled` in `admin/mod.rs` */";
    assert_eq!(
        name_pointers(text),
        [
            ("HONEYPOT_FIELD".to_string(), "server/src/forms/fields.rs".to_string()),
            ("max_width".to_string(), "rustfmt.toml".to_string()),
        ]
    );
    assert!(holds("impl PageTable { fn build() }", "PageTable::build"));
    assert!(holds(
        "fn migration(n, compatible_back_to)",
        "migration!(N, …, compatible_back_to = M)"
    ));
    assert!(holds("pub use leads::Type;", "pub use <concern>::Type;"));
    assert!(!holds("pub use leads::Lead;", "pub use <concern>::Type;"));
    assert!(!holds("pub const OTHER: &str", "HONEYPOT_FIELD"));
}

/// The README is what a newcomer reads first: what the site is, what to install, the
/// commands, the first five minutes, where things are. Everything else has a document.
const README_MAX_LINES: usize = 150;

#[test]
fn the_readme_is_read_in_five_minutes() {
    let readme = read(&repo().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, over {README_MAX_LINES}: move details to docs/ (development.md, operations.md, product.md, benchmarks.md)"
    );
}

#[test]
fn decision_records_carry_a_date_and_a_status() {
    let dir = repo().join("docs/decisions");
    let mut records = Vec::new();
    files_under(&dir, &mut records);
    assert!(!records.is_empty(), "docs/decisions/ holds the decision records");
    for record in records.iter().filter(|r| r.extension().is_some_and(|e| e == "md")) {
        let text = read(record);
        let head: Vec<&str> = text.lines().take(6).collect();
        let date = head.iter().any(|l| {
            l.strip_prefix("**Date:** ").is_some_and(|d| {
                d.len() == 10
                    && d.as_bytes()[4] == b'-'
                    && d.as_bytes()[7] == b'-'
                    && d.replace('-', "").chars().all(|c| c.is_ascii_digit())
            })
        });
        let status = head.iter().any(|l| {
            l.strip_prefix("**Status:** ").is_some_and(|s| {
                ["Accepted", "Superseded by ", "Proposed", "Deprecated"]
                    .iter()
                    .any(|k| s.starts_with(k))
            })
        });
        assert!(
            date && status,
            "{}: its first lines give **Date:** YYYY-MM-DD and **Status:** Accepted (or Superseded by NNN)",
            record.display()
        );
    }
}
