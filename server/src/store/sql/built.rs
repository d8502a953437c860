//! The statements made at run time, for either dialect: a lead's columns, its select and
//! both stores' inserts (from `LEAD_FIELDS`), the console's lead list (`lead_list.rs`, re-exported
//! here), erasure (from `ERASURE`), the seed (from a
//! `SeedPlan`), the migrations' bookkeeping (from the columns a database's
//! `schema_migrations` has) and PostgreSQL's session setup (from the schema a test uses). [`examples`] makes one of each shape, which the store tests
//! prepare on each database.

use std::sync::LazyLock;

use super::Dialect;
pub use super::lead_list::*;
use crate::store::erasure::{ERASURE, TableErasure, lead_tables};
use crate::store::lead_fields::{LEAD_FIELDS, RECORD_HEAD};
use crate::store::seed::{
    SEED_CONSENT_SHA256, SEED_CONSENT_TEXT, SEED_FAILED_EVERY, SEED_FIRST_NAMES, SEED_LAST_NAMES, SEED_PENDING_EVERY,
    SEED_SUPPRESSED_EVERY, SeedPlan,
};
use crate::store::{LeadFilter, migrations};

// ---------------------------------------------------------------------------------------
// A lead's columns and inserts (`LEAD_FIELDS`, `store/lead_fields.rs`)

/// A stored lead's columns as `lead_fields::record_from` reads them: `RECORD_HEAD`, then
/// each field's (`leads l` joined with `consent_texts c`).
pub fn lead_columns() -> &'static str {
    static COLUMNS: LazyLock<String> = LazyLock::new(|| {
        let fields = LEAD_FIELDS.iter().map(|f| format!("l.{}", f.column));
        RECORD_HEAD
            .iter()
            .map(|c| c.to_string())
            .chain(fields)
            .collect::<Vec<_>>()
            .join(", ")
    });
    &COLUMNS
}

/// The lead `$1` with its consent text (`lead_columns`).
pub fn lead(dialect: Dialect) -> &'static str {
    fn text(dialect: Dialect) -> String {
        format!(
            "SELECT {} FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256 WHERE l.id = {}",
            lead_columns(),
            dialect.placeholder(1)
        )
    }
    static SQLITE: LazyLock<String> = LazyLock::new(|| text(Dialect::Sqlite));
    static POSTGRES: LazyLock<String> = LazyLock::new(|| text(Dialect::Postgres));
    match dialect {
        Dialect::Sqlite => &SQLITE,
        Dialect::Postgres => &POSTGRES,
    }
}

/// The columns of `leads` a new lead fills: its id, when it arrived, its consent, then
/// each field.
fn insert_columns() -> String {
    let fields = LEAD_FIELDS.iter().map(|f| f.column);
    ["id", "received_at_ms", "consent"]
        .into_iter()
        .chain(fields)
        .collect::<Vec<_>>()
        .join(", ")
}

/// SQLite: a new lead, `?1` its id, `?2` when it arrived, then each field's value in
/// `LEAD_FIELDS`' order (`?3`, `?4`, …); its consent is given.
pub fn sqlite_insert_lead() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let values: Vec<String> = (1..=LEAD_FIELDS.len() + 2).map(|n| format!("?{n}")).collect();
        let (head, fields) = values.split_at(2);
        format!(
            "INSERT INTO leads ({}) VALUES ({}, 1, {})",
            insert_columns(),
            head.join(", "),
            fields.join(", ")
        )
    });
    &TEXT
}

/// PostgreSQL: a group's new leads, a column an array: `$1` the ids, `$2` when each
/// arrived, then an array of each field's values in `LEAD_FIELDS`' order (`$3`, …).
pub fn postgres_insert_leads() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let names: Vec<&str> = ["id", "received_at_ms"]
            .into_iter()
            .chain(LEAD_FIELDS.iter().map(|f| f.column))
            .collect();
        let arrays: Vec<String> = (1..=names.len())
            .map(|n| format!("${n}::{}", if n == 2 { "int8[]" } else { "text[]" }))
            .collect();
        let (head, fields) = names.split_at(2);
        format!(
            "INSERT INTO leads ({}) SELECT {}, TRUE, {} FROM unnest({}) AS l({})",
            insert_columns(),
            head.join(", "),
            fields.join(", "),
            arrays.join(", "),
            names.join(", ")
        )
    });
    &TEXT
}

