//! Questions as AG-UI runs: `POST /api/ag-ui/runs` starts one, the hosted Student asks the
//! Hub, and the run's events (its state, the hop strip, the reply) go on the stream.
//!
//! Honest states: `sending` → `waiting` (only once the Hub's feed reported
//! `message_received` for this request id) → `completed` | `failed` | `unknown`; a status
//! never moves backwards and a finished run never changes. Only a POST sends anything; a
//! run is never retried by the server.
//!
//! Here: the conversations and runs, claiming a thread for a run and releasing it, the
//! start's dispatch (a question, a press, a check), and the Hub's feed moving the run it
//! names. A question's run is in [`question`], a press's in [`press`], what a run comes to
//! in [`outcome`].

mod outcome;
mod press;
mod question;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use a2a::client::A2aClient;
use agui::{Event, RunAgentInput, patch};
use axum::http::StatusCode;
use bounded::BoundedMap;
use serde::Deserialize;
use serde_json::{Value, json};
use student::Student;
use telemetry::Telemetry;
use tokio::sync::Notify;
use vocab::events::student::StudentEventKind;

use crate::error::ApiError;
use crate::feed::{About, FeedEvent};
use crate::forms::{FormView, ViewState};
use crate::hops::Hops;
use crate::monitor::Monitor;
use crate::now_ms;
use crate::runs::outcome::Status;
use crate::stream::{STUDENT_CHANNEL as CHANNEL, Stream};

/// How long a run waits, after the reply, for the Hub's feed to report it.
const FEED_GRACE: std::time::Duration = std::time::Duration::from_secs(2);
/// Conversations remembered (the oldest is forgotten past this).
const THREADS: usize = 1024;
/// Run ids remembered for idempotent retries.
const RUN_IDS: usize = 4096;
/// Runs in flight at once, over every conversation.
pub const MAX_ACTIVE: usize = 64;

struct Thread {
    student: Arc<Student>,
    active: Option<String>,
    /// The form open in this conversation (or the last one, closed), as the page draws it.
    form: Option<FormView>,
    /// The last run whose outcome is unknown (run id, request id, question): "Check for
    /// answer" asks again with its request id. Any later run in the thread replaces it.
    uncertain: Option<(String, String, String)>,
}

/// What a question run asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Asking {
    /// What the student typed.
    Question,
    /// The same question again, for the run whose outcome was unknown (its id).
    Check(String),
    /// A follow-up button's question, on the form with this Hub reference.
    FollowUp(String),
}

/// One run in flight.
struct Run {
    thread: String,
    run_id: String,
    request_id: String,
    /// What was asked (kept for "Check for answer" when the outcome is unknown).
    question: String,
    progress: Mutex<Progress>,
    /// Notified on every change the Hub's feed brings.
    changed: Notify,
}

struct Progress {
    status: Status,
    hops: Hops,
    finished: bool,
    /// What was sent, when the Student's own step changed it (an answer to its
    /// clarifying question goes with the question).
    sent: Option<String>,
}

impl Run {
    /// A run just begun: sending, its strip at the first step. `key` is what the Hub's
    /// feed names it by (a question's request id, a press's operation id).
    fn new(thread: String, run_id: String, key: String, question: String) -> Arc<Run> {
        Arc::new(Run {
            thread,
            run_id,
            request_id: key,
            question,
            progress: Mutex::new(Progress {
                status: Status::Sending,
                hops: Hops::default(),
                finished: false,
                sent: None,
            }),
            changed: Notify::new(),
        })
    }

    /// The run's opening `STATE_SNAPSHOT`: the thread state holding this run only, its
    /// record `fields` (what was asked or pressed) with its status, start and hops.
    fn opening(&self, conversation: Option<String>, mut fields: Value, ts: i64) -> Event {
        fields["status"] = json!(Status::Sending.name());
        fields["startedAt"] = json!(ts);
        fields["hops"] = json!(self.lock().hops);
        let state =
            json!({"threadId": self.thread, "conversationId": conversation, "runs": {&self.run_id: fields}});
        Event::state_snapshot(state, ts)
    }

