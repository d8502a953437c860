//! The statements both backends run word for word: each written once here, with PostgreSQL's
//! `$N` placeholders, and handed to SQLite with `?N` in their place (the same numbers, so the
//! same parameter list binds both). A statement whose SQL differs between the two dialects in
//! anything but its placeholders (upserts, casts, booleans, `RETURNING`, data-modifying `WITH`)
//! stays in the backend's own file (docs/decisions/015-shared-statements.md).
//!
//! Why not `$N` on SQLite too: SQLite reads `$1` as a parameter *named* "$1" and numbers named
//! parameters in the order they first appear, so `… WHERE b = $2 AND a = $1` would bind the
//! first value to `$2`. `?N` is SQLite's numbered parameter, bound by its number.

/// One statement in each backend's placeholders. Use `.pg` with tokio-postgres and `.sqlite`
/// with rusqlite.
#[derive(Debug, Clone, Copy)]
pub struct Sql {
    /// With `$1`, `$2`, … (PostgreSQL).
    pub pg: &'static str,
    /// The same text with `?1`, `?2`, … (SQLite).
    pub sqlite: &'static str,
}

/// `pg` with every `$` that starts a number turned into `?` (same length, so an array of `N`
/// bytes, `N` being `pg.len()`).
pub const fn sqlite_placeholders<const N: usize>(pg: &str) -> [u8; N] {
    let b = pg.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = if b[i] == b'$' && i + 1 < N && b[i + 1].is_ascii_digit() {
            b'?'
        } else {
            b[i]
        };
        i += 1;
    }
    out
}

