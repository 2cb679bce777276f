//! Exactly-once operations: an effect and the record of its result commit in one
//! transaction, keyed by (scope, operation id) with a fingerprint of the request.
//!
//! - First time: the effect runs; its result is stored with it ([`Once::Done`]).
//! - The same id with the same fingerprint: the stored result, the effect does not run
//!   ([`Once::Replayed`]).
//! - The same id with another fingerprint: refused, nothing runs ([`Once::Reused`]).
//! - An effect that fails records nothing, so a retry runs it again.
//!
//! The transaction is `IMMEDIATE`: two handles (threads, processes) with one operation id
//! are serialized by the write lock and the second finds the first's result. The effect
//! is database work inside that transaction; anything it does outside the database (a
//! network call) is not covered. Blocking.
//!
//! Records are kept for [`MAX_AGE_MS`] and the newest [`KEPT`] (older ones are pruned as
//! new ones are written): an identical retry within those is answered from the record;
//! later, the operation is unknown again (its form is closed or gone by then, so it is
//! refused rather than run twice).

use rusqlite::{OptionalExtension, params};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::{Store, StoreError, Tx};

/// Records kept, the newest: ten times the forms and form references a store keeps
/// ([`crate::forms::CLOSED_FORMS_KEPT`], [`crate::form_refs::KEEP`]), each of which takes
/// a few actions.
pub const KEPT: i64 = 100_000;

/// How long a record is kept: a month, against a day for a form reference to expire.
pub const MAX_AGE_MS: i64 = 30 * crate::DAY_MS;

/// What [`Store::once`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Once {
    /// The effect ran now and this is its result (recorded).
    Done(Value),
    /// An identical request ran before: its recorded result; nothing ran now.
    Replayed(Value),
    /// The operation id was used before for a request with other values: nothing ran.
    Reused,
}

impl Once {
    /// The result, first time or replayed; `None` for a reused id.
    pub fn result(&self) -> Option<&Value> {
        match self {
            Once::Done(v) | Once::Replayed(v) => Some(v),
            Once::Reused => None,
        }
    }
}