    /// Waits, after the reply, until the Hub's feed has settled every step before the
    /// Student's last (it reports them a moment after the reply itself: the specialist's
    /// relayed events come the longest way), or [`FEED_GRACE`] has passed.
    async fn await_feed(&self) {
        let deadline = tokio::time::Instant::now() + FEED_GRACE;
        while !self.lock().hops.settled_before(crate::hops::step::STUDENT_RECEIVED) {
            if tokio::time::timeout_at(deadline, self.changed.notified()).await.is_err() {
                break;
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The runs in flight, by what the Hub's feed names them with.
#[derive(Default)]
struct Active {
    /// A question's request id → its run.
    by_request: HashMap<String, Arc<Run>>,
    /// A press's operation id (the page's) → its run.
    by_action: HashMap<String, Arc<Run>>,
    /// The Hub's operation id of a forward (a question's or a press's) → its run.
    by_operation: HashMap<String, Arc<Run>>,
}

impl Active {
    /// Forgets a run that ended, under every name.
    fn forget(&mut self, run: &Run) {
        let other = |r: &Arc<Run>| !std::ptr::eq(Arc::as_ptr(r), run);
        self.by_request.retain(|_, r| other(r));
        self.by_action.retain(|_, r| other(r));
        self.by_operation.retain(|_, r| other(r));
    }
}

/// Every conversation and run of this UI server.
pub struct Runs {
    stream: Stream,
    monitor: Arc<Monitor>,
    client: A2aClient,
    hub_url: String,
    telemetry: Telemetry,
    threads: Mutex<BoundedMap<String, Thread>>,
    run_ids: Mutex<BoundedMap<String, String>>,
    active: Mutex<Active>,
    /// Presses (form actions) in flight, counted with the runs against [`MAX_ACTIVE`].
    presses: AtomicUsize,
    /// The hosted Student's own model (`STUDENT_MODE`), shared by every conversation.
    own: Option<Arc<student::OwnModel>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A thread or run id: 1–128 characters of `[A-Za-z0-9_-]`.
fn valid_id(id: &str) -> bool {
    (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The body of `POST /api/ui/conversations`: `{}`, or `{"begunAnew": true}` when the
/// student pressed "New conversation" (the demo's loans start again in it; a page that
/// merely opened or reloaded keeps them).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewConversation {
    #[serde(default)]
    pub begun_anew: bool,
}

impl Runs {
    pub fn new(
        stream: Stream,
        monitor: Arc<Monitor>,
        client: A2aClient,
        hub_url: String,
        telemetry: Telemetry,
    ) -> Self {
        Self {
            stream,
            monitor,
            client,
            hub_url,
            telemetry,
            threads: Mutex::new(BoundedMap::new(THREADS)),
            run_ids: Mutex::new(BoundedMap::new(RUN_IDS)),
            active: Mutex::new(Active::default()),
            presses: AtomicUsize::new(0),
            own: None,
        }
    }

    /// Every conversation's Student with this own model (`None`: questions go on as they are).
    pub fn with_own_model(mut self, own: Option<Arc<student::OwnModel>>) -> Self {
        self.own = own;
        self
    }

    /// How many runs are in flight.
    pub fn in_flight(&self) -> usize {
        lock(&self.active).by_request.len() + self.presses.load(Ordering::SeqCst)
    }

    fn new_thread(&self) -> Thread {
        Thread {
            student: Arc::new(
                Student::new(self.client.clone(), self.hub_url.clone()).with_own_model(self.own.clone()),
            ),
            active: None,
            form: None,
            uncertain: None,
        }
    }

    /// `POST /api/ui/conversations`: a new thread id; its Student says the conversation was
    /// begun anew when the student asked for one.
    pub fn new_conversation(&self, asked: &NewConversation) -> String {
        let id = a2a::wire::new_message_id();
        let thread = self.new_thread();
        if asked.begun_anew {
            thread.student.new_conversation();
        }
        lock(&self.threads).insert(id.clone(), thread);
        id
    }

    /// `POST /api/ag-ui/runs`: checks the input and starts the run; `Ok(true)` for a new
    /// run (202), `Ok(false)` for the same run posted again (200, nothing sent).
    pub fn start(self: &Arc<Self>, input: RunAgentInput) -> Result<bool, ApiError> {
        if !valid_id(&input.thread_id) {
            return Err(ApiError::invalid("threadId", "1 to 128 characters of A-Z, a-z, 0-9, _ and -"));
        }
        if input.thread_id == crate::notices::THREAD {
            return Err(ApiError::invalid("threadId", "this thread is the server's notices; use another id"));
        }
        if !valid_id(&input.run_id) {
            return Err(ApiError::invalid("runId", "1 to 128 characters of A-Z, a-z, 0-9, _ and -"));
        }
        if let Some(press) = crate::forms::press::read_press(input.forwarded_props.as_ref())? {
            return self.start_press(input.thread_id, input.run_id, press);
        }
        if let Some(check) = read_check(input.forwarded_props.as_ref())? {
            return self.start_check(input.thread_id, input.run_id, &check);
        }
        let Some(index) = input.messages.iter().rposition(|m| m.role == "user") else {
            return Err(ApiError::invalid("messages", "no user message: the question is the last one"));
        };
        let field = format!("messages[{index}].content");
        let text =
            input.last_user_text().ok_or_else(|| ApiError::invalid(&field, "the question must be text"))?;
        let question = student::chat::check_question(&text).map_err(|refused| {
            let message = match refused {
                student::chat::Refused::Empty => "the question is empty".to_string(),
                student::chat::Refused::TooLong { chars } => format!(
                    "the question is {chars} characters long; the limit is {}",
                    student::chat::MAX_QUESTION_CHARS
                ),
            };
            ApiError::invalid(&field, message)
        })?;
        let (thread_id, run_id) = (input.thread_id, input.run_id);
        let Some((student, _)) = self.claim(&thread_id, &run_id, |t| {
            t.uncertain = None;
            Ok(())
        })?
        else {
            return Ok(false);
        };
        let id = a2a::wire::new_message_id();
        self.begin(thread_id, run_id, student, question.to_string(), id, Asking::Question);
        Ok(true)
    }

    /// Takes the thread for a new run: `Ok(None)` for the same run posted again (nothing
    /// to do), 409 when the run id is another thread's or a run is active, 429 when too
    /// many are in flight. `check` looks at the thread first (a press checks its form);
    /// what it returns comes back with the thread's Student.
    fn claim<T>(
        &self,
        thread_id: &str,
        run_id: &str,
        check: impl FnOnce(&mut Thread) -> Result<T, ApiError>,
    ) -> Result<Option<(Arc<Student>, T)>, ApiError> {
        let mut run_ids = lock(&self.run_ids);
        if let Some(owner) = run_ids.get(&run_id.to_string()) {
            if owner == thread_id {
                return Ok(None);
            }
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "run_id_in_use",
                "this runId belongs to another conversation",
            ));
        }
        let mut threads = lock(&self.threads);
        if threads.get(&thread_id.to_string()).is_none() {
            threads.insert(thread_id.to_string(), self.new_thread());
        }
        let thread = threads.get_mut(&thread_id.to_string()).expect("inserted above");
        if thread.active.is_some() && thread.form.as_ref().is_some_and(|f| f.state == ViewState::Submitting) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "action_in_progress",
                "this form's last press has no answer yet",
            ));
        }
        if thread.active.is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                crate::error::run_codes::RUN_IN_PROGRESS,
                "a question in this conversation is still running; wait for its answer",
            ));
        }
        let checked = check(thread)?;
        if self.in_flight() >= MAX_ACTIVE {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "busy",
                "too many questions at once; try again shortly",
            ));
        }
        thread.active = Some(run_id.to_string());
        run_ids.insert(run_id.to_string(), thread_id.to_string());
        Ok(Some((thread.student.clone(), checked)))
    }

    /// Releases the thread a run held.
    fn release(&self, thread: &str, run_id: &str) {
        if let Some(t) = lock(&self.threads).get_mut(&thread.to_string())
            && t.active.as_deref() == Some(run_id)
        {
            t.active = None;
        }
    }

    /// Runs `f` on a thread's form (nothing when the thread is forgotten).
    fn with_form<R>(&self, thread: &str, f: impl FnOnce(&mut Option<FormView>) -> R) -> R {
        let mut threads = lock(&self.threads);
        match threads.get_mut(&thread.to_string()) {
            Some(t) => f(&mut t.form),
            None => f(&mut None),
        }
    }

    /// Emits the status (if it moved forward) and the changed hops as one `STATE_DELTA`.
    fn delta(&self, run: &Run, p: &Progress, status_changed: bool, hops: &[usize]) {
        let base = format!("/runs/{}", patch::token(&run.run_id));
        let mut ops = Vec::new();
        if status_changed {
            ops.push(patch::replace(&format!("{base}/status"), json!(p.status.name())));
        }
        for &i in hops {
            ops.push(patch::replace(&format!("{base}/hops/{i}"), json!(p.hops.0[i])));
        }
        if !ops.is_empty() {
            self.stream.emit(CHANNEL, &run.thread, &run.run_id, &[Event::state_delta(ops, now_ms())]);
        }
    }

    /// Applies `change` to a run still in flight and emits what changed.
    fn update(&self, run: &Run, change: impl FnOnce(&mut Progress) -> (bool, Vec<usize>)) {
        let mut p = run.lock();
        if p.finished {
            return;
        }
        let (status_changed, hops) = change(&mut p);
        self.delta(run, &p, status_changed, &hops);
        drop(p);
        run.changed.notify_one();
    }

    /// The Student's own telemetry, also shown on its console.
    fn record(&self, kind: StudentEventKind, data: &impl serde::Serialize) {
        let event = self.telemetry.emit(kind.as_str(), telemetry::Data::new(data));
        self.monitor.push(event);
    }

    /// One event from the Hub's feed (its own, or a specialist's relayed): moves the run
    /// it names, if one is in flight.
    pub fn on_hub_event(&self, event: &telemetry::Event) {
        let Some((about, feed)) = crate::feed::read(event) else { return };
        let mut active = lock(&self.active);
        let run = match about {
            About::Request(r) => active.by_request.get(&r),
            About::Action(op) => active.by_action.get(&op),
            About::Operation(op) => active.by_operation.get(&op),
        };
        let Some(run) = run.cloned() else { return };
        if let FeedEvent::Forwarded { operation_id, .. } | FeedEvent::ActionForwarded { operation_id, .. } =
            &feed
        {
            active.by_operation.insert(operation_id.clone(), run.clone());
        }
        drop(active);
        self.update(&run, |p| {
            let hops = p.hops.apply(&feed, Some(event.ts));
            // the Hub has the question (or the press): it was sent, whatever the client concludes
            let received = matches!(feed, FeedEvent::HubReceived | FeedEvent::ActionReceived);
            let moved = received && p.status == Status::Sending;
            if moved {
                p.status = Status::Waiting;
            }
            (moved, hops)
        });
    }
}

/// `forwardedProps.checkAnswer: {"runId": …}`: "Check for answer" on that run.
fn read_check(forwarded: Option<&Value>) -> Result<Option<String>, ApiError> {
    let Some(check) = forwarded.and_then(|f| f.get("checkAnswer")) else { return Ok(None) };
    match check.get("runId").and_then(Value::as_str) {
        Some(id) if valid_id(id) && check.as_object().is_some_and(|o| o.len() == 1) => {
            Ok(Some(id.to_string()))
        }
        _ => Err(ApiError::invalid("forwardedProps.checkAnswer", "is {runId} and nothing else")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(valid_id("run-1_A") && !valid_id("") && !valid_id("a b") && !valid_id(&"x".repeat(129)));
    }
}
