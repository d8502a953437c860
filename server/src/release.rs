//! Which release this binary is: its version (server/Cargo.toml), and, in a debug build
//! only, whether it plays the cluster test's "newer release" (docs/decisions/026): with
//! `SITE_TEST_NEXT_RELEASE=1` in its environment, a debug `site` has one migration more
//! (`store::migrations`), other island file names (`assets`) and the version `+next`, so
//! the rolling upgrade is tested with the one debug binary. The variable is for that test
//! alone: a release build does not contain the fixture, and never reads it.

/// The package version, `+next` when playing the newer release.
pub fn version() -> &'static str {
    if next_release_fixture() {
        concat!(env!("CARGO_PKG_VERSION"), "+next")
    } else {
        env!("CARGO_PKG_VERSION")
    }
}

/// Whether this process plays the cluster test's newer release: a debug build with
/// `SITE_TEST_NEXT_RELEASE=1`, read once. Always false in a release build.
pub fn next_release_fixture() -> bool {
    #[cfg(debug_assertions)]
    {
        static NEXT: std::sync::LazyLock<bool> =
            std::sync::LazyLock::new(|| std::env::var_os("SITE_TEST_NEXT_RELEASE").is_some_and(|v| v == "1"));
        *NEXT
    }
    #[cfg(not(debug_assertions))]
    {
        false
    }
}
