//! Every statement the store runs, in one of three forms, each listed so the store tests
//! prepare it on its database (docs/decisions/015-shared-statements.md):
//!
//! - `shared.rs`: the statements both backends run word for word, each written once with
//!   PostgreSQL's `$N` placeholders and handed to SQLite with `?N` in their place (the same
//!   numbers, so the same parameter list binds both): a [`Sql`] each, and [`ALL`].
//! - `built.rs`: the statements made at run time from what a call asks or from another
//!   declaration (a lead's columns and inserts from `LEAD_FIELDS`, the console's lead list
//!   and its filters, erasure, the seed, the migrations' bookkeeping), for either
//!   [`Dialect`], and `built::examples`, one of each for the tests.
//! - A backend's own statements, those whose text differs between the dialects in more than
//!   its placeholders (upserts, casts, booleans, `RETURNING`, data-modifying `WITH`,
//!   PostgreSQL's batched `unnest` inserts): declared with [`statements!`] at the top of
//!   the backend's file (`sqlite/<concern>.rs`, `postgres/<concern>.rs`), which lists them
//!   in the backend's `STATEMENTS`.
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

/// A statement of a list, by name: its text (a function, so a statement built once at
/// first use can be listed beside the constants).
pub type Listed = (&'static str, fn() -> &'static str);

