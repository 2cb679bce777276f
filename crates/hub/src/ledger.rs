//! The request ledger: a repeated Student request id is answered from here, with no
//! second routing decision and no second dispatch. Work for a new request runs on its
//! own task, so a caller that disconnects cannot leave it half done; duplicates that
//! arrive while it runs wait for the same answer.
//!
//! Durable in the Hub's store (`hub.sqlite3`): a new request is recorded as begun before
//! any work (a failed write refuses the request rather than risk a second dispatch later),
//! its answer is recorded before it is sent, and a request whose work dispatched nothing
//! is forgotten. The map in memory answers every lookup (loaded from the file at start,
//! the same size as the table on disk), so the file is only written, never read, per
//! request. Writes are committed on the async thread itself, by one task that takes
//! whatever the requests of the same turn of the event loop queued and commits it in one
//! transaction (group commit): no thread hand-off or wake-up per write, and a commit
//! costs no fsync (`synchronous = NORMAL`; the ledger's own connection never
//! checkpoints — a blocking task does, now and then). A request the Hub was killed while handling is answered
//! after the restart with `outcome_unknown`, never dispatched again.

use std::sync::{Arc, Mutex};

use a2a::wire::{Part, new_message_id};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use store::ledger::LedgerWrite;
use store::{Store, StoreError};
use tokio::sync::{Notify, oneshot, watch};

use bounded::BoundedMap;

/// The answer given to one Student request.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    pub(crate) message_id: String,
    /// The Student conversation it was answered in (a retry is answered in it too).
    pub(crate) context_id: String,
    pub(crate) parts: Vec<Part>,
    pub(crate) metadata: serde_json::Map<String, Value>,
}

/// (conversation the client named, or empty; request id; hash of the question). The
/// question is part of the key: a reused request id with another question is a new request.
pub(crate) type Key = (String, String, u64);

/// A hash of a question that is the same in every run and every build (it is stored).
pub(crate) fn question_hash(text: &str) -> u64 {
    let digest = Sha256::digest(text.as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("a sha-256 digest has 32 bytes"))
}

pub(crate) enum Begin {
    /// Seen before: wait on this for the answer.
    Existing(watch::Receiver<Option<Stored>>),
    /// New: do the work, then [`Ledger::finish`] it.
    New(Pending),
}

/// A request begun here and not finished yet.
pub(crate) struct Pending {
    tx: watch::Sender<Option<Stored>>,
    /// Its row on disk.
    seq: i64,
}

pub(crate) struct Ledger {
    inner: Mutex<Index>,
    disk: Option<Arc<Disk>>,
}

/// What answers lookups: every key (and a first question's alias) to its answer, and the
/// number the next row gets.
struct Index {
    map: BoundedMap<Key, watch::Receiver<Option<Stored>>>,
    next_seq: i64,
}

/// The ledger read from the Hub's store at start (see [`load`]).
pub(crate) struct Loaded {
    store: Store,
    /// (key, the alias a first question's assigned conversation makes, answer)
    rows: Vec<(Key, Option<Key>, Stored)>,
    next_seq: i64,
}

impl Ledger {
    /// A ledger in memory only.
    #[cfg(test)]
    pub(crate) fn new(capacity: usize) -> Self {
        Self { inner: Mutex::new(Index { map: BoundedMap::new(capacity), next_seq: 1 }), disk: None }
    }

    /// The ledger kept in the store `loaded` came from, starting with its rows.
    pub(crate) fn durable(capacity: usize, loaded: Loaded) -> Result<Self, StoreError> {
        let mut map = BoundedMap::new(capacity);
        for (key, alias, stored) in loaded.rows {
            let rx = watch::channel(Some(stored)).1;
            if let Some(alias) = alias {
                map.insert(alias, rx.clone());
            }
            map.insert(key, rx);
        }
        let disk = Disk::start(loaded.store, capacity)?;
        Ok(Self { inner: Mutex::new(Index { map, next_seq: loaded.next_seq }), disk: Some(disk) })
    }

