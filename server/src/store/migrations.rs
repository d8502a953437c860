//! Numbered, checksummed migrations, shared by both backends: the list each one applies,
//! and the check a database passes before anything is written to it. Every applied
//! migration is recorded in `schema_migrations` with its name, the SHA-256 of its SQL and
//! the binary that applied it. A database holding a migration whose SQL changed after it was
//! applied is refused.
//!
//! Rolling upgrades (docs/operations.md, "Running several servers"): each migration says
//! which older binaries can still run on a database it has been applied to, its
//! `compatible_back_to`, recorded in `schema_migrations` beside it. An expand migration (a
//! new table, a nullable column) leaves the previous release working: it is marked
//! compatible back to that release's schema version. A contract migration (dropping or
//! renaming what an older binary still reads) is not, and ships a release later. A binary
//! meeting migrations it does not know (written by a newer `site`) starts when every one of
//! them is marked compatible with its own schema version, and refuses the database, having
//! written nothing, when one is not (docs/decisions/024-rolling-upgrades.md).

use sha2::{Digest, Sha256};

use super::StoreError;

/// One migration: `migrations/<backend>/<name>.sql`, applied in `version` order.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
    /// The oldest schema version a binary may know and still run on a database with this
    /// migration applied: `version` itself when no older binary can (a contract migration,
    /// or one never marked), the previous release's latest version for an expand migration.
    pub compatible_back_to: u32,
}

macro_rules! migration {
    ($version:literal, $backend:literal, $name:literal) => {
        migration!($version, $backend, $name, compatible_back_to = $version)
    };
    ($version:literal, $backend:literal, $name:literal, compatible_back_to = $back:literal) => {
        Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("../../migrations/", $backend, "/", $name, ".sql")),
            compatible_back_to: $back,
        }
    };
}

/// The lists with the cluster test's "newer release" migration appended (a debug build
/// only, chosen at run time: `crate::release`): the next version, adding a nullable column
/// to `leads`, marked compatible with the release before it (an expand migration).
#[cfg(debug_assertions)]
macro_rules! with_fixture {
    ($list:expr, $backend:literal) => {{
        const RELEASED: &[Migration] = $list;
        const ALL: [Migration; RELEASED.len() + 1] = appended(
            RELEASED,
            Migration {
                version: last_version(RELEASED) + 1,
                name: "next_release_fixture",
                sql: include_str!(concat!("../../migrations/fixture/", $backend, ".sql")),
                compatible_back_to: last_version(RELEASED),
            },
        );
        &ALL
    }};
}

/// The highest version of `list` (0 when empty), in a constant.
#[cfg(debug_assertions)]
const fn last_version(list: &[Migration]) -> u32 {
    let (mut i, mut v) = (0, 0);
    while i < list.len() {
        if list[i].version > v {
            v = list[i].version;
        }
        i += 1;
    }
    v
}

/// `list` with `last` after it (`N` is one more than its length).
#[cfg(debug_assertions)]
const fn appended<const N: usize>(list: &[Migration], last: Migration) -> [Migration; N] {
    let mut out = [last; N];
    let mut i = 0;
    while i < list.len() && i < N {
        out[i] = list[i];
        i += 1;
    }
    out
}

const SQLITE_RELEASED: &[Migration] = &[
    migration!(1, "sqlite", "0001_leads"),
    migration!(2, "sqlite", "0002_intake"),
    migration!(3, "sqlite", "0003_hardening"),
    migration!(4, "sqlite", "0004_staff"),
    migration!(5, "sqlite", "0005_console_health"),
    migration!(6, "sqlite", "0006_delivery_checks"),
    migration!(7, "sqlite", "0007_funnel"),
    migration!(8, "sqlite", "0008_claims_and_leader"),
    migration!(9, "sqlite", "0009_shared_limits"),
    migration!(10, "sqlite", "0010_assets", compatible_back_to = 7),
    migration!(11, "sqlite", "0011_intake_speed", compatible_back_to = 7),
    migration!(12, "sqlite", "0012_intake_indexes", compatible_back_to = 7),
    migration!(13, "sqlite", "0013_funnel_recount", compatible_back_to = 7),
    migration!(14, "sqlite", "0014_campaigns", compatible_back_to = 7),
    migration!(15, "sqlite", "0015_funnel_lock_order", compatible_back_to = 7),
    migration!(16, "sqlite", "0016_funnel_one_statement", compatible_back_to = 7),
    migration!(17, "sqlite", "0017_writer_counts_its_leads", compatible_back_to = 7),
];

