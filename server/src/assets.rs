//! What the browser gets besides pages, embedded in the binary at build time: the island
//! runtime and chunks (content-hashed URLs, immutable), the inline bootstrap and the CSS
//! (both inlined into pages), the icon set and the favicon. Plus the SSR bundle the
//! engines evaluate.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::http::HeaderValue;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::encoding::Encoded;
use crate::hex::hex;

pub const SSR_BUNDLE: &str = include_str!("../../target/web/ssr.js");
// CLIENT_ENTRY, BOOTSTRAP_JS and CLIENT_FILES, listed by build.rs from target/web (and, in
// a debug build, the same of the cluster test's newer release in `next_release`).
include!(concat!(env!("OUT_DIR"), "/client_files.rs"));

/// One file of the island bundle: its name, its bytes, the same gzipped.
type ClientFile = (&'static str, &'static [u8], &'static [u8]);

/// The island bundle this process serves: its entry's name, the bootstrap and the files;
/// playing the cluster test's newer release (`crate::release`), that release's.
fn bundle() -> (&'static str, &'static str, &'static [ClientFile]) {
    #[cfg(debug_assertions)]
    if crate::release::next_release_fixture() {
        return (next_release::CLIENT_ENTRY, next_release::BOOTSTRAP_JS, next_release::CLIENT_FILES);
    }
    (CLIENT_ENTRY, BOOTSTRAP_JS, CLIENT_FILES)
}
const SITE_CSS: &str = include_str!("../../target/web/site.css");
const ICONS_JSON: &str = include_str!("../../target/web/icons.json");
const FAVICON: &[u8] = include_bytes!("../../client/favicon.svg");

/// SHA-256 (hex) of the embedded bundles, for `site --version`: the server bundle
/// (ssr.js), and the browser's (the bootstrap, every client file by name, the CSS, the icons).
pub fn bundle_hashes() -> [(&'static str, String); 2] {
    let ssr = Sha256::digest(SSR_BUNDLE.as_bytes());
    let (_, bootstrap, files) = bundle();
    let mut client = Sha256::new();
    client.update(bootstrap.as_bytes());
    for (name, bytes, _) in files {
        client.update(name.as_bytes());
        client.update((bytes.len() as u64).to_le_bytes());
        client.update(bytes);
    }
    client.update(SITE_CSS.as_bytes());
    client.update(ICONS_JSON.as_bytes());
    [("ssr bundle", hex(&ssr)), ("client bundle", hex(&client.finalize()))]
}

/// A static file served under a fixed URL.
pub struct Asset {
    pub content_type: HeaderValue,
    pub body: Encoded,
    /// True for content-addressed URLs that may be cached forever.
    pub immutable: bool,
}

pub struct Assets {
    pub css: &'static str,
    /// CSP source for the inline stylesheet: 'sha256-…'.
    pub css_csp_hash: String,
    /// The inline bootstrap script's text; it names the island runtime's hashed URL.
    pub bootstrap: &'static str,
    /// CSP source for the bootstrap: 'sha256-…'.
    pub bootstrap_csp_hash: String,
    /// URL of the island runtime, e.g. /assets/runtime-3F9A2B1C.js.
    pub runtime_url: String,
    pub files: HashMap<String, Arc<Asset>>,
}

impl Assets {
    pub fn load() -> Self {
        let (entry, bootstrap, _) = bundle();
        let runtime_url = format!("/assets/{entry}");
        Self {
            css: SITE_CSS,
            css_csp_hash: csp_hash(SITE_CSS),
            bootstrap,
            bootstrap_csp_hash: csp_hash(bootstrap),
            runtime_url,
            files: embedded_files().clone(),
        }
    }

    /// A short fingerprint of what the document shell embeds, for render cache keys.
    pub fn shell_version(&self) -> String {
        format!("{}|{}|{}", self.runtime_url, self.css_csp_hash, self.bootstrap_csp_hash)
    }
}

/// The embedded files by URL, compressed once per process (brotli at its best takes about
/// half a second over the island bundle; every server a test starts shares them).
fn embedded_files() -> &'static HashMap<String, Arc<Asset>> {
    static FILES: OnceLock<HashMap<String, Arc<Asset>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let (_, _, client_files) = bundle();
        let mut files = HashMap::new();
        // esbuild names every file by its content hash, so each may be cached forever.
        for (name, bytes, gzip) in client_files {
            files.insert(
                format!("/assets/{name}"),
                Arc::new(Asset {
                    content_type: HeaderValue::from_static("text/javascript; charset=utf-8"),
                    body: Encoded::with_gzip(bytes.to_vec(), gzip.to_vec()),
                    immutable: true,
                }),
            );
        }
        files.insert(
            "/favicon.svg".to_string(),
            Arc::new(Asset {
                content_type: HeaderValue::from_static("image/svg+xml"),
                body: Encoded::new(FAVICON.to_vec()),
                immutable: false,
            }),
        );
        files
    })
}

