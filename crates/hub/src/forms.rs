//! Forms through the Hub (docs/forms.md): the Student's client (who asks, what it
//! renders) passed on to the specialist; a form a specialist opens recorded as the Hub's
//! own reference `hf-…` and answered as the Hub's own task; an action on that reference
//! checked (`form_unknown`, `form_not_yours`, `form_expired`, `form_closed`,
//! `operation_reused`; an identical retry of a finished operation answered from its
//! record) and forwarded to the issuing specialist only, in the context and task the
//! reference recorded. No answer within the forward timeout is `outcome_unknown`: the
//! reference stays open and the operation unrecorded, so the same operation id later is
//! forwarded again (the reconcile; the specialist dedupes). Nothing retries on its own.

use std::collections::HashMap;
use std::time::Duration;

use a2a::RpcError;
use a2a::client::ClientError;
use a2a::server::Reply;
use a2a::wire::{Message, Part, Role, SendMessageResponse, TaskState, new_message_id};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use store::Store;
use store::form_refs::{FormRef, FormRefProblem, NewFormRef};
use store::operations::{Once, fingerprint};
use telemetry::Data;

use crate::Emit;
use crate::registry::Registry;

/// The student id when a message names none (the demo has no sign-in).
pub(crate) const ANONYMOUS_STUDENT: &str = "anonymous";
/// The message metadata key of the student id.
pub(crate) const STUDENT_ID_KEY: &str = "studentId";
/// The metadata key of a form's description, both ways.
pub(crate) const CAMPUS_FORM_KEY: &str = "campusForm";
/// How long a form reference may be used unless `HUB_FORM_TTL_MS` says otherwise.
pub(crate) const DEFAULT_FORM_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Who asks and what their client renders, read from the Student's message.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    pub(crate) student_id: String,
    /// The Student activated the A2UI extension (`A2A-Extensions`).
    a2ui: bool,
    /// Its `a2uiClientCapabilities`, when they pass the official schema.
    capabilities: Option<Value>,
}

/// 1–`max` characters of `A-Za-z0-9_-`.
fn is_id(s: &str, max: usize) -> bool {
    (1..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn meta<'a>(message: &'a Message, key: &str) -> Option<&'a Value> {
    message.metadata.as_ref().and_then(|m| m.get(key))
}

impl Client {
    /// The client of `message`, sent with these `extensions`.
    pub(crate) fn of(message: &Message, extensions: &[String]) -> Result<Client, RpcError> {
        let student_id = match meta(message, STUDENT_ID_KEY) {
            None => ANONYMOUS_STUDENT.to_string(),
            Some(Value::String(s)) if is_id(s, 64) => s.clone(),
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "message.metadata.studentId",
                    "must be 1-64 characters of A-Za-z0-9_-",
                ));
            }
        };
        let capabilities = meta(message, a2ui::part::CLIENT_CAPABILITIES_KEY).and_then(|c| {
            let valid = a2ui::validate_client_capabilities(c).is_ok();
            if !valid {
                tracing::info!("client capabilities that fail the a2ui schema are not passed on");
            }
            valid.then(|| c.clone())
        });
        Ok(Client { student_id, a2ui: a2ui::part::extension_requested(extensions), capabilities })
    }

    /// The extensions to activate with the specialist: A2UI when the Student did.
    pub(crate) fn extensions(&self) -> Vec<String> {
        if self.a2ui { vec![a2ui::EXTENSION_URI.to_string()] } else { Vec::new() }
    }

    /// Adds what the specialist should know of the client to a forward's metadata.
    pub(crate) fn describe(&self, metadata: &mut HashMap<String, Value>) {
        metadata.insert(STUDENT_ID_KEY.into(), json!(self.student_id));
        if let Some(c) = &self.capabilities {
            metadata.insert(a2ui::part::CLIENT_CAPABILITIES_KEY.into(), c.clone());
        }
    }
}

/// A form's state as `campusForm.state` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FormState {
    Open,
    Rejected,
    Submitted,
    Cancelled,
}

