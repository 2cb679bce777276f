//! The one SSE stream per page, `GET /api/ui/stream`: every channel's AG-UI events as
//! frames `{"channel","thread","event"}` with ids `<boot>:<seq>`, a bounded history that
//! a reconnect resumes from at run boundaries, live-only frames (no id), heartbeats.
//!
//! A **lane** is a channel and a thread: runs of one lane never overlap, so each lane is
//! one `verifyEvents` pipe on the page (and one [`agui::Verifier`] here, in debug builds).

use std::collections::{HashMap, HashSet, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use agui::Event;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{broadcast, watch};

/// How many kept frames the history holds.
pub const HISTORY: usize = 1000;
/// The channel of the Student's own runs (conversations and notices).
pub const STUDENT_CHANNEL: &str = "student";
/// The notice a resuming page gets when the history no longer reaches back to its
/// last event.
pub const HISTORY_TRUNCATED: &str = "history_truncated";
/// How often an idle stream sends a heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// How far a subscriber may fall behind the live stream before it is disconnected.
const LIVE_BUFFER: usize = 1024;

/// One kept frame, framed once for every subscriber.
#[derive(Debug)]
struct Frame {
    seq: u64,
    /// `channel/thread/run`: the run the frame belongs to.
    run: Arc<str>,
    starts: bool,
    ends: bool,
    text: Bytes,
}

#[derive(Clone, Debug)]
enum Item {
    Kept(Arc<Frame>),
    /// Complete live-only runs, framed without ids.
    Live(Bytes),
}

struct Ring {
    seq: u64,
    frames: VecDeque<Arc<Frame>>,
    /// The latest live-only status, given to each new subscriber after `hello`.
    status: Option<Bytes>,
    #[cfg(debug_assertions)]
    lanes: bounded::BoundedMap<String, agui::Verifier>,
}

/// The stream's state: cheap to clone, every clone is the same stream.
#[derive(Clone)]
pub struct Stream {
    inner: Arc<Inner>,
}

struct Inner {
    boot: String,
    capacity: usize,
    ring: Mutex<Ring>,
    live: broadcast::Sender<Item>,
    closed: watch::Sender<bool>,
}

#[derive(Serialize)]
struct Wire<'a> {
    channel: &'a str,
    thread: &'a str,
    event: &'a Event,
}

impl Stream {
    /// A stream keeping [`HISTORY`] frames, with a fresh boot tag.
    pub fn new(boot: String) -> Self {
        Self::with_capacity(boot, HISTORY)
    }

    pub fn with_capacity(boot: String, capacity: usize) -> Self {
        let ring = Ring {
            seq: 0,
            frames: VecDeque::with_capacity(capacity.min(4096)),
            status: None,
            #[cfg(debug_assertions)]
            lanes: bounded::BoundedMap::new(4096),
        };
        Self {
            inner: Arc::new(Inner {
                boot,
                capacity: capacity.max(1),
                ring: Mutex::new(ring),
                live: broadcast::channel(LIVE_BUFFER).0,
                closed: watch::channel(false).0,
            }),
        }
    }

    pub fn boot(&self) -> &str {
        &self.inner.boot
    }

    /// The seq of the last kept frame (0 before any).
    pub fn last_seq(&self) -> u64 {
        self.lock().seq
    }

    fn lock(&self) -> MutexGuard<'_, Ring> {
        self.inner.ring.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps and sends `events` of run `run` on lane `channel`/`thread`, one frame each,
    /// contiguous (no other frame comes between them).
    pub fn emit(&self, channel: &str, thread: &str, run: &str, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        let key: Arc<str> = format!("{channel}/{thread}/{run}").into();
        let mut ring = self.lock();
        for event in events {
            #[cfg(debug_assertions)]
            verify(&mut ring, channel, thread, event);
            ring.seq += 1;
            let id = format!("{}:{}", self.inner.boot, ring.seq);
            let text = frame_text(Some(&id), &Wire { channel, thread, event });
            let frame = Arc::new(Frame {
                seq: ring.seq,
                run: key.clone(),
                starts: matches!(event, Event::RunStarted(_)),
                ends: matches!(event, Event::RunFinished(_) | Event::RunError(_)),
                text,
            });
            // sent under the lock: a new subscriber's replay and its live frames never overlap or gap
            let _ = self.inner.live.send(Item::Kept(frame.clone()));
            ring.frames.push_back(frame);
            while ring.frames.len() > self.inner.capacity {
                ring.frames.pop_front();
            }
        }
    }

