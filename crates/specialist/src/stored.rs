//! The specialist's store: its saved skill settings, read before it serves and written
//! on every save before the save is acknowledged.
//!
//! Precedence at start: settings saved in the store (at their revision) win over the
//! config file's skills, which win over the built-in defaults (both at revision 1).

use std::path::PathBuf;

use skills::{Persist, Rules, SkillSet};
use store::{Store, StoreError};

/// Why a specialist could not open its store. Not a configuration error (exit 1): the
/// file or folder is unusable, and the agent never starts from defaults over it.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The agent's key file is unusable (it is never replaced).
    #[error(transparent)]
    Key(#[from] keys::KeyError),
    /// The stored settings did not decode or validate (the file is not replaced).
    #[error(
        "{}: the saved skill settings are not usable ({detail}); move the file away to start from the defaults",
        path.display()
    )]
    SavedSettings { path: PathBuf, detail: String },
}

impl StartError {
    /// A stable code (`store_unreadable`, `store_too_new`, …, `saved_settings_invalid`).
    pub fn code(&self) -> &'static str {
        match self {
            StartError::Store(e) => e.code(),
            StartError::Key(e) => e.code(),
            StartError::SavedSettings { .. } => "saved_settings_invalid",
        }
    }
}

/// An open store and the settings it had saved.
#[derive(Debug)]
pub struct Stored {
    pub(crate) store: Store,
    /// The agent's own key (`<data dir>/<identity>.key`).
    pub(crate) key: std::sync::Arc<keys::AgentKey>,
    /// The saved skills and their revision, when any were saved.
    pub saved: Option<(u64, SkillSet)>,
}

impl Stored {
    pub fn path(&self) -> &std::path::Path {
        self.store.path()
    }
}

/// Opens `<data dir>/<identity>.sqlite3` and the agent's key `<data dir>/<identity>.key`
/// (creating both on first start) and reads the saved settings, validated with `rules`.
/// Call before the agent prints its ready line.
pub async fn open_store(identity: &str, config: &crate::Config, rules: Rules) -> Result<Stored, StartError> {
    let store = Store::open_agent(&config.data_dir, identity).await?;
    let key = std::sync::Arc::new(keys::AgentKey::load_or_create(&config.data_dir, identity)?);
    let saved = store.run(|s| s.load_settings()).await?;
    let Some(saved) = saved else {
        return Ok(Stored { store, key, saved: None });
    };
    let bad = |detail: String| StartError::SavedSettings { path: store.path().to_path_buf(), detail };
    let set: SkillSet = serde_json::from_str(&saved.document).map_err(|e| bad(json_problem(&e).into()))?;
    if let Err(errors) = skills::validate(&set, rules) {
        return Err(bad(format!("{}: {}", errors[0].field, errors[0].message)));
    }
    Ok(Stored { saved: Some((saved.revision, set)), store, key })
}

/// Writes each save to the store (blocking; the settings API saves on a blocking thread).
pub(crate) struct StorePersist(pub(crate) Store);

impl Persist for StorePersist {
    fn persist(&self, revision: u64, set: &SkillSet) -> Result<(), String> {
        let document = serde_json::to_string(set).map_err(|e| format!("encoding the settings: {e}"))?;
        self.0.save_settings(revision, &document).map_err(|e| format!("{}: {e}", e.code()))
    }
}

/// The kind of decoding failure, without quoting the stored text.
fn json_problem(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Io => "unreadable",
        serde_json::error::Category::Syntax => "not valid json",
        serde_json::error::Category::Data => "not a skill set",
        serde_json::error::Category::Eof => "truncated json",
    }
}
