//! A specialist's forms (the form host's records): one row per form offered, with its
//! workflow, the Hub's context it belongs to, its version (one per screen sent), its state
//! (`open`, `submitted`, `cancelled`, `superseded`), the screen it shows and the values the
//! agent holds for it (JSON: a booking's criteria and the slot ids it was offered). A
//! partial unique index keeps at most one open form per (context, workflow); opening a new
//! one supersedes the open one in the same transaction. The table keeps the newest
//! [`CLOSED_FORMS_KEPT`] closed forms, none older than [`CLOSED_FORMS_MAX_AGE_MS`], and
//! never more than [`FORMS_KEPT_AT_MOST`] forms (past that the oldest go even when open).
//! Also the agent's own secrets (`secret`: drawn once, kept across restarts). Blocking.

use rusqlite::{OptionalExtension, Row, params};
use serde_json::Value;

use crate::{Store, StoreError, Tx};

/// Closed forms kept (the newest); open ones are kept up to [`FORMS_KEPT_AT_MOST`].
pub const CLOSED_FORMS_KEPT: i64 = 10_000;

/// Forms kept at most, open or not: conversations opening forms and leaving them open
/// cannot grow the table past this; the oldest open one is then forgotten (acting on it
/// is refused as an unknown form).
pub const FORMS_KEPT_AT_MOST: i64 = 100_000;

/// How long a closed form is kept (from when it was offered), however few there are.
pub const CLOSED_FORMS_MAX_AGE_MS: i64 = 30 * crate::DAY_MS;

/// Where a specialist's form is in its store: its lifecycle, which has `superseded`, not
/// the state a reply carries (that is `vocab::FormState`, the one wire form state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredState {
    Open,
    Submitted,
    Cancelled,
    Superseded,
}

impl StoredState {
    pub const fn as_str(self) -> &'static str {
        match self {
            StoredState::Open => "open",
            StoredState::Submitted => "submitted",
            StoredState::Cancelled => "cancelled",
            StoredState::Superseded => "superseded",
        }
    }

    fn parse(s: &str) -> Option<StoredState> {
        Some(match s {
            "open" => StoredState::Open,
            "submitted" => StoredState::Submitted,
            "cancelled" => StoredState::Cancelled,
            "superseded" => StoredState::Superseded,
            _ => return None,
        })
    }
}

/// A stored form.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    /// `fm-…`, also the A2UI surface id.
    pub form_id: String,
    pub workflow: String,
    /// The A2A context (the Hub's conversation with this agent) it was offered in.
    pub context_id: String,
    /// The A2A task the form's screens travel in, once known (empty until then).
    pub task_id: String,
    pub version: u32,
    pub state: StoredState,
    /// The screen the student sees (the workflow's own names).
    pub screen: String,
    /// What the agent holds for this form.
    pub values: Value,
    pub created_at_ms: i64,
}

/// The change a handler makes to its form, written with the operation's result.
#[derive(Debug, Clone, PartialEq)]
pub struct FormChange {
    pub version: u32,
    pub state: StoredState,
    pub screen: String,
    pub values: Value,
}

const COLUMNS: &str =
    "form_id, workflow, context_id, task_id, version, state, screen, form_values, created_at_ms";

fn read_form(r: &Row<'_>) -> rusqlite::Result<Form> {
    let state: String = r.get(5)?;
    let text: String = r.get(7)?;
    let bad = |i, e: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e)
    };
    Ok(Form {
        form_id: r.get(0)?,
        workflow: r.get(1)?,
        context_id: r.get(2)?,
        task_id: r.get(3)?,
        version: r.get(4)?,
        state: StoredState::parse(&state).ok_or_else(|| bad(5, "unknown form state".into()))?,
        screen: r.get(6)?,
        values: serde_json::from_str(&text).map_err(|e| bad(7, Box::new(e)))?,
        created_at_ms: r.get(8)?,
    })
}

impl Tx<'_> {
    /// Moves `form_id` from `from_version` (still open) to `change`; a form that moved on
    /// meanwhile (another operation, or closed) is [`StoreError::Conflict`] and changes nothing.
    pub fn update_form(
        &self,
        form_id: &str,
        from_version: u32,
        change: &FormChange,
    ) -> Result<(), StoreError> {
        let n = self
            .tx
            .execute(
                "UPDATE forms SET version = ?1, state = ?2, screen = ?3, form_values = ?4, updated_at_ms = ?5
                 WHERE form_id = ?6 AND version = ?7 AND state = 'open'",
                params![
                    change.version,
                    change.state.as_str(),
                    change.screen,
                    change.values.to_string(),
                    crate::now_ms(),
                    form_id,
                    from_version
                ],
            )
            .map_err(|e| self.sqlite(e))?;
        if n == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict { path: self.store.path().to_path_buf(), what: "form" })
        }
    }

    /// Every booked (room, hour) on `date`, as committed before this transaction began or
    /// written in it.
    pub fn taken_hours(&self, date: &str) -> Result<Vec<(String, u8)>, StoreError> {
        let mut stmt = self
            .tx
            .prepare("SELECT room, hour FROM booked_hours WHERE date = ?1 ORDER BY room, hour")
            .map_err(|e| self.sqlite(e))?;
        let rows = stmt.query_map([date], |r| Ok((r.get(0)?, r.get(1)?))).map_err(|e| self.sqlite(e))?;
        rows.collect::<rusqlite::Result<_>>().map_err(|e| self.sqlite(e))
    }
}

