//! The Library's demo loans: rows of a fixed sample (the Library's own, `library::loans`),
//! each with a version that grows with every change (a renewal, a hold, a reset), so a
//! request made from an older reading is told apart. Rules (who may renew what, until
//! when) are the Library's; this module only stores and changes rows, and refuses a change
//! made from a stale version.
//!
//! A borrower's sample is made the first time it is asked for and its day kept
//! (`loan_samples.anchor`: the sample's dates count from it); it is made again — every
//! renewal and hold undone, versions moving on — the first time it is asked for in a
//! conversation not seen for that borrower (`loan_contexts`, the newest [`CONTEXTS_KEPT`]
//! of the last [`CONTEXT_MAX_AGE_MS`]). The loan rows do not grow with requests: a sample
//! replaces its own rows. Blocking.

use rusqlite::{OptionalExtension, Row, params};

use crate::{Store, StoreError, Tx};

/// Conversations remembered per store, the newest (a forgotten one resets its borrower's
/// loans once more if it comes back).
pub const CONTEXTS_KEPT: i64 = 10_000;
/// How long a conversation is remembered: a month, as long as the Hub keeps one.
pub const CONTEXT_MAX_AGE_MS: i64 = 30 * crate::DAY_MS;

/// A loan as a sample makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLoan {
    pub id: String,
    pub borrower: String,
    pub title: String,
    pub author: String,
    /// `YYYY-MM-DD`
    pub due_date: String,
    /// Renewals used.
    pub renewals: u32,
    /// Another borrower has placed a hold on it.
    pub hold: bool,
    pub course_reserve: bool,
}

/// A stored loan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loan {
    pub loan: NewLoan,
    /// 1 when first made; one more with each change.
    pub version: i64,
}

/// What [`Store::enter_loan_sample`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sample {
    /// Made for the first time now.
    Made,
    /// Made again: a conversation not seen for this borrower.
    Reset,
    /// As it was.
    Kept,
}

const COLUMNS: &str = "id, borrower, title, author, due_date, renewals, hold, course_reserve, version";

fn read_loan(r: &Row<'_>) -> rusqlite::Result<Loan> {
    Ok(Loan {
        loan: NewLoan {
            id: r.get(0)?,
            borrower: r.get(1)?,
            title: r.get(2)?,
            author: r.get(3)?,
            due_date: r.get(4)?,
            renewals: r.get(5)?,
            hold: r.get(6)?,
            course_reserve: r.get(7)?,
        },
        version: r.get(8)?,
    })
}

impl Tx<'_> {
    /// The loan with this id.
    pub fn loan(&self, id: &str) -> Result<Option<Loan>, StoreError> {
        self.tx
            .query_row(&format!("SELECT {COLUMNS} FROM loans WHERE id = ?1"), [id], read_loan)
            .optional()
            .map_err(|e| self.sqlite(e))
    }

    /// Renews the loan `id` to `due_date` when it is still at `version`: one more renewal
    /// used, the version moved on. `None` (nothing changed) when it is not.
    pub fn renew_loan(&self, id: &str, version: i64, due_date: &str) -> Result<Option<Loan>, StoreError> {
        let changed = self
            .tx
            .execute(
                "UPDATE loans SET due_date = ?3, renewals = renewals + 1, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![id, version, due_date],
            )
            .map_err(|e| self.sqlite(e))?;
        if changed == 0 { Ok(None) } else { self.loan(id) }
    }

    /// Writes `sample`'s rows over the stored ones of the same ids (their versions move on).
    fn write_sample(&self, sample: &[NewLoan]) -> Result<(), StoreError> {
        let mut put = self
            .tx
            .prepare(&format!(
                "INSERT INTO loans ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1)
                 ON CONFLICT (id) DO UPDATE SET borrower = excluded.borrower, title = excluded.title,
                     author = excluded.author, due_date = excluded.due_date, renewals = excluded.renewals,
                     hold = excluded.hold, course_reserve = excluded.course_reserve,
                     version = loans.version + 1"
            ))
            .map_err(|e| self.sqlite(e))?;
        for l in sample {
            put.execute(params![
                l.id,
                l.borrower,
                l.title,
                l.author,
                l.due_date,
                l.renewals,
                l.hold,
                l.course_reserve
            ])
            .map_err(|e| self.sqlite(e))?;
        }
        Ok(())
    }
}

