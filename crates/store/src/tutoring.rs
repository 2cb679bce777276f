//! Tutoring requests: the validated form values (JSON, validated by the caller), who
//! asked (student id) and in which conversation (context id), with a generated `tr-…` id.
//! The table keeps the newest [`KEPT`] requests of the last [`MAX_AGE_MS`] (older ones
//! are pruned as new ones are written). Blocking.

use rusqlite::{Row, params};
use serde_json::Value;

use crate::{Store, StoreError, Tx};

/// A stored tutoring request.
#[derive(Debug, Clone, PartialEq)]
pub struct TutoringRequest {
    /// `tr-…`
    pub id: String,
    pub student_id: String,
    pub context_id: String,
    /// The validated form values.
    pub values: Value,
    pub created_at_ms: i64,
}

/// Requests kept, the newest.
pub const KEPT: i64 = 100_000;

/// How long a request is kept: a year (its preferred date is at most a few weeks after
/// it was made).
pub const MAX_AGE_MS: i64 = 365 * crate::DAY_MS;

const COLUMNS: &str = "id, student_id, context_id, request_values, created_at_ms";

impl Tx<'_> {
    /// Records a tutoring request (inside an exactly-once effect, or any transaction).
    pub fn insert_tutoring_request(
        &self,
        student_id: &str,
        context_id: &str,
        values: &Value,
    ) -> Result<TutoringRequest, StoreError> {
        let request = TutoringRequest {
            id: crate::new_id("tr"),
            student_id: student_id.to_string(),
            context_id: context_id.to_string(),
            values: values.clone(),
            created_at_ms: crate::now_ms(),
        };
        self.tx
            .execute(
                &format!("INSERT INTO tutoring_requests ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5)"),
                params![request.id, student_id, context_id, values.to_string(), request.created_at_ms],
            )
            .map_err(|e| self.sqlite(e))?;
        self.prune_past_count("tutoring_requests", "rowid", KEPT)?;
        self.prune_past_age("tutoring_requests", "rowid", MAX_AGE_MS, request.created_at_ms, None)?;
        Ok(request)
    }
}

impl Store {
    /// Records a tutoring request in a transaction of its own. Durable when it returns.
    pub fn insert_tutoring_request(
        &self,
        student_id: &str,
        context_id: &str,
        values: &Value,
    ) -> Result<TutoringRequest, StoreError> {
        self.write(|tx| tx.insert_tutoring_request(student_id, context_id, values))
    }

    /// The request with this id.
    pub fn tutoring_request(&self, id: &str) -> Result<Option<TutoringRequest>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM tutoring_requests WHERE id = ?1");
        Ok(self.select(&sql, [id], read_request)?.pop())
    }

    /// A student's requests, newest first, at most `limit`.
    pub fn tutoring_requests_of(
        &self,
        student_id: &str,
        limit: usize,
    ) -> Result<Vec<TutoringRequest>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tutoring_requests WHERE student_id = ?1
             ORDER BY created_at_ms DESC, rowid DESC LIMIT ?2"
        );
        self.select(&sql, params![student_id, limit as i64], read_request)
    }
}

fn read_request(r: &Row<'_>) -> rusqlite::Result<TutoringRequest> {
    let text: String = r.get(3)?;
    // only a hand-edited file has anything else here
    let values = serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(TutoringRequest {
        id: r.get(0)?,
        student_id: r.get(1)?,
        context_id: r.get(2)?,
        values,
        created_at_ms: r.get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::testdir::TempDir;
    use crate::{Store, file_for};

    #[test]
    fn requests_are_kept_per_student_across_a_reopen() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "tutor");
        let values = json!({"name": "Alex", "email": "alex@example.edu", "date": "2026-12-01",
                            "period": "afternoon", "topic": "derivatives"});
        let (first, second) = {
            let store = Store::open(&path).unwrap();
            let first = store.insert_tutoring_request("student-1", "ctx-1", &values).unwrap();
            let second =
                store.insert_tutoring_request("student-1", "ctx-2", &json!({"topic": "limits"})).unwrap();
            store.insert_tutoring_request("student-2", "ctx-3", &values).unwrap();
            (first, second)
        };
        assert!(first.id.starts_with("tr-") && first.id.len() > 20, "{}", first.id);
        assert_ne!(first.id, second.id);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.tutoring_request(&first.id).unwrap().as_ref(), Some(&first));
        assert_eq!(store.tutoring_request("tr-none").unwrap(), None);
        let mine = store.tutoring_requests_of("student-1", 10).unwrap();
        assert_eq!(mine, vec![second.clone(), first], "newest first");
        assert_eq!(store.tutoring_requests_of("student-1", 1).unwrap(), vec![second]);
        assert!(store.tutoring_requests_of("nobody", 10).unwrap().is_empty());
    }

    /// A request older than [`MAX_AGE_MS`](super::MAX_AGE_MS), and any beyond the newest
    /// [`KEPT`](super::KEPT), is gone once a new one is written.
    #[test]
    fn requests_past_their_age_or_count_are_pruned_as_new_ones_are_written() {
        use super::{KEPT, MAX_AGE_MS};
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "tutor")).unwrap();
        let now = crate::now_ms();
        let put = |rowid: i64, id: &str, at: i64| {
            store
                .conn()
                .execute(
                    "INSERT INTO tutoring_requests (rowid, id, student_id, context_id, request_values, created_at_ms)
                     VALUES (?1, ?2, 'student-1', 'ctx', '{}', ?3)",
                    rusqlite::params![rowid, id, at],
                )
                .unwrap();
        };
        let kept = |id: &str| store.tutoring_request(id).unwrap().is_some();
        put(1, "tr-old", now - MAX_AGE_MS - 60_000);
        put(2, "tr-young", now - 60_000);
        let new = store.insert_tutoring_request("student-1", "ctx", &json!({})).unwrap();
        assert!(!kept("tr-old") && kept("tr-young") && kept(&new.id));
        put(KEPT + 5, "tr-later", now);
        let newest = store.insert_tutoring_request("student-1", "ctx", &json!({})).unwrap();
        assert!(!kept("tr-young") && !kept(&new.id), "beyond the newest {KEPT}");
        assert!(kept("tr-later") && kept(&newest.id));
    }
}
