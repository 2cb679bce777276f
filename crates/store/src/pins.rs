//! Other agents' public keys, pinned on first use: the first key an identity proves is
//! the one it is known by from then on. Keys are stored as text (base64url); the caller
//! parses them. Blocking.

use rusqlite::params;

use crate::{Store, StoreError};

impl Store {
    /// Every pinned key, by identity.
    pub fn pinned_keys(&self) -> Result<Vec<(String, String)>, StoreError> {
        self.select("SELECT identity, public_key FROM pinned_keys ORDER BY identity", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
    }

    /// Pins `public_key` for `identity` unless a key is pinned already; returns the
    /// pinned one (the first writer's, when two race). Durable when it returns.
    pub fn pin_key(&self, identity: &str, public_key: &str) -> Result<String, StoreError> {
        self.write(|tx| {
            tx.tx
                .execute(
                    "INSERT OR IGNORE INTO pinned_keys (identity, public_key, pinned_at_ms) VALUES (?1, ?2, ?3)",
                    params![identity, public_key, crate::now_ms()],
                )
                .map_err(|e| tx.sqlite(e))?;
            tx.tx
                .query_row("SELECT public_key FROM pinned_keys WHERE identity = ?1", [identity], |r| r.get(0))
                .map_err(|e| tx.sqlite(e))
        })
    }

    /// Forgets `identity`'s key (an operator replacing an agent's key on purpose); the
    /// next key it proves is pinned. Whether one was pinned.
    pub fn forget_key(&self, identity: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            tx.tx
                .execute("DELETE FROM pinned_keys WHERE identity = ?1", [identity])
                .map(|n| n > 0)
                .map_err(|e| tx.sqlite(e))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::testdir::TempDir;
    use crate::{Store, file_for};

    #[test]
    fn the_first_key_stays_pinned_across_a_restart_until_forgotten() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "hub");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.pin_key("tutor", "key-a").unwrap(), "key-a");
        assert_eq!(store.pin_key("tutor", "key-b").unwrap(), "key-a", "a second key is not pinned");
        assert_eq!(store.pin_key("library", "key-c").unwrap(), "key-c");
        drop(store);
        let store = Store::open(&path).unwrap();
        let pinned = store.pinned_keys().unwrap();
        assert_eq!(pinned, [("library".to_string(), "key-c".to_string()), ("tutor".into(), "key-a".into())]);
        assert!(store.forget_key("tutor").unwrap());
        assert!(!store.forget_key("tutor").unwrap());
        assert_eq!(store.pin_key("tutor", "key-b").unwrap(), "key-b");
    }
}
