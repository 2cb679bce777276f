//! Questions as AG-UI runs: `POST /api/ag-ui/runs` starts one, the hosted Student asks the
//! Hub, and the run's events (its state, the hop strip, the reply) go on the stream.
//!
//! Honest states: `sending` → `waiting` (only once the Hub's feed reported
//! `message_received` for this request id) → `completed` | `failed` | `unknown`; a status
//! never moves backwards and a finished run never changes. Only a POST sends anything; a
//! run is never retried by the server.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use a2a::client::{A2aClient, ClientError};
use agui::{Event, Role, RunAgentInput, patch};
use axum::http::StatusCode;
use bounded::BoundedMap;
use serde::Deserialize;
use serde_json::{Value, json};
use student::{ActionOutcome, FormReply, LocalReply, Prepared, Reply, Student};
use telemetry::Telemetry;
use tokio::sync::Notify;

use crate::error::ApiError;
use crate::forms::press::Press;
use crate::forms::{FormState, FormView};
use crate::hops::{Hops, State, step};
use crate::monitor::Monitor;
use crate::now_ms;
use crate::stream::{STUDENT_CHANNEL as CHANNEL, Stream};

/// Conversations remembered (the oldest is forgotten past this).
const THREADS: usize = 1024;
/// Run ids remembered for idempotent retries.
const RUN_IDS: usize = 4096;
/// Runs in flight at once, over every conversation.
pub const MAX_ACTIVE: usize = 64;
/// How long a run waits, after the reply, for the Hub's feed to report it.
const FEED_GRACE: Duration = Duration::from_secs(2);

/// A run that ended well: its reply text, its result, when the Student received the
/// reply, and the events that follow the text (a form's snapshots).
type Finished = (String, Value, i64, Vec<Event>);

/// Where a run is. The order is the only way it may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Sending,
    Waiting,
    Completed,
    Failed,
    Unknown,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Sending => "sending",
            Status::Waiting => "waiting",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Unknown => "unknown",
        }
    }

    fn terminal(self) -> bool {
        self >= Status::Completed
    }
}

struct Thread {
    student: Arc<Student>,
    active: Option<String>,
    /// The form open in this conversation (or the last one, closed), as the page draws it.
    form: Option<FormView>,
    /// The last run whose outcome is unknown (run id, request id, question): "Check for
    /// answer" asks again with its request id. Any later run in the thread replaces it.
    uncertain: Option<(String, String, String)>,
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
    fn lock(&self) -> MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[derive(Default)]
struct Active {
    by_request: HashMap<String, Arc<Run>>,
    /// The Hub's operation id of a forward → its request id (while the run is active).
    by_operation: HashMap<String, String>,
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
    presses: std::sync::atomic::AtomicUsize,
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

/// The body of `POST /api/ui/conversations`: `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewConversation {}

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
            presses: std::sync::atomic::AtomicUsize::new(0),
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
        lock(&self.active).by_request.len() + self.presses.load(std::sync::atomic::Ordering::SeqCst)
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

    /// `POST /api/ui/conversations`: a new thread id.
    pub fn new_conversation(&self) -> String {
        let id = a2a::wire::new_message_id();
        lock(&self.threads).insert(id.clone(), self.new_thread());
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
        self.begin(thread_id, run_id, student, question.to_string(), a2a::wire::new_message_id(), None);
        Ok(true)
    }