const POSTGRES_RELEASED: &[Migration] = &[
    migration!(1, "postgres", "0001_leads"),
    migration!(2, "postgres", "0002_intake"),
    migration!(3, "postgres", "0003_hardening"),
    migration!(4, "postgres", "0004_staff"),
    migration!(5, "postgres", "0005_console_health"),
    migration!(6, "postgres", "0006_delivery_checks"),
    migration!(7, "postgres", "0007_funnel"),
    migration!(8, "postgres", "0008_claims_and_leader"),
    migration!(9, "postgres", "0009_shared_limits"),
    migration!(10, "postgres", "0010_assets", compatible_back_to = 7),
    migration!(11, "postgres", "0011_intake_speed", compatible_back_to = 7),
    migration!(12, "postgres", "0012_intake_indexes", compatible_back_to = 7),
    migration!(13, "postgres", "0013_funnel_recount", compatible_back_to = 7),
    migration!(14, "postgres", "0014_campaigns", compatible_back_to = 7),
    migration!(15, "postgres", "0015_funnel_lock_order", compatible_back_to = 7),
    migration!(16, "postgres", "0016_funnel_one_statement", compatible_back_to = 7),
    migration!(17, "postgres", "0017_writer_counts_its_leads", compatible_back_to = 7),
];

/// Every SQLite migration of this release, in order.
pub const SQLITE: &[Migration] = SQLITE_RELEASED;
/// Every PostgreSQL migration of this release, in order (the same numbers and names as SQLite's).
pub const POSTGRES: &[Migration] = POSTGRES_RELEASED;

/// The SQLite migrations this process applies: `SQLITE`, or, playing the cluster test's
/// newer release (`crate::release`), the fixture's after them.
pub fn sqlite() -> &'static [Migration] {
    #[cfg(debug_assertions)]
    if crate::release::next_release_fixture() {
        return with_fixture!(SQLITE_RELEASED, "sqlite");
    }
    SQLITE
}

/// The PostgreSQL migrations this process applies (as `sqlite`).
pub fn postgres() -> &'static [Migration] {
    #[cfg(debug_assertions)]
    if crate::release::next_release_fixture() {
        return with_fixture!(POSTGRES_RELEASED, "postgres");
    }
    POSTGRES
}

/// The columns added since the first release of the table, with their type on (SQLite,
/// PostgreSQL).
pub const ADDED_COLUMNS: [(&str, &str, &str); 4] = [
    ("name", "TEXT", "TEXT"),
    ("checksum", "TEXT", "TEXT"),
    ("applied_by", "TEXT", "TEXT"),
    ("compatible_back_to", "INTEGER", "BIGINT"),
];

impl Migration {
    /// SHA-256 of the SQL, hex.
    pub fn checksum(&self) -> String {
        crate::hex::hex(&Sha256::digest(self.sql.as_bytes()))
    }
}

/// The highest schema version of a list.
pub fn latest(list: &[Migration]) -> u32 {
    list.iter().map(|m| m.version).max().unwrap_or(0)
}

/// What `applied_by` records: this binary's name and version.
pub fn applied_by() -> String {
    format!("site {}", crate::release::version())
}

/// One row of `schema_migrations` (the last four are absent in older databases).
#[derive(Debug, Clone, Default)]
pub struct Applied {
    pub version: i64,
    pub name: Option<String>,
    pub checksum: Option<String>,
    pub applied_by: Option<String>,
    /// None in rows written before the marker was kept: no older binary may run on those.
    pub compatible_back_to: Option<i64>,
}

/// The migrations `applied` holds that `known` does not (a newer binary's), in order.
pub fn newer<'a>(known: &[Migration], applied: &'a [Applied]) -> Vec<&'a Applied> {
    applied
        .iter()
        .filter(|a| !known.iter().any(|m| i64::from(m.version) == a.version))
        .collect()
}

/// The migrations of `known` still to apply to a database that has `applied`, in order; or
/// why the database must not be touched: it holds a migration this binary does not know
/// that is not marked compatible with this binary's schema version, or one whose SQL
/// differs from this binary's.
pub fn pending<'a>(known: &'a [Migration], applied: &[Applied]) -> Result<Vec<&'a Migration>, StoreError> {
    let ours = i64::from(latest(known));
    let newer = newer(known, applied);
    // The first one this binary cannot run on: one marked for newer binaries only, or one
    // without the marker (written before it was kept).
    if let Some(blocking) = newer.iter().find(|a| a.compatible_back_to.is_none_or(|back| back > ours)) {
        let newest = newer.last().copied().unwrap_or(blocking);
        return Err(StoreError::SchemaTooNew {
            database: newest.version,
            name: newest.name.clone().unwrap_or_else(|| "unnamed".into()),
            applied_by: newest.applied_by.clone().unwrap_or_else(|| "an unknown version".into()),
            binary: latest(known),
            blocking: blocking.version,
            blocking_name: blocking.name.clone().unwrap_or_else(|| "unnamed".into()),
            needs: blocking.compatible_back_to.unwrap_or(blocking.version),
        });
    }
    for a in applied {
        let Some(m) = known.iter().find(|m| i64::from(m.version) == a.version) else {
            continue;
        };
        if let Some(recorded) = &a.checksum
            && *recorded != m.checksum()
        {
            return Err(StoreError::MigrationChanged {
                version: m.version,
                name: m.name.to_string(),
                recorded: recorded.chars().take(12).collect(),
                ours: m.checksum().chars().take(12).collect(),
            });
        }
    }
    Ok(known
        .iter()
        .filter(|m| !applied.iter().any(|a| a.version == i64::from(m.version)))
        .collect())
}

