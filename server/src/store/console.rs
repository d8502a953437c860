//! What the staff console reads and changes of leads: the filtered list (keyset pages,
//! newest first), one lead with its deliveries and every attempt, and a failed delivery
//! sent back to the outbox. Both stores share these types and the list's SQL.

use serde::Serialize;

use super::{LeadRecord, NewAudit};

/// Delivery statuses a lead can have (kept by the database's triggers, see migration 0003).
pub const DELIVERY_STATUSES: [&str; 5] = ["pending", "delivered", "failed", "suppressed", "none"];

/// The leads list's filters; every one optional, all combined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadFilter {
    pub service: Option<String>,
    /// One of [`DELIVERY_STATUSES`].
    pub status: Option<String>,
    /// E.164.
    pub phone: Option<String>,
    /// Words of the name, each matching the start of a word of the stored name.
    pub name_words: Vec<String>,
    /// Received at or after (UTC ms).
    pub from_ms: Option<i64>,
    /// Received before (UTC ms).
    pub to_ms: Option<i64>,
    /// Keyset cursor: rows strictly older than this (received_at_ms, id).
    pub before: Option<(i64, String)>,
}

impl LeadFilter {
    /// Search words from what a person typed: letters and digits only, lower case.
    pub fn words(typed: &str) -> Vec<String> {
        typed
            .split(|c: char| c.is_whitespace() || c == '-' || c == '\'' || c == '.' || c == ',')
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .take(40)
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .take(5)
            .collect()
    }
}

/// One row of the leads list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeadRow {
    pub id: String,
    pub received_at_ms: i64,
    pub service_slug: String,
    pub full_name: String,
    pub phone: String,
    pub zip_code: Option<String>,
    pub delivery_status: String,
}

/// A notification of a lead (one outbox row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeliveryRecord {
    pub id: i64,
    pub channel: String,
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub next_attempt_ms: i64,
    pub delivered_ms: Option<i64>,
}

/// One attempt at delivering a notification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttemptRecord {
    pub channel: String,
    pub at_ms: i64,
    pub outcome: String,
    pub error: Option<String>,
}

/// Everything stored about one lead.
#[derive(Debug, Clone, PartialEq)]
pub struct LeadDetail {
    pub lead: LeadRecord,
    pub delivery_status: String,
    /// When a data request erased it down to its consent record.
    pub erased_ms: Option<i64>,
    pub deliveries: Vec<DeliveryRecord>,
    pub attempts: Vec<AttemptRecord>,
    /// Whether its phone number is on the do-not-call list now.
    pub suppressed_now: bool,
}

/// What a console Retry did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryOutcome {
    /// Back in the outbox, due now.
    Queued,
    /// Not sent: the lead's number is on the do-not-call list (the notification is marked
    /// suppressed, if it was not already).
    Suppressed,
    /// Not sent: the lead was erased on request.
    Erased,
    /// No such failed notification of that lead (delivered, pending, or none).
    NotFailed,
}

/// The audit line of a console Retry that changed something, its outcome in the detail.
pub(super) fn retry_audit(audit: NewAudit, outcome: RetryOutcome) -> NewAudit {
    match outcome {
        RetryOutcome::Suppressed => NewAudit {
            detail: Some(format!(
                "{}: not sent, the number is on the do-not-call list",
                audit.detail.as_deref().unwrap_or("delivery")
            )),
            ..audit
        },
        _ => audit,
    }
}

/// A query parameter of the list's SQL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Param {
    Text(String),
    Int(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    Sqlite,
    Postgres,
}

/// How the list applies the name filter on SQLite. Through the name index, every match is
/// read and sorted by time: cheap when few leads match, slow when tens of thousands do. While
/// walking a time-ordered index (`leads_list` or one of its filtered siblings), the matches
/// are only a set to test against and the walk stops at the page's end: cheap when many
/// leads match, a walk of the whole index when few do. PostgreSQL's planner makes this
/// choice from its statistics of the name index's words, but a word it has no statistics for
/// (a rare name, a typo) makes it walk the whole time index: see `PgStore::list_leads`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NameRoute {
    ByIndex,
    WhileWalking,
}

/// Name matches from which SQLite walks the time index instead (measured on 1M leads: at
/// 2,000 matches both routes cost a few ms; at 50,000 the index route costs ~110 ms of CPU
/// and the walk ~8 ms; at 1 match the walk costs ~115 ms and the index route ~3 ms).
pub(super) const MANY_NAME_MATCHES: i64 = 2000;

/// The FTS5 query for the name words: each word a prefix, all of them required.
pub(super) fn fts_name_query(words: &[String]) -> String {
    words.iter().map(|w| format!("\"{w}\"*")).collect::<Vec<_>>().join(" ")
}

/// The tsquery for the name words on PostgreSQL: each word a prefix, all of them required.
pub(super) fn pg_name_query(words: &[String]) -> String {
    words.iter().map(|w| format!("{w}:*")).collect::<Vec<_>>().join(" & ")
}

pub(super) const LEAD_ROW_COLUMNS: &str =
    "l.id, l.received_at_ms, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.delivery_status";

/// The WHERE clause (with its parameters) for `filter`, numbered from 1.
pub(super) fn lead_where(filter: &LeadFilter, dialect: Dialect, route: NameRoute) -> (String, Vec<Param>) {
    let mut conds: Vec<String> = Vec::new();
    let mut params: Vec<Param> = Vec::new();
    let next = |p: Param, params: &mut Vec<Param>| {
        params.push(p);
        match dialect {
            Dialect::Sqlite => format!("?{}", params.len()),
            Dialect::Postgres => format!("${}", params.len()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_words_are_letters_and_digits_in_lower_case() {
        assert_eq!(LeadFilter::words("  María  O'Brien-Smith "), ["maría", "o", "brien", "smith"]);
        assert_eq!(LeadFilter::words("\"*) OR 1=1 --"), ["or", "11"]);
        assert!(LeadFilter::words("*** --").is_empty());
    }

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
}