    /// "Check for answer" on a run whose outcome is unknown: a new run that asks again
    /// with the SAME request id and question, so the Hub's ledger (and the specialist's
    /// dedupe) return the stored or in-flight answer rather than asking a second time.
    fn start_check(
        self: &Arc<Self>,
        thread_id: String,
        run_id: String,
        check: &str,
    ) -> Result<bool, ApiError> {
        let claimed = self.claim(&thread_id, &run_id, |t| match t.uncertain.take() {
            Some((run, request, question)) if run == check => Ok((request, question)),
            other => {
                t.uncertain = other;
                Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "nothing_to_check",
                    "that run is not the conversation's last run with an unknown outcome",
                ))
            }
        })?;
        let Some((student, (request_id, question))) = claimed else { return Ok(false) };
        self.begin(thread_id, run_id, student, question, request_id, Some(check.to_string()));
        Ok(true)
    }

    /// Starts a claimed run: its opening events, then the question on its own task.
    /// `checks` names the unknown run this one checks (the question is not shown again).
    fn begin(
        self: &Arc<Self>,
        thread_id: String,
        run_id: String,
        student: Arc<Student>,
        question: String,
        request_id: String,
        checks: Option<String>,
    ) {
        let run = Arc::new(Run {
            thread: thread_id,
            run_id,
            request_id: request_id.clone(),
            question: question.clone(),
            progress: Mutex::new(Progress {
                status: Status::Sending,
                hops: Hops::default(),
                finished: false,
                sent: None,
            }),
            changed: Notify::new(),
        });
        lock(&self.active).by_request.insert(request_id, run.clone());
        // the opening events go out before the 202, so a page that posts sees them next
        let ts = now_ms();
        let snapshot = json!({
            "threadId": run.thread,
            "conversationId": student.conversation(),
            "runs": {&run.run_id: {
                "status": Status::Sending.name(),
                "question": question,
                "requestId": run.request_id,
                "checks": checks,
                "startedAt": ts,
                "hops": run.lock().hops,
            }},
        });
        let mut events =
            vec![Event::run_started(&run.thread, &run.run_id, ts), Event::state_snapshot(snapshot, ts)];
        if checks.is_none() {
            events.extend(Event::text_message(&format!("{}:q", run.run_id), Role::User, &question, ts));
        }
        self.stream.emit(CHANNEL, &run.thread, &run.run_id, &events);
        let runs = self.clone();
        let checking = checks.is_some();
        tokio::spawn(async move { runs.execute(run, student, question, checking).await });
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
        if thread.active.is_some() && thread.form.as_ref().is_some_and(|f| f.state == FormState::Submitting) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "action_in_progress",
                "this form's last press has no answer yet",
            ));
        }
        if thread.active.is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "run_in_progress",
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

    /// Remembers a run whose outcome is unknown, for "Check for answer".
    fn keep_uncertain(&self, run: &Run, sent: Option<&String>) {
        if let Some(t) = lock(&self.threads).get_mut(&run.thread) {
            let question = sent.unwrap_or(&run.question).clone();
            t.uncertain = Some((run.run_id.clone(), run.request_id.clone(), question));
        }
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

    /// A press on a form (`forwardedProps.a2uiAction`): checked against the thread's form
    /// before anything is sent, then sent once by the Student; the run carries the form's
    /// snapshots (submitting, then what came of it).
    fn start_press(
        self: &Arc<Self>,
        thread_id: String,
        run_id: String,
        press: Press,
    ) -> Result<bool, ApiError> {
        let today = forms::in_demo_tz(jiff::Timestamp::now()).date();
        let claimed = self.claim(&thread_id, &run_id, |thread| {
            let Some(view) = thread.form.as_mut() else {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "form_unknown",
                    "this conversation has no such form open",
                ));
            };
            let action = view.check_action(&press, today)?;
            let before = view.state;
            view.submitting(&press.operation_id);
            Ok((action, before, view.snapshot(now_ms())))
        })?;
        let Some((student, (action, before, snapshot))) = claimed else { return Ok(false) };
        self.presses.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let ts = now_ms();
        self.stream.emit(
            CHANNEL,
            &thread_id,
            &run_id,
            &[Event::run_started(&thread_id, &run_id, ts), snapshot],
        );
        let runs = self.clone();
        tokio::spawn(
            async move { runs.execute_press(thread_id, run_id, student, press, action, before).await },
        );
        Ok(true)
    }

    async fn execute_press(
        self: Arc<Self>,
        thread: String,
        run_id: String,
        student: Arc<Student>,
        press: Press,
        action: Value,
        before: FormState,
    ) {
        let ids = json!({"formRef": press.form_ref, "operationId": press.operation_id, "threadId": thread, "runId": run_id});
        self.record("action_sent", ids);
        let outcome = student.act(&press.form_ref, &press.operation_id, action.clone()).await;
        let carried = action.get("context").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut text = None;
        let (snapshot, state) = self
            .with_form(&thread, |form| {
                let view = form.as_mut()?;
                match &outcome {
                    ActionOutcome::NotDelivered { reason } => view.not_delivered(reason),
                    ActionOutcome::Uncertain { reason } => view.uncertain(action.clone(), reason),
                    ActionOutcome::Updated(f) | ActionOutcome::Rejected(f) => view.apply(f, Some(&carried)),
                    ActionOutcome::Submitted(f) | ActionOutcome::Cancelled(f) => {
                        view.apply(f, None);
                        text = Some(f.text.clone()).filter(|t| !t.is_empty());
                    }
                    ActionOutcome::Refused { code, message } => view.refused(before, code, message),
                }
                Some((view.snapshot(now_ms()), view.state.name()))
            })
            .unzip();
        let state = state.unwrap_or("superseded");
        self.record(
            "action_result",
            json!({"formRef": press.form_ref, "operationId": press.operation_id, "state": state}),
        );
        let now = now_ms();
        let mut events: Vec<Event> = snapshot.into_iter().collect();
        if let Some(text) = text {
            events.extend(Event::text_message(&format!("{run_id}:a"), Role::Assistant, &text, now));
        }
        let result = json!({"formRef": press.form_ref, "operationId": press.operation_id, "outcome": state});
        events.push(Event::run_finished(&thread, &run_id, Some(result), now));
        self.stream.emit(CHANNEL, &thread, &run_id, &events);
        self.presses.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.release(&thread, &run_id);
    }

    /// A form the Hub's reply carried: opened (superseding the conversation's other open
    /// form) or applied to the open one; the snapshots to emit.
    fn take_form(&self, thread: &str, reply: &FormReply) -> Vec<Event> {
        self.with_form(thread, |form| {
            let mut events = Vec::new();
            let same = form.as_ref().is_some_and(|v| v.form_ref == reply.form_ref);
            if same {
                let view = form.as_mut().expect("checked");
                view.apply(reply, None);
                events.push(view.snapshot(now_ms()));
            } else if let Some(mut new) = FormView::open(reply) {
                if let Some(old) = form.as_mut().filter(|v| !v.state.closed()) {
                    old.carry_into(&mut new);
                    old.supersede();
                    events.push(old.snapshot(now_ms()));
                }
                events.push(new.snapshot(now_ms()));
                *form = Some(new);
            }
            events
        })
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
    fn record(&self, kind: &str, data: Value) {
        let event = self.telemetry.emit(kind, data);
        self.monitor.push(event);
    }

    /// Runs a question: a form's fill from the chat, the Student's own step (not when
    /// `checking` an unknown outcome: that asks exactly what was sent), then the Hub.
    async fn execute(
        self: Arc<Self>,
        run: Arc<Run>,
        student: Arc<Student>,
        question: String,
        checking: bool,
    ) {
        // a form open here: the message fills what it can first; only the rest is asked
        let Some(question) = self.fill_from_chat(&run, &question) else {
            return;
        };
        let prepared = match checking {
            true => Ok(Prepared::Send { text: question, step: None }),
            false => student.prepare(&question).await,
        };
        let (question, own_step) = match prepared {
            Ok(Prepared::Send { text, step }) => (text, step),
            Ok(Prepared::Local(reply)) => return self.answer_locally(&run, reply),
            Err(e) => return self.failed(&run, &e),
        };
        let ids = json!({"requestId": run.request_id, "threadId": run.thread, "runId": run.run_id});
        self.record("request_sent", ids.clone());
        let step_json = own_step.as_ref().map(student::Step::to_json);
        self.update(&run, |p| {
            p.sent = Some(question.clone());
            (false, p.hops.set(step::STUDENT_SENT, State::Done, Some(now_ms()), None))
        });
        let result = student.send_question(&question, &run.request_id, own_step).await;
        match result {
            Ok(mut ex) => {
                // a form is drawn after the words that offer it
                let mut form_events = Vec::new();
                match &ex.reply {
                    Reply::Form(form) => form_events = self.take_form(&run.thread, form),
                    Reply::Refused(r) => {
                        ex.reply_text.push_str(&format!(
                            "\n(A form came with this answer but failed the page's safety checks ({}), so it is not shown.)",
                            r.code
                        ));
                    }
                    Reply::Answer => {}
                }
                // the Student received it now, whatever the wait for the feed adds below
                let received_at = now_ms();
                self.record(
                    "reply_received",
                    json!({"requestId": run.request_id, "messageId": ex.reply_message_id, "outcome": ex.outcome, "servedBy": ex.attribution.as_ref().and_then(|a| a.get("id"))}),
                );
                // the feed reports the last hops a moment after the reply itself (the
                // specialist's relayed events come the longest way): wait for them a little
                let deadline = tokio::time::Instant::now() + FEED_GRACE;
                while !run.lock().hops.settled_before(step::STUDENT_RECEIVED) {
                    if tokio::time::timeout_at(deadline, run.changed.notified()).await.is_err() {
                        break;
                    }
                }
                let mut result =
                    json!({"servedBy": ex.attribution, "outcome": ex.outcome, "requestId": run.request_id});
                if let Some(step) = step_json {
                    result["studentStep"] = step;
                }
                self.finish(&run, Ok((ex.reply_text, result, received_at, form_events)));
            }
            Err(e) => self.failed(&run, &e),
        }
    }

    /// A question that could not be asked: `RUN_ERROR` with its code.
    fn failed(&self, run: &Run, e: &ClientError) {
        let (code, status, message) = classify(e);
        tracing::warn!(request_id = %run.request_id, code, error = %e, "question failed");
        self.record("request_failed", json!({"requestId": run.request_id, "code": code}));
        self.finish(run, Err((code, status, message)));
    }

    /// Marks the run's steps skipped: the Student sent nothing, for `reason`.
    fn nothing_sent(&self, run: &Run, reason: &str) {
        self.update(run, |p| {
            let mut hops = p.hops.set(step::STUDENT_SENT, State::Skipped, None, Some(reason.into()));
            hops.extend(p.hops.nothing_sent(reason));
            (false, hops)
        });
    }

    /// The Student's own model answered (a clarifying question, or "not offered"): the
    /// reply, labelled, ends the run; nothing was sent.
    fn answer_locally(&self, run: &Run, reply: LocalReply) {
        self.nothing_sent(run, "answered by the Student's own model; nothing was sent");
        let outcome = format!("student_{}", reply.step.outcome);
        let result = json!({"servedBy": null, "outcome": outcome, "requestId": run.request_id,
            "studentStep": reply.step.to_json()});
        self.finish(run, Ok((reply.labelled(), result, now_ms(), Vec::new())));
    }

    /// Ends a run: final hops and status, then the reply and `RUN_FINISHED`, or `RUN_ERROR`.
    /// `Ok` carries the reply, the run's result, when the Student received the reply and
    /// the events that follow the reply's text (a form's snapshots).
    fn finish(&self, run: &Run, outcome: Result<Finished, (&'static str, Status, &'static str)>) {
        {
            let mut p = run.lock();
            let now = now_ms();
            // the Hub's feed said it received the question: it was sent, whatever the
            // client concluded from its side of the connection
            let outcome = match outcome {
                Err(e) if e.0 == HUB_UNAVAILABLE.0 && p.status >= Status::Waiting => Err(OUTCOME_UNKNOWN),
                other => other,
            };
            let mut hops = Vec::new();
            let status = match &outcome {
                Ok((_, _, received_at, _)) => {
                    hops.extend(p.hops.set(step::STUDENT_RECEIVED, State::Done, Some(*received_at), None));
                    Status::Completed
                }
                Err((code, status, _)) => {
                    if *code == HUB_UNAVAILABLE.0 {
                        hops.extend(p.hops.nothing_sent("the Hub could not be reached; nothing was sent"));
                    }
                    let state = if *status == Status::Unknown { State::Unknown } else { State::Failed };
                    hops.extend(p.hops.set(step::STUDENT_RECEIVED, state, Some(now), Some((*code).into())));
                    *status
                }
            };
            hops.extend(p.hops.finish());
            hops.sort_unstable();
            hops.dedup();
            let moved = status > p.status && !p.status.terminal();
            if moved {
                p.status = status;
            }
            // kept before anyone hears of the run's end, so a check can follow at once
            if p.status == Status::Unknown {
                self.keep_uncertain(run, p.sent.as_ref());
            }
            self.delta(run, &p, moved, &hops);
            let mut events = Vec::new();
            match outcome {
                Ok((text, result, _, after)) => {
                    events.extend(Event::text_message(
                        &format!("{}:a", run.run_id),
                        Role::Assistant,
                        &text,
                        now,
                    ));
                    events.extend(after);
                    events.push(Event::run_finished(&run.thread, &run.run_id, Some(result), now));
                }
                Err((code, _, message)) => events.push(Event::run_error(code, message, now)),
            }
            self.stream.emit(CHANNEL, &run.thread, &run.run_id, &events);
            p.finished = true;
        }
        let mut active = lock(&self.active);
        active.by_request.remove(&run.request_id);
        active.by_operation.retain(|_, request| *request != run.request_id);
        drop(active);
        self.release(&run.thread, &run.run_id);
    }

    /// Chat-filling: with a form open and editable in this conversation, the message is
    /// read for its fields first; what the form's rules take is filled (a new snapshot),
    /// a note says what was and was not. Returns what is left to ask the Hub, or `None`
    /// when nothing is (the run is then finished here: nothing was sent).
    fn fill_from_chat(&self, run: &Run, question: &str) -> Option<String> {
        let now = forms::in_demo_tz(jiff::Timestamp::now());
        let filled = self.with_form(&run.thread, |form| {
            let view = form.as_mut().filter(|v| v.state.fillable())?;
            let workflow = forms::Workflow::from_id(&view.workflow)?;
            let filling = forms::fill::fill_from_chat(workflow, question, &now);
            let note = filling.note()?;
            view.fill(&filling.filled);
            Some((view.snapshot(now_ms()), note, filling.rest))
        });
        let Some((snapshot, note, rest)) = filled else { return Some(question.to_string()) };
        self.stream.emit(CHANNEL, &run.thread, &run.run_id, &[snapshot]);
        if !rest.is_empty() {
            let ts = now_ms();
            let note = Event::text_message(&format!("{}:f", run.run_id), Role::Assistant, &note, ts);
            self.stream.emit(CHANNEL, &run.thread, &run.run_id, &note);
            return Some(rest);
        }
        self.nothing_sent(run, "filled in the form from the chat; nothing was sent");
        let result = json!({"servedBy": null, "outcome": "filled", "requestId": run.request_id});
        self.finish(run, Ok((note, result, now_ms(), Vec::new())));
        None
    }

    /// One event from the Hub's feed (its own, or a specialist's relayed): moves the run
    /// it names, if one is in flight.
    pub fn on_hub_event(&self, event: &telemetry::Event) {
        if !matches!(
            event.kind.as_str(),
            "message_received"
                | "routed"
                | "forwarded"
                | "specialist_replied"
                | "forward_failed"
                | "reply_published"
        ) {
            return;
        }
        let data = event.data.value();
        let text = |k: &str| data.get(k).and_then(Value::as_str).map(str::to_owned);
        let at = Some(event.ts);
        let active = lock(&self.active);
        let request = match &event.relayed_from {
            Some(_) => text("operationId").and_then(|op| active.by_operation.get(&op).cloned()),
            None => text("requestId"),
        };
        let Some(run) = request.and_then(|r| active.by_request.get(&r).cloned()) else { return };
        drop(active);
        match (event.relayed_from.is_some(), event.kind.as_str()) {
            (false, "message_received") => self.update(&run, |p| {
                let hops = p.hops.set(step::HUB_RECEIVED, State::Done, at, None);
                let moved = p.status == Status::Sending;
                if moved {
                    p.status = Status::Waiting;
                }
                (moved, hops)
            }),
            (false, "routed") => {
                let decision = data.get("decision").cloned().unwrap_or(Value::Null);
                let kind = decision.get("kind").and_then(Value::as_str).unwrap_or("unknown").to_string();
                let specialist = decision.get("specialist").and_then(Value::as_str).map(str::to_owned);
                self.update(&run, |p| {
                    let mut hops = p.hops.set(step::HUB_DECIDED, State::Done, at, Some(kind.clone()));
                    match (kind.as_str(), specialist) {
                        ("route", Some(s)) => hops.extend(p.hops.name_specialist(&s)),
                        _ => hops.extend(p.hops.skip_specialist(&format!("Hub answered itself ({kind})"))),
                    }
                    hops.sort_unstable();
                    hops.dedup();
                    (false, hops)
                });
            }
            (false, "forwarded") => {
                if let Some(op) = text("operationId") {
                    lock(&self.active).by_operation.insert(op, run.request_id.clone());
                }
                let specialist = text("specialist");
                self.update(&run, |p| {
                    let mut hops = p.hops.set(step::HUB_FORWARDED, State::Done, at, None);
                    if let Some(s) = specialist {
                        hops.extend(p.hops.name_specialist(&s));
                    }
                    hops.sort_unstable();
                    hops.dedup();
                    (false, hops)
                });
            }
            (false, "specialist_replied") => {
                self.update(&run, |p| (false, p.hops.set(step::HUB_GOT_ANSWER, State::Done, at, None)))
            }
            (false, "forward_failed") => {
                let reason = text("reason").unwrap_or_else(|| "failed".into());
                let specialist = text("specialist").unwrap_or_else(|| "the specialist".into());
                self.update(&run, |p| match reason.as_str() {
                    // the Hub could not reach it: the specialist's steps never happened
                    "unreachable" => (
                        false,
                        p.hops.not_delivered(
                            &format!("{specialist} could not be reached; the question never arrived"),
                            at,
                            &format!("{specialist} unreachable"),
                        ),
                    ),
                    // sent, no proper answer: whether the specialist saw it is not known
                    "outcome_unknown" => {
                        (false, p.hops.set(step::HUB_GOT_ANSWER, State::Unknown, at, Some(reason)))
                    }
                    _ => (false, p.hops.set(step::HUB_GOT_ANSWER, State::Failed, at, Some(reason))),
                })
            }
            (false, "reply_published") => {
                let outcome = text("outcome").unwrap_or_default();
                self.update(&run, |p| {
                    let mut hops = Vec::new();
                    // routed, then found unavailable before any forward: the Hub answered itself
                    if outcome == "unavailable"
                        && matches!(p.hops.state(step::HUB_FORWARDED), State::Pending | State::Active)
                    {
                        hops.extend(p.hops.skip_specialist("Hub answered itself (unavailable)"));
                    }
                    hops.extend(p.hops.set(step::HUB_REPLIED, State::Done, at, None));
                    hops.sort_unstable();
                    hops.dedup();
                    (false, hops)
                })
            }
            (true, "message_received") => {
                self.update(&run, |p| (false, p.hops.set(step::SPECIALIST_RECEIVED, State::Done, at, None)))
            }
            (true, "reply_published") => {
                self.update(&run, |p| (false, p.hops.set(step::SPECIALIST_REPLIED, State::Done, at, None)))
            }
            _ => {}
        }
    }
}

