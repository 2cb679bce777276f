//! The live configuration of one agent, swapped whole on save.

use std::sync::{Arc, Mutex, RwLock};

use a2a::CardDoc;
use a2a::server::CardCell;
use a2a::wire::AgentCard;
use tokio::sync::watch;

use crate::model::{FieldError, Policy, Rules, SkillPatch, SkillSet, build_card, validate};

/// One configuration revision and everything derived from it.
#[derive(Debug)]
pub struct Snapshot {
    pub revision: u64,
    pub set: SkillSet,
    pub policy: Arc<Policy>,
    pub card: Arc<CardDoc>,
    /// Whether this is the built-in default the tests cover.
    pub matches_default: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SaveError {
    /// The editor started from an older revision; nothing was changed.
    Stale {
        current_revision: u64,
    },
    Invalid(Vec<FieldError>),
    /// A change to one skill named a skill the settings do not have.
    UnknownSkill,
    /// The durable write failed; nothing was changed. The reason is for the log only.
    NotStored(String),
}

/// Where saved settings go before a save is acknowledged (the agent's store).
pub trait Persist: Send + Sync {
    /// Writes `set` as `revision` durably, or fails; blocking. Called with saves
    /// serialized, before anything in memory changes.
    fn persist(&self, revision: u64, set: &SkillSet) -> Result<(), String>;
}

/// An agent's skill settings. Cheap to clone; clones share state.
#[derive(Clone)]
pub struct Settings {
    inner: Arc<Inner>,
}

struct Inner {
    identity: AgentCard,
    rules: Rules,
    default: SkillSet,
    current: RwLock<Arc<Snapshot>>,
    save_lock: Mutex<()>,
    persist: Option<Box<dyn Persist>>,
    /// Signs every card served (the agent's own key).
    signer: Option<a2a::CardSigner>,
    cell: CardCell,
    changes: watch::Sender<u64>,
}

impl Settings {
    /// Starts at revision 1 with `set` (usually the built-in default). `identity` is the
    /// agent's card without skills: name, interfaces, provider, capabilities.
    pub fn new(
        identity: AgentCard,
        set: SkillSet,
        default: SkillSet,
        rules: Rules,
    ) -> Result<Self, Vec<FieldError>> {
        Self::resume(identity, set, 1, default, rules, None, None)
    }

    /// Starts at `revision` with `set` (saved settings coming back after a restart),
    /// writes every later save through `persist` before acknowledging it, and serves every
    /// card signed by `signer`.
    pub fn resume(
        identity: AgentCard,
        set: SkillSet,
        revision: u64,
        default: SkillSet,
        rules: Rules,
        persist: Option<Box<dyn Persist>>,
        signer: Option<a2a::CardSigner>,
    ) -> Result<Self, Vec<FieldError>> {
        validate(&set, rules)?;
        let revision = revision.max(1);
        let snapshot = Arc::new(derive(&identity, set, revision, &default, signer.as_ref()));
        let cell = CardCell::new((*snapshot.card).clone());
        let (changes, _) = watch::channel(revision);
        Ok(Self {
            inner: Arc::new(Inner {
                identity,
                rules,
                default,
                current: RwLock::new(snapshot),
                save_lock: Mutex::new(()),
                persist,
                signer,
                cell,
                changes,
            }),
        })
    }

    /// The card the agent's A2A server serves; it changes with every save.
    pub fn card_cell(&self) -> CardCell {
        self.inner.cell.clone()
    }