impl FormState {
    fn parse(s: &str) -> Option<FormState> {
        Some(match s {
            "open" => FormState::Open,
            "rejected" => FormState::Rejected,
            "submitted" => FormState::Submitted,
            "cancelled" => FormState::Cancelled,
            _ => return None,
        })
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FormState::Open => "open",
            FormState::Rejected => "rejected",
            FormState::Submitted => "submitted",
            FormState::Cancelled => "cancelled",
        }
    }

    /// The A2A state of the Hub's task in this form state.
    pub(crate) fn task_state(self) -> TaskState {
        match self {
            FormState::Open | FormState::Rejected => TaskState::InputRequired,
            FormState::Submitted => TaskState::Completed,
            FormState::Cancelled => TaskState::Canceled,
        }
    }

    fn finished(self) -> bool {
        matches!(self, FormState::Submitted | FormState::Cancelled)
    }
}

/// What a specialist's task says of its form.
#[derive(Debug, Clone)]
pub(crate) struct SpecialistForm {
    pub(crate) task_id: String,
    pub(crate) context_id: String,
    pub(crate) form_id: Option<String>,
    pub(crate) workflow: Option<String>,
    pub(crate) version: Option<u32>,
    /// `campusForm.state`, else what the task's state means.
    pub(crate) state: Option<FormState>,
    /// Whether the status message carries an A2UI part.
    pub(crate) has_a2ui: bool,
}

impl SpecialistForm {
    /// A form a chat message opened: an A2UI part and a complete, open `campusForm`.
    pub(crate) fn opened(&self) -> Option<(&str, &str, u32)> {
        match (&self.form_id, &self.workflow, self.version, self.state) {
            (Some(id), Some(w), Some(v), Some(FormState::Open)) if self.has_a2ui => Some((id, w, v)),
            _ => None,
        }
    }
}

/// The form a specialist's answer describes: a task whose status message (or the task)
/// carries `campusForm` metadata. `None` for a message.
pub(crate) fn read_specialist(resp: &SendMessageResponse) -> Option<SpecialistForm> {
    let SendMessageResponse::Task(task) = resp else { return None };
    let status_message = task.status.message.as_ref();
    let campus = status_message
        .and_then(|m| m.metadata.as_ref())
        .and_then(|m| m.get(CAMPUS_FORM_KEY))
        .or_else(|| task.metadata.as_ref().and_then(|m| m.get(CAMPUS_FORM_KEY)))
        .filter(|c| c.is_object());
    let text = |k: &str| campus.and_then(|c| c.get(k)).and_then(Value::as_str).map(str::to_string);
    let by_task = match task.status.state {
        TaskState::InputRequired => Some(FormState::Open),
        TaskState::Completed => Some(FormState::Submitted),
        TaskState::Canceled => Some(FormState::Cancelled),
        _ => None,
    };
    Some(SpecialistForm {
        task_id: task.id.clone(),
        context_id: task.context_id.clone(),
        form_id: text("formId").filter(|id| !id.is_empty() && id.len() <= 256),
        workflow: text("workflow").filter(|w| is_id(w, 64)),
        version: campus
            .and_then(|c| c.get("version"))
            .and_then(Value::as_u64)
            .and_then(|v| u32::try_from(v).ok()),
        state: text("state").as_deref().and_then(FormState::parse).or(by_task),
        has_a2ui: status_message.is_some_and(|m| m.parts.iter().any(a2ui::part::is_a2ui_part)),
    })
}

/// The Hub's `campusForm` for the Student: never the specialist's form id, task or URL.
pub(crate) fn campus_form(reference: &str, workflow: &str, version: u32, state: FormState) -> Value {
    json!({"formRef": reference, "workflow": workflow, "version": version, "state": state.as_str()})
}

/// The form state a stored answer's `campusForm` names, if it describes one.
pub(crate) fn stored_state(metadata: &Map<String, Value>) -> Option<FormState> {
    metadata.get(CAMPUS_FORM_KEY)?.get("state")?.as_str().and_then(FormState::parse)
}

/// An action from the Student (docs/forms.md §3).
#[derive(Debug, Clone)]
pub(crate) struct Action {
    form_ref: String,
    operation_id: String,
    /// The A2UI part, forwarded as it came.
    part: Part,
    surface_id: String,
    /// Of the action without its timestamp: a retry made again later is the same action.
    fingerprint: String,
}

/// The action a message carries: `None` when it carries no A2UI part (a question).
pub(crate) fn parse_action(message: &Message) -> Option<Result<Action, RpcError>> {
    if !message.parts.iter().any(a2ui::part::is_a2ui_part) {
        return None;
    }
    Some(read_action(message))
}