impl Store {
    /// Opens a form in `context_id` for `workflow` at version 1, superseding the open one
    /// of that context and workflow (if any) in the same transaction. Returns the new form
    /// and the id of the one it superseded.
    pub fn open_form(
        &self,
        workflow: &str,
        context_id: &str,
        screen: &str,
        values: &Value,
    ) -> Result<(Form, Option<String>), StoreError> {
        self.write(|tx| {
            let superseded: Option<String> = tx
                .tx
                .query_row(
                    "SELECT form_id FROM forms WHERE context_id = ?1 AND workflow = ?2 AND state = 'open'",
                    params![context_id, workflow],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| tx.sqlite(e))?;
            let now = crate::now_ms();
            if let Some(old) = &superseded {
                tx.tx
                    .execute(
                        "UPDATE forms SET state = 'superseded', updated_at_ms = ?1 WHERE form_id = ?2",
                        params![now, old],
                    )
                    .map_err(|e| tx.sqlite(e))?;
            }
            let form = Form {
                form_id: crate::new_id("fm"),
                workflow: workflow.to_string(),
                context_id: context_id.to_string(),
                task_id: String::new(),
                version: 1,
                state: StoredState::Open,
                screen: screen.to_string(),
                values: values.clone(),
                created_at_ms: now,
            };
            tx.tx
                .execute(
                    &format!(
                        "INSERT INTO forms ({COLUMNS}, updated_at_ms) VALUES (?1, ?2, ?3, '', 1, 'open', ?4, ?5, ?6, ?6)"
                    ),
                    params![form.form_id, workflow, context_id, screen, values.to_string(), now],
                )
                .map_err(|e| tx.sqlite(e))?;
            // bounded: the oldest closed forms go
            tx.tx
                .execute(
                    "DELETE FROM forms WHERE state <> 'open' AND rowid <= (
                         SELECT rowid FROM forms WHERE state <> 'open' ORDER BY rowid DESC LIMIT 1 OFFSET ?1)",
                    [CLOSED_FORMS_KEPT],
                )
                .map_err(|e| tx.sqlite(e))?;
            tx.prune_past_count("forms", "rowid", FORMS_KEPT_AT_MOST)?;
            tx.prune_past_age("forms", "rowid", CLOSED_FORMS_MAX_AGE_MS, now, Some("state = 'open'"))?;
            Ok((form, superseded))
        })
    }

    /// The form with this id.
    pub fn form(&self, form_id: &str) -> Result<Option<Form>, StoreError> {
        Ok(self
            .select(&format!("SELECT {COLUMNS} FROM forms WHERE form_id = ?1"), [form_id], read_form)?
            .pop())
    }

    /// The open form of `workflow` in `context_id`, if any.
    pub fn open_form_of(&self, context_id: &str, workflow: &str) -> Result<Option<Form>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM forms WHERE context_id = ?1 AND workflow = ?2 AND state = 'open'");
        Ok(self.select(&sql, params![context_id, workflow], read_form)?.pop())
    }

    /// [`Tx::update_form`] in a transaction of its own (a change that is no operation's
    /// result: a form re-sent as it stands).
    pub fn update_form(
        &self,
        form_id: &str,
        from_version: u32,
        change: &FormChange,
    ) -> Result<(), StoreError> {
        self.write(|tx| tx.update_form(form_id, from_version, change))
    }

    /// Notes the A2A task a form's screens travel in (first seen on its first action).
    pub fn set_form_task(&self, form_id: &str, task_id: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.tx
                .execute(
                    "UPDATE forms SET task_id = ?1 WHERE form_id = ?2 AND task_id = ''",
                    params![task_id, form_id],
                )
                .map_err(|e| tx.sqlite(e))
                .map(|_| ())
        })
    }

    /// The secret called `name`: made by `make` the first time, the stored one ever after
    /// (two processes drawing at once keep the first written).
    pub fn secret(&self, name: &str, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, StoreError> {
        self.write(|tx| {
            tx.tx
                .execute(
                    "INSERT OR IGNORE INTO agent_secrets (name, secret) VALUES (?1, ?2)",
                    params![name, make()],
                )
                .map_err(|e| tx.sqlite(e))?;
            tx.tx
                .query_row("SELECT secret FROM agent_secrets WHERE name = ?1", [name], |r| r.get(0))
                .map_err(|e| tx.sqlite(e))
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::file_for;
    use crate::operations::Once;
    use crate::testdir::TempDir;

    #[test]
    fn a_second_form_supersedes_the_open_one_of_its_context_and_workflow_only() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        let store = Store::open(&path).unwrap();
        let (first, none) = store.open_form("study-room-booking", "ctx-1", "edit", &json!({})).unwrap();
        assert!(none.is_none() && first.form_id.starts_with("fm-"));
        let (other, _) = store.open_form("tutoring-request", "ctx-1", "form", &json!({})).unwrap();
        let (elsewhere, _) = store.open_form("study-room-booking", "ctx-2", "edit", &json!({})).unwrap();
        let (second, superseded) =
            store.open_form("study-room-booking", "ctx-1", "edit", &json!({"a": 1})).unwrap();
        assert_eq!(superseded.as_deref(), Some(first.form_id.as_str()));
        drop(store);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.form(&first.form_id).unwrap().unwrap().state, StoredState::Superseded);
        assert_eq!(store.open_form_of("ctx-1", "study-room-booking").unwrap(), Some(second.clone()));
        for f in [&other, &elsewhere] {
            assert_eq!(store.form(&f.form_id).unwrap().unwrap().state, StoredState::Open);
        }
        assert_eq!(store.form("fm-none").unwrap(), None);
        assert_eq!(second.values, json!({"a": 1}));
    }

    #[test]
    fn an_update_needs_the_version_it_started_from_and_rolls_back_with_the_operation() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "tutor")).unwrap();
        let (form, _) = store.open_form("tutoring-request", "ctx", "form", &json!({})).unwrap();
        let change =
            |version, state| FormChange { version, state, screen: "s".into(), values: json!({"v": version}) };
        let done = store
            .once("form", "op-1", "fp", |tx| {
                tx.update_form(&form.form_id, 1, &change(2, StoredState::Open))?;
                Ok::<_, StoreError>(json!("ok"))
            })
            .unwrap();
        assert!(matches!(done, Once::Done(_)));
        let stale = store.once("form", "op-2", "fp", |tx| {
            tx.update_form(&form.form_id, 1, &change(2, StoredState::Submitted))?;
            Ok::<_, StoreError>(json!("ok"))
        });
        assert_eq!(stale.unwrap_err().code(), "store_conflict");
        assert_eq!(store.recorded("form", "op-2", "fp").unwrap(), None, "nothing recorded");
        let now = store.form(&form.form_id).unwrap().unwrap();
        assert_eq!((now.version, now.state, now.values), (2, StoredState::Open, json!({"v": 2})));
        store.set_form_task(&form.form_id, "task-1").unwrap();
        store.set_form_task(&form.form_id, "task-2").unwrap();
        assert_eq!(store.form(&form.form_id).unwrap().unwrap().task_id, "task-1", "the first one stays");
    }

    #[test]
    fn a_secret_is_drawn_once_and_kept_across_a_reopen() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        let first = Store::open(&path).unwrap().secret("slot-key", || vec![1, 2, 3]).unwrap();
        assert_eq!(first, vec![1, 2, 3]);
        let again = Store::open(&path).unwrap().secret("slot-key", || vec![9]).unwrap();
        assert_eq!(again, first);
    }

    /// Past [`CLOSED_FORMS_MAX_AGE_MS`] a closed form goes and an open one stays; past
    /// [`FORMS_KEPT_AT_MOST`] even an open one goes.
    #[test]
    fn forms_past_their_age_or_the_hard_count_are_pruned_as_new_ones_are_opened() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "library")).unwrap();
        let old = crate::now_ms() - CLOSED_FORMS_MAX_AGE_MS - 60_000;
        let put = |rowid: i64, id: &str, context: &str, state: &str| {
            store
                .conn()
                .execute(
                    "INSERT INTO forms (rowid, form_id, workflow, context_id, version, state, screen,
                     form_values, created_at_ms, updated_at_ms)
                     VALUES (?1, ?2, 'w', ?3, 1, ?4, 'edit', '{}', ?5, ?5)",
                    params![rowid, id, context, state, old],
                )
                .unwrap();
        };
        let kept = |id: &str| store.form(id).unwrap().is_some();
        put(1, "fm-submitted", "ctx-a", "submitted");
        put(2, "fm-open", "ctx-b", "open");
        let (young, _) = store.open_form("w", "ctx-1", "edit", &json!({})).unwrap();
        assert!(!kept("fm-submitted"), "closed and old");
        assert!(kept("fm-open") && kept(&young.form_id));
        put(FORMS_KEPT_AT_MOST + 2, "fm-later", "ctx-c", "open");
        store.open_form("w", "ctx-2", "edit", &json!({})).unwrap();
        assert!(!kept("fm-open"), "beyond the hard count");
        assert!(kept("fm-later"));
    }
}
