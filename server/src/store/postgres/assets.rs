//! PostgreSQL: the releases' content-hashed files (see `store/assets.rs`). When a release
//! last started is judged by the database's clock, the same for every server.

use async_trait::async_trait;
use tokio_postgres::Client;

use super::PgStore;
use crate::store::StoreError;
use crate::store::assets::{AssetRelease, RecordedAsset};
use crate::store::backend::Assets;
use crate::store::sql::{self, statements};

statements! {
    /// Marks release `$1` started now (never earlier than it was) with version `$2`; a row when
    /// it is recorded.
    RESTART = concat!(
        "UPDATE asset_releases SET started_ms = GREATEST(started_ms, ",
        db_now_ms!(),
        "), version = $2 WHERE release = $1 RETURNING 1"
    );
    /// Release `$1` of version `$2`, first started now, with its files (`$3`…`$6`: paths,
    /// types, bodies, gzipped bodies).
    RECORD = concat!(
        "WITH r AS (
         INSERT INTO asset_releases (release, version, first_ms, started_ms)
         VALUES ($1, $2, ",
        db_now_ms!(),
        ", ",
        db_now_ms!(),
        ")
         ON CONFLICT (release) DO UPDATE SET started_ms = EXCLUDED.started_ms
         RETURNING release)
         INSERT INTO assets (release, path, content_type, body, gzip)
         SELECT r.release, f.path, f.content_type, f.body, f.gzip
         FROM r, unnest($3::text[], $4::text[], $5::bytea[], $6::bytea[]) AS f(path, content_type, body, gzip)
         ON CONFLICT (release, path) DO NOTHING"
    );
}

#[async_trait]
impl Assets for PgStore {
    async fn record_assets(&self, release: &AssetRelease, keep: usize) -> Result<(), StoreError> {
        let client = self.client().await?;
        if !restart(&client, &release.release, &release.version, keep).await? {
            let paths: Vec<&str> = release.files.iter().map(|f| f.path.as_str()).collect();
            let types: Vec<&str> = release.files.iter().map(|f| f.content_type.as_str()).collect();
            let bodies: Vec<&[u8]> = release.files.iter().map(|f| f.body.as_slice()).collect();
            let gzips: Vec<&[u8]> = release.files.iter().map(|f| f.gzip.as_slice()).collect();
            // One statement: the release and its files are there together or not at all
            // (several servers of one release may start at once: the first one's stay).
            client
                .execute(RECORD, &[&release.release, &release.version, &paths, &types, &bodies, &gzips])
                .await?;
            prune(&client, keep).await?;
        }
        Ok(())
    }

    async fn restart_release(&self, release: &str, version: &str, keep: usize) -> Result<bool, StoreError> {
        let client = self.client().await?;
        restart(&client, release, version, keep).await
    }

    async fn recorded_asset(&self, path: &str) -> Result<Option<RecordedAsset>, StoreError> {
        let row = self.client().await?.query_opt(sql::RECORDED_ASSET.pg, &[&path]).await?;
        Ok(row.map(|r| RecordedAsset {
            path: path.to_string(),
            content_type: r.get(0),
            body: r.get(1),
            gzip: r.get(2),
        }))
    }
}

/// Marks a recorded release started now and prunes the releases started before the `keep`
/// last; false, changing nothing, when the release is not recorded.
async fn restart(client: &Client, release: &str, version: &str, keep: usize) -> Result<bool, StoreError> {
    let known = client.query_opt(RESTART, &[&release, &version]).await?.is_some();
    if known {
        prune(client, keep).await?;
    }
    Ok(known)
}

/// Deletes every release but the `keep` started last, with its files.
async fn prune(client: &Client, keep: usize) -> Result<(), StoreError> {
    let keep = i64::try_from(keep).unwrap_or(i64::MAX);
    client.execute(sql::PRUNE_ASSET_RELEASES.pg, &[&keep]).await?;
    Ok(())
}
