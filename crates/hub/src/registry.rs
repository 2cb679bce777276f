//! The private registry: allowlisted specialists, their live instances, heartbeats and
//! validated cards. Only `ready` specialists receive work.
//!
//! Card refreshes run on one task per specialist woken through a `Notify`, which holds at
//! most one permit: overlapping refresh requests coalesce into one more fetch, and a
//! fetch always asks the configured URL for the current card (`If-None-Match`), so a
//! late or duplicate notice can never apply stale contents.

mod card;
mod control;
mod pins;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a::client::{A2aClient, AgentHandle};
use keys::{AgentKey, PublicKey, Replay};
use tokio::sync::Notify;
use vocab::HubEventKind;
use vocab::events::CardFetched;
use vocab::registry::SpecialistEntry;

use crate::config::SpecialistConf;
use crate::events::Emit;
use crate::view::{SkillIndex, SpecialistView, Status, fallback};
use bounded::BoundedMap;
use card::{Fetched, GoodCard, now_ms, scope_revision};

pub use card::{CardOutcome, CardProblem, validate_card};
pub(crate) use pins::Pins;

#[derive(Debug, Clone)]
struct Instance {
    id: String,
    enabled: bool,
    /// How it answers, as its registration said (`None`: it did not say).
    mode: Option<String>,
    /// The model it asks, as its registration said.
    model: Option<String>,
    last_seen: Instant,
}

struct Entry {
    conf: SpecialistConf,
    /// The configured capability as one pseudo-skill: what the router sees while no card
    /// has been accepted yet, so a question for it is "unavailable", not "unsupported".
    fallback: Arc<Vec<SkillIndex>>,
    instance: Option<Instance>,
    /// The key this identity is known by: configured, or pinned on first use. Every
    /// control message and card must be signed with it.
    key: Option<PublicKey>,
    /// The key the Hub shares with it (from the Hub's own key and `key`): its forwards
    /// and their replies are authenticated with it.
    shared: Option<Arc<keys::SharedKey>>,
    card: Option<GoodCard>,
    card_error: Option<String>,
    unreachable: bool,
    refresh: Arc<Notify>,
    refreshes: u64,
}

const SEEN_NOTICES: usize = 1024;
/// How many control messages' nonces the registry remembers (the freshness window's
/// worth of heartbeats from every specialist, many times over).
const SEEN_PROOFS: usize = 16_384;

pub struct Registry {
    entries: Mutex<HashMap<String, Entry>>,
    order: Vec<String>,
    expiry: Duration,
    interval: Duration,
    client: A2aClient,
    notices: Mutex<BoundedMap<String, ()>>,
    /// Control messages' nonces already taken.
    proofs: Mutex<Replay>,
    /// Where first-use pins are written.
    pins: Pins,
    /// The Hub's own key: its forwards are signed with it, and its public half is given
    /// to every specialist that registers.
    key: Arc<AgentKey>,
    emit: Emit,
    /// Bumped each time a specialist's skill list changes (a card accepted).
    skills_changed: tokio::sync::watch::Sender<u64>,
}

impl Registry {
    /// The registry of `specialists`, each known by its configured key or the one
    /// `pins` holds for it.
    pub fn new(
        specialists: &[SpecialistConf],
        (interval, expiry): (Duration, Duration),
        client: A2aClient,
        (key, pins): (Arc<AgentKey>, Pins),
        emit: Emit,
    ) -> Arc<Self> {
        let entries = specialists
            .iter()
            .map(|c| {
                let fallback = fallback(&c.capability);
                let entry = Entry {
                    conf: c.clone(),
                    fallback,
                    instance: None,
                    key: c.public_key.or_else(|| pins.get(&c.id)),
                    shared: None,
                    card: None,
                    card_error: None,
                    unreachable: false,
                    refresh: Arc::new(Notify::new()),
                    refreshes: 0,
                };
                let mut entry = entry;
                entry.shared = entry.key.and_then(|k| key.shared_with(&k)).map(Arc::new);
                (c.id.clone(), entry)
            })
            .collect();
        let registry = Arc::new(Self {
            entries: Mutex::new(entries),
            order: specialists.iter().map(|c| c.id.clone()).collect(),
            expiry,
            interval,
            client,
            notices: Mutex::new(BoundedMap::new(SEEN_NOTICES)),
            proofs: Mutex::new(Replay::new(SEEN_PROOFS)),
            pins,
            key,
            emit,
            skills_changed: tokio::sync::watch::channel(0).0,
        });
        for id in &registry.order {
            let (reg, id) = (Arc::downgrade(&registry), id.clone());
            tokio::spawn(async move { refresh_loop(reg, id).await });
        }
        registry
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn status_of(&self, e: &Entry) -> Status {
        let Some(inst) = &e.instance else { return Status::Disconnected };
        if !inst.enabled {
            Status::Disabled
        } else if inst.last_seen.elapsed() > self.expiry {
            Status::Stale
        } else if e.card.is_none() {
            Status::InvalidCard
        } else if e.unreachable {
            Status::Unreachable
        } else {
            Status::Ready
        }
    }

    /// Changes whenever a specialist's skills change (the router retrains on it).
    pub fn skills_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.skills_changed.subscribe()
    }

    pub fn status(&self, id: &str) -> Option<Status> {
        let entries = self.lock();
        entries.get(id).map(|e| self.status_of(e))
    }