/// Files of other releases this server answered for (a rolling upgrade: a page rendered by
/// a newer or older server names them), each read from the database once, then kept. At
/// most the files of the releases the database keeps, asked for while this process runs.
/// The reads take turns (`lookup`): a name this server does not hold costs one database
/// read, so however many such requests arrive, they hold at most one of the store's
/// connections, and requests for the same file wait for its first read instead of
/// repeating it.
#[derive(Default)]
pub struct Fetched {
    files: Mutex<HashMap<String, Arc<Asset>>>,
    reading: tokio::sync::Mutex<()>,
}

impl Fetched {
    pub fn get(&self, path: &str) -> Option<Arc<Asset>> {
        self.files.lock().unwrap_or_else(|p| p.into_inner()).get(path).cloned()
    }

    pub fn insert(&self, path: &str, asset: Arc<Asset>) {
        self.files.lock().unwrap_or_else(|p| p.into_inner()).insert(path.to_string(), asset);
    }

    /// Waits for this request's turn to read from the database; hold it while reading.
    pub async fn lookup(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.reading.lock().await
    }
}

/// Whether `path` may name another release's content-hashed file: `/assets/` and a plain
/// file name (letters, digits, `.`, `_`, `-`), so no other request reaches the database.
pub fn may_be_recorded(path: &str) -> bool {
    path.strip_prefix("/assets/")
        .is_some_and(|name| !name.is_empty() && name.len() <= 128 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)))
}

/// Every file of the island bundle (runtime and chunks): (file name, bytes).
pub fn client_files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    bundle().2.iter().map(|(name, bytes, _)| (*name, *bytes))
}

/// A CSP hash source for an inline element's text: 'sha256-…'.
fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())))
}

/// Icons by lucide name, each as data: its SVG children as `[tag, attributes]` pairs.
pub type IconSet = std::collections::BTreeMap<String, Value>;

/// The lucide icon set as data, by kebab-case name.
pub struct Icons(HashMap<String, Value>);

impl Icons {
    pub fn load() -> Result<Self, String> {
        serde_json::from_str(ICONS_JSON).map(Self).map_err(|e| format!("icons.json: {e}"))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The named icons, for page props.
    pub fn subset(&self, names: &[&str]) -> IconSet {
        names
            .iter()
            .filter_map(|n| self.0.get(*n).map(|v| ((*n).to_string(), v.clone())))
            .collect()
    }
}

/// Standard base64 with padding (for CSP hashes).
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{BOOTSTRAP_JS, base64};

    #[test]
    fn the_inline_bootstrap_cannot_close_its_script_element() {
        let lower = BOOTSTRAP_JS.to_ascii_lowercase();
        assert!(
            !lower.contains("</script") && !lower.contains("<!--"),
            "bootstrap.js must stay inline-safe"
        );
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }
}
