//! `site copy-store --from sqlite://PATH --to postgres://…`: moves a site from SQLite to
//! PostgreSQL. Every table of `ops::tables` is copied in its order, in batches of rows (one
//! transaction each), from one read snapshot of the SQLite file; then each table's row
//! count and a content hash (SHA-256 over its rows in key order, each value in one
//! canonical form whatever the backend's type) are computed on both sides, printed and
//! compared. It copies only into a database that holds no rows (so a second run refuses),
//! and only while no server holds the SQLite file (so no lead arrives after the copy).
//!
//! PostgreSQL keeps some columns with triggers (docs/decisions/010): they are switched off
//! for the table inside each batch's transaction, so rows arrive exactly as they were (a
//! crash mid-batch rolls that back too). Sequences are set past the copied ids afterwards.
//!
//! One thing cannot arrive as it was: a NUL character in text, which PostgreSQL's text
//! cannot hold; `values.rs` says what copy-store does with it.
//!
//! The funnel's daily counts (`lead_days`) are not copied: they are counted anew on the copy
//! from the leads copied, in the zone copied (`business_zone`), so they are exactly what the
//! copy's own triggers and recount make of those leads, and an erasure on the copy finds
//! every source it counted (docs/decisions/012).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

mod values;

use rusqlite::{Connection, OpenFlags};
use tokio_postgres::Client;
use tokio_postgres::types::{ToSql, Type};

use super::lock::DatabaseLock;
use super::tables::{self, TABLES, Table};
use crate::store::sqlite::backup as sqlite_backup;
use crate::store::{migrations, postgres, sqlite};
use values::{Param, Tally, Value, clean_for_postgres, param, pg_value};

/// Rows read from SQLite (and inserted into PostgreSQL) at a time, at most.
const BATCH_ROWS: usize = 1000;
/// PostgreSQL takes at most 65535 parameters in one statement.
const MAX_PARAMS: usize = 60_000;

/// A table's figures on both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableFigures {
    pub name: &'static str,
    pub sqlite_rows: u64,
    pub postgres_rows: u64,
    pub sqlite_hash: String,
    pub postgres_hash: String,
    /// Values cleaned on the way (a NUL removed from text), by column.
    pub cleaned: BTreeMap<String, u64>,
}

impl TableFigures {
    pub fn equal(&self) -> bool {
        self.sqlite_rows == self.postgres_rows && self.sqlite_hash == self.postgres_hash
    }
}

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// What is known of one table before copying it.
struct Plan {
    table: Table,
    columns: Vec<String>,
    /// PostgreSQL's type of each column, in `columns` order.
    types: Vec<Type>,
    key_index: usize,
    has_triggers: bool,
}

