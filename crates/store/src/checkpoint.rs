//! Keeping each file's write-ahead log short, whatever the load.
//!
//! In WAL mode every commit is appended to `<file>-wal`; a checkpoint copies the log's
//! pages into the file, and the log starts over only when a write begins at a moment the
//! whole log has been copied and no reader still uses it. A PASSIVE checkpoint (SQLite's
//! automatic one, and the only kind that never waits) copies what the log held when it
//! began; writes that go on meanwhile leave new pages behind it, so under writes that
//! never pause — the Hub's ledger commits every turn of its event loop — no write ever
//! finds the log fully copied, and the log grows for ever although every page in it was
//! copied long ago. Measured with the Hub's pattern (its ledger committing on one
//! connection, a PASSIVE checkpoint on another every 4,096 rows): a 1 GB log after 11 s,
//! of which `wal_checkpoint` reported every frame copied (254,218 of 254,218).
//!
//! So no connection checkpoints on its own: each has a write-ahead-log hook in place of
//! SQLite's automatic checkpoint (that hook only notes the log's length after each
//! commit), and one thread per open file, with a connection of its own, checkpoints when
//! the log passes [`CHECKPOINT_AT`]: first PASSIVE (copies what it can while writers go
//! on), then TRUNCATE (waits for the writer of the moment, holds new writers back while
//! it copies the rest and syncs, then empties the log: the `-wal` file is 0 bytes).
//! Writers wait only for that second step, about two fsyncs. `journal_size_limit` makes
//! a log that starts over some other way (after a PASSIVE checkpoint that copied
//! everything) shrink to [`CHECKPOINT_AT`] as well.
//!
//! The cap: if checkpoints cannot keep up (a disk slower than the writes), a write does
//! not begin while the log is past [`LOG_LIMIT`] until the thread has emptied it
//! (back-pressure rather than a full disk), waiting at most the busy timeout; the log
//! then holds at most [`LOG_LIMIT`] and one transaction. Only a checkpoint that cannot
//! complete lifts the cap: a reader keeping a transaction open for more than a second
//! (the store's own never do; another process might), as SQLite cannot start over a log
//! a reader still uses. The thread then says so in the log (`store_checkpoint`), writers
//! stop waiting for it, and it tries again every [`RETRY_AFTER`] until it can.
//!
//! Durability is unchanged: a checkpoint syncs the log before copying from it and the
//! file before the log is emptied, so every commit is in one or the other at every
//! moment — what a commit survived when it returned (a kill -9, or with
//! `synchronous = FULL` a power cut), it still survives.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags};

use crate::StoreError;

/// The log's length (bytes) that wakes the file's checkpointer; also the file's
/// `journal_size_limit`. At the Hub's full rate (about 27 MB of log a second) a
/// checkpoint every 0.6 s, each costing the writers about two fsyncs, and the first write
/// after it one more (SQLite syncs a new log's header).
pub const CHECKPOINT_AT: u64 = 16 << 20;

/// The cap on the log's length (bytes): a write does not begin while the log is longer
/// until a checkpoint has emptied it (see the module). Four checkpoints' worth, so a
/// checkpointer that is merely slow never reaches it.
pub const LOG_LIMIT: u64 = 64 << 20;

/// How long a checkpoint waits for a writer or a reader to let go: less than a writer's
/// own busy timeout, so a writer it holds back is never failed by it.
const CHECKPOINT_BUSY: Duration = Duration::from_secs(1);

/// After a checkpoint that could not complete, the next waits this long.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// One file's log as its connections see it, shared by them and the file's checkpointer.
pub(crate) struct Log {
    path: PathBuf,
    /// Bytes of one frame: a page and its 24-byte header.
    frame_bytes: u64,
    /// [`CHECKPOINT_AT`] and [`LOG_LIMIT`] (smaller in tests).
    checkpoint_at: u64,
    limit: u64,
    /// Frames in the log after the latest commit on any of this file's connections; 0 once
    /// a checkpoint emptied it.
    frames: AtomicU64,
    /// The last checkpoint could not complete: writers do not wait for the next.
    stuck: AtomicBool,
    state: Mutex<State>,
    /// Signalled when a checkpoint is due or stopped (to the thread), and when one ended
    /// (to writers waiting for room).
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// The log passed [`CHECKPOINT_AT`] since the last checkpoint began.
    due: bool,
    stop: bool,
    /// Checkpoints completed (for tests and the writers' wait).
    emptied: u64,
}

