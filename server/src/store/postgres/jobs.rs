//! The scheduled jobs' lease on PostgreSQL (docs/decisions/020): one row, taken or renewed
//! by one upsert, judged by the database's clock (`now()`), so two servers asking at once
//! never both hold it and no server's own clock decides when it ends. The twin of
//! `sqlite/jobs.rs`.

use async_trait::async_trait;

use super::PgStore;
use crate::store::StoreError;
use crate::store::backend::Jobs;
use crate::store::sql::{self, statements};

statements! {
    /// Takes or renews the lease for `$1` until `$2` ms from now (the database's clock); answers
    /// a row when `$1` holds it afterwards.
    LEAD_JOBS = concat!(
        "INSERT INTO job_leader (name, holder, elected_ms, expires_ms) VALUES ('jobs', $1, ",
        db_now_ms!(),
        ", ",
        db_now_ms!(),
        " + $2) \
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
impl Jobs for PgStore {
    async fn lead_jobs(&self, holder: &str, ttl_ms: i64) -> Result<bool, StoreError> {
        let rows = self.client().await?.query(LEAD_JOBS, &[&holder, &ttl_ms]).await?;
        Ok(!rows.is_empty())
    }

    async fn resign_jobs(&self, holder: &str) -> Result<(), StoreError> {
        self.client().await?.execute(sql::RESIGN_JOBS.pg, &[&holder]).await?;
        Ok(())
    }

    async fn jobs_leader(&self) -> Result<Option<String>, StoreError> {
        let row = self.client().await?.query_opt(JOBS_LEADER, &[]).await?;
        Ok(row.map(|r| r.get(0)))
    }
}
