//! Forms through the Hub (docs/forms.md): a form a specialist opens is recorded as the
//! Hub's own reference `hf-…` and answered as the Hub's own task; an action on that
//! reference is checked (`form_unknown`, `form_not_yours`, `form_expired`, `form_closed`,
//! `operation_reused`; an identical retry of a finished operation answered from its
//! record) and forwarded to the issuing specialist only, in the context and task the
//! reference recorded. No answer within the forward timeout is `outcome_unknown`: the
//! reference stays open and the operation unrecorded, so the same operation id later is
//! forwarded again (the reconcile; the specialist dedupes). Nothing retries on its own.

pub(crate) mod action;
pub(crate) mod specialist;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use a2a::server::Reply;
use a2a::wire::{Message, Part, Role, new_message_id};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use store::Store;
use store::form_refs::{FormRef, FormRefProblem, NewFormRef};
use store::operations::Once;
use vocab::events::FormEvent;
use vocab::form::FORM_ID_KEY;
use vocab::meta::{HUB_OPERATION_ID_KEY, OPERATION_ID_KEY};
use vocab::{CampusForm, FormState, HubEventKind, ReplyMeta, ReplyOutcome, ServedBy};

use crate::asker::Asker;
use crate::error::{FormRefusal, HubError};
use crate::events::Emit;
use crate::forward::{Forward, SendOutcome, reply_parts, text_part};
use crate::registry::Registry;
use action::Action;
use specialist::SpecialistForm;

/// An answer to an action as recorded (the operation's result) and replayed.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answer {
    state: String,
    parts: Vec<Part>,
    metadata: Map<String, Value>,
}

impl Answer {
    fn reply(self) -> Reply {
        let state = FormState::parse(&self.state).unwrap_or(FormState::Open);
        task_reply(state, self.parts, self.metadata)
    }

    fn read(value: Value) -> Result<Reply, HubError> {
        serde_json::from_value::<Answer>(value).map(Answer::reply).map_err(HubError::Record)
    }
}

/// The Hub's own task for a form in `state`.
pub(crate) fn task_reply(state: FormState, parts: Vec<Part>, metadata: Map<String, Value>) -> Reply {
    Reply::Task {
        message_id: new_message_id(),
        state: state.task_state(),
        parts,
        artifacts: Vec::new(),
        metadata: Some(metadata.into_iter().collect()),
    }
}

/// The Hub's form references and the actions on them.
pub(crate) struct Forms {
    store: Store,
    ttl: Duration,
    timeout: Duration,
    emit: Emit,
    in_flight: InFlight,
}

/// One turn at a time per operation (form reference, operation id): an identical action
/// that arrives while another is being forwarded waits for it, then finds its record, so
/// it is forwarded once. Entries live only while someone holds or waits for them.
#[derive(Default)]
struct InFlight(std::sync::Mutex<Turns>);

/// Each operation in flight and the lock its actions take turns on.
type Turns = HashMap<(String, String), Arc<tokio::sync::Mutex<()>>>;

/// The turn of one operation; the next identical action goes when it is dropped.
struct Turn<'a> {
    map: &'a InFlight,
    key: (String, String),
    lock: Arc<tokio::sync::Mutex<()>>,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, Turns> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn turn(&self, form_ref: &str, operation_id: &str) -> Turn<'_> {
        let key = (form_ref.to_string(), operation_id.to_string());
        let lock = Arc::clone(self.lock().entry(key.clone()).or_default());
        let guard = Arc::clone(&lock).lock_owned().await;
        Turn { map: self, key, lock, guard: Some(guard) }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        let mut map = self.map.lock();
        // the map's and this turn's: nobody else holds or waits for it
        if Arc::strong_count(&self.lock) == 2 {
            map.remove(&self.key);
        }
    }
}

impl Forms {
    pub(crate) fn new(store: Store, ttl: Duration, timeout: Duration, emit: Emit) -> Self {
        Self { store, ttl, timeout, emit, in_flight: InFlight::default() }
    }

