//! Talking to a real `campus ui`: reading its SSE stream into frames, posting runs, and
//! checking every lane's AG-UI order with `agui::Verifier` (the rules of @ag-ui/client).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::http::rt;
use crate::process::Proc;

/// One frame of `/api/ui/stream`: its id (kept frames only) and its JSON.
#[derive(Clone, Debug)]
pub struct Frame {
    pub id: Option<String>,
    pub json: Value,
}

impl Frame {
    pub fn channel(&self) -> &str {
        self.json["channel"].as_str().unwrap_or("")
    }
    pub fn thread(&self) -> &str {
        self.json["thread"].as_str().unwrap_or("")
    }
    pub fn kind(&self) -> &str {
        self.json["event"]["type"].as_str().unwrap_or("")
    }
    pub fn event(&self) -> &Value {
        &self.json["event"]
    }
    /// A student-channel frame of `thread`.
    pub fn is_student(&self, thread: &str) -> bool {
        self.channel() == "student" && self.thread() == thread
    }
}

/// Starts `campus ui` asking the Hub at `hub_url`.
pub fn start_ui(hub_url: &str, extra: &[(&str, &str)]) -> Proc {
    let mut env = vec![("HUB_URL", hub_url)];
    env.extend_from_slice(extra);
    Proc::start(&["ui"], &env)
}

/// Reads the stream (resuming with `Last-Event-ID: last_id` and/or `?after=`) until
/// `done` says so, for at most `secs`; returns the frames read.
pub fn read_stream(
    ui: &str,
    last_id: Option<&str>,
    after: Option<&str>,
    secs: u64,
    done: impl Fn(&[Frame]) -> bool,
) -> Vec<Frame> {
    rt().block_on(async {
        let mut url = format!("{ui}/api/ui/stream");
        if let Some(a) = after {
            url.push_str(&format!("?after={a}"));
        }
        let mut req = reqwest::Client::new().get(url);
        if let Some(id) = last_id {
            req = req.header("last-event-id", id);
        }
        let mut resp = req.send().await.expect("stream");
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        let mut parser = telemetry::SseParser::new();
        let mut frames = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        while !done(&frames) {
            match tokio::time::timeout_at(deadline, resp.chunk()).await {
                Ok(Ok(Some(chunk))) => {
                    for f in parser.push(&chunk) {
                        let json = serde_json::from_str(&f.data).expect("every frame is JSON");
                        frames.push(Frame { id: f.id, json });
                    }
                }
                _ => break,
            }
        }
        frames
    })
}

/// Whether the run `run` of `thread` has ended in `frames`.
pub fn run_ended(frames: &[Frame], thread: &str, run: &str) -> bool {
    let mut mine = false;
    for f in frames.iter().filter(|f| f.is_student(thread)) {
        match f.kind() {
            "RUN_STARTED" => mine = f.event()["runId"] == run,
            "RUN_FINISHED" | "RUN_ERROR" if mine => return true,
            _ => {}
        }
    }
    false
}

/// A RunAgentInput asking `text`.
pub fn input(thread: &str, run: &str, text: &str) -> Value {
    json!({
        "threadId": thread, "runId": run, "state": {},
        "messages": [{"id": format!("{run}-m"), "role": "user", "content": text}],
        "tools": [], "context": [], "forwardedProps": {}
    })
}

/// A request with raw headers and body: (status, content type, body text).
pub fn raw(method: &str, url: &str, headers: &[(&str, &str)], body: Option<String>) -> (u16, String, String) {
    rt().block_on(async {
        let mut req = reqwest::Client::new().request(method.parse().unwrap(), url);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(b) = body {
            req = req.body(b);
        }
        let resp = req.send().await.expect("request");
        let status = resp.status().as_u16();
        let ct = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (status, ct, resp.text().await.unwrap_or_default())
    })
}

/// POSTs a JSON body: (status, JSON answer).
pub fn post(url: &str, body: &Value) -> (u16, Value) {
    let (status, _, text) = raw("POST", url, &[("content-type", "application/json")], Some(body.to_string()));
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Starts a run: (status, answer).
pub fn ask(ui: &str, thread: &str, run: &str, text: &str) -> (u16, Value) {
    post(&format!("{ui}/api/ag-ui/runs"), &input(thread, run, text))
}

/// Checks every lane (channel + thread) of one connection's frames with a fresh
/// verifier, as the page does; `system` frames are not AG-UI.
pub fn verify_lanes(frames: &[Frame]) {
    let mut lanes: HashMap<String, agui::Verifier> = HashMap::new();
    for (i, f) in frames.iter().enumerate() {
        if f.channel() == "system" {
            continue;
        }
        let event: agui::Event = serde_json::from_value(f.event().clone())
            .unwrap_or_else(|e| panic!("frame {i} is not an AG-UI event we know: {e}: {}", f.json));
        let lane = format!("{}/{}", f.channel(), f.thread());
        let checked = lanes.entry(lane.clone()).or_default().check(&event);
        assert!(checked.is_ok(), "lane {lane}, frame {i}: {checked:?}: {}", f.json);
    }
}

/// The statuses a run's state moved through (snapshot, then deltas), in order.
pub fn statuses(frames: &[Frame], thread: &str, run: &str) -> Vec<String> {
    let path = format!("/runs/{run}/status");
    let mut out = Vec::new();
    for f in frames.iter().filter(|f| f.is_student(thread)) {
        match f.kind() {
            "STATE_SNAPSHOT" => {
                if let Some(s) = f.event()["snapshot"]["runs"][run]["status"].as_str() {
                    out.push(s.to_string());
                }
            }
            "STATE_DELTA" => {
                for op in f.event()["delta"].as_array().into_iter().flatten() {
                    if op["path"] == path.as_str() {
                        out.push(op["value"].as_str().unwrap_or("").to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The hop strip of a run after its snapshot and every delta.
pub fn hops(frames: &[Frame], thread: &str, run: &str) -> Vec<Value> {
    let mut hops: Vec<Value> = Vec::new();
    let prefix = format!("/runs/{run}/hops/");
    for f in frames.iter().filter(|f| f.is_student(thread)) {
        match f.kind() {
            "STATE_SNAPSHOT" => {
                if let Some(h) = f.event()["snapshot"]["runs"][run]["hops"].as_array() {
                    hops = h.clone();
                }
            }
            "STATE_DELTA" => {
                for op in f.event()["delta"].as_array().into_iter().flatten() {
                    if let Some(i) = op["path"].as_str().and_then(|p| p.strip_prefix(&prefix)) {
                        hops[i.parse::<usize>().unwrap()] = op["value"].clone();
                    }
                }
            }
            _ => {}
        }
    }
    hops
}

/// `step=state` for each hop.
pub fn hop_states(hops: &[Value]) -> Vec<String> {
    hops.iter().map(|h| format!("{}={}", h["step"].as_str().unwrap(), h["state"].as_str().unwrap())).collect()
}