/// A failed ask: (code, status, message for the page). Only an ask that certainly never
/// reached the Hub is "nothing was sent"; a connection that broke after the question went
/// out, or no answer in time, leaves the outcome unknown.
fn classify(e: &ClientError) -> (&'static str, Status, &'static str) {
    if e.nothing_sent() {
        return HUB_UNAVAILABLE;
    }
    match e {
        ClientError::Timeout { .. } => (
            "timeout",
            Status::Unknown,
            "no answer from the hub in time; it may still have handled the question",
        ),
        ClientError::Broken { .. } => OUTCOME_UNKNOWN,
        _ => ("hub_error", Status::Failed, "the hub answered with an error"),
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

/// The Hub was never reached: nothing was sent.
const HUB_UNAVAILABLE: (&str, Status, &str) =
    ("hub_unavailable", Status::Failed, "the hub could not be reached; nothing was sent");
/// The question went out and no answer came back: whether it was handled is not known.
const OUTCOME_UNKNOWN: (&str, Status, &str) = (
    "outcome_unknown",
    Status::Unknown,
    "the connection to the hub broke after the question was sent; it may still have handled it",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_statuses() {
        assert!(valid_id("run-1_A") && !valid_id("") && !valid_id("a b") && !valid_id(&"x".repeat(129)));
        assert!(Status::Sending < Status::Waiting && Status::Waiting < Status::Completed);
        assert!(Status::Unknown.terminal() && !Status::Waiting.terminal());
        let (code, status, _) = classify(&ClientError::Refused { url: "u".into() });
        assert_eq!((code, status), ("hub_unavailable", Status::Failed));
        let broken = ClientError::Broken { url: "u".into(), reason: "the connection broke".into() };
        let (code, status, _) = classify(&broken);
        assert_eq!(
            (code, status),
            ("outcome_unknown", Status::Unknown),
            "sent, then broken: not nothing sent"
        );
        let timeout = ClientError::Timeout { url: "u".into(), after: Duration::from_secs(1) };
        assert_eq!(classify(&timeout).1, Status::Unknown);
    }

    /// A Hub that answers every question at once, or (`hang`) never.
    struct FakeHub {
        hang: bool,
        replied_at: Arc<std::sync::atomic::AtomicI64>,
    }

    impl a2a::server::AgentExecutor for FakeHub {
        async fn execute(
            &self,
            _ctx: a2a::server::RequestContext,
        ) -> Result<a2a::server::Reply, a2a::RpcError> {
            if self.hang {
                std::future::pending::<()>().await;
            }
            self.replied_at.store(now_ms(), std::sync::atomic::Ordering::SeqCst);
            Ok(a2a::server::Reply::text("an answer"))
        }
    }

    /// A UI server's runs asking a fake Hub (no telemetry feed follows it).
    async fn runs_with_fake_hub(hang: bool) -> (Arc<Runs>, Stream, Arc<std::sync::atomic::AtomicI64>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let replied_at = Arc::new(std::sync::atomic::AtomicI64::new(0));
        let cell = a2a::server::CardCell::new(a2a::CardDoc::new(a2a::basic_card("Hub", "hub", &base)));
        let hub = FakeHub { hang, replied_at: replied_at.clone() };
        let app = a2a::server::A2aServer::new(hub, cell).router();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let stream = Stream::new("b".into());
        let monitor = Arc::new(Monitor::new(stream.clone()));
        let runs = Runs::new(stream.clone(), monitor, A2aClient::default(), base, Telemetry::new("student"));
        (Arc::new(runs), stream, replied_at)
    }

    fn input(thread: &str, run: &str) -> RunAgentInput {
        serde_json::from_value(json!({
            "threadId": thread, "runId": run, "state": {}, "tools": [], "context": [],
            "messages": [{"id": "m1", "role": "user", "content": "what is a limit"}],
        }))
        .unwrap()
    }

    /// The student frames' events of `run`, once it ended (polled, 10 s at most).
    async fn ended(stream: &Stream, run: &str) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let events: Vec<Value> = stream
                .kept_json()
                .into_iter()
                .filter(|f| f["channel"] == CHANNEL)
                .map(|f| f["event"].clone())
                .collect();
            if events.iter().any(|e| matches!(e["type"].as_str(), Some("RUN_FINISHED" | "RUN_ERROR"))) {
                return events;
            }
            assert!(tokio::time::Instant::now() < deadline, "run {run} did not end: {events:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The hops of `run` after every snapshot and delta.
    fn final_hops(events: &[Value], run: &str) -> Vec<Value> {
        let mut state = Value::Null;
        for e in events {
            match e["type"].as_str() {
                Some("STATE_SNAPSHOT") => state = e["snapshot"].clone(),
                Some("STATE_DELTA") => {
                    for op in e["delta"].as_array().unwrap() {
                        let path: Vec<&str> = op["path"].as_str().unwrap().split('/').skip(1).collect();
                        let mut at = &mut state;
                        for key in &path[..path.len() - 1] {
                            at = match at {
                                Value::Array(a) => &mut a[key.parse::<usize>().unwrap()],
                                v => &mut v[*key],
                            };
                        }
                        let last = path[path.len() - 1];
                        match at {
                            Value::Array(a) => a[last.parse::<usize>().unwrap()] = op["value"].clone(),
                            v => v[last] = op["value"].clone(),
                        }
                    }
                }
                _ => {}
            }
        }
        state["runs"][run]["hops"].as_array().unwrap().clone()
    }

    #[tokio::test]
    async fn student_received_is_stamped_when_the_reply_came_not_after_the_feed_grace() {
        let (runs, stream, replied_at) = runs_with_fake_hub(false).await;
        assert!(runs.start(input("t", "r")).unwrap());
        let events = ended(&stream, "r").await;
        let finished = events.iter().find(|e| e["type"] == "RUN_FINISHED").expect("completed");
        let hops = final_hops(&events, "r");
        let received = hops[step::STUDENT_RECEIVED]["at"].as_i64().unwrap();
        let replied = replied_at.load(std::sync::atomic::Ordering::SeqCst);
        // no feed follows the fake Hub: the run waited the whole grace for the missing hops
        assert!(finished["timestamp"].as_i64().unwrap() - replied >= FEED_GRACE.as_millis() as i64 - 50);
        assert!(
            (replied..replied + 1000).contains(&received),
            "stamped {}ms after the Hub replied",
            received - replied
        );
    }

    #[tokio::test]
    async fn a_run_the_hub_reported_receiving_never_ends_as_nothing_sent() {
        let (runs, stream, _) = runs_with_fake_hub(true).await;
        assert!(runs.start(input("t", "r")).unwrap());
        let run = lock(&runs.active).by_request.values().next().unwrap().clone();
        while run.lock().hops.state(step::STUDENT_SENT) != State::Done {
            run.changed.notified().await;
        }
        let hub = Telemetry::new("hub");
        runs.on_hub_event(&hub.emit("message_received", json!({"requestId": run.request_id})));
        assert_eq!(run.lock().status, Status::Waiting);
        // the client saw no connection (as a connect error would say): the feed knows better
        runs.finish(&run, Err(HUB_UNAVAILABLE));
        let events = ended(&stream, "r").await;
        let error = events.iter().find(|e| e["type"] == "RUN_ERROR").unwrap();
        assert_eq!(error["code"], "outcome_unknown");
        let hops = final_hops(&events, "r");
        let states: Vec<&str> = hops.iter().map(|h| h["state"].as_str().unwrap()).collect();
        assert_eq!(
            states,
            ["done", "done", "unknown", "unknown", "unknown", "unknown", "unknown", "unknown", "unknown"]
        );
        assert!(hops.iter().all(|h| !h["reason"].as_str().unwrap_or("").contains("nothing was sent")));
        let statuses: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "STATE_DELTA")
            .flat_map(|e| e["delta"].as_array().unwrap())
            .filter(|op| op["path"].as_str().unwrap().ends_with("/status"))
            .map(|op| &op["value"])
            .collect();
        assert_eq!(statuses, [&json!("waiting"), &json!("unknown")]);
    }
}