/// Declares a backend's own statements, at the top of the file that runs them: each `NAME =
/// "…";` a constant, each `NAME = built <expression>;` a `String` made once at first use (a
/// `LazyLock`: for a statement made of another one's text), and `STATEMENTS`, every one by
/// name, which the backend's `mod.rs` gathers for the store tests.
macro_rules! statements {
    (@list [$($done:tt)*]) => {
        /// This file's statements, by name (the store tests prepare each on its database).
        pub(super) const STATEMENTS: &[$crate::store::sql::Listed] = &[$($done)*];
    };
    (@list [$($done:tt)*] $(#[$doc:meta])* $vis:vis $name:ident = built $sql:expr; $($rest:tt)*) => {
        $(#[$doc])*
        $vis static $name: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| $sql);
        statements!(@list [$($done)* (stringify!($name), || $name.as_str()),] $($rest)*);
    };
    (@list [$($done:tt)*] $(#[$doc:meta])* $vis:vis $name:ident = $sql:expr; $($rest:tt)*) => {
        $(#[$doc])*
        $vis const $name: &str = $sql;
        statements!(@list [$($done)* (stringify!($name), || $name),] $($rest)*);
    };
    ($($body:tt)*) => {
        statements!(@list [] $($body)*);
    };
}
pub(crate) use statements;

/// Which database a built statement is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The placeholder of parameter `n` (from 1): `?n` or `$n`.
    pub fn placeholder(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("?{n}"),
            Dialect::Postgres => format!("${n}"),
        }
    }
}

// Column lists that several statements select, as macros so `concat!` can build whole
// statements of them at compile time.
macro_rules! submission_columns {
    () => {
        "id, kind, received_at_ms, email, phone, data, ip, user_agent, page_url, status, note"
    };
}
/// The head of a delivery outcome's UPDATE on an outbox table, up to its condition.
macro_rules! finish_head {
    ($table:literal) => {
        concat!(
            "UPDATE ",
            $table,
            " SET status = $2, attempts = $3, delivered_ms = $4, next_attempt_ms = CASE WHEN $2 = 'pending' THEN $5 ELSE next_attempt_ms END, \
             locked_until_ms = 0, last_error = $6 WHERE id = $1 AND "
        )
    };
}
/// `INSERT_CAMPAIGN`'s and `UPDATE_CAMPAIGN`'s values `$1`…`$14`, in their order: a campaign's
/// fields (`CampaignFields`), when and by whom. Each store collects them as its driver's
/// parameters (`&dyn ToSql` of its crate).
macro_rules! campaign_values {
    ($f:expr, $now_ms:expr, $staff_id:expr) => {
        vec![
            &$f.name,
            &$f.status,
            &$f.payouts,
            &$f.payment_terms,
            &$f.geos,
            &$f.promo_allowed,
            &$f.cap,
            &$f.inbound,
            &$f.transfer,
            &$f.seconds,
            &$f.hours,
            &$f.notes,
            $now_ms,
            $staff_id,
        ]
    };
}
pub(crate) use campaign_values;

macro_rules! audit_insert_into {
    () => {
        "INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail)"
    };
}

/// How many columns `built::lead_columns()` selects (a lead's columns as `LeadRecord` reads
/// them, from `LEAD_FIELDS`).
pub const LEAD_COLUMN_COUNT: usize = crate::store::lead_fields::RECORD_COLUMNS;
/// A submission's columns as `SubmissionRecord` reads them.
pub const SUBMISSION_COLUMNS: &str = submission_columns!();
/// The head of an audit line's insert, for statements that add its values their own way.
pub const AUDIT_INSERT_INTO: &str = audit_insert_into!();
/// A delivery's columns as `SlowDelivery` reads them (`outbox o` joined with `leads l`).
pub const SLOWEST_COLUMNS: &str = "o.lead_id, l.service_slug, o.channel, l.received_at_ms, o.delivered_ms - o.created_ms";

pub mod built;
mod lead_list;
mod shared;

pub use shared::*;

/// The statements of a text run as a batch (`PRAGMA a; PRAGMA b`), each without its `;`:
/// what the store tests prepare one at a time (a prepared statement is one statement).
pub fn single_statements(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ';') => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// A statement's text as both dialects would share it: placeholders `?N` and `$N` alike,
/// white space folded. Two statements the same under it differ only in placeholders.
pub fn shape(text: &str) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let bytes = folded.as_bytes();
    let mut out = String::with_capacity(folded.len());
    for (i, c) in folded.char_indices() {
        if (c == '?' || c == '$') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
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

    #[test]
    fn batches_are_split_into_statements_and_quotes_are_kept_whole() {
        assert_eq!(
            single_statements("PRAGMA a = 1; SET x = 'a;b';\n LISTEN c;"),
            ["PRAGMA a = 1", "SET x = 'a;b'", "LISTEN c"]
        );
        assert_eq!(shape("SELECT  ?1,\n $2, '$' FROM t"), "SELECT #1, #2, '$' FROM t");
    }

    /// A statement one backend lists that the other lists too, or that `shared.rs` has,
    /// placeholders aside, is written twice: it belongs in `shared.rs`, once.
    #[test]
    fn no_statement_is_written_twice() {
        let mut seen: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
        let mut twice = Vec::new();
        let sqlite = crate::store::sqlite::statements().map(|(name, sql)| (format!("sqlite::{name}"), sql()));
        let postgres = crate::store::postgres::statements().map(|(name, sql)| (format!("postgres::{name}"), sql()));
        let shared = ALL.iter().map(|(name, sql)| (format!("sql::{name}"), sql.pg));
        for (name, text) in shared.chain(sqlite).chain(postgres) {
            if let Some(first) = seen.insert(shape(text), name.clone()) {
                twice.push(format!("{first} and {name}"));
            }
        }
        assert!(
            twice.is_empty(),
            "statements written twice (write each once in server/src/store/sql/shared.rs): {twice:?}"
        );
    }

    /// Every statement of a backend's files is declared in its `statements!` list, so the
    /// store tests prepare it: none is written inline. Transaction control (`BEGIN`,
    /// `COMMIT`, savepoints) needs no list.
    #[test]
    fn every_statement_of_the_backends_is_in_their_lists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
        let mut inline = Vec::new();
        for dir in ["sqlite", "postgres"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
                .expect("the backend's folder")
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "rs")) {
                let text = std::fs::read_to_string(file).expect("a backend file");
                for literal in inline_statements(&text) {
                    inline.push(format!("{}: {literal}", file.display()));
                }
            }
        }
        assert!(
            inline.is_empty(),
            "statements written inline (declare each in the file's statements! block, or in sql/shared.rs when both backends run it):\n{}",
            inline.join("\n")
        );
        let example =
            "statements! {\n    A = \"SELECT 1\";\n}\nfn f() { conn.execute(\"DELETE FROM x\"); conn.execute_batch(\"COMMIT\"); }";
        assert_eq!(inline_statements(example), ["DELETE FROM x"]);
    }

    /// The string literals of a Rust file that start a statement, outside its `statements!`
    /// block, its unit tests and its comments.
    fn inline_statements(text: &str) -> Vec<String> {
        const KEYWORDS: [&str; 16] = [
            "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "CREATE", "ALTER", "DROP", "PRAGMA", "SET", "LOCK", "LISTEN", "NOTIFY",
            "VACUUM", "ANALYZE", "TRUNCATE",
        ];
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
        let mut code = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("statements! {") {
            code.push_str(&rest[..at]);
            let mut depth = 0;
            let mut end = rest.len();
            for (i, c) in rest[at..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = at + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &rest[end..];
        }
        code.push_str(rest);
        let code: String = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        code.split('"')
            .skip(1)
            .step_by(2)
            .filter(|literal| {
                // A keyword and more: `"DELETE"` alone is a value (a journal mode), not a statement.
                let (first, more) = literal.trim_start().split_once(char::is_whitespace).unwrap_or((literal, ""));
                KEYWORDS.contains(&first) && !more.trim().is_empty()
            })
            .map(|literal| literal.chars().take(60).collect())
            .collect()
    }
}
