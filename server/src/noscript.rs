//! The script-free variants of the pages that `make bench` compares each page with
//! (`render.noscript_variants`, served under /_noscript/…): the same document with every
//! <script> element removed.
//!
//! A variant is built once per document and kept, so it is served as fast as the page it
//! is compared with: built per request, its compression alone delayed the first byte by
//! about 190 ms, which made the script-free page look slower than it is and changed what
//! the browser was doing when the document arrived.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::HeaderValue;

use crate::encoding::{Coding, Encoded};

/// The built variants, by path, each with the ETag of the document it was built from.
#[derive(Default)]
pub struct Variants {
    built: Mutex<HashMap<String, (HeaderValue, Arc<Encoded>)>>,
}

impl Variants {
    /// The script-free variant of `document` (the page at `path`), built on first use and
    /// again only when the document changes.
    pub fn of(&self, path: &str, document: &Encoded) -> Arc<Encoded> {
        let source = document.etag(Coding::Identity).clone();
        if let Some((etag, built)) = self.lock().get(path)
            && *etag == source
        {
            return Arc::clone(built);
        }
        let html = String::from_utf8_lossy(&document.body(Coding::Identity)).into_owned();
        let built = Arc::new(Encoded::new(strip_scripts(&html).into_bytes()));
        self.lock().insert(path.to_string(), (source, Arc::clone(&built)));
        built
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (HeaderValue, Arc<Encoded>)>> {
        // A panic while holding the lock leaves nothing half-written: keep using the map.
        self.built.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `html` less its <script …>…</script> elements.
pub fn strip_scripts(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</script>") {
            Some(end) => rest = &rest[start + end + "</script>".len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_scripts_removes_every_script_element_and_keeps_the_rest() {
        let html =
            "<head><style>a{}</style><script>boot()</script><script type=\"application/ld+json\">{}</script></head><body><p>x</p></body>";
        assert_eq!(strip_scripts(html), "<head><style>a{}</style></head><body><p>x</p></body>");
        assert_eq!(strip_scripts("<p>no scripts</p>"), "<p>no scripts</p>");
    }

    #[test]
    fn a_variant_is_built_once_per_document_and_again_when_it_changes() {
        let variants = Variants::default();
        let first = Encoded::new(b"<p>one</p><script>x()</script>".to_vec());
        let a = variants.of("/", &first);
        assert_eq!(&a.body(Coding::Identity)[..], b"<p>one</p>");
        assert!(Arc::ptr_eq(&a, &variants.of("/", &first)), "the second request reuses the variant");
        let second = Encoded::new(b"<p>two</p>".to_vec());
        assert_eq!(&variants.of("/", &second).body(Coding::Identity)[..], b"<p>two</p>");
        assert_eq!(
            &variants.of("/hvac", &first).body(Coding::Identity)[..],
            b"<p>one</p>",
            "one variant per path"
        );
    }
}
