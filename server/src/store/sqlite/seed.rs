//! SQLite: synthetic leads (see `store/seed.rs`).

use async_trait::async_trait;

use super::SqliteStore;
use crate::store::backend::Seed;
use crate::store::sql::{self, Dialect, statements};
use crate::store::{SeedPlan, Seeded, StoreError};

statements! {
    /// The planner's statistics, after a bulk insert.
    ANALYZE = "ANALYZE";
}

#[async_trait]
impl Seed for SqliteStore {
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError> {
        let statements = sql::built::seed(plan, Dialect::Sqlite);
        let counts = self
            .write(move |conn| {
                statements
                    .iter()
                    .map(|sql| conn.execute(sql, []).map(|n| n as u64))
                    .collect::<rusqlite::Result<Vec<u64>>>()
            })
            .await?;
        self.write(|conn| conn.execute_batch(ANALYZE)).await?;
        Ok(plan.seeded(&counts))
    }
}
