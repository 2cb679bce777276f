//! Each agent's own SQLite file (`<data dir>/<agent>.sqlite3`), opened once at startup.
//!
//! - [`Store::open`] creates the folder and the file on first start, turns on WAL,
//!   checks the file (an unreadable or corrupt file is refused, never replaced), and
//!   applies the [migrations](migrate) it has not seen yet, each in its own transaction.
//!   A file written by a newer build (a higher `PRAGMA user_version` than this code
//!   knows) is refused with [`StoreError::TooNew`].
//! - Typed operations per concern live in their own module: [`settings`] (a specialist's
//!   saved skill settings), [`operations`] (exactly-once results), [`tutoring`] (tutoring
//!   requests), [`bookings`] (study-room bookings, one row per booked hour so a double
//!   booking is a constraint violation), [`form_refs`] (the Hub's form references),
//!   [`ledger`] (the Hub's request ledger), [`loans`] (the Library's demo loans) and
//!   [`pins`] (other agents' public keys).
//!   Operations that may run inside an [exactly-once](Store::once) effect are methods
//!   of [`Tx`]; the `Store` method of the same name runs them in a transaction of their
//!   own.
//! - Every write transaction starts `IMMEDIATE` (it takes the write lock first and waits
//!   up to the busy timeout for it), so two handles on one file never interleave a
//!   read-then-write.
//! - No connection checkpoints on its own: one thread per open file empties the
//!   write-ahead log each time it passes 16 MB, and a write waits (back-pressure) rather
//!   than let it pass 64 MB ([`checkpoint`]).
//! - Every operation is blocking SQLite work: call it on a blocking thread
//!   ([`Store::run`], or from inside `tokio::task::spawn_blocking`), never on an async
//!   worker thread.
//!
//! Deleting the file resets that agent.

pub mod bookings;
pub mod checkpoint;
mod error;
pub mod form_refs;
pub mod forms;
pub mod ledger;
pub mod loans;
mod migrate;
pub mod operations;
pub mod pins;
pub mod settings;
pub mod tutoring;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use checkpoint::{Checkpointer, Log};
pub use error::StoreError;
pub use migrate::SCHEMA_VERSION;

/// The data folder unless `CAMPUS_DATA_DIR` says otherwise (relative to the working directory).
pub const DEFAULT_DATA_DIR: &str = "data";

/// The file an agent keeps in `dir`.
pub fn file_for(dir: &Path, agent: &str) -> PathBuf {
    dir.join(format!("{agent}.sqlite3"))
}

/// What a commit survives once it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// A killed process and a power cut (`synchronous = FULL`: an fsync per commit).
    /// For rare writes: settings, records a student was promised.
    PowerCut,
    /// A killed process, not a power cut (`synchronous = NORMAL` in WAL mode: commits
    /// reach the OS at once, the disk at the next checkpoint). For a write per request
    /// (the Hub's ledger), where an fsync each would cap the request rate.
    ProcessKill,
}

/// How long a write waits for another connection's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// SQLite's message for `SQLITE_BUSY` (as the store's errors carry it, lowercased).
const BUSY_MESSAGE: &str = "database is locked";

/// One agent's open database. Cheap to clone; clones share the connection.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    conn: Mutex<Connection>,
    /// The file's checkpointer, shared with [`Store::connect_again`]'s connections (after
    /// `conn`: the connection closes first).
    checkpoints: Arc<Checkpointer>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.inner.path).finish()
    }
}

