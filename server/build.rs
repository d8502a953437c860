// The binary embeds the JavaScript and CSS that `make web` (or `npm run build`) writes to
// target/web. Say so plainly when they are missing instead of failing in include_str!,
// and list the client bundle's files (entry + chunks, content-hashed) for assets.rs, each
// with its gzip body made here by zopfli (smaller than the server's zlib, and once per file).
use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it was compiled: a target/ copied from
    // another checkout must watch and embed this checkout's files.
    let manifest_dir_var = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let manifest_dir = Path::new(&manifest_dir_var);
    git_commit(manifest_dir);
    // A debug build also embeds the cluster test's "newer release" of the island bundle,
    // which it serves when run with SITE_TEST_NEXT_RELEASE=1 (src/release.rs); a release
    // build has none of it.
    let fixture = std::env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_some();
    let web = manifest_dir.join("../target/web");
    for file in ["ssr.js", "site.css", "icons.json", "manifest.json", "bootstrap.js"] {
        let path = web.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        if !path.exists() {
            panic!(
                "{} is missing: build the web bundles first with `make web` (or `npm ci && npm run build`)",
                path.display()
            );
        }
    }
    for dir in ["../catalogue", "templates", "migrations", "../client/favicon.svg"] {
        println!("cargo:rerun-if-changed={}", manifest_dir.join(dir).display());
    }

    let manifest = std::fs::read_to_string(web.join("manifest.json")).expect("read manifest.json");
    let entry = json_string_after(&manifest, "\"entry\"").expect("manifest.json names the entry");
    let client = web.join("client");
    println!("cargo:rerun-if-changed={}", client.display());
    let mut names: Vec<String> = std::fs::read_dir(&client)
        .expect("target/web/client exists")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".js"))
        .collect();
    names.sort();
    assert!(names.contains(&entry), "the entry {entry} is in target/web/client");
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let bootstrap = web.join("bootstrap.js");
    let gz_dir = out_dir.join("client-gz");
    std::fs::create_dir_all(&gz_dir).expect("create OUT_DIR/client-gz");
    let mut code = String::new();
    bundle_code(&mut code, &client, &entry, &names, &bootstrap, &gz_dir);
    if fixture {
        let (client, entry, names, bootstrap) = next_release_bundle(&client, &entry, &names, &bootstrap, &out_dir.join("next-release"));
        writeln!(
            code,
            "/// The cluster test's newer release of the same (debug builds only: src/release.rs)."
        )
        .ok();
        writeln!(code, "#[cfg(debug_assertions)]").ok();
        writeln!(code, "mod next_release {{").ok();
        bundle_code(&mut code, &client, &entry, &names, &bootstrap, &gz_dir);
        writeln!(code, "}}").ok();
    }
    let favicon = std::fs::read_to_string(manifest_dir.join("../client/favicon.svg")).expect("read client/favicon.svg");
    writeln!(code, "/// The favicon as a `data:` URL, written into every page's head.").ok();
    writeln!(code, "pub const FAVICON_URI: &str = {:?};", svg_data_uri(&favicon)).ok();
    std::fs::write(out_dir.join("client_files.rs"), code).expect("write client_files.rs");
}

/// The constants of one island bundle: its entry's name, the bootstrap, every file with its
/// gzip body (made here by zopfli, once per file name: the names carry the content's hash).
fn bundle_code(code: &mut String, client: &Path, entry: &str, names: &[String], bootstrap: &Path, gz_dir: &Path) {
    writeln!(code, "/// The client bundle's entry file name.").ok();
    writeln!(code, "pub const CLIENT_ENTRY: &str = {entry:?};").ok();
    writeln!(
        code,
        "/// The inline script every page carries: it loads the island runtime after first paint"
    )
    .ok();
    writeln!(code, "/// (client/bootstrap.ts, built with the runtime's hashed URL in it).").ok();
    writeln!(
        code,
        "pub(crate) const BOOTSTRAP_JS: &str = include_str!({:?});",
        bootstrap.display().to_string()
    )
    .ok();
    writeln!(code, "/// Every file of the client bundle: (name, bytes, the same gzipped).").ok();
    writeln!(code, "pub const CLIENT_FILES: &[(&str, &[u8], &[u8])] = &[").ok();
    for name in names {
        let path = client.join(name).canonicalize().expect("path");
        let gz = gz_dir.join(format!("{name}.gz"));
        // File names carry their content hash: a file compressed once stays valid.
        if !gz.exists() {
            let bytes = std::fs::read(&path).expect("read a client file");
            let mut zipped = Vec::with_capacity(bytes.len() / 3);
            zopfli::compress(zopfli::Options::default(), zopfli::Format::Gzip, &bytes[..], &mut zipped).expect("zopfli writes into memory");
            std::fs::write(&gz, zipped).expect("write a gzipped client file");
        }
        writeln!(
            code,
            "    ({name:?}, include_bytes!({:?}), include_bytes!({:?})),",
            path.display().to_string(),
            gz.display().to_string()
        )
        .ok();
    }
    writeln!(code, "];").ok();
}

