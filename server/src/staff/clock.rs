//! The time the console's access rules read: the system clock plus an offset that tests
//! move forward to expire sessions and lockouts without waiting.

use std::sync::atomic::{AtomicI64, Ordering};

#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: AtomicI64,
}

impl Clock {
    /// Milliseconds since the Unix epoch, UTC, as this clock reads it.
    pub fn now_ms(&self) -> i64 {
        crate::store::now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves the clock forward by `ms` (tests of expiry and lockouts).
    pub fn advance(&self, ms: i64) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
}
