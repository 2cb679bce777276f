//! The monitor channel: every agent's telemetry (the Hub's feed with its specialists'
//! relayed, redacted events, and the Student's own) as console entries and topology
//! pulses, in short server-opened runs; agent statuses from the Hub's `/dev/registry`.
//!
//! Under load a flush window with more than [`DETAIL`] events is **coalesced**: one
//! console entry per agent with counts per kind, one pulse per (link, direction,
//! category, phase, sender) with a count. Pending work is bounded whatever the rate.

//!
//! What an event means (its pulse and console line) is in [`label`]; the links' figures
//! in [`stats`].

mod label;
mod stats;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use agui::Event;
use serde_json::{Map, Value, json};

use vocab::agents::{HUB, STUDENT};

use crate::monitor::label::{console_agent, is_heartbeat, summary};
use crate::monitor::stats::Stats;
use crate::now_ms;
use crate::stream::Stream;

pub use crate::monitor::label::{Pulse, label};

pub const CHANNEL: &str = "monitor";
/// How often pending events are flushed into a monitor run.
pub const FLUSH: Duration = Duration::from_millis(100);
/// Most events a flush window shows one by one; more are coalesced into counts.
pub const DETAIL: usize = 16;

#[derive(Default)]
struct Pending {
    /// Console entries and pulses shown one by one (at most [`DETAIL`]).
    consoles: Vec<Arc<telemetry::Event>>,
    pulses: Vec<Pulse>,
    /// Past [`DETAIL`] in this window: counts per agent and kind, pulses merged by key.
    coalesced: bool,
    counts: BTreeMap<String, BTreeMap<String, u64>>,
    merged: BTreeMap<(String, String, String, &'static str, &'static str, String), Pulse>,
    heartbeats: BTreeMap<(String, String, String), Pulse>,
    seen: u64,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.seen == 0 && self.heartbeats.is_empty()
    }

    fn merge(&mut self, p: Pulse) {
        let key = (p.link.clone(), p.from.clone(), p.to.clone(), p.category, p.phase, p.sender.clone());
        match self.merged.get_mut(&key) {
            Some(m) => {
                m.count += p.count;
                m.ts = m.ts.max(p.ts);
                m.trace_id = None;
                m.operation_id = None;
            }
            None => {
                self.merged.insert(key, p);
            }
        }
    }

    fn count(&mut self, e: &telemetry::Event) {
        let agent = console_agent(e).to_string();
        *self.counts.entry(agent).or_default().entry(e.kind.clone()).or_default() += 1;
    }

    /// Keeps `e` for the next flush; `pulse` is its label (made once, by the caller).
    fn push(&mut self, e: telemetry::Event, pulse: Option<Pulse>) {
        if is_heartbeat(&e) {
            if let Some(p) = pulse {
                let key = (p.link.clone(), p.from.clone(), p.sender.clone());
                match self.heartbeats.get_mut(&key) {
                    Some(h) => {
                        h.count += 1;
                        h.ts = h.ts.max(p.ts);
                    }
                    None => {
                        self.heartbeats.insert(key, p);
                    }
                }
            }
            return;
        }
        self.seen += 1;
        if !self.coalesced && self.consoles.len() >= DETAIL {
            // this window is busy: from here on, only counts
            self.coalesced = true;
            for c in std::mem::take(&mut self.consoles) {
                self.count(&c);
            }
            for p in std::mem::take(&mut self.pulses) {
                self.merge(p);
            }
        }
        if self.coalesced {
            self.count(&e);
            if let Some(p) = pulse {
                self.merge(p);
            }
        } else {
            self.consoles.push(Arc::new(e));
            self.pulses.extend(pulse);
        }
    }
}

