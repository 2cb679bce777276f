//! The private registry: allowlisted specialists, their live instances, heartbeats and
//! validated cards. Only `ready` specialists receive work.
//!
//! Card refreshes run on one task per specialist woken through a `Notify`, which holds at
//! most one permit: overlapping refresh requests coalesce into one more fetch, and a
//! fetch always asks the configured URL for the current card (`If-None-Match`), so a
//! late or duplicate notice can never apply stale contents.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use a2a::client::{A2aClient, AgentHandle, CardFetch};
use a2a::wire::AgentCard;
use hublink::{Ack, CardChanged, Heartbeat, Register, ack_codes};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::Emit;
use crate::bounded::BoundedMap;
use crate::config::SpecialistConf;
use crate::router::{SkillIndex, index};

/// A specialist's state, as the router and the developer view see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ready,
    /// Heartbeats stopped.
    Stale,
    /// Registered, but the last call to it could not connect.
    Unreachable,
    /// Never registered, or signed out.
    Disconnected,
    Disabled,
    /// Registered, but no valid card yet (the last fetch failed validation or is pending).
    InvalidCard,
}

#[derive(Debug, Clone)]
struct Instance {
    id: String,
    enabled: bool,
    last_seen: Instant,
}

#[derive(Debug, Clone)]
pub(crate) struct GoodCard {
    pub(crate) card: AgentCard,
    /// Built once per accepted card: the router's view and the client handle.
    index: Arc<Vec<SkillIndex>>,
    handle: Arc<AgentHandle>,
    pub(crate) etag: Option<String>,
    /// Unix ms of the last successful fetch (200 or 304).
    pub(crate) fetched_at: u64,
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

/// What the router sees of one specialist: its capability, status and last good skills.
#[derive(Debug, Clone)]
pub struct SpecialistView {
    pub id: String,
    pub name: String,
    pub capability: String,
    pub status: Status,
    pub skills: Arc<Vec<SkillIndex>>,
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
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn same_url(a: &str, b: &str) -> bool {
    a.trim_end_matches('/').eq_ignore_ascii_case(b.trim_end_matches('/'))
}

/// Checks a fetched card against the allowlist entry: expected name, exactly one
/// JSON-RPC 1.0 interface at the configured endpoint, no security we did not expect.
pub fn validate_card(conf: &SpecialistConf, card: &AgentCard) -> Result<(), String> {
    if card.name != conf.card_name {
        return Err(format!("card name {:?} is not the expected {:?}", card.name, conf.card_name));
    }
    let jsonrpc: Vec<_> = card
        .supported_interfaces
        .iter()
        .filter(|i| i.protocol_binding.eq_ignore_ascii_case("JSONRPC"))
        .collect();
    if jsonrpc.len() != 1 {
        return Err(format!("expected exactly one JSONRPC interface, found {}", jsonrpc.len()));
    }
    if !a2a::headers::version_supported(&jsonrpc[0].protocol_version) {
        return Err("the JSONRPC interface is not protocol version 1.0".into());
    }
    let expected = format!("{}{}", conf.endpoint.trim_end_matches('/'), a2a::JSONRPC_PATH);
    if !same_url(&jsonrpc[0].url, &expected) {
        return Err("the JSONRPC interface is not at the configured endpoint".into());
    }
    let has_security = card.security_schemes.as_ref().is_some_and(|s| !s.is_empty())
        || card.security_requirements.as_ref().is_some_and(|s| !s.is_empty());
    if has_security {
        return Err("the card declares security this hub does not expect".into());
    }
    Ok(())
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
                let fallback = Arc::new(vec![SkillIndex {
                    id: c.capability.id.clone(),
                    tags: std::iter::once(&c.capability.id)
                        .chain(&c.capability.tags)
                        .map(|t| crate::router::words(t))
                        .filter(|w| !w.is_empty())
                        .collect(),
                    name_words: crate::router::words(&c.capability.name),
                }]);
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
        if let Some(live) = &entry.instance {
            let alive = live.last_seen.elapsed() <= self.expiry;
            if live.id != r.instance_id && alive {
                return Ack::refused(ack_codes::IDENTITY_IN_USE, "another live instance holds this identity");
            }
        }
        entry.instance =
            Some(Instance { id: r.instance_id.clone(), enabled: r.enabled, last_seen: Instant::now() });
        entry.unreachable = false;
        entry.refresh.notify_one();
        drop(entries);
        tracing::info!(identity = %r.identity, instance_id = %r.instance_id, enabled = r.enabled, "specialist registered");
        (self.emit)(
            "registered",
            json!({"specialist": r.identity, "instanceId": r.instance_id, "enabled": r.enabled}),
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
                (self.emit)("heartbeat", json!({"specialist": h.identity}));
                Ack::ok("alive")
            }
            None => Ack::refused(ack_codes::NOT_REGISTERED, "register first"),
        }
    }

