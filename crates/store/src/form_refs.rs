//! The Hub's form references: an opaque `hf-…` reference given to the Student for a form
//! a specialist opened, and what it stands for (whose, which conversation, which
//! specialist task and context, which workflow and form version, until when).
//!
//! One conversation has at most one open reference: opening one supersedes the previous
//! open one in the same transaction, and a partial unique index makes two open ones
//! impossible. The table keeps the newest [`KEEP`] references (older closed, superseded
//! or expired ones are pruned on insert; an open, unexpired one is kept), none finished
//! or expired older than [`MAX_AGE_MS`], and never more than [`KEPT_AT_MOST`] (past that
//! the oldest go even when open). Blocking.

use rusqlite::{OptionalExtension, Row, params};

use crate::{Store, StoreError, Tx};

/// References kept; the oldest beyond this are pruned when a new one is opened, unless
/// still open and unexpired.
pub const KEEP: i64 = 10_000;

/// References kept at most, open or not: conversations opening forms faster than they
/// expire (a day by default) cannot grow the table past this; the oldest open one is
/// then forgotten (acting on it is refused as unknown, and the student starts again).
pub const KEPT_AT_MOST: i64 = 100_000;

/// How long a finished or expired reference is kept, however few there are.
pub const MAX_AGE_MS: i64 = 30 * crate::DAY_MS;

/// Where one of the Hub's form references is (its own lifecycle, not a form's wire state,
/// which is `vocab::FormState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefState {
    Open,
    /// Replaced by a newer form in the same conversation.
    Superseded,
    /// Submitted, cancelled or otherwise finished.
    Closed,
}

impl RefState {
    pub fn as_str(self) -> &'static str {
        match self {
            RefState::Open => "open",
            RefState::Superseded => "superseded",
            RefState::Closed => "closed",
        }
    }

    fn parse(s: &str) -> RefState {
        match s {
            "open" => RefState::Open,
            "superseded" => RefState::Superseded,
            // the table's CHECK allows nothing else
            _ => RefState::Closed,
        }
    }
}

/// A form reference to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFormRef {
    pub student_id: String,
    /// The Student's conversation (the Hub's context with the Student).
    pub context_id: String,
    pub specialist_id: String,
    pub specialist_task_id: String,
    pub specialist_context_id: String,
    pub workflow: String,
    /// The specialist's id of the form (its A2UI surface id).
    pub form_id: String,
    pub form_version: u32,
    pub expires_at_ms: i64,
}

/// A stored form reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormRef {
    /// `hf-…`
    pub reference: String,
    pub form: NewFormRef,
    pub state: RefState,
    pub created_at_ms: i64,
}

/// Why a reference may not be used (see [`FormRef::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FormRefProblem {
    #[error("this form belongs to another student or conversation")]
    NotYours,
    #[error("this form was replaced by a newer one")]
    Superseded,
    #[error("this form is already closed")]
    Closed,
    #[error("this form has expired")]
    Expired,
}

impl FormRefProblem {
    /// A stable code.
    pub fn code(self) -> &'static str {
        match self {
            FormRefProblem::NotYours => "form_not_yours",
            FormRefProblem::Superseded => "form_superseded",
            FormRefProblem::Closed => "form_closed",
            FormRefProblem::Expired => "form_expired",
        }
    }
}

impl FormRef {
    /// Whether `student_id` may act on this form in `context_id` at `now_ms`: it is theirs,
    /// in that conversation, open, and not expired. (An unknown reference is `None` from
    /// [`Store::form_ref`].)
    pub fn check(&self, student_id: &str, context_id: &str, now_ms: i64) -> Result<(), FormRefProblem> {
        if self.form.student_id != student_id || self.form.context_id != context_id {
            return Err(FormRefProblem::NotYours);
        }
        match self.state {
            RefState::Superseded => Err(FormRefProblem::Superseded),
            RefState::Closed => Err(FormRefProblem::Closed),
            RefState::Open if now_ms >= self.form.expires_at_ms => Err(FormRefProblem::Expired),
            RefState::Open => Ok(()),
        }
    }
}

/// What opening a reference did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub form: FormRef,
    /// The conversation's previous open reference, now superseded.
    pub superseded: Option<String>,
}

const COLUMNS: &str = "reference, student_id, context_id, specialist_id, specialist_task_id, \
     specialist_context_id, workflow, form_version, state, expires_at_ms, created_at_ms, form_id";

