//! `site --version`: what an operator needs to tell two builds apart.

/// The git commit the binary was built from, or "unknown" (built without .git).
pub const COMMIT: &str = env!("SITE_GIT_COMMIT");

/// The text `site --version` prints: version and commit, the schema versions this binary
/// knows, and the SHA-256 of each embedded bundle.
pub fn describe() -> String {
    let mut out = format!("site {}\ncommit {COMMIT}\n", crate::release::version());
    out.push_str(&format!(
        "schema sqlite {} postgres {}\n",
        crate::store::migrations::latest(crate::store::migrations::sqlite()),
        crate::store::migrations::latest(crate::store::migrations::postgres())
    ));
    for (name, hash) in crate::assets::bundle_hashes() {
        out.push_str(&format!("{name} sha256 {hash}\n"));
    }
    out
}
