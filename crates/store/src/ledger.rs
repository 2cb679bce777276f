//! The Hub's request ledger on disk: per (scope, request id, question hash), the answer
//! given (opaque JSON text), or none yet while the request is being handled. Rows are
//! written in batches ([`Store::write_ledger`], one transaction per batch) and read
//! once at start ([`Store::load_ledger`]). The table keeps the newest rows only (pruned
//! as batches are written). Blocking.

use rusqlite::params;

use crate::{Store, StoreError};

/// One ledger key: (conversation the client named or empty, request id, question hash).
pub type LedgerKey = (String, String, u64);

/// A change to the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerWrite {
    /// A request is being handled (no answer yet); replaces any row under the key.
    Begin(LedgerKey),
    /// Its answer.
    Answer(LedgerKey, String),
    /// Forget the key (nothing was dispatched: a retry may decide again).
    Forget(LedgerKey),
}

/// A row as loaded: the key and its answer, `None` when the Hub stopped before answering.
pub type LedgerRow = (LedgerKey, Option<String>);

impl Store {
    /// Applies `writes` in order in one transaction, then prunes the oldest rows: at most
    /// `keep` and an eighth are ever kept, the newest `keep` always.
    pub fn write_ledger(&self, writes: &[LedgerWrite], keep: usize) -> Result<(), StoreError> {
        let now_ms = crate::now_ms();
        self.write(|tx| {
            let t = tx.tx;
            let err = |e| tx.sqlite(e);
            let mut begin = t
                .prepare(
                    "INSERT OR REPLACE INTO request_ledger (scope, request_id, question_hash, answer, created_at_ms)
                     VALUES (?1, ?2, ?3, NULL, ?4)",
                )
                .map_err(err)?;
            let mut answer = t
                .prepare(
                    "UPDATE request_ledger SET answer = ?4 WHERE scope = ?1 AND request_id = ?2 AND question_hash = ?3",
                )
                .map_err(err)?;
            let mut forget = t
                .prepare(
                    "DELETE FROM request_ledger WHERE scope = ?1 AND request_id = ?2 AND question_hash = ?3",
                )
                .map_err(err)?;
            for w in writes {
                match w {
                    LedgerWrite::Begin((s, r, h)) => begin.execute(params![s, r, *h as i64, now_ms]),
                    LedgerWrite::Answer((s, r, h), a) => answer.execute(params![s, r, *h as i64, a]),
                    LedgerWrite::Forget((s, r, h)) => forget.execute(params![s, r, *h as i64]),
                }
                .map_err(err)?;
            }
            // in chunks (an eighth of `keep` at a time): a delete in every batch would
            // rewrite the oldest pages on every commit
            let (oldest, newest): (Option<i64>, Option<i64>) = t
                // two subqueries: each is one b-tree lookup; min and max in one query scan the table
                .query_row(
                    "SELECT (SELECT min(seq) FROM request_ledger), (SELECT max(seq) FROM request_ledger)",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(err)?;
            let keep = keep as i64;
            if let (Some(oldest), Some(newest)) = (oldest, newest)
                && newest - oldest >= keep + keep / 8
            {
                t.execute("DELETE FROM request_ledger WHERE seq <= ?1", [newest - keep]).map_err(err)?;
            }
            Ok(())
        })
    }

    /// The newest `limit` rows, oldest first.
    pub fn load_ledger(&self, limit: usize) -> Result<Vec<LedgerRow>, StoreError> {
        let sql = "SELECT scope, request_id, question_hash, answer FROM
                   (SELECT * FROM request_ledger ORDER BY seq DESC LIMIT ?1) ORDER BY seq";
        self.select(sql, [limit as i64], |r| {
            Ok(((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64), r.get(3)?))
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

    #[test]
    fn begun_answered_and_forgotten_rows_survive_a_reopen_as_written() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        {
            let store = Store::open(&path).unwrap();
            store
                .write_ledger(
                    &[
                        LedgerWrite::Begin(key("", "r1")),
                        LedgerWrite::Begin(key("ctx", "r1")),
                        LedgerWrite::Begin(key("ctx", "r2")),
                        LedgerWrite::Begin(key("ctx", "r3")),
                    ],
                    100,
                )
                .unwrap();
            store
                .write_ledger(
                    &[
                        LedgerWrite::Answer(key("", "r1"), "{\"a\":1}".into()),
                        LedgerWrite::Answer(key("ctx", "r1"), "{\"a\":1}".into()),
                        LedgerWrite::Forget(key("ctx", "r3")),
                    ],
                    100,
                )
                .unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.load_ledger(100).unwrap(),
            vec![
                (key("", "r1"), Some("{\"a\":1}".to_string())),
                (key("ctx", "r1"), Some("{\"a\":1}".to_string())),
                (key("ctx", "r2"), None),
            ]
        );
        assert_eq!(store.load_ledger(1).unwrap(), vec![(key("ctx", "r2"), None)], "the newest");
    }

    #[test]
    fn only_the_newest_rows_are_kept() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let ids = |store: &Store| -> Vec<String> {
            store.load_ledger(100).unwrap().into_iter().map(|((_, r, _), _)| r).collect()
        };
        for i in 0..40 {
            store.write_ledger(&[LedgerWrite::Begin(key("", &format!("r{i}")))], 16).unwrap();
            let kept = ids(&store);
            assert!(kept.len() <= 18 && kept.len() >= 16.min(i + 1), "{i}: {kept:?}");
            assert_eq!(kept.last().unwrap(), &format!("r{i}"));
        }
        let kept = ids(&store);
        assert_eq!(kept.first().unwrap(), &format!("r{}", 40 - kept.len()), "the newest are kept");
    }
}