impl Store {
    /// `borrower`'s loans, by due date.
    pub fn loans_of(&self, borrower: &str) -> Result<Vec<Loan>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM loans WHERE borrower = ?1 ORDER BY due_date, id");
        self.select(&sql, [borrower], read_loan)
    }

    /// The loan with this id.
    pub fn loan(&self, id: &str) -> Result<Option<Loan>, StoreError> {
        let conn = self.conn();
        conn.query_row(&format!("SELECT {COLUMNS} FROM loans WHERE id = ?1"), [id], read_loan)
            .optional()
            .map_err(|e| self.sqlite(e))
    }

    /// Places another borrower's hold on the loan `id` (its version moves on); `None` when
    /// there is no such loan.
    pub fn place_hold(&self, id: &str) -> Result<Option<Loan>, StoreError> {
        self.write(|tx| {
            tx.tx
                .execute("UPDATE loans SET hold = 1, version = version + 1 WHERE id = ?1", [id])
                .map_err(|e| tx.sqlite(e))?;
            tx.loan(id)
        })
    }

    /// Makes `borrower`'s sample when it has none yet (its day is `today`, `YYYY-MM-DD`),
    /// or again when `context` is a conversation not seen for it: `make(anchor)` gives the
    /// rows, `anchor` the day the sample was first made. One transaction: two conversations
    /// starting at once reset once each, never half.
    pub fn enter_loan_sample(
        &self,
        borrower: &str,
        context: Option<&str>,
        today: &str,
        make: impl FnOnce(&str) -> Vec<NewLoan>,
    ) -> Result<Sample, StoreError> {
        self.write(|tx| {
            let now_ms = crate::now_ms();
            let anchor: Option<String> = tx
                .tx
                .query_row("SELECT anchor FROM loan_samples WHERE borrower = ?1", [borrower], |r| r.get(0))
                .optional()
                .map_err(|e| tx.sqlite(e))?;
            let first = anchor.is_none();
            let anchor = anchor.unwrap_or_else(|| today.to_string());
            if first {
                tx.tx
                    .execute(
                        "INSERT INTO loan_samples (borrower, anchor, created_at_ms) VALUES (?1, ?2, ?3)",
                        params![borrower, anchor, now_ms],
                    )
                    .map_err(|e| tx.sqlite(e))?;
            }
            let unseen = match context {
                Some(c) => {
                    let added = tx
                        .tx
                        .execute(
                            "INSERT OR IGNORE INTO loan_contexts (borrower, context_id, created_at_ms)
                             VALUES (?1, ?2, ?3)",
                            params![borrower, c, now_ms],
                        )
                        .map_err(|e| tx.sqlite(e))?;
                    if added > 0 {
                        tx.prune_past_count("loan_contexts", "seq", CONTEXTS_KEPT)?;
                        tx.prune_past_age("loan_contexts", "seq", CONTEXT_MAX_AGE_MS, now_ms, None)?;
                    }
                    added > 0
                }
                None => false,
            };
            if first || unseen {
                tx.write_sample(&make(&anchor))?;
            }
            Ok(match (first, unseen) {
                (true, _) => Sample::Made,
                (false, true) => Sample::Reset,
                (false, false) => Sample::Kept,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_for;
    use crate::testdir::TempDir;

    fn sample(anchor: &str) -> Vec<NewLoan> {
        let loan = |id: &str, borrower: &str| NewLoan {
            id: id.into(),
            borrower: borrower.into(),
            title: format!("title of {id}"),
            author: "A. Author".into(),
            due_date: anchor.into(),
            renewals: 0,
            hold: false,
            course_reserve: false,
        };
        vec![loan("ln-1", "alex"), loan("ln-2", "alex"), loan("ln-3", "sam")]
    }

    #[test]
    fn a_sample_is_made_once_kept_in_its_conversation_and_made_again_in_a_new_one() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        {
            let store = Store::open(&path).unwrap();
            assert_eq!(
                store.enter_loan_sample("alex", Some("c1"), "2026-12-24", sample).unwrap(),
                Sample::Made
            );
            assert_eq!(store.loans_of("alex").unwrap().len(), 2, "only the borrower's own");
            let renewed = store.write(|tx| tx.renew_loan("ln-1", 1, "2027-01-05")).unwrap().unwrap();
            assert_eq!((renewed.loan.renewals, renewed.version), (1, 2));
            assert_eq!(store.write(|tx| tx.renew_loan("ln-1", 1, "2027-01-06")).unwrap(), None, "stale");
            assert_eq!(
                store.enter_loan_sample("alex", Some("c1"), "2026-12-30", sample).unwrap(),
                Sample::Kept
            );
        }
        // reopened: the same conversation still keeps the renewal
        let store = Store::open(&path).unwrap();
        assert_eq!(store.enter_loan_sample("alex", Some("c1"), "2026-12-30", sample).unwrap(), Sample::Kept);
        assert_eq!(store.loan("ln-1").unwrap().unwrap().loan.due_date, "2027-01-05");
        assert_eq!(store.enter_loan_sample("alex", None, "2026-12-30", sample).unwrap(), Sample::Kept);
        // a new conversation: the sample again, from the first day, versions moved on
        assert_eq!(store.enter_loan_sample("alex", Some("c2"), "2026-12-30", sample).unwrap(), Sample::Reset);
        let again = store.loan("ln-1").unwrap().unwrap();
        assert_eq!((again.loan.due_date.as_str(), again.loan.renewals, again.version), ("2026-12-24", 0, 3));
        let held = store.place_hold("ln-2").unwrap().unwrap();
        assert!(held.loan.hold);
        assert_eq!(held.version, 3);
        assert_eq!(store.place_hold("ln-9").unwrap(), None);
    }

    #[test]
    fn conversations_past_their_count_are_forgotten() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "library")).unwrap();
        store.enter_loan_sample("alex", Some("old"), "2026-12-24", sample).unwrap();
        store
            .conn()
            .execute(
                "INSERT INTO loan_contexts (seq, borrower, context_id, created_at_ms) VALUES (?1, 'alex', 'far', ?2)",
                params![CONTEXTS_KEPT + 5, crate::now_ms()],
            )
            .unwrap();
        store.enter_loan_sample("alex", Some("newest"), "2026-12-24", sample).unwrap();
        let kept: Vec<String> =
            store.select("SELECT context_id FROM loan_contexts ORDER BY seq", [], |r| r.get(0)).unwrap();
        assert_eq!(kept, ["far", "newest"]);
    }
}
