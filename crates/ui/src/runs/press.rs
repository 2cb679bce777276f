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
use vocab::events::student::{Pressed, StudentEventKind};
use vocab::form::FORM_REF_KEY;
use vocab::meta::{OPERATION_ID_KEY, OUTCOME_KEY};

use crate::error::ApiError;
use crate::forms::press::Press;
use crate::forms::{FormView, ViewState};
use crate::now_ms;
use crate::runs::Runs;
use crate::stream::STUDENT_CHANNEL as CHANNEL;

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
            let before = view.state;
            view.submitting(&press.operation_id);
            Ok((action, before, view.snapshot(now_ms())))
        })?;
        let Some((student, (action, before, snapshot))) = claimed else { return Ok(false) };
        self.presses.fetch_add(1, Ordering::SeqCst);
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
        before: ViewState,
    ) {
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
        self.record(StudentEventKind::ActionResult, &Pressed { state: Some(state.into()), ..pressed() });
        let now = now_ms();
        let mut events: Vec<Event> = snapshot.into_iter().collect();
        if let Some(text) = text {
            events.extend(Event::text_message(&format!("{run_id}:a"), Role::Assistant, &text, now));
        }
        let result =
            json!({FORM_REF_KEY: press.form_ref, OPERATION_ID_KEY: press.operation_id, OUTCOME_KEY: state});
        events.push(Event::run_finished(&thread, &run_id, Some(result), now));
        self.stream.emit(CHANNEL, &thread, &run_id, &events);
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
