//! The in-process feed: a ring of kept events plus a broadcast channel for live ones.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::json;
use tokio::sync::{broadcast, watch};

use crate::Event;
use crate::event::Data;
use crate::event::{HISTORY_TRUNCATED, new_boot, now_ms};

/// How many kept events a feed remembers unless told otherwise.
pub const DEFAULT_CAPACITY: usize = 1000;

/// How many bytes of kept events a feed remembers at most, whatever their count (an
/// event's details, ids and kind, plus a fixed overhead each): a feed of large events
/// holds fewer of them, and a new subscriber is sent at most this much history. The
/// newest event is always kept.
pub const DEFAULT_MAX_BYTES: usize = 2 << 20;

/// What one kept event counts for against [`DEFAULT_MAX_BYTES`]: its text and the
/// allocations around it.
fn weight(e: &Event) -> usize {
    e.data.json().len() + e.id.len() + e.kind.len() + e.agent.len() + 128
}

/// One agent's telemetry: cheap to clone, every clone is the same feed.
#[derive(Clone)]
pub struct Telemetry {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    agent: Arc<str>,
    boot: String,
    capacity: usize,
    max_bytes: usize,
    /// Every event's details pass through [`crate::redact`] before they are kept or sent.
    redacting: bool,
    state: Mutex<State>,
    live: broadcast::Sender<Live>,
    /// Bumped by [`Telemetry::disconnect_all`]; open SSE responses end when it changes.
    pub(crate) disconnect: watch::Sender<u64>,
}

struct State {
    seq: u64,
    ring: VecDeque<Arc<Event>>,
    /// The ring's [`weight`].
    bytes: usize,
    /// How many kept events have fallen out of the ring: the position of `ring[0]`.
    evicted: u64,
}

impl State {
    fn end(&self) -> u64 {
        self.evicted + self.ring.len() as u64
    }
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("agent", &self.inner.agent)
            .field("boot", &self.inner.boot)
            .field("capacity", &self.inner.capacity)
            .finish_non_exhaustive()
    }
}

/// What travels on the broadcast channel: the event and, if it is kept, its position.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    pub(crate) event: Arc<Event>,
    pub(crate) position: Option<u64>,
}

impl Telemetry {
    /// A feed for `agent` remembering the last [`DEFAULT_CAPACITY`] kept events.
    pub fn new(agent: &str) -> Self {
        Self::with_capacity(agent, DEFAULT_CAPACITY)
    }

    /// A feed for `agent` remembering the last `capacity` kept events.
    pub fn with_capacity(agent: &str, capacity: usize) -> Self {
        Self::with_capacities(agent, capacity, capacity.clamp(16, 1024))
    }

    /// A feed for `agent` that keeps no content: every event's details, its own and those
    /// it publishes, pass through [`crate::redact`] before anyone sees them (a specialist's
    /// feed: what people wrote never reaches its history, its subscribers or the Hub).
    pub fn without_content(agent: &str) -> Self {
        Self::build(agent, DEFAULT_CAPACITY, DEFAULT_CAPACITY.clamp(16, 1024), DEFAULT_MAX_BYTES, true)
    }

    /// `live` is how far a subscriber may fall behind before it has to catch up from the ring.
    pub(crate) fn with_capacities(agent: &str, capacity: usize, live: usize) -> Self {
        Self::build(agent, capacity, live, DEFAULT_MAX_BYTES, false)
    }

    pub(crate) fn build(
        agent: &str,
        capacity: usize,
        live: usize,
        max_bytes: usize,
        redacting: bool,
    ) -> Self {
        let state = State { seq: 0, ring: VecDeque::with_capacity(capacity.min(4096)), bytes: 0, evicted: 0 };
        Self {
            inner: Arc::new(Inner {
                agent: agent.into(),
                boot: new_boot(),
                capacity,
                max_bytes,
                redacting,
                state: Mutex::new(state),
                live: broadcast::channel(live.max(1)).0,
                disconnect: watch::channel(0).0,
            }),
        }
    }

    /// The agent this feed speaks for.
    pub fn agent(&self) -> &str {
        &self.inner.agent
    }