impl Store {
    /// Opens a new reference for `new`, superseding the conversation's open one (if any)
    /// in the same transaction. Durable when it returns.
    pub fn open_form_ref(&self, new: &NewFormRef) -> Result<Opened, StoreError> {
        let now_ms = crate::now_ms();
        self.write(|tx| {
            let t = tx.tx;
            let superseded: Option<String> = t
                .query_row(
                    "UPDATE form_refs SET state = 'superseded'
                     WHERE student_id = ?1 AND context_id = ?2 AND state = 'open' RETURNING reference",
                    params![new.student_id, new.context_id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| tx.sqlite(e))?;
            let form = FormRef {
                reference: crate::new_id("hf"),
                form: new.clone(),
                state: RefState::Open,
                created_at_ms: now_ms,
            };
            t.execute(
                &format!("INSERT INTO form_refs ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'open', ?9, ?10, ?11)"),
                params![
                    form.reference,
                    new.student_id,
                    new.context_id,
                    new.specialist_id,
                    new.specialist_task_id,
                    new.specialist_context_id,
                    new.workflow,
                    new.form_version,
                    new.expires_at_ms,
                    now_ms,
                    new.form_id
                ],
            )
            .map_err(|e| tx.sqlite(e))?;
            // the oldest beyond KEEP, unless still open and unexpired
            t.execute(
                "DELETE FROM form_refs WHERE rowid <= (SELECT max(rowid) FROM form_refs) - ?1
                 AND (state != 'open' OR expires_at_ms <= ?2)",
                params![KEEP, now_ms],
            )
            .map_err(|e| tx.sqlite(e))?;
            tx.prune_past_count("form_refs", "rowid", KEPT_AT_MOST)?;
            let open = "state = 'open' AND expires_at_ms > ?2";
            tx.prune_past_age("form_refs", "rowid", MAX_AGE_MS, now_ms, Some(open))?;
            Ok(Opened { form, superseded })
        })
    }

    /// The conversation's open reference to the very form `new` names (its specialist and
    /// form id), moved to `new`'s version and expiry: the same form drawn anew in place
    /// keeps its reference. `None` (nothing changed) when the open one is another form.
    pub fn redraw_form_ref(&self, new: &NewFormRef) -> Result<Option<FormRef>, StoreError> {
        self.write(|tx| {
            let reference: Option<String> = tx
                .tx
                .query_row(
                    "UPDATE form_refs SET form_version = max(form_version, ?5), expires_at_ms = ?6
                     WHERE student_id = ?1 AND context_id = ?2 AND specialist_id = ?3 AND form_id = ?4
                       AND state = 'open'
                     RETURNING reference",
                    params![
                        new.student_id,
                        new.context_id,
                        new.specialist_id,
                        new.form_id,
                        new.form_version,
                        new.expires_at_ms
                    ],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| tx.sqlite(e))?;
            let Some(reference) = reference else { return Ok(None) };
            tx.tx
                .query_row(
                    &format!("SELECT {COLUMNS} FROM form_refs WHERE reference = ?1"),
                    [reference],
                    read_form_ref,
                )
                .optional()
                .map_err(|e| tx.sqlite(e))
        })
    }

    /// The reference, in whatever state.
    pub fn form_ref(&self, reference: &str) -> Result<Option<FormRef>, StoreError> {
        let conn = self.conn();
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM form_refs WHERE reference = ?1"),
            [reference],
            read_form_ref,
        )
        .optional()
        .map_err(|e| self.sqlite(e))
    }

    /// The conversation's open reference, if any (expired or not).
    pub fn open_form_ref_of(
        &self,
        student_id: &str,
        context_id: &str,
    ) -> Result<Option<FormRef>, StoreError> {
        let conn = self.conn();
        conn.query_row(
            &format!(
                "SELECT {COLUMNS} FROM form_refs WHERE student_id = ?1 AND context_id = ?2 AND state = 'open'"
            ),
            params![student_id, context_id],
            read_form_ref,
        )
        .optional()
        .map_err(|e| self.sqlite(e))
    }

    /// Closes an open reference; false when it was not open (unknown, superseded or
    /// closed already), so of two closers exactly one sees true.
    pub fn close_form_ref(&self, reference: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            let n = tx
                .tx
                .execute(
                    "UPDATE form_refs SET state = 'closed' WHERE reference = ?1 AND state = 'open'",
                    [reference],
                )
                .map_err(|e| tx.sqlite(e))?;
            Ok(n == 1)
        })
    }
}

