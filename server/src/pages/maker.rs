//! What the pages outside the fixed list of canonical ones are made with: `PageMaker` (the
//! site, the public URL, the brand, the shell's version), the `Unlisted` pages (chosen by a
//! query parameter, kept out of search results), and `Refused`, a refused form post as its
//! page shows it.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::StatusCode;

use super::props::{FormError, FormValues, PageProps, SiteInfo};
use super::{PreparedPage, prepare};
use crate::render::document::Head;

/// What the pages are made with besides their props (the site, the public URL, the brand,
/// the shell's version): kept to make the pages that depend on a query parameter and the
/// answers to refused form posts.
#[derive(Debug, Clone)]
pub struct PageMaker {
    pub site: SiteInfo,
    base: String,
    brand: String,
    shell: String,
}

impl PageMaker {
    pub fn new(site: SiteInfo, base: &str, brand: &str, shell: &str) -> Self {
        Self {
            site,
            base: base.to_string(),
            brand: brand.to_string(),
            shell: shell.to_string(),
        }
    }

    pub fn brand(&self) -> &str {
        &self.brand
    }

    /// The head of the page at `path`: `title` and the brand, the description, the canonical
    /// URL, and whether search engines may list it.
    pub fn head(&self, title: &str, description: String, path: &str, indexed: bool) -> Head {
        Head {
            title: format!("{title} | {}", self.brand),
            description,
            canonical: format!("{}{path}", self.base),
            indexed,
        }
    }

    /// A page without structured data.
    pub fn page(&self, props: &PageProps, head: Head, status: StatusCode) -> Result<PreparedPage, serde_json::Error> {
        prepare(props, head, None, status, &self.shell)
    }
}

/// A page kept out of the sitemap and search results (`UNLISTED_PATHS`), chosen by at most
/// one query parameter: a prepared page for each value it knows (a service on the callback's
/// thank-you page, a campaign on the apply page) and one for any other value or none. Each
/// is rendered on its first request, then served from the render cache like every page.
#[derive(Debug)]
pub struct Unlisted {
    pub param: Option<&'static str>,
    pub by_value: HashMap<String, Arc<PreparedPage>>,
    pub otherwise: Arc<PreparedPage>,
}

impl Unlisted {
    /// One page whatever the query.
    pub fn single(page: PreparedPage) -> Self {
        Self {
            param: None,
            by_value: HashMap::new(),
            otherwise: Arc::new(page),
        }
    }

    /// The page for the parameter's value (`None`: the query does not name it).
    pub fn pick(&self, value: Option<&str>) -> &Arc<PreparedPage> {
        value.and_then(|v| self.by_value.get(v)).unwrap_or(&self.otherwise)
    }
}

/// A refused form post as its page shows it, made the same way for every form
/// (`api::form`): what the visitor had put in the form, the first rule broken, and the
/// status of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub values: FormValues,
    pub error: FormError,
    pub status: StatusCode,
}
