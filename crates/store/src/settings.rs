//! A specialist's saved skill settings: one row, the latest revision and its document
//! (the skill set as JSON, decoded and validated by the caller). Blocking.

use rusqlite::{OptionalExtension, params};

use crate::{Store, StoreError};

/// The saved settings as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedSettings {
    pub revision: u64,
    /// The skill set as JSON text.
    pub document: String,
}

impl Store {
    /// The saved settings, if any were ever saved.
    pub fn load_settings(&self) -> Result<Option<SavedSettings>, StoreError> {
        let conn = self.conn();
        conn.query_row("SELECT revision, document FROM skill_settings WHERE id = 1", [], |r| {
            Ok(SavedSettings { revision: r.get::<_, i64>(0)? as u64, document: r.get(1)? })
        })
        .optional()
        .map_err(|e| self.sqlite(e))
    }

    /// Saves `document` as `revision`, which must follow the stored one (or 1 when none is
    /// stored): otherwise another writer got there first and nothing is written.
    /// Durable when it returns.
    pub fn save_settings(&self, revision: u64, document: &str) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(|e| self.sqlite(e))?;
        let stored: Option<i64> = tx
            .query_row("SELECT revision FROM skill_settings WHERE id = 1", [], |r| r.get(0))
            .optional()
            .map_err(|e| self.sqlite(e))?;
        if stored.map_or(1, |r| r as u64) + 1 != revision {
            return Err(StoreError::Conflict { path: self.path().to_path_buf(), what: "skill settings" });
        }
        let now_ms = crate::now_ms();
        tx.execute(
            "INSERT INTO skill_settings (id, revision, document, saved_at_ms) VALUES (1, ?1, ?2, ?3)
             ON CONFLICT (id) DO UPDATE SET revision = ?1, document = ?2, saved_at_ms = ?3",
            params![revision as i64, document, now_ms],
        )
        .map_err(|e| self.sqlite(e))?;
        tx.commit().map_err(|e| self.sqlite(e))
    }
}

#[cfg(test)]
mod tests {
    use crate::testdir::TempDir;
    use crate::{Store, file_for};

    #[test]
    fn a_save_must_follow_the_stored_revision() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "tutor")).unwrap();
        assert_eq!(store.save_settings(3, "{}").unwrap_err().code(), "store_conflict");
        store.save_settings(2, "{\"a\":1}").unwrap();
        assert_eq!(store.save_settings(2, "{\"a\":2}").unwrap_err().code(), "store_conflict");
        store.save_settings(3, "{\"a\":3}").unwrap();
        let saved = store.load_settings().unwrap().unwrap();
        assert_eq!((saved.revision, saved.document.as_str()), (3, "{\"a\":3}"));
    }
}
