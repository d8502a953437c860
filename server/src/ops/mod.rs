//! The operator's commands besides serving: `site --version`, `site config check`,
//! `site backup`, `site restore` and `site copy-store`, the server's own scheduled backups,
//! and the lock that keeps two servers off one SQLite file. `main.rs` dispatches what
//! `cli` parsed to these.
//!
//! One file per command: `version.rs` (`site --version`), `config_check.rs` (`site config
//! check`: every value with its origin, every problem, through `AppState::check`; no
//! listener, no database), `backup.rs` (`site backup`, scheduled backups and their pruning),
//! `restore.rs`, `copy_store/` (SQLite to PostgreSQL, verified by count and hash), and
//! `lock.rs` (one server per SQLite file). `tables.rs` lists every table in dependency
//! order: the one list to extend when a migration adds one. Only `config_check.rs` imports
//! `cli`, `config` and `state`.

pub mod backup;
pub mod config_check;
pub mod copy_store;
pub mod lock;
pub mod restore;
pub mod tables;
pub mod version;

/// The SQLite file a `sqlite:PATH` (or `sqlite://PATH`) URL names; None for any other URL.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    url.strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .map(std::path::PathBuf::from)
}
