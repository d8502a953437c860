//! Every table the site keeps, in one list: `site copy-store` copies and verifies them in
//! this order (a table after the ones it references), and a test fails when either
//! database's schema has a table that is neither here nor in `NOT_COPIED`, so a table
//! added by a later migration cannot be forgotten. Add a new table here, after the tables
//! it references, with its primary key.

/// A table and the column its rows are ordered and paged by (its primary key).
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub name: &'static str,
    pub key: &'static str,
}

const fn t(name: &'static str, key: &'static str) -> Table {
    Table { name, key }
}

/// Copied by `site copy-store`, in dependency order.
pub const TABLES: &[Table] = &[
    t("consent_texts", "sha256"),
    t("leads", "id"),
    t("certificates", "token"),
    t("outbox", "id"),
    t("submissions", "id"),
    t("mail_outbox", "id"),
    t("staff", "id"),
    t("staff_sessions", "id_hash"),
    t("staff_audit", "id"),
    t("suppressions", "phone_e164"),
    t("delivery_attempts", "id"),
    t("business_zone", "from_ms"),
    t("campaigns", "id"),
    t("campaign_changes", "id"),
];

/// Tables that are not copied, and why.
pub const NOT_COPIED: &[(&str, &str)] = &[
    ("schema_migrations", "each database records the migrations applied to it"),
    (
        "asset_releases",
        "each server records its release's files in the database it runs on, at start",
    ),
    (
        "assets",
        "each server records its release's files in the database it runs on, at start",
    ),
    (
        "job_leader",
        "which running server holds the scheduled jobs' lease: a live lease, about the servers of the database it is in",
    ),
    (
        "rate_windows",
        "the shared rate limits' counts (PostgreSQL): each lasts a minute, a copy starts afresh",
    ),
    (
        "login_attempts",
        "the shared sign-in throttle's attempts (PostgreSQL): each lasts 15 minutes, a copy starts afresh",
    ),
    (
        "lead_names",
        "SQLite's name index (FTS5), kept by triggers; PostgreSQL indexes the names itself",
    ),
    (
        "lead_days",
        "the funnel's daily counts: copy-store counts them anew on the copy from the leads it copied, as the copy's own \
         triggers and recount make them (docs/decisions/012)",
    ),
    (
        "funnel_recount",
        "a recount of the funnel due on the database it is in: the copy is counted anew by copy-store itself",
    ),
];

/// The tables of `present` that are neither copied nor deliberately left out.
pub fn unlisted(present: &[String]) -> Vec<&str> {
    present
        .iter()
        .map(String::as_str)
        .filter(|name| !TABLES.iter().any(|t| t.name == *name) && !NOT_COPIED.iter().any(|(n, _)| n == name))
        .collect()
}