/// Copies the SQLite database at `from` into the PostgreSQL database `to` (in `schema`
/// when given: tests), verifies it, and returns every table's figures (printed to `out`).
pub async fn copy_store(from: &Path, to: &str, schema: Option<&str>, out: &mut impl Write) -> Result<Vec<TableFigures>, String> {
    if !from.is_file() {
        return Err(format!("no SQLite database at {}", from.display()));
    }
    let _lock = DatabaseLock::acquire(from).map_err(|e| super::restore::server_running(&e, from))?;
    let source = open_source(from)?;
    let mut pg = postgres::connect_migrated(to, schema)
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    check_tables(&source, &pg).await?;
    refuse_non_empty(&pg).await?;
    let mut plans = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        plans.push(plan(&source, &pg, *table).await?);
    }
    // One snapshot of the whole file for the copy and its figures.
    source.execute_batch("BEGIN").map_err(|e| e.to_string())?;
    let mut figures = Vec::with_capacity(plans.len());
    for p in &plans {
        let started = std::time::Instant::now();
        let (rows, hash, cleaned) = copy_table(&source, &pg, p).await?;
        let _ = writeln!(
            out,
            "copied {:<20} {rows:>9} rows in {} ms",
            p.table.name,
            started.elapsed().as_millis()
        );
        for (column, n) in &cleaned {
            let _ = writeln!(
                out,
                "cleaned {}.{column}: {n} value(s) held a NUL character, which PostgreSQL cannot store; it was removed",
                p.table.name
            );
        }
        figures.push((p, rows, hash, cleaned));
    }
    let next_ids = sqlite_sequences(&source)?;
    let _ = source.execute_batch("COMMIT");
    set_sequences(&pg, &plans, &next_ids).await?;
    analyze(&pg, &plans).await?;
    let started = std::time::Instant::now();
    let counted = postgres::count_lead_days(&mut pg)
        .await
        .map_err(|e| format!("PostgreSQL, counting the funnel's daily counts (lead_days) from the copied leads: {e}"))?;
    let _ = writeln!(
        out,
        "counted lead_days {counted:>9} rows anew from the copied leads in {} ms",
        started.elapsed().as_millis()
    );
    let mut result = Vec::with_capacity(figures.len());
    for (p, rows, hash, cleaned) in figures {
        let (pg_rows, pg_hash) = postgres_tally(&pg, p).await?;
        result.push(TableFigures {
            name: p.table.name,
            sqlite_rows: rows,
            postgres_rows: pg_rows,
            sqlite_hash: hash,
            postgres_hash: pg_hash,
            cleaned,
        });
    }
    print_figures(&result, out).map_err(|e| e.to_string())?;
    if let Some(bad) = result.iter().find(|f| !f.equal()) {
        return Err(format!(
            "table {} differs after the copy (rows {} against {}): do not switch to the copy; drop it and run copy-store again",
            bad.name, bad.sqlite_rows, bad.postgres_rows
        ));
    }
    let cleaned: u64 = result.iter().flat_map(|f| f.cleaned.values()).sum();
    if cleaned > 0 {
        let _ = writeln!(
            out,
            "{cleaned} value(s) arrived without the NUL characters they held (the \"cleaned\" lines above; the hashes compare the values as copied)"
        );
    }
    let _ = writeln!(
        out,
        "every table is equal on both sides: point DATABASE_URL at the PostgreSQL database and start the site"
    );
    Ok(result)
}

/// The table of figures, one line per table.
pub fn print_figures(figures: &[TableFigures], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<20} {:>12} {:>12}  {:<16}  {:<16}",
        "table", "sqlite rows", "pg rows", "sqlite sha256", "pg sha256"
    )?;
    for f in figures {
        writeln!(
            out,
            "{:<20} {:>12} {:>12}  {:<16}  {:<16}  {}",
            f.name,
            f.sqlite_rows,
            f.postgres_rows,
            &f.sqlite_hash[..16],
            &f.postgres_hash[..16],
            if f.equal() { "equal" } else { "DIFFERENT" }
        )?;
    }
    Ok(())
}

