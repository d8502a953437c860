//! A consistent copy of a live SQLite database, and the check of one. The copy is SQLite's
//! online backup API in a single step: one read transaction, so it is a snapshot of the
//! moment it began, taken while the writer goes on committing leads (WAL readers do not
//! block the writer), and page for page, so rowids (which the FTS5 name index is keyed by)
//! are kept. It is written under a temporary name, checked (`PRAGMA integrity_check`,
//! row counts), flushed to disk and only then renamed: a crash or a kill mid-way never
//! leaves a file under the final name. Every backup is readable by its owner only (0600).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use crate::store::StoreError;
use crate::store::sql::{built, statements};

statements! {
    INTEGRITY_CHECK = "PRAGMA integrity_check";
    /// The tables a database defines for itself: ordinary and virtual tables, without
    /// SQLite's internal ones and the shadow tables behind a virtual table.
    USER_TABLES = "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') \
         AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
}

/// What a finished backup holds.
#[derive(Debug, Clone)]
pub struct BackupReport {
    pub path: PathBuf,
    pub bytes: u64,
    /// Every table and its row count, by name.
    pub tables: Vec<(String, i64)>,
    pub elapsed: Duration,
}

fn err(message: impl Into<String>) -> StoreError {
    StoreError::Backup(message.into())
}

/// The temporary name a backup to `dest` is written under: hidden, beside it, so the final
/// rename stays on one file system.
pub fn partial_name(dest: &Path) -> PathBuf {
    let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    dest.with_file_name(format!(".{name}.{}.partial", std::process::id()))
}

/// Copies the database at `src` to `dest` (which must not exist), checks the copy and
/// renames it into place.
pub fn backup(src: &Path, dest: &Path) -> Result<BackupReport, StoreError> {
    let started = Instant::now();
    if dest.exists() {
        return Err(err(format!("{} exists already: choose a new name", dest.display())));
    }
    if !src.is_file() {
        return Err(err(format!("no database at {}", src.display())));
    }
    if let (Ok(a), Ok(b)) = (
        std::fs::canonicalize(src),
        dest.parent().map(std::fs::canonicalize).unwrap_or(Ok(PathBuf::new())),
    ) && dest.file_name().is_some_and(|n| b.join(n) == a)
    {
        return Err(err("the backup cannot be the database itself"));
    }
    let dir = match dest.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    create_private_dir(&dir).map_err(|e| err(format!("cannot create {}: {e}", dir.display())))?;
    remove_stale_partials(dest);
    let partial = partial_name(dest);
    let result = copy_and_check(src, &partial);
    let tables = match result {
        Ok(tables) => tables,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    let sync = |path: &Path| std::fs::File::open(path).and_then(|f| f.sync_all());
    if let Err(e) = sync(&partial).and_then(|()| std::fs::rename(&partial, dest)) {
        let _ = std::fs::remove_file(&partial);
        return Err(err(format!("cannot put the backup at {}: {e}", dest.display())));
    }
    // The rename itself is durable once the folder is.
    let _ = sync(&dir);
    let bytes = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport {
        path: dest.to_path_buf(),
        bytes,
        tables,
        elapsed: started.elapsed(),
    })
}

/// Temporary files of earlier backups to `dest` that were killed mid-way.
fn remove_stale_partials(dest: &Path) {
    let (Some(dir), Some(name)) = (dest.parent(), dest.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.starts_with(&prefix) && file.ends_with(".partial") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A folder made for backups (and any missing parent) is its owner's only (0700); one that
/// exists is left as it is.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// A new empty file only its owner may read and write (0600, whatever the umask):
/// a backup holds every lead. SQLite writes the database into it, and gives its journal the
/// same mode.
fn create_private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map(drop)
}

fn copy_and_check(src: &Path, partial: &Path) -> Result<Vec<(String, i64)>, StoreError> {
    let _ = std::fs::remove_file(partial);
    create_private_file(partial).map_err(|e| err(format!("cannot create {}: {e}", partial.display())))?;
    let from = Connection::open_with_flags(src, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    from.busy_timeout(Duration::from_secs(10))?;
    let mut to = Connection::open(partial)?;
    {
        let copy = Backup::new(&from, &mut to)?;
        let deadline = Instant::now() + Duration::from_secs(60);
        // All pages in one step: one read transaction, a snapshot. Busy only while another
        // connection holds an exclusive lock (a checkpoint truncating the WAL): wait.
        loop {
            match copy.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                _ if Instant::now() > deadline => return Err(err("the database stayed locked for 60 s")),
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
    // A self-contained file: no -wal beside it (the server turns WAL on again when it opens it).
    to.pragma_update(None, "journal_mode", "DELETE")?;
    to.close().map_err(|(_, e)| StoreError::from(e))?;
    drop(from);
    check(partial)
}

/// Checks a database file without changing it: `PRAGMA integrity_check` must say "ok";
/// returns every table's row count.
pub fn check(path: &Path) -> Result<Vec<(String, i64)>, StoreError> {
    if !path.is_file() {
        return Err(err(format!("no file at {}", path.display())));
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    let problems: Vec<String> = {
        let mut stmt = conn
            .prepare(INTEGRITY_CHECK)
            .map_err(|e| err(format!("{} is not a SQLite database ({e})", path.display())))?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect::<Result<_, _>>()
            .map_err(|e| err(format!("{} is not a readable SQLite database ({e})", path.display())))?
    };
    if problems != ["ok"] {
        let shown: Vec<&str> = problems.iter().take(5).map(String::as_str).collect();
        return Err(err(format!("integrity_check failed on {}: {}", path.display(), shown.join("; "))));
    }
    table_counts(&conn)
}

/// The ordinary tables of a database (not SQLite's own, not FTS5's shadow tables) with their
/// row counts, by name.
pub fn table_counts(conn: &Connection) -> Result<Vec<(String, i64)>, StoreError> {
    let names = user_tables(conn)?;
    let mut counts = Vec::with_capacity(names.len());
    for name in names {
        let n: i64 = conn.query_row(&built::count_rows(&name), [], |r| r.get(0))?;
        counts.push((name, n));
    }
    Ok(counts)
}

/// The names of the tables a database defines for itself: ordinary and virtual tables,
/// without SQLite's internal ones and the shadow tables behind a virtual table.
pub fn user_tables(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare(USER_TABLES)?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
