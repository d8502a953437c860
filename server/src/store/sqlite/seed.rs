//! SQLite: synthetic leads (see `store/seed.rs`).

use async_trait::async_trait;

use super::SqliteStore;
use crate::store::backend::Seed;
use crate::store::console::Dialect;
use crate::store::{SeedPlan, Seeded, StoreError};

#[async_trait]
impl Seed for SqliteStore {
    async fn seed_leads(&self, plan: &SeedPlan) -> Result<Seeded, StoreError> {
        let statements = plan.statements(Dialect::Sqlite);
        let counts = self
            .write(move |conn| {
                statements
                    .iter()
                    .map(|sql| conn.execute(sql, []).map(|n| n as u64))
                    .collect::<rusqlite::Result<Vec<u64>>>()
            })
            .await?;
        self.write(|conn| conn.execute_batch("ANALYZE")).await?;
        Ok(plan.seeded(&counts))
    }
}