/// A stable fingerprint of a request's values: SHA-256 (hex) of their JSON with object
/// keys sorted, so the same values in another key order have the same fingerprint.
pub fn fingerprint(values: &Value) -> String {
    fn canonical(v: &Value, out: &mut String) {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    canonical(&map[k], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canonical(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    canonical(values, &mut text);
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// An operation's recorded (fingerprint, result).
fn lookup(
    conn: &rusqlite::Connection,
    scope: &str,
    operation_id: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    conn.query_row(
        "SELECT fingerprint, result FROM operations WHERE scope = ?1 AND operation_id = ?2",
        params![scope, operation_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

impl Store {
    /// What an operation came to, without running anything: [`Once::Replayed`] (recorded
    /// with this fingerprint), [`Once::Reused`] (recorded with another), or `None` (not
    /// recorded: it never finished, or never ran). For an effect that is not database work
    /// (a network call), recorded afterwards with [`Store::once`].
    pub fn recorded(
        &self,
        scope: &str,
        operation_id: &str,
        fingerprint: &str,
    ) -> Result<Option<Once>, StoreError> {
        let stored = lookup(&self.conn(), scope, operation_id).map_err(|e| self.sqlite(e))?;
        stored
            .map(|(stored_fingerprint, result)| self.replay(fingerprint, &stored_fingerprint, &result))
            .transpose()
    }

    fn replay(&self, fingerprint: &str, stored_fingerprint: &str, result: &str) -> Result<Once, StoreError> {
        if stored_fingerprint != fingerprint {
            return Ok(Once::Reused);
        }
        let value = serde_json::from_str(result).map_err(|e| StoreError::Sqlite {
            path: self.path().to_path_buf(),
            reason: format!("a stored operation result is not valid json ({e})"),
        })?;
        Ok(Once::Replayed(value))
    }

    /// Runs `effect` at most once per (`scope`, `operation_id`) and records its result in
    /// the same transaction (see the module). Store failures come back as `E`.
    pub fn once<E: From<StoreError>>(
        &self,
        scope: &str,
        operation_id: &str,
        fingerprint: &str,
        effect: impl FnOnce(&Tx<'_>) -> Result<Value, E>,
    ) -> Result<Once, E> {
        self.write(|tx| {
            let stored = lookup(tx.tx, scope, operation_id).map_err(|e| tx.sqlite(e))?;
            if let Some((stored_fingerprint, result)) = stored {
                return Ok(self.replay(fingerprint, &stored_fingerprint, &result)?);
            }
            let value = effect(tx)?;
            let now_ms = crate::now_ms();
            tx.tx
                .execute(
                    "INSERT INTO operations (scope, operation_id, fingerprint, result, created_at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![scope, operation_id, fingerprint, value.to_string(), now_ms],
                )
                .map_err(|e| tx.sqlite(e))?;
            tx.prune_past_count("operations", "seq", KEPT)?;
            tx.prune_past_age("operations", "seq", MAX_AGE_MS, now_ms, None)?;
            Ok(Once::Done(value))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    use serde_json::json;

    use super::*;
    use crate::file_for;
    use crate::testdir::TempDir;

    #[test]
    fn first_time_done_then_replayed_then_reused_and_after_a_reopen_too() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        let runs = AtomicUsize::new(0);
        let effect = |_: &Tx<'_>| -> Result<Value, StoreError> {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"receipt": "bk-1"}))
        };
        let fp = fingerprint(&json!({"room": "A", "date": "2026-12-01"}));
        {
            let store = Store::open(&path).unwrap();
            assert_eq!(
                store.once("s1", "op-1", &fp, effect).unwrap(),
                Once::Done(json!({"receipt": "bk-1"}))
            );
            assert_eq!(
                store.once("s1", "op-1", &fp, effect).unwrap(),
                Once::Replayed(json!({"receipt": "bk-1"}))
            );
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.once("s1", "op-1", &fp, effect).unwrap(),
            Once::Replayed(json!({"receipt": "bk-1"})),
            "the record survives a reopen"
        );
        let other = fingerprint(&json!({"room": "B", "date": "2026-12-01"}));
        assert_eq!(store.once("s1", "op-1", &other, effect).unwrap(), Once::Reused);
        assert_eq!(
            store.recorded("s1", "op-1", &fp).unwrap(),
            Some(Once::Replayed(json!({"receipt": "bk-1"})))
        );
        assert_eq!(store.recorded("s1", "op-1", &other).unwrap(), Some(Once::Reused));
        assert_eq!(store.recorded("s1", "op-2", &fp).unwrap(), None);
        assert_eq!(runs.load(Ordering::SeqCst), 1, "the effect ran once");
        // another scope is another operation
        assert!(matches!(store.once("s2", "op-1", &other, effect).unwrap(), Once::Done(_)));
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_failed_effect_records_nothing_and_its_writes_roll_back() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "tutor")).unwrap();
        let values = json!({"topic": "limits"});
        let fp = fingerprint(&values);
        let failed = store.once("s", "op", &fp, |tx| {
            tx.insert_tutoring_request("student-1", "ctx-1", &values)?;
            Err::<Value, _>(StoreError::Worker)
        });
        assert_eq!(failed.unwrap_err().code(), "store_worker");
        assert!(store.tutoring_requests_of("student-1", 10).unwrap().is_empty(), "rolled back");
        let done = store.once("s", "op", &fp, |tx| {
            let r = tx.insert_tutoring_request("student-1", "ctx-1", &values)?;
            Ok::<_, StoreError>(json!({"id": r.id}))
        });
        assert!(matches!(done.unwrap(), Once::Done(_)), "a retry runs again");
        assert_eq!(store.tutoring_requests_of("student-1", 10).unwrap().len(), 1);
    }

    #[test]
    fn the_fingerprint_ignores_key_order_only() {
        let a = fingerprint(&json!({"a": 1, "b": {"x": [1, 2], "y": "z"}}));
        let b = fingerprint(&json!({"b": {"y": "z", "x": [1, 2]}, "a": 1}));
        assert_eq!(a, b);
        assert_eq!(a.len(), 64);
        assert_ne!(a, fingerprint(&json!({"a": 1, "b": {"x": [2, 1], "y": "z"}})));
        assert_ne!(fingerprint(&json!({"a": "1"})), fingerprint(&json!({"a": 1})));
    }

    #[test]
    fn threads_with_their_own_connections_and_one_operation_id_run_one_effect() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        drop(Store::open(&path).unwrap());
        let runs = Arc::new(AtomicUsize::new(0));
        let barrier = Arc::new(Barrier::new(8));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (path, runs, barrier) = (path.clone(), runs.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let store = Store::open(&path).unwrap();
                    barrier.wait();
                    store
                        .once("scope", "op-race", "fp", |_| {
                            runs.fetch_add(1, Ordering::SeqCst);
                            Ok::<_, StoreError>(json!("ok"))
                        })
                        .unwrap()
                })
            })
            .collect();
        let outcomes: Vec<Once> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(outcomes.iter().filter(|o| matches!(o, Once::Done(_))).count(), 1);
        assert_eq!(outcomes.iter().filter(|o| **o == Once::Replayed(json!("ok"))).count(), 7);
    }

    /// A record older than [`MAX_AGE_MS`], and any beyond the newest [`KEPT`], is gone
    /// once a new one is written; the young and newest stay.
    #[test]
    fn records_past_their_age_or_count_are_pruned_as_new_ones_are_written() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let now = crate::now_ms();
        let put = |seq: i64, op: &str, at: i64| {
            store
                .conn()
                .execute(
                    "INSERT INTO operations (seq, scope, operation_id, fingerprint, result, created_at_ms)
                     VALUES (?1, 's', ?2, 'fp', '1', ?3)",
                    params![seq, op, at],
                )
                .unwrap();
        };
        let kept = |op: &str| store.recorded("s", op, "fp").unwrap().is_some();
        put(1, "old", now - MAX_AGE_MS - 60_000);
        put(2, "young", now - 60_000);
        store.once("s", "new", "fp", |_| Ok::<_, StoreError>(json!(1))).unwrap();
        assert!(!kept("old") && kept("young") && kept("new"), "the old one is gone");
        // the newest KEPT: a record KEPT + 5 after `young` leaves it too far behind
        put(KEPT + 5, "later", now);
        store.once("s", "newest", "fp", |_| Ok::<_, StoreError>(json!(1))).unwrap();
        assert!(!kept("young") && !kept("new"), "beyond the newest {KEPT}");
        assert!(kept("later") && kept("newest"));
    }

    /// A file from before migration 10 (records without a number) keeps every record,
    /// numbered in the order they were made.
    #[test]
    fn the_records_of_an_older_file_are_kept_in_the_order_they_were_made() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &crate::migrate::MIGRATIONS[..9] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 9).unwrap();
            for (op, at) in [("b", 30), ("c", 10), ("a", 20)] {
                tx.execute(
                    "INSERT INTO operations (scope, operation_id, fingerprint, result, created_at_ms)
                     VALUES ('s', ?1, 'fp', '\"r\"', ?2)",
                    params![op, at],
                )
                .unwrap();
            }
            tx.commit().unwrap();
        }
        let store = Store::open(&path).unwrap();
        let order: Vec<String> =
            store.select("SELECT operation_id FROM operations ORDER BY seq", [], |r| r.get(0)).unwrap();
        assert_eq!(order, ["c", "a", "b"]);
        assert_eq!(store.recorded("s", "a", "fp").unwrap(), Some(Once::Replayed(json!("r"))));
        assert_eq!(store.recorded("s", "a", "other").unwrap(), Some(Once::Reused));
    }
}
