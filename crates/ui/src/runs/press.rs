//! A press on a form as a run (`forwardedProps.a2uiAction`): checked against the
//! conversation's form before anything is sent, sent once by the Student, and the form's
//! snapshots on the run (submitting, then what came of it); and a form a reply carried,
//! taken into the conversation.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use agui::{Event, Role};
use axum::http::StatusCode;
use serde_json::{Value, json};
use student::{ActionOutcome, FormReply, Student};
use vocab::ReplyOutcome;
use vocab::events::student::{Pressed, StudentEventKind};
use vocab::form::FORM_REF_KEY;
use vocab::meta::{OPERATION_ID_KEY, OUTCOME_KEY};

use crate::error::ApiError;
use crate::forms::press::Press;
use crate::forms::{FormView, ViewState};
use crate::hops::{State, step};
use crate::now_ms;
use crate::runs::outcome::{HUB_UNAVAILABLE, OUTCOME_UNKNOWN, Status};
use crate::runs::{Asking, Run, Runs, lock};
use crate::stream::STUDENT_CHANNEL as CHANNEL;

/// What a press claimed its thread for.
enum Claimed {
    /// A press to send: the action, the form's state before it, the submitting snapshot.
    Press(Value, ViewState, Event),
    /// A follow-up button: its question, asked as a new one.
    FollowUp(String),
}

