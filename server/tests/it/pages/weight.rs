//! What a visitor's browser downloads, against the page-weight budgets (docs/product.md,
//! "Page weight"): the gzipped HTML with its inline CSS, the script files a page fetches before
//! any interaction, and those plus its islands' chunks once they are live. Measured on the
//! real pages and the real bundle the server embeds, with the bytes the server sends (gzip).
//! `cargo test -p site-server --test it pages::weight -- --nocapture` prints the figures (`make
//! bench` runs it that way, as its "sizes" section).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};

use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, CONTENT_ENCODING};

use crate::common;

/// 1 KB = 1024 B.
const KB: usize = 1024;
/// A service page's HTML with its inline CSS, gzipped: the first paint in the first round trip.
const SERVICE_HTML_BUDGET: usize = 14 * KB;
/// Every script file a page loads, gzipped, whether fetched ahead or once its islands are live.
const JS_BUDGET: usize = 90 * KB;
/// What we aim for with the islands live (printed, not enforced).
const JS_AIM: usize = 75 * KB;

struct Weight {
    html_bytes: usize,
    html_gz: usize,
    /// Script files fetched ahead (the runtime and what it imports): URL → gzip bytes.
    ahead: BTreeMap<String, usize>,
    /// Those and the chunks of the page's islands with their imports.
    live: BTreeMap<String, usize>,
}

fn total(files: &BTreeMap<String, usize>) -> usize {
    files.values().sum()
}

/// The body as the server sends it to a browser that accepts gzip (compressed here when the
/// server sends it as it is), and its text.
async fn gzipped(s: &common::TestServer, path: &str) -> (usize, String) {
    let r = s
        .client
        .get(s.url(path))
        .header(ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status(), StatusCode::OK, "GET {path}");
    let coded = r.headers().get(CONTENT_ENCODING).is_some_and(|v| v == "gzip");
    let body = r.bytes().await.expect("body").to_vec();
    if coded {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut text).expect("gzip");
        (body.len(), text)
    } else {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&body).expect("gzip");
        (gz.finish().expect("gzip").len(), String::from_utf8(body).expect("utf-8"))
    }
}

/// Every `"<prefix>…​.js"` string literal in `text` (after `prefix`, up to the closing quote).
fn quoted_js<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let needle = format!("\"{prefix}");
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + 1..];
        let Some(end) = after.find('"') else { break };
        let literal = &after[..end];
        if literal.ends_with(".js") {
            found.push(literal);
        }
        rest = &after[end..];
    }
    found
}

/// The modules a chunk imports statically (`import{a}from"./x.js"`, `import"./x.js"`), not
/// what it loads on demand (`import("./x.js")`).
fn static_imports(chunk: &str) -> Vec<String> {
    let mut found = Vec::new();
    for literal in quoted_js(chunk, "./") {
        let quoted = format!("\"{literal}\"");
        for (at, _) in chunk.match_indices(&quoted) {
            let before = chunk[..at].trim_end();
            if before.ends_with("from") || (before.ends_with("import") && !before.ends_with("(import")) {
                found.push(literal.trim_start_matches("./").to_string());
                break;
            }
        }
    }
    found
}

/// Adds each of `todo` (file names under /assets/) and what it imports statically.
async fn with_imports(
    s: &common::TestServer,
    mut todo: Vec<String>,
    files: &mut BTreeMap<String, usize>,
    texts: &mut BTreeMap<String, String>,
) {
    while let Some(name) = todo.pop() {
        if files.contains_key(&name) {
            continue;
        }
        let (gz, text) = gzipped(s, &format!("/assets/{name}")).await;
        files.insert(name.clone(), gz);
        todo.extend(static_imports(&text));
        texts.insert(name, text);
    }
}

