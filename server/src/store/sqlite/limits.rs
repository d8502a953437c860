//! SQLite: the shared limits are not kept here. One server runs per file, and it keeps its
//! rate limits and sign-in throttle in memory (docs/decisions/022-shared-limits.md); the
//! tables exist, empty, for the schemas' sake. Nothing calls these while
//! [`Limits::shares_limits`] says false: each says so if it is called all the same.

use async_trait::async_trait;

use super::SqliteStore;
use crate::store::backend::Limits;
use crate::store::{LimitKey, LoginRules, Reserved, StoreError, Verdict};

fn in_memory() -> StoreError {
    StoreError::Database("with SQLite the server keeps its limits in memory".into())
}

#[async_trait]
impl Limits for SqliteStore {
    fn shares_limits(&self) -> bool {
        false
    }

    async fn charge(&self, _key: LimitKey, _limit: u32) -> Result<Verdict, StoreError> {
        Err(in_memory())
    }

    async fn reserve_login(
        &self,
        _account: &LimitKey,
        _client: Option<&LimitKey>,
        _rules: LoginRules,
        _now_ms: i64,
    ) -> Result<Reserved, StoreError> {
        Err(in_memory())
    }

    async fn settle_login(&self, _id: i64, _account: &LimitKey, _succeeded: bool) -> Result<(), StoreError> {
        Err(in_memory())
    }

    async fn unlock_login(&self, _account: &LimitKey, _at_ms: i64) -> Result<(), StoreError> {
        Err(in_memory())
    }

    async fn purge_limits(&self) -> Result<u64, StoreError> {
        Ok(0)
    }
}
