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
//! costs no fsync (`synchronous = NORMAL`; like every store connection, the ledger's
//! never checkpoints: the store's checkpoint thread empties the log as it grows, see
//! `store::checkpoint`). A request the Hub was killed while handling is answered after the
//! restart with `outcome_unknown`, never dispatched again; a retry of it asks the
//! specialist what became of it instead (`recheck.rs`).

use std::sync::{Arc, Mutex};

use a2a::wire::{Part, new_message_id};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use store::ledger::LedgerWrite;
use store::{Store, StoreError};
use tokio::sync::{Notify, oneshot, watch};

use bounded::BoundedMap;
use vocab::{ReplyMeta, ReplyOutcome, ServedBy};

/// The answer given to one Student request.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    pub(crate) message_id: String,
    /// The Student conversation it was answered in (a retry is answered in it too).
    pub(crate) context_id: String,
    pub(crate) parts: Vec<Part>,
    pub(crate) metadata: serde_json::Map<String, Value>,
    /// For an answer whose outcome is unknown: how to ask the specialist again (a retry
    /// does, see `recheck.rs`). Never sent to the student.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) recheck: Option<Recheck>,
}

/// What a retry needs to ask again about a forward whose outcome is unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Recheck {
    /// The request's row on disk.
    pub(crate) seq: i64,
    /// The Hub's operation id of the forward ([`operation_id`] of the request's key).
    pub(crate) operation_id: String,
    /// Who was asked; `None` when the Hub stopped before it could record that (then every
    /// specialist is asked).
    pub(crate) specialist: Option<String>,
    /// The skill the question was routed to.
    pub(crate) skill: Option<String>,
    /// The Hub's own conversation with that specialist.
    pub(crate) hub_context: Option<String>,
}

