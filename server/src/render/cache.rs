//! The render cache: a rendered document per key, precompressed. The key is a hash of
//! everything the render depends on (page, props, head), so a stale entry cannot be served.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::encoding::Encoded;

pub type CacheKey = [u8; 32];

#[derive(Default)]
pub struct RenderCache {
    entries: RwLock<HashMap<CacheKey, Arc<Encoded>>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl RenderCache {
    pub fn get(&self, key: &CacheKey) -> Option<Arc<Encoded>> {
        let found = self.entries.read().unwrap_or_else(|p| p.into_inner()).get(key).cloned();
        match found {
            Some(_) => self.hits.fetch_add(1, Ordering::Relaxed),
            None => self.misses.fetch_add(1, Ordering::Relaxed),
        };
        found
    }

    pub fn insert(&self, key: CacheKey, value: Arc<Encoded>) {
        self.entries.write().unwrap_or_else(|p| p.into_inner()).insert(key, value);
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}