fn open_source(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let applied = sqlite::applied_migrations(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
    if applied.is_empty() {
        return Err(format!("{} is not a site database (no schema_migrations table)", path.display()));
    }
    let pending = migrations::pending(migrations::sqlite(), &applied).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(first) = pending.first() {
        return Err(format!(
            "{} lacks migration {:04} ({}): start this version of the site on it once (it applies its migrations), stop it, then copy",
            path.display(),
            first.version,
            first.name
        ));
    }
    Ok(conn)
}

/// The tables each side defines, against the list: one that is neither copied nor left out
/// on purpose stops the copy before it begins.
async fn check_tables(source: &Connection, pg: &Client) -> Result<(), String> {
    let in_sqlite = sqlite_backup::user_tables(source).map_err(|e| e.to_string())?;
    let in_postgres = postgres_tables(pg).await?;
    for (side, present) in [("SQLite", &in_sqlite), ("PostgreSQL", &in_postgres)] {
        let unlisted = tables::unlisted(present);
        if !unlisted.is_empty() {
            return Err(format!(
                "the {side} database has tables copy-store does not know: {} (add them to server/src/ops/tables.rs)",
                unlisted.join(", ")
            ));
        }
        if let Some(missing) = TABLES.iter().find(|t| !present.iter().any(|p| p == t.name)) {
            return Err(format!("the {side} database has no table {}", missing.name));
        }
    }
    Ok(())
}

/// The base tables of the current schema of a PostgreSQL database.
pub async fn postgres_tables(pg: &Client) -> Result<Vec<String>, String> {
    let rows = pg
        .query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
            &[],
        )
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

async fn refuse_non_empty(pg: &Client) -> Result<(), String> {
    for table in TABLES {
        let any: bool = pg
            .query_one(&format!("SELECT EXISTS (SELECT 1 FROM {})", quote(table.name)), &[])
            .await
            .map_err(|e| format!("PostgreSQL: {e}"))?
            .get(0);
        if any {
            return Err(format!(
                "the PostgreSQL database is not empty (table {} has rows): copy-store copies only into an empty database, \
                 so it never mixes two sites' data or copies twice. If an earlier copy stopped half-way, drop and create \
                 the database again (`dropdb NAME && createdb -O OWNER NAME`), then run copy-store again",
                table.name
            ));
        }
    }
    Ok(())
}

async fn plan(source: &Connection, pg: &Client, table: Table) -> Result<Plan, String> {
    let columns: Vec<String> = {
        let mut stmt = source
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .map_err(|e| e.to_string())?;
        let rows = stmt.query_map([table.name], |r| r.get::<_, String>(0)).map_err(|e| e.to_string())?;
        rows.collect::<Result<_, _>>().map_err(|e| e.to_string())?
    };
    let pg_columns: Vec<String> = pg
        .query(
            "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
            &[&table.name],
        )
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let only_sqlite: Vec<&str> = columns.iter().filter(|c| !pg_columns.contains(c)).map(String::as_str).collect();
    let only_pg: Vec<&str> = pg_columns.iter().filter(|c| !columns.contains(c)).map(String::as_str).collect();
    if !only_sqlite.is_empty() || !only_pg.is_empty() {
        return Err(format!(
            "table {}: the columns differ (only in SQLite: {}; only in PostgreSQL: {}): the two migrations do not match",
            table.name,
            if only_sqlite.is_empty() {
                "none".into()
            } else {
                only_sqlite.join(", ")
            },
            if only_pg.is_empty() { "none".into() } else { only_pg.join(", ") },
        ));
    }
    let key_index = columns
        .iter()
        .position(|c| c == table.key)
        .ok_or_else(|| format!("table {} has no column {}", table.name, table.key))?;
    let list = columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
    let probe = pg
        .prepare(&format!("SELECT {list} FROM {} LIMIT 0", quote(table.name)))
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    let types = probe.columns().iter().map(|c| c.type_().clone()).collect();
    let has_triggers: bool = pg
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal)",
            &[&table.name],
        )
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?
        .get(0);
    Ok(Plan {
        table,
        columns,
        types,
        key_index,
        has_triggers,
    })
}

/// The rows of one SQLite page after `after` (by key), at most `limit`.
fn sqlite_page(source: &Connection, p: &Plan, after: Option<&Value>, limit: usize) -> Result<Vec<Vec<Value>>, String> {
    let list = p.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
    let key = quote(p.table.key);
    let table = quote(p.table.name);
    let sql = match after {
        None => format!("SELECT {list} FROM {table} ORDER BY {key} LIMIT ?1"),
        Some(_) => format!("SELECT {list} FROM {table} WHERE {key} > ?2 ORDER BY {key} LIMIT ?1"),
    };
    let mut stmt = source.prepare_cached(&sql).map_err(|e| e.to_string())?;
    let n = p.columns.len();
    let read = |r: &rusqlite::Row<'_>| -> rusqlite::Result<Vec<Value>> {
        (0..n)
            .map(|i| r.get::<_, rusqlite::types::Value>(i).map(Value::from_sqlite))
            .collect()
    };
    let rows = match after {
        None => stmt.query_map(rusqlite::params![limit as i64], read),
        Some(Value::Int(k)) => stmt.query_map(rusqlite::params![limit as i64, k], read),
        Some(Value::Text(k)) => stmt.query_map(rusqlite::params![limit as i64, k], read),
        Some(other) => return Err(format!("table {}: a key of unexpected type ({other:?})", p.table.name)),
    }
    .map_err(|e| e.to_string())?;
    rows.collect::<Result<_, _>>().map_err(|e| format!("table {}: {e}", p.table.name))
}

