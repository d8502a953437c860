//! SQLite: the releases' content-hashed files (see `store/assets.rs`).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use super::SqliteStore;
use crate::store::assets::{AssetRelease, RecordedAsset};
use crate::store::backend::Assets;
use crate::store::{StoreError, sql};

#[async_trait]
impl Assets for SqliteStore {
    async fn record_assets(&self, release: &AssetRelease, now_ms: i64, keep: usize) -> Result<(), StoreError> {
        let release = release.clone();
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.write(move |conn| {
            let known = conn.execute(
                "UPDATE asset_releases SET started_ms = max(started_ms, ?2), version = ?3 WHERE release = ?1",
                params![release.release, now_ms, release.version],
            )? > 0;
            if !known {
                conn.execute(
                    "INSERT INTO asset_releases (release, version, first_ms, started_ms) VALUES (?1, ?2, ?3, ?3)",
                    params![release.release, release.version, now_ms],
                )?;
                let mut insert = conn
                    .prepare_cached("INSERT OR IGNORE INTO assets (release, path, content_type, body, gzip) VALUES (?1, ?2, ?3, ?4, ?5)")?;
                for f in &release.files {
                    insert.execute(params![release.release, f.path, f.content_type, f.body, f.gzip])?;
                }
            }
            conn.execute(sql::PRUNE_ASSET_RELEASES.sqlite, params![keep])?;
            Ok(())
        })
        .await
    }

    async fn recorded_asset(&self, path: &str) -> Result<Option<RecordedAsset>, StoreError> {
        let path = path.to_string();
        self.read(move |conn| {
            conn.query_row(sql::RECORDED_ASSET.sqlite, params![path], |r| {
                Ok(RecordedAsset {
                    path: path.clone(),
                    content_type: r.get(0)?,
                    body: r.get(1)?,
                    gzip: r.get(2)?,
                })
            })
            .optional()
        })
        .await
    }
}