impl Store {
    /// Opens (creating folder and file if missing) and migrates the file at `path`, with
    /// [`Durability::PowerCut`]. Blocking.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, Durability::PowerCut)
    }

    /// [`Store::open`] with the given durability. Blocking.
    pub fn open_with(path: &Path, durability: Durability) -> Result<Store, StoreError> {
        Store::open_logged(path, durability, Log::new)
    }

    /// [`Store::open_with`], the file's log kept by `log` (tests give it smaller limits).
    fn open_logged(
        path: &Path,
        durability: Durability,
        log: impl FnOnce(&Path, u64) -> Arc<Log>,
    ) -> Result<Store, StoreError> {
        let path = path.to_path_buf();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Folder { path: dir.to_path_buf(), reason: io_reason(&e) })?;
        }
        forget_deleted(&path)?;
        // Several processes opening a new file at once: some steps (switching the new file
        // to WAL, its first migration) can meet another's lock without SQLite waiting the
        // busy timeout for it; the whole opening is then tried again until the timeout.
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        let mut conn = loop {
            match Store::connect(&path, durability) {
                Err(StoreError::Sqlite { reason, .. })
                    if reason.contains(BUSY_MESSAGE) && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(e),
                Ok(conn) => break conn,
            }
        };
        let page_size: i64 =
            conn.query_row("PRAGMA page_size", [], |r| r.get(0)).map_err(|e| StoreError::open(&path, e))?;
        let log = log(&path, u64::try_from(page_size).unwrap_or(4096));
        let checkpoints = Arc::new(Checkpointer::start(log)?);
        Store::watch_log(&mut conn, &path, checkpoints.log())?;
        Ok(Store { inner: Arc::new(Inner { path, conn: Mutex::new(conn), checkpoints }) })
    }

    /// Hands the connection's checkpoints to the file's checkpointer (see [`checkpoint`]):
    /// its commits note the log's length instead of checkpointing, and a log that starts
    /// over is cut back to [`checkpoint::CHECKPOINT_AT`].
    fn watch_log(conn: &mut Connection, path: &Path, log: &Arc<Log>) -> Result<(), StoreError> {
        conn.pragma_update(None, "journal_size_limit", checkpoint::CHECKPOINT_AT as i64)
            .map_err(|e| StoreError::open(path, e))?;
        let log = Arc::clone(log);
        // replaces SQLite's automatic checkpoint, which is a hook of its own
        conn.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, frames: std::ffi::c_int| {
            log.committed(u64::try_from(frames).unwrap_or(0));
            Ok(())
        }))
        .map_err(|e| StoreError::open(path, e))
    }

    /// One attempt at opening, checking and migrating the file at `path`.
    fn connect(path: &Path, durability: Durability) -> Result<Connection, StoreError> {
        let path = path.to_path_buf();
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let existed = path.exists();
        let mut conn = Connection::open_with_flags(&path, flags).map_err(|e| match path.parent() {
            // no file yet, and none could be made: the folder is the problem
            Some(dir) if !existed => StoreError::Folder {
                path: dir.to_path_buf(),
                reason: format!("cannot create {} ({})", path.display(), e.to_string().to_lowercase()),
            },
            _ => StoreError::open(&path, e),
        })?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| StoreError::open(&path, e))?;
        // The first statements read the header: a file that is not a database fails here.
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| StoreError::open(&path, e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Unreadable {
                path,
                reason: format!("journal mode {mode} instead of wal"),
            });
        }
        let synchronous = match durability {
            Durability::PowerCut => "FULL",
            Durability::ProcessKill => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous).map_err(|e| StoreError::open(&path, e))?;
        let check: String =
            conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| StoreError::open(&path, e))?;
        if check != "ok" {
            return Err(StoreError::Unreadable { path, reason: "the integrity check failed".into() });
        }
        migrate::apply(&mut conn, &path)?;
        Ok(conn)
    }

    /// Opens `<dir>/<agent>.sqlite3` on a blocking thread.
    pub async fn open_agent(dir: &Path, agent: &str) -> Result<Store, StoreError> {
        Store::open_agent_with(dir, agent, Durability::PowerCut).await
    }

    /// [`Store::open_agent`] with the given durability.
    pub async fn open_agent_with(
        dir: &Path,
        agent: &str,
        durability: Durability,
    ) -> Result<Store, StoreError> {
        let path = file_for(dir, agent);
        tokio::task::spawn_blocking(move || Store::open_with(&path, durability))
            .await
            .map_err(|_| StoreError::Worker)?
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs blocking store work on tokio's blocking pool.
    pub async fn run<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || work(&store)).await.map_err(|_| StoreError::Worker)?
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        let conn = self.conn();
        migrate::user_version(&conn).map_err(|e| self.sqlite(e))
    }

    /// The journal mode in force (`wal`).
    pub fn journal_mode(&self) -> Result<String, StoreError> {
        self.conn().query_row("PRAGMA journal_mode", [], |r| r.get(0)).map_err(|e| self.sqlite(e))
    }

    /// SQLite's full check of the file (`PRAGMA integrity_check`): `ok`, or its first
    /// finding. Blocking (it reads the whole file).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.conn().query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(|e| self.sqlite(e))
    }

    /// A second connection to this store's file, with its own lock and settings (a
    /// writer that commits on an async thread must not wait behind blocking work holding
    /// this one). Blocking.
    /// Like every connection, it never checkpoints itself: its commits never wait for the
    /// disk in a checkpoint (the file's checkpointer, shared with this store, does that).
    pub fn connect_again(&self, durability: Durability) -> Result<Store, StoreError> {
        let path = self.inner.path.clone();
        let mut conn = Store::connect(&path, durability)?;
        let checkpoints = Arc::clone(&self.inner.checkpoints);
        Store::watch_log(&mut conn, &path, checkpoints.log())?;
        Ok(Store { inner: Arc::new(Inner { path, conn: Mutex::new(conn), checkpoints }) })
    }

    /// Copies the whole write-ahead log into the file and empties it now, on this
    /// connection (the file's checkpointer does this by itself as the log grows; see
    /// [`checkpoint`]). [`StoreError::Checkpoint`] when another connection kept using the
    /// log. Blocking (it waits for the disk, and holds writers back while it finishes).
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        checkpoint::empty(&self.conn(), &self.inner.path)
    }

    /// Runs `work` in one `IMMEDIATE` transaction, committed when it returns `Ok` and
    /// rolled back otherwise.
    pub(crate) fn write<T, E: From<StoreError>>(
        &self,
        work: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        // before taking the connection: a log past its cap is emptied first (back-pressure)
        self.inner.checkpoints.log().wait_for_room(BUSY_TIMEOUT);
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| E::from(self.sqlite(e)))?;
        let out = work(&Tx { tx: &tx, store: self })?;
        tx.commit().map_err(|e| E::from(self.sqlite(e)))?;
        Ok(out)
    }

    /// Every row `sql` selects with `params`, read by `row`.
    pub(crate) fn select<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(sql).map_err(|e| self.sqlite(e))?;
        let rows = stmt.query_map(params, row).map_err(|e| self.sqlite(e))?;
        rows.collect::<rusqlite::Result<_>>().map_err(|e| self.sqlite(e))
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half-done write: transactions roll back.
        self.inner.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn sqlite(&self, e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite { path: self.inner.path.clone(), reason: e.to_string().to_lowercase() }
    }
}