/// Copies one table; its row count and hash as copied, and the values cleaned, by column.
async fn copy_table(source: &Connection, pg: &Client, p: &Plan) -> Result<(u64, String, BTreeMap<String, u64>), String> {
    let table = p.table.name;
    let n = p.columns.len();
    let batch = BATCH_ROWS.min(MAX_PARAMS / n.max(1)).max(1);
    let list = p.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
    let mut tally = Tally::default();
    let mut cleaned: BTreeMap<String, u64> = BTreeMap::new();
    let mut after: Option<Value> = None;
    loop {
        let mut rows = sqlite_page(source, p, after.as_ref(), batch)?;
        if rows.is_empty() {
            break;
        }
        // The next page starts after this one's last key as SQLite has it.
        let last_key = rows.last().map(|row| row[p.key_index].clone());
        let mut params: Vec<Param> = Vec::with_capacity(rows.len() * n);
        let mut values = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter_mut().enumerate() {
            for (i, v) in row.iter_mut().enumerate() {
                if clean_for_postgres(v) {
                    *cleaned.entry(p.columns[i].clone()).or_default() += 1;
                }
            }
            tally.add(row);
            let placeholders: Vec<String> = (1..=n).map(|c| format!("${}", r * n + c)).collect();
            values.push(format!("({})", placeholders.join(", ")));
            for (i, v) in row.iter().enumerate() {
                params.push(param(v, &p.types[i], table, &p.columns[i])?);
            }
        }
        let sql = format!("INSERT INTO {} ({list}) VALUES {}", quote(table), values.join(", "));
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|b| b.as_ref() as &(dyn ToSql + Sync)).collect();
        let pg_err = |e: tokio_postgres::Error| format!("PostgreSQL, table {table}: {}", crate::store::StoreError::from(e));
        // One transaction per batch; the table's triggers are off inside it only.
        pg.batch_execute("BEGIN").await.map_err(pg_err)?;
        let result = async {
            if p.has_triggers {
                pg.batch_execute(&format!("ALTER TABLE {} DISABLE TRIGGER USER", quote(table)))
                    .await?;
            }
            pg.execute(&sql, &refs).await?;
            if p.has_triggers {
                pg.batch_execute(&format!("ALTER TABLE {} ENABLE TRIGGER USER", quote(table)))
                    .await?;
            }
            pg.batch_execute("COMMIT").await
        }
        .await;
        if let Err(e) = result {
            let _ = pg.batch_execute("ROLLBACK").await;
            return Err(pg_err(e));
        }
        after = last_key;
        if rows.len() < batch {
            break;
        }
    }
    let (rows, hash) = tally.finish();
    Ok((rows, hash, cleaned))
}

/// SQLite's AUTOINCREMENT high-water marks (ids once used, even if their rows are gone).
fn sqlite_sequences(source: &Connection) -> Result<Vec<(String, i64)>, String> {
    let exists: bool = source
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| e.to_string())?;
    if !exists {
        return Ok(Vec::new());
    }
    let mut stmt = source.prepare("SELECT name, seq FROM sqlite_sequence").map_err(|e| e.to_string())?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .map_err(|e| e.to_string())?;
    rows.collect::<Result<_, _>>().map_err(|e| e.to_string())
}

