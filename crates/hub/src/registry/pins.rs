//! The specialists' keys the Hub pinned on first use, kept in its store so a restarted
//! Hub still knows them (a configured `publicKey` wins over a pin and is never written).

use std::collections::HashMap;

use keys::PublicKey;

/// The pins read at start, and where a new one is written.
#[derive(Clone, Default)]
pub struct Pins {
    store: Option<store::Store>,
    loaded: HashMap<String, PublicKey>,
}

impl Pins {
    /// Pins kept only in memory (tests).
    pub fn memory() -> Self {
        Self::default()
    }

    /// Every pin in `store`. A pin that no longer parses is dropped with a warning (the
    /// agent's next registration pins again).
    pub async fn load(store: store::Store) -> Result<Self, store::StoreError> {
        let rows = store.run(|s| s.pinned_keys()).await?;
        let mut loaded = HashMap::new();
        for (identity, text) in rows {
            match PublicKey::parse(&text) {
                Some(key) => {
                    loaded.insert(identity, key);
                }
                None => tracing::warn!(identity = %identity, "a pinned key does not parse; ignoring it"),
            }
        }
        Ok(Self { store: Some(store), loaded })
    }

    pub(super) fn get(&self, identity: &str) -> Option<PublicKey> {
        self.loaded.get(identity).copied()
    }

    /// Pins `key` for `identity` (durable before it returns); the pinned key, which is
    /// another one when a concurrent registration got there first.
    pub(super) async fn pin(&self, identity: &str, key: PublicKey) -> Result<PublicKey, store::StoreError> {
        let Some(store) = &self.store else { return Ok(key) };
        let (identity, text) = (identity.to_string(), key.to_string());
        let pinned = store.run(move |s| s.pin_key(&identity, &text)).await?;
        Ok(PublicKey::parse(&pinned).unwrap_or(key))
    }
}