/// Says, once at start, that the database is ahead of this binary and that every newer
/// migration is marked compatible with it (what a rolling upgrade's older servers see).
pub fn log_newer(known: &[Migration], applied: &[Applied]) {
    if let Some(newest) = newer(known, applied).last() {
        tracing::warn!(
            database = newest.version,
            name = newest.name.as_deref().unwrap_or("unnamed"),
            applied_by = newest.applied_by.as_deref().unwrap_or("an unknown version"),
            binary = latest(known),
            "the database is at a newer schema version, marked compatible with this binary: running on it \
             (a rolling upgrade; replace this server with the newer binary)"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(version: i64, checksum: Option<String>) -> Applied {
        Applied {
            version,
            checksum,
            ..Applied::default()
        }
    }

    #[test]
    fn versions_are_numbered_from_one_without_gaps_and_names_carry_them() {
        for list in [SQLITE, POSTGRES] {
            for (i, m) in list.iter().enumerate() {
                assert_eq!(m.version as usize, i + 1);
                assert!(m.name.starts_with(&format!("{:04}_", m.version)), "{}", m.name);
            }
        }
        assert_eq!(latest(SQLITE), latest(POSTGRES), "both backends are at the same schema version");
    }

    #[test]
    fn pending_is_what_is_missing_and_refuses_the_unknown_and_the_changed() {
        let all = pending(SQLITE, &[]).expect("fresh");
        assert_eq!(all.len(), SQLITE.len());
        let some = pending(SQLITE, &[row(1, Some(SQLITE[0].checksum())), row(2, None)]).expect("older");
        let rest: Vec<u32> = SQLITE[2..].iter().map(|m| m.version).collect();
        assert_eq!(some.iter().map(|m| m.version).collect::<Vec<_>>(), rest);
        let newer = pending(SQLITE, &[row(1, None), row(99, None)]).expect_err("newer");
        assert!(
            matches!(
                newer,
                StoreError::SchemaTooNew {
                    database: 99,
                    binary,
                    blocking: 99,
                    needs: 99,
                    ..
                } if Some(binary) == SQLITE.last().map(|m| m.version)
            ),
            "{newer}"
        );
        let changed = pending(SQLITE, &[row(1, Some("0".repeat(64)))]).expect_err("changed");
        assert!(matches!(changed, StoreError::MigrationChanged { version: 1, .. }), "{changed}");
    }

    #[test]
    fn an_older_binary_runs_on_newer_migrations_only_when_each_is_marked_compatible_with_it() {
        let ours = i64::from(latest(SQLITE));
        let mut applied: Vec<Applied> = SQLITE.iter().map(|m| row(i64::from(m.version), Some(m.checksum()))).collect();
        let newer_row = |version: i64, back: Option<i64>| Applied {
            version,
            name: Some(format!("{version:04}_newer")),
            compatible_back_to: back,
            ..Applied::default()
        };
        // Two expand migrations of the next release, both marked compatible with this one.
        applied.push(newer_row(ours + 1, Some(ours)));
        applied.push(newer_row(ours + 2, Some(ours)));
        assert!(pending(SQLITE, &applied).expect("compatible").is_empty());
        assert_eq!(newer(SQLITE, &applied).len(), 2);
        // A contract migration that needs the next release: refused, naming it.
        applied.push(newer_row(ours + 3, Some(ours + 1)));
        let refused = pending(SQLITE, &applied).expect_err("a contract migration");
        assert!(
            matches!(&refused, StoreError::SchemaTooNew { database, blocking, needs, .. }
                if *database == ours + 3 && *blocking == ours + 3 && *needs == ours + 1),
            "{refused}"
        );
        let message = refused.to_string();
        assert!(
            message.contains("is not marked compatible") && message.contains("Nothing was written"),
            "{message}"
        );
        // A row without the marker (written before it was kept) is never compatible.
        applied.truncate(SQLITE.len());
        applied.push(newer_row(ours + 1, None));
        assert!(pending(SQLITE, &applied).is_err());
    }

    #[test]
    fn every_migration_is_compatible_with_no_binary_newer_than_itself() {
        for list in [SQLITE, POSTGRES] {
            for m in list {
                assert!(m.compatible_back_to <= m.version, "{}", m.name);
            }
        }
        for (s, p) in SQLITE.iter().zip(POSTGRES) {
            assert_eq!(
                s.compatible_back_to, p.compatible_back_to,
                "{} is marked alike on both backends",
                s.name
            );
        }
    }
}