/// The cluster test's "newer build" of the island bundle: every file with a banner, so
/// every content hash differs, renamed `<name>-next.js` with the names inside the files and
/// the bootstrap following. Written under `out`; returns where the files, the entry, their
/// names and the bootstrap are.
fn next_release_bundle(
    client: &Path,
    entry: &str,
    names: &[String],
    bootstrap: &Path,
    out: &Path,
) -> (std::path::PathBuf, String, Vec<String>, std::path::PathBuf) {
    let rename = |name: &str| format!("{}-next.js", name.trim_end_matches(".js"));
    let rewrite = |text: String| names.iter().fold(text, |text, name| text.replace(name.as_str(), &rename(name)));
    let dir = out.join("client");
    std::fs::create_dir_all(&dir).expect("create the next release's client folder");
    for name in names {
        let text = std::fs::read_to_string(client.join(name)).expect("read a client file");
        let text = format!("/* next release (cluster test fixture) */\n{}", rewrite(text));
        std::fs::write(dir.join(rename(name)), text).expect("write a next release client file");
    }
    let boot = out.join("bootstrap.js");
    let text = std::fs::read_to_string(bootstrap).expect("read bootstrap.js");
    std::fs::write(&boot, rewrite(text)).expect("write the next release's bootstrap.js");
    (dir, rename(entry), names.iter().map(|n| rename(n)).collect(), boot)
}

/// A small SVG as a `data:` URL: single quotes for attributes, whitespace collapsed to one
/// space, and every character a URL may not hold or an HTML attribute would misread
/// (spaces included) percent-encoded.
fn svg_data_uri(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml,");
    for (i, word) in svg.replace('"', "'").split_whitespace().enumerate() {
        if i > 0 {
            out.push_str("%20");
        }
        for c in word.chars() {
            if c.is_ascii_graphic() && !"%#<>{}&\\^`|".contains(c) {
                out.push(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    write!(out, "%{b:02X}").ok();
                }
            }
        }
    }
    out
}

/// The string value after `key` in a small JSON text (no dependency for one lookup).
fn json_string_after(text: &str, key: &str) -> Option<String> {
    let rest = &text[text.find(key)? + key.len()..];
    let start = rest.find('"')? + 1;
    let end = start + rest[start..].find('"')?;
    Some(rest[start..end].to_string())
}

/// The commit the binary is built from, for `site --version`: `SITE_GIT_COMMIT` when set
/// (a packager's own), else `git rev-parse HEAD`, else "unknown" (a tarball without .git).
/// Rebuilt when HEAD or the branch it names moves.
fn git_commit(dir: &Path) {
    println!("cargo:rerun-if-env-changed=SITE_GIT_COMMIT");
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git").args(args).current_dir(dir).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !text.is_empty()).then_some(text)
    };
    let commit = match std::env::var("SITE_GIT_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => match git(&["rev-parse", "HEAD"]) {
            Some(head) => {
                // Cargo runs this script again, and compiles the crate again, on every build
                // while a file it watches is missing: packed-refs is watched only once git has
                // written it (until then a branch is a file of its own, watched below, and
                // packing the refs removes that file, which makes this script run again).
                for path in ["HEAD", "packed-refs"] {
                    if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", path])
                        && Path::new(&p).exists()
                    {
                        println!("cargo:rerun-if-changed={p}");
                    }
                }
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
                    && let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", &branch])
                {
                    println!("cargo:rerun-if-changed={p}");
                }
                head
            }
            None => "unknown".to_string(),
        },
    };
    println!("cargo:rustc-env=SITE_GIT_COMMIT={commit}");
}
