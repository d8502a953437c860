//! The lock that keeps two servers (or a server and `site restore` / `site copy-store`) off
//! one SQLite file: an exclusive `flock` on `<database>.lock`, held for the life of the
//! process (the kernel drops it when the process ends, however it ends). The file holds
//! the holder's process id, for the message the next one gets.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Held while alive.
#[derive(Debug)]
pub struct DatabaseLock {
    _file: File,
    pub path: PathBuf,
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("another process is using {database} (process {pid} holds {lock})")]
    Held { database: String, lock: String, pid: String },
    #[error("cannot open {lock}: {message}")]
    Io { lock: String, message: String },
}

impl LockError {
    /// The holder's process id as the file records it ("unknown" if it does not).
    pub fn pid(&self) -> Option<&str> {
        match self {
            LockError::Held { pid, .. } => Some(pid),
            LockError::Io { .. } => None,
        }
    }
}

/// The lock file of the database at `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    db.with_file_name(name)
}

impl DatabaseLock {
    /// Takes the lock of the database at `db` without waiting.
    pub fn acquire(db: &Path) -> Result<Self, LockError> {
        let path = lock_path(db);
        let io = |e: std::io::Error| LockError::Io {
            lock: path.display().to_string(),
            message: e.to_string(),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                let pid = pid.trim();
                return Err(LockError::Held {
                    database: db.display().to_string(),
                    lock: path.display().to_string(),
                    pid: if pid.is_empty() { "unknown".into() } else { pid.to_string() },
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(Self { _file: file, path })
    }
}