fn read_action(message: &Message) -> Result<Action, RpcError> {
    if message.parts.len() != 1 {
        return Err(RpcError::invalid_params(
            "message.parts",
            "an action message has exactly one part, the application/a2ui+json action",
        ));
    }
    let part = &message.parts[0];
    let refuse = |code: &str, why: &str| RpcError::refusal("message.parts[0]", code, why);
    let messages = match a2ui::part::read_part(part) {
        Some(Ok(m)) => m,
        Some(Err(e)) => return Err(refuse(e.code(), &e.to_string())),
        None => unreachable!("parse_action found an a2ui part"),
    };
    let [action_message] = messages.as_slice() else {
        return Err(refuse("a2ui_not_an_action", "an action part holds exactly one message"));
    };
    if serde_json::to_vec(action_message).map_or(usize::MAX, |b| b.len()) > a2ui::MAX_PAYLOAD_BYTES {
        return Err(refuse("a2ui_too_large", "the action is over the size limit"));
    }
    if let Err(e) = a2ui::validate_client_message(action_message) {
        return Err(refuse("a2ui_schema_invalid", &e.to_string()));
    }
    let Some(action) = action_message.get("action").and_then(Value::as_object) else {
        return Err(refuse("a2ui_not_an_action", "the message is not an action"));
    };
    let form_ref = match meta(message, "formRef") {
        Some(Value::String(r)) if !r.is_empty() && r.len() <= 128 => r.clone(),
        _ => {
            return Err(RpcError::invalid_params(
                "message.metadata.formRef",
                "the form reference is required",
            ));
        }
    };
    let operation_id = match meta(message, "operationId") {
        Some(Value::String(o)) if is_id(o, 128) => o.clone(),
        _ => {
            return Err(RpcError::invalid_params(
                "message.metadata.operationId",
                "must be 1-128 characters of A-Za-z0-9_-",
            ));
        }
    };
    let mut same = action.clone();
    same.remove("timestamp");
    Ok(Action {
        form_ref,
        operation_id,
        part: part.clone(),
        surface_id: action.get("surfaceId").and_then(Value::as_str).unwrap_or_default().to_string(),
        fingerprint: fingerprint(&Value::Object(same)),
    })
}

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

/// A form event on the Hub's feed (no values, no text).
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FormEvent<'a> {
    pub(crate) context_id: &'a str,
    pub(crate) form_ref: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) request_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) operation_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hub_operation_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) specialist: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) workflow: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) state: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) code: Option<&'a str>,
}

/// The Hub's form references and the actions on them.
pub(crate) struct Forms {
    store: Store,
    ttl: Duration,
    timeout: Duration,
    emit: Emit,
}

fn store_failed(e: store::StoreError) -> RpcError {
    tracing::error!(code = e.code(), error = %e, "the hub's store failed on a form");
    RpcError::internal()
}

impl Forms {
    pub(crate) fn new(store: Store, ttl: Duration, timeout: Duration, emit: Emit) -> Self {
        Self { store, ttl, timeout, emit }
    }