    /// Emits an event: kept in the history and sent to every subscriber. `data` should be a
    /// JSON object (a [`serde_json::Value`], or any `Serialize` through [`Data::new`]); `null` becomes `{}`.
    pub fn emit(&self, kind: &str, data: impl Into<Data>) -> Event {
        let data = data.into();
        let mut state = self.lock();
        let event = Arc::new(self.make(&mut state, kind, data));
        self.keep(&mut state, event.clone());
        drop(state);
        Arc::unwrap_or_clone(event)
    }

    /// [`Telemetry::emit`] without handing the event back: nothing is copied, which keeps
    /// an agent's request path cheap.
    pub fn record(&self, kind: &str, data: impl Into<Data>) {
        let data = data.into();
        let mut state = self.lock();
        let event = Arc::new(self.make(&mut state, kind, data));
        self.keep(&mut state, event);
    }

    /// [`Telemetry::emit_transient`] without handing the event back.
    pub fn record_transient(&self, kind: &str, data: impl Into<Data>) {
        let data = data.into();
        let mut state = self.lock();
        let event = Arc::new(self.make(&mut state, kind, data));
        let _ = self.inner.live.send(Live { event, position: None });
    }

    /// Emits an event that is sent to current subscribers but not kept (heartbeats). Its SSE
    /// frame has no `id:` line, so it never becomes a client's resume point.
    pub fn emit_transient(&self, kind: &str, data: impl Into<Data>) -> Event {
        let data = data.into();
        let mut state = self.lock();
        let event = Arc::new(self.make(&mut state, kind, data));
        let _ = self.inner.live.send(Live { event: event.clone(), position: None });
        drop(state);
        Arc::unwrap_or_clone(event)
    }

    /// Keeps and sends an event made elsewhere (a relayed one) with its own id, time and agent.
    pub fn publish(&self, event: Event) {
        let event = Arc::new(self.cleaned(event));
        let mut state = self.lock();
        self.keep(&mut state, event);
    }

    /// Sends an event made elsewhere to current subscribers without keeping it.
    pub fn publish_transient(&self, event: Event) {
        let event = Arc::new(self.cleaned(event));
        let _state = self.lock();
        let _ = self.inner.live.send(Live { event, position: None });
    }

    /// `event` as this feed may show it: without content if it keeps none.
    fn cleaned(&self, event: Event) -> Event {
        if self.inner.redacting { crate::redact(event) } else { event }
    }

    /// The kept events, oldest first.
    pub fn history(&self) -> Vec<Event> {
        self.lock().ring.iter().map(|e| Event::clone(e)).collect()
    }

    /// Subscribes after `last_event_id`: the kept events after it, then live ones. With no id
    /// (or an empty one) that is the whole history. An id not in the history also gets the
    /// whole history, marked truncated if the ring has dropped events (it may have been one);
    /// a truncated subscription starts with a [`HISTORY_TRUNCATED`] notice.
    pub fn subscribe(&self, last_event_id: Option<&str>) -> Subscription {
        let last_event_id = last_event_id.filter(|id| !id.is_empty());
        let mut state = self.lock();
        let from = match last_event_id {
            None => state.evicted,
            Some(id) => match state.ring.iter().rposition(|e| e.id == id) {
                Some(i) => state.evicted + i as u64 + 1,
                None => 0,
            },
        };
        let receiver = self.inner.live.subscribe();
        let mut queue = VecDeque::new();
        let truncated = from < state.evicted;
        if truncated {
            queue.push_back(self.notice(&mut state, "evicted", last_event_id));
        }
        queue_backlog(&state, from, &mut queue);
        let next = state.end();
        drop(state);
        Subscription {
            telemetry: self.clone(),
            truncated,
            queue,
            receiver,
            next,
            last_id: last_event_id.map(str::to_owned),
        }
    }

