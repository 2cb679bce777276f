//! The handler contract: what a form's reply says ([`Outcome`]), what a handler does to
//! its form ([`Step`]) and why it may not finish ([`HandlerError`]), the checked action it
//! is given ([`Action`]), the refusal codes and the checks every payload passes.

use std::collections::HashMap;

use a2a::RpcError;
use a2a::server::Reply;
use a2a::wire::Part;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use store::StoreError;
use store::bookings::BookingError;
use store::forms::{Form, StoredState as StoreState};
use vocab::FormState;
use vocab::form::{CAMPUS_FORM_KEY, FORM_ERRORS_MEDIA_TYPE, FORM_RECEIPT_MEDIA_TYPE, SpecialistCampusForm};

/// Refusal codes (Campus's own words: `vocab::form::refusal`).
pub use vocab::form::refusal as code;

/// What the store keeps of a reply's form state: a rejection leaves the form open.
pub(super) fn stored_state(state: FormState) -> StoreState {
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
            let form = SpecialistCampusForm {
                form_id: Some(self.form_id.clone()),
                workflow: Some(self.workflow.clone()),
                version: Some(self.version),
                state: Some(self.state),
            };
            let form = serde_json::to_value(form).expect("a form description serializes");
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

pub(super) fn refuse(field: &str, code: &str, message: &str) -> RpcError {
    RpcError::refusal(field, code, message)
}

pub(super) fn reused() -> RpcError {
    refuse(
        "message.metadata.operationId",
        code::OPERATION_REUSED,
        "this operation id was used for another action",
    )
}

/// A store failure as the caller sees it (an internal error; the code in the log).
pub fn store_failed(e: &StoreError) -> RpcError {
    tracing::warn!(code = e.code(), "form store failed: {e}");
    RpcError::internal()
}

/// 1–128 of `A-Za-z0-9_-`.
pub(super) fn is_operation_id(s: &str) -> bool {
    (1..=128).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub(super) fn stored_outcome(v: Value) -> Result<Outcome, RpcError> {
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