    /// Records the reference for a form `specialist` opened in the Student's conversation
    /// `context_id` (superseding its open one): the Hub's `campusForm`, or `None` when the
    /// store failed (logged; the form is then relayed without a reference).
    pub(crate) async fn open(
        &self,
        client: &Client,
        context_id: &str,
        specialist: &str,
        request_id: &str,
        form: &SpecialistForm,
    ) -> Option<Value> {
        let (form_id, workflow, version) = form.opened()?;
        let ttl_ms = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX);
        let new = NewFormRef {
            student_id: client.student_id.clone(),
            context_id: context_id.to_string(),
            specialist_id: specialist.to_string(),
            specialist_task_id: form.task_id.clone(),
            specialist_context_id: form.context_id.clone(),
            workflow: workflow.to_string(),
            form_id: form_id.to_string(),
            form_version: version,
            expires_at_ms: store::now_ms().saturating_add(ttl_ms),
        };
        let opened = match self.store.run(move |s| s.open_form_ref(&new)).await {
            Ok(o) => o,
            Err(e) => {
                tracing::error!(code = e.code(), error = %e, "a form reference could not be recorded");
                return None;
            }
        };
        let reference = &opened.form.reference;
        self.emit.send(
            "form_relayed",
            Data::new(&FormEvent {
                context_id,
                form_ref: reference,
                request_id: Some(request_id),
                specialist: Some(specialist),
                workflow: Some(workflow),
                version: Some(version),
                state: Some("open"),
                ..Default::default()
            }),
        );
        Some(campus_form(reference, workflow, version, FormState::Open))
    }

    /// Handles an action in the Student's conversation `context_id`.
    pub(crate) async fn act(
        &self,
        registry: &Registry,
        served_by_hub: &Value,
        context_id: &str,
        client: &Client,
        action: Action,
    ) -> Result<Reply, RpcError> {
        let event = |code: Option<&'static str>| FormEvent {
            context_id,
            form_ref: &action.form_ref,
            operation_id: Some(&action.operation_id),
            code,
            ..Default::default()
        };
        self.emit.send("form_action_received", Data::new(&event(None)));
        let refused = |field: &str, code: &'static str, why: &str| {
            self.emit.send("form_action_refused", Data::new(&event(Some(code))));
            tracing::info!(code, context_id, "a form action was refused");
            RpcError::refusal(field, code, why)
        };
        const REF: &str = "message.metadata.formRef";
        let reference = action.form_ref.clone();
        let Some(form) = self.store.run(move |s| s.form_ref(&reference)).await.map_err(store_failed)? else {
            return Err(refused(REF, "form_unknown", "no such form"));
        };
        if form.check(&client.student_id, context_id, i64::MIN) == Err(FormRefProblem::NotYours) {
            return Err(refused(REF, "form_not_yours", &FormRefProblem::NotYours.to_string()));
        }
        // an identical retry of a finished operation is answered from its record, even
        // once the form has closed (a submit's retry must find its receipt)
        let (reference, op, fp) =
            (action.form_ref.clone(), action.operation_id.clone(), action.fingerprint.clone());
        let recorded =
            self.store.run(move |s| s.recorded(&reference, &op, &fp)).await.map_err(store_failed)?;
        match recorded {
            Some(Once::Reused) => {
                let why = "this operation id was used for another action";
                return Err(refused("message.metadata.operationId", "operation_reused", why));
            }
            Some(Once::Replayed(answer)) | Some(Once::Done(answer)) => {
                self.emit.send("form_action_replayed", Data::new(&event(None)));
                let answer: Answer = serde_json::from_value(answer).map_err(|e| {
                    tracing::error!(error = %e, "a recorded form answer could not be read");
                    RpcError::internal()
                })?;
                return Ok(answer.reply());
            }
            None => {}
        }
        if let Err(problem) = form.check(&client.student_id, context_id, store::now_ms()) {
            let code = match problem {
                FormRefProblem::Expired => "form_expired",
                FormRefProblem::NotYours => "form_not_yours",
                FormRefProblem::Superseded | FormRefProblem::Closed => "form_closed",
            };
            return Err(refused(REF, code, &problem.to_string()));
        }
        if !form.form.form_id.is_empty() && action.surface_id != form.form.form_id {
            let why = "/action/surfaceId names another surface";
            return Err(refused("message.parts[0]", "a2ui_wrong_surface", why));
        }
        self.forward(registry, served_by_hub, context_id, client, &action, &form).await
    }

    async fn forward(
        &self,
        registry: &Registry,
        served_by_hub: &Value,
        context_id: &str,
        client: &Client,
        action: &Action,
        form: &FormRef,
    ) -> Result<Reply, RpcError> {
        let specialist = form.form.specialist_id.as_str();
        let workflow = form.form.workflow.as_str();
        let hub_operation_id = new_message_id();
        let event = |code: Option<&'static str>, state: Option<&'static str>| FormEvent {
            context_id,
            form_ref: &form.reference,
            operation_id: Some(&action.operation_id),
            hub_operation_id: Some(&hub_operation_id),
            specialist: Some(specialist),
            workflow: Some(workflow),
            code,
            state,
            ..Default::default()
        };
        let mut metadata = Map::new();
        metadata.insert("servedBy".into(), served_by_hub.clone());
        metadata.insert("operationId".into(), json!(action.operation_id));
        let pending = |outcome: &str, text: &str, metadata: &mut Map<String, Value>| {
            metadata.insert("outcome".into(), json!(outcome));
            metadata.insert(
                CAMPUS_FORM_KEY.into(),
                campus_form(&form.reference, workflow, form.form.form_version, FormState::Open),
            );
            Reply::Message {
                message_id: new_message_id(),
                parts: vec![Part::text(text).with_media_type("text/plain")],
                metadata: Some(metadata.clone().into_iter().collect()),
                context_id: None,
            }
        };
        let handle = match registry.handle(specialist) {
            Ok(h) => h,
            Err(_) => {
                self.emit.send("form_action_refused", Data::new(&event(Some("unavailable"), None)));
                let text = "The service that opened this form is unavailable right now; your action was not sent. Try again shortly.";
                return Ok(pending("unavailable", text, &mut metadata));
            }
        };
        let mut forward = Message::new(Role::User, vec![action.part.clone()]);
        forward.context_id = Some(form.form.specialist_context_id.clone());
        forward.reference_task_ids = Some(vec![form.form.specialist_task_id.clone()]);
        let mut forward_meta = HashMap::from([
            ("formId".to_string(), json!(form.form.form_id)),
            ("operationId".to_string(), json!(action.operation_id)),
            ("hubOperationId".to_string(), json!(hub_operation_id)),
        ]);
        client.describe(&mut forward_meta);
        forward.metadata = Some(forward_meta);
        tracing::info!(specialist, operation_id = %action.operation_id, hub_operation_id = %hub_operation_id, "forwarding a form action");
        self.emit.send("form_action_forwarded", Data::new(&event(None, None)));
        let extensions = [a2ui::EXTENSION_URI.to_string()];
        let sent = tokio::time::timeout(self.timeout, handle.send_message(forward, &extensions)).await;
        let resp = match sent {
            Ok(Ok(resp)) => resp,
            Ok(Err(ClientError::Rpc { reason: Some(code), message, .. })) if is_code(&code) => {
                self.emit.send("form_action_refused", Data::new(&event(None, None).with_code(&code)));
                let why: String = message.chars().take(200).collect();
                return Err(RpcError::refusal("message.parts[0]", code, why));
            }
            Ok(Err(e)) if e.nothing_sent() => {
                registry.mark_reachable(specialist, false);
                self.emit.send("form_action_refused", Data::new(&event(Some("unavailable"), None)));
                let text = "The service that opened this form could not be reached; your action was not sent. Try again shortly.";
                return Ok(pending("unavailable", text, &mut metadata));
            }
            Ok(Err(_)) | Err(_) => {
                self.emit.send("form_action_unknown", Data::new(&event(Some("outcome_unknown"), None)));
                let text = "No confirmation came in time, so I can't tell whether your action was handled. Check again with the same action: it will not be done twice.";
                return Ok(pending("outcome_unknown", text, &mut metadata));
            }
        };
        registry.mark_reachable(specialist, true);
        let relayed = read_specialist(&resp);
        let Some(state) = relayed.as_ref().and_then(|r| r.state) else {
            self.emit.send("form_action_refused", Data::new(&event(Some("invalid_answer"), None)));
            let text = "The service answered this action in a way I can't relay; it may or may not have been handled.";
            return Ok(pending("invalid_answer", text, &mut metadata));
        };
        let version = relayed.and_then(|r| r.version).unwrap_or(form.form.form_version);
        metadata.insert("outcome".into(), json!("form"));
        metadata.insert(CAMPUS_FORM_KEY.into(), campus_form(&form.reference, workflow, version, state));
        let answer =
            Answer { state: state.as_str().into(), parts: crate::executor::reply_parts(resp), metadata };
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
            .map_err(store_failed)?;
        self.emit.send(
            "form_action_result",
            Data::new(&FormEvent { version: Some(version), ..event(None, Some(state.as_str())) }),
        );
        match recorded {
            // recorded by a concurrent identical action meanwhile: one answer for both
            Once::Done(v) | Once::Replayed(v) => {
                let answer: Answer = serde_json::from_value(v).map_err(|_| RpcError::internal())?;
                Ok(answer.reply())
            }
            Once::Reused => Err(RpcError::refusal(
                "message.metadata.operationId",
                "operation_reused",
                "this operation id was used for another action",
            )),
        }
    }
}

