//! SQLite: the campaigns (migration 0014), their first-start import, their saves with
//! history rows and audit lines in one transaction, and their history.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, Row, ToSql, params};
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::SqliteStore;
use super::staff::insert_audit;
use crate::store::backend::Campaigns;
use crate::store::campaigns::{CampaignChange, CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved, changes};
use crate::store::sql;
use crate::store::{NewAudit, StoreError};

/// The card's fields from `row`, starting at column `at`.
pub(super) fn fields_from(row: &Row<'_>, at: usize) -> rusqlite::Result<CampaignFields> {
    Ok(CampaignFields {
        name: row.get(at)?,
        status: row.get(at + 1)?,
        payouts: row.get(at + 2)?,
        payment_terms: row.get(at + 3)?,
        geos: row.get(at + 4)?,
        promo_allowed: row.get(at + 5)?,
        cap: row.get(at + 6)?,
        inbound: row.get(at + 7)?,
        transfer: row.get(at + 8)?,
        seconds: row.get(at + 9)?,
        hours: row.get(at + 10)?,
        notes: row.get(at + 11)?,
    })
}

/// `INSERT_CAMPAIGN`'s and `UPDATE_CAMPAIGN`'s values (`sql::campaign_values!`).
fn values<'a>(f: &'a CampaignFields, now_ms: &'a i64, staff_id: &'a Option<i64>) -> Vec<&'a dyn ToSql> {
    sql::campaign_values!(f, now_ms, staff_id)
}

fn insert(conn: &Connection, f: &CampaignFields, staff_id: Option<i64>, now_ms: i64) -> rusqlite::Result<i64> {
    conn.prepare_cached(sql::INSERT_CAMPAIGN.sqlite)?
        .query_row(&*values(f, &now_ms, &staff_id), |r| r.get(0))
}

fn record_changes(
    conn: &Connection,
    id: i64,
    old: Option<&CampaignFields>,
    new: &CampaignFields,
    staff_id: i64,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(sql::INSERT_CAMPAIGN_CHANGE.sqlite)?;
    for (field, from, to) in changes(old, new) {
        stmt.execute(params![id, now_ms, staff_id, field, from, to])?;
    }
    Ok(())
}

#[async_trait]
impl Campaigns for SqliteStore {
    async fn campaigns(&self) -> Result<Vec<CampaignRecord>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(sql::CAMPAIGNS.sqlite)?;
            let rows = stmt.query_map([], |r| {
                Ok(CampaignRecord {
                    id: r.get(0)?,
                    fields: fields_from(r, 1)?,
                    created_ms: r.get(13)?,
                    created_by: r.get(14)?,
                    changed_ms: r.get(15)?,
                    changed_by: r.get(16)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn import_campaigns(&self, seed: &[CampaignFields], now_ms: i64) -> Result<bool, StoreError> {
        let seed = seed.to_vec();
        self.write(move |conn| {
            let stored: i64 = conn.prepare_cached(sql::COUNT_CAMPAIGNS.sqlite)?.query_row([], |r| r.get(0))?;
            if stored > 0 {
                return Ok(false);
            }
            for fields in &seed {
                insert(conn, fields, None, now_ms)?;
            }
            Ok(true)
        })
        .await
    }

    async fn save_campaigns(
        &self,
        edits: &[CampaignEdit],
        staff_id: i64,
        audit: Vec<NewAudit>,
        now_ms: i64,
    ) -> Result<CampaignSaved, StoreError> {
        let edits = edits.to_vec();
        self.write(move |conn| {
            // Every check before the first write: a refusal saves nothing.
            let mut olds = Vec::with_capacity(edits.len());
            for edit in &edits {
                let old = match edit.id {
                    Some(id) => match conn
                        .prepare_cached(sql::CAMPAIGN_FIELDS.sqlite)?
                        .query_row(params![id], |r| fields_from(r, 0))
                        .optional()?
                    {
                        Some(old) => Some(old),
                        None => return Ok(CampaignSaved::Unknown(id)),
                    },
                    None => None,
                };
                if edit.fields.status != "ended" {
                    let other: Option<i64> = conn
                        .prepare_cached(sql::CAMPAIGN_NAME_TAKEN.sqlite)?
                        .query_row(params![edit.fields.name, edit.id.unwrap_or(-1)], |r| r.get(0))
                        .optional()?;
                    if other.is_some() {
                        return Ok(CampaignSaved::NameTaken(edit.fields.name.clone()));
                    }
                }
                olds.push(old);
            }
            let mut ids = Vec::with_capacity(edits.len());
            let staff = Some(staff_id);
            for (edit, old) in edits.iter().zip(olds) {
                let f = &edit.fields;
                let id = match edit.id {
                    Some(id) => {
                        if old.as_ref() == Some(f) {
                            ids.push(id);
                            continue;
                        }
                        let mut update = values(f, &now_ms, &staff);
                        update.push(&id);
                        conn.prepare_cached(sql::UPDATE_CAMPAIGN.sqlite)?.execute(&*update)?;
                        id
                    }
                    None => insert(conn, f, staff, now_ms)?,
                };
                record_changes(conn, id, old.as_ref(), f, staff_id, now_ms)?;
                ids.push(id);
            }
            for (n, mut entry) in audit.into_iter().enumerate() {
                // A new campaign's audit line names the id it was given.
                if entry.target.is_none() {
                    entry.target = ids.get(n).map(|id| id.to_string());
                }
                insert_audit(conn, &entry, now_ms)?;
            }
            Ok(CampaignSaved::Saved(ids))
        })
        .await
    }

    async fn campaign_changes(&self, id: i64) -> Result<Vec<CampaignChange>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(sql::CAMPAIGN_HISTORY.sqlite)?;
            let rows = stmt.query_map(params![id], |r| {
                Ok(CampaignChange {
                    at_ms: r.get(0)?,
                    staff_email: r.get(1)?,
                    field: r.get(2)?,
                    old_value: r.get(3)?,
                    new_value: r.get(4)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    fn watch_campaigns(&self, _wake: std::sync::Arc<Notify>, _stop: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
        None
    }
}