    /// Looks a request up under `key`; a new one is also filed under `alias` (the
    /// conversation the Hub assigned to a first question, the same request id and
    /// question), so a retry that names it finds the same answer. A new one is recorded
    /// on disk before this returns; if that fails, it is forgotten again and the error
    /// returned.
    pub(crate) async fn begin(&self, key: Key, alias: Option<Key>) -> Result<Begin, StoreError> {
        let pending = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(rx) = inner.map.get(&key) {
                return Ok(Begin::Existing(rx.clone()));
            }
            let (tx, rx) = watch::channel(None);
            if let Some(alias) = &alias {
                inner.map.insert(alias.clone(), rx.clone());
            }
            inner.map.insert(key.clone(), rx);
            let seq = inner.next_seq;
            inner.next_seq += 1;
            Pending { tx, seq }
        };
        if let Some(disk) = &self.disk {
            let assigned = alias.as_ref().map(|a| a.0.clone());
            let begun = LedgerWrite::Begin { seq: pending.seq, key: key.clone(), assigned };
            if let Err(e) = disk.write(begun).await {
                self.forget(&key, alias.as_ref(), &pending);
                return Err(e);
            }
        }
        Ok(Begin::New(pending))
    }

    /// Ends a request begun here: its answer is recorded (on disk first) and sent to the
    /// duplicates waiting, or, when `keep` is false (nothing was dispatched), forgotten
    /// after being sent, so a later retry decides again.
    pub(crate) async fn finish(
        &self,
        key: &Key,
        alias: Option<&Key>,
        pending: &Pending,
        stored: &Stored,
        keep: bool,
    ) {
        if keep && let Some(disk) = &self.disk {
            let answer = serde_json::to_string(stored).expect("an answer serializes");
            if let Err(e) = disk.write(LedgerWrite::Answer { seq: pending.seq, answer }).await {
                // the begun row stays: a retry after a restart is told the outcome is unknown
                tracing::error!(code = e.code(), error = %e, "the ledger could not record an answer");
            }
        }
        pending.tx.send_replace(Some(stored.clone()));
        if !keep {
            self.forget(key, alias, pending);
        }
    }

    /// Drops a request whose outcome is safe to recompute (nothing was dispatched), in
    /// memory and (without waiting) on disk.
    pub(crate) fn forget(&self, key: &Key, alias: Option<&Key>, pending: &Pending) {
        {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            inner.map.remove(key);
            if let Some(alias) = alias {
                inner.map.remove(alias);
            }
        }
        if let Some(disk) = &self.disk {
            disk.send(LedgerWrite::Forget { seq: pending.seq }, None);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).map.len()
    }
}

/// Waits for the answer of a request begun elsewhere; `None` if that work failed.
pub(crate) async fn wait(mut rx: watch::Receiver<Option<Stored>>) -> Option<Stored> {
    rx.wait_for(Option::is_some).await.ok().and_then(|v| v.clone())
}

/// Reads the newest `capacity` rows of the ledger in `store` (blocking). A request the
/// Hub stopped handling before it had an answer (killed mid-way) gets its answer now,
/// recorded for good: the outcome is unknown (it may have been dispatched), so it is
/// never dispatched again. `served_by` names the Hub in that answer's metadata.
pub(crate) fn load(store: Store, capacity: usize, served_by: &Value) -> Result<Loaded, StoreError> {
    let rows = store.load_ledger(capacity)?;
    let next_seq = rows.last().map_or(1, |r| r.seq + 1);
    let mut loaded = Vec::with_capacity(rows.len());
    let mut settled = Vec::new();
    for row in rows {
        let stored = row.answer.as_deref().and_then(|a| serde_json::from_str::<Stored>(a).ok());
        let stored = match stored {
            Some(s) => s,
            None => {
                let s = interrupted(&row.key, row.assigned.as_deref(), served_by);
                let answer = serde_json::to_string(&s).expect("serializes");
                settled.push(LedgerWrite::Answer { seq: row.seq, answer });
                s
            }
        };
        let (scope, request_id, hash) = row.key;
        let alias = row.assigned.map(|ctx| (ctx, request_id.clone(), hash));
        loaded.push(((scope, request_id, hash), alias, stored));
    }
    if !settled.is_empty() {
        tracing::warn!(
            requests = settled.len(),
            "requests interrupted by a stop are answered as outcome unknown"
        );
        store.write_ledger(&settled, capacity)?;
    }
    Ok(Loaded { store, rows: loaded, next_seq })
}