impl Tx<'_> {
    /// Records what an action on an open reference came to: the form's new `version`, and
    /// whether the form is now finished (`close`: submitted or cancelled). False when the
    /// reference is not open (unknown, superseded or closed already): nothing changes.
    pub fn update_form_ref(&self, reference: &str, version: u32, close: bool) -> Result<bool, StoreError> {
        let n = self
            .tx
            .execute(
                "UPDATE form_refs SET form_version = max(form_version, ?2),
                 state = CASE WHEN ?3 THEN 'closed' ELSE state END
                 WHERE reference = ?1 AND state = 'open'",
                params![reference, version, close],
            )
            .map_err(|e| self.sqlite(e))?;
        Ok(n == 1)
    }
}

fn read_form_ref(r: &Row<'_>) -> rusqlite::Result<FormRef> {
    Ok(FormRef {
        reference: r.get(0)?,
        form: NewFormRef {
            student_id: r.get(1)?,
            context_id: r.get(2)?,
            specialist_id: r.get(3)?,
            specialist_task_id: r.get(4)?,
            specialist_context_id: r.get(5)?,
            workflow: r.get(6)?,
            form_id: r.get(11)?,
            form_version: r.get(7)?,
            expires_at_ms: r.get(9)?,
        },
        state: RefState::parse(&r.get::<_, String>(8)?),
        created_at_ms: r.get(10)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_for;
    use crate::testdir::TempDir;

    fn new(context: &str, task: &str) -> NewFormRef {
        NewFormRef {
            student_id: "student-1".into(),
            context_id: context.into(),
            specialist_id: "library".into(),
            specialist_task_id: task.into(),
            specialist_context_id: format!("lib-{context}"),
            workflow: "study-room-booking".into(),
            form_id: format!("form-{task}"),
            form_version: 1,
            expires_at_ms: crate::now_ms() + 60_000,
        }
    }

    #[test]
    fn opening_supersedes_the_conversations_open_form_and_survives_a_reopen() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let (first, second, elsewhere) = {
            let store = Store::open(&path).unwrap();
            let first = store.open_form_ref(&new("ctx-1", "task-1")).unwrap();
            assert_eq!(first.superseded, None);
            let second = store.open_form_ref(&new("ctx-1", "task-2")).unwrap();
            assert_eq!(second.superseded.as_deref(), Some(first.form.reference.as_str()));
            let elsewhere = store.open_form_ref(&new("ctx-2", "task-3")).unwrap();
            assert_eq!(elsewhere.superseded, None, "another conversation keeps its own");
            (first.form, second.form, elsewhere.form)
        };
        assert!(first.reference.starts_with("hf-"), "{}", first.reference);
        let store = Store::open(&path).unwrap();
        let old = store.form_ref(&first.reference).unwrap().unwrap();
        assert_eq!(old.state, RefState::Superseded);
        assert_eq!(old.check("student-1", "ctx-1", crate::now_ms()), Err(FormRefProblem::Superseded));
        assert_eq!(store.form_ref(&second.reference).unwrap().as_ref(), Some(&second));
        assert_eq!(store.open_form_ref_of("student-1", "ctx-1").unwrap(), Some(second.clone()));
        assert_eq!(store.open_form_ref_of("student-1", "ctx-2").unwrap(), Some(elsewhere));
        assert_eq!(store.form_ref("hf-unknown").unwrap(), None);
    }

    #[test]
    fn a_reference_is_checked_for_owner_conversation_state_and_expiry() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let form = store.open_form_ref(&new("ctx-1", "task-1")).unwrap().form;
        let now = crate::now_ms();
        assert_eq!(form.check("student-1", "ctx-1", now), Ok(()));
        assert_eq!(form.check("student-2", "ctx-1", now), Err(FormRefProblem::NotYours));
        assert_eq!(form.check("student-1", "ctx-9", now), Err(FormRefProblem::NotYours));
        let later = form.form.expires_at_ms;
        assert_eq!(form.check("student-1", "ctx-1", later).unwrap_err().code(), "form_expired");
        assert!(store.close_form_ref(&form.reference).unwrap());
        assert!(!store.close_form_ref(&form.reference).unwrap(), "closed once");
        assert!(!store.close_form_ref("hf-unknown").unwrap());
        let closed = store.form_ref(&form.reference).unwrap().unwrap();
        assert_eq!(closed.check("student-1", "ctx-1", now).unwrap_err().code(), "form_closed");
        assert_eq!(store.open_form_ref_of("student-1", "ctx-1").unwrap(), None);
    }

    #[test]
    fn an_action_moves_the_version_and_a_finished_form_closes() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let form = store.open_form_ref(&new("ctx-1", "task-1")).unwrap().form;
        assert_eq!(form.form.form_id, "form-task-1");
        let update =
            |version, close| store.write(|tx| tx.update_form_ref(&form.reference, version, close)).unwrap();
        assert!(update(3, false));
        assert!(update(2, false), "an older version never moves it back");
        let now = store.form_ref(&form.reference).unwrap().unwrap();
        assert_eq!((now.form.form_version, now.state), (3, RefState::Open));
        assert!(update(4, true));
        assert!(!update(5, false), "closed: nothing changes");
        let closed = store.form_ref(&form.reference).unwrap().unwrap();
        assert_eq!((closed.form.form_version, closed.state), (4, RefState::Closed));
    }

    #[test]
    fn the_same_form_drawn_anew_keeps_its_open_reference_and_another_does_not() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let form = store.open_form_ref(&new("ctx-1", "task-1")).unwrap().form;
        let mut again = new("ctx-1", "task-1");
        again.form_version = 2;
        let kept = store.redraw_form_ref(&again).unwrap().expect("the open reference");
        assert_eq!((kept.reference.as_str(), kept.form.form_version), (form.reference.as_str(), 2));
        // another form, another specialist's, another conversation's: not this reference
        assert_eq!(store.redraw_form_ref(&new("ctx-1", "task-2")).unwrap(), None);
        let mut theirs = new("ctx-1", "task-1");
        theirs.specialist_id = "tutor".into();
        assert_eq!(store.redraw_form_ref(&theirs).unwrap(), None);
        assert_eq!(store.redraw_form_ref(&new("ctx-2", "task-1")).unwrap(), None);
        // closed: drawn anew is no longer possible
        assert!(store.close_form_ref(&form.reference).unwrap());
        assert_eq!(store.redraw_form_ref(&again).unwrap(), None);
    }

    #[test]
    fn two_open_references_in_one_conversation_are_impossible() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        store.open_form_ref(&new("ctx-1", "task-1")).unwrap();
        let conn = store.conn();
        let forged = conn.execute(
            "INSERT INTO form_refs (reference, student_id, context_id, specialist_id, specialist_task_id,
             specialist_context_id, workflow, form_version, state, expires_at_ms, created_at_ms)
             VALUES ('hf-x', 'student-1', 'ctx-1', 'library', 't', 'c', 'w', 1, 'open', 0, 0)",
            [],
        );
        assert!(forged.is_err(), "the partial unique index refuses it");
    }

    /// Past [`MAX_AGE_MS`] a finished or expired reference goes and an open, unexpired one
    /// stays; past [`KEPT_AT_MOST`] even an open one goes.
    #[test]
    fn references_past_their_age_or_the_hard_count_are_pruned_as_new_ones_are_opened() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "hub")).unwrap();
        let now = crate::now_ms();
        let old = now - MAX_AGE_MS - 60_000;
        let put = |rowid: i64, reference: &str, context: &str, state: &str, expires: i64| {
            store
                .conn()
                .execute(
                    "INSERT INTO form_refs (rowid, reference, student_id, context_id, specialist_id,
                     specialist_task_id, specialist_context_id, workflow, form_version, state,
                     expires_at_ms, created_at_ms)
                     VALUES (?1, ?2, 'student-1', ?3, 'library', 't', 'c', 'w', 1, ?4, ?5, ?6)",
                    params![rowid, reference, context, state, expires, old],
                )
                .unwrap();
        };
        let kept = |r: &str| store.form_ref(r).unwrap().is_some();
        put(1, "hf-closed", "ctx-a", "closed", now + 60_000);
        put(2, "hf-expired", "ctx-b", "open", now - 1);
        put(3, "hf-open", "ctx-c", "open", now + 3_600_000);
        let young = store.open_form_ref(&new("ctx-1", "task-1")).unwrap().form.reference;
        assert!(!kept("hf-closed") && !kept("hf-expired"), "finished or expired, and old");
        assert!(kept("hf-open") && kept(&young), "open and unexpired, or young");
        // a reference KEPT_AT_MOST after the open one leaves it behind, open or not
        put(KEPT_AT_MOST + 3, "hf-later", "ctx-d", "open", now + 3_600_000);
        store.open_form_ref(&new("ctx-2", "task-2")).unwrap();
        assert!(!kept("hf-open"), "beyond the hard count");
        assert!(kept("hf-later"));
    }
}
