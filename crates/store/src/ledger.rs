//! The Hub's request ledger on disk: an append-only log, one row per request — its key
//! (scope, request id, question hash), the conversation the Hub assigned to a first
//! question, and the answer given (opaque JSON text), or none yet while the request is
//! being handled. The Hub numbers its rows (`seq`) and finds them by that number only:
//! there is no index on the key (the Hub's map in memory is the index), so a batch of
//! writes touches only the table's last pages. Rows are written in batches
//! ([`Store::write_ledger`], one transaction per batch) and read once at start
//! ([`Store::load_ledger`]); the table keeps the newest rows only (the writer's `keep`,
//! pruned as batches are written) and none older than [`MAX_AGE_MS`] (pruned as batches
//! are written and at start). Blocking.

use rusqlite::params;

use crate::{Store, StoreError};

/// How long a request is remembered: a retry later than this is a new request (once the
/// rows are read again at start; the Hub's map in memory is bounded by count only).
pub const MAX_AGE_MS: i64 = 30 * crate::DAY_MS;

/// One ledger key: (conversation the client named or empty, request id, question hash).
pub type LedgerKey = (String, String, u64);

/// A change to the ledger; `seq` names a row (given by the writer, increasing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerWrite {
    /// A request is being handled (no answer yet): a new row.
    Begin { seq: i64, key: LedgerKey, assigned: Option<String> },
    /// Its answer.
    Answer { seq: i64, answer: String },
    /// Forget the request (nothing was dispatched: a retry may decide again).
    Forget { seq: i64 },
    /// What the Hub remembers of a conversation now (`touched`: the writer's increasing
    /// number; conversations not touched in the last `keep` of them are pruned).
    Conversation { id: String, state: String, touched: i64 },
}

/// A row as loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    pub seq: i64,
    pub key: LedgerKey,
    /// The conversation the Hub assigned to a first question (a second key for it).
    pub assigned: Option<String>,
    /// `None` when the Hub stopped before answering.
    pub answer: Option<String>,
}

impl Store {
    /// Applies `writes` in order in one transaction, then prunes the oldest rows: at most
    /// `keep` and an eighth are ever kept, the newest `keep` always (unless older than
    /// [`MAX_AGE_MS`]).
    pub fn write_ledger(&self, writes: &[LedgerWrite], keep: usize) -> Result<(), StoreError> {
        let now_ms = crate::now_ms();
        self.write(|tx| {
            let t = tx.tx;
            let err = |e| tx.sqlite(e);
            // cached on the connection: prepared once, not for every batch
            let mut begin = t
                .prepare_cached(
                    "INSERT INTO request_ledger (seq, scope, request_id, question_hash, assigned_context, answer, created_at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)",
                )
                .map_err(err)?;
            let mut answer =
                t.prepare_cached("UPDATE request_ledger SET answer = ?2 WHERE seq = ?1").map_err(err)?;
            let mut forget = t.prepare_cached("DELETE FROM request_ledger WHERE seq = ?1").map_err(err)?;
            let mut remember = t
                .prepare_cached(
                    "INSERT INTO hub_conversations (id, state, touched, created_at_ms) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (id) DO UPDATE SET state = ?2, touched = ?3, created_at_ms = ?4",
                )
                .map_err(err)?;
            let mut touched_most = None;
            for w in writes {
                match w {
                    LedgerWrite::Begin { seq, key: (s, r, h), assigned } => {
                        begin.execute(params![seq, s, r, *h as i64, assigned, now_ms])
                    }
                    LedgerWrite::Answer { seq, answer: a } => answer.execute(params![seq, a]),
                    LedgerWrite::Forget { seq } => forget.execute([seq]),
                    LedgerWrite::Conversation { id, state, touched } => {
                        touched_most = Some(*touched);
                        remember.execute(params![id, state, touched, now_ms])
                    }
                }
                .map_err(err)?;
            }
            // conversations not touched in the last `keep` (+ an eighth, in chunks) go
            if let Some(newest) = touched_most {
                let keep = keep as i64;
                let oldest: Option<i64> = t
                    .prepare_cached("SELECT min(touched) FROM hub_conversations")
                    .and_then(|mut s| s.query_row([], |r| r.get(0)))
                    .map_err(err)?;
                if oldest.is_some_and(|o| newest - o >= keep + keep / 8) {
                    t.execute("DELETE FROM hub_conversations WHERE touched <= ?1", [newest - keep])
                        .map_err(err)?;
                }
                // and none untouched for longer than the ledger keeps a row
                tx.prune_past_age("hub_conversations", "touched", MAX_AGE_MS, now_ms, None)?;
            }
            // in chunks (an eighth of `keep` at a time): a delete in every batch would
            // rewrite the oldest pages on every commit
            let (oldest, newest): (Option<i64>, Option<i64>) = t
                // two subqueries: each is one b-tree lookup; min and max in one query scan the table
                .prepare_cached(
                    "SELECT (SELECT min(seq) FROM request_ledger), (SELECT max(seq) FROM request_ledger)",
                )
                .and_then(|mut s| s.query_row([], |r| Ok((r.get(0)?, r.get(1)?))))
                .map_err(err)?;
            let keep = keep as i64;
            if let (Some(oldest), Some(newest)) = (oldest, newest)
                && newest - oldest >= keep + keep / 8
            {
                t.execute("DELETE FROM request_ledger WHERE seq <= ?1", [newest - keep]).map_err(err)?;
            }
            // the oldest row is young unless the Hub is quiet: one lookup, nothing deleted
            tx.prune_past_age("request_ledger", "seq", MAX_AGE_MS, now_ms, None)
        })
    }