/// The answer to a request interrupted before it had one, in its conversation: the one
/// the client named, or the one the Hub assigned to a first question.
fn interrupted(key: &Key, assigned: Option<&str>, served_by: &Value) -> Stored {
    let (scope, request_id, _) = key;
    let context_id = match assigned {
        _ if !scope.is_empty() => scope.clone(),
        Some(ctx) => ctx.to_string(),
        None => a2a::wire::new_context_id(),
    };
    let text = "The university stopped while handling this request, so I can't tell whether it was handled. It was not sent again.";
    let mut metadata = serde_json::Map::new();
    metadata.insert("servedBy".into(), served_by.clone());
    metadata.insert("outcome".into(), json!("outcome_unknown"));
    metadata.insert("requestId".into(), json!(request_id));
    Stored {
        message_id: new_message_id(),
        context_id,
        parts: vec![Part::text(text).with_media_type("text/plain")],
        metadata,
    }
}

impl Drop for Ledger {
    /// What is still queued (forgotten requests are not waited for) is committed now.
    fn drop(&mut self) {
        if let Some(disk) = &self.disk {
            disk.stopped.store(true, std::sync::atomic::Ordering::Relaxed);
            disk.commit_queued();
            disk.wake.notify_one();
        }
    }
}

/// The ledger's connection and its queue of writes, committed by one task (see the top).
struct Disk {
    /// The ledger's own connection to the Hub's file: automatic checkpoints off.
    store: Store,
    /// The Hub's main connection, which checkpoints (on a blocking thread).
    checkpoints: Store,
    queue: Mutex<Vec<Job>>,
    wake: Notify,
    keep: usize,
    stopped: std::sync::atomic::AtomicBool,
}

struct Job {
    write: LedgerWrite,
    done: Option<oneshot::Sender<Result<(), StoreError>>>,
}

/// Rows written between checkpoints (each a few hundred bytes: the log stays a few MB).
const CHECKPOINT_EVERY: usize = 4_096;

impl Disk {
    /// Opens the ledger's own connection (blocking: called once at start) and starts the
    /// task that commits.
    fn start(checkpoints: Store, keep: usize) -> Result<Arc<Disk>, StoreError> {
        let store = checkpoints.connect_again(store::Durability::ProcessKill)?;
        store.checkpoint_by_hand()?;
        let disk = Arc::new(Disk {
            store,
            checkpoints,
            queue: Mutex::new(Vec::new()),
            wake: Notify::new(),
            keep,
            stopped: Default::default(),
        });
        tokio::spawn(Disk::commits(Arc::clone(&disk)));
        Ok(disk)
    }

    async fn commits(disk: Arc<Disk>) {
        let mut since_checkpoint = 0;
        let mut checkpointing: Option<tokio::task::JoinHandle<()>> = None;
        while !disk.stopped.load(std::sync::atomic::Ordering::Relaxed) {
            disk.wake.notified().await;
            // the other requests ready in this turn of the event loop queue theirs first
            tokio::task::yield_now().await;
            since_checkpoint += disk.commit_queued();
            if since_checkpoint >= CHECKPOINT_EVERY && checkpointing.as_ref().is_none_or(|c| c.is_finished())
            {
                since_checkpoint = 0;
                let store = disk.checkpoints.clone();
                checkpointing = Some(tokio::task::spawn_blocking(move || {
                    if let Err(e) = store.checkpoint() {
                        tracing::warn!(code = e.code(), error = %e, "ledger checkpoint failed");
                    }
                }));
            }
        }
    }

