//! The run-order rules `@ag-ui/client` 1.0's `verifyEvents` enforces, for the events this
//! crate knows. Used by tests on every stream the UI server emits, and as a debug
//! assertion where the server emits events.

use std::collections::HashSet;

use crate::Event;

/// Why an event may not come next (worded after `verifyEvents`' own messages).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("first event must be RUN_STARTED (got {0})")]
    FirstNotRunStarted(&'static str),
    #[error("cannot send {0}: the run has already errored with RUN_ERROR")]
    AfterError(&'static str),
    #[error("cannot send {0}: the run has already finished with RUN_FINISHED")]
    AfterFinished(&'static str),
    #[error("cannot send RUN_STARTED while a run is still active")]
    RunActive,
    #[error("text message {0} is already in progress")]
    MessageOpen(String),
    #[error("no active text message with id {1} for {0}")]
    NoMessage(&'static str, String),
    #[error("cannot send RUN_FINISHED while text messages are still active: {0}")]
    MessagesActive(String),
}

/// One stream's order state: feed it each event in order.
#[derive(Debug, Default, Clone)]
pub struct Verifier {
    first_seen: bool,
    run_started: bool,
    run_finished: bool,
    run_error: bool,
    open_messages: HashSet<String>,
}

impl Verifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a run is open (started, not finished or errored).
    pub fn in_run(&self) -> bool {
        self.run_started && !self.run_finished && !self.run_error
    }

    /// Checks `event` against the events before it and records it.
    pub fn check(&mut self, event: &Event) -> Result<(), VerifyError> {
        let name = event.type_name();
        let starts = matches!(event, Event::RunStarted(_));
        if self.run_error && !starts {
            return Err(VerifyError::AfterError(name));
        }
        if self.run_finished && !starts && !matches!(event, Event::RunError(_)) {
            return Err(VerifyError::AfterFinished(name));
        }
        if !self.first_seen {
            self.first_seen = true;
            if !starts && !matches!(event, Event::RunError(_)) {
                return Err(VerifyError::FirstNotRunStarted(name));
            }
        } else if starts {
            if self.in_run() {
                return Err(VerifyError::RunActive);
            }
            if self.run_finished || self.run_error {
                self.open_messages.clear();
                self.run_finished = false;
                self.run_error = false;
            }
        }
        match event {
            Event::RunStarted(_) => self.run_started = true,
            Event::TextMessageStart(m) => {
                if !self.open_messages.insert(m.message_id.clone()) {
                    return Err(VerifyError::MessageOpen(m.message_id.clone()));
                }
            }
            Event::TextMessageContent(m) => {
                if !self.open_messages.contains(&m.message_id) {
                    return Err(VerifyError::NoMessage(name, m.message_id.clone()));
                }
            }
            Event::TextMessageEnd(m) => {
                if !self.open_messages.remove(&m.message_id) {
                    return Err(VerifyError::NoMessage(name, m.message_id.clone()));
                }
            }
            Event::RunFinished(_) => {
                if !self.open_messages.is_empty() {
                    let mut open: Vec<&str> = self.open_messages.iter().map(String::as_str).collect();
                    open.sort_unstable();
                    return Err(VerifyError::MessagesActive(open.join(", ")));
                }
                self.run_finished = true;
            }
            Event::RunError(_) => self.run_error = true,
            Event::StateSnapshot(_)
            | Event::StateDelta(_)
            | Event::ActivitySnapshot(_)
            | Event::ActivityDelta(_)
            | Event::Custom(_) => {}
        }
        Ok(())
    }

    /// Checks a whole stream from a fresh state; the error names the event's index.
    pub fn check_all<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<(), (usize, VerifyError)> {
        let mut v = Verifier::new();
        for (i, e) in events.into_iter().enumerate() {
            v.check(e).map_err(|err| (i, err))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Role;
    use serde_json::json;

    fn run(thread: &str, run: &str, text: &str) -> Vec<Event> {
        let mut events = vec![Event::run_started(thread, run, 1)];
        events.push(Event::state_delta(vec![], 1));
        events.extend(Event::text_message(&format!("{run}-m"), Role::Assistant, text, 1));
        events.push(Event::run_finished(thread, run, Some(json!({"ok": true})), 1));
        events
    }

    #[test]
    fn accepts_runs_one_after_another_and_an_error_ending() {
        let mut events = run("t", "r1", "hello");
        events.extend(run("t", "r2", ""));
        events.push(Event::run_started("t", "r3", 1));
        events.push(Event::run_error("hub_unavailable", "no hub", 1));
        events.extend(run("t", "r4", "again"));
        assert_eq!(Verifier::check_all(&events), Ok(()));
        // a stream may open with RUN_ERROR, and RUN_ERROR may follow RUN_FINISHED
        let e = [Event::run_error("x", "y", 1)];
        assert_eq!(Verifier::check_all(&e), Ok(()));
        let mut late = run("t", "r", "x");
        late.push(Event::run_error("x", "y", 1));
        assert_eq!(Verifier::check_all(&late), Ok(()));
    }

    #[test]
    fn refuses_what_verify_events_refuses() {
        let custom = || Event::custom("c", json!(1), 1);
        let start = |id: &str| Event::text_message(id, Role::User, "x", 1).remove(0);
        let end = |id: &str| Event::text_message(id, Role::User, "", 1).remove(1);
        let cases: Vec<(Vec<Event>, usize, VerifyError)> = vec![
            (vec![custom()], 0, VerifyError::FirstNotRunStarted("CUSTOM")),
            (
                vec![Event::run_started("t", "a", 1), Event::run_started("t", "b", 1)],
                1,
                VerifyError::RunActive,
            ),
            ([run("t", "a", "x"), vec![custom()]].concat(), 6, VerifyError::AfterFinished("CUSTOM")),
            (
                vec![Event::run_started("t", "a", 1), Event::run_error("c", "m", 1), custom()],
                2,
                VerifyError::AfterError("CUSTOM"),
            ),
            (
                vec![Event::run_started("t", "a", 1), start("m"), start("m")],
                2,
                VerifyError::MessageOpen("m".into()),
            ),
            (
                vec![Event::run_started("t", "a", 1), end("m")],
                1,
                VerifyError::NoMessage("TEXT_MESSAGE_END", "m".into()),
            ),
            (
                vec![Event::run_started("t", "a", 1), start("m"), Event::run_finished("t", "a", None, 1)],
                2,
                VerifyError::MessagesActive("m".into()),
            ),
        ];
        for (events, at, err) in cases {
            assert_eq!(Verifier::check_all(&events), Err((at, err)));
        }
    }

    #[test]
    fn interleaved_runs_fail_on_one_stream() {
        // two threads' runs at once must travel on separate verifier lanes
        let (a, b) = (run("t1", "a", "x"), run("t2", "b", "y"));
        let interleaved = vec![a[0].clone(), b[0].clone()];
        assert_eq!(Verifier::check_all(&interleaved), Err((1, VerifyError::RunActive)));
    }
}
