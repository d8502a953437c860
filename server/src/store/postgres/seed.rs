//! PostgreSQL: synthetic leads (see `store/seed.rs`).

use async_trait::async_trait;

use super::PgStore;
use crate::store::backend::Seed;
use crate::store::sql::{self, Dialect, statements};
use crate::store::{SeedPlan, Seeded, StoreError};

statements! {
    /// What autovacuum would do after a bulk insert: the planner's statistics, and the name
    /// index's pending list merged (a GIN index collects new entries there). Each on its own:
    /// VACUUM cannot run inside a transaction.
    VACUUM_LEADS = "VACUUM ANALYZE leads";
    VACUUM_OUTBOX = "VACUUM ANALYZE outbox";
    VACUUM_ATTEMPTS = "VACUUM ANALYZE delivery_attempts";
}

#[async_trait]
impl Seed for PgStore {
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError> {
        let mut client = self.client().await?;
        // One transaction (rolled back if a statement fails); the rows each statement added
        // are what it reports, as on SQLite.
        let tx = client.transaction().await?;
        let mut counts = Vec::new();
        for sql in sql::built::seed(plan, Dialect::Postgres) {
            counts.push(tx.execute(sql.as_str(), &[]).await?);
        }
        tx.commit().await?;
        for vacuum in [VACUUM_LEADS, VACUUM_OUTBOX, VACUUM_ATTEMPTS] {
            client.batch_execute(vacuum).await?;
        }
        Ok(plan.seeded(&counts))
    }
}