/// Gives the planner the copied tables' statistics before anything queries them. Tables just
/// filled have none, and without them the funnel's recount looked up each lead's delivery
/// through the partial index of every delivered notification as well as by its lead: for
/// 100,000 leads, 565 s instead of 24 (`make bench`, section 9), growing with the square of the
/// site.
async fn analyze(pg: &Client, plans: &[Plan]) -> Result<(), String> {
    for p in plans {
        pg.batch_execute(&format!("ANALYZE {}", quote(p.table.name)))
            .await
            .map_err(|e| format!("PostgreSQL, ANALYZE {}: {e}", p.table.name))?;
    }
    Ok(())
}

/// Sets each serial column's sequence past the highest id copied (and past any id SQLite
/// ever handed out), so the next row PostgreSQL numbers never reuses one.
async fn set_sequences(pg: &Client, plans: &[Plan], high_water: &[(String, i64)]) -> Result<(), String> {
    for p in plans {
        let sequence: Option<String> = pg
            .query_one("SELECT pg_get_serial_sequence($1, $2)", &[&p.table.name, &p.table.key])
            .await
            .map_err(|e| format!("PostgreSQL: {e}"))?
            .get(0);
        let Some(sequence) = sequence else { continue };
        let used = high_water.iter().find(|(n, _)| n == p.table.name).map_or(0, |(_, s)| *s);
        pg.execute(
            &format!(
                "SELECT setval($1::text::regclass, GREATEST($2::bigint, COALESCE((SELECT MAX({}) FROM {}), 0)) + 1, false)",
                quote(p.table.key),
                quote(p.table.name)
            ),
            &[&sequence, &used],
        )
        .await
        .map_err(|e| format!("PostgreSQL, sequence {sequence}: {e}"))?;
    }
    Ok(())
}

/// Row count and hash of a PostgreSQL table, read in the order SQLite's were (by key; text
/// keys byte by byte, as SQLite compares them).
async fn postgres_tally(pg: &Client, p: &Plan) -> Result<(u64, String), String> {
    let list = p.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
    let text_key = p.types[p.key_index] == Type::TEXT || p.types[p.key_index] == Type::VARCHAR;
    let key = if text_key {
        format!("({} COLLATE \"C\")", quote(p.table.key))
    } else {
        quote(p.table.key)
    };
    let table = quote(p.table.name);
    let first = format!("SELECT {list} FROM {table} ORDER BY {key} LIMIT {BATCH_ROWS}");
    let next = format!("SELECT {list} FROM {table} WHERE {key} > $1 ORDER BY {key} LIMIT {BATCH_ROWS}");
    let mut tally = Tally::default();
    let mut after: Option<Value> = None;
    loop {
        let rows = match &after {
            None => pg.query(&first, &[]).await,
            Some(Value::Int(k)) => pg.query(&next, &[k]).await,
            Some(Value::Text(k)) => pg.query(&next, &[k]).await,
            Some(other) => return Err(format!("table {}: a key of unexpected type ({other:?})", p.table.name)),
        }
        .map_err(|e| format!("PostgreSQL, table {}: {e}", p.table.name))?;
        let count = rows.len();
        for row in &rows {
            let values = (0..p.columns.len()).map(|i| pg_value(row, i)).collect::<Result<Vec<_>, _>>()?;
            tally.add(&values);
            after = Some(values[p.key_index].clone());
        }
        if count < BATCH_ROWS {
            break;
        }
    }
    Ok(tally.finish())
}

/// `--from sqlite://PATH`: the path.
pub fn source_path(from: &str) -> Result<PathBuf, String> {
    super::sqlite_path(from).ok_or_else(|| format!("--from must be sqlite://PATH (got {from:?})"))
}

/// For tests: the SQLite table names `check_tables` compares with the list.
pub fn sqlite_tables(path: &Path) -> Result<Vec<String>, String> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|e| e.to_string())?;
    sqlite_backup::user_tables(&conn).map_err(|e| e.to_string())
}
