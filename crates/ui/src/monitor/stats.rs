//! The per-link figures the monitor's status shows: questions sent per minute and the
//! median latency over a 60 s window, and the forwards in flight per specialist, all from
//! the pulses the agents' events make. Bounded whatever the rate.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::{Map, Value, json};

use vocab::agents::HUB;

use crate::monitor::label::{Pulse, STUDENT_HUB};

/// The window of the per-link rate and latency.
const WINDOW_MS: i64 = 60_000;
/// Samples kept per link for the window (older or extra ones are dropped).
const SAMPLES: usize = 2048;
/// Started exchanges awaiting their answer, for latency (oldest forgotten).
const OPEN_EXCHANGES: usize = 4096;

/// Per-link samples for the 60 s rate and median latency.
#[derive(Default)]
struct Link {
    /// (ts, latency ms if an answer) of each question sent and answer received.
    sent: VecDeque<i64>,
    latencies: VecDeque<(i64, i64)>,
}

#[derive(Default)]
pub(crate) struct Stats {
    links: BTreeMap<String, Link>,
    /// `link/trace` → when the question left (forgotten all at once past
    /// [`OPEN_EXCHANGES`]: answers that never came must not pile up).
    open: HashMap<String, i64>,
    /// Forwards in flight per specialist (operation ids; same bound).
    in_flight: HashMap<String, HashSet<String>>,
    /// Specialists whose set was cleared at the bound: their count is no longer known.
    in_flight_lost: HashSet<String>,
    /// Whether any of the Hub's events arrived: only then are the counts known.
    pub(crate) hub_followed: bool,
}

impl Stats {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn record(&mut self, p: &Pulse) {
        let trace = match p.link.as_str() {
            STUDENT_HUB => p.trace_id.clone(),
            _ => p.operation_id.clone(),
        };
        let link = self.links.entry(p.link.clone()).or_default();
        match (p.category, p.phase, p.sender.as_str()) {
            ("question", "sent", s) if s == p.from => {
                for _ in 0..p.count.min(SAMPLES as u64) {
                    link.sent.push_back(p.ts);
                }
                while link.sent.len() > SAMPLES {
                    link.sent.pop_front();
                }
                if let Some(t) = trace {
                    if self.open.len() >= OPEN_EXCHANGES {
                        self.open.clear();
                    }
                    self.open.insert(format!("{}/{t}", p.link), p.ts);
                    if p.link != STUDENT_HUB {
                        let set = self.in_flight.entry(p.to.clone()).or_default();
                        if set.len() >= OPEN_EXCHANGES {
                            set.clear();
                            if self.in_flight_lost.len() < OPEN_EXCHANGES {
                                self.in_flight_lost.insert(p.to.clone());
                            }
                        }
                        set.insert(t);
                    }
                }
            }
            ("answer", "received", _) | ("question", "failed" | "unknown", _) => {
                if let Some(t) = trace {
                    let key = format!("{}/{t}", p.link);
                    if let Some(start) = self.open.remove(&key)
                        && p.category == "answer"
                    {
                        link.latencies.push_back((p.ts, (p.ts - start).max(0)));
                        while link.latencies.len() > SAMPLES {
                            link.latencies.pop_front();
                        }
                    }
                    let specialist = if p.from == HUB { &p.to } else { &p.from };
                    if let Some(m) = self.in_flight.get_mut(specialist) {
                        m.remove(&t);
                    }
                }
            }
            _ => {}
        }
    }

    /// Forwards to `specialist` that have no answer yet, as far as the Hub's feed told:
    /// `None` before the feed said anything, or once the count was cut at its bound.
    pub(crate) fn in_flight(&self, specialist: &str) -> Option<usize> {
        if !self.hub_followed || self.in_flight_lost.contains(specialist) {
            return None;
        }
        Some(self.in_flight.get(specialist).map_or(0, HashSet::len))
    }

    pub(crate) fn snapshot(&mut self, now: i64) -> Value {
        let mut out = Map::new();
        for (name, link) in &mut self.links {
            while link.sent.front().is_some_and(|t| *t < now - WINDOW_MS) {
                link.sent.pop_front();
            }
            while link.latencies.front().is_some_and(|(t, _)| *t < now - WINDOW_MS) {
                link.latencies.pop_front();
            }
            let mut ms: Vec<i64> = link.latencies.iter().map(|(_, l)| *l).collect();
            ms.sort_unstable();
            let p50 = (!ms.is_empty()).then(|| ms[(ms.len() - 1) / 2]);
            out.insert(
                name.clone(),
                json!({"perMin": link.sent.len(), "p50Ms": p50, "window": WINDOW_MS / 1000}),
            );
        }
        Value::Object(out)
    }
}
