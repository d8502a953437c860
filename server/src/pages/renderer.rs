//! Prepared pages to compressed documents: through the render cache, else rendered by the
//! engine pool, wrapped in the document shell and compressed.

use std::sync::Arc;
use std::time::Instant;

use askama::Template;

use super::PreparedPage;
use super::errors::AppError;
use super::props::PageProps;
use super::sign_in::{self, SignInPage};
use crate::encoding::Encoded;
use crate::render::cache::RenderCache;
use crate::render::document::{Document, PrivateDocument, script_json};
use crate::render::{Lane, RenderPool};

/// Turns a prepared page into compressed document bytes, through the cache.
pub struct PageRenderer {
    pub pool: RenderPool,
    pub cache: RenderCache,
    pub css: &'static str,
    pub bootstrap: &'static str,
    pub brand: String,
    /// The staff sign-in page, rendered once on first use (`sign_in_page`).
    pub sign_in: tokio::sync::OnceCell<SignInPage>,
}

/// What warming the cache at start did.
#[derive(Debug, Clone, Copy)]
pub struct WarmReport {
    pub pages: usize,
    pub failed: usize,
    pub elapsed: std::time::Duration,
}

impl PageRenderer {
    /// The page's document: from the cache, or rendered, wrapped, compressed and cached.
    pub async fn document(&self, page: &PreparedPage) -> Result<Arc<Encoded>, AppError> {
        if let Some(hit) = self.cached(page) {
            return Ok(hit);
        }
        let html = self.html(page).await?;
        let encoded = tokio::task::spawn_blocking(move || Encoded::new(html.into_bytes()))
            .await
            .map_err(|e| AppError::Join(e.to_string()))?;
        let encoded = Arc::new(encoded);
        self.cache.insert(page.key, Arc::clone(&encoded));
        Ok(encoded)
    }

    /// The page's document if the cache has it (counted as a hit or a miss).
    pub fn cached(&self, page: &PreparedPage) -> Option<Arc<Encoded>> {
        self.cache.get(&page.key)
    }

    /// The page's document as text, rendered now and never cached: for answers made for one
    /// visitor (a form post answered with its values and error).
    pub async fn html(&self, page: &PreparedPage) -> Result<String, AppError> {
        let markup = self.pool.render(Lane::Public, page.page, &page.props_json).await?;
        Ok(Document {
            head: &page.head,
            brand: &self.brand,
            css: self.css,
            bootstrap: self.bootstrap,
            json_ld: page.json_ld.as_deref().map(script_json),
            markup: &markup,
        }
        .render()?)
    }

    /// A page that is not for the public (the staff console), rendered now in `lane` and
    /// never cached: its props hold one person's view of private records.
    pub async fn private_document(&self, lane: Lane, props: &PageProps, title: &str) -> Result<String, AppError> {
        let props_json = serde_json::to_string(props).map_err(|e| AppError::Join(format!("props: {e}")))?;
        let markup = self.pool.render(lane, props.component(), &props_json).await?;
        Ok(PrivateDocument {
            title,
            brand: &self.brand,
            css: self.css,
            bootstrap: self.bootstrap,
            markup: &markup,
        }
        .render()?)
    }

    /// The staff sign-in page, ready to be filled in: rendered (in the public lane: nobody is
    /// signed in) by the first call, which every concurrent caller waits for; a failed
    /// render is tried again by the next call.
    pub async fn sign_in_page(&self) -> Result<&SignInPage, AppError> {
        self.sign_in
            .get_or_try_init(|| async {
                let page = |error| SignInPage::marked_props(&self.brand, error);
                let plain = self.private_document(Lane::Public, &page(false), sign_in::TITLE).await?;
                let with_error = self.private_document(Lane::Public, &page(true), sign_in::TITLE).await?;
                SignInPage::from_documents(&plain, &with_error)
            })
            .await
    }

    /// Renders every page, one task per engine so the queue never overflows. A page that
    /// fails is logged and left out of the cache; it is answered as an error on request.
    pub async fn warm(self: &Arc<Self>, pages: Vec<Arc<PreparedPage>>) -> WarmReport {
        let started = Instant::now();
        let total = pages.len();
        let queue = Arc::new(std::sync::Mutex::new(pages));
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..self.pool.engines() {
            let renderer = Arc::clone(self);
            let queue = Arc::clone(&queue);
            tasks.spawn(async move {
                let mut failed = 0;
                loop {
                    let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop();
                    let Some(page) = next else { return failed };
                    if let Err(e) = renderer.document(&page).await {
                        failed += 1;
                        tracing::error!(page = page.page, canonical = %page.head.canonical, error = %e, "warming failed");
                    }
                }
            });
        }
        let mut failed = 0;
        while let Some(done) = tasks.join_next().await {
            failed += done.unwrap_or(0);
        }
        WarmReport {
            pages: total,
            failed,
            elapsed: started.elapsed(),
        }
    }
}