    /// Commits what is queued in one transaction (blocking the calling thread for the
    /// commit: no fsync) and tells each waiting request; returns how many writes it had.
    fn commit_queued(&self) -> usize {
        let batch = std::mem::take(&mut *self.queue.lock().unwrap_or_else(|p| p.into_inner()));
        if batch.is_empty() {
            return 0;
        }
        let n = batch.len();
        let (writes, done): (Vec<LedgerWrite>, Vec<_>) = batch.into_iter().map(|j| (j.write, j.done)).unzip();
        let result = self.store.write_ledger(&writes, self.keep);
        if let Err(e) = &result {
            tracing::error!(code = e.code(), error = %e, "ledger write failed");
        }
        for done in done.into_iter().flatten() {
            let _ = done.send(result.clone());
        }
        n
    }

    fn send(&self, write: LedgerWrite, done: Option<oneshot::Sender<Result<(), StoreError>>>) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).push(Job { write, done });
        self.wake.notify_one();
    }

    /// Queues `write` and waits until it is committed.
    async fn write(&self, write: LedgerWrite) -> Result<(), StoreError> {
        let (done, committed) = oneshot::channel();
        self.send(write, Some(done));
        committed.await.map_err(|_| StoreError::Worker)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(id: &str) -> Stored {
        Stored {
            message_id: id.into(),
            context_id: "ctx".into(),
            parts: vec![],
            metadata: Default::default(),
        }
    }

    #[tokio::test]
    async fn duplicates_wait_for_the_first_answer() {
        let l = Ledger::new(2);
        let key = ("ctx".to_string(), "r1".to_string(), 7);
        let alias = ("assigned".to_string(), "r1".to_string(), 7);
        let Ok(Begin::New(pending)) = l.begin(key.clone(), Some(alias.clone())).await else {
            panic!("first is new")
        };
        let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else {
            panic!("second is a duplicate")
        };
        assert!(
            matches!(l.begin(alias.clone(), None).await, Ok(Begin::Existing(_))),
            "the alias finds it too"
        );
        let waiter = tokio::spawn(wait(rx));
        l.finish(&key, Some(&alias), &pending, &answer("m"), false).await;
        assert_eq!(waiter.await.unwrap().unwrap().message_id, "m");
        assert!(matches!(l.begin(alias, None).await, Ok(Begin::New(_))), "not kept: forgotten");
        assert!(matches!(l.begin(key, None).await, Ok(Begin::New(_))));
        l.begin(("a".into(), "1".into(), 0), None).await.unwrap();
        l.begin(("a".into(), "2".into(), 0), None).await.unwrap();
        assert_eq!(l.len(), 2, "bounded");
    }

    #[test]
    fn the_question_hash_is_fixed_across_builds() {
        // stored on disk: a change here would make every stored request look new
        assert_eq!(
            question_hash("How do I find the derivative of x^2?"),
            question_hash("How do I find the derivative of x^2?")
        );
        assert_eq!(question_hash(""), 0xe3b0c44298fc1c14);
        assert_ne!(question_hash("a"), question_hash("b"));
    }

    /// What a restart sees: answers kept, a request interrupted mid-way answered as
    /// outcome unknown (in the conversation its alias names), forgotten ones gone.
    #[tokio::test]
    async fn answers_survive_a_reopen_and_an_interrupted_request_is_never_new_again() {
        let dir = std::env::temp_dir().join(format!("campus-hub-ledger-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let served_by = json!({"id": "hub", "name": "Hub"});
        let open = || {
            let store = Store::open(&store::file_for(&dir, "hub")).unwrap();
            Ledger::durable(16, load(store, 16, &served_by).unwrap()).unwrap()
        };
        let answered = (String::new(), "r1".to_string(), 1);
        let answered_alias = ("ctx-1".to_string(), "r1".to_string(), 1);
        let cut = (String::new(), "r2".to_string(), 2);
        let cut_alias = ("ctx-2".to_string(), "r2".to_string(), 2);
        let dropped = ("ctx-1".to_string(), "r3".to_string(), 3);
        {
            let l = open();
            let Begin::New(pending) = l.begin(answered.clone(), Some(answered_alias.clone())).await.unwrap()
            else {
                panic!("new")
            };
            l.finish(&answered, Some(&answered_alias), &pending, &answer("m1"), true).await;
            let Begin::New(_cut) = l.begin(cut.clone(), Some(cut_alias.clone())).await.unwrap() else {
                panic!()
            };
            let Begin::New(pending) = l.begin(dropped.clone(), None).await.unwrap() else { panic!() };
            l.finish(&dropped, None, &pending, &answer("m3"), false).await;
            // the writer drains its queue before the ledger is gone
            l.begin(("x".into(), "sync".into(), 0), None).await.unwrap();
        }
        let l = open();
        for key in [&answered, &answered_alias] {
            let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else { panic!("kept: {key:?}") };
            assert_eq!(wait(rx).await.unwrap().message_id, "m1");
        }
        let mut ids = vec![];
        for key in [&cut, &cut_alias] {
            let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else { panic!("kept: {key:?}") };
            let s = wait(rx).await.unwrap();
            assert_eq!(s.metadata["outcome"], "outcome_unknown");
            assert_eq!(s.context_id, "ctx-2", "in the conversation the hub assigned");
            ids.push(s.message_id);
        }
        assert_eq!(ids[0], ids[1], "one answer for the key and its alias");
        assert!(matches!(l.begin(dropped, None).await, Ok(Begin::New(_))), "forgotten");
        drop(l);
        // the settled answer is stored: the same message id after another restart
        let l = open();
        let Ok(Begin::Existing(rx)) = l.begin(cut, None).await else { panic!() };
        assert_eq!(wait(rx).await.unwrap().message_id, ids[0]);
        drop(l);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The ledger's connection never checkpoints; the Hub's main one does, after
    /// [`CHECKPOINT_EVERY`] rows: the pages reach the data file (it grows) rather than the
    /// write-ahead log growing for ever.
    #[tokio::test]
    async fn the_log_is_checkpointed_into_the_file_as_rows_are_written() {
        let dir = std::env::temp_dir().join(format!("campus-hub-checkpoint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = store::file_for(&dir, "hub");
        let store = Store::open_with(&path, store::Durability::ProcessKill).unwrap();
        let l = std::sync::Arc::new(
            Ledger::durable(CHECKPOINT_EVERY * 2, load(store, CHECKPOINT_EVERY * 2, &json!({})).unwrap())
                .unwrap(),
        );
        let size = || std::fs::metadata(&path).unwrap().len();
        let before = size();
        // fewer rows than a checkpoint's worth: everything stays in the log
        let begin = |from: usize, to: usize| {
            let l = l.clone();
            async move {
                let mut all = tokio::task::JoinSet::new();
                for i in from..to {
                    let l = l.clone();
                    all.spawn(
                        async move { l.begin((String::new(), format!("r{i}"), 0), None).await.map(|_| ()) },
                    );
                }
                while let Some(r) = all.join_next().await {
                    r.unwrap().unwrap();
                }
            }
        };
        begin(0, CHECKPOINT_EVERY / 2).await;
        assert_eq!(size(), before, "no checkpoint yet: the file is as it was");
        begin(CHECKPOINT_EVERY / 2, CHECKPOINT_EVERY + 1).await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while size() == before {
            assert!(std::time::Instant::now() < deadline, "the log was never checkpointed");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        drop(l);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