    /// Ends every open SSE response of this feed. Call it when the server shuts down: an
    /// open feed never finishes on its own, so graceful shutdown would wait for it forever.
    pub fn disconnect_all(&self) {
        self.inner.disconnect.send_modify(|generation| *generation += 1);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // the state stays consistent across a panic (every update is one push or pop)
        self.inner.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn make(&self, state: &mut State, kind: &str, data: Data) -> Event {
        state.seq += 1;
        self.cleaned(Event {
            id: format!("{}:{}", self.inner.boot, state.seq),
            ts: now_ms(),
            agent: self.inner.agent.clone(),
            kind: kind.to_owned(),
            data,
            relayed_from: None,
        })
    }

    /// A [`HISTORY_TRUNCATED`] notice for one subscriber: never kept, never broadcast.
    fn notice(&self, state: &mut State, reason: &str, after: Option<&str>) -> Live {
        let event = self.make(state, HISTORY_TRUNCATED, json!({ "reason": reason, "after": after }).into());
        Live { event: Arc::new(event), position: None }
    }

    fn keep(&self, state: &mut State, event: Arc<Event>) {
        let position = state.end();
        // sent under the lock, so a subscriber's snapshot and its receiver never overlap or gap
        let _ = self.inner.live.send(Live { event: event.clone(), position: Some(position) });
        state.bytes += weight(&event);
        state.ring.push_back(event);
        while state.ring.len() > self.inner.capacity
            || (state.bytes > self.inner.max_bytes && state.ring.len() > 1)
        {
            let Some(old) = state.ring.pop_front() else { break };
            state.bytes -= weight(&old);
            state.evicted += 1;
        }
    }
}

/// Queues the kept events at positions `from..` (those still in the ring).
fn queue_backlog(state: &State, from: u64, queue: &mut VecDeque<Live>) {
    let start = from.max(state.evicted);
    let skip = usize::try_from(start - state.evicted).unwrap_or(usize::MAX);
    let kept = state.ring.iter().skip(skip).cloned();
    queue.extend(kept.zip(start..).map(|(event, p)| Live { event, position: Some(p) }));
}

/// One subscriber's view of a feed: missed kept events first, then live ones, in order.
///
/// A subscriber that falls behind the live channel catches up from the ring; only if the
/// ring has dropped events it had not seen does it get a [`HISTORY_TRUNCATED`] notice
/// (`data.reason` is `"lagged"`). Transient events missed while behind are not recovered.
#[derive(Debug)]
pub struct Subscription {
    telemetry: Telemetry,
    truncated: bool,
    queue: VecDeque<Live>,
    receiver: broadcast::Receiver<Live>,
    /// The position after the last kept event queued or received.
    next: u64,
    /// The id of the last kept event handed out (or the resume id).
    last_id: Option<String>,
}

impl Subscription {
    /// Whether the resume point had fallen out of the history (the first event is then a
    /// [`HISTORY_TRUNCATED`] notice).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The next event, waiting for one if need be.
    pub async fn recv(&mut self) -> Event {
        Arc::unwrap_or_clone(self.recv_live().await.event)
    }

    /// The next event if one is ready.
    pub fn try_recv(&mut self) -> Option<Event> {
        loop {
            if let Some(live) = self.queue.pop_front() {
                return Some(Arc::unwrap_or_clone(self.hand_out(live).event));
            }
            match self.receiver.try_recv() {
                Ok(live) => {
                    if let Some(live) = self.accept(live) {
                        return Some(Arc::unwrap_or_clone(self.hand_out(live).event));
                    }
                }
                Err(broadcast::error::TryRecvError::Lagged(_)) => self.catch_up(),
                Err(_) => return None,
            }
        }
    }

