//! SQLite: the staff console's reads and changes of leads, the do-not-call list, and data
//! requests (a person's records found and erased).

use async_trait::async_trait;
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params, params_from_iter};

use super::SqliteStore;
use super::staff::insert_audit;
use super::submissions::submission_from_row;
use crate::store::backend::{Console, Leads};
use crate::store::console::{AttemptRecord, DeliveryRecord, LeadDetail, LeadFilter, LeadRow, RetryOutcome, retry_audit};
use crate::store::erasure::{Erased, PERSON_LIMIT, Person, PersonLead, PersonRecords};
use crate::store::lead_fields::{ROW_HEAD, exported};
use crate::store::sql::built::{self, MANY_NAME_MATCHES, NameRoute, Param, fts_name_query};
use crate::store::sql::{self, Dialect, SUBMISSION_COLUMNS, statements};
use crate::store::suppressions::{Listed, Suppression};
use crate::store::{NewAudit, StoreError};

statements! {
    /// How many leads the name search `?1` matches, counted up to `?2`.
    NAME_MATCHES = "SELECT COUNT(*) FROM (SELECT 1 FROM lead_names WHERE lead_names MATCH ?1 LIMIT ?2)";
    /// The notification `?1` of the lead `?2`: its status, whether the lead is erased, whether
    /// its number is listed.
    RETRY_FOUND = "SELECT o.status, l.erased_ms IS NOT NULL, EXISTS (SELECT 1 FROM suppressions s WHERE s.phone_e164 = l.phone_e164) \
         FROM outbox o JOIN leads l ON l.id = o.lead_id WHERE o.id = ?1 AND o.lead_id = ?2";
    LEAD_ERASED = "SELECT erased_ms IS NOT NULL FROM leads WHERE id = ?1";
    SUPPRESS_ONE = "UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE id = ?1";
    /// The notification `?1` back to pending, due at `?2`.
    REQUEUE_ONE = "UPDATE outbox SET status = 'pending', next_attempt_ms = ?2, locked_until_ms = 0, retry_from_ms = ?2 WHERE id = ?1";
    /// The do-not-call list (only the number `?1`, when given) below the cursor (`?2`, `?3`),
    /// newest first, `?4` rows.
    SUPPRESSIONS = "SELECT p.phone_e164, p.reason, p.added_ms, s.email FROM suppressions p LEFT JOIN staff s ON s.id = p.staff_id \
         WHERE (?1 IS NULL OR p.phone_e164 = ?1) AND (?2 IS NULL OR (p.added_ms, p.phone_e164) < (?2, ?3)) \
         ORDER BY p.added_ms DESC, p.phone_e164 DESC LIMIT ?4";
    /// Lists the number `?1` (for the reason `?2`, at `?3`, by staff `?4`), unless it is.
    SUPPRESS = "INSERT INTO suppressions (phone_e164, reason, added_ms, staff_id) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (phone_e164) DO NOTHING";
    /// The undelivered notifications of the number `?1`'s leads, suppressed.
    STOP_NOTIFICATIONS = "UPDATE outbox SET status = 'suppressed', locked_until_ms = 0 WHERE status IN ('pending', 'failed') \
         AND lead_id IN (SELECT id FROM leads WHERE phone_e164 = ?1)";
    UNSUPPRESS = "DELETE FROM suppressions WHERE phone_e164 = ?1";
    /// The leads of the phone `?1`, newest first, `?2` of them.
    PERSON_LEADS = "SELECT id, received_at_ms, service_slug, full_name, erased_ms FROM leads WHERE ?1 IS NOT NULL AND phone_e164 = ?1 \
         ORDER BY received_at_ms DESC, id DESC LIMIT ?2";
    /// The submissions of the phone `?1` or the e-mail `?2`, newest first, `?3` of them.
    PERSON_SUBMISSIONS = built format!(
        "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE (?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email = ?2) \
         ORDER BY received_at_ms DESC, id DESC LIMIT ?3"
    );
    /// The leads of the phone `?1` not erased yet.
    PERSON_LEAD_IDS = "SELECT id FROM leads WHERE ?1 IS NOT NULL AND phone_e164 = ?1 AND erased_ms IS NULL";
    PERSON_SUBMISSION_IDS = "SELECT id FROM submissions WHERE (?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email = ?2)";
    DELETE_SUBMISSION_MAIL = "DELETE FROM mail_outbox WHERE submission_id = ?1";
    DELETE_SUBMISSION = "DELETE FROM submissions WHERE id = ?1";
}