/// The Hub's operation id of a request's forward: the same for every attempt at it, so
/// the specialist can be asked about it again after a restart.
pub(crate) fn operation_id(key: &Key) -> String {
    let (scope, request_id, hash) = key;
    let digest = Sha256::digest(format!("{scope}\n{request_id}\n{hash:016x}").as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("q-{hex}")
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

/// One request's answer, shared by its key and its alias (a later, better answer — a
/// recheck's — replaces it for both).
type Slot = Arc<watch::Sender<Option<Stored>>>;

/// A request begun here and not finished yet.
pub(crate) struct Pending {
    tx: Slot,
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
    map: BoundedMap<Key, Slot>,
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
            let slot: Slot = Arc::new(watch::channel(Some(stored)).0);
            if let Some(alias) = alias {
                map.insert(alias, slot.clone());
            }
            map.insert(key, slot);
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
            if let Some(slot) = inner.map.get(&key) {
                return Ok(Begin::Existing(slot.subscribe()));
            }
            let tx: Slot = Arc::new(watch::channel(None).0);
            if let Some(alias) = &alias {
                inner.map.insert(alias.clone(), tx.clone());
            }
            inner.map.insert(key.clone(), tx.clone());
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
        let mut stored = stored.clone();
        if let Some(r) = stored.recheck.as_mut() {
            r.seq = pending.seq;
        }
        let stored = &stored;
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

    /// Where the conversation memory writes its changes: queued with the ledger's writes
    /// and committed with them, not waited for (`None` for a ledger in memory only).
    pub(crate) fn conversation_writer(&self) -> Option<crate::memory::Persist> {
        let disk = self.disk.clone()?;
        Some(Box::new(move |id, state, touched| {
            disk.send(LedgerWrite::Conversation { id, state, touched }, None);
        }))
    }

    /// Replaces the answer of a request found under `key` (a recheck learnt what became of
    /// it): on disk first, then for every waiter and lookup, under its alias too.
    pub(crate) async fn settle(&self, key: &Key, seq: i64, stored: &Stored) {
        if let Some(disk) = &self.disk {
            let answer = serde_json::to_string(stored).expect("an answer serializes");
            if let Err(e) = disk.write(LedgerWrite::Answer { seq, answer }).await {
                tracing::error!(code = e.code(), error = %e, "the ledger could not record a rechecked answer");
                return;
            }
        }
        let slot = self.inner.lock().unwrap_or_else(|p| p.into_inner()).map.get(key).cloned();
        if let Some(slot) = slot {
            slot.send_replace(Some(stored.clone()));
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
pub(crate) fn load(store: Store, capacity: usize, served_by: &ServedBy) -> Result<Loaded, StoreError> {
    let rows = store.load_ledger(capacity)?;
    let next_seq = rows.last().map_or(1, |r| r.seq + 1);
    let mut loaded = Vec::with_capacity(rows.len());
    let mut settled = Vec::new();
    for row in rows {
        let stored = row.answer.as_deref().and_then(|a| serde_json::from_str::<Stored>(a).ok());
        let stored = match stored {
            Some(s) => s,
            None => {
                let s = interrupted(&row.key, row.seq, row.assigned.as_deref(), served_by);
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
fn interrupted(key: &Key, seq: i64, assigned: Option<&str>, served_by: &ServedBy) -> Stored {
    let (scope, request_id, _) = key;
    let context_id = match assigned {
        _ if !scope.is_empty() => scope.clone(),
        Some(ctx) => ctx.to_string(),
        None => a2a::wire::new_context_id(),
    };
    let text = "The university stopped while handling this request, so I can't tell whether it was handled. Check for the answer: the service it went to is asked what became of it, and nothing is done twice.";
    let mut meta = ReplyMeta::new(served_by.clone(), ReplyOutcome::OutcomeUnknown);
    meta.request_id = Some(request_id.clone());
    let recheck =
        Recheck { seq, operation_id: operation_id(key), specialist: None, skill: None, hub_context: None };
    Stored {
        message_id: new_message_id(),
        context_id,
        parts: vec![Part::text(text).with_media_type("text/plain")],
        metadata: meta.into_map(),
        recheck: Some(recheck),
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
    /// The ledger's own connection to the Hub's file.
    store: Store,
    queue: Mutex<Vec<Job>>,
    wake: Notify,
    keep: usize,
    stopped: std::sync::atomic::AtomicBool,
}

struct Job {
    write: LedgerWrite,
    done: Option<oneshot::Sender<Result<(), StoreError>>>,
}

impl Disk {
    /// Opens the ledger's own connection (blocking: called once at start) and starts the
    /// task that commits.
    fn start(main: Store, keep: usize) -> Result<Arc<Disk>, StoreError> {
        let store = main.connect_again(store::Durability::ProcessKill)?;
        let disk = Arc::new(Disk {
            store,
            queue: Mutex::new(Vec::new()),
            wake: Notify::new(),
            keep,
            stopped: Default::default(),
        });
        tokio::spawn(Disk::commits(Arc::clone(&disk)));
        Ok(disk)
    }

    async fn commits(disk: Arc<Disk>) {
        while !disk.stopped.load(std::sync::atomic::Ordering::Relaxed) {
            disk.wake.notified().await;
            // the other requests ready in this turn of the event loop queue theirs first
            tokio::task::yield_now().await;
            disk.commit_queued();
        }
    }

    /// Commits what is queued in one transaction (blocking the calling thread for the
    /// commit: no fsync) and tells each waiting request.
    fn commit_queued(&self) {
        let batch = std::mem::take(&mut *self.queue.lock().unwrap_or_else(|p| p.into_inner()));
        if batch.is_empty() {
            return;
        }
        let (writes, done): (Vec<LedgerWrite>, Vec<_>) = batch.into_iter().map(|j| (j.write, j.done)).unzip();
        let result = self.store.write_ledger(&writes, self.keep);
        if let Err(e) = &result {
            tracing::error!(code = e.code(), error = %e, "ledger write failed");
        }
        for done in done.into_iter().flatten() {
            let _ = done.send(result.clone());
        }
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
    use serde_json::json;

    fn answer(id: &str) -> Stored {
        Stored {
            recheck: None,
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
        let served_by = vocab::ServedBy::hub("Hub");
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

    /// How long the load test writes: minutes of sustained load, as an operator's soak
    /// would, and long enough for the log to be emptied many times over at this
    /// machine's rate (a checkpoint every few seconds in a debug build).
    const LOAD_FOR: std::time::Duration = std::time::Duration::from_secs(120);

    /// Questions begun and answered through the ledger as fast as it commits them (64 at
    /// a time, on the async thread as in the Hub) for [`LOAD_FOR`]: all along, the
    /// `-wal` file (looked at every few milliseconds from another thread) never passes
    /// the store's cap and is emptied again and again, and the table on disk stays
    /// pruned to the ledger's capacity and an eighth; afterwards the file is intact and
    /// a reopened ledger answers the newest questions from disk.
    #[tokio::test]
    async fn under_sustained_load_the_log_stays_under_its_cap_and_the_newest_answers_survive() {
        use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
        use std::time::{Duration, Instant};

        const KEEP: usize = crate::LEDGER_CAPACITY;
        let dir = std::env::temp_dir().join(format!("campus-hub-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = store::file_for(&dir, "hub");
        let wal = dir.join("hub.sqlite3-wal");
        let open = || {
            let store = Store::open_with(&path, store::Durability::ProcessKill).unwrap();
            Arc::new(Ledger::durable(KEEP, load(store, KEEP, &vocab::ServedBy::hub("Hub")).unwrap()).unwrap())
        };
        let ledger = open();
        // what a tutor's answer through the Hub looks like, about 1 KB of JSON
        let answer_for = |n: i64| Stored {
            recheck: None,
            message_id: format!("msg-{n}"),
            context_id: format!("ctx-{}", n % 997),
            parts: vec![Part::text(format!(
                "{n}: {}",
                "a derivative measures a rate of change. ".repeat(12)
            ))],
            metadata: serde_json::from_value(json!({
                "servedBy": {"id": "hub", "name": "Hub"}, "route": {"agent": "tutor", "skill": "calculus",
                "confidence": 0.93}, "requestId": format!("r{n}"), "outcome": "answered"}))
            .unwrap(),
        };

        let stop = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (stop, wal, path) = (stop.clone(), wal.clone(), path.clone());
            std::thread::spawn(move || {
                let reader = Store::open(&path).unwrap();
                let (mut largest, mut emptied, mut last, mut most_rows, mut looks) = (0u64, 0, 0u64, 0, 0);
                let mut rows_at = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let now = std::fs::metadata(&wal).map_or(0, |m| m.len());
                    assert!(
                        now <= store::checkpoint::LOG_LIMIT,
                        "the log reached {now} bytes (cap {})",
                        store::checkpoint::LOG_LIMIT
                    );
                    largest = largest.max(now);
                    emptied += usize::from(last >= store::checkpoint::CHECKPOINT_AT && now < last / 2);
                    last = now;
                    looks += 1;
                    if rows_at.elapsed() > Duration::from_millis(250) {
                        rows_at = Instant::now();
                        let rows = reader.load_ledger(usize::MAX >> 1).unwrap().len();
                        assert!(rows <= KEEP + KEEP / 8, "{rows} rows on disk");
                        most_rows = most_rows.max(rows);
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                (largest, emptied, most_rows, looks)
            })
        };

        let next = Arc::new(AtomicI64::new(0));
        let started = Instant::now();
        let mut clients = tokio::task::JoinSet::new();
        for _ in 0..64 {
            let (ledger, next) = (ledger.clone(), next.clone());
            clients.spawn(async move {
                while started.elapsed() < LOAD_FOR {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let key = (String::new(), format!("r{n}"), n as u64);
                    let Begin::New(pending) = ledger.begin(key.clone(), None).await.unwrap() else {
                        panic!("r{n} is new")
                    };
                    ledger.finish(&key, None, &pending, &answer_for(n), true).await;
                }
            });
        }
        while let Some(done) = clients.join_next().await {
            done.unwrap();
        }
        let elapsed = started.elapsed();
        let asked = next.load(Ordering::Relaxed);
        drop(ledger);
        stop.store(true, Ordering::Relaxed);
        let (largest, emptied, most_rows, looks) = watcher.join().unwrap();
        let largest_mb = largest as f64 / 1e6;
        println!(
            "{asked} questions in {elapsed:.1?} ({:.0}/s); the log at most {largest_mb:.1} MB in {looks} looks, \
             emptied {emptied} times; at most {most_rows} rows on disk",
            asked as f64 / elapsed.as_secs_f64()
        );
        assert!(emptied >= 3, "the log was emptied {emptied} times (largest {largest} bytes)");

        let store = Store::open(&path).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
        let rows = store.load_ledger(KEEP).unwrap();
        assert_eq!(rows.len(), KEEP);
        for (row, n) in rows.iter().zip(asked - KEEP as i64..) {
            assert_eq!(
                (row.seq, row.key.1.as_str()),
                (n + 1, format!("r{n}").as_str()),
                "the newest, no gap"
            );
            let stored: Stored = serde_json::from_str(row.answer.as_deref().unwrap()).unwrap();
            assert_eq!(stored.message_id, format!("msg-{n}"));
        }
        drop(store);
        let ledger = open();
        for n in asked - 64..asked {
            let Ok(Begin::Existing(rx)) =
                ledger.begin((String::new(), format!("r{n}"), n as u64), None).await
            else {
                panic!("r{n} is answered from disk")
            };
            assert_eq!(wait(rx).await.unwrap().message_id, format!("msg-{n}"));
        }
        drop(ledger);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
