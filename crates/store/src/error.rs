use std::path::{Path, PathBuf};

/// Why the store could not do something. Each variant has a stable [`code`](Self::code);
/// the message is one lowercase line naming the file.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// The data folder could not be created or used.
    #[error("data folder {}: {reason}", path.display())]
    Folder { path: PathBuf, reason: String },
    /// The file exists but is not a readable database (corrupt, not SQLite, no permission).
    #[error("{}: cannot read the data file ({reason}); move it away to start this agent from its defaults", path.display())]
    Unreadable { path: PathBuf, reason: String },
    /// The file was written by a newer build than this one.
    #[error(
        "{}: the data file is at schema version {found}, newer than this build knows ({known}); run a newer build or move the file away", path.display()
    )]
    TooNew { path: PathBuf, found: u32, known: u32 },
    /// Someone else wrote the row this write started from (another process on the same file).
    #[error("{}: the stored {what} changed underneath this agent (another process using the same data folder?)", path.display())]
    Conflict { path: PathBuf, what: &'static str },
    /// A checkpoint could not empty the write-ahead log (another connection kept using it).
    #[error("{}: the write-ahead log could not be emptied: {reason}", path.display())]
    Checkpoint { path: PathBuf, reason: String },
    /// Any other SQLite failure (disk full, read-only file, …).
    #[error("{}: {reason}", path.display())]
    Sqlite { path: PathBuf, reason: String },
    /// The blocking worker thread was lost (panic or runtime shutdown).
    #[error("the store's worker thread stopped")]
    Worker,
}

impl StoreError {
    /// A stable code for callers and tests.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::Folder { .. } => "store_folder",
            StoreError::Unreadable { .. } => "store_unreadable",
            StoreError::TooNew { .. } => "store_too_new",
            StoreError::Conflict { .. } => "store_conflict",
            StoreError::Checkpoint { .. } => "store_checkpoint",
            StoreError::Sqlite { .. } => "store_failed",
            StoreError::Worker => "store_worker",
        }
    }

    /// An error while opening: a file SQLite cannot read as a database is `Unreadable`.
    pub(crate) fn open(path: &Path, e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode::{CannotOpen, DatabaseCorrupt, NotADatabase, PermissionDenied, ReadOnly};
        let reason = e.to_string().to_lowercase();
        let path = path.to_path_buf();
        match e.sqlite_error_code() {
            Some(NotADatabase | DatabaseCorrupt | CannotOpen | PermissionDenied | ReadOnly) => {
                StoreError::Unreadable { path, reason }
            }
            _ => StoreError::Sqlite { path, reason },
        }
    }
}
