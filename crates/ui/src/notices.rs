//! Notices nobody asked for: short runs the server opens itself on the `student` channel,
//! in its own lane (thread [`THREAD`], which no conversation may use), kept in the history
//! like any run: the Hub became unreachable, or reachable again, as the UI server's
//! registry polling saw it; a new conversation was started (with its `threadId`).
//!
//! Each run: `RUN_STARTED`, `CUSTOM {name: "campus.notice", value: {code, message, at[, threadId]}}`,
//! `RUN_FINISHED {result: {notice: code}}`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use agui::Event;
use serde_json::json;

use crate::now_ms;
use crate::stream::{STUDENT_CHANNEL as CHANNEL, Stream};

/// The lane of the server's notices on the `student` channel.
pub const THREAD: &str = "notices";
/// The notice when the Hub stopped answering (or never answered since this server started).
pub const HUB_UNREACHABLE: &str = "hub_unreachable";
/// The notice when the Hub answers again.
pub const HUB_REACHABLE: &str = "hub_reachable";
/// The notice when a window started a new conversation (`threadId`): every window shows
/// it from then on, and so does one opened later.
pub const CONVERSATION_STARTED: &str = "conversation_started";

pub struct Notices {
    stream: Stream,
    runs: AtomicU64,
    /// Whether the Hub answered the last poll (`None` before the first).
    hub: Mutex<Option<bool>>,
}

impl Notices {
    pub fn new(stream: Stream) -> Self {
        Self { stream, runs: AtomicU64::new(0), hub: Mutex::new(None) }
    }

    /// What the latest poll of the Hub saw: a notice when that changed (and when the very
    /// first poll found it unreachable). Returns the notice's code, if one went out.
    pub fn hub(&self, reachable: bool) -> Option<&'static str> {
        let mut last = self.hub.lock().unwrap_or_else(PoisonError::into_inner);
        let before = last.replace(reachable);
        let code = match (before, reachable) {
            (Some(true) | None, false) => HUB_UNREACHABLE,
            (Some(false), true) => HUB_REACHABLE,
            _ => return None,
        };
        // under the lock: two polls never emit out of order
        self.emit(code);
        Some(code)
    }

    /// A new conversation, `thread`, was started.
    pub fn conversation_started(&self, thread: &str) {
        self.emit_with(CONVERSATION_STARTED, "a new conversation started", Some(thread));
    }

    fn emit(&self, code: &'static str) {
        let message = match code {
            HUB_UNREACHABLE => "the hub cannot be reached; a question asked now fails and is not sent later",
            _ => "the hub can be reached again",
        };
        self.emit_with(code, message, None);
    }

    fn emit_with(&self, code: &str, message: &str, thread: Option<&str>) {
        let n = self.runs.fetch_add(1, Ordering::Relaxed) + 1;
        let run = format!("n-{}-{n}", self.stream.boot());
        let ts = now_ms();
        let mut value = json!({"code": code, "message": message, "at": ts});
        if let Some(thread) = thread {
            value["threadId"] = json!(thread);
        }
        let events = [
            Event::run_started(THREAD, &run, ts),
            Event::custom("campus.notice", value, ts),
            Event::run_finished(THREAD, &run, Some(json!({"notice": code})), ts),
        ];
        self.stream.emit(CHANNEL, THREAD, &run, &events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_on_each_change_only() {
        let n = Notices::new(Stream::new("b".into()));
        assert_eq!(n.hub(true), None, "reachable from the start: nothing to say");
        assert_eq!(n.hub(true), None);
        assert_eq!(n.hub(false), Some(HUB_UNREACHABLE));
        assert_eq!(n.hub(false), None, "once per change");
        assert_eq!(n.hub(true), Some(HUB_REACHABLE));
        assert_eq!(n.stream.last_seq(), 6, "two complete runs of three events");
        let down_at_start = Notices::new(Stream::new("c".into()));
        assert_eq!(down_at_start.hub(false), Some(HUB_UNREACHABLE));
    }
}