    /// Sends `events` (one complete run) live only: no ids, never kept. With `sticky`, it
    /// is also what each new subscriber gets first (the latest status).
    pub fn emit_live(&self, channel: &str, thread: &str, events: &[Event], sticky: bool) {
        let mut text = Vec::new();
        for event in events {
            text.extend_from_slice(&frame_text(None, &Wire { channel, thread, event }));
        }
        let text = Bytes::from(text);
        let mut ring = self.lock();
        #[cfg(debug_assertions)]
        for event in events {
            verify(&mut ring, channel, thread, event);
        }
        if sticky {
            ring.status = Some(text.clone());
        }
        let _ = self.inner.live.send(Item::Live(text));
    }

    /// Ends every open response (server shutdown: an open stream never ends by itself).
    pub fn close(&self) {
        self.inner.closed.send_replace(true);
    }

    /// A subscriber resuming after `after` (an id, or none for a first connection).
    fn subscribe(&self, after: Option<&str>) -> Subscription {
        let ring = self.lock();
        let plan = plan(&ring.frames, &self.inner.boot, ring.seq, after);
        let receiver = self.inner.live.subscribe();
        let mut prelude = Vec::new();
        prelude.extend_from_slice(agui::sse::retry(1000).as_bytes());
        let hello =
            json!({"channel": "system", "notice": "hello", "boot": self.inner.boot, "lastSeq": ring.seq});
        prelude.extend_from_slice(agui::sse::frame(None, &hello.to_string()).as_bytes());
        if let Some(reason) = plan.truncated {
            let notice = json!({"channel": "system", "notice": HISTORY_TRUNCATED, "reason": reason});
            prelude.extend_from_slice(agui::sse::frame(None, &notice.to_string()).as_bytes());
        }
        if let Some(status) = &ring.status {
            prelude.extend_from_slice(status);
        }
        for frame in &plan.frames {
            prelude.extend_from_slice(&frame.text);
        }
        drop(ring);
        Subscription { prelude: Some(Bytes::from(prelude)), open: plan.open, receiver }
    }

