//! SQLite: the releases' content-hashed files (see `store/assets.rs`). When a release last
//! started is judged by SQLite's clock, the one server's own, as PostgreSQL judges it by its own.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::store::StoreError;
use crate::store::assets::{AssetRelease, RecordedAsset};
use crate::store::backend::Assets;
use crate::store::sql::{self, statements};

statements! {
    /// Marks release `?1` started now (never earlier than it was) with version `?2`.
    RESTART = concat!(
        "UPDATE asset_releases SET started_ms = max(started_ms, ",
        db_now_ms!(),
        "), version = ?2 WHERE release = ?1"
    );
    /// Release `?1` of version `?2`, first started now.
    INSERT_RELEASE = concat!(
        "INSERT INTO asset_releases (release, version, first_ms, started_ms) VALUES (?1, ?2, ",
        db_now_ms!(),
        ", ",
        db_now_ms!(),
        ")"
    );
    /// A file (`?2` its path, `?3` type, `?4` body, `?5` gzipped body) of release `?1`, once.
    INSERT_ASSET = "INSERT OR IGNORE INTO assets (release, path, content_type, body, gzip) VALUES (?1, ?2, ?3, ?4, ?5)";
}

#[async_trait]
impl Assets for SqliteStore {
    async fn record_assets(&self, release: &AssetRelease, keep: usize) -> Result<(), StoreError> {
        let release = release.clone();
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.write(move |conn| {
            if restart(conn, &release.release, &release.version, keep)? {
                return Ok(());
            }
            conn.prepare_cached(INSERT_RELEASE)?
                .execute(params![release.release, release.version])?;
            let mut insert = conn.prepare_cached(INSERT_ASSET)?;
            for f in &release.files {
                insert.execute(params![release.release, f.path, f.content_type, f.body, f.gzip])?;
            }
            conn.prepare_cached(sql::PRUNE_ASSET_RELEASES.sqlite)?.execute(params![keep])?;
            Ok(())
        })
        .await
    }

    async fn restart_release(&self, release: &str, version: &str, keep: usize) -> Result<bool, StoreError> {
        let (release, version) = (release.to_string(), version.to_string());
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.write(move |conn| restart(conn, &release, &version, keep)).await
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

/// Marks a recorded release started now and prunes the releases started before the `keep`
/// last; false, changing nothing, when the release is not recorded.
fn restart(conn: &Connection, release: &str, version: &str, keep: i64) -> rusqlite::Result<bool> {
    let known = conn.prepare_cached(RESTART)?.execute(params![release, version])? > 0;
    if known {
        conn.prepare_cached(sql::PRUNE_ASSET_RELEASES.sqlite)?.execute(params![keep])?;
    }
    Ok(known)
}
