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
//! request. Writes go to one writer thread that commits whatever is queued in one
//! transaction (group commit). A request the Hub was killed while handling is answered
//! after the restart with `outcome_unknown`, never dispatched again.

use std::sync::Mutex;
use std::sync::mpsc;

use a2a::wire::{Part, new_message_id};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use store::ledger::{LedgerRow, LedgerWrite};
use store::{Store, StoreError};
use tokio::sync::{oneshot, watch};

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
    /// New: do the work and send the answer.
    New(watch::Sender<Option<Stored>>),
}

pub(crate) struct Ledger {
    inner: Mutex<BoundedMap<Key, watch::Receiver<Option<Stored>>>>,
    disk: Option<Writer>,
}

/// The ledger read from the Hub's store at start (see [`load`]).
pub(crate) struct Loaded {
    store: Store,
    rows: Vec<(Key, Stored)>,
}

impl Ledger {
    /// A ledger in memory only.
    #[cfg(test)]
    pub(crate) fn new(capacity: usize) -> Self {
        Self { inner: Mutex::new(BoundedMap::new(capacity)), disk: None }
    }

    /// The ledger kept in the store `loaded` came from, starting with its rows.
    pub(crate) fn durable(capacity: usize, loaded: Loaded) -> Result<Self, StoreError> {
        let mut map = BoundedMap::new(capacity);
        for (key, stored) in loaded.rows {
            map.insert(key, watch::channel(Some(stored)).1);
        }
        let disk = Writer::spawn(loaded.store, capacity)?;
        Ok(Self { inner: Mutex::new(map), disk: Some(disk) })
    }

    /// Looks a request up under `key`; a new one is also filed under `alias` (the
    /// conversation the Hub assigned to a first question), so a retry that names it finds
    /// the same answer. A new one is recorded on disk before this returns; if that
    /// fails, it is forgotten again and the error returned.
    pub(crate) async fn begin(&self, key: Key, alias: Option<Key>) -> Result<Begin, StoreError> {
        let tx = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(rx) = inner.get(&key) {
                return Ok(Begin::Existing(rx.clone()));
            }
            let (tx, rx) = watch::channel(None);
            if let Some(alias) = &alias {
                inner.insert(alias.clone(), rx.clone());
            }
            inner.insert(key.clone(), rx);
            tx
        };
        if let Some(disk) = &self.disk {
            let writes = std::iter::once(&key).chain(alias.as_ref()).map(|k| LedgerWrite::Begin(k.clone()));
            if let Err(e) = disk.write(writes.collect()).await {
                self.forget(&key, alias.as_ref());
                return Err(e);
            }
        }
        Ok(Begin::New(tx))
    }

    /// Ends a request begun here: its answer is recorded (on disk first) and sent to the
    /// duplicates waiting, or, when `keep` is false (nothing was dispatched), forgotten
    /// after being sent, so a later retry decides again.
    pub(crate) async fn finish(
        &self,
        key: &Key,
        alias: Option<&Key>,
        tx: &watch::Sender<Option<Stored>>,
        stored: &Stored,
        keep: bool,
    ) {
        if keep && let Some(disk) = &self.disk {
            let answer = serde_json::to_string(stored).expect("an answer serializes");
            let writes =
                std::iter::once(key).chain(alias).map(|k| LedgerWrite::Answer(k.clone(), answer.clone()));
            if let Err(e) = disk.write(writes.collect()).await {
                // the begun row stays: a retry after a restart is told the outcome is unknown
                tracing::error!(code = e.code(), error = %e, "the ledger could not record an answer");
            }
        }
        tx.send_replace(Some(stored.clone()));
        if !keep {
            self.forget(key, alias);
        }
    }

    /// Drops a request whose outcome is safe to recompute (nothing was dispatched), in
    /// memory and (without waiting) on disk.
    pub(crate) fn forget(&self, key: &Key, alias: Option<&Key>) {
        {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            inner.remove(key);
            if let Some(alias) = alias {
                inner.remove(alias);
            }
        }
        if let Some(disk) = &self.disk {
            disk.send(
                std::iter::once(key).chain(alias).map(|k| LedgerWrite::Forget(k.clone())).collect(),
                None,
            );
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).len()
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
    let mut loaded = Vec::with_capacity(rows.len());
    let mut settled = Vec::new();
    // a request's key and alias share one answer
    let mut cut: std::collections::HashMap<(&str, u64), Stored> = Default::default();
    for (key, answer) in &rows {
        let stored = answer.as_deref().and_then(|a| serde_json::from_str::<Stored>(a).ok());
        let stored = match stored {
            Some(s) => s,
            None => {
                let s =
                    cut.entry((&key.1, key.2)).or_insert_with(|| interrupted(key, &rows, served_by)).clone();
                settled
                    .push(LedgerWrite::Answer(key.clone(), serde_json::to_string(&s).expect("serializes")));
                s
            }
        };
        loaded.push((key.clone(), stored));
    }
    if !settled.is_empty() {
        tracing::warn!(
            requests = settled.len(),
            "requests interrupted by a stop are answered as outcome unknown"
        );
        store.write_ledger(&settled, capacity)?;
    }
    Ok(Loaded { store, rows: loaded })
}