/// The monitor: pending events, link statistics, the agents' statuses.
pub struct Monitor {
    stream: Stream,
    pending: Mutex<Pending>,
    stats: Mutex<Stats>,
    runs: std::sync::atomic::AtomicU64,
    last_status: Mutex<Option<Value>>,
    coalescing: std::sync::atomic::AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Monitor {
    pub fn new(stream: Stream) -> Self {
        Self {
            stream,
            pending: Mutex::new(Pending::default()),
            stats: Mutex::new(Stats::new()),
            runs: Default::default(),
            last_status: Mutex::new(None),
            coalescing: Default::default(),
        }
    }

    /// One telemetry event from any agent.
    pub fn push(&self, event: telemetry::Event) {
        let from_hub = &*event.agent == HUB;
        let pulse = label(&event);
        if from_hub || pulse.is_some() {
            let mut stats = lock(&self.stats);
            stats.hub_followed |= from_hub;
            if let Some(p) = &pulse {
                stats.record(p);
            }
        }
        lock(&self.pending).push(event, pulse);
    }

    fn next_run_id(&self) -> String {
        let n = self.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        format!("m-{}-{n}", self.stream.boot())
    }

    /// Emits what is pending as monitor runs: a kept run with console entries and pulses,
    /// and a live-only one with heartbeat pulses.
    pub fn flush(&self) {
        let pending = std::mem::take(&mut *lock(&self.pending));
        if pending.is_empty() {
            return;
        }
        self.coalescing.store(pending.coalesced, std::sync::atomic::Ordering::Relaxed);
        let ts = now_ms();
        if pending.seen > 0 {
            let run = self.next_run_id();
            let mut events = vec![Event::run_started(CHANNEL, &run, ts)];
            let pulses: Vec<Pulse> = if pending.coalesced {
                for (agent, counts) in &pending.counts {
                    let mut content = Map::new();
                    content.insert("agent".into(), json!(agent));
                    content.insert("ts".into(), json!(ts));
                    content.insert("kind".into(), json!("coalesced"));
                    content
                        .insert("summary".into(), json!(format!("{} events", counts.values().sum::<u64>())));
                    content.insert("counts".into(), json!(counts));
                    events.push(Event::activity(
                        format!("console:{agent}:{run}"),
                        "campus.console",
                        content,
                        ts,
                    ));
                }
                pending.merged.into_values().collect()
            } else {
                for e in &pending.consoles {
                    events.push(console(e, ts));
                }
                pending.pulses
            };
            if !pulses.is_empty() {
                events.push(Event::custom("campus.topology", json!({"pulses": pulses}), ts));
            }
            events.push(Event::run_finished(CHANNEL, &run, None, ts));
            self.stream.emit(CHANNEL, CHANNEL, &run, &events);
        }
        if !pending.heartbeats.is_empty() {
            let run = self.next_run_id();
            let pulses: Vec<Pulse> = pending.heartbeats.into_values().collect();
            let events = [
                Event::run_started(CHANNEL, &run, ts),
                Event::custom("campus.topology", json!({"pulses": pulses}), ts),
                Event::run_finished(CHANNEL, &run, None, ts),
            ];
            self.stream.emit_live(CHANNEL, CHANNEL, &events, false);
        }
    }

    /// Sends the status (agents, links, stream) as a live-only snapshot run if it changed.
    pub fn status(&self, agents: Value, hub: Value) {
        let links = lock(&self.stats).snapshot(now_ms());
        let mut agents = agents;
        {
            let stats = lock(&self.stats);
            if let Some(map) = agents.as_object_mut() {
                // the specialists' forwards in flight, as counted from the Hub's feed
                for (id, a) in map.iter_mut().filter(|(id, _)| !matches!(id.as_str(), STUDENT | HUB)) {
                    a["inFlight"] = json!(stats.in_flight(id));
                }
            }
        }
        let coalescing = self.coalescing.load(std::sync::atomic::Ordering::Relaxed);
        let snapshot =
            json!({"agents": agents, "links": links, HUB: hub, "stream": {"coalescing": coalescing}});
        let mut last = lock(&self.last_status);
        if last.as_ref() == Some(&snapshot) {
            return;
        }
        *last = Some(snapshot.clone());
        drop(last);
        let ts = now_ms();
        let run = self.next_run_id();
        let events = [
            Event::run_started(CHANNEL, &run, ts),
            Event::state_snapshot(snapshot, ts),
            Event::run_finished(CHANNEL, &run, None, ts),
        ];
        self.stream.emit_live(CHANNEL, CHANNEL, &events, true);
    }
}

/// One console entry: `ACTIVITY_SNAPSHOT` `campus.console`.
fn console(e: &telemetry::Event, _ts: i64) -> Event {
    let agent = console_agent(e);
    let mut content = Map::new();
    content.insert("agent".into(), json!(agent));
    content.insert("ts".into(), json!(e.ts));
    content.insert("kind".into(), json!(e.kind));
    let details = e.data.value();
    content.insert("summary".into(), json!(summary(e, &details)));
    content.insert("details".into(), if details.is_object() { details } else { json!({}) });
    if let Some(from) = &e.relayed_from {
        content.insert("relayedFrom".into(), json!(from));
    }
    Event::activity(format!("console:{agent}:{}", e.id), "campus.console", content, e.ts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(agent: &str, kind: &str, data: Value, relayed: Option<&str>) -> telemetry::Event {
        telemetry::Event {
            id: format!("b:{kind}"),
            ts: 10,
            agent: agent.into(),
            kind: kind.into(),
            data: data.into(),
            relayed_from: relayed.map(str::to_owned),
        }
    }

    /// A `forwarded` payload as the Hub writes it (the operations' events read it too).
    fn forwarded(op: &str) -> Value {
        json!({"requestId": "r", "specialist": "tutor", "operationId": op, "messageId": "m",
            "contextId": "c", "skill": "explain"})
    }

    #[test]
    fn labels_name_the_link_direction_and_phase() {
        let p = label(&event("hub", "forwarded", forwarded("op"), None)).unwrap();
        assert_eq!(
            (p.link.as_str(), p.from.as_str(), p.to.as_str(), p.category, p.phase),
            ("hub-tutor", "hub", "tutor", "question", "sent")
        );
        let p = label(&event(
            "tutor",
            "reply_published",
            json!({"operationId": "op", "text": "[3 chars redacted]"}),
            Some("tutor"),
        ))
        .unwrap();
        assert_eq!(
            (p.from.as_str(), p.to.as_str(), p.sender.as_str(), p.phase),
            ("tutor", "hub", "tutor", "result")
        );
        let p = label(&event("student", "request_failed", json!({"code": "timeout"}), None)).unwrap();
        assert_eq!(p.phase, "unknown");
        assert!(label(&event("hub", "duplicate_request", json!({}), None)).is_none());
        // forms: the action goes out on the specialist's link, a hub refusal back to the student
        let form = |kind: &str, sp: Option<&str>| {
            let data = json!({"specialist": sp, "contextId": "c", "formRef": "hf-1", "operationId": "op-1"});
            let p = label(&event("hub", kind, data, None)).unwrap();
            (p.link, p.from, p.to, p.category, p.phase)
        };
        let tutor = |from: &str, to: &str, phase| ("hub-tutor".into(), from.into(), to.into(), "form", phase);
        assert_eq!(form("form_action_forwarded", Some("tutor")), tutor("hub", "tutor", "sent"));
        assert_eq!(form("form_action_result", Some("tutor")), tutor("tutor", "hub", "result"));
        assert_eq!(form("form_action_unknown", Some("tutor")), tutor("hub", "tutor", "unknown"));
        assert_eq!(form("form_relayed", Some("tutor")), tutor("tutor", "hub", "received"));
        let refused = form("form_action_refused", None);
        assert_eq!((refused.0.as_str(), refused.1.as_str(), refused.4), ("student-hub", "student", "failed"));
        // the Hub's reply to a press goes back to the Student: a refusal as failed
        assert_eq!(
            form("form_action_replied", None),
            ("student-hub".into(), "hub".into(), "student".into(), "form", "sent")
        );
        let data = json!({"contextId": "c", "formRef": "hf-1", "operationId": "op-1", "code": "form_closed"});
        assert_eq!(label(&event("hub", "form_action_replied", data, None)).unwrap().phase, "failed");
        // a replay is answered by the reply alone: no second pulse
        assert!(
            label(&event("hub", "form_action_replayed", json!({"contextId": "c", "formRef": "hf-1"}), None))
                .is_none()
        );
        // no line between the Student and a specialist, ever
        for kind in ["request_sent", "reply_received", "message_received", "reply_published"] {
            for relayed in [None, Some("tutor")] {
                if let Some(p) = label(&event("student", kind, json!({}), relayed)) {
                    assert!(p.link == "student-hub" || p.link.starts_with("hub-"), "{p:?}");
                }
            }
        }
    }

    #[test]
    fn a_busy_window_is_coalesced_into_counts() {
        let mut pending = Pending::default();
        for i in 0..(DETAIL * 10) {
            let e = event("hub", "forwarded", forwarded(&format!("op{i}")), None);
            let pulse = label(&e);
            pending.push(e, pulse);
        }
        let beat = event("hub", "heartbeat", json!({"specialist": "tutor"}), None);
        let pulse = label(&beat);
        pending.push(beat, pulse);
        assert!(pending.coalesced);
        assert!(pending.consoles.is_empty() && pending.pulses.is_empty());
        assert_eq!(pending.counts["hub"]["forwarded"], (DETAIL * 10) as u64);
        assert_eq!(pending.merged.len(), 1);
        assert_eq!(pending.merged.values().next().unwrap().count, (DETAIL * 10) as u64);
        assert_eq!(pending.heartbeats.len(), 1, "heartbeats are pulses apart, never console entries");
    }

    #[test]
    fn link_rate_and_median_latency() {
        let mut stats = Stats::new();
        for (i, latency) in [10, 30, 20].into_iter().enumerate() {
            let trace = format!("r{i}");
            let mut sent =
                label(&event("student", "request_sent", json!({"requestId": trace}), None)).unwrap();
            sent.ts = 1000;
            stats.record(&sent);
            let mut got =
                label(&event("student", "reply_received", json!({"requestId": trace}), None)).unwrap();
            got.ts = 1000 + latency;
            stats.record(&got);
        }
        let snap = stats.snapshot(2000);
        assert_eq!(snap["student-hub"], json!({"perMin": 3, "p50Ms": 20, "window": 60}));
        assert_eq!(stats.snapshot(1000 + 61_000)["student-hub"]["perMin"], 0);
    }

    #[test]
    fn in_flight_counts_come_from_the_hubs_feed_or_are_unknown() {
        let m = Monitor::new(Stream::new("b".into()));
        let agents =
            || json!({"student": {"inFlight": 1}, "hub": {"inFlight": null}, "tutor": {"inFlight": null}});
        let tutor = |m: &Monitor| {
            m.status(agents(), json!({}));
            lock(&m.last_status).as_ref().unwrap()["agents"]["tutor"]["inFlight"].clone()
        };
        assert!(tutor(&m).is_null(), "nothing from the Hub yet: unknown, not 0");
        let op = |k: &str, id: &str| event("hub", k, forwarded(id), None);
        m.push(op("forwarded", "o1"));
        m.push(op("forwarded", "o2"));
        assert_eq!(tutor(&m), json!(2));
        m.push(op("specialist_replied", "o1"));
        m.push(op("forward_failed", "o2"));
        assert_eq!(tutor(&m), json!(0), "the Hub's feed is followed: none in flight is known");
        let status = lock(&m.last_status).clone().unwrap();
        assert_eq!(status["agents"]["student"]["inFlight"], 1, "the Student's own count is kept");
    }
}