    /// The `limit` conversations touched last, as (id, state, touched), oldest first (those
    /// untouched for longer than [`MAX_AGE_MS`] are deleted first).
    pub fn load_conversations(&self, limit: usize) -> Result<Vec<(String, String, i64)>, StoreError> {
        self.write(|tx| {
            tx.prune_past_age("hub_conversations", "touched", MAX_AGE_MS, crate::now_ms(), None)
        })?;
        let sql = "SELECT id, state, touched FROM
                   (SELECT * FROM hub_conversations ORDER BY touched DESC LIMIT ?1) ORDER BY touched";
        self.select(sql, [limit as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
    }

    /// The newest `limit` rows, oldest first (rows older than [`MAX_AGE_MS`] are deleted
    /// first).
    pub fn load_ledger(&self, limit: usize) -> Result<Vec<LedgerRow>, StoreError> {
        self.write(|tx| tx.prune_past_age("request_ledger", "seq", MAX_AGE_MS, crate::now_ms(), None))?;
        let sql = "SELECT seq, scope, request_id, question_hash, assigned_context, answer FROM
                   (SELECT * FROM request_ledger ORDER BY seq DESC LIMIT ?1) ORDER BY seq";
        self.select(sql, [limit as i64], |r| {
            Ok(LedgerRow {
                seq: r.get(0)?,
                key: (r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? as u64),
                assigned: r.get(4)?,
                answer: r.get(5)?,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_for;
    use crate::testdir::TempDir;

    fn key(scope: &str, id: &str) -> LedgerKey {
        (scope.into(), id.into(), u64::MAX - 1)
    }

    fn begin(seq: i64, scope: &str, id: &str, assigned: Option<&str>) -> LedgerWrite {
        LedgerWrite::Begin { seq, key: key(scope, id), assigned: assigned.map(str::to_string) }
    }

    fn row(seq: i64, scope: &str, id: &str, assigned: Option<&str>, answer: Option<&str>) -> LedgerRow {
        LedgerRow {
            seq,
            key: key(scope, id),
            assigned: assigned.map(str::to_string),
            answer: answer.map(str::to_string),
        }
    }

    #[test]
    fn conversations_are_kept_by_their_last_touch_and_the_untouched_pruned() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let conv = |id: &str, touched: i64| LedgerWrite::Conversation {
            id: id.into(),
            state: format!("{{\"n\":{touched}}}"),
            touched,
        };
        {
            let store = Store::open(&path).unwrap();
            store.write_ledger(&[conv("a", 1), conv("b", 2), conv("a", 3)], 8).unwrap();
            let writes: Vec<LedgerWrite> = (4..14).map(|n| conv(&format!("c{n}"), n)).collect();
            store.write_ledger(&writes, 8).unwrap();
        }
        let store = Store::open(&path).unwrap();
        let kept = store.load_conversations(100).unwrap();
        let ids: Vec<&str> = kept.iter().map(|(id, _, _)| id.as_str()).collect();
        // 13 touches, keep 8: "b" (2), "a" (3, its second), c4 and c5 were not among the last 8
        assert_eq!(ids, ["c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13"]);
        assert_eq!(store.load_conversations(2).unwrap().len(), 2, "the newest only");
        assert_eq!(kept.last().unwrap().1, r#"{"n":13}"#);
        // one untouched for longer than MAX_AGE_MS goes at the next batch, the rest at start
        let old = crate::now_ms() - MAX_AGE_MS - 60_000;
        let age = |id: &str| {
            store
                .conn()
                .execute("UPDATE hub_conversations SET created_at_ms = ?1 WHERE id = ?2", (old, id))
                .unwrap();
        };
        age("c6");
        store.write_ledger(&[conv("c7", 14)], 8).unwrap();
        let ids: Vec<String> =
            store.load_conversations(100).unwrap().into_iter().map(|(id, _, _)| id).collect();
        assert_eq!(ids, ["c8", "c9", "c10", "c11", "c12", "c13", "c7"]);
        for id in &ids {
            age(id);
        }
        drop(store);
        assert_eq!(
            Store::open(&path).unwrap().load_conversations(100).unwrap(),
            vec![],
            "a Hub quiet for a month"
        );
    }

    #[test]
    fn begun_answered_and_forgotten_rows_survive_a_reopen_as_written() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        {
            let store = Store::open(&path).unwrap();
            store
                .write_ledger(
                    &[
                        begin(1, "", "r1", Some("ctx")),
                        begin(2, "ctx", "r2", None),
                        begin(3, "ctx", "r3", None),
                    ],
                    100,
                )
                .unwrap();
            store
                .write_ledger(
                    &[
                        LedgerWrite::Answer { seq: 1, answer: "{\"a\":1}".into() },
                        LedgerWrite::Forget { seq: 3 },
                    ],
                    100,
                )
                .unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.load_ledger(100).unwrap(),
            vec![row(1, "", "r1", Some("ctx"), Some("{\"a\":1}")), row(2, "ctx", "r2", None, None)]
        );
        assert_eq!(store.load_ledger(1).unwrap(), vec![row(2, "ctx", "r2", None, None)], "the newest");
    }

    #[test]
    fn only_the_newest_rows_are_kept() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let ids = |store: &Store| -> Vec<String> {
            store.load_ledger(100).unwrap().into_iter().map(|r| r.key.1).collect()
        };
        for i in 0..40 {
            store.write_ledger(&[begin(i as i64 + 1, "", &format!("r{i}"), None)], 16).unwrap();
            let kept = ids(&store);
            assert!(kept.len() <= 18 && kept.len() >= 16.min(i + 1), "{i}: {kept:?}");
            assert_eq!(kept.last().unwrap(), &format!("r{i}"));
        }
        let kept = ids(&store);
        assert_eq!(kept.first().unwrap(), &format!("r{}", 40 - kept.len()), "the newest are kept");
    }

    /// A file written by a build with the old two-row ledger (a first question's key and
    /// its alias as separate rows, a unique key index) keeps every request after the
    /// upgrade: one row each, the alias folded into `assigned`.
    #[test]
    fn the_old_two_row_ledger_is_folded_on_upgrade() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &crate::migrate::MIGRATIONS[..8] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 8).unwrap();
            // written just now: rows older than MAX_AGE_MS would be pruned at the first read
            let ins = "INSERT INTO request_ledger (seq, scope, request_id, question_hash, answer, created_at_ms) VALUES (?1, ?2, ?3, 9, ?4, ?5)";
            let now = crate::now_ms();
            for (seq, scope, id, answer) in [
                (1, "", "r1", Some("a1")),
                (2, "ctx-1", "r1", Some("a1")),
                (3, "", "r2", None),
                (4, "ctx-2", "r2", None),
                (5, "ctx-1", "r3", Some("a3")),
            ] {
                tx.execute(ins, params![seq, scope, id, answer, now]).unwrap();
            }
            tx.commit().unwrap();
        }
        let store = Store::open(&path).unwrap();
        let k = |scope: &str, id: &str| (scope.to_string(), id.to_string(), 9u64);
        let rows = store.load_ledger(100).unwrap();
        let expect = [
            (1, k("", "r1"), Some("ctx-1"), Some("a1")),
            (3, k("", "r2"), Some("ctx-2"), None),
            (5, k("ctx-1", "r3"), None, Some("a3")),
        ];
        assert_eq!(rows.len(), expect.len(), "{rows:?}");
        for (row, (seq, key, assigned, answer)) in rows.iter().zip(expect) {
            assert_eq!(row.seq, seq);
            assert_eq!(row.key, key);
            assert_eq!(row.assigned.as_deref(), assigned);
            assert_eq!(row.answer.as_deref(), answer);
        }
    }

    /// A row older than [`MAX_AGE_MS`] is gone after the next batch, and at start.
    #[test]
    fn rows_past_their_age_are_pruned_as_batches_are_written_and_at_start() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let store = Store::open(&path).unwrap();
        let age = |seq: i64| {
            let old = crate::now_ms() - MAX_AGE_MS - 60_000;
            store
                .conn()
                .execute("UPDATE request_ledger SET created_at_ms = ?1 WHERE seq = ?2", [old, seq])
                .unwrap();
        };
        let seqs = |store: &Store| -> Vec<i64> {
            store.load_ledger(100).unwrap().into_iter().map(|r| r.seq).collect()
        };
        store
            .write_ledger(
                &[begin(1, "", "r1", None), begin(2, "", "r2", None), begin(3, "", "r3", None)],
                100,
            )
            .unwrap();
        age(1);
        age(2);
        store.write_ledger(&[begin(4, "", "r4", None)], 100).unwrap();
        assert_eq!(seqs(&store), [3, 4]);
        age(3);
        age(4);
        drop(store);
        // a Hub quiet for a month: the first read at start forgets them, and numbering
        // starts over on an empty table
        assert_eq!(seqs(&Store::open(&path).unwrap()), Vec::<i64>::new());
    }
}
