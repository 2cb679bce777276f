//! The private registry: allowlisted specialists, their live instances, heartbeats and
//! validated cards. Only `ready` specialists receive work.
//!
//! Card refreshes run on one task per specialist woken through a `Notify`, which holds at
//! most one permit: overlapping refresh requests coalesce into one more fetch, and a
//! fetch always asks the configured URL for the current card (`If-None-Match`), so a
//! late or duplicate notice can never apply stale contents.

mod card;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a::client::{A2aClient, AgentHandle};
use hublink::{Ack, CardChanged, Heartbeat, Register, ack_codes};
use tokio::sync::Notify;
use vocab::HubEventKind;
use vocab::events::{CardFetched, CardNotice, Registered, Subject};
use vocab::registry::SpecialistEntry;

use crate::config::SpecialistConf;
use crate::events::Emit;
use crate::view::{SkillIndex, SpecialistView, Status, fallback};
use bounded::BoundedMap;
use card::{Fetched, GoodCard, now_ms, same_url, scope_revision};

pub use card::{CardOutcome, CardProblem, validate_card};

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
    card: Option<GoodCard>,
    card_error: Option<String>,
    unreachable: bool,
    refresh: Arc<Notify>,
    refreshes: u64,
}

const SEEN_NOTICES: usize = 1024;

pub struct Registry {
    entries: Mutex<HashMap<String, Entry>>,
    order: Vec<String>,
    expiry: Duration,
    interval: Duration,
    client: A2aClient,
    notices: Mutex<BoundedMap<String, ()>>,
    emit: Emit,
    /// Bumped each time a specialist's skill list changes (a card accepted).
    skills_changed: tokio::sync::watch::Sender<u64>,
}

impl Registry {
    pub fn new(
        specialists: &[SpecialistConf],
        interval: Duration,
        expiry: Duration,
        client: A2aClient,
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
                    card: None,
                    card_error: None,
                    unreachable: false,
                    refresh: Arc::new(Notify::new()),
                    refreshes: 0,
                };
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

    pub fn register(&self, r: &Register) -> Ack {
        let mut entries = self.lock();
        let Some(entry) = entries.get_mut(&r.identity) else {
            return Ack::refused(ack_codes::NOT_ALLOWLISTED, "this identity is not on the hub's allowlist");
        };
        let card_url = entry.conf.card_url();
        if !same_url(&r.endpoint, &entry.conf.endpoint) || !same_url(&r.card_url, &card_url) {
            return Ack::refused(
                ack_codes::ENDPOINT_MISMATCH,
                "the endpoint is not the one configured for this identity",
            );
        }
        for (field, value) in [("mode", &r.mode), ("model", &r.model)] {
            if value.as_deref().is_some_and(|m| !hublink::valid_mode(m)) {
                return Ack::refused(
                    ack_codes::INVALID_CONTROL,
                    format!(
                        "{field} must be 1 to {} characters of a-z, 0-9, _ and -",
                        hublink::MAX_MODE_CHARS
                    ),
                );
            }
        }
        if let Some(live) = &entry.instance {
            let alive = live.last_seen.elapsed() <= self.expiry;
            if live.id != r.instance_id && alive {
                return Ack::refused(ack_codes::IDENTITY_IN_USE, "another live instance holds this identity");
            }
        }
        entry.instance = Some(Instance {
            id: r.instance_id.clone(),
            enabled: r.enabled,
            mode: r.mode.clone(),
            model: r.model.clone(),
            last_seen: Instant::now(),
        });
        entry.unreachable = false;
        entry.refresh.notify_one();
        drop(entries);
        tracing::info!(identity = %r.identity, instance_id = %r.instance_id, enabled = r.enabled, "specialist registered");
        self.emit.report(
            HubEventKind::Registered,
            &Registered {
                specialist: r.identity.as_str().into(),
                instance_id: r.instance_id.as_str().into(),
                enabled: r.enabled,
                mode: r.mode.as_deref().map(Into::into),
            },
        );
        let mut ack = Ack::ok("registered");
        ack.heartbeat_interval_ms = Some(self.interval.as_millis() as u64);
        ack
    }

    pub fn heartbeat(&self, h: &Heartbeat) -> Ack {
        let mut entries = self.lock();
        match entries.get_mut(&h.identity).and_then(|e| e.instance.as_mut().filter(|i| i.id == h.instance_id))
        {
            Some(inst) => {
                inst.last_seen = Instant::now();
                // A specialist we could not reach but that still checks in: try its card
                // again; a successful fetch makes it reachable.
                if let Some(e) = entries.get(&h.identity).filter(|e| e.unreachable) {
                    e.refresh.notify_one();
                }
                drop(entries);
                self.emit.report(HubEventKind::Heartbeat, &Subject::of(&h.identity));
                Ack::ok("alive")
            }
            None => Ack::refused(ack_codes::NOT_REGISTERED, "register first"),
        }
    }

    pub fn deregister(&self, h: &Heartbeat) -> Ack {
        let mut entries = self.lock();
        let entry = entries.get_mut(&h.identity);
        let Some(entry) = entry.filter(|e| e.instance.as_ref().is_some_and(|i| i.id == h.instance_id)) else {
            return Ack::refused(ack_codes::NOT_REGISTERED, "register first");
        };
        entry.instance = None;
        drop(entries);
        tracing::info!(identity = %h.identity, "specialist signed out");
        self.emit.report(HubEventKind::SignedOut, &Subject::of(&h.identity));
        Ack::ok("signed_out")
    }

    /// A card-change notice: only a hint to re-fetch from the configured URL.
    pub fn card_changed(&self, c: &CardChanged) -> Ack {
        {
            let entries = self.lock();
            let Some(entry) = entries.get(&c.identity) else {
                return Ack::refused(
                    ack_codes::NOT_ALLOWLISTED,
                    "this identity is not on the hub's allowlist",
                );
            };
            if entry.instance.as_ref().is_none_or(|i| i.id != c.instance_id) {
                return Ack::refused(
                    ack_codes::NOT_REGISTERED,
                    "notices are taken only from the registered instance",
                );
            }
        }
        {
            let mut seen = self.notices.lock().unwrap_or_else(|p| p.into_inner());
            let key = format!("{}/{}", c.identity, c.notice_id);
            if seen.get(&key).is_some() {
                return Ack::ok("duplicate_notice");
            }
            seen.insert(key, ());
        }
        let notice =
            CardNotice { specialist: c.identity.as_str().into(), notice_id: c.notice_id.as_str().into() };
        self.emit.report(HubEventKind::CardChangeNotice, &notice);
        self.request_refresh(&c.identity);
        Ack::ok("refresh_scheduled")
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
        let (conf, etag) = {
            let entries = self.lock();
            let Some(e) = entries.get(id) else { return };
            (e.conf.clone(), e.card.as_ref().and_then(|c| c.etag.clone()))
        };
        let fetched = self.client.fetch_card_url(&conf.card_url(), etag.as_deref()).await;
        let fetched = card::read(&self.client, &conf, fetched);
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
