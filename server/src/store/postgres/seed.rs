//! PostgreSQL: synthetic leads (see `store/seed.rs`).

use async_trait::async_trait;

use super::PgStore;
use crate::store::backend::Seed;
use crate::store::console::Dialect;
use crate::store::{SeedPlan, Seeded, StoreError};

#[async_trait]
impl Seed for PgStore {
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError> {
        let client = self.client().await?;
        // One message, so one transaction on a connection that others may share.
        let sql = format!("BEGIN; {}; COMMIT;", plan.statements(Dialect::Postgres).join("; "));
        if let Err(e) = client.batch_execute(&sql).await {
            let _ = client.batch_execute("ROLLBACK").await;
            return Err(e.into());
        }
        // What autovacuum would do after a bulk insert: the planner's statistics, and the name
        // index's pending list merged (a GIN index collects new entries there). Each on its
        // own: VACUUM cannot run inside a transaction.
        for table in ["leads", "outbox", "delivery_attempts"] {
            client.batch_execute(&format!("VACUUM ANALYZE {table}")).await?;
        }
        let prefix = format!("{}-%", plan.id_prefix);
        let leads: i64 = client
            .query_one("SELECT COUNT(*) FROM leads WHERE id LIKE $1", &[&prefix])
            .await?
            .get(0);
        let notifications: i64 = client
            .query_one("SELECT COUNT(*) FROM outbox WHERE lead_id LIKE $1", &[&prefix])
            .await?
            .get(0);
        Ok(Seeded { leads, notifications })
    }
}