/// An open write transaction: the operations that may run inside an
/// [exactly-once](Store::once) effect, committed or rolled back with it.
pub struct Tx<'a> {
    tx: &'a Transaction<'a>,
    store: &'a Store,
}

impl Tx<'_> {
    fn sqlite(&self, e: rusqlite::Error) -> StoreError {
        self.store.sqlite(e)
    }
}

/// A day in milliseconds (the tables' age caps are counted in days).
pub const DAY_MS: i64 = 86_400_000;

impl Tx<'_> {
    /// Deletes the rows of `table` older than its newest `keep` (by `key`, an integer
    /// that grows with each insert: its rowid or its own sequence). One b-tree lookup
    /// when nothing is due.
    pub(crate) fn prune_past_count(&self, table: &str, key: &str, keep: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(&format!(
                "DELETE FROM {table} WHERE {key} <= (SELECT max({key}) FROM {table}) - ?1"
            ))
            .and_then(|mut s| s.execute([keep]))
            .map_err(|e| self.sqlite(e))?;
        Ok(())
    }

    /// Deletes the rows of `table` written (`created_at_ms`) more than `max_age_ms` before
    /// `now_ms` and, if `unless` is given (SQL, where `?2` is `now_ms`), not matching it.
    /// Rows are found in `key` order (the order they were written), stopping at the first
    /// young one: as cheap as the rows it deletes, plus those `unless` spares.
    pub(crate) fn prune_past_age(
        &self,
        table: &str,
        key: &str,
        max_age_ms: i64,
        now_ms: i64,
        unless: Option<&str>,
    ) -> Result<(), StoreError> {
        // up to the first young row, or all when none is young
        let older = format!(
            "DELETE FROM {table} WHERE {key} < coalesce(
                 (SELECT {key} FROM {table} WHERE created_at_ms >= ?1 ORDER BY {key} LIMIT 1),
                 (SELECT max({key}) + 1 FROM {table}))"
        );
        let sql = match unless {
            None => older,
            Some(spared) => format!("{older} AND NOT ({spared})"),
        };
        let cutoff = now_ms.saturating_sub(max_age_ms);
        let values: [&dyn rusqlite::ToSql; 2] = [&cutoff, &now_ms];
        self.tx
            .prepare_cached(&sql)
            // `?2` only where `unless` uses it
            .and_then(|mut s| {
                let n = s.parameter_count().min(values.len());
                s.execute(&values[..n])
            })
            .map_err(|e| self.sqlite(e))?;
        Ok(())
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A new opaque id: `prefix` and a UUIDv7 in hex (`bk-0190…`).
pub(crate) fn new_id(prefix: &str) -> String {
    format!("{prefix}-{}", uuid::Uuid::now_v7().simple())
}