    pub fn current(&self) -> Arc<Snapshot> {
        self.inner.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The policy to enforce right now.
    pub fn policy(&self) -> Arc<Policy> {
        self.current().policy.clone()
    }

    pub fn rules(&self) -> Rules {
        self.inner.rules
    }

    /// The card a set would produce if saved on `base_revision`, without saving anything.
    pub fn preview(&self, base_revision: u64, set: &SkillSet) -> Result<AgentCard, SaveError> {
        let current = self.current().revision;
        if base_revision != current {
            return Err(SaveError::Stale { current_revision: current });
        }
        validate(set, self.inner.rules).map_err(SaveError::Invalid)?;
        Ok(build_card(&self.inner.identity, set, current + 1))
    }

    /// Saves `set` if the editor started from the current revision. With a store, the
    /// write comes first: if it fails, nothing changes. Configuration, policy and served
    /// card change together: a reader of the card never sees the new card with the old
    /// policy. Blocking when the settings have a store: call it from a blocking thread.
    pub fn save(&self, base_revision: u64, set: SkillSet) -> Result<Arc<Snapshot>, SaveError> {
        let _one_at_a_time = self.inner.save_lock.lock().unwrap_or_else(|p| p.into_inner());
        let current = self.current();
        if base_revision != current.revision {
            return Err(SaveError::Stale { current_revision: current.revision });
        }
        validate(&set, self.inner.rules).map_err(SaveError::Invalid)?;
        let revision = current.revision + 1;
        if let Some(persist) = &self.inner.persist {
            persist.persist(revision, &set).map_err(SaveError::NotStored)?;
        }
        let inner = &self.inner;
        let snapshot =
            Arc::new(derive(&inner.identity, set, revision, &inner.default, inner.signer.as_ref()));
        self.inner.cell.set_with(|| {
            *self.inner.current.write().unwrap_or_else(|p| p.into_inner()) = snapshot.clone();
            (*snapshot.card).clone()
        });
        self.inner.changes.send_replace(snapshot.revision);
        tracing::info!(revision = snapshot.revision, etag = %snapshot.card.etag, "skill settings saved");
        Ok(snapshot)
    }

    /// Saves a change to the one skill `id`, on `patch.base_revision`, like [`Self::save`].
    pub fn save_skill(&self, id: &str, patch: &SkillPatch) -> Result<Arc<Snapshot>, SaveError> {
        let current = self.current();
        let mut set = current.set.clone();
        let skill = set.skills.iter_mut().find(|s| s.id == id).ok_or(SaveError::UnknownSkill)?;
        if patch.base_revision != current.revision {
            return Err(SaveError::Stale { current_revision: current.revision });
        }
        patch.apply(skill);
        // `save` checks the revision again under its lock: a save in between makes this stale.
        self.save(patch.base_revision, set)
    }

    /// Revisions as they are saved (the current one first).
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }
}

fn derive(
    identity: &AgentCard,
    set: SkillSet,
    revision: u64,
    default: &SkillSet,
    signer: Option<&a2a::CardSigner>,
) -> Snapshot {
    let card = Arc::new(CardDoc::signed(build_card(identity, &set, revision), signer));
    let policy = Arc::new(Policy::from_set(&set, revision));
    let matches_default = &set == default;
    Snapshot { revision, set, policy, card, matches_default }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::skill;

    fn settings() -> Settings {
        let set = SkillSet { skills: vec![skill("a", "alpha")] };
        Settings::new(a2a::basic_card("A", "d", "http://127.0.0.1:1"), set.clone(), set, Rules::default())
            .unwrap()
    }

    #[test]
    fn save_swaps_card_and_policy_together_and_refuses_stale_editors() {
        let s = settings();
        let before = s.card_cell().get().etag.clone();
        let mut rx = s.subscribe();
        assert!(s.current().matches_default);
        let mut next = s.current().set.clone();
        next.skills.push(skill("b", "beta"));
        let snap = s.save(1, next.clone()).unwrap();
        assert_eq!(snap.revision, 2);
        assert!(!snap.matches_default);
        assert_ne!(s.card_cell().get().etag, before);
        assert_eq!(s.card_cell().get().etag, snap.card.etag);
        assert!(s.policy().skill("b").is_some());
        assert!(rx.has_changed().unwrap());
        assert_eq!(*rx.borrow_and_update(), 2);
        // an editor that started from revision 1 is stale now
        assert_eq!(s.save(1, next).unwrap_err(), SaveError::Stale { current_revision: 2 });
        // an invalid set changes nothing
        let bad = SkillSet { skills: vec![] };
        assert!(matches!(s.save(2, bad), Err(SaveError::Invalid(_))));
        assert_eq!(s.current().revision, 2);
    }

    #[test]
    fn preview_saves_nothing() {
        let s = settings();
        let mut next = s.current().set.clone();
        next.skills[0].name = "Renamed".into();
        let card = s.preview(1, &next).unwrap();
        assert_eq!(s.preview(0, &next).unwrap_err(), SaveError::Stale { current_revision: 1 });
        assert_eq!(card.skills[0].name, "Renamed");
        assert_eq!(s.current().revision, 1);
        assert_eq!(s.card_cell().get().card.skills[0].name, "Skill a");
    }
}
