//! A question as a run: its opening events, the chat's fill of an open form, the
//! Student's own step, the ask to the Hub, and the run's end (final hops and status, the
//! reply and `RUN_FINISHED`, or `RUN_ERROR`); "Check for answer" asks again with the same
//! request id.

use std::sync::Arc;

/// Why nothing is filled in a booking under review.
const REVIEWING: &str = "the booking is at its review step; press Back to edit to change it";

use a2a::client::ClientError;
use agui::{Event, Role};
use axum::http::StatusCode;
use serde_json::{Value, json};
use student::{LocalReply, Prepared, Reply, Student};
use vocab::events::student::{Answered, Asked, Failed, StudentEventKind};
use vocab::meta::{OUTCOME_KEY, REQUEST_ID_KEY, SERVED_BY_KEY};

use crate::error::ApiError;
use crate::hops::{State, step};
use crate::now_ms;
use crate::runs::outcome::{Failure, HUB_UNAVAILABLE, OUTCOME_UNKNOWN, Status, classify};
use crate::runs::{Asking, Run, Runs, lock};
use crate::stream::STUDENT_CHANNEL as CHANNEL;

/// A run that ended well: its reply text, its result, when the Student received the
/// reply, and the events that follow the text (a form's snapshots).
pub(super) type Finished = (String, Value, i64, Vec<Event>);

impl Runs {
    /// "Check for answer" on a run whose outcome is unknown: a new run that asks again
    /// with the SAME request id and question, so the Hub's ledger (and the specialist's
    /// dedupe) return the stored or in-flight answer rather than asking a second time.
    pub(super) fn start_check(
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
        self.begin(thread_id, run_id, student, question, request_id, Asking::Check(check.to_string()));
        Ok(true)
    }

    /// Starts a claimed run: its opening events, then the question on its own task.
    /// `asking` says what it is: a new question, a check of an unknown run (the question
    /// is not shown again), or a follow-up button's question.
    pub(super) fn begin(
        self: &Arc<Self>,
        thread_id: String,
        run_id: String,
        student: Arc<Student>,
        question: String,
        request_id: String,
        asking: Asking,
    ) {
        let run = Run::new(thread_id, run_id, request_id.clone(), question.clone());
        lock(&self.active).by_request.insert(request_id, run.clone());
        // the opening events go out before the 202, so a page that posts sees them next
        let ts = now_ms();
        let checks = match &asking {
            Asking::Check(run) => Some(run.clone()),
            _ => None,
        };
        let asked = json!({"question": question, "requestId": run.request_id, "checks": checks});
        let mut events = vec![
            Event::run_started(&run.thread, &run.run_id, ts),
            run.opening(student.conversation(), asked, ts),
        ];
        if checks.is_none() {
            events.extend(Event::text_message(&format!("{}:q", run.run_id), Role::User, &question, ts));
        }
        self.stream.emit(CHANNEL, &run.thread, &run.run_id, &events);
        let runs = self.clone();
        tokio::spawn(async move { runs.execute(run, student, question, asking).await });
    }

    /// Remembers a run whose outcome is unknown, for "Check for answer".
    fn keep_uncertain(&self, run: &Run, sent: Option<&String>) {
        if let Some(t) = lock(&self.threads).get_mut(&run.thread) {
            let question = sent.unwrap_or(&run.question).clone();
            t.uncertain = Some((run.run_id.clone(), run.request_id.clone(), question));
        }
    }