impl Log {
    pub(crate) fn new(path: &Path, page_size: u64) -> Arc<Log> {
        Log::with_limits(path, page_size, CHECKPOINT_AT, LOG_LIMIT)
    }

    pub(crate) fn with_limits(path: &Path, page_size: u64, checkpoint_at: u64, limit: u64) -> Arc<Log> {
        Arc::new(Log {
            path: path.to_path_buf(),
            frame_bytes: page_size + 24,
            checkpoint_at,
            limit,
            frames: AtomicU64::new(0),
            stuck: AtomicBool::new(false),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bytes(&self) -> u64 {
        self.frames.load(Ordering::Relaxed) * self.frame_bytes
    }

    /// Called by a connection's write-ahead-log hook after each commit, with the frames
    /// the log now holds (every connection's commits, not only this one's).
    pub(crate) fn committed(&self, frames: u64) {
        self.frames.store(frames, Ordering::Relaxed);
        if frames * self.frame_bytes >= self.checkpoint_at {
            let mut state = self.state();
            if !state.due {
                state.due = true;
                self.changed.notify_all();
            }
        }
    }

    /// Waits, before a write begins, while the log is past [`LOG_LIMIT`] and the
    /// checkpointer is working on it (at most `timeout`). Returns at once otherwise.
    pub(crate) fn wait_for_room(&self, timeout: Duration) {
        if self.bytes() < self.limit || self.stuck.load(Ordering::Relaxed) {
            return;
        }
        let deadline = Instant::now() + timeout;
        let mut state = self.state();
        state.due = true;
        self.changed.notify_all();
        while self.bytes() >= self.limit && !self.stuck.load(Ordering::Relaxed) && !state.stop {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                tracing::warn!(
                    code = "store_checkpoint",
                    file = %self.path.display(),
                    "the write-ahead log is past its cap and no checkpoint emptied it in time; writing on"
                );
                return;
            };
            state = self.changed.wait_timeout(state, left).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    /// Waits until the thread is asked for a checkpoint; false when it is to stop.
    fn wait_until_due(&self) -> bool {
        let mut state = self.state();
        while !state.due && !state.stop {
            state = self.changed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        !state.stop
    }

    /// Waits `pause` unless asked to stop meanwhile; false when it is to stop.
    fn pause(&self, pause: Duration) -> bool {
        let deadline = Instant::now() + pause;
        let mut state = self.state();
        while !state.stop {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { return true };
            state = self.changed.wait_timeout(state, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        false
    }

    /// Records what a checkpoint came to and wakes the writers waiting for room.
    fn checkpointed(&self, emptied: bool) {
        {
            let mut state = self.state();
            if emptied {
                // under the lock: a writer that saw a long log is waiting by now, and is woken
                self.frames.store(0, Ordering::Relaxed);
                state.due = false;
                state.emptied += 1;
            }
            self.stuck.store(!emptied, Ordering::Relaxed);
        }
        self.changed.notify_all();
    }

    #[cfg(test)]
    pub(crate) fn emptied(&self) -> u64 {
        self.state().emptied
    }
}

/// The thread that checkpoints one file (see the module): started with the file's first
/// connection, stopped and waited for when the last connection sharing it is dropped.
pub(crate) struct Checkpointer {
    log: Arc<Log>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    pub(crate) fn start(log: Arc<Log>) -> Result<Checkpointer, StoreError> {
        let for_thread = Arc::clone(&log);
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".into())
            .spawn(move || run(&for_thread))
            .map_err(|e| StoreError::Sqlite {
                path: log.path.clone(),
                reason: format!("cannot start the checkpoint thread ({})", e.to_string().to_lowercase()),
            })?;
        Ok(Checkpointer { log, thread: Some(thread) })
    }

    pub(crate) fn log(&self) -> &Arc<Log> {
        &self.log
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.log.state().stop = true;
        self.log.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            // its connection is closed when this returns: dropping a store closes the file
            let _ = thread.join();
        }
    }
}

fn run(log: &Log) {
    // opened at the first checkpoint: most files never need one
    let mut conn: Option<Connection> = None;
    while log.wait_until_due() {
        let done = match &conn {
            Some(c) => empty(c, &log.path),
            None => connect(&log.path).and_then(|c| empty(conn.insert(c), &log.path)),
        };
        match done {
            Ok(()) => log.checkpointed(true),
            Err(e) => {
                tracing::warn!(code = e.code(), error = %e, "the write-ahead log could not be emptied; trying again");
                log.checkpointed(false);
                if !log.pause(RETRY_AFTER) {
                    break;
                }
            }
        }
    }
}

/// The checkpointer's own connection: it never writes; its checkpoints sync the log
/// before copying and the file after (`synchronous = FULL`, as `NORMAL`, in WAL mode).
fn connect(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::open(path, e))?;
    let sqlite = |e: rusqlite::Error| StoreError::Sqlite {
        path: path.to_path_buf(),
        reason: e.to_string().to_lowercase(),
    };
    conn.busy_timeout(CHECKPOINT_BUSY).map_err(sqlite)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(sqlite)?;
    Ok(conn)
}

/// Copies the whole log into the file and empties it (see the module).
pub(crate) fn empty(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let checkpoint = |mode: &str| {
        conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
        })
        .map_err(|e| StoreError::Sqlite { path: path.to_path_buf(), reason: e.to_string().to_lowercase() })
    };
    // most of the copying while writers go on; then only what they added meanwhile
    checkpoint("PASSIVE")?;
    let (busy, log, copied) = checkpoint("TRUNCATE")?;
    if busy != 0 {
        return Err(StoreError::Checkpoint {
            path: path.to_path_buf(),
            reason: format!(
                "still in use by another connection after {} ms ({copied} of {log} pages copied)",
                CHECKPOINT_BUSY.as_millis()
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::ledger::LedgerWrite;
    use crate::testdir::TempDir;
    use crate::{Durability, Store, file_for};

    /// Limits small enough for a unit test to pass them many times in a second.
    const AT: u64 = 256 << 10;
    const LIMIT: u64 = 1 << 20;
    /// What one batch below adds to the log at most (a few pages); the cap holds to this.
    const ONE_BATCH: u64 = 64 << 10;

    fn open(path: &Path) -> Store {
        Store::open_logged(path, Durability::ProcessKill, |p, page| Log::with_limits(p, page, AT, LIMIT))
            .unwrap()
    }

    fn wal_size(path: &Path) -> u64 {
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::metadata(wal).map_or(0, |m| m.len())
    }

    /// What the Hub's ledger writes for 16 questions: their begun rows, then their answers.
    fn questions(store: &Store, first: i64) {
        let begun: Vec<_> = (first..first + 16)
            .map(|seq| LedgerWrite::Begin {
                seq,
                key: (String::new(), format!("r{seq}"), 7),
                assigned: Some("ctx-0190".into()),
            })
            .collect();
        store.write_ledger(&begun, 4_096).unwrap();
        let answers: Vec<_> = (first..first + 16)
            .map(|seq| LedgerWrite::Answer { seq, answer: format!("{seq:0>300}") })
            .collect();
        store.write_ledger(&answers, 4_096).unwrap();
    }

    /// Writes that never pause, on a second connection (as the Hub's ledger commits):
    /// the log is emptied again and again and never passes its cap. Without the
    /// checkpointer it grows past the cap within a few batches and this fails.
    #[test]
    fn a_log_written_without_pause_is_emptied_again_and_again_and_stays_under_its_cap() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let main = open(&path);
        let ledger = main.connect_again(Durability::ProcessKill).unwrap();
        let log = Arc::clone(main.inner.checkpoints.log());
        let (mut seq, mut largest, mut shrank, mut last) = (1, 0, 0, 0);
        // until the log was emptied ten times and the table pruned, however long that takes
        while log.emptied() < 10 || seq < 3 * 4_096 {
            questions(&ledger, seq);
            seq += 16;
            let now = wal_size(&path);
            assert!(now <= LIMIT + ONE_BATCH, "the log reached {now} bytes after {seq} rows (cap {LIMIT})");
            largest = largest.max(now);
            shrank += usize::from(now < last);
            last = now;
        }
        assert!(largest >= AT, "it grew to the threshold ({largest} bytes)");
        assert!(shrank >= 1, "the file on disk shrank as it was emptied");
        assert_eq!(main.integrity_check().unwrap(), "ok");
        let rows = main.load_ledger(4_096).unwrap();
        assert_eq!(rows.len(), 4_096);
        assert_eq!(rows.last().unwrap().seq, seq - 1, "the newest row is there");
        for (row, expect) in rows.iter().zip(seq - 4_096..) {
            assert_eq!(row.seq, expect, "no gap among the newest");
            assert_eq!(row.answer.as_deref(), Some(format!("{expect:0>300}").as_str()));
        }
    }

    /// A reader keeping a transaction open pins the log (SQLite cannot start it over):
    /// the checkpointer gives up after its busy timeout, writers stop waiting for it and
    /// go on past the cap, and once the reader lets go the log is emptied.
    #[test]
    fn a_reader_pinning_the_log_does_not_stop_the_writers_and_the_log_is_emptied_after_it() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let store = open(&path);
        questions(&store, 1);
        let reader = Connection::open(&path).unwrap();
        reader.execute_batch("BEGIN").unwrap();
        let _: i64 = reader.query_row("SELECT count(*) FROM request_ledger", [], |r| r.get(0)).unwrap();
        let log = Arc::clone(store.inner.checkpoints.log());
        let mut seq = 17;
        while wal_size(&path) < 2 * LIMIT {
            questions(&store, seq);
            seq += 16;
        }
        assert!(log.stuck.load(Ordering::Relaxed), "the checkpointer said it could not empty the log");
        assert_eq!(log.emptied(), 0);
        reader.execute_batch("COMMIT").unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while log.emptied() == 0 {
            assert!(Instant::now() < deadline, "the log was never emptied after the reader let go");
            questions(&store, seq);
            seq += 16;
        }
        assert!(!log.stuck.load(Ordering::Relaxed));
        assert!(wal_size(&path) < 2 * LIMIT, "{}", wal_size(&path));
        assert_eq!(store.load_ledger(1).unwrap()[0].seq, seq - 1);
    }

    #[test]
    fn checkpoint_empties_the_log_and_nothing_is_lost() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "tutor");
        let store = Store::open(&path).unwrap();
        store.save_settings(2, "{\"a\":2}").unwrap();
        assert!(wal_size(&path) > 0);
        store.checkpoint().unwrap();
        assert_eq!(wal_size(&path), 0, "emptied: the file is cut to nothing");
        store.save_settings(3, "{\"a\":3}").unwrap();
        drop(store);
        assert_eq!(Store::open(&path).unwrap().load_settings().unwrap().unwrap().revision, 3);
    }

    #[test]
    fn a_checkpoint_a_reader_prevents_is_a_coded_error() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "tutor");
        let store = Store::open(&path).unwrap();
        store.save_settings(2, "{}").unwrap();
        let reader = Connection::open(&path).unwrap();
        reader.execute_batch("BEGIN; SELECT count(*) FROM skill_settings;").unwrap();
        store.save_settings(3, "{}").unwrap();
        store.conn().busy_timeout(Duration::from_millis(50)).unwrap();
        let err = store.checkpoint().unwrap_err();
        assert_eq!(err.code(), "store_checkpoint", "{err}");
        assert!(
            err.to_string().contains("tutor.sqlite3") && err.to_string().contains("still in use"),
            "{err}"
        );
    }

    /// Dropping a store stops its checkpointer and closes the file: the log is gone, as
    /// SQLite leaves it when the last connection closes.
    #[test]
    fn dropping_the_store_and_its_second_connection_closes_the_file() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let store = open(&path);
        let again = store.connect_again(Durability::ProcessKill).unwrap();
        let (mut seq, deadline) = (1, Instant::now() + Duration::from_secs(30));
        while store.inner.checkpoints.log().emptied() == 0 {
            assert!(Instant::now() < deadline, "the log was never emptied");
            questions(&again, seq);
            seq += 16;
        }
        drop(store);
        questions(&again, seq);
        drop(again);
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        assert!(!Path::new(&wal).exists(), "the last connection closed and removed the log");
    }
}