/// The answer to a request interrupted before it had one. A first question's key has no
/// conversation: its alias (same request and question, begun with it) names the one the
/// Hub assigned.
fn interrupted(key: &Key, rows: &[LedgerRow], served_by: &Value) -> Stored {
    let (scope, request_id, hash) = key;
    let context_id = if scope.is_empty() {
        rows.iter()
            .find(|((s, r, h), _)| !s.is_empty() && r == request_id && h == hash)
            .map(|((s, _, _), _)| s.clone())
            .unwrap_or_else(a2a::wire::new_context_id)
    } else {
        scope.clone()
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

/// The writer thread: commits what is queued, in order, one transaction per batch.
struct Writer {
    jobs: mpsc::Sender<Job>,
}

struct Job {
    writes: Vec<LedgerWrite>,
    done: Option<oneshot::Sender<Result<(), StoreError>>>,
}

/// Most requests' writes committed in one transaction.
const BATCH: usize = 512;
/// How long a batch under load waits for more writes to share its commit.
const LINGER: std::time::Duration = std::time::Duration::from_micros(250);

impl Writer {
    fn spawn(store: Store, keep: usize) -> Result<Writer, StoreError> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("hub-ledger".into())
            .spawn(move || {
                // under load (the last batch had more than one request's writes), wait a
                // moment for more to share the commit: a commit costs the same for one
                // write as for hundreds; one at a time (one client) never waits
                let mut linger = false;
                // ends when the ledger (the only sender) is dropped
                while let Ok(first) = queue.recv() {
                    let mut batch = vec![first];
                    let until = std::time::Instant::now() + LINGER;
                    while batch.len() < BATCH {
                        match queue.try_recv() {
                            Ok(next) => batch.push(next),
                            Err(_) if !linger => break,
                            Err(_) => match queue
                                .recv_timeout(until.saturating_duration_since(std::time::Instant::now()))
                            {
                                Ok(next) => batch.push(next),
                                Err(_) => break,
                            },
                        }
                    }
                    linger = batch.len() > 1;
                    let writes: Vec<LedgerWrite> =
                        batch.iter_mut().flat_map(|j| j.writes.drain(..)).collect();
                    let result = store.write_ledger(&writes, keep);
                    if let Err(e) = &result {
                        tracing::error!(code = e.code(), error = %e, "ledger write failed");
                    }
                    for job in batch {
                        if let Some(done) = job.done {
                            let _ = done.send(result.clone());
                        }
                    }
                }
            })
            .map_err(|_| StoreError::Worker)?;
        Ok(Writer { jobs })
    }

    fn send(&self, writes: Vec<LedgerWrite>, done: Option<oneshot::Sender<Result<(), StoreError>>>) {
        // the thread only stops when this sender is dropped
        let _ = self.jobs.send(Job { writes, done });
    }

    /// Queues `writes` and waits until they are committed.
    async fn write(&self, writes: Vec<LedgerWrite>) -> Result<(), StoreError> {
        let (done, committed) = oneshot::channel();
        self.send(writes, Some(done));
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
        let Ok(Begin::New(tx)) = l.begin(key.clone(), Some(alias.clone())).await else {
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
        l.finish(&key, Some(&alias), &tx, &answer("m"), false).await;
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
            let Begin::New(tx) = l.begin(answered.clone(), Some(answered_alias.clone())).await.unwrap()
            else {
                panic!("new")
            };
            l.finish(&answered, Some(&answered_alias), &tx, &answer("m1"), true).await;
            let Begin::New(_cut) = l.begin(cut.clone(), Some(cut_alias.clone())).await.unwrap() else {
                panic!()
            };
            let Begin::New(tx) = l.begin(dropped.clone(), None).await.unwrap() else { panic!() };
            l.finish(&dropped, None, &tx, &answer("m3"), false).await;
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
}