    pub fn deregister(&self, h: &Heartbeat) -> Ack {
        let mut entries = self.lock();
        let Some(entry) = entries.get_mut(&h.identity) else {
            return Ack::refused(ack_codes::NOT_REGISTERED, "register first");
        };
        if entry.instance.as_ref().is_none_or(|i| i.id != h.instance_id) {
            return Ack::refused(ack_codes::NOT_REGISTERED, "register first");
        }
        entry.instance = None;
        drop(entries);
        tracing::info!(identity = %h.identity, "specialist signed out");
        (self.emit)("signed_out", json!({"specialist": h.identity}));
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
        (self.emit)("card_change_notice", json!({"specialist": c.identity, "noticeId": c.notice_id}));
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

    /// The developer view: statuses, card ETags and revisions, heartbeat ages; no URLs.
    pub fn describe(&self) -> Value {
        let entries = self.lock();
        let list: Vec<Value> = self
            .order
            .iter()
            .filter_map(|id| entries.get(id))
            .map(|e| {
                let revision = e.card.as_ref().and_then(|c| scope_revision(&c.card));
                json!({
                    "id": e.conf.id,
                    "capability": e.conf.capability.id,
                    "status": self.status_of(e),
                    "instanceId": e.instance.as_ref().map(|i| i.id.clone()),
                    "heartbeatAgeMs": e.instance.as_ref().map(|i| i.last_seen.elapsed().as_millis() as u64),
                    "cardEtag": e.card.as_ref().and_then(|c| c.etag.clone()),
                    "cardRevision": revision,
                    "cardFetchedAt": e.card.as_ref().map(|c| c.fetched_at),
                    "cardError": e.card_error,
                    "refreshes": e.refreshes,
                    "skills": e.card.as_ref().map(|c| c.card.skills.iter().map(|s| s.id.clone()).collect::<Vec<_>>()).unwrap_or_default(),
                })
            })
            .collect();
        json!({ "specialists": list })
    }

    async fn refresh(&self, id: &str) {
        let (conf, etag) = {
            let entries = self.lock();
            let Some(e) = entries.get(id) else { return };
            (e.conf.clone(), e.card.as_ref().and_then(|c| c.etag.clone()))
        };
        let fetched = self.client.fetch_card_url(&conf.card_url(), etag.as_deref()).await;
        let mut entries = self.lock();
        let Some(e) = entries.get_mut(id) else { return };
        e.refreshes += 1;
        let outcome = match fetched {
            Ok(CardFetch::NotModified) => {
                if let Some(c) = e.card.as_mut() {
                    c.fetched_at = now_ms();
                }
                e.card_error = None;
                e.unreachable = false;
                "not_modified".to_string()
            }
            Ok(CardFetch::Fresh { card, etag }) => match validate_card(&conf, &card).and_then(|()| {
                AgentHandle::from_card(self.client.clone(), &conf.endpoint, (*card).clone(), etag.clone())
                    .map_err(|e| e.to_string())
            }) {
                Ok(handle) => {
                    let index = Arc::new(index(&card.skills));
                    e.card = Some(GoodCard {
                        card: *card,
                        etag,
                        fetched_at: now_ms(),
                        index,
                        handle: Arc::new(handle),
                    });
                    e.card_error = None;
                    "updated".to_string()
                }
                Err(reason) => {
                    tracing::warn!(specialist = %id, reason = %reason, "refused a card; keeping the last good one");
                    e.card_error = Some(reason);
                    "invalid".to_string()
                }
            },
            Err(err) => {
                tracing::warn!(specialist = %id, error = %err, "card fetch failed; keeping the last good one");
                e.card_error = Some(err.to_string());
                "failed".to_string()
            }
        };
        let revision = e.card.as_ref().and_then(|c| scope_revision(&c.card));
        let etag = e.card.as_ref().and_then(|c| c.etag.clone());
        drop(entries);
        (self.emit)(
            "card_fetched",
            json!({"specialist": id, "outcome": outcome, "revision": revision, "etag": etag}),
        );
    }
}

/// The configuration revision from a card's scope extension, when it has one.
pub(crate) fn scope_revision(card: &AgentCard) -> Option<u64> {
    card.capabilities
        .extensions
        .as_ref()?
        .iter()
        .find(|e| e.uri.contains("skill-scope"))?
        .params
        .as_ref()?
        .get("revision")?
        .as_u64()
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
mod tests {
    use super::*;
    use crate::config::Capability;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn conf(endpoint: &str) -> SpecialistConf {
        SpecialistConf {
            id: "tutor".into(),
            card_name: "Tutor Agent".into(),
            endpoint: endpoint.into(),
            capability: Capability {
                id: "tutoring".into(),
                name: "Tutoring".into(),
                description: "d".into(),
                tags: vec![],
                examples: vec![],
            },
        }
    }

    #[test]
    fn card_validation() {
        let c = conf("http://127.0.0.1:41241");
        let good = a2a::basic_card("Tutor Agent", "d", "http://127.0.0.1:41241");
        assert!(validate_card(&c, &good).is_ok());
        let mut wrong_name = good.clone();
        wrong_name.name = "Library Agent".into();
        assert!(validate_card(&c, &wrong_name).unwrap_err().contains("name"));
        let mut elsewhere = good.clone();
        elsewhere.supported_interfaces[0].url = "http://127.0.0.1:9/a2a/jsonrpc".into();
        assert!(validate_card(&c, &elsewhere).unwrap_err().contains("configured endpoint"));
        let mut two = good.clone();
        two.supported_interfaces.push(two.supported_interfaces[0].clone());
        assert!(validate_card(&c, &two).unwrap_err().contains("exactly one"));
        let mut old = good.clone();
        old.supported_interfaces[0].protocol_version = "0.3".into();
        assert!(validate_card(&c, &old).is_err());
        let mut secured = good.clone();
        secured.security_requirements =
            Some(vec![std::collections::HashMap::from([("k".to_string(), vec![])])]);
        assert!(validate_card(&c, &secured).unwrap_err().contains("security"));
    }

    /// A card server that counts fetches, records `If-None-Match`, answers 304 when it
    /// matches, and holds each fetch until the test releases it.
    async fn card_server(
        name: &str,
        arrived: Arc<AtomicUsize>,
        conditional: Arc<AtomicUsize>,
        gate: Arc<tokio::sync::Semaphore>,
    ) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let doc = a2a::CardDoc::new(a2a::basic_card(name, "d", &base));
        let app = axum::Router::new().route(
            "/.well-known/agent-card.json",
            axum::routing::get(move |headers: axum::http::HeaderMap| {
                let (arrived, conditional, gate, doc) =
                    (arrived.clone(), conditional.clone(), gate.clone(), doc.clone());
                async move {
                    arrived.fetch_add(1, Ordering::SeqCst);
                    gate.acquire().await.unwrap().forget();
                    let inm = headers.get("if-none-match").and_then(|v| v.to_str().ok()).map(str::to_string);
                    if inm.as_deref() == Some(doc.etag.as_str()) {
                        conditional.fetch_add(1, Ordering::SeqCst);
                        return axum::http::Response::builder()
                            .status(304)
                            .body(axum::body::Body::empty())
                            .unwrap();
                    }
                    axum::http::Response::builder()
                        .header("etag", doc.etag.clone())
                        .header("content-type", "application/json")
                        .body(axum::body::Body::from(doc.json.clone()))
                        .unwrap()
                }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        base
    }

    /// Polls (yielding to the registry's tasks) until `done` holds; panics after 5 s.
    async fn until(what: &str, done: impl Fn() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while !done() {
            assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn a_fetched_card_that_fails_validation_is_not_used() {
        let gate = Arc::new(tokio::sync::Semaphore::new(100));
        let base = card_server("Library Agent", Arc::default(), Arc::default(), gate).await;
        let emit: Emit = Arc::new(|_: &str, _: Value| {});
        let reg = Registry::new(
            &[conf(&base)],
            Duration::from_secs(3),
            Duration::from_secs(10),
            A2aClient::default(),
            emit,
        );
        assert!(
            reg.register(&Register {
                identity: "tutor".into(),
                instance_id: "i".into(),
                endpoint: base.clone(),
                card_url: format!("{base}/.well-known/agent-card.json"),
                enabled: true,
            })
            .ok
        );
        until("the fetch", || reg.lock()["tutor"].refreshes == 1).await;
        assert_eq!(reg.status("tutor"), Some(Status::InvalidCard));
        assert!(reg.lock()["tutor"].card_error.as_deref().unwrap_or("").contains("name"));
        assert!(reg.handle("tutor").is_err(), "no work goes to an unverified card");
    }

    #[tokio::test]
    async fn refreshes_are_conditional_and_coalesce() {
        let (arrived, conditional) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let base = card_server("Tutor Agent", arrived.clone(), conditional.clone(), gate.clone()).await;
        let emit: Emit = Arc::new(|_: &str, _: Value| {});
        let reg = Registry::new(
            &[conf(&base)],
            Duration::from_secs(3),
            Duration::from_secs(10),
            A2aClient::default(),
            emit,
        );
        let refreshes = || reg.lock()["tutor"].refreshes;
        let ack = reg.register(&Register {
            identity: "tutor".into(),
            instance_id: "i".into(),
            endpoint: base.clone(),
            card_url: format!("{base}/.well-known/agent-card.json"),
            enabled: true,
        });
        assert!(ack.ok);
        gate.add_permits(1);
        until("the first fetch", || refreshes() == 1).await;
        assert_eq!(reg.status("tutor"), Some(Status::Ready));

        // a second fetch is held at the server; five more requests meanwhile
        reg.request_refresh("tutor");
        until("the second fetch to arrive", || arrived.load(Ordering::SeqCst) == 2).await;
        for _ in 0..5 {
            reg.request_refresh("tutor");
        }
        gate.add_permits(10);
        until("the coalesced fetch", || refreshes() == 3).await;
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
        assert_eq!(arrived.load(Ordering::SeqCst), 3, "five overlapping requests became one more fetch");
        assert_eq!(conditional.load(Ordering::SeqCst), 2, "re-fetches send If-None-Match and get 304");
        assert_eq!(reg.status("tutor"), Some(Status::Ready), "a 304 keeps the card");
    }
}