    /// Runs a question: a form's fill from the chat, the Student's own step (not when
    /// checking an unknown outcome: that asks exactly what was sent), then the Hub. A
    /// follow-up button's question is neither read for the form nor stepped: it goes as
    /// the button wrote it, naming its form.
    async fn execute(
        self: Arc<Self>,
        run: Arc<Run>,
        student: Arc<Student>,
        question: String,
        asking: Asking,
    ) {
        // a form open here: the message fills what it can first; only the rest is asked
        let question = match asking {
            Asking::Question => match self.fill_from_chat(&run, &question) {
                Some(rest) => rest,
                None => return,
            },
            _ => question,
        };
        let prepared = match asking {
            Asking::Question => student.prepare(&question).await,
            _ => Ok(Prepared::Send { text: question, step: None }),
        };
        let (question, own_step) = match prepared {
            Ok(Prepared::Send { text, step }) => (text, step),
            Ok(Prepared::Local(reply)) => return self.answer_locally(&run, reply),
            Err(e) => return self.failed(&run, &e),
        };
        let asked = Asked {
            request_id: run.request_id.as_str().into(),
            thread_id: run.thread.as_str().into(),
            run_id: run.run_id.as_str().into(),
        };
        self.record(StudentEventKind::RequestSent, &asked);
        let step_json = own_step.as_ref().map(student::Step::to_json);
        self.update(&run, |p| {
            p.sent = Some(question.clone());
            (false, p.hops.set(step::STUDENT_SENT, State::Done, Some(now_ms()), None))
        });
        let result = match &asking {
            Asking::FollowUp(form_ref) => student.send_follow_up(&question, &run.request_id, form_ref).await,
            _ => student.send_question(&question, &run.request_id, own_step).await,
        };
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
                let answered = Answered {
                    request_id: run.request_id.as_str().into(),
                    message_id: ex.reply_message_id.as_str().into(),
                    outcome: ex.outcome.as_deref().map(Into::into),
                    served_by: ex.attribution.as_ref().and_then(|a| a.get("id")?.as_str()).map(Into::into),
                };
                self.record(StudentEventKind::ReplyReceived, &answered);
                run.await_feed().await;
                let mut result = json!({SERVED_BY_KEY: ex.attribution, OUTCOME_KEY: ex.outcome, REQUEST_ID_KEY: run.request_id});
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
        let failed = Failed { request_id: run.request_id.as_str().into(), code: code.into() };
        self.record(StudentEventKind::RequestFailed, &failed);
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
        let result = json!({SERVED_BY_KEY: null, OUTCOME_KEY: outcome, REQUEST_ID_KEY: run.request_id,
            "studentStep": reply.step.to_json()});
        self.finish(run, Ok((reply.labelled(), result, now_ms(), Vec::new())));
    }

    /// Ends a run: final hops and status, then the reply and `RUN_FINISHED`, or `RUN_ERROR`.
    /// `Ok` carries the reply, the run's result, when the Student received the reply and
    /// the events that follow the reply's text (a form's snapshots).
    fn finish(&self, run: &Run, outcome: Result<Finished, Failure>) {
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
        lock(&self.active).forget(run);
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
            let mut filling = forms::fill::fill_from_chat(workflow, question, &now);
            // a booking under review shows what its agent holds: the chat changes nothing
            // there (the note says how to change it), so the review never contradicts it
            if view.reviewing() {
                let held = std::mem::take(&mut filling.filled);
                filling.not_filled.extend(held.into_iter().map(|(field, _)| (field, REVIEWING.to_string())));
            }
            view.place_dates(&mut filling, question);
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
        let result = json!({SERVED_BY_KEY: null, OUTCOME_KEY: "filled", REQUEST_ID_KEY: run.request_id});
        self.finish(run, Ok((note, result, now_ms(), Vec::new())));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::monitor::Monitor;
    use crate::runs::Runs;
    use crate::stream::Stream;
    use a2a::client::A2aClient;
    use agui::RunAgentInput;
    use std::time::Duration;
    use telemetry::Telemetry;

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
        assert!(
            finished["timestamp"].as_i64().unwrap() - replied
                >= crate::runs::FEED_GRACE.as_millis() as i64 - 50
        );
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
        let received =
            json!({"messageId": "m", "contextId": "c", "requestId": run.request_id, "textChars": 15});
        runs.on_hub_event(&hub.emit("message_received", received));
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
