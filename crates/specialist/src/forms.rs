//! The form host, shared by the Tutor and the Library (docs/forms.md): a durable record
//! per form in the agent's store, at most one open per (context, workflow); an offered
//! form is an A2A Task `INPUT_REQUIRED` with a text part and an A2UI part; an action
//! (one `application/a2ui+json` data part with `[{version, action}]`, metadata `formId`
//! and `operationId`) is checked in order — `form_unknown`, `form_closed`,
//! `action_not_allowed` (the workflow's action, from a button of the current screen, on
//! this form's surface), `form_stale` (the button's `formVersion`), `workflow_disabled`,
//! then the operation id (`operation_reused`) — and only then does the workflow's
//! handler run, once: its effect, the form's change and the operation's result commit in
//! one transaction. An operation id already recorded is decided by its record before the
//! other checks: an identical retry gets the stored result (the form it closed is closed
//! now), other values `operation_reused`. Every refusal is a JSON-RPC
//! invalid-params error whose `ErrorInfo.reason` is the code. Every A2UI payload passes
//! the official schemas before it is stored or sent.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use a2a::RpcError;
use a2a::server::{Reply, RequestContext};
use a2a::wire::Part;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use store::bookings::BookingError;
use store::forms::{Form, FormChange, FormState as StoreState};
use store::operations::{Once, fingerprint};
use store::{Store, StoreError, Tx};
use vocab::FormState;
use vocab::form::{
    ANONYMOUS_STUDENT, CAMPUS_FORM_KEY, FORM_ERRORS_MEDIA_TYPE, FORM_ID_KEY, FORM_RECEIPT_MEDIA_TYPE,
    STUDENT_ID_KEY,
};
use vocab::meta::OPERATION_ID_KEY;

/// Test-only switch: the first action's work (its transaction) starts this many
/// milliseconds late, so a caller's timeout can produce a real `outcome_unknown`; like any
/// work begun, it finishes even when the caller has gone. Unset (or 0): no wait.
pub const TEST_DELAY_ENV: &str = "CAMPUS_TEST_DELAY_FIRST_ACTION_MS";

/// Refusal codes.
pub mod code {
    pub const FORM_UNKNOWN: &str = "form_unknown";
    pub const FORM_CLOSED: &str = "form_closed";
    pub const ACTION_NOT_ALLOWED: &str = "action_not_allowed";
    pub const FORM_STALE: &str = "form_stale";
    pub const WORKFLOW_DISABLED: &str = "workflow_disabled";
    pub const OPERATION_REUSED: &str = "operation_reused";
    pub const OPERATION_ID_INVALID: &str = "operation_id_invalid";
    pub const SLOT_UNKNOWN: &str = "slot_unknown";
}

/// What the store keeps of a reply's form state: a rejection leaves the form open.
fn stored_state(state: FormState) -> StoreState {
    match state {
        FormState::Open | FormState::Rejected => StoreState::Open,
        FormState::Submitted => StoreState::Submitted,
        FormState::Cancelled => StoreState::Cancelled,
    }
}

/// What a form's reply says; an action's is stored as its operation's result, so a retry
/// gets the same reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub form_id: String,
    pub workflow: String,
    pub version: u32,
    pub state: FormState,
    pub text: String,
    /// A2UI messages for the form's surface (schema-checked before they are kept).
    #[serde(default)]
    pub a2ui: Vec<Value>,
    /// Field errors `{field, code, message}` (a rejection).
    #[serde(default)]
    pub errors: Vec<Value>,
    /// The receipt (an accepted form).
    #[serde(default)]
    pub receipt: Option<Value>,
}

