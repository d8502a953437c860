//! PostgreSQL: synthetic leads (see `store/seed.rs`).

use async_trait::async_trait;

use super::PgStore;
use crate::store::backend::Seed;
use crate::store::console::Dialect;
use crate::store::{SeedPlan, Seeded, StoreError};

#[async_trait]
impl Seed for PgStore {
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError> {
        let mut client = self.client().await?;
        // One transaction (rolled back if a statement fails); the rows each statement added
        // are what it reports, as on SQLite.
        let tx = client.transaction().await?;
        let mut counts = Vec::new();
        for sql in plan.statements(Dialect::Postgres) {
            counts.push(tx.execute(sql.as_str(), &[]).await?);
        }
        tx.commit().await?;
        // What autovacuum would do after a bulk insert: the planner's statistics, and the name
        // index's pending list merged (a GIN index collects new entries there). Each on its
        // own: VACUUM cannot run inside a transaction.
        for table in ["leads", "outbox", "delivery_attempts"] {
            client.batch_execute(&format!("VACUUM ANALYZE {table}")).await?;
        }
        Ok(plan.seeded(&counts))
    }
}
