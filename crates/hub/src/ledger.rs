//! The request ledger: a repeated Student request id is answered from here, with no
//! second routing decision and no second dispatch. Work for a new request runs on its
//! own task, so a caller that disconnects cannot leave it half done; duplicates that
//! arrive while it runs wait for the same answer.

use std::sync::Mutex;

use a2a::wire::Part;
use serde_json::Value;
use tokio::sync::watch;

use bounded::BoundedMap;

/// The answer given to one Student request.
#[derive(Debug, Clone)]
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

pub(crate) enum Begin {
    /// Seen before: wait on this for the answer.
    Existing(watch::Receiver<Option<Stored>>),
    /// New: do the work and send the answer.
    New(watch::Sender<Option<Stored>>),
}

pub(crate) struct Ledger {
    inner: Mutex<BoundedMap<Key, watch::Receiver<Option<Stored>>>>,
}

impl Ledger {
    pub(crate) fn new(capacity: usize) -> Self {
        Self { inner: Mutex::new(BoundedMap::new(capacity)) }
    }

    /// Looks a request up under `key`; a new one is also filed under `alias` (the
    /// conversation the Hub assigned to a first question), so a retry that names it finds
    /// the same answer.
    pub(crate) fn begin(&self, key: Key, alias: Option<Key>) -> Begin {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(rx) = inner.get(&key) {
            return Begin::Existing(rx.clone());
        }
        let (tx, rx) = watch::channel(None);
        if let Some(alias) = alias {
            inner.insert(alias, rx.clone());
        }
        inner.insert(key, rx);
        Begin::New(tx)
    }

    /// Drops a request whose outcome is safe to recompute (nothing was dispatched).
    pub(crate) fn forget(&self, key: &Key, alias: Option<&Key>) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.remove(key);
        if let Some(alias) = alias {
            inner.remove(alias);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn duplicates_wait_for_the_first_answer() {
        let l = Ledger::new(2);
        let key = ("ctx".to_string(), "r1".to_string(), 7);
        let alias = ("assigned".to_string(), "r1".to_string(), 7);
        let Begin::New(tx) = l.begin(key.clone(), Some(alias.clone())) else { panic!("first is new") };
        let Begin::Existing(rx) = l.begin(key.clone(), None) else { panic!("second is a duplicate") };
        assert!(matches!(l.begin(alias.clone(), None), Begin::Existing(_)), "the alias finds it too");
        let waiter = tokio::spawn(wait(rx));
        tx.send_replace(Some(Stored {
            message_id: "m".into(),
            context_id: "ctx".into(),
            parts: vec![],
            metadata: Default::default(),
        }));
        assert_eq!(waiter.await.unwrap().unwrap().message_id, "m");
        l.forget(&key, Some(&alias));
        assert!(matches!(l.begin(alias, None), Begin::New(_)));
        assert!(matches!(l.begin(key, None), Begin::New(_)));
        l.begin(("a".into(), "1".into(), 0), None);
        l.begin(("a".into(), "2".into(), 0), None);
        assert_eq!(l.len(), 2, "bounded");
    }
}