    /// Records the reference for a form `specialist` opened in the Student's conversation
    /// `context_id` (superseding its open one): the Hub's `campusForm`, or `None` when the
    /// store failed (logged; the form is then relayed without a reference).
    pub(crate) async fn open(
        &self,
        asker: &Asker,
        context_id: &str,
        specialist: &str,
        request_id: &str,
        form: &SpecialistForm,
    ) -> Option<CampusForm> {
        let (form_id, workflow, version) = form.opened()?;
        let ttl_ms = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX);
        let new = NewFormRef {
            student_id: asker.student_id.clone(),
            context_id: context_id.to_string(),
            specialist_id: specialist.to_string(),
            specialist_task_id: form.task_id.clone(),
            specialist_context_id: form.context_id.clone(),
            workflow: workflow.to_string(),
            form_id: form_id.to_string(),
            form_version: version,
            expires_at_ms: store::now_ms().saturating_add(ttl_ms),
        };
        // a screen composed per answer is one canvas: the same form drawn anew keeps its
        // reference (its earlier buttons are the specialist's to refuse, `form_stale`)
        let canvas = workflow == vocab::form::LOAN_RENEWAL_WORKFLOW;
        let opened = self
            .store
            .run(move |s| {
                let redrawn = if canvas { s.redraw_form_ref(&new)? } else { None };
                match redrawn {
                    Some(form) => Ok(form),
                    None => s.open_form_ref(&new).map(|o| o.form),
                }
            })
            .await;
        let opened = match opened {
            Ok(o) => o,
            Err(e) => {
                tracing::error!(code = e.code(), error = %e, "a form reference could not be recorded");
                return None;
            }
        };
        let reference = opened.reference;
        let event = FormEvent {
            context_id: context_id.into(),
            form_ref: Cow::Borrowed(&reference),
            request_id: Some(request_id.into()),
            specialist: Some(specialist.into()),
            workflow: Some(workflow.into()),
            version: Some(version),
            state: Some(FormState::Open),
            ..Default::default()
        };
        self.emit.report(HubEventKind::FormRelayed, &event);
        Some(CampusForm { form_ref: reference, workflow: workflow.into(), version, state: FormState::Open })
    }

    /// The specialist whose form `form_ref` is, when it is `student_id`'s, open and in the
    /// conversation `context_id` (what a follow-up button's question is sent to).
    pub(crate) async fn specialist_of(
        &self,
        form_ref: &str,
        student_id: &str,
        context_id: &str,
    ) -> Option<String> {
        let reference = form_ref.to_string();
        let form = self.store.run(move |s| s.form_ref(&reference)).await.ok().flatten()?;
        form.check(student_id, context_id, store::now_ms()).ok()?;
        Some(form.form.specialist_id)
    }

    /// Handles an action in the Student's conversation `context_id`.
    pub(crate) async fn act(
        &self,
        registry: &Registry,
        served_by_hub: &ServedBy,
        context_id: &str,
        asker: &Asker,
        action: Action,
    ) -> Result<Reply, HubError> {
        let event = |code: Option<&'static str>| FormEvent {
            context_id: context_id.into(),
            form_ref: Cow::Borrowed(&action.form_ref),
            operation_id: Some(Cow::Borrowed(&action.operation_id)),
            code: code.map(Cow::Borrowed),
            ..Default::default()
        };
        self.emit.report(HubEventKind::FormActionReceived, &event(None));
        let refused = |refusal: FormRefusal| {
            self.emit.report(HubEventKind::FormActionRefused, &event(Some(refusal.code())));
            tracing::info!(code = refusal.code(), context_id, "a form action was refused");
            HubError::Form(refusal)
        };
        let reference = action.form_ref.clone();
        let Some(form) = self.store.run(move |s| s.form_ref(&reference)).await.map_err(HubError::Store)?
        else {
            return Err(refused(FormRefusal::Unknown));
        };
        if form.check(&asker.student_id, context_id, i64::MIN) == Err(FormRefProblem::NotYours) {
            return Err(refused(FormRefusal::Ref(FormRefProblem::NotYours)));
        }
        // one at a time per operation: an identical action still being forwarded is
        // waited for, and its record answers this one
        let _turn = self.in_flight.turn(&action.form_ref, &action.operation_id).await;
        // an identical retry of a finished operation is answered from its record, even
        // once the form has closed (a submit's retry must find its receipt)
        let (reference, op, fp) =
            (action.form_ref.clone(), action.operation_id.clone(), action.fingerprint.clone());
        let recorded =
            self.store.run(move |s| s.recorded(&reference, &op, &fp)).await.map_err(HubError::Store)?;
        match recorded {
            Some(Once::Reused) => return Err(refused(FormRefusal::OperationReused)),
            Some(Once::Replayed(answer)) | Some(Once::Done(answer)) => {
                self.emit.report(HubEventKind::FormActionReplayed, &event(None));
                return Answer::read(answer);
            }
            None => {}
        }
        if let Err(problem) = form.check(&asker.student_id, context_id, store::now_ms()) {
            return Err(refused(FormRefusal::Ref(problem)));
        }
        if !form.form.form_id.is_empty() && action.surface_id != form.form.form_id {
            return Err(refused(FormRefusal::WrongSurface));
        }
        self.forward(registry, served_by_hub, context_id, asker, &action, &form).await
    }

    async fn forward(
        &self,
        registry: &Registry,
        served_by_hub: &ServedBy,
        context_id: &str,
        asker: &Asker,
        action: &Action,
        form: &FormRef,
    ) -> Result<Reply, HubError> {
        let specialist = form.form.specialist_id.as_str();
        let workflow = form.form.workflow.as_str();
        let hub_operation_id = new_message_id();
        let event = |code: Option<&str>, state: Option<FormState>| FormEvent {
            context_id: context_id.into(),
            form_ref: Cow::Borrowed(&form.reference),
            operation_id: Some(Cow::Borrowed(&action.operation_id)),
            hub_operation_id: Some(Cow::Borrowed(&hub_operation_id)),
            specialist: Some(specialist.into()),
            workflow: Some(workflow.into()),
            code: code.map(|c| Cow::Owned(c.to_owned())),
            state,
            ..Default::default()
        };
        let open_form = CampusForm {
            form_ref: form.reference.clone(),
            workflow: workflow.into(),
            version: form.form.form_version,
            state: FormState::Open,
        };
        // the form stays open: the action was not handled, or may not have been
        let pending = |outcome: ReplyOutcome, text: &str| {
            let mut meta = ReplyMeta::new(served_by_hub.clone(), outcome);
            meta.operation_id = Some(action.operation_id.clone());
            meta.campus_form = Some(open_form.clone());
            Reply::Message {
                message_id: new_message_id(),
                parts: vec![text_part(text)],
                metadata: Some(meta.into_map().into_iter().collect()),
                context_id: None,
            }
        };
        let Ok(to) = Forward::to(registry, specialist) else {
            self.emit.report(
                HubEventKind::FormActionRefused,
                &event(Some(ReplyOutcome::Unavailable.as_str()), None),
            );
            let text = "The service that opened this form is unavailable right now; your action was not sent. Try again shortly.";
            return Ok(pending(ReplyOutcome::Unavailable, text));
        };
        let mut message = Message::new(Role::User, vec![action.part.clone()]);
        message.context_id = Some(form.form.specialist_context_id.clone());
        message.reference_task_ids = Some(vec![form.form.specialist_task_id.clone()]);
        let mut metadata = HashMap::from([
            (FORM_ID_KEY.to_string(), json!(form.form.form_id)),
            (OPERATION_ID_KEY.to_string(), json!(action.operation_id)),
            (HUB_OPERATION_ID_KEY.to_string(), json!(hub_operation_id)),
        ]);
        asker.describe(&mut metadata);
        message.metadata = Some(metadata);
        tracing::info!(specialist, operation_id = %action.operation_id, hub_operation_id = %hub_operation_id, "forwarding a form action");
        self.emit.report(HubEventKind::FormActionForwarded, &event(None, None));
        let resp = match to
            .send(message, asker.vouched(), &[a2ui::EXTENSION_URI.to_string()], self.timeout)
            .await
        {
            SendOutcome::Answered(resp) => *resp,
            SendOutcome::Refused { reason: Some(code), message, .. } if is_code(&code) => {
                self.emit.report(HubEventKind::FormActionRefused, &event(Some(&code), None));
                return Err(HubError::SpecialistRefused {
                    code,
                    message: message.chars().take(200).collect(),
                });
            }
            SendOutcome::NotSent => {
                self.emit.report(
                    HubEventKind::FormActionRefused,
                    &event(Some(ReplyOutcome::Unavailable.as_str()), None),
                );
                let text = "The service that opened this form could not be reached; your action was not sent. Try again shortly.";
                return Ok(pending(ReplyOutcome::Unavailable, text));
            }
            SendOutcome::Refused { .. } | SendOutcome::Unknown => {
                self.emit.report(
                    HubEventKind::FormActionUnknown,
                    &event(Some(ReplyOutcome::OutcomeUnknown.as_str()), None),
                );
                let text = "No confirmation came in time, so I can't tell whether your action was handled. Check again with the same action: it will not be done twice.";
                return Ok(pending(ReplyOutcome::OutcomeUnknown, text));
            }
        };
        let relayed = specialist::read(&resp);
        let Some(state) = relayed.as_ref().and_then(|r| r.state) else {
            self.emit.report(
                HubEventKind::FormActionRefused,
                &event(Some(ReplyOutcome::InvalidAnswer.as_str()), None),
            );
            let text = "The service answered this action in a way I can't relay; it may or may not have been handled.";
            return Ok(pending(ReplyOutcome::InvalidAnswer, text));
        };
        let version = relayed.and_then(|r| r.version).unwrap_or(form.form.form_version);
        let mut meta = ReplyMeta::new(served_by_hub.clone(), ReplyOutcome::Form);
        meta.operation_id = Some(action.operation_id.clone());
        meta.campus_form = Some(CampusForm { version, state, ..open_form.clone() });
        let answer =
            Answer { state: state.as_str().into(), parts: reply_parts(resp), metadata: meta.into_map() };
        let value = serde_json::to_value(&answer).expect("an answer serializes");
        let (reference, op, fp) =
            (form.reference.clone(), action.operation_id.clone(), action.fingerprint.clone());
        let close = state.finished();
        let recorded = self
            .store
            .run(move |s| {
                s.once(&reference, &op, &fp, |tx| {
                    tx.update_form_ref(&reference, version, close)?;
                    Ok::<_, store::StoreError>(value)
                })
            })
            .await
            .map_err(HubError::Store)?;
        self.emit.report(
            HubEventKind::FormActionResult,
            &FormEvent { version: Some(version), ..event(None, Some(state)) },
        );
        match recorded {
            // recorded by a concurrent identical action meanwhile: one answer for both
            Once::Done(v) | Once::Replayed(v) => Answer::read(v),
            Once::Reused => Err(HubError::Form(FormRefusal::OperationReused)),
        }
    }
}

