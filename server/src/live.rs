//! A value that is replaced whole while it is read: the page table, rebuilt when a campaign
//! changes. A reader gets one version or the next, never a mix of the two; a replaced
//! version lives on while anyone still holds it.
//!
//! [`Live::get`] (a read lock and an `Arc` clone) is for the router's handlers. The cached
//! page's answer, the site's most common one, reads it through a [`Follower`] that its
//! connection keeps: one atomic load per request while nothing changes, the lock only on the
//! first request after a change (docs/decisions/032-campaigns-in-the-store.md).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// The current version of a `T`, replaced whole by [`Live::set`].
#[derive(Debug)]
pub struct Live<T> {
    current: RwLock<Arc<T>>,
    /// Counts the replacements; a follower compares it with the one it holds.
    version: AtomicU64,
}

impl<T> Live<T> {
    pub fn new(value: T) -> Self {
        Self {
            current: RwLock::new(Arc::new(value)),
            version: AtomicU64::new(0),
        }
    }

    /// The current version.
    pub fn get(&self) -> Arc<T> {
        Arc::clone(&self.current.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Replaces the current version: every later `get` and every follower's next `get` sees it.
    pub fn set(&self, value: Arc<T>) {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = value;
        self.version.fetch_add(1, Ordering::Release);
    }

    /// How many times it was replaced.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }
}

/// A reader's own copy of a [`Live`] value, brought up to date when it changed.
#[derive(Debug)]
pub struct Follower<T> {
    version: u64,
    value: Arc<T>,
}

impl<T> Clone for Follower<T> {
    fn clone(&self) -> Self {
        Self {
            version: self.version,
            value: Arc::clone(&self.value),
        }
    }
}

impl<T> Follower<T> {
    pub fn of(live: &Live<T>) -> Self {
        let version = live.version();
        Self {
            version,
            value: live.get(),
        }
    }

    /// The current version: the copy held, once an atomic load says it still is.
    pub fn get(&mut self, live: &Live<T>) -> &T {
        let version = live.version();
        if version != self.version {
            // Read after the version: at worst a newer value under an older number, which
            // the next call reads again.
            self.value = live.get();
            self.version = version;
        }
        &self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_sees_each_replacement_and_holds_its_copy_meanwhile() {
        let live = Live::new("first".to_string());
        let mut follower = Follower::of(&live);
        assert_eq!(follower.get(&live), "first");
        let held = live.get();
        live.set(Arc::new("second".to_string()));
        assert_eq!(follower.get(&live), "second");
        assert_eq!(*held, "first", "a replaced version lives while held");
        assert_eq!(*live.get(), "second");
        assert_eq!(live.version(), 1);
    }
}
