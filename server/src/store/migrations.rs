//! Numbered, checksummed migrations, shared by both backends: the list each one applies,
//! and the check a database passes before anything is written to it. Every applied
//! migration is recorded in `schema_migrations` with its name, the SHA-256 of its SQL and
//! the binary that applied it. A database holding a migration this binary does not know
//! (written by a newer `site`), or one whose SQL changed after it was applied, is refused.

use sha2::{Digest, Sha256};

use super::StoreError;

/// One migration: `migrations/<backend>/<name>.sql`, applied in `version` order.
#[derive(Debug)]
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

macro_rules! migration {
    ($version:literal, $backend:literal, $name:literal) => {
        Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("../../migrations/", $backend, "/", $name, ".sql")),
        }
    };
}

pub const SQLITE: &[Migration] = &[
    migration!(1, "sqlite", "0001_leads"),
    migration!(2, "sqlite", "0002_intake"),
    migration!(3, "sqlite", "0003_hardening"),
    migration!(4, "sqlite", "0004_staff"),
    migration!(5, "sqlite", "0005_console_health"),
    migration!(6, "sqlite", "0006_delivery_checks"),
    migration!(7, "sqlite", "0007_funnel"),
    migration!(8, "sqlite", "0008_claims_and_leader"),
    migration!(9, "sqlite", "0009_shared_limits"),
];

pub const POSTGRES: &[Migration] = &[
    migration!(1, "postgres", "0001_leads"),
    migration!(2, "postgres", "0002_intake"),
    migration!(3, "postgres", "0003_hardening"),
    migration!(4, "postgres", "0004_staff"),
    migration!(5, "postgres", "0005_console_health"),
    migration!(6, "postgres", "0006_delivery_checks"),
    migration!(7, "postgres", "0007_funnel"),
    migration!(8, "postgres", "0008_claims_and_leader"),
    migration!(9, "postgres", "0009_shared_limits"),
];

/// The table that records them, as each backend creates it (older databases lack the last
/// three columns: they are added, and the checksums of the rows filled in, at start).
pub const SQLITE_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL, \
     name TEXT, checksum TEXT, applied_by TEXT)";
pub const POSTGRES_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL, \
     name TEXT, checksum TEXT, applied_by TEXT)";
/// The columns added since the first release of the table.
pub const ADDED_COLUMNS: [&str; 3] = ["name", "checksum", "applied_by"];

impl Migration {
    /// SHA-256 of the SQL, hex.
    pub fn checksum(&self) -> String {
        Sha256::digest(self.sql.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The highest schema version of a list.
pub fn latest(list: &[Migration]) -> u32 {
    list.iter().map(|m| m.version).max().unwrap_or(0)
}

/// What `applied_by` records: this binary's name and version.
pub fn applied_by() -> String {
    format!("site {}", env!("CARGO_PKG_VERSION"))
}

/// One row of `schema_migrations` (the last three are absent in older databases).
#[derive(Debug, Clone, Default)]
pub struct Applied {
    pub version: i64,
    pub name: Option<String>,
    pub checksum: Option<String>,
    pub applied_by: Option<String>,
}

/// The migrations of `known` still to apply to a database that has `applied`, in order; or
/// why the database must not be touched: it holds a migration this binary does not know,
/// or one whose SQL differs from this binary's.
pub fn pending<'a>(known: &'a [Migration], applied: &[Applied]) -> Result<Vec<&'a Migration>, StoreError> {
    if let Some(newest) = applied
        .iter()
        .filter(|a| !known.iter().any(|m| i64::from(m.version) == a.version))
        .max_by_key(|a| a.version)
    {
        return Err(StoreError::SchemaTooNew {
            database: newest.version,
            name: newest.name.clone().unwrap_or_else(|| "unnamed".into()),
            applied_by: newest.applied_by.clone().unwrap_or_else(|| "an unknown version".into()),
            binary: latest(known),
            binary_site: applied_by(),
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
                    ..
                } if Some(binary) == SQLITE.last().map(|m| m.version)
            ),
            "{newer}"
        );
        let changed = pending(SQLITE, &[row(1, Some("0".repeat(64)))]).expect_err("changed");
        assert!(matches!(changed, StoreError::MigrationChanged { version: 1, .. }), "{changed}");
    }
}
