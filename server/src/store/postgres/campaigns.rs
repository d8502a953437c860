//! PostgreSQL: the campaigns (migration 0014), their first-start import, their saves with
//! history rows and audit lines in one transaction, their history, and the listener that
//! hears another server's changes (channel `site_campaigns`).

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::PgStore;
use crate::store::backend::Campaigns;
use crate::store::campaigns::{CampaignChange, CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved, changes};
use crate::store::sql::{self, statements};
use crate::store::{NewAudit, StoreError};

statements! {
    /// Saves and the first start's import one at a time, every server's (reads go on).
    LOCK_CAMPAIGNS = "LOCK TABLE campaigns IN SHARE ROW EXCLUSIVE MODE";
}

fn fields_from(r: &Row, at: usize) -> CampaignFields {
    CampaignFields {
        name: r.get(at),
        status: r.get(at + 1),
        payouts: r.get(at + 2),
        payment_terms: r.get(at + 3),
        geos: r.get(at + 4),
        promo_allowed: r.get(at + 5),
        cap: r.get(at + 6),
        inbound: r.get(at + 7),
        transfer: r.get(at + 8),
        seconds: r.get(at + 9),
        hours: r.get(at + 10),
        notes: r.get(at + 11),
    }
}

/// `INSERT_CAMPAIGN`'s and `UPDATE_CAMPAIGN`'s values (`sql::campaign_values!`).
fn values<'a>(f: &'a CampaignFields, now_ms: &'a i64, staff_id: &'a Option<i64>) -> Vec<&'a (dyn ToSql + Sync)> {
    sql::campaign_values!(f, now_ms, staff_id)
}

async fn insert(tx: &impl GenericClient, f: &CampaignFields, staff_id: Option<i64>, now_ms: i64) -> Result<i64, StoreError> {
    let row = tx.query_one(sql::INSERT_CAMPAIGN.pg, &values(f, &now_ms, &staff_id)).await?;
    Ok(row.get(0))
}

#[async_trait]
impl Campaigns for PgStore {
    async fn campaigns(&self) -> Result<Vec<CampaignRecord>, StoreError> {
        let rows = self.client().await?.query(sql::CAMPAIGNS.pg, &[]).await?;
        Ok(rows
            .iter()
            .map(|r| CampaignRecord {
                id: r.get(0),
                fields: fields_from(r, 1),
                created_ms: r.get(13),
                created_by: r.get(14),
                changed_ms: r.get(15),
                changed_by: r.get(16),
            })
            .collect())
    }

    async fn import_campaigns(&self, seed: &[CampaignFields], now_ms: i64) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.batch_execute(LOCK_CAMPAIGNS).await?;
        let stored: i64 = tx.query_one(sql::COUNT_CAMPAIGNS.pg, &[]).await?.get(0);
        if stored > 0 {
            return Ok(false);
        }
        for fields in seed {
            insert(&tx, fields, None, now_ms).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn save_campaigns(
        &self,
        edits: &[CampaignEdit],
        staff_id: i64,
        audit: Vec<NewAudit>,
        now_ms: i64,
    ) -> Result<CampaignSaved, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.batch_execute(LOCK_CAMPAIGNS).await?;
        // Every check before the first write; a refusal drops the transaction unwritten.
        let mut olds = Vec::with_capacity(edits.len());
        for edit in edits {
            let old = match edit.id {
                Some(id) => match tx.query_opt(sql::CAMPAIGN_FIELDS.pg, &[&id]).await? {
                    Some(row) => Some(fields_from(&row, 0)),
                    None => return Ok(CampaignSaved::Unknown(id)),
                },
                None => None,
            };
            if edit.fields.status != "ended"
                && tx
                    .query_opt(sql::CAMPAIGN_NAME_TAKEN.pg, &[&edit.fields.name, &edit.id.unwrap_or(-1)])
                    .await?
                    .is_some()
            {
                return Ok(CampaignSaved::NameTaken(edit.fields.name.clone()));
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
                    tx.execute(sql::UPDATE_CAMPAIGN.pg, &update).await?;
                    id
                }
                None => insert(&tx, f, staff, now_ms).await?,
            };
            for (field, from, to) in changes(old.as_ref(), f) {
                tx.execute(sql::INSERT_CAMPAIGN_CHANGE.pg, &[&id, &now_ms, &staff_id, &field, &from, &to])
                    .await?;
            }
            ids.push(id);
        }
        for (n, mut a) in audit.into_iter().enumerate() {
            if a.target.is_none() {
                a.target = ids.get(n).map(|id| id.to_string());
            }
            tx.execute(
                sql::INSERT_AUDIT.pg,
                &[&now_ms, &a.staff_id, &a.action, &a.target, &a.ip, &a.detail],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(CampaignSaved::Saved(ids))
    }

    async fn campaign_changes(&self, id: i64) -> Result<Vec<CampaignChange>, StoreError> {
        let rows = self.client().await?.query(sql::CAMPAIGN_HISTORY.pg, &[&id]).await?;
        Ok(rows
            .iter()
            .map(|r| CampaignChange {
                at_ms: r.get(0),
                staff_email: r.get(1),
                field: r.get(2),
                old_value: r.get(3),
                new_value: r.get(4),
            })
            .collect())
    }

    fn watch_campaigns(&self, wake: Arc<Notify>, stop: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
        Some(tokio::spawn(super::listen::wake_on_notify(
            self.target.clone(),
            self.schema.clone(),
            super::listen::CAMPAIGNS,
            wake,
            stop,
        )))
    }
}