/// PostgreSQL: `postgres_insert_leads`, and the funnel's daily counts of those leads in the
/// same statement (docs/decisions/034-the-writer-counts-its-leads.md). The writer gives the
/// group's counts already made, one row per (arrival instant, kind, key): after the leads'
/// arrays, `$n+3` the instants, `$n+4` the kinds, `$n+5` the keys, `$n+6` the numbers of
/// leads. The statement adds what only the database knows: each instant's business day (its
/// zone by `business_zone`) and, from the rows as stored (`RETURNING`), the leads whose
/// number is on the do-not-call list (suppressed). The rows are upserted sorted by (day,
/// kind, key), so that two servers' groups lock the rows they share in one order
/// (docs/decisions/002-group-commit.md). A new lead is never delivered or erased yet.
pub fn postgres_insert_and_count_leads() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let n = LEAD_FIELDS.len() + 2;
        format!(
            "WITH new_leads AS ({} RETURNING received_at_ms, service_slug, delivery_status), \
             counts (at, kind, key, leads, suppressed) AS ( \
                 SELECT at, kind, key, leads, 0 FROM unnest(${}::int8[], ${}::text[], ${}::text[], ${}::int8[]) AS c(at, kind, key, leads) \
                 UNION ALL \
                 SELECT received_at_ms, 'service', service_slug, 0, 1 FROM new_leads WHERE delivery_status = 'suppressed') \
             INSERT INTO lead_days AS d (day, kind, key, leads, suppressed) \
             SELECT (c.at + COALESCE(z.offset_ms, 0)) / 86400000, c.kind, c.key, SUM(c.leads)::int8, SUM(c.suppressed)::int8 \
             FROM counts c LEFT JOIN LATERAL (SELECT offset_ms FROM business_zone WHERE from_ms <= c.at \
                                              ORDER BY from_ms DESC LIMIT 1) z ON TRUE \
             GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 \
             ON CONFLICT (day, kind, key) DO UPDATE SET leads = d.leads + excluded.leads, suppressed = d.suppressed + excluded.suppressed",
            postgres_insert_leads(),
            n + 1,
            n + 2,
            n + 3,
            n + 4
        )
    });
    &TEXT
}

// ---------------------------------------------------------------------------------------
// Erasure (`ERASURE`, `store/erasure.rs`)