    /// `GET /api/ui/stream`: resumes after `Last-Event-ID` (it wins) or `after`.
    pub fn respond(&self, last_event_id: Option<&str>, after: Option<&str>) -> Response {
        let resume = last_event_id.filter(|s| !s.is_empty()).or(after.filter(|s| !s.is_empty()));
        let subscription = self.subscribe(resume);
        let closed = self.inner.closed.subscribe();
        let body = futures_util::stream::unfold((subscription, closed), |(mut sub, mut closed)| async move {
            if let Some(prelude) = sub.prelude.take() {
                return Some((Ok::<_, Infallible>(prelude), (sub, closed)));
            }
            if *closed.borrow() {
                return None;
            }
            loop {
                let next = tokio::select! {
                    item = sub.receiver.recv() => item,
                    _ = closed.changed() => return None,
                    () = tokio::time::sleep(HEARTBEAT) => {
                        return Some((Ok(Bytes::from_static(b": hb\n\n")), (sub, closed)));
                    }
                };
                match next {
                    Ok(Item::Live(text)) => return Some((Ok(text), (sub, closed))),
                    Ok(Item::Kept(frame)) => {
                        if sub.admit(&frame) {
                            return Some((Ok(frame.text.clone()), (sub, closed)));
                        }
                    }
                    // too far behind: end the response; the browser resumes from its last id
                    Err(broadcast::error::RecvError::Lagged(_))
                    | Err(broadcast::error::RecvError::Closed) => {
                        return None;
                    }
                }
            }
        });
        let mut response = Body::from_stream(body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        response
    }
}

#[cfg(debug_assertions)]
fn verify(ring: &mut Ring, channel: &str, thread: &str, event: &Event) {
    let lane = format!("{channel}/{thread}");
    if ring.lanes.get(&lane).is_none() {
        ring.lanes.insert(lane.clone(), agui::Verifier::new());
    }
    if let Some(v) = ring.lanes.get_mut(&lane) {
        let checked = v.check(event);
        debug_assert!(checked.is_ok(), "lane {lane}: {checked:?}");
    }
}

fn frame_text(id: Option<&str>, wire: &Wire<'_>) -> Bytes {
    // cannot fail: strings, numbers and JSON values always serialize
    let json = serde_json::to_string(wire).unwrap_or_else(|_| "{}".into());
    Bytes::from(agui::sse::frame(id, &json))
}

struct Subscription {
    prelude: Option<Bytes>,
    /// Runs this subscriber has been sent the start of and not yet the end.
    open: HashSet<Arc<str>>,
    receiver: broadcast::Receiver<Item>,
}

impl Subscription {
    /// Whether a live kept frame goes out: a run's start, or more of a run it has the start of.
    fn admit(&mut self, frame: &Frame) -> bool {
        if frame.starts {
            self.open.insert(frame.run.clone());
            return !frame.ends || self.open.remove(&frame.run);
        }
        if !self.open.contains(&frame.run) {
            return false;
        }
        if frame.ends {
            self.open.remove(&frame.run);
        }
        true
    }
}

struct Plan {
    truncated: Option<&'static str>,
    frames: Vec<Arc<Frame>>,
    open: HashSet<Arc<str>>,
}

/// What a subscriber resuming after `after` is sent from the history: every frame after
/// that point of runs whose start it has (or gets), and, for each run open at that point,
/// that run again from its start. Never part of a run without its start.
fn plan(frames: &VecDeque<Arc<Frame>>, boot: &str, last_seq: u64, after: Option<&str>) -> Plan {
    let first = frames.front().map_or(last_seq + 1, |f| f.seq);
    let mut truncated = None;
    let point = match after {
        None => None,
        Some(id) => match id.rsplit_once(':') {
            Some((b, seq)) if b == boot => match seq.parse::<u64>() {
                Ok(n) if n <= last_seq && n + 1 >= first => Some(n),
                Ok(n) if n <= last_seq => {
                    truncated = Some("evicted");
                    None
                }
                _ => {
                    truncated = Some("restarted");
                    None
                }
            },
            _ => {
                truncated = Some("restarted");
                None
            }
        },
    };
    // runs open at the point, and whether their start is still kept
    let mut open_at: HashMap<Arc<str>, bool> = HashMap::new();
    if let Some(n) = point {
        for f in frames.iter().take_while(|f| f.seq <= n) {
            if f.ends {
                open_at.remove(&f.run);
            } else if f.starts {
                open_at.insert(f.run.clone(), true);
            } else {
                open_at.entry(f.run.clone()).or_insert(false);
            }
        }
        if open_at.values().any(|kept| !kept) {
            truncated = Some("evicted");
        }
    }
    let mut open: HashSet<Arc<str>> = HashSet::new();
    let mut out = Vec::new();
    for f in frames {
        let before = point.is_some_and(|n| f.seq <= n);
        if before && open_at.get(&f.run) != Some(&true) {
            continue;
        }
        let send = if f.starts {
            open.insert(f.run.clone());
            true
        } else {
            open.contains(&f.run)
        };
        if !send && point.is_some() {
            // more of a run that began at or before the point, whose start is gone
            truncated = Some("evicted");
        }
        if send {
            if f.ends {
                open.remove(&f.run);
            }
            out.push(f.clone());
        }
    }
    Plan { truncated, frames: out, open }
}

#[cfg(test)]
impl Stream {
    /// The kept frames' JSON (`{channel, thread, event}`), oldest first.
    pub(crate) fn kept_json(&self) -> Vec<serde_json::Value> {
        let texts: Vec<Bytes> = self.lock().frames.iter().map(|f| f.text.clone()).collect();
        texts
            .iter()
            .filter_map(|t| {
                let t = std::str::from_utf8(t).ok()?;
                let data =
                    t.lines().find_map(|l| l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:")))?;
                serde_json::from_str(data).ok()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_events(thread: &str, run: &str, middle: usize) -> Vec<Event> {
        let mut e = vec![Event::run_started(thread, run, 1)];
        e.extend((0..middle).map(|i| Event::custom("c", json!(i), 1)));
        e.push(Event::run_finished(thread, run, None, 1));
        e
    }

    fn seqs(plan: &Plan) -> Vec<u64> {
        plan.frames.iter().map(|f| f.seq).collect()
    }

    fn ring(stream: &Stream) -> (VecDeque<Arc<Frame>>, u64) {
        let r = stream.lock();
        (r.frames.clone(), r.seq)
    }

    #[test]
    fn resume_starts_each_lane_at_a_run_boundary() {
        let s = Stream::new("b".into());
        let a = run_events("t1", "a", 1); // seqs 1..=3 (a: 1, 3 end; b interleaves)
        let b = run_events("t2", "b", 1);
        s.emit("student", "t1", "a", &a[..1]); // 1 a start
        s.emit("student", "t2", "b", &b[..1]); // 2 b start
        s.emit("student", "t1", "a", &a[1..]); // 3 a mid, 4 a end
        s.emit("student", "t2", "b", &b[1..2]); // 5 b mid
        let (frames, last) = ring(&s);
        // a first connection gets everything
        assert_eq!(seqs(&plan(&frames, "b", last, None)), vec![1, 2, 3, 4, 5]);
        // after 3: run a was open (replayed from 1), run b was open (replayed from 2)
        let p = plan(&frames, "b", last, Some("b:3"));
        assert_eq!((seqs(&p), p.truncated), (vec![1, 2, 3, 4, 5], None));
        // after 4: a had ended, b is replayed from its start
        assert_eq!(seqs(&plan(&frames, "b", last, Some("b:4"))), vec![2, 5]);
        // after 5: still inside b
        let p = plan(&frames, "b", last, Some("b:5"));
        assert_eq!(seqs(&p), vec![2, 5]);
        assert!(p.open.contains("student/t2/b"));
        // another boot: everything, marked
        let p = plan(&frames, "b", last, Some("other:3"));
        assert_eq!((seqs(&p).len(), p.truncated), (5, Some("restarted")));
    }

    #[test]
    fn eviction_never_sends_part_of_a_run() {
        let s = Stream::with_capacity("b".into(), 4);
        s.emit("monitor", "monitor", "m1", &run_events("monitor", "m1", 1)); // 1..=3
        s.emit("monitor", "monitor", "m2", &run_events("monitor", "m2", 1)); // 4..=6
        let (frames, last) = ring(&s);
        assert_eq!(frames.front().unwrap().seq, 3);
        // a first connection skips the end of m1, whose start is gone
        assert_eq!(seqs(&plan(&frames, "b", last, None)), vec![4, 5, 6]);
        // resuming from an evicted point says so
        let p = plan(&frames, "b", last, Some("b:1"));
        assert_eq!((seqs(&p), p.truncated), (vec![4, 5, 6], Some("evicted")));
        // resuming from 2 (inside m1, whose start is gone): truncated, m1 never continued
        let p = plan(&frames, "b", last, Some("b:2"));
        assert_eq!((seqs(&p), p.truncated), (vec![4, 5, 6], Some("evicted")));
        assert_eq!(s.lock().frames.len(), 4);
    }

    #[test]
    fn live_frames_of_runs_without_their_start_are_held_back() {
        let s = Stream::new("b".into());
        s.emit("student", "t", "r", &run_events("t", "r", 0)[..1]);
        let mut sub = s.subscribe(Some("b:1"));
        // resumed after the start: replayed, so the rest goes out live
        assert!(sub.open.contains("student/t/r"));
        let end = Frame { seq: 2, run: "student/t/r".into(), starts: false, ends: true, text: Bytes::new() };
        assert!(sub.admit(&end));
        let stray =
            Frame { seq: 3, run: "student/t/x".into(), starts: false, ends: false, text: Bytes::new() };
        assert!(!sub.admit(&stray));
    }
}