impl Outcome {
    /// The A2A reply: a task in the state the form's state means, its status message the
    /// text, the A2UI part, the errors or the receipt; `campusForm` on the task.
    pub fn reply(&self) -> Reply {
        let mut parts = vec![Part::text(self.text.clone()).with_media_type("text/plain")];
        if !self.errors.is_empty() {
            parts.push(Part::data(json!({"errors": self.errors})).with_media_type(FORM_ERRORS_MEDIA_TYPE));
        }
        if let Some(receipt) = &self.receipt {
            parts.push(Part::data(receipt.clone()).with_media_type(FORM_RECEIPT_MEDIA_TYPE));
        }
        if !self.a2ui.is_empty() {
            parts.push(a2ui::part::data_part(self.a2ui.clone()));
        }
        let mut reply = Reply::task(self.state.task_state(), parts);
        if let Reply::Task { metadata, .. } = &mut reply {
            let form = json!({FORM_ID_KEY: self.form_id, "workflow": self.workflow,
                              "version": self.version, "state": self.state});
            *metadata = Some(HashMap::from([(CAMPUS_FORM_KEY.to_string(), form)]));
        }
        reply
    }
}

/// What a handler does to its form: the reply and the form's next values and screen. The
/// version grows by one whenever the reply draws a screen (A2UI messages).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub state: FormState,
    pub text: String,
    /// The next screen's messages for the surface, drawn at the form's next version.
    pub a2ui: Vec<Value>,
    pub errors: Vec<Value>,
    pub receipt: Option<Value>,
    /// The screen shown after this step (unchanged when `None`).
    pub screen: Option<String>,
    /// The values the agent holds after this step (unchanged when `None`).
    pub values: Option<Value>,
}

impl Step {
    /// A step that only says something (a rejection without a new screen).
    pub fn text(state: FormState, text: impl Into<String>) -> Step {
        Step {
            state,
            text: text.into(),
            a2ui: Vec::new(),
            errors: Vec::new(),
            receipt: None,
            screen: None,
            values: None,
        }
    }
}

