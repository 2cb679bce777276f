//! Versioned migrations. The file's `PRAGMA user_version` is the number of migrations
//! applied; each pending one runs in its own transaction together with the version bump,
//! so a crash mid-way leaves the file at the previous version. Append only: never edit
//! or reorder a released migration, add a new one.

use std::path::Path;

use rusqlite::Connection;

use crate::StoreError;

/// The migrations, in order; migration `i` brings the file to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: a specialist's saved skill settings (one row: the current revision)
    "CREATE TABLE skill_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL CHECK (revision >= 1),
        document TEXT NOT NULL,
        saved_at_ms INTEGER NOT NULL
    ) STRICT;",
];

/// The schema version this build writes and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Brings the file to [`SCHEMA_VERSION`]; refuses a file from a newer build.
pub(crate) fn apply(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let sqlite = |e: rusqlite::Error| StoreError::Sqlite {
        path: path.to_path_buf(),
        reason: e.to_string().to_lowercase(),
    };
    let found = user_version(conn).map_err(|e| StoreError::open(path, e))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew { path: path.to_path_buf(), found, known: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let version = i as u32 + 1;
        let tx = conn.transaction().map_err(sqlite)?;
        tx.execute_batch(sql).map_err(sqlite)?;
        tx.pragma_update(None, "user_version", version).map_err(sqlite)?;
        tx.commit().map_err(sqlite)?;
        tracing::info!(version, file = %path.display(), "data file migrated");
    }
    Ok(())
}