async fn weigh(s: &common::TestServer, path: &str) -> Weight {
    let (html_gz, html) = gzipped(s, path).await;
    let mut ahead = BTreeMap::new();
    let mut texts = BTreeMap::new();
    let islands: BTreeSet<&str> = html
        .split("data-island=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    // A page without islands never fetches the runtime (client/bootstrap.ts).
    if !islands.is_empty() {
        let scripts: String = html
            .split("<script")
            .skip(1)
            .filter(|s| !s.starts_with(" type=\"application/ld+json\""))
            .filter_map(|s| s.split("</script>").next())
            .collect();
        let fetched = quoted_js(&scripts, "/assets/")
            .iter()
            .map(|u| u.trim_start_matches("/assets/").to_string())
            .collect();
        with_imports(s, fetched, &mut ahead, &mut texts).await;
    }
    let mut live = ahead.clone();
    if let Some(runtime) = ahead.keys().find(|f| f.starts_with("runtime-")).and_then(|f| texts.get(f)).cloned() {
        let mut chunks = Vec::new();
        for island in &islands {
            // The registry's entry, as esbuild writes it: `Name:()=>import("./chunk-….js")`.
            // (After `{` or `,`: `Callback` is also the end of `RequestCallback`.)
            let entry = format!("{island}:()=>import(\"./");
            let chunk = runtime
                .match_indices(&entry)
                .find(|(at, _)| runtime[..*at].ends_with(['{', ',']))
                .and_then(|(at, _)| runtime[at + entry.len()..].split('"').next())
                .unwrap_or_else(|| panic!("{path}: the runtime has no chunk for the island {island}"));
            chunks.push(chunk.to_string());
        }
        with_imports(s, chunks, &mut live, &mut texts).await;
    }
    Weight {
        html_bytes: html.len(),
        html_gz,
        ahead,
        live,
    }
}

#[tokio::test]
async fn pages_stay_within_their_weight_budgets() {
    let s = common::start().await;
    let services: Vec<String> = s.state.catalogue.services.iter().map(|sv| format!("/{}", sv.slug)).collect();
    let others = ["/", "/campaigns", "/register", "/privacy", "/terms"];
    let kb = |n: usize| format!("{:.1} KB", n as f64 / KB as f64);
    let mut over = Vec::new();
    println!(
        "{:<22} {:>10} {:>12} {:>18} {:>18}",
        "page", "HTML", "HTML+CSS gz", "JS gz ahead", "JS gz live"
    );
    for path in others.iter().map(|p| p.to_string()).chain(services.iter().cloned()) {
        let w = weigh(&s, &path).await;
        let (ahead, live) = (total(&w.ahead), total(&w.live));
        println!(
            "{:<22} {:>8} B {:>12} {:>10} ({:>2} files) {:>10} ({:>2} files){}",
            path,
            w.html_bytes,
            kb(w.html_gz),
            kb(ahead),
            w.ahead.len(),
            kb(live),
            w.live.len(),
            if live > JS_AIM { "  above the 75 KB aim" } else { "" }
        );
        if services.contains(&path) && w.html_gz > SERVICE_HTML_BUDGET {
            over.push(format!(
                "{path}: HTML with its CSS {} gzipped, over {}",
                kb(w.html_gz),
                kb(SERVICE_HTML_BUDGET)
            ));
        }
        if ahead > JS_BUDGET {
            over.push(format!(
                "{path}: JavaScript fetched ahead {} gzipped, over {}",
                kb(ahead),
                kb(JS_BUDGET)
            ));
        }
        if live > JS_BUDGET {
            over.push(format!(
                "{path}: JavaScript with its islands live {} gzipped, over {}",
                kb(live),
                kb(JS_BUDGET)
            ));
        }
    }
    assert!(
        over.is_empty(),
        "over the budgets (docs/product.md, \"Page weight\"):\n{}",
        over.join("\n")
    );
}

#[tokio::test]
async fn the_weighing_finds_the_runtime_the_islands_and_nothing_on_a_page_without_them() {
    let s = common::start().await;
    let hvac = weigh(&s, "/hvac").await;
    assert!(
        hvac.ahead.keys().any(|f| f.starts_with("runtime-")),
        "the runtime is fetched ahead: {:?}",
        hvac.ahead
    );
    // React's runtime alone is over 50 KB gzipped.
    assert!(total(&hvac.ahead) > 50 * KB, "{}", total(&hvac.ahead));
    assert!(
        hvac.live.len() > hvac.ahead.len(),
        "the islands' chunks come on top: {:?}",
        hvac.live
    );
    assert!(hvac.html_gz > KB && hvac.html_gz < hvac.html_bytes);
    let privacy = weigh(&s, "/privacy").await;
    assert!(
        privacy.ahead.is_empty() && privacy.live.is_empty(),
        "no islands, no JavaScript: {:?}",
        privacy.live
    );
    assert_eq!(
        static_imports(r#"import{a as b}from"./chunk-A.js";import"./chunk-B.js";const l=()=>import("./chunk-C.js");"#),
        ["chunk-A.js", "chunk-B.js"]
    );
}
