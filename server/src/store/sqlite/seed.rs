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
        let notifications = plan.notifications;
        let seeded = self
            .write(move |conn| {
                let counts = statements
                    .iter()
                    .map(|sql| conn.execute(sql, []))
                    .collect::<rusqlite::Result<Vec<usize>>>()?;
                Ok(Seeded {
                    leads: counts.get(1).copied().unwrap_or(0) as i64,
                    notifications: if notifications {
                        counts.get(2).copied().unwrap_or(0) as i64
                    } else {
                        0
                    },
                })
            })
            .await?;
        self.write(|conn| conn.execute_batch("ANALYZE")).await?;
        Ok(seeded)
    }
}