    /// The next event and whether it is kept. Cancel-safe.
    pub(crate) async fn recv_live(&mut self) -> Live {
        loop {
            if let Some(live) = self.queue.pop_front() {
                return self.hand_out(live);
            }
            match self.receiver.recv().await {
                Ok(live) => {
                    if let Some(live) = self.accept(live) {
                        return self.hand_out(live);
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => self.catch_up(),
                // cannot happen: we hold the feed, so the sender lives
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    }

    /// Tracks a live event's position; `None` for a kept event already queued.
    fn accept(&mut self, live: Live) -> Option<Live> {
        match live.position {
            Some(p) if p < self.next => None,
            Some(p) => {
                self.next = p + 1;
                Some(live)
            }
            None => Some(live),
        }
    }

    fn hand_out(&mut self, live: Live) -> Live {
        if live.position.is_some() {
            self.last_id = Some(live.event.id.clone());
        }
        live
    }

    /// After falling behind the live channel: resubscribe and queue what the ring still has.
    fn catch_up(&mut self) {
        let telemetry = self.telemetry.clone();
        let mut state = telemetry.lock();
        self.receiver = telemetry.inner.live.subscribe();
        if self.next < state.evicted {
            let last_id = self.last_id.as_deref();
            self.queue.push_back(telemetry.notice(&mut state, "lagged", last_id));
        }
        queue_backlog(&state, self.next, &mut self.queue);
        self.next = state.end();
        tracing::debug!(agent = %telemetry.inner.agent, "a telemetry subscriber fell behind and caught up");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(events: &[Event]) -> Vec<String> {
        events.iter().map(|e| e.id.clone()).collect()
    }

    fn drain(sub: &mut Subscription) -> Vec<Event> {
        std::iter::from_fn(|| sub.try_recv()).collect()
    }

    #[test]
    fn ids_count_up_from_one_under_one_boot() {
        let t = Telemetry::new("tutor");
        let a = t.emit("registered", json!({"skill": "calculus"}));
        let b = t.emit_transient("heartbeat", serde_json::Value::Null);
        let c = t.emit("message_received", json!({}));
        let (boot, seq) = a.id.split_once(':').unwrap();
        assert_eq!(seq, "1");
        assert_eq!(b.id, format!("{boot}:2"));
        assert_eq!(c.id, format!("{boot}:3"));
        assert_eq!((&*a.agent, a.kind.as_str()), ("tutor", "registered"));
        assert_eq!(b.data.value(), json!({}));
        assert!(a.ts > 1_600_000_000_000);
        assert_ne!(boot, Telemetry::new("tutor").emit("x", json!({})).id.split_once(':').unwrap().0);
    }

    #[test]
    fn the_history_is_bounded_by_bytes_as_well_as_by_count() {
        let t = Telemetry::new("tutor");
        let big = "x".repeat(300_000);
        for i in 0..40 {
            t.record("reply_published", json!({"n": i, "blob": big}));
        }
        let kept = t.history();
        let bytes: usize = kept.iter().map(weight).sum();
        assert!(bytes <= DEFAULT_MAX_BYTES, "{bytes} bytes kept");
        assert_eq!(kept.len(), DEFAULT_MAX_BYTES / weight(&kept[0]), "as many as fit");
        assert_eq!(kept.last().unwrap().data.value()["n"], 39, "the newest are the ones kept");
        // a new subscriber is sent that much, after a notice for what fell out
        let mut sub = t.subscribe(Some("gone:1"));
        let sent = drain(&mut sub);
        assert_eq!(sent[0].kind, HISTORY_TRUNCATED);
        assert_eq!(sent.len(), kept.len() + 1);
        // one event larger than the whole bound is still kept, alone
        t.record("huge", json!({"blob": "y".repeat(3 << 20)}));
        assert_eq!(t.history().len(), 1);
        t.record("small", json!({}));
        assert_eq!(t.history().iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(), ["small"]);
    }

    #[test]
    fn a_feed_without_content_never_holds_what_people_wrote() {
        let t = Telemetry::without_content("tutor");
        let mut sub = t.subscribe(None);
        let kept = t.emit("message_received", json!({"operationId": "op-1", "text": "my secret essay"}));
        assert_eq!(kept.data.value(), json!({"operationId": "op-1", "text": "[15 chars redacted]"}));
        let relayed = Event { data: json!({"answer": "42"}).into(), ..kept.clone() };
        t.publish(relayed);
        t.record_transient("heartbeat_sent", json!({"notes": ["a"]}));
        let seen = drain(&mut sub);
        assert_eq!(seen.len(), 3);
        for e in seen.iter().chain(t.history().iter()) {
            let text = e.data.json();
            assert!(!text.contains("secret") && !text.contains("42") && !text.contains("\"a\""), "{text}");
        }
        // an ordinary feed keeps details as they were written
        let plain = Telemetry::new("hub").emit("x", json!({"text": "kept"}));
        assert_eq!(plain.data.value()["text"], "kept");
    }

    #[test]
    fn transient_events_reach_subscribers_but_are_not_kept() {
        let t = Telemetry::new("tutor");
        let mut sub = t.subscribe(None);
        let kept = t.emit("a", json!({}));
        let beat = t.emit_transient("heartbeat", json!({}));
        assert_eq!(t.history(), vec![kept.clone()]);
        assert_eq!(drain(&mut sub), vec![kept, beat]);
    }

    #[test]
    fn resume_gets_only_what_came_after() {
        let t = Telemetry::new("tutor");
        let events: Vec<Event> = (0..5).map(|i| t.emit("e", json!({ "i": i }))).collect();
        let mut sub = t.subscribe(Some(&events[2].id));
        assert!(!sub.truncated());
        assert_eq!(ids(&drain(&mut sub)), ids(&events[3..]));
        let later = t.emit("e", json!({}));
        assert_eq!(drain(&mut sub), vec![later.clone()]);
        // no id, an empty id and an unknown id (nothing dropped yet) all mean everything
        for id in [None, Some(""), Some("elsewhere:9")] {
            let mut sub = t.subscribe(id);
            assert!(!sub.truncated(), "{id:?}");
            assert_eq!(drain(&mut sub).len(), 6, "{id:?}");
        }
    }

    #[test]
    fn an_evicted_id_gets_a_notice_then_the_whole_ring() {
        let t = Telemetry::with_capacity("tutor", 3);
        let events: Vec<Event> = (0..6).map(|i| t.emit("e", json!({ "i": i }))).collect();
        assert_eq!(t.history(), events[3..]);
        let mut sub = t.subscribe(Some(&events[1].id));
        assert!(sub.truncated());
        let got = drain(&mut sub);
        assert_eq!(got[0].kind, HISTORY_TRUNCATED);
        assert_eq!(got[0].data.value(), json!({"reason": "evicted", "after": events[1].id}));
        assert_eq!(ids(&got[1..]), ids(&events[3..]));
        assert!(!t.history().iter().any(|e| e.kind == HISTORY_TRUNCATED));
    }

    #[test]
    fn a_lagging_subscriber_catches_up_from_the_ring() {
        let t = Telemetry::with_capacities("hub", 100, 4);
        let mut sub = t.subscribe(None);
        let first = t.emit("e", json!({}));
        assert_eq!(sub.try_recv(), Some(first));
        let events: Vec<Event> = (0..20).map(|i| t.emit("e", json!({ "i": i }))).collect();
        assert_eq!(ids(&drain(&mut sub)), ids(&events), "no gap, no duplicate, no notice");
    }

    #[test]
    fn a_subscriber_that_lags_past_the_ring_gets_a_notice_and_continues() {
        let t = Telemetry::with_capacities("hub", 5, 4);
        let mut sub = t.subscribe(None);
        let first = t.emit("e", json!({}));
        assert_eq!(sub.try_recv(), Some(first.clone()));
        let events: Vec<Event> = (0..20).map(|i| t.emit("e", json!({ "i": i }))).collect();
        let got = drain(&mut sub);
        assert_eq!(got[0].kind, HISTORY_TRUNCATED);
        assert_eq!(got[0].data.value(), json!({"reason": "lagged", "after": first.id}));
        assert_eq!(ids(&got[1..]), ids(&events[15..]));
        let later = t.emit("e", json!({}));
        assert_eq!(drain(&mut sub), vec![later]);
    }

    #[test]
    fn publish_keeps_the_relayed_event_as_is() {
        let hub = Telemetry::new("hub");
        let tutor = Telemetry::new("tutor");
        let mut relayed = tutor.emit("reply_published", json!({"messageId": "m"}));
        relayed.relayed_from = Some("tutor".into());
        let mut sub = hub.subscribe(None);
        hub.publish(relayed.clone());
        let own = hub.emit("card_fetched", json!({}));
        assert_eq!(hub.history(), vec![relayed.clone(), own.clone()]);
        assert_eq!(drain(&mut sub), vec![relayed.clone(), own.clone()]);
        // a relayed id is a resume point like any other
        assert_eq!(drain(&mut hub.subscribe(Some(&relayed.id))), vec![own]);
        let beat = tutor.emit_transient("heartbeat", json!({}));
        hub.publish_transient(beat.clone());
        assert_eq!(drain(&mut sub), vec![beat]);
        assert_eq!(hub.history().len(), 2);
    }

    #[test]
    fn zero_capacity_keeps_nothing() {
        let t = Telemetry::with_capacity("x", 0);
        let mut sub = t.subscribe(None);
        let e = t.emit("e", json!({}));
        assert!(t.history().is_empty());
        assert_eq!(drain(&mut sub), vec![e]);
    }
}
