//! SQLite: leads and certificate tokens, as the API stores them, and their retention.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, Row, ToSql, params};

use super::SqliteStore;
use crate::leads::{NewLead, TokenRecord};
use crate::store::backend::Leads;
use crate::store::lead_fields::{LEAD_FIELDS, RECORD_COLUMNS, RECORD_HEAD, record_from};
use crate::store::sql::{self, Dialect, built, statements};
use crate::store::{Channel, DUPLICATE_WINDOW_MS, LeadRecord, StoreError, Submitted, new_lead_id};

statements! {
    /// Any earlier lead of the phone `?1` for the service `?2` since `?3`. Prepared once per
    /// connection (parsing it cost more than running it). Any earlier lead of the window
    /// will do (the answer never shows its id); without an ORDER BY on the range's column
    /// the plan does not depend on the bound time, so SQLite does not parse the statement
    /// again at every use. It reads the number's leads by leads_list_phone; `+service_slug`
    /// keeps SQLite off leads_list_service, where a busy service's whole window would match
    /// (docs/decisions/027-intake-speed.md).
    EARLIER_LEAD = "SELECT id FROM leads WHERE phone_e164 = ?1 AND +service_slug = ?2 AND received_at_ms >= ?3 LIMIT 1";
    /// A consent wording (`?1` its hash, `?2` its text), kept once, first seen at `?3`.
    INSERT_CONSENT = "INSERT OR IGNORE INTO consent_texts (sha256, text, first_seen_ms) VALUES (?1, ?2, ?3)";
    /// A notification of the lead `?1` on the channel `?2`, due at `?3`.
    INSERT_NOTIFICATION = "INSERT INTO outbox (lead_id, channel, status, attempts, next_attempt_ms, created_ms) VALUES (?1, ?2, 'pending', 0, ?3, ?3)";
    /// The wordings no lead refers to any more.
    PURGE_CONSENT = "DELETE FROM consent_texts WHERE sha256 NOT IN (SELECT DISTINCT consent_sha256 FROM leads)";
    /// The names of the leads above the highest indexed one, into the name index.
    INDEX_NEW_NAMES = "INSERT INTO lead_names (rowid, full_name) SELECT rowid, full_name FROM leads \
         WHERE rowid > COALESCE((SELECT rowid FROM lead_names ORDER BY rowid DESC LIMIT 1), 0)";
}

#[async_trait]
impl Leads for SqliteStore {
    async fn submit_lead(&self, lead: NewLead, channels: Vec<Channel>, now_ms: i64) -> Result<Submitted, StoreError> {
        self.write(move |conn| {
            let earlier: Option<String> = conn
                .prepare_cached(EARLIER_LEAD)?
                .query_row(params![lead.phone, lead.service_slug, now_ms - DUPLICATE_WINDOW_MS], |r| r.get(0))
                .optional()?;
            if let Some(id) = earlier {
                return Ok(Submitted { id, duplicate: true });
            }
            conn.prepare_cached(INSERT_CONSENT)?
                .execute(params![lead.consent_sha256, lead.consent_text, now_ms])?;
            let id = new_lead_id();
            let fields: Vec<Option<&str>> = LEAD_FIELDS.iter().map(|f| (f.new)(&lead)).collect();
            let mut values: Vec<&dyn ToSql> = vec![&id, &now_ms];
            values.extend(fields.iter().map(|v| v as &dyn ToSql));
            conn.prepare_cached(built::sqlite_insert_lead())?.execute(values.as_slice())?;
            let mut outbox = conn.prepare_cached(INSERT_NOTIFICATION)?;
            for channel in channels {
                outbox.execute(params![id, channel.as_str(), now_ms])?;
            }
            Ok(Submitted { id, duplicate: false })
        })
        .await
    }

    async fn record_token(&self, record: TokenRecord, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(sql::RECORD_TOKEN.sqlite)?.execute(params![
                record.token,
                record.ping_url,
                record.cert_url,
                record.service_slug,
                now_ms
            ])?;
            Ok(())
        })
        .await
    }

    async fn purge_before(&self, cutoff_ms: i64) -> Result<(u64, u64), StoreError> {
        self.write(move |conn| {
            conn.execute(sql::PURGE_OUTBOX.sqlite, params![cutoff_ms])?;
            let leads = conn.execute(sql::PURGE_LEADS.sqlite, params![cutoff_ms])?;
            let certs = conn.execute(sql::PURGE_CERTIFICATES.sqlite, params![cutoff_ms])?;
            // Their e-mails go with them (ON DELETE CASCADE).
            conn.execute(sql::PURGE_SUBMISSIONS.sqlite, params![cutoff_ms])?;
            // An audit line is written after the record it names was received, so the same
            // cutoff never drops it before that record.
            conn.execute(sql::PURGE_AUDIT.sqlite, params![cutoff_ms])?;
            conn.execute(PURGE_CONSENT, [])?;
            Ok((leads as u64, certs as u64))
        })
        .await
    }

    async fn lead(&self, id: &str) -> Result<Option<LeadRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| select_lead(conn, &id)).await
    }

    async fn count_leads(&self) -> Result<i64, StoreError> {
        self.read(|conn| conn.query_row(sql::COUNT_LEADS.sqlite, [], |r| r.get(0))).await
    }

    async fn token(&self, token: &str) -> Result<Option<TokenRecord>, StoreError> {
        let token = token.to_string();
        self.read(move |conn| {
            conn.query_row(sql::TOKEN.sqlite, params![token], |r| {
                Ok(TokenRecord {
                    token: r.get(0)?,
                    ping_url: r.get(1)?,
                    service_slug: r.get(2)?,
                    cert_url: r.get(3)?,
                })
            })
            .optional()
        })
        .await
    }
}

/// Adds the names of the leads stored since the last call to the name search's index
/// (`lead_names`), in one statement: the writer runs it at the end of each group, before the
/// group commits (migration 0011 says why not a trigger per lead). Leads get increasing
/// rowids, so the new ones are those above the highest indexed; a lead stored by anything
/// else is indexed at the writer's next group.
pub(super) fn index_new_names(conn: &Connection) -> rusqlite::Result<usize> {
    conn.prepare_cached(INDEX_NEW_NAMES)?.execute([])
}

pub(super) fn select_lead(conn: &Connection, id: &str) -> rusqlite::Result<Option<LeadRecord>> {
    conn.prepare_cached(built::lead(Dialect::Sqlite))?
        .query_row(params![id], lead_from_row)
        .optional()
}

/// A stored lead from `built::lead_columns()`.
fn lead_from_row(r: &Row<'_>) -> rusqlite::Result<LeadRecord> {
    let head = RECORD_HEAD.len();
    let fields = (head..RECORD_COLUMNS).map(|i| r.get(i)).collect::<rusqlite::Result<_>>()?;
    Ok(record_from(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, fields))
}