/// Why a handler did not finish.
#[derive(Debug, thiserror::Error)]
pub enum HandlerError {
    /// Roll back and call the handler again with `redo` set (a booking whose slot was
    /// taken meanwhile: the refusal is decided after the failed write is undone).
    #[error("the handler asked to run again")]
    Redo,
    /// A bug: a payload the official schemas refuse.
    #[error("an a2ui payload failed the schema: {0}")]
    Schema(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<BookingError> for HandlerError {
    fn from(e: BookingError) -> Self {
        match e {
            BookingError::SlotTaken => HandlerError::Redo,
            BookingError::Store(e) => HandlerError::Store(e),
        }
    }
}

/// One checked action, as a handler sees it.
#[derive(Debug, Clone)]
pub struct Action {
    pub form: Form,
    /// `action.event.name`
    pub name: String,
    /// The action's context without `formVersion`: the form's values.
    pub values: Map<String, Value>,
    pub student_id: String,
    /// The version the handler's screen is drawn at (the form's version + 1).
    pub next_version: u32,
}

/// The buttons a screen has: (component id, action name).
pub type Buttons = fn(workflow: &str, screen: &str) -> &'static [(&'static str, &'static str)];

/// The form host over an agent's store.
#[derive(Clone)]
pub struct FormHost {
    store: Store,
    /// What decides a chat message (answer, clarify, offer, out of scope): the heuristic,
    /// or in live mode the model; chosen at agent startup.
    decider: Arc<dyn forms::intent::Decide>,
    /// The test-only delay, until the first action has taken it.
    delay: Arc<(Duration, AtomicBool)>,
}

fn refuse(field: &str, code: &str, message: &str) -> RpcError {
    RpcError::refusal(field, code, message)
}

fn reused() -> RpcError {
    refuse(
        "message.metadata.operationId",
        code::OPERATION_REUSED,
        "this operation id was used for another action",
    )
}

fn store_failed(e: &StoreError) -> RpcError {
    tracing::warn!(code = e.code(), "form store failed: {e}");
    RpcError::internal()
}

/// 1–128 of `A-Za-z0-9_-`.
fn is_operation_id(s: &str) -> bool {
    (1..=128).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl FormHost {
    /// A host over `store` whose chat messages `decider` reads; `env` is read once for
    /// the [test delay](TEST_DELAY_ENV).
    pub fn new(
        store: Store,
        decider: Arc<dyn forms::intent::Decide>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> FormHost {
        let ms = env(TEST_DELAY_ENV).and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(0);
        if ms > 0 {
            tracing::warn!(ms, "{TEST_DELAY_ENV} is set: the first form action waits (a test switch)");
        }
        FormHost { store, decider, delay: Arc::new((Duration::from_millis(ms), AtomicBool::new(ms > 0))) }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether a message is a form action (it carries an A2UI part).
    pub fn is_action(ctx: &RequestContext) -> bool {
        ctx.message.parts.iter().any(a2ui::part::is_a2ui_part)
    }

    /// Whether the client asked for A2UI (`A2A-Extensions`) and renders the basic catalog
    /// (`a2uiClientCapabilities` in the message's or the request's metadata).
    pub fn client_renders(ctx: &RequestContext) -> bool {
        a2ui::part::extension_requested(&ctx.extensions)
            && (a2ui::part::client_supports(ctx.message.metadata.as_ref(), a2ui::BASIC_CATALOG_ID)
                || a2ui::part::client_supports(ctx.metadata.as_ref(), a2ui::BASIC_CATALOG_ID))
    }

    /// The student the Hub says this is.
    pub fn student_id(ctx: &RequestContext) -> String {
        ctx.message
            .metadata
            .as_ref()
            .and_then(|m| m.get(STUDENT_ID_KEY))
            .and_then(Value::as_str)
            .filter(|s| (1..=64).contains(&s.len()))
            .unwrap_or(ANONYMOUS_STUDENT)
            .to_string()
    }

    /// What a chat message is to an agent hosting `workflow`: an answer to "continue or
    /// replace" while such a form is open gets the form; otherwise the injected decider
    /// decides — answer (the agent's answerer), clarify (`texts.clarify`), out of scope
    /// (`texts.out_of_scope`) or offer the form, which then needs the workflow enabled
    /// (`policy`) and a client able to draw it, else the agent says why in words. A
    /// model decider's failure is [`Chat::Failed`]; `call` is what its call cost.
    pub async fn read_chat(
        &self,
        ctx: &RequestContext,
        workflow: forms::Workflow,
        policy: &skills::Policy,
        texts: &ChatTexts,
    ) -> ChatRead {
        use forms::intent::Decision;
        let text = ctx.text();
        let choice = OpenFormChoice::read(&text);
        let open = match choice {
            Some(_) => self.open_form_of(&ctx.context_id, workflow.id()).await.ok().flatten(),
            None => None,
        };
        let mut call = None;
        if open.is_none() {
            let decided = match self.decider.decide(workflow, &text).await {
                Ok(decided) => decided,
                Err(e) => return ChatRead { chat: Chat::Failed(e), call: None, model: self.decider.model() },
            };
            call = decided.call;
            let chat = match decided.decision {
                Decision::OfferForm => None,
                Decision::Answer => Some(Chat::Question),
                Decision::Clarify => Some(Chat::Say(texts.clarify, "clarify")),
                Decision::OutOfScope => Some(Chat::Say(texts.out_of_scope, "out_of_scope")),
            };
            if let Some(chat) = chat {
                return ChatRead { chat, call, model: self.decider.model() };
            }
        }
        let chat = if !skill_enabled(policy, workflow.id()) {
            Chat::Say(texts.disabled, "form_disabled")
        } else if !FormHost::client_renders(ctx) {
            Chat::Say(texts.no_renderer, "form_not_renderable")
        } else {
            Chat::Offer(open.and(choice))
        };
        ChatRead { chat, call, model: self.decider.model() }
    }

    /// How this host's chat messages are decided (`heuristic`, `live`).
    pub fn decider_label(&self) -> &'static str {
        self.decider.label()
    }

    /// The open form of `workflow` in this conversation.
    pub async fn open_form_of(&self, context_id: &str, workflow: &str) -> Result<Option<Form>, RpcError> {
        let (context, workflow) = (context_id.to_string(), workflow.to_string());
        self.store.run(move |s| s.open_form_of(&context, &workflow)).await.map_err(|e| store_failed(&e))
    }

    /// Opens a form (superseding the conversation's open one of this workflow) and answers
    /// with it: `build(form id)` draws version 1. The payload is schema-checked first.
    pub async fn offer(
        &self,
        context_id: &str,
        workflow: &str,
        screen: &str,
        values: Value,
        text: String,
        build: impl FnOnce(&str) -> Vec<Value>,
    ) -> Result<Outcome, RpcError> {
        let (context, wf, sc) = (context_id.to_string(), workflow.to_string(), screen.to_string());
        let (form, _) = self
            .store
            .run(move |s| s.open_form(&wf, &context, &sc, &values))
            .await
            .map_err(|e| store_failed(&e))?;
        let messages = build(&form.form_id);
        checked(&messages)?;
        Ok(Outcome {
            form_id: form.form_id,
            workflow: workflow.to_string(),
            version: form.version,
            state: FormState::Open,
            text,
            a2ui: messages,
            errors: Vec::new(),
            receipt: None,
        })
    }

    /// Re-sends an open form as it stands: `build(form, version)` draws it whole (a
    /// createSurface first) at the next version, on `screen`.
    pub async fn resend(
        &self,
        form: Form,
        screen: &str,
        text: String,
        build: impl FnOnce(&Form, u32) -> Vec<Value>,
    ) -> Result<Outcome, RpcError> {
        let version = form.version + 1;
        let messages = build(&form, version);
        checked(&messages)?;
        let change = FormChange {
            version,
            state: StoreState::Open,
            screen: screen.to_string(),
            values: form.values.clone(),
        };
        let id = form.form_id.clone();
        let from = form.version;
        self.store.run(move |s| s.update_form(&id, from, &change)).await.map_err(|e| match e {
            StoreError::Conflict { .. } => {
                refuse("metadata.formId", code::FORM_STALE, "the form changed meanwhile")
            }
            e => store_failed(&e),
        })?;
        Ok(Outcome {
            form_id: form.form_id,
            workflow: form.workflow,
            version,
            state: FormState::Open,
            text,
            a2ui: messages,
            errors: Vec::new(),
            receipt: None,
        })
    }

    /// Checks an action in the order the contract lists and runs `handler` once for it.
    /// `workflows` are the workflows this agent hosts, `enabled` says whether one is enabled
    /// now, `buttons` which buttons a screen has.
    pub async fn act<H>(
        &self,
        ctx: &RequestContext,
        workflows: &[forms::Workflow],
        enabled: impl Fn(&str) -> bool,
        buttons: Buttons,
        handler: H,
    ) -> Result<Outcome, RpcError>
    where
        H: Fn(&Tx<'_>, &Action, bool) -> Result<Step, HandlerError> + Send + Sync + 'static,
    {
        let meta = ctx.message.metadata.as_ref();
        let text = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).map(str::to_string);
        let Some(form_id) = text(FORM_ID_KEY).filter(|f| (1..=256).contains(&f.len())) else {
            return Err(refuse("message.metadata.formId", code::FORM_UNKNOWN, "no such form"));
        };
        let Some(operation_id) = text(OPERATION_ID_KEY).filter(|o| is_operation_id(o)) else {
            return Err(refuse(
                "message.metadata.operationId",
                code::OPERATION_ID_INVALID,
                "an operation id is 1-128 characters of A-Za-z0-9_-",
            ));
        };
        let id = form_id.clone();
        let form = self.store.run(move |s| s.form(&id)).await.map_err(|e| store_failed(&e))?;
        let Some(form) = form.filter(|f| f.context_id == ctx.context_id) else {
            return Err(refuse(
                "message.metadata.formId",
                code::FORM_UNKNOWN,
                "no such form in this conversation",
            ));
        };
        let Some(workflow) = forms::Workflow::from_id(&form.workflow).filter(|w| workflows.contains(w))
        else {
            return Err(refuse("message.metadata.formId", code::FORM_UNKNOWN, "no such form"));
        };
        let messages = match a2ui::part::read_parts(&ctx.message.parts) {
            Ok(m) => m,
            Err(e) => return Err(refuse("message.parts", code::ACTION_NOT_ALLOWED, &e.to_string())),
        };
        let [message] = messages.as_slice() else {
            return Err(refuse("message.parts", code::ACTION_NOT_ALLOWED, "send exactly one action"));
        };
        let action = message.get("action").cloned().unwrap_or(Value::Null);
        let print = fingerprint(&json!({
            "name": action.get("name"), "surfaceId": action.get("surfaceId"),
            "sourceComponentId": action.get("sourceComponentId"), "context": action.get("context"),
        }));
        let scope = format!("form/{}", form.form_id);
        let (sc, op, fp) = (scope.clone(), operation_id.clone(), print.clone());
        let recorded =
            self.store.run(move |s| s.recorded(&sc, &op, &fp)).await.map_err(|e| store_failed(&e))?;
        match recorded {
            Some(Once::Replayed(result)) => return stored_outcome(result),
            Some(_) => return Err(reused()),
            None => {}
        }
        if form.state != StoreState::Open {
            return Err(refuse("message.metadata.formId", code::FORM_CLOSED, "this form is closed"));
        }
        let mut allowed: Vec<&str> = workflow.fields().to_vec();
        allowed.push(forms::templates::FORM_VERSION_KEY);
        let rules: Vec<a2ui::ActionRule<'_>> =
            workflow.actions().iter().map(|name| a2ui::ActionRule { name, context: &allowed }).collect();
        let checked_action = a2ui::check_action(&a2ui::Policy::fixed_forms(), &form.form_id, &rules, message)
            .map_err(|r| refuse("message.parts", code::ACTION_NOT_ALLOWED, r.reason()))?;
        let from_button = buttons(&form.workflow, &form.screen)
            .iter()
            .any(|(id, name)| *id == checked_action.source_component_id && *name == checked_action.name);
        if !from_button {
            return Err(refuse(
                "message.parts",
                code::ACTION_NOT_ALLOWED,
                "no button of the form's current screen sends this action",
            ));
        }
        let mut values = checked_action.context;
        let drawn = values.remove(forms::templates::FORM_VERSION_KEY).and_then(|v| v.as_u64());
        if drawn != Some(u64::from(form.version)) {
            return Err(refuse("message.parts", code::FORM_STALE, "this screen of the form is out of date"));
        }
        if !enabled(&form.workflow) {
            return Err(refuse(
                "message.metadata.formId",
                code::WORKFLOW_DISABLED,
                "this workflow is turned off in the agent's settings",
            ));
        }
        if form.task_id.is_empty() {
            self.note_task(ctx, &form).await;
        }
        let action = Action {
            next_version: form.version + 1,
            form,
            name: checked_action.name,
            values,
            student_id: FormHost::student_id(ctx),
        };
        let handler = Arc::new(handler);
        // the test switch waits inside the work, which runs on whether or not the caller waits
        let late = self.delay.1.swap(false, Ordering::SeqCst).then_some(self.delay.0);
        let run = |redo: bool| {
            let (store, action, handler) = (self.store.clone(), action.clone(), handler.clone());
            let (scope, op, fp) = (scope.clone(), operation_id.clone(), print.clone());
            tokio::task::spawn_blocking(move || {
                if let Some(wait) = late.filter(|_| !redo) {
                    std::thread::sleep(wait);
                }
                store.once(&scope, &op, &fp, |tx| {
                    let step = handler(tx, &action, redo)?;
                    commit(tx, &action, step)
                })
            })
        };
        let mut done = run(false).await.map_err(|_| RpcError::internal())?;
        if matches!(done, Err(HandlerError::Redo)) {
            done = run(true).await.map_err(|_| RpcError::internal())?;
        }
        match done {
            Ok(Once::Done(v) | Once::Replayed(v)) => stored_outcome(v),
            Ok(Once::Reused) => Err(reused()),
            Err(HandlerError::Store(StoreError::Conflict { .. })) => {
                Err(refuse("message.parts", code::FORM_STALE, "the form changed meanwhile"))
            }
            Err(HandlerError::Schema(e)) => {
                tracing::error!("a form screen failed the a2ui schema, not sent: {e}");
                Err(RpcError::internal())
            }
            Err(HandlerError::Store(e)) => Err(store_failed(&e)),
            Err(HandlerError::Redo) => {
                tracing::error!("a form handler asked to run again twice");
                Err(RpcError::internal())
            }
        }
    }

    /// Notes the task the form travels in (the one the Hub refers to), once.
    async fn note_task(&self, ctx: &RequestContext, form: &Form) {
        let referred = || ctx.message.reference_task_ids.as_ref().and_then(|ids| ids.first().cloned());
        if let Some(task) = ctx.task.as_ref().map(|t| t.id.clone()).or_else(referred) {
            let id = form.form_id.clone();
            if let Err(e) = self.store.run(move |s| s.set_form_task(&id, &task)).await {
                tracing::warn!(code = e.code(), "could not note a form's task");
            }
        }
    }
}

/// Writes the form's change and returns the outcome to record (its A2UI schema-checked).
fn commit(tx: &Tx<'_>, action: &Action, step: Step) -> Result<Value, HandlerError> {
    checked(&step.a2ui).map_err(|_| HandlerError::Schema("see the log".into()))?;
    let form = &action.form;
    let version = if step.a2ui.is_empty() { form.version } else { action.next_version };
    // a step that says nothing of the values keeps them, with what the press carried
    let values =
        step.values.unwrap_or_else(|| with_data(&form.values, pressed(&form.values, &action.values)));
    let change = FormChange {
        version,
        state: stored_state(step.state),
        screen: step.screen.unwrap_or_else(|| form.screen.clone()),
        values,
    };
    // a step that changes nothing still takes the form's version: a racing operation fails
    tx.update_form(&form.form_id, form.version, &change)?;
    let outcome = Outcome {
        form_id: form.form_id.clone(),
        workflow: form.workflow.clone(),
        version,
        state: step.state,
        text: step.text,
        a2ui: step.a2ui,
        errors: step.errors,
        receipt: step.receipt,
    };
    serde_json::to_value(&outcome).map_err(|e| HandlerError::Schema(e.to_string()))
}

/// The key of a form's stored values that holds its data model (what `/form` holds on the
/// page) as the agent last sent it or a press carried it, so "continue" re-sends it as it
/// stands. An agent may keep its own keys beside it.
pub const DATA_KEY: &str = "form";

/// A form's stored values holding only `data` (what an offer stores).
pub fn data_values(data: Value) -> Value {
    json!({ DATA_KEY: data })
}

/// The data model a form's stored values hold (`None` for a form stored without one).
pub fn data_of(values: &Value) -> Option<&Map<String, Value>> {
    values.get(DATA_KEY)?.as_object().filter(|d| !d.is_empty())
}

/// The stored data model with the values a press carried laid over it.
pub fn pressed(values: &Value, carried: &Map<String, Value>) -> Map<String, Value> {
    let mut data = data_of(values).cloned().unwrap_or_default();
    data.extend(carried.iter().map(|(k, v)| (k.clone(), v.clone())));
    data
}

/// `values` with its data model replaced by `data` (the agent's other keys kept).
pub fn with_data(values: &Value, data: Map<String, Value>) -> Value {
    let mut values = values.as_object().cloned().unwrap_or_default();
    values.insert(DATA_KEY.into(), Value::Object(data));
    Value::Object(values)
}

fn stored_outcome(v: Value) -> Result<Outcome, RpcError> {
    serde_json::from_value(v).map_err(|e| {
        tracing::error!("a stored form result does not decode: {e}");
        RpcError::internal()
    })
}

/// The official schemas' verdict on a payload; a refusal is a bug, logged, never sent.
pub fn checked(messages: &[Value]) -> Result<(), RpcError> {
    a2ui::validate_server_messages(messages).map_err(|e| {
        tracing::error!(code = e.code(), "an a2ui payload failed the schema, not sent: {e}");
        RpcError::internal()
    })
}

/// A card that hosts forms: the A2UI extension (not required, the basic catalog) and the
/// media types of actions, screens, errors and receipts in its input and output modes.
pub fn hosting_forms(mut card: a2a::wire::AgentCard) -> a2a::wire::AgentCard {
    let exts = card.capabilities.extensions.get_or_insert_with(Vec::new);
    exts.push(a2ui::part::agent_extension(&[a2ui::BASIC_CATALOG_ID]));
    card.default_input_modes.push(a2ui::MEDIA_TYPE.into());
    for mode in [a2ui::MEDIA_TYPE, FORM_ERRORS_MEDIA_TYPE, FORM_RECEIPT_MEDIA_TYPE] {
        card.default_output_modes.push(mode.into());
    }
    card
}

/// Whether a skill (a workflow's id) is enabled in the current policy.
pub fn skill_enabled(policy: &skills::Policy, id: &str) -> bool {
    policy.skills.iter().any(|s| s.id == id)
}

/// What a chat message is to an agent hosting a workflow ([`FormHost::read_chat`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Chat {
    /// A question for the agent's own answerer.
    Question,
    /// Say this text (a clarifying question, an honest decline, or why the form cannot be
    /// offered), with this reply outcome.
    Say(&'static str, &'static str),
    /// Offer the form; with the student's answer to "continue or replace" when one is open.
    Offer(Option<OpenFormChoice>),
    /// The model deciding failed: the agent answers with its code (no second call).
    Failed(llm::LlmError),
}

/// [`FormHost::read_chat`]'s answer and, when a model decided, what its call cost.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRead {
    pub chat: Chat,
    pub call: Option<llm::Reply<()>>,
    /// The model that decided, when one did (live mode).
    pub model: Option<llm::Model>,
}

impl ChatRead {
    /// What the reply's metadata says about the decision's model call (empty for the
    /// heuristic): see [`crate::live::Meter::metadata`]; a failure adds `modelError`.
    pub fn metadata(&self) -> Map<String, Value> {
        let Some(model) = self.model else { return Map::new() };
        let mut meter = crate::live::Meter::new(model);
        if let Some(call) = &self.call {
            meter.ok(forms::intent::PURPOSE, call);
        }
        match &self.chat {
            Chat::Failed(e) => {
                meter.failed(forms::intent::PURPOSE, e);
                crate::live::error_metadata(&meter, e)
            }
            _ => match &self.call {
                Some(call) => {
                    let mut m = meter.metadata();
                    m.insert("latencyMs".into(), json!(call.latency.as_millis() as u64));
                    m
                }
                None => Map::new(),
            },
        }
    }
}

/// What an agent says for each chat outcome that is not its answer or its form.
#[derive(Debug, Clone, Copy)]
pub struct ChatTexts {
    /// Asked when too little was said.
    pub clarify: &'static str,
    /// Said when the message asks for something this agent does not do.
    pub out_of_scope: &'static str,
    /// Said when the form was asked for but its workflow is disabled.
    pub disabled: &'static str,
    /// Said when the form was asked for but the client cannot draw it.
    pub no_renderer: &'static str,
}

pub use hublink::OpenFormChoice;

/// What the agent says when a form of this workflow is already open here.
pub const CONTINUE_OR_REPLACE: &str =
    "You already have this form open here. Say \"continue\" to keep it, or \"replace\" to start a new one.";

/// A text reply to a chat message; asking [`CONTINUE_OR_REPLACE`] marks it for the Hub,
/// which then sends the student's "continue" or "replace" back here (`hublink::AWAITS_KEY`).
pub fn chat_reply(text: &str) -> Reply {
    let mut reply = Reply::text(text);
    if text == CONTINUE_OR_REPLACE
        && let Reply::Message { metadata, .. } = &mut reply
    {
        *metadata =
            Some(HashMap::from([(hublink::AWAITS_KEY.to_string(), json!(hublink::AWAITS_FORM_CHOICE))]));
    }
    reply
}

/// A field error as the reply's errors list carries it.
pub fn field_errors(errors: &[forms::FieldError]) -> Vec<Value> {
    errors.iter().map(|e| json!({"field": e.field, "code": e.code, "message": e.message})).collect()
}
