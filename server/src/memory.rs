//! How the process uses glibc's allocator (docs/decisions/030-the-cached-page-at-the-limit.md,
//! "Memory"). Left to itself, glibc raises its threshold for serving a block from its own
//! heaps instead of a fresh mapping each time a large block is freed (up to 32 MB), so the
//! warm-up's large buffers (brotli's window at quality 11, whole documents) stay in the heaps
//! once freed (the decision gives the resident memory measured with glibc's own settings and
//! with this one). glibc's number of heaps (up to eight a core) is left as it is: four heaps
//! saved 2 MB and cost lead intake a third of its rate, its threads waiting on each other's
//! heap locks (the decision's "Memory").
//!
//! Elsewhere (musl, another allocator) both calls do nothing.

/// Blocks of this size or more get a mapping of their own, handed back when freed.
const MMAP_THRESHOLD: i32 = 256 * 1024;

/// Sets the allocator's threshold; call first thing in `main`, before any thread starts.
pub fn configure() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's parameters; it is called before any other
    // thread exists, and glibc takes its own lock for it anyway.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Hands the memory freed so far back to the system (the warm-up's garbage: every page
/// rendered, wrapped and compressed three ways). Takes a few milliseconds; call once the
/// render cache is warm.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim walks the allocator's own heaps under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}