    /// Asks for a card re-fetch (coalesced with any already waiting).
    pub fn request_refresh(&self, id: &str) -> bool {
        let entries = self.lock();
        match entries.get(id) {
            Some(e) => {
                e.refresh.notify_one();
                true
            }
            None => false,
        }
    }

    /// The Hub's own key (its forwards are signed with it).
    pub fn key(&self) -> &AgentKey {
        &self.key
    }

    pub fn ids(&self) -> &[String] {
        &self.order
    }

    /// Every allowlisted specialist with its status and last good skills.
    pub fn view(&self) -> Vec<SpecialistView> {
        let entries = self.lock();
        self.order
            .iter()
            .filter_map(|id| entries.get(id))
            .map(|e| SpecialistView {
                id: e.conf.id.clone(),
                name: e
                    .card
                    .as_ref()
                    .map(|c| c.card.name.clone())
                    .unwrap_or_else(|| e.conf.card_name.clone()),
                capability: e.conf.capability.id.clone(),
                status: self.status_of(e),
                skills: e.card.as_ref().map(|c| c.index.clone()).unwrap_or_else(|| e.fallback.clone()),
            })
            .collect()
    }

    /// A client handle built from the validated card, for a ready specialist only.
    pub fn handle(&self, id: &str) -> Result<Arc<AgentHandle>, Status> {
        let entries = self.lock();
        let e = entries.get(id).ok_or(Status::Disconnected)?;
        let status = self.status_of(e);
        if status != Status::Ready {
            return Err(status);
        }
        e.card.as_ref().map(|c| c.handle.clone()).ok_or(Status::InvalidCard)
    }

    /// Records that a call could (not) connect.
    pub fn mark_reachable(&self, id: &str, reachable: bool) {
        if let Some(e) = self.lock().get_mut(id) {
            e.unreachable = !reachable;
        }
    }

    /// The developer view of every specialist: statuses, card ETags and revisions,
    /// heartbeat ages; no URLs.
    pub fn describe(&self) -> Vec<SpecialistEntry> {
        let entries = self.lock();
        self.order
            .iter()
            .filter_map(|id| entries.get(id))
            .map(|e| SpecialistEntry {
                id: e.conf.id.clone(),
                capability: e.conf.capability.id.clone(),
                status: self.status_of(e),
                instance_id: e.instance.as_ref().map(|i| i.id.clone()),
                mode: e.instance.as_ref().and_then(|i| i.mode.clone()),
                model: e.instance.as_ref().and_then(|i| i.model.clone()),
                heartbeat_age_ms: e.instance.as_ref().map(|i| i.last_seen.elapsed().as_millis() as u64),
                card_etag: e.card.as_ref().and_then(|c| c.etag.clone()),
                card_revision: e.card.as_ref().and_then(|c| scope_revision(&c.card)),
                card_fetched_at: e.card.as_ref().map(|c| c.fetched_at),
                card_error: e.card_error.clone(),
                refreshes: e.refreshes,
                skills: e
                    .card
                    .as_ref()
                    .map(|c| c.card.skills.iter().map(|s| s.id.clone()).collect())
                    .unwrap_or_default(),
            })
            .collect()
    }

    async fn refresh(&self, id: &str) {
        let (conf, etag, key) = {
            let entries = self.lock();
            let Some(e) = entries.get(id) else { return };
            (e.conf.clone(), e.card.as_ref().and_then(|c| c.etag.clone()), e.key)
        };
        let fetched = self.client.fetch_card_url(&conf.card_url(), etag.as_deref()).await;
        let fetched = card::read(&self.client, &conf, key.as_ref(), fetched);
        let outcome = fetched.outcome();
        let mut entries = self.lock();
        let Some(e) = entries.get_mut(id) else { return };
        e.refreshes += 1;
        match fetched {
            Fetched::NotModified => {
                if let Some(c) = e.card.as_mut() {
                    c.fetched_at = now_ms();
                }
                e.card_error = None;
                e.unreachable = false;
            }
            Fetched::Fresh(good) => {
                e.card = Some(*good);
                e.card_error = None;
            }
            Fetched::Invalid(problem) => {
                tracing::warn!(specialist = %id, code = problem.code(), reason = %problem, "refused a card; keeping the last good one");
                e.card_error = Some(problem.to_string());
            }
            Fetched::Failed(err) => {
                tracing::warn!(specialist = %id, error = %err, "card fetch failed; keeping the last good one");
                e.card_error = Some(err.to_string());
            }
        }
        let revision = e.card.as_ref().and_then(|c| scope_revision(&c.card));
        let etag = e.card.as_ref().and_then(|c| c.etag.clone());
        drop(entries);
        if outcome == CardOutcome::Updated {
            self.skills_changed.send_modify(|n| *n += 1);
        }
        let fetched = CardFetched { specialist: id.into(), outcome, revision, etag: etag.map(Into::into) };
        self.emit.report(HubEventKind::CardFetched, &fetched);
    }
}

async fn refresh_loop(registry: std::sync::Weak<Registry>, id: String) {
    loop {
        let notify = {
            let Some(reg) = registry.upgrade() else { return };
            let entries = reg.lock();
            match entries.get(&id) {
                Some(e) => e.refresh.clone(),
                None => return,
            }
        };
        notify.notified().await;
        let Some(reg) = registry.upgrade() else { return };
        reg.refresh(&id).await;
    }
}

#[cfg(test)]
mod tests;