fn values(params: Vec<Param>) -> Vec<Value> {
    params
        .into_iter()
        .map(|p| match p {
            Param::Text(s) => Value::Text(s),
            Param::Int(i) => Value::Integer(i),
        })
        .collect()
}

#[async_trait]
impl Console for SqliteStore {
    async fn list_leads(&self, filter: &LeadFilter, limit: usize) -> Result<Vec<LeadRow>, StoreError> {
        let filter = filter.clone();
        self.read(move |conn| {
            // Many name matches: walk the time index; few: read the matches and sort them.
            // Counting up to MANY_NAME_MATCHES in the name index costs well under a ms.
            let route = if filter.name_words.is_empty() {
                NameRoute::ByIndex
            } else {
                let matches: i64 = conn
                    .prepare_cached(NAME_MATCHES)?
                    .query_row(params![fts_name_query(&filter.name_words), MANY_NAME_MATCHES], |r| r.get(0))?;
                if matches >= MANY_NAME_MATCHES {
                    NameRoute::WhileWalking
                } else {
                    NameRoute::ByIndex
                }
            };
            let (sql, params) = built::lead_list(&filter, Dialect::Sqlite, route, limit);
            let mut stmt = conn.prepare_cached(&sql)?;
            let head = ROW_HEAD.len();
            let rows = stmt.query_map(params_from_iter(values(params)), |r| {
                Ok(LeadRow {
                    id: r.get(0)?,
                    received_at_ms: r.get(1)?,
                    delivery_status: r.get(2)?,
                    fields: (head..head + exported().count())
                        .map(|i| r.get(i))
                        .collect::<rusqlite::Result<_>>()?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn lead_detail(&self, id: &str) -> Result<Option<LeadDetail>, StoreError> {
        let Some(lead) = self.lead(id).await? else { return Ok(None) };
        let id = id.to_string();
        let phone = lead.phone.clone();
        self.read(move |conn| {
            let (delivery_status, erased_ms): (String, Option<i64>) = conn
                .prepare_cached(sql::LEAD_DELIVERY.sqlite)?
                .query_row(params![id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let deliveries = conn
                .prepare_cached(sql::LEAD_DELIVERIES.sqlite)?
                .query_map(params![id], |r| {
                    Ok(DeliveryRecord {
                        id: r.get(0)?,
                        channel: r.get(1)?,
                        status: r.get(2)?,
                        attempts: r.get(3)?,
                        last_error: r.get(4)?,
                        next_attempt_ms: r.get(5)?,
                        delivered_ms: r.get(6)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let attempts = conn
                .prepare_cached(sql::LEAD_ATTEMPTS.sqlite)?
                .query_map(params![id], |r| {
                    Ok(AttemptRecord {
                        channel: r.get(0)?,
                        at_ms: r.get(1)?,
                        outcome: r.get(2)?,
                        error: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let suppressed_now = conn
                .prepare_cached(sql::PHONE_SUPPRESSED.sqlite)?
                .query_row(params![phone], |_| Ok(()))
                .optional()?
                .is_some();
            Ok(Some(LeadDetail {
                lead,
                delivery_status,
                erased_ms,
                deliveries,
                attempts,
                suppressed_now,
            }))
        })
        .await
    }

    async fn retry_delivery(&self, lead_id: &str, outbox_id: i64, audit: NewAudit, now_ms: i64) -> Result<RetryOutcome, StoreError> {
        let lead_id = lead_id.to_string();
        self.write(move |conn| {
            let found: Option<(String, bool, bool)> = conn
                .prepare_cached(RETRY_FOUND)?
                .query_row(params![outbox_id, lead_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?;
            let (status, erased, listed) = match found {
                Some(found) => found,
                // An erased lead's undelivered notifications are deleted.
                None => {
                    let erased = conn
                        .prepare_cached(LEAD_ERASED)?
                        .query_row(params![lead_id], |r| r.get::<_, bool>(0))
                        .optional()?;
                    return Ok(if erased == Some(true) {
                        RetryOutcome::Erased
                    } else {
                        RetryOutcome::NotFailed
                    });
                }
            };
            let outcome = match (status.as_str(), erased, listed) {
                (_, true, _) => return Ok(RetryOutcome::Erased),
                ("suppressed", _, _) => return Ok(RetryOutcome::Suppressed),
                ("failed", _, true) => {
                    conn.prepare_cached(SUPPRESS_ONE)?.execute(params![outbox_id])?;
                    RetryOutcome::Suppressed
                }
                ("failed", _, false) => {
                    conn.prepare_cached(REQUEUE_ONE)?.execute(params![outbox_id, now_ms])?;
                    RetryOutcome::Queued
                }
                _ => return Ok(RetryOutcome::NotFailed),
            };
            insert_audit(conn, &retry_audit(audit, outcome), now_ms)?;
            Ok(outcome)
        })
        .await
    }

    async fn suppressions(&self, phone: Option<&str>, before: Option<(i64, String)>, limit: usize) -> Result<Vec<Suppression>, StoreError> {
        let phone = phone.map(str::to_string);
        let (before_ms, before_phone) = before.unzip();
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(SUPPRESSIONS)?;
            let rows = stmt.query_map(params![phone, before_ms, before_phone, limit as i64], |r| {
                Ok(Suppression {
                    phone_e164: r.get(0)?,
                    reason: r.get(1)?,
                    added_ms: r.get(2)?,
                    staff_email: r.get(3)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn suppress(&self, phone: &str, reason: &str, audit: NewAudit, now_ms: i64) -> Result<Listed, StoreError> {
        let (phone, reason) = (phone.to_string(), reason.to_string());
        self.write(move |conn| {
            let added = conn
                .prepare_cached(SUPPRESS)?
                .execute(params![phone, reason, now_ms, audit.staff_id])?;
            if added == 1 {
                insert_audit(conn, &audit, now_ms)?;
            }
            let stopped = conn.prepare_cached(STOP_NOTIFICATIONS)?.execute(params![phone])?;
            Ok(Listed {
                added: added == 1,
                stopped: stopped as u64,
            })
        })
        .await
    }

    async fn unsuppress(&self, phone: &str, audit: NewAudit, now_ms: i64) -> Result<bool, StoreError> {
        let phone = phone.to_string();
        self.write(move |conn| {
            let removed = conn.prepare_cached(UNSUPPRESS)?.execute(params![phone])?;
            if removed == 1 {
                insert_audit(conn, &audit, now_ms)?;
            }
            Ok(removed == 1)
        })
        .await
    }

    // Data requests (docs/decisions/011): a person's records, and their erasure.
    async fn person_records(&self, person: &Person) -> Result<PersonRecords, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        self.read(move |conn| {
            let leads = conn
                .prepare_cached(PERSON_LEADS)?
                .query_map(params![phone, PERSON_LIMIT as i64], |r| {
                    Ok(PersonLead {
                        id: r.get(0)?,
                        received_at_ms: r.get(1)?,
                        service_slug: r.get(2)?,
                        full_name: r.get(3)?,
                        erased_ms: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let submissions = conn
                .prepare_cached(&PERSON_SUBMISSIONS)?
                .query_map(params![phone, email, PERSON_LIMIT as i64], submission_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(PersonRecords { leads, submissions })
        })
        .await
    }

    async fn erase_person(&self, person: &Person, audit: NewAudit, now_ms: i64) -> Result<Erased, StoreError> {
        let (phone, email) = (person.phone(), person.email());
        self.write(move |conn| {
            let leads = conn
                .prepare_cached(PERSON_LEAD_IDS)?
                .query_map(params![phone], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let erasure = built::sqlite_erasure();
            for id in &leads {
                conn.prepare_cached(&erasure.lead)?.execute(params![id, now_ms])?;
                // Its notifications end: the undelivered ones go (one being sent now finds
                // its row gone), the rest keep no error text.
                for statement in &erasure.about_it {
                    conn.prepare_cached(statement)?.execute(params![id])?;
                }
                let line = NewAudit {
                    action: "erase",
                    target: Some(format!("lead:{id}")),
                    ..audit.clone()
                };
                insert_audit(conn, &line, now_ms)?;
            }
            let subs = conn
                .prepare_cached(PERSON_SUBMISSION_IDS)?
                .query_map(params![phone, email], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            for id in &subs {
                conn.prepare_cached(DELETE_SUBMISSION_MAIL)?.execute(params![id])?;
                conn.prepare_cached(DELETE_SUBMISSION)?.execute(params![id])?;
                let line = NewAudit {
                    action: "delete",
                    target: Some(format!("submission:{id}")),
                    ..audit.clone()
                };
                insert_audit(conn, &line, now_ms)?;
            }
            Ok(Erased {
                leads: leads.len() as i64,
                submissions: subs.len() as i64,
            })
        })
        .await
    }
}
