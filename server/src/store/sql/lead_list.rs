//! The console's lead list, built at run time for either dialect: its filters as a WHERE
//! clause with numbered parameters, and the route a name search takes (the full-text index,
//! a walk of the name index, or PostgreSQL's trigram match). `built` re-exports it.

use std::sync::LazyLock;

use super::Dialect;
use crate::store::LeadFilter;
use crate::store::lead_fields::{ROW_HEAD, exported};

/// A query parameter of the list's SQL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    Text(String),
    Int(i64),
}

/// How the list applies the name filter on SQLite. Through the name index, every match is
/// read and sorted by time: cheap when few leads match, slow when tens of thousands do. While
/// walking a time-ordered index (`leads_list` or one of its filtered siblings), the matches
/// are only a set to test against and the walk stops at the page's end: cheap when many
/// leads match, a walk of the whole index when few do. PostgreSQL's planner makes this
/// choice from its statistics of the name index's words, but a word it has no statistics for
/// (a rare name, a typo) makes it walk the whole time index: see `PgStore::list_leads`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRoute {
    ByIndex,
    WhileWalking,
}

/// Name matches from which SQLite walks the time index instead (measured on 1M leads: at
/// 2,000 matches both routes cost a few ms; at 50,000 the index route costs ~110 ms of CPU
/// and the walk ~8 ms; at 1 match the walk costs ~115 ms and the index route ~3 ms).
pub const MANY_NAME_MATCHES: i64 = 2000;

/// The FTS5 query for the name words: each word a prefix, all of them required.
pub fn fts_name_query(words: &[String]) -> String {
    words.iter().map(|w| format!("\"{w}\"*")).collect::<Vec<_>>().join(" ")
}

/// The tsquery for the name words on PostgreSQL: each word a prefix, all of them required.
pub fn pg_name_query(words: &[String]) -> String {
    words.iter().map(|w| format!("{w}:*")).collect::<Vec<_>>().join(" & ")
}

/// The columns a `LeadRow` reads, of `leads l`: `ROW_HEAD`, then each exported field's
/// (`lead_fields::exported`).
pub fn lead_row_columns() -> &'static str {
    static COLUMNS: LazyLock<String> = LazyLock::new(|| {
        let fields = exported().map(|f| format!("l.{}", f.column));
        ROW_HEAD.iter().map(|c| c.to_string()).chain(fields).collect::<Vec<_>>().join(", ")
    });
    &COLUMNS
}

/// The WHERE clause (with its parameters) for `filter`, numbered from 1.
pub fn lead_where(filter: &LeadFilter, dialect: Dialect, route: NameRoute) -> (String, Vec<Param>) {
    let mut conds: Vec<String> = Vec::new();
    let mut params: Vec<Param> = Vec::new();
    let next = |p: Param, params: &mut Vec<Param>| {
        params.push(p);
        dialect.placeholder(params.len())
    };
    if let Some(s) = &filter.service {
        conds.push(format!("l.service_slug = {}", next(Param::Text(s.clone()), &mut params)));
    }
    if let Some(s) = &filter.status {
        conds.push(format!("l.delivery_status = {}", next(Param::Text(s.clone()), &mut params)));
    }
    if let Some(p) = &filter.phone {
        conds.push(format!("l.phone_e164 = {}", next(Param::Text(p.clone()), &mut params)));
    }
    if let Some(from) = filter.from_ms {
        conds.push(format!("l.received_at_ms >= {}", next(Param::Int(from), &mut params)));
    }
    if let Some(to) = filter.to_ms {
        conds.push(format!("l.received_at_ms < {}", next(Param::Int(to), &mut params)));
    }
    if !filter.name_words.is_empty() {
        match dialect {
            Dialect::Sqlite => {
                // A unary `+` keeps SQLite from looking the matches up by rowid, so it walks
                // the time index and tests each row against the set of matches.
                let plus = if route == NameRoute::WhileWalking { "+" } else { "" };
                conds.push(format!(
                    "{plus}l.rowid IN (SELECT rowid FROM lead_names WHERE lead_names MATCH {})",
                    next(Param::Text(fts_name_query(&filter.name_words)), &mut params)
                ));
            }
            Dialect::Postgres => {
                conds.push(format!(
                    "to_tsvector('simple', l.full_name) @@ to_tsquery('simple', {})",
                    next(Param::Text(pg_name_query(&filter.name_words)), &mut params)
                ));
            }
        }
    }
    if let Some((ms, id)) = &filter.before {
        let a = next(Param::Int(*ms), &mut params);
        let b = next(Param::Text(id.clone()), &mut params);
        conds.push(format!("(l.received_at_ms, l.id) < ({a}, {b})"));
    }
    if conds.is_empty() {
        (String::new(), params)
    } else {
        (format!("WHERE {}", conds.join(" AND ")), params)
    }
}

/// The leads `filter` matches, newest first, at most `limit`.
pub fn lead_list(filter: &LeadFilter, dialect: Dialect, route: NameRoute, limit: usize) -> (String, Vec<Param>) {
    let (clause, params) = lead_where(filter, dialect, route);
    let columns = lead_row_columns();
    let sql = format!("SELECT {columns} FROM leads l {clause} ORDER BY l.received_at_ms DESC, l.id DESC LIMIT {limit}");
    (sql, params)
}

/// PostgreSQL: the newest `walk` leads of `filter`'s other filters, then those of them whose
/// name matches, at most `limit` (`PgStore::list_leads` says when).
pub fn lead_list_name_walk(filter: &LeadFilter, walk: usize, limit: usize) -> (String, Vec<Param>) {
    let others = LeadFilter {
        name_words: Vec::new(),
        ..filter.clone()
    };
    let (clause, mut params) = lead_where(&others, Dialect::Postgres, NameRoute::ByIndex);
    params.push(Param::Text(pg_name_query(&filter.name_words)));
    let columns = lead_row_columns();
    let sql = format!(
        "SELECT {columns} FROM (SELECT {columns} FROM leads l {clause} \
         ORDER BY l.received_at_ms DESC, l.id DESC LIMIT {walk}) l \
         WHERE to_tsvector('simple', l.full_name) @@ to_tsquery('simple', ${}) \
         ORDER BY l.received_at_ms DESC, l.id DESC LIMIT {limit}",
        params.len()
    );
    (sql, params)
}

/// PostgreSQL: as [`lead_list`], its name matches read from the name index and sorted (`+ 0`
/// keeps the planner off the time index).
pub fn lead_list_by_name_index(filter: &LeadFilter, limit: usize) -> (String, Vec<Param>) {
    let (clause, params) = lead_where(filter, Dialect::Postgres, NameRoute::ByIndex);
    let columns = lead_row_columns();
    let sql = format!("SELECT {columns} FROM leads l {clause} ORDER BY l.received_at_ms + 0 DESC, l.id DESC LIMIT {limit}");
    (sql, params)
}