/// Declares each statement as a `Sql` constant, its SQLite text made at compile time, and
/// `ALL`, every one by name (the store tests prepare each on both databases).
macro_rules! shared {
    ($($(#[$doc:meta])* $name:ident = $sql:expr;)*) => {
        $(
            $(#[$doc])*
            pub const $name: Sql = Sql {
                pg: $sql,
                sqlite: {
                    const BYTES: [u8; $sql.len()] = sqlite_placeholders($sql);
                    match std::str::from_utf8(&BYTES) {
                        Ok(text) => text,
                        Err(_) => panic!("a statement's placeholders change only ASCII bytes"),
                    }
                },
            };
        )*
        /// Every shared statement, with its name.
        pub const ALL: &[(&str, Sql)] = &[$((stringify!($name), $name)),*];
    };
}

// Column lists that several statements select, as macros so `concat!` can build whole
// statements of them at compile time.
macro_rules! lead_columns {
    () => {
        "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text, l.consent_sha256, \
         l.cert_url, l.cert_token, l.cert_ping_url, l.ip, l.user_agent, l.page_url, l.referrer, l.utm_source, l.utm_medium, \
         l.utm_campaign, l.utm_term, l.utm_content, l.seen_referer"
    };
}
macro_rules! submission_columns {
    () => {
        "id, kind, received_at_ms, email, phone, data, ip, user_agent, page_url, status, note"
    };
}
macro_rules! audit_insert_into {
    () => {
        "INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail)"
    };
}

/// A lead's columns as `LeadRecord` reads them (`leads l` joined with `consent_texts c`).
pub const LEAD_COLUMNS: &str = lead_columns!();
/// How many columns `LEAD_COLUMNS` selects.
pub const LEAD_COLUMN_COUNT: usize = 22;
/// A submission's columns as `SubmissionRecord` reads them.
pub const SUBMISSION_COLUMNS: &str = submission_columns!();
/// The head of an audit line's insert, for statements that add its values their own way.
pub const AUDIT_INSERT_INTO: &str = audit_insert_into!();

shared! {
    // Leads and certificate tokens.
    /// The lead with its consent text: `LEAD_COLUMNS` of the lead `$1`.
    LEAD = concat!("SELECT ", lead_columns!(), " FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256 WHERE l.id = $1");
    COUNT_LEADS = "SELECT COUNT(*) FROM leads";
    /// The certificate token `$1`.
    TOKEN = "SELECT token, ping_url, service_slug, cert_url FROM certificates WHERE token = $1";
    /// A token is inserted once, then only its missing URLs are filled in.
    RECORD_TOKEN = "INSERT INTO certificates (token, ping_url, cert_url, service_slug, recorded_at_ms, updated_at_ms) \
         VALUES ($1, $2, $3, $4, $5, $5) \
         ON CONFLICT (token) DO UPDATE SET ping_url = COALESCE(certificates.ping_url, excluded.ping_url), \
         cert_url = COALESCE(certificates.cert_url, excluded.cert_url), updated_at_ms = excluded.updated_at_ms";

    // Retention: everything received before the cutoff `$1`.
    PURGE_OUTBOX = "DELETE FROM outbox WHERE lead_id IN (SELECT id FROM leads WHERE received_at_ms < $1)";
    PURGE_LEADS = "DELETE FROM leads WHERE received_at_ms < $1";
    PURGE_CERTIFICATES = "DELETE FROM certificates WHERE recorded_at_ms < $1";
    PURGE_SUBMISSIONS = "DELETE FROM submissions WHERE received_at_ms < $1";
    PURGE_AUDIT = "DELETE FROM staff_audit WHERE at_ms < $1";

    // Submissions.
    /// The first submission with the dedupe key `$1` received since `$2`.
    EARLIER_SUBMISSION = "SELECT id FROM submissions WHERE dedupe_key = $1 AND received_at_ms >= $2 ORDER BY received_at_ms LIMIT 1";
    INSERT_SUBMISSION = "INSERT INTO submissions (id, kind, received_at_ms, dedupe_key, email, phone, data, ip, user_agent, page_url) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    /// A submission's e-mail (`$1` the submission, `$4` now), pending.
    INSERT_MAIL = "INSERT INTO mail_outbox (submission_id, subject, body, status, attempts, next_attempt_ms, created_ms) \
         VALUES ($1, $2, $3, 'pending', 0, $4, $4)";
    SUBMISSION = concat!("SELECT ", submission_columns!(), " FROM submissions WHERE id = $1");

    // Staff accounts, sessions and the audit log.
    LIST_STAFF = "SELECT id, email, active, created_ms, disabled_ms FROM staff ORDER BY email";
    STAFF_LOGIN = "SELECT id, email, password_hash, active FROM staff WHERE email = $1";
    END_SESSION = "DELETE FROM staff_sessions WHERE id_hash = $1";
    /// One audit line: at, staff, action, target, address, detail.
    INSERT_AUDIT = concat!(audit_insert_into!(), " VALUES ($1, $2, $3, $4, $5, $6)");
    /// The last time since `$1` that the action `$2` was audited on the target `$3`.
    STAFF_UNLOCKED_SINCE = "SELECT MAX(at_ms) FROM staff_audit WHERE at_ms >= $1 AND action = $2 AND target = $3";
    /// The audit log below the line `$1`, newest first, `$2` lines.
    AUDIT_LOG = "SELECT l.id, l.at_ms, s.email, l.action, l.target, l.ip, l.detail FROM staff_audit l \
         LEFT JOIN staff s ON s.id = l.staff_id WHERE l.id < $1 ORDER BY l.id DESC LIMIT $2";

    // The console's lead page.
    LEAD_DELIVERY = "SELECT delivery_status, erased_ms FROM leads WHERE id = $1";
    LEAD_DELIVERIES = "SELECT id, channel, status, attempts, last_error, next_attempt_ms, delivered_ms FROM outbox \
         WHERE lead_id = $1 ORDER BY id";
    LEAD_ATTEMPTS = "SELECT channel, at_ms, outcome, error FROM delivery_attempts WHERE lead_id = $1 ORDER BY at_ms, id";
    PHONE_SUPPRESSED = "SELECT 1 FROM suppressions WHERE phone_e164 = $1";

    // The funnel.
    BUSINESS_ZONE = "SELECT from_ms, offset_ms, zone FROM business_zone ORDER BY from_ms";
    /// The daily counts from day `$1` to day `$2`.
    FUNNEL_ROWS = "SELECT day, kind, key, leads, delivered, fast, suppressed, erased FROM lead_days \
         WHERE day >= $1 AND day <= $2 AND (leads <> 0 OR erased <> 0) ORDER BY day, kind, key";

    // The scheduled jobs' lease.
    /// Gives the lease up if `$1` holds it.
    RESIGN_JOBS = "DELETE FROM job_leader WHERE name = 'jobs' AND holder = $1";

    // The releases' hashed files (rolling upgrades).
    /// A file of any kept release, by its path.
    RECORDED_ASSET = "SELECT content_type, body, gzip FROM assets WHERE path = $1 LIMIT 1";
    /// Every release but the `$1` started last, with its files (ON DELETE CASCADE).
    PRUNE_ASSET_RELEASES = "DELETE FROM asset_releases WHERE release NOT IN \
         (SELECT release FROM asset_releases ORDER BY started_ms DESC, release LIMIT $1)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_gets_numbered_placeholders_and_nothing_else_changes() {
        assert_eq!(
            STAFF_UNLOCKED_SINCE.sqlite,
            "SELECT MAX(at_ms) FROM staff_audit WHERE at_ms >= ?1 AND action = ?2 AND target = ?3"
        );
        const PG: &str = "a = $10 AND b = '$' $";
        const SQLITE: [u8; PG.len()] = sqlite_placeholders(PG);
        assert_eq!(&SQLITE, b"a = ?10 AND b = '$' $");
        for (name, sql) in ALL {
            assert!(!sql.pg.contains('?'), "{name}: PostgreSQL's text has a `?`");
            assert!(
                !sql.sqlite.as_bytes().windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit()),
                "{name}: SQLite's text kept a `$N`"
            );
        }
    }

    /// The reason for `?N`: SQLite numbers `$1`, `$2` by first appearance, not by their digits.
    #[test]
    fn sqlite_binds_dollar_names_in_order_of_appearance_and_question_numbers_by_number() -> rusqlite::Result<()> {
        let conn = rusqlite::Connection::open_in_memory()?;
        let by_name: (String, String) = conn.query_row("SELECT $2, $1", rusqlite::params!["first", "second"], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        assert_eq!(by_name, ("first".to_string(), "second".to_string()));
        let by_number: (String, String) = conn.query_row("SELECT ?2, ?1", rusqlite::params!["first", "second"], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        assert_eq!(by_number, ("second".to_string(), "first".to_string()));
        Ok(())
    }
}
