//! `site restore FILE`: puts a backup in place of the SQLite database. Refused while a
//! server holds the database; the file is checked first (integrity, a schema this binary
//! knows); the database it replaces is kept beside it as `<name>.replaced-<UTC time>`
//! (with its -wal and -shm, if any).

use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::lock::{DatabaseLock, LockError};
use crate::store::sqlite::backup as sqlite_backup;
use crate::store::{migrations, sqlite};

/// What `restore` did.
#[derive(Debug)]
pub struct Restored {
    /// Where the replaced database was moved (None when there was none).
    pub kept: Option<PathBuf>,
    pub tables: Vec<(String, i64)>,
}

/// The message an operator gets when a server holds the database.
pub fn server_running(e: &LockError, db: &Path) -> String {
    match e.pid() {
        Some(pid) => format!(
            "a site server is running on {} (process {pid}): stop it first (`systemctl stop site`, or `kill -TERM {pid}`, \
             which lets it finish its requests), then run the command again",
            db.display()
        ),
        None => e.to_string(),
    }
}

/// Restores `backup` over the database at `db`.
pub fn restore(db: &Path, backup: &Path, now_ms: i64) -> Result<Restored, String> {
    let _lock = DatabaseLock::acquire(db).map_err(|e| server_running(&e, db))?;
    if let (Ok(a), Ok(b)) = (std::fs::canonicalize(db), std::fs::canonicalize(backup))
        && a == b
    {
        return Err("the backup is the database itself".into());
    }
    // The file first: a good SQLite file, with a schema this binary can run.
    let tables = sqlite_backup::check(backup).map_err(|e| format!("{} cannot be restored: {e}", backup.display()))?;
    {
        let conn =
            Connection::open_with_flags(backup, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|e| format!("{}: {e}", backup.display()))?;
        let applied = sqlite::applied_migrations(&conn).map_err(|e| format!("{}: {e}", backup.display()))?;
        if applied.is_empty() {
            return Err(format!("{} is not a site database (no schema_migrations table)", backup.display()));
        }
        migrations::pending(migrations::sqlite(), &applied).map_err(|e| format!("{} cannot be restored: {e}", backup.display()))?;
    }
    let dir = match db.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site.db".into());
    // Copied next to the database under a temporary name, flushed, then renamed over it.
    let partial = dir.join(format!(".{name}.restore.partial"));
    let copy = std::fs::copy(backup, &partial)
        .and_then(|_| std::fs::File::open(&partial))
        .and_then(|f| f.sync_all());
    if let Err(e) = copy {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("cannot copy {} to {}: {e}", backup.display(), partial.display()));
    }
    let kept = if db.exists() {
        let kept = dir.join(format!("{name}.replaced-{}", crate::time::file_stamp(now_ms)));
        for suffix in ["", "-wal", "-shm"] {
            let from = PathBuf::from(format!("{}{suffix}", db.display()));
            if from.exists() {
                let to = PathBuf::from(format!("{}{suffix}", kept.display()));
                std::fs::rename(&from, &to).map_err(|e| format!("cannot move {} aside: {e}", from.display()))?;
            }
        }
        Some(kept)
    } else {
        None
    };
    std::fs::rename(&partial, db).map_err(|e| format!("cannot put the backup at {}: {e}", db.display()))?;
    let _ = std::fs::File::open(&dir).and_then(|d| d.sync_all());
    Ok(Restored { kept, tables })
}

/// `site restore FILE`, with what it prints.
pub fn run(db: &Path, backup: &Path, out: &mut impl Write) -> Result<(), String> {
    let restored = restore(db, backup, crate::store::now_ms())?;
    let print = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "restored {} to {} (integrity_check ok)", backup.display(), db.display())?;
        match &restored.kept {
            Some(kept) => writeln!(out, "the database it replaced is kept as {}", kept.display())?,
            None => writeln!(out, "there was no database at {} before", db.display())?,
        }
        Ok(())
    };
    print(out).map_err(|e| e.to_string())?;
    super::backup::print_counts(&restored.tables, out).map_err(|e| e.to_string())?;
    writeln!(out, "start the site; it applies any migration the backup lacks").map_err(|e| e.to_string())
}