/// `col = NULL, col = ''…` for a table's cleared columns (empty when it has none).
pub fn clear_set(table: &TableErasure) -> String {
    table
        .columns
        .iter()
        .filter_map(|(name, fate)| match fate {
            crate::store::Fate::Cleared => Some(format!("{name} = NULL")),
            crate::store::Fate::Emptied => Some(format!("{name} = ''")),
            crate::store::Fate::Deleted | crate::store::Fate::Kept(_) => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `UPDATE leads SET …` of an erasure: the cleared columns, and a delivery status that no
/// longer counts the undelivered notifications (deleted in the same transaction).
fn erase_lead_set() -> String {
    let clear = ERASURE.iter().find(|t| t.table == "leads").map(clear_set).unwrap_or_default();
    format!(
        "{clear}, delivery_status = CASE WHEN delivery_status NOT IN ('pending', 'failed') THEN delivery_status \
         WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'suppressed') THEN 'suppressed' \
         WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.lead_id = leads.id AND o.status = 'delivered') THEN 'delivered' \
         ELSE 'none' END"
    )
}

/// SQLite's erasure of one lead, in the writer's transaction.
pub struct SqliteErasure {
    /// Clears the lead `?1`, erased at `?2`.
    pub lead: String,
    /// Then, in order, each on the lead `?1`: its undelivered notifications deleted, the rest
    /// of the rows about it cleared.
    pub about_it: Vec<String>,
}

pub fn sqlite_erasure() -> SqliteErasure {
    let mut about_it = Vec::new();
    for (t, key) in lead_tables() {
        if let Some(rows) = t.deleted_rows {
            about_it.push(format!("DELETE FROM {} WHERE {key} = ?1 AND {rows}", t.table));
        }
        let set = clear_set(t);
        if !set.is_empty() {
            about_it.push(format!("UPDATE {} SET {set} WHERE {key} = ?1", t.table));
        }
    }
    SqliteErasure {
        lead: format!("UPDATE leads SET {}, erased_ms = ?2 WHERE id = ?1", erase_lead_set()),
        about_it,
    }
}

/// PostgreSQL's erasure of a person, one statement: erase the leads of the phone `$1`, end
/// their notifications, delete the submissions of `$1` or the e-mail `$2` (their e-mails go
/// by cascade), and an audit line per record (at `$3`, by staff `$4` from `$5`, detail
/// `$6`); it answers the leads erased, the submissions deleted and the audit lines.
pub fn postgres_erasure() -> String {
    let mut ctes = vec![format!(
        "l AS (UPDATE leads SET {}, erased_ms = $3::BIGINT WHERE $1::TEXT IS NOT NULL AND phone_e164 = $1 AND erased_ms IS NULL RETURNING id)",
        erase_lead_set()
    )];
    // Each sub-statement sees the rows as they were before the statement, so the rows
    // deleted and the rows cleared must not overlap.
    for (n, (t, key)) in lead_tables().enumerate() {
        let keep = match t.deleted_rows {
            Some(rows) => {
                ctes.push(format!(
                    "d{n} AS (DELETE FROM {} WHERE {key} IN (SELECT id FROM l) AND {rows} RETURNING 1)",
                    t.table
                ));
                format!(" AND NOT ({rows})")
            }
            None => String::new(),
        };
        let set = clear_set(t);
        if !set.is_empty() {
            ctes.push(format!(
                "c{n} AS (UPDATE {} SET {set} WHERE {key} IN (SELECT id FROM l){keep} RETURNING 1)",
                t.table
            ));
        }
    }
    ctes.push(
        "s AS (DELETE FROM submissions WHERE ($1::TEXT IS NOT NULL AND phone = $1) OR ($2::TEXT IS NOT NULL AND email = $2) RETURNING id)"
            .into(),
    );
    ctes.push(
        "a AS (INSERT INTO staff_audit (at_ms, staff_id, action, target, ip, detail) \
         SELECT $3::BIGINT, $4::BIGINT, 'erase', 'lead:' || id, $5::TEXT, $6::TEXT FROM l UNION ALL \
         SELECT $3::BIGINT, $4::BIGINT, 'delete', 'submission:' || id, $5::TEXT, $6::TEXT FROM s RETURNING 1)"
            .into(),
    );
    format!(
        "WITH {} SELECT (SELECT COUNT(*) FROM l), (SELECT COUNT(*) FROM s), (SELECT COUNT(*) FROM a)",
        ctes.join(", ")
    )
}

// ---------------------------------------------------------------------------------------
// The seed (`SeedPlan`, `store/seed.rs`)

/// The statements that add `plan`'s rows, in order, for one transaction (the leads' insert
/// is the second, the notifications' the third: `SeedPlan::seeded` reads their counts). The
/// values are written into the text: numbers, and names `SeedPlan::problem` has checked.
pub fn seed(plan: &SeedPlan, dialect: Dialect) -> Vec<String> {
    let pg = dialect == Dialect::Postgres;
    let (n, newest, spacing, prefix) = (plan.leads, plan.newest_ms, plan.spacing_ms, &plan.id_prefix);
    let case = |of: &str, names: &[&str]| {
        let arms: String = names.iter().enumerate().map(|(k, s)| format!(" WHEN {k} THEN '{s}'")).collect();
        format!("CASE {of}{arms} END")
    };
    let services: Vec<&str> = plan.services.iter().map(String::as_str).collect();
    let service = case(&format!("i % {}", services.len()), &services);
    let name = format!(
        "{} || ' ' || {}",
        case("i % 20", &SEED_FIRST_NAMES),
        case("(i / 20) % 50", &SEED_LAST_NAMES)
    );
    let text = |e: &str| if pg { format!("({e})::text") } else { format!("({e})") };
    let (id, rows, consent) = if pg {
        (
            format!("'{prefix}-' || lpad(i::text, 8, '0')"),
            format!("FROM generate_series(0::BIGINT, {}) AS i", n - 1),
            "TRUE",
        )
    } else {
        (format!("printf('{prefix}-%08d', i)"), "FROM k".to_string(), "1")
    };
    let with = if pg {
        String::new()
    } else {
        format!("WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n}) ")
    };
    let source = format!(
        "CASE WHEN i % 3 = 0 THEN 'google' WHEN i % 7 = 0 THEN 'facebook' WHEN i % 11 = 0 THEN 'newsletter-' || {} END",
        text("i % 40")
    );
    // Each field of `LEAD_FIELDS` the seed fills, with its value; the others stay NULL.
    let phone = format!("'+1412' || {}", text("2000000 + i"));
    let value = |column: &str| -> Option<String> {
        match column {
            "service_slug" => Some(service.clone()),
            "full_name" => Some(name.clone()),
            "phone_e164" => Some(phone.clone()),
            "zip_code" => Some("'15213'".into()),
            "consent_sha256" => Some(format!("'{SEED_CONSENT_SHA256}'")),
            "utm_source" => Some(source.clone()),
            _ => None,
        }
    };
    let (columns, values): (Vec<&str>, Vec<String>) = LEAD_FIELDS.iter().filter_map(|f| Some((f.column, value(f.column)?))).unzip();
    let mut statements = vec![
        format!(
            "INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ('{SEED_CONSENT_SHA256}', '{SEED_CONSENT_TEXT}', 0) \
             ON CONFLICT DO NOTHING"
        ),
        format!(
            "{with}INSERT INTO leads (id, received_at_ms, {}, consent, delivery_status) \
             SELECT {id}, {newest} - i * {spacing}, {}, {consent}, \
             CASE WHEN i % {SEED_SUPPRESSED_EVERY} = 0 THEN 'suppressed' ELSE 'pending' END {rows}",
            columns.join(", "),
            values.join(", "),
        ),
    ];
    if plan.notifications {
        // The lead's number, from its arrival (the id's digits would need a dialect each).
        let i = format!("(({newest} - received_at_ms) / {})", spacing.max(1));
        let took = format!("CASE WHEN {i} % 10 = 0 THEN 60000 + ({i} * 7919) % 600000 ELSE 1000 + ({i} * 7919) % 20000 END");
        let failed = format!("{i} % {SEED_FAILED_EVERY} = 0");
        // Written done rather than pending-then-delivered: the outbox's status trigger
        // looks the lead's rows up by status, and a million pending rows at once make that
        // walk them all for each row.
        let chosen =
            format!("id LIKE '{prefix}-%' AND delivery_status = 'pending' AND NOT ({i} % {SEED_PENDING_EVERY} = 0 AND NOT {failed})");
        statements.push(format!(
            "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms, delivered_ms, last_error) \
             SELECT id, 'email', CASE WHEN {failed} THEN 'failed' ELSE 'delivered' END, 1, received_at_ms, received_at_ms, \
             CASE WHEN {failed} THEN NULL ELSE received_at_ms + {took} END, \
             CASE WHEN {failed} THEN 'connection refused' END FROM leads WHERE {chosen}"
        ));
        statements.push(format!(
            "INSERT INTO delivery_attempts (outbox_id, lead_id, channel, at_ms, outcome, error) \
             SELECT id, lead_id, channel, COALESCE(delivered_ms, created_ms + 1000), \
             CASE status WHEN 'failed' THEN 'failed' ELSE 'delivered' END, last_error \
             FROM outbox WHERE lead_id LIKE '{prefix}-%' AND channel = 'email' AND status IN ('delivered', 'failed')"
        ));
        statements.push(format!(
            "UPDATE leads SET delivery_status = CASE WHEN {failed} THEN 'failed' ELSE 'delivered' END WHERE {chosen}"
        ));
    }
    statements
}

// ---------------------------------------------------------------------------------------
// The migrations' bookkeeping (`store/migrations.rs`)

/// The rows of `schema_migrations`, in version order, on a database whose table may lack
/// the columns added since its first release (`has` says which it has): a missing one is
/// read as NULL.
pub fn applied_migrations(dialect: Dialect, has: impl Fn(&str) -> bool) -> String {
    let column = |name: &str, pg_type: &str| match (has(name), dialect) {
        (true, _) => name.to_string(),
        (false, Dialect::Sqlite) => "NULL".to_string(),
        (false, Dialect::Postgres) => format!("NULL::{pg_type}"),
    };
    format!(
        "SELECT version, {}, {}, {}, {} FROM schema_migrations ORDER BY version",
        column("name", "text"),
        column("checksum", "text"),
        column("applied_by", "text"),
        column("compatible_back_to", "bigint")
    )
}

/// Adds one of `migrations::ADDED_COLUMNS` to an older `schema_migrations` (PostgreSQL's
/// only when it is missing; SQLite's is only run then).
pub fn add_migration_column(dialect: Dialect, column: &str) -> Option<String> {
    let (_, sqlite_type, pg_type) = migrations::ADDED_COLUMNS.iter().find(|(c, _, _)| *c == column)?;
    Some(match dialect {
        Dialect::Sqlite => format!("ALTER TABLE schema_migrations ADD COLUMN {column} {sqlite_type}"),
        Dialect::Postgres => format!("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS {column} {pg_type}"),
    })
}

// ---------------------------------------------------------------------------------------
// Backups (`sqlite/backup.rs`)

/// How many rows the table `table` has (a name the database listed, quoted).
pub fn count_rows(table: &str) -> String {
    format!("SELECT COUNT(*) FROM \"{}\"", table.replace('"', "\"\""))
}

// ---------------------------------------------------------------------------------------
// PostgreSQL's sessions

/// What every connection of the store runs first: its name, so operators (and tests) can
/// tell our sessions apart in pg_stat_activity, and the test's schema (made first when
/// `create`). The schema's name is letters, digits and `_` (`PgStore::connect_pooled`
/// refuses any other).
pub fn pg_session_setup(schema: Option<&str>, create: bool) -> String {
    match schema {
        Some(schema) => {
            let make = if create {
                format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\"; ")
            } else {
                String::new()
            };
            format!("SET application_name = 'site-server:{schema}'; {make}SET search_path TO \"{schema}\"")
        }
        None => "SET application_name = 'site-server'".to_string(),
    }
}

/// What the outbox's listener runs first: its name (apart from the store's sessions) and
/// `LISTEN` on `channel`.
pub fn pg_listener_setup(schema: Option<&str>, channel: &str, name: &str) -> String {
    let name = match schema {
        Some(schema) => format!("{name}:{schema}"),
        None => name.to_string(),
    };
    format!("SET application_name = '{name}'; LISTEN {channel}")
}

// ---------------------------------------------------------------------------------------

/// One statement of every shape this file makes for `dialect`, by what made it: every
/// filter of the lead list at once and none, each name route, the erasure, a seed with
/// notifications, the migrations' reads with and without the added columns. The store tests
/// prepare each on `dialect`'s database. (`ALTER TABLE … ADD COLUMN` of a column the table
/// has is left out on SQLite, which refuses it when prepared.)
pub fn examples(dialect: Dialect) -> Vec<(String, String)> {
    let every = LeadFilter {
        service: Some("hvac".into()),
        status: Some("pending".into()),
        phone: Some("+14125550134".into()),
        name_words: vec!["ana".into(), "garcia".into()],
        from_ms: Some(1),
        to_ms: Some(2),
        before: Some((3, "id".into())),
    };
    let none = LeadFilter::default();
    let mut out = vec![("lead".to_string(), lead(dialect).to_string())];
    out.push(match dialect {
        Dialect::Sqlite => ("sqlite_insert_lead".into(), sqlite_insert_lead().into()),
        Dialect::Postgres => ("postgres_insert_leads".into(), postgres_insert_leads().into()),
    });
    if dialect == Dialect::Postgres {
        out.push(("postgres_insert_and_count_leads".into(), postgres_insert_and_count_leads().into()));
    }
    for (label, filter) in [("every filter", &every), ("no filter", &none)] {
        for route in [NameRoute::ByIndex, NameRoute::WhileWalking] {
            out.push((format!("lead_list, {label}, {route:?}"), lead_list(filter, dialect, route, 51).0));
        }
        if dialect == Dialect::Postgres {
            out.push((format!("lead_list_name_walk, {label}"), lead_list_name_walk(filter, 5000, 51).0));
            out.push((format!("lead_list_by_name_index, {label}"), lead_list_by_name_index(filter, 51).0));
        }
    }
    match dialect {
        Dialect::Sqlite => {
            let erasure = sqlite_erasure();
            out.push(("sqlite_erasure.lead".into(), erasure.lead));
            for (n, s) in erasure.about_it.into_iter().enumerate() {
                out.push((format!("sqlite_erasure.about_it[{n}]"), s));
            }
        }
        Dialect::Postgres => out.push(("postgres_erasure".into(), postgres_erasure())),
    }
    let plan = SeedPlan {
        leads: 3,
        newest_ms: 1_000_000,
        spacing_ms: 10,
        id_prefix: "example".into(),
        services: vec!["hvac".into(), "roofing".into()],
        notifications: true,
    };
    for (n, s) in seed(&plan, dialect).into_iter().enumerate() {
        out.push((format!("seed[{n}]"), s));
    }
    out.push(("count_rows(leads)".into(), count_rows("leads")));
    out.push(("applied_migrations, every column".into(), applied_migrations(dialect, |_| true)));
    out.push(("applied_migrations, none added".into(), applied_migrations(dialect, |_| false)));
    if dialect == Dialect::Postgres {
        for schema in [None, Some("example_schema")] {
            for create in [false, true] {
                out.push((format!("pg_session_setup({schema:?}, {create})"), pg_session_setup(schema, create)));
            }
            out.push((
                format!("pg_listener_setup({schema:?})"),
                pg_listener_setup(schema, "site_outbox", "site-listener"),
            ));
        }
        for (column, _, _) in migrations::ADDED_COLUMNS {
            if let Some(s) = add_migration_column(dialect, column) {
                out.push((format!("add_migration_column({column})"), s));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_where_clause_numbers_its_parameters() {
        let filter = LeadFilter {
            service: Some("hvac".into()),
            phone: Some("+14125550134".into()),
            name_words: vec!["ana".into()],
            before: Some((5, "id".into())),
            ..Default::default()
        };
        let (sql, params) = lead_where(&filter, Dialect::Postgres, NameRoute::ByIndex);
        assert_eq!(
            sql,
            "WHERE l.service_slug = $1 AND l.phone_e164 = $2 AND to_tsvector('simple', l.full_name) @@ to_tsquery('simple', $3) AND (l.received_at_ms, l.id) < ($4, $5)"
        );
        assert_eq!(params[2], Param::Text("ana:*".into()));
        let (sql, _) = lead_where(&filter, Dialect::Sqlite, NameRoute::ByIndex);
        assert!(
            sql.contains("AND l.rowid IN") && sql.contains("MATCH ?3") && sql.contains("< (?4, ?5)"),
            "{sql}"
        );
        let (sql, _) = lead_where(&filter, Dialect::Sqlite, NameRoute::WhileWalking);
        assert!(sql.contains("AND +l.rowid IN") && sql.contains("MATCH ?3"), "{sql}");
        assert_eq!(lead_where(&LeadFilter::default(), Dialect::Sqlite, NameRoute::ByIndex).0, "");
    }

    #[test]
    fn a_name_walk_numbers_the_name_after_the_other_filters() {
        let filter = LeadFilter {
            service: Some("hvac".into()),
            name_words: vec!["ana".into()],
            ..Default::default()
        };
        let (sql, params) = lead_list_name_walk(&filter, 5000, 51);
        assert!(
            sql.contains("l.service_slug = $1") && sql.contains("to_tsquery('simple', $2)"),
            "{sql}"
        );
        assert_eq!(params, [Param::Text("hvac".into()), Param::Text("ana:*".into())]);
    }

    /// The seed writes every lead a NOT NULL field cannot be without; it knows its fields by
    /// their columns, so a new required one needs its value there.
    #[test]
    fn the_seed_fills_every_field_that_cannot_be_null() {
        let plan = SeedPlan {
            leads: 1,
            newest_ms: 1,
            spacing_ms: 1,
            id_prefix: "t".into(),
            services: vec!["hvac".into()],
            notifications: false,
        };
        for dialect in [Dialect::Sqlite, Dialect::Postgres] {
            let statements = seed(&plan, dialect);
            let columns: Vec<&str> = statements[1]
                .split("INSERT INTO leads (")
                .nth(1)
                .and_then(|rest| rest.split(')').next())
                .unwrap_or_default()
                .split(", ")
                .collect();
            assert!(columns.contains(&"utm_source"), "{columns:?}");
            for f in LEAD_FIELDS.iter().filter(|f| f.sql_type.ends_with("NOT NULL")) {
                assert!(
                    columns.contains(&f.column),
                    "{}: NOT NULL, and the seed gives it no value: add it to `value` in `seed` (server/src/store/sql/built.rs)",
                    f.column
                );
            }
        }
    }

    #[test]
    fn the_inserts_give_each_field_its_place() {
        let sqlite = sqlite_insert_lead();
        assert!(
            sqlite.starts_with("INSERT INTO leads (id, received_at_ms, consent, service_slug, full_name, phone_e164,"),
            "{sqlite}"
        );
        assert!(sqlite.contains("VALUES (?1, ?2, 1, ?3, ?4,"), "{sqlite}");
        assert!(sqlite.ends_with(&format!("?{})", LEAD_FIELDS.len() + 2)), "{sqlite}");
        let pg = postgres_insert_leads();
        assert!(
            pg.contains("SELECT id, received_at_ms, TRUE, service_slug,") && pg.contains("unnest($1::text[], $2::int8[], $3::text[]"),
            "{pg}"
        );
        assert!(pg.contains(&format!("${}::text[])", LEAD_FIELDS.len() + 2)), "{pg}");
    }
}