/// Whether a specialist's `ErrorInfo.reason` is one of ours (snake_case), not the
/// protocol's (`INVALID_PARAMS`).
fn is_code(reason: &str) -> bool {
    (1..=64).contains(&reason.len())
        && reason.bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specialists_own_code_is_told_from_the_protocols() {
        assert!(super::is_code("form_stale") && !super::is_code("INVALID_PARAMS") && !super::is_code(""));
    }

    #[tokio::test]
    async fn an_identical_operation_waits_for_the_one_in_flight_and_others_do_not() {
        let in_flight = InFlight::default();
        let first = in_flight.turn("hf-1", "op-1").await;
        // another operation, or another form's, goes at once
        drop(in_flight.turn("hf-1", "op-2").await);
        drop(in_flight.turn("hf-2", "op-1").await);
        let mut second = std::pin::pin!(in_flight.turn("hf-1", "op-1"));
        let waits =
            tokio::select! { biased; _ = second.as_mut() => false, () = std::future::ready(()) => true };
        assert!(waits, "the same operation waits");
        drop(first);
        let second = second.await;
        assert_eq!(in_flight.lock().len(), 1, "held by the second");
        drop(second);
        assert!(in_flight.lock().is_empty(), "nothing is kept once no one holds or waits");
    }
}
