//! What the browser downloads besides pages, embedded in the binary at build time:
//! the hydration bundle (content-hashed URL, immutable), the CSS (inlined into pages),
//! the icon set and the favicon. Plus the SSR bundle the engines evaluate.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::encoding::Encoded;

pub const SSR_BUNDLE: &str = include_str!("../../target/web/ssr.js");
// CLIENT_ENTRY and CLIENT_FILES, listed by build.rs from target/web/client.
include!(concat!(env!("OUT_DIR"), "/client_files.rs"));
const SITE_CSS: &str = include_str!("../../target/web/site.css");
const ICONS_JSON: &str = include_str!("../../target/web/icons.json");
const FAVICON: &[u8] = include_bytes!("../../client/favicon.svg");

/// A static file served under a fixed URL.
pub struct Asset {
    pub content_type: &'static str,
    pub body: Encoded,
    /// True for content-addressed URLs that may be cached forever.
    pub immutable: bool,
}

pub struct Assets {
    pub css: &'static str,
    /// CSP source for the inline stylesheet: 'sha256-…'.
    pub css_csp_hash: String,
    /// URL of the hydration bundle's entry, e.g. /assets/app-3F9A2B1C.js.
    pub client_js_url: String,
    pub files: HashMap<String, Arc<Asset>>,
}

impl Assets {
    pub fn load() -> Self {
        let client_js_url = format!("/assets/{CLIENT_ENTRY}");
        let mut files = HashMap::new();
        // esbuild names every file by its content hash, so each may be cached forever.
        for (name, bytes) in CLIENT_FILES {
            files.insert(
                format!("/assets/{name}"),
                Arc::new(Asset {
                    content_type: "text/javascript; charset=utf-8",
                    body: Encoded::new(bytes.to_vec()),
                    immutable: true,
                }),
            );
        }
        files.insert(
            "/favicon.svg".to_string(),
            Arc::new(Asset {
                content_type: "image/svg+xml",
                body: Encoded::new(FAVICON.to_vec()),
                immutable: false,
            }),
        );
        Self {
            css: SITE_CSS,
            css_csp_hash: format!("'sha256-{}'", base64(&Sha256::digest(SITE_CSS.as_bytes()))),
            client_js_url,
            files,
        }
    }

    /// A short fingerprint of what the document shell embeds, for render cache keys.
    pub fn shell_version(&self) -> String {
        format!("{}|{}", self.client_js_url, self.css_csp_hash)
    }
}

/// The lucide icon set as data, by kebab-case name.
pub struct Icons(HashMap<String, Value>);

impl Icons {
    pub fn load() -> Result<Self, String> {
        serde_json::from_str(ICONS_JSON).map(Self).map_err(|e| format!("icons.json: {e}"))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The named icons, as a JSON object for page props.
    pub fn subset(&self, names: &[&str]) -> Value {
        let map: serde_json::Map<String, Value> = names
            .iter()
            .filter_map(|n| self.0.get(*n).map(|v| ((*n).to_string(), v.clone())))
            .collect();
        Value::Object(map)
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
    use super::base64;

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