impl Runs {
    /// A press on a form (`forwardedProps.a2uiAction`): checked against the thread's form
    /// before anything is sent, then sent once by the Student; the run carries the form's
    /// snapshots (submitting, then what came of it).
    pub(super) fn start_press(
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
            // a follow-up button's question is asked as the student's own: no form action
            if action.get("name").and_then(Value::as_str) == Some(forms::action::FOLLOW_UP) {
                let request = action.pointer(&format!("/context/{}", vocab::loans::operation::REQUEST));
                return Ok(Claimed::FollowUp(
                    request.and_then(Value::as_str).unwrap_or_default().to_string(),
                ));
            }
            let before = view.state;
            view.submitting(&press.operation_id);
            Ok(Claimed::Press(action, before, view.snapshot(now_ms())))
        })?;
        let (student, (action, before, snapshot)) = match claimed {
            None => return Ok(false),
            Some((student, Claimed::FollowUp(request))) => {
                let (id, asking) = (a2a::wire::new_message_id(), Asking::FollowUp(press.form_ref.clone()));
                self.begin(thread_id, run_id, student, request, id, asking);
                return Ok(true);
            }
            Some((student, Claimed::Press(action, before, snapshot))) => {
                (student, (action, before, snapshot))
            }
        };
        self.presses.fetch_add(1, Ordering::SeqCst);
        // the press is a run of its own, with its own path strip: the Hub's feed names it
        // by its operation id
        let run = Run::new(thread_id, run_id, press.operation_id.clone(), String::new());
        lock(&self.active).by_action.entry(press.operation_id.clone()).or_insert_with(|| run.clone());
        let ts = now_ms();
        let name = press.message.pointer("/action/name").and_then(Value::as_str).unwrap_or_default();
        let pressed = json!({"kind": "press", "action": name, "formRef": press.form_ref, "operationId": press.operation_id});
        let record = run.opening(student.conversation(), pressed, ts);
        self.stream.emit(
            CHANNEL,
            &run.thread,
            &run.run_id,
            &[Event::run_started(&run.thread, &run.run_id, ts), record, snapshot],
        );
        let runs = self.clone();
        tokio::spawn(async move { runs.execute_press(run, student, press, action, before).await });
        Ok(true)
    }

    async fn execute_press(
        self: Arc<Self>,
        run: Arc<Run>,
        student: Arc<Student>,
        press: Press,
        action: Value,
        before: ViewState,
    ) {
        let (thread, run_id) = (run.thread.clone(), run.run_id.clone());
        let pressed = || Pressed {
            form_ref: press.form_ref.as_str().into(),
            operation_id: press.operation_id.as_str().into(),
            thread_id: None,
            run_id: None,
            state: None,
        };
        let sent = Pressed {
            thread_id: Some(thread.as_str().into()),
            run_id: Some(run_id.as_str().into()),
            ..pressed()
        };
        self.record(StudentEventKind::ActionSent, &sent);
        self.update(&run, |p| (false, p.hops.set(step::STUDENT_SENT, State::Done, Some(now_ms()), None)));
        let outcome = student.act(&press.form_ref, &press.operation_id, action.clone()).await;
        let received_at = now_ms();
        let mut text = None;
        let (snapshot, state) = self
            .with_form(&thread, |form| {
                let view = form.as_mut()?;
                // what the press sent from the form, put back where the button read it
                let carried = view.bound_values(&action);
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
        self.record(StudentEventKind::ActionResult, &Pressed { state: Some(state.into()), ..pressed() });
        let came = Came::of(&outcome);
        // the Hub's feed reports its last steps a moment after its reply: wait a little
        if came.hub_replied {
            run.await_feed().await;
        }
        let now = now_ms();
        {
            let mut p = run.lock();
            let mut hops = Vec::new();
            if came.nothing_sent {
                hops.extend(p.hops.nothing_sent("the Hub could not be reached; nothing was sent"));
            }
            hops.extend(match came.received {
                State::Done => p.hops.set(step::STUDENT_RECEIVED, State::Done, Some(received_at), None),
                state => p.hops.set(step::STUDENT_RECEIVED, state, Some(received_at), came.reason),
            });
            hops.extend(p.hops.finish());
            hops.sort_unstable();
            hops.dedup();
            let moved = came.status > p.status;
            if moved {
                p.status = came.status;
            }
            self.delta(&run, &p, moved, &hops);
            p.finished = true;
        }
        let mut events: Vec<Event> = snapshot.into_iter().collect();
        if let Some(text) = text {
            events.extend(Event::text_message(&format!("{run_id}:a"), Role::Assistant, &text, now));
        }
        let result =
            json!({FORM_REF_KEY: press.form_ref, OPERATION_ID_KEY: press.operation_id, OUTCOME_KEY: state});
        events.push(Event::run_finished(&thread, &run_id, Some(result), now));
        self.stream.emit(CHANNEL, &thread, &run_id, &events);
        lock(&self.active).forget(&run);
        self.presses.fetch_sub(1, Ordering::SeqCst);
        self.release(&thread, &run_id);
    }

    /// A form the Hub's reply carried: opened (superseding the conversation's other open
    /// form) or applied to the open one; the snapshots to emit.
    pub(super) fn take_form(&self, thread: &str, reply: &FormReply) -> Vec<Event> {
        self.with_form(thread, |form| {
            let mut events = Vec::new();
            let same = form.as_ref().is_some_and(|v| v.form_ref == reply.form_ref);
            if same {
                let view = form.as_mut().expect("checked");
                view.apply(reply, None);
                events.push(view.snapshot(now_ms()));
            } else if let Some(mut new) = FormView::open(reply) {
                if let Some(old) = form.as_ref() {
                    old.hand_over(&mut new);
                }
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
}

/// What a press came to, for its strip: the run's status, the Student's last step, and
/// whether the Hub replied at all (then its feed has more to tell).
struct Came {
    status: Status,
    received: State,
    reason: Option<String>,
    hub_replied: bool,
    nothing_sent: bool,
}

impl Came {
    fn of(outcome: &ActionOutcome) -> Came {
        let replied = |status| Came {
            status,
            received: State::Done,
            reason: None,
            hub_replied: true,
            nothing_sent: false,
        };
        let unavailable = ReplyOutcome::Unavailable.as_str();
        let unknown = ReplyOutcome::OutcomeUnknown.as_str();
        match outcome {
            // the Hub answered that the form's service is unavailable: the press was not done
            ActionOutcome::NotDelivered { reason } if reason == unavailable => replied(Status::Failed),
            // the Hub was not reached: nothing was sent
            ActionOutcome::NotDelivered { .. } => Came {
                status: Status::Failed,
                received: State::Failed,
                reason: Some(HUB_UNAVAILABLE.0.into()),
                hub_replied: false,
                nothing_sent: true,
            },
            // the Hub answered that it could not tell
            ActionOutcome::Uncertain { reason } if reason == unknown => replied(Status::Unknown),
            // sent, no answer the Student could read
            ActionOutcome::Uncertain { .. } => Came {
                status: Status::Unknown,
                received: State::Unknown,
                reason: Some(OUTCOME_UNKNOWN.0.into()),
                hub_replied: false,
                nothing_sent: false,
            },
            ActionOutcome::Refused { .. } => replied(Status::Failed),
            ActionOutcome::Updated(_)
            | ActionOutcome::Rejected(_)
            | ActionOutcome::Submitted(_)
            | ActionOutcome::Cancelled(_) => replied(Status::Completed),
        }
    }
}
