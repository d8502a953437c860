//! The scheduled jobs' lease on SQLite (docs/decisions/020): one row, taken or renewed by
//! one upsert in the writer's transaction, by SQLite's clock. One server holds a SQLite file,
//! so it always wins; the code path is PostgreSQL's. The twin of `postgres/jobs.rs`.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::store::StoreError;
use crate::store::backend::Jobs;
use crate::store::sql::{self, statements};

statements! {
    /// Takes or renews the lease for `?1` until `?2` ms from now (SQLite's clock); answers a row
    /// when `?1` holds it afterwards.
    LEAD_JOBS = concat!(
        "INSERT INTO job_leader (name, holder, elected_ms, expires_ms) VALUES ('jobs', ?1, ",
        db_now_ms!(),
        ", ",
        db_now_ms!(),
        " + ?2) \
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms, \
         elected_ms = CASE WHEN job_leader.holder = excluded.holder THEN job_leader.elected_ms ELSE excluded.elected_ms END \
         WHERE job_leader.holder = excluded.holder OR job_leader.expires_ms <= ",
        db_now_ms!(),
        " RETURNING holder"
    );
    /// Who holds an unexpired lease.
    JOBS_LEADER = concat!("SELECT holder FROM job_leader WHERE name = 'jobs' AND expires_ms > ", db_now_ms!());
}

#[async_trait]
impl Jobs for SqliteStore {
    async fn lead_jobs(&self, holder: &str, ttl_ms: i64) -> Result<bool, StoreError> {
        let holder = holder.to_string();
        self.write(move |conn| {
            conn.prepare_cached(LEAD_JOBS)?
                .query_row(params![holder, ttl_ms], |_| Ok(()))
                .optional()
                .map(|held| held.is_some())
        })
        .await
    }

    async fn resign_jobs(&self, holder: &str) -> Result<(), StoreError> {
        let holder = holder.to_string();
        self.write(move |conn| {
            conn.prepare_cached(sql::RESIGN_JOBS.sqlite)?.execute(params![holder])?;
            Ok(())
        })
        .await
    }

    async fn jobs_leader(&self) -> Result<Option<String>, StoreError> {
        self.read(|conn| conn.prepare_cached(JOBS_LEADER)?.query_row([], |r| r.get(0)).optional())
            .await
    }
}
