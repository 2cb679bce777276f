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
mod tests;
