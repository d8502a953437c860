//! The render cache: a rendered document per key, precompressed. The key is a hash of
//! everything the render depends on (page, props, head), so a stale entry cannot be served.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::encoding::Encoded;

pub type CacheKey = [u8; 32];

/// The key is a SHA-256 digest already: its first eight bytes are the map's hash, rather than
/// SipHash over all 32 at every lookup (a cached page's answer looks one up).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // A `[u8; 32]` hashes as its length, then its bytes: the bytes are what counts.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
        }
    }
}

#[derive(Default)]
pub struct RenderCache {
    entries: RwLock<HashMap<CacheKey, Arc<Encoded>, BuildHasherDefault<KeyHasher>>>,
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

    /// Whether `key` is cached (counted neither as a hit nor as a miss).
    pub fn contains(&self, key: &CacheKey) -> bool {
        self.entries.read().unwrap_or_else(|p| p.into_inner()).contains_key(key)
    }

    /// Drops the entries of `keys` (documents no page names any more).
    pub fn remove<'a>(&self, keys: impl IntoIterator<Item = &'a CacheKey>) {
        let mut entries = self.entries.write().unwrap_or_else(|p| p.into_inner());
        for key in keys {
            entries.remove(key);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.read().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}