/// Deleting the file resets the agent: WAL and shared-memory files left beside a deleted
/// database are removed before a new one is created (defensive: they belong to the old
/// file and must never be read with the new one).
fn forget_deleted(path: &Path) -> Result<(), StoreError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        _ => return Ok(()),
    }
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        match std::fs::remove_file(&side) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(StoreError::Folder { path: PathBuf::from(side), reason: io_reason(&e) });
            }
            _ => {}
        }
    }
    Ok(())
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        // create_dir_all over a file, or a file where a folder on the path should be
        std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotADirectory => {
            "a file is in the way: the data folder must be a folder".into()
        }
        std::io::ErrorKind::PermissionDenied => "no permission to create or write it".into(),
        kind => kind.to_string().to_lowercase(),
    }
}

#[cfg(test)]
pub(crate) mod testdir {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A fresh folder under the system temp dir, removed on drop.
    pub(crate) struct TempDir(PathBuf);

    impl TempDir {
        pub(crate) fn new() -> TempDir {
            static N: AtomicU32 = AtomicU32::new(0);
            let name = format!("campus-store-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
            let dir = std::env::temp_dir().join(name);
            let _ = std::fs::remove_dir_all(&dir);
            TempDir(dir)
        }

        pub(crate) fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testdir::TempDir;
    use super::*;

    #[test]
    fn first_open_creates_folder_and_file_migrated_in_wal_mode() {
        let tmp = TempDir::new();
        let path = file_for(&tmp.path().join("nested"), "tutor");
        let store = Store::open(&path).unwrap();
        assert!(path.exists());
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(store.journal_mode().unwrap(), "wal");
        assert_eq!(store.load_settings().unwrap(), None);
    }

    #[test]
    fn reopening_keeps_data_and_migrates_nothing_twice() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        {
            let store = Store::open(&path).unwrap();
            store.save_settings(2, "{\"skills\":[]}").unwrap();
        }
        let store = Store::open(&path).unwrap();
        let saved = store.load_settings().unwrap().unwrap();
        assert_eq!((saved.revision, saved.document.as_str()), (2, "{\"skills\":[]}"));
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn deleting_the_file_resets_the_agent() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "tutor");
        let wal = tmp.path().join("tutor.sqlite3-wal");
        let store = Store::open(&path).unwrap();
        store.save_settings(2, "{}").unwrap();
        // what a killed process leaves: committed frames still in the wal
        let frames = std::fs::read(&wal).unwrap();
        assert!(!frames.is_empty());
        drop(store);
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&wal, frames).unwrap();
        let store = Store::open(&path).unwrap();
        assert_eq!(store.load_settings().unwrap(), None);
    }

    #[test]
    fn a_file_from_a_newer_build_is_refused() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "tutor");
        drop(Store::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        drop(conn);
        let err = Store::open(&path).unwrap_err();
        assert_eq!(err.code(), "store_too_new");
        assert!(
            matches!(err, StoreError::TooNew { found, known, .. } if found == SCHEMA_VERSION + 1 && known == SCHEMA_VERSION)
        );
        let line = err.to_string();
        assert!(line.contains("newer") && line.contains("tutor.sqlite3"), "{line}");
    }

    #[test]
    fn a_corrupt_file_is_refused_and_left_alone() {
        let tmp = TempDir::new();
        std::fs::create_dir_all(tmp.path()).unwrap();
        let path = file_for(tmp.path(), "tutor");
        let garbage = b"this is not a database, it only looks like a file: 0123456789".repeat(100);
        std::fs::write(&path, &garbage).unwrap();
        let err = Store::open(&path).unwrap_err();
        assert_eq!(err.code(), "store_unreadable", "{err}");
        assert!(err.to_string().contains("tutor.sqlite3"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), garbage, "the file is not replaced");
    }

    #[test]
    fn an_unusable_folder_is_refused() {
        let tmp = TempDir::new();
        std::fs::create_dir_all(tmp.path()).unwrap();
        let not_a_dir = tmp.path().join("file");
        std::fs::write(&not_a_dir, b"x").unwrap();
        let err = Store::open(&file_for(&not_a_dir.join("data"), "tutor")).unwrap_err();
        assert_eq!(err.code(), "store_folder", "{err}");
        assert!(err.to_string().ends_with("a file is in the way: the data folder must be a folder"), "{err}");
        // the data folder itself is a file
        let err = Store::open(&file_for(&not_a_dir, "tutor")).unwrap_err();
        assert_eq!(err.code(), "store_folder", "{err}");
        assert!(err.to_string().ends_with("a file is in the way: the data folder must be a folder"), "{err}");
    }

    #[test]
    fn processes_opening_a_new_file_at_once_migrate_it_once() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
        let opened: Vec<_> = (0..8)
            .map(|_| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&path).map(|s| s.schema_version().unwrap())
                })
            })
            .collect();
        for handle in opened {
            assert_eq!(handle.join().unwrap().unwrap(), SCHEMA_VERSION);
        }
    }

    #[test]
    fn the_durability_sets_synchronous() {
        let tmp = TempDir::new();
        let sync = |d| {
            let s = Store::open_with(&file_for(tmp.path(), "hub"), d).unwrap();
            s.conn().query_row("PRAGMA synchronous", [], |r| r.get::<_, i64>(0)).unwrap()
        };
        assert_eq!(sync(Durability::PowerCut), 2, "full");
        assert_eq!(sync(Durability::ProcessKill), 1, "normal");
    }

    #[tokio::test]
    async fn work_runs_off_the_async_thread() {
        let tmp = TempDir::new();
        let store = Store::open_agent(tmp.path(), "hub").await.unwrap();
        let rev = store
            .run(|s| {
                s.save_settings(2, "{}")?;
                s.save_settings(3, "{}")?;
                Ok(s.load_settings()?.map(|x| x.revision))
            })
            .await
            .unwrap();
        assert_eq!(rev, Some(3));
    }
}