impl<'a> FormEvent<'a> {
    fn with_code(self, code: &'a str) -> Self {
        FormEvent { code: Some(code), ..self }
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

    fn action_message(parts: Vec<Part>, metadata: Value) -> Message {
        let mut m = Message::new(Role::User, parts);
        m.metadata = serde_json::from_value(metadata).unwrap();
        m
    }

    fn action(name: &str, timestamp: &str) -> Part {
        a2ui::part::data_part(vec![json!({"version": "v0.9", "action": {
            "name": name, "surfaceId": "form-1", "sourceComponentId": "submit",
            "timestamp": timestamp, "context": {"formVersion": 1}}})])
    }

    #[test]
    fn an_action_is_read_with_its_reference_and_operation_id_and_the_timestamp_is_not_the_action() {
        let meta = json!({"formRef": "hf-1", "operationId": "op-1"});
        assert!(parse_action(&action_message(vec![Part::text("hi")], meta.clone())).is_none());
        let a =
            parse_action(&action_message(vec![action("cancel_form", "2026-01-01T00:00:00Z")], meta.clone()))
                .unwrap()
                .unwrap();
        assert_eq!(
            (a.form_ref.as_str(), a.operation_id.as_str(), a.surface_id.as_str()),
            ("hf-1", "op-1", "form-1")
        );
        let later =
            parse_action(&action_message(vec![action("cancel_form", "2026-01-01T00:00:09Z")], meta.clone()))
                .unwrap()
                .unwrap();
        assert_eq!(a.fingerprint, later.fingerprint);
        let other =
            parse_action(&action_message(vec![action("submit_x", "2026-01-01T00:00:00Z")], meta.clone()))
                .unwrap()
                .unwrap();
        assert_ne!(a.fingerprint, other.fingerprint);

        let with_text =
            action_message(vec![action("cancel_form", "2026-01-01T00:00:00Z"), Part::text("x")], meta);
        assert_eq!(parse_action(&with_text).unwrap().unwrap_err().code, -32602);
        let bad_op = action_message(
            vec![action("cancel_form", "2026-01-01T00:00:00Z")],
            json!({"formRef": "hf-1", "operationId": "no spaces"}),
        );
        assert_eq!(
            parse_action(&bad_op).unwrap().unwrap_err().field.as_deref(),
            Some("message.metadata.operationId")
        );
        let not_action = action_message(
            vec![a2ui::part::data_part(vec![json!({"version": "v0.9", "createSurface": {}})])],
            json!({"formRef": "hf-1", "operationId": "op"}),
        );
        assert!(parse_action(&not_action).unwrap().unwrap_err().reason().starts_with("a2ui_"));
    }

    #[test]
    fn a_student_id_is_checked_and_capabilities_pass_only_when_valid() {
        let mut m = Message::new(Role::User, vec![Part::text("hi")]);
        assert_eq!(Client::of(&m, &[]).unwrap().student_id, ANONYMOUS_STUDENT);
        m.metadata = Some(a2ui::part::client_metadata());
        m.metadata.as_mut().unwrap().insert(STUDENT_ID_KEY.into(), json!("demo-student"));
        let c = Client::of(&m, &[a2ui::EXTENSION_URI.to_string()]).unwrap();
        assert_eq!(c.extensions(), vec![a2ui::EXTENSION_URI.to_string()]);
        let mut forwarded = HashMap::new();
        c.describe(&mut forwarded);
        assert_eq!(forwarded[STUDENT_ID_KEY], "demo-student");
        assert!(forwarded.contains_key(a2ui::part::CLIENT_CAPABILITIES_KEY));
        m.metadata.as_mut().unwrap().insert(a2ui::part::CLIENT_CAPABILITIES_KEY.into(), json!({"v0.9": 7}));
        let mut forwarded = HashMap::new();
        Client::of(&m, &[]).unwrap().describe(&mut forwarded);
        assert!(!forwarded.contains_key(a2ui::part::CLIENT_CAPABILITIES_KEY), "invalid: not passed on");
        m.metadata.as_mut().unwrap().insert(STUDENT_ID_KEY.into(), json!("a b"));
        assert!(Client::of(&m, &[]).is_err());
        assert!(is_code("form_stale") && !is_code("INVALID_PARAMS"));
    }
}
