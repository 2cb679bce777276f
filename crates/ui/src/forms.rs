//! Forms in the page (docs/ui-stream.md, "Forms"): the form open in each conversation as
//! the page draws it — an `ACTIVITY_SNAPSHOT` (`a2ui-surface`) holding the whole A2UI
//! message list to draw its current screen from scratch — the checks on an action before
//! the Student sends it, and filling a form from what the student types.
//!
//! The list is what the agent sent (each update appended), plus the values an action
//! carried (so a redraw keeps what the student had chosen), compacted so it never grows
//! past what the screen needs. Only the Student's `act` sends anything: filling from the
//! chat sends nothing.

use a2ui::{ActionRule, Kind, Policy};
use agui::ActivitySnapshot;
use agui::Event;
use axum::http::StatusCode;
use forms::Workflow;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use student::{FieldError, FormReply, FormStatus};

use crate::error::ApiError;

/// The `activityType` of a form's snapshots.
pub const ACTIVITY: &str = "a2ui-surface";
/// The field a version number travels under in every action's context.
const FORM_VERSION: &str = "formVersion";
/// Messages kept for one form after compaction (a form's screens need a handful).
const MAX_MESSAGES: usize = 64;

/// Where a form is, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormState {
    Editing,
    Submitting,
    Rejected,
    ConfirmationPending,
    Submitted,
    Cancelled,
    Superseded,
    NotDelivered,
}

impl FormState {
    pub fn name(self) -> &'static str {
        match self {
            FormState::Editing => "editing",
            FormState::Submitting => "submitting",
            FormState::Rejected => "rejected",
            FormState::ConfirmationPending => "confirmation_pending",
            FormState::Submitted => "submitted",
            FormState::Cancelled => "cancelled",
            FormState::Superseded => "superseded",
            FormState::NotDelivered => "not_delivered",
        }
    }

    /// A closed form never becomes editable again.
    pub fn closed(self) -> bool {
        matches!(self, FormState::Submitted | FormState::Cancelled | FormState::Superseded)
    }

    /// The student may change the form's values (and chat-filling may).
    pub fn fillable(self) -> bool {
        matches!(self, FormState::Editing | FormState::Rejected | FormState::NotDelivered)
    }
}

/// The form open in one conversation, as the page draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct FormView {
    pub form_ref: String,
    pub workflow: String,
    pub surface_id: String,
    pub version: u32,
    pub state: FormState,
    messages: Vec<Value>,
    /// Each message's number (parallel to `messages`): numbers only grow, so the page
    /// applies in place the messages numbered past the last it drew.
    seqs: Vec<u64>,
    next_seq: u64,
    errors: Vec<FieldError>,
    receipt: Option<Value>,
    /// The operation of the last press (the one to reconcile while pending).
    operation_id: Option<String>,
    /// The action awaiting a reconcile (confirmation pending).
    pending: Option<Value>,
    /// Why the last press did not go as planned: `{code, message}`.
    problem: Option<Value>,
    /// The values filled from the chat (field → value; the workflow's fields only), carried
    /// into the same form sent again.
    filled: Map<String, Value>,
}

/// The surface a payload creates, if it starts with `createSurface`.
fn created_surface(messages: &[Value]) -> Option<String> {
    let (kind, body) = a2ui::message_kind(messages.first()?)?;
    (kind == Kind::CreateSurface).then(|| body.get("surfaceId")?.as_str().map(str::to_owned))?
}

fn view_state(status: FormStatus) -> FormState {
    match status {
        FormStatus::Open => FormState::Editing,
        FormStatus::Rejected => FormState::Rejected,
        FormStatus::Submitted => FormState::Submitted,
        FormStatus::Cancelled => FormState::Cancelled,
    }
}

fn update_data_model(surface: &str, path: &str, value: Value) -> Value {
    json!({"version": a2ui::VERSION, "updateDataModel": {"surfaceId": surface, "path": path, "value": value}})
}

impl FormView {
    /// A form the agent just opened (its payload starts with `createSurface`).
    pub fn open(form: &FormReply) -> Option<FormView> {
        let surface_id = created_surface(&form.messages)?;
        let mut view = FormView {
            form_ref: form.form_ref.clone(),
            workflow: form.workflow.clone(),
            surface_id,
            version: form.version,
            state: FormState::Editing,
            messages: Vec::new(),
            seqs: Vec::new(),
            next_seq: 1,
            errors: Vec::new(),
            receipt: None,
            operation_id: None,
            pending: None,
            problem: None,
            filled: Map::new(),
        };
        view.apply(form, None);
        Some(view)
    }

    /// The agent's reply for this form: its messages appended (after the values the
    /// action carried, so the agent's own data-model changes win), its state, errors and
    /// receipt. A closed form keeps no messages: nothing of it is drawable again.
    pub fn apply(&mut self, form: &FormReply, carried: Option<&Map<String, Value>>) {
        if let Some(surface) = created_surface(&form.messages) {
            // the same form sent again as it stands ("continue"): drawn from this payload
            self.surface_id = surface;
            self.clear();
        } else if let Some(values) = carried {
            for (field, value) in values.iter().filter(|(k, _)| k.as_str() != FORM_VERSION) {
                self.push(update_data_model(&self.surface_id, &format!("/form/{field}"), value.clone()));
            }
        }
        for m in &form.messages {
            self.push(m.clone());
        }
        self.version = self.version.max(form.version);
        self.state = view_state(form.state);
        self.errors = form.errors.clone();
        self.receipt = form.receipt.clone().or(self.receipt.take());
        self.pending = None;
        self.problem = None;
        if self.state.closed() {
            self.clear();
        } else {
            self.compact();
        }
    }

    fn push(&mut self, message: Value) {
        self.messages.push(message);
        self.seqs.push(self.next_seq);
        self.next_seq += 1;
    }

    fn clear(&mut self) {
        self.messages.clear();
        self.seqs.clear();
    }

    /// Keeps the messages (and their numbers) `keep` says.
    fn keep(&mut self, keep: impl Fn(usize, &Value) -> bool) {
        let (messages, seqs) = self
            .messages
            .drain(..)
            .zip(self.seqs.drain(..))
            .enumerate()
            .filter(|(i, (m, _))| keep(*i, m))
            .map(|(_, pair)| pair)
            .unzip();
        self.messages = messages;
        self.seqs = seqs;
    }

    /// Drops every message a later one makes moot: an `updateDataModel` at or under a
    /// later one's path, an `updateComponents` whose every component a later one redefines.
    /// The screen drawn from the list is the same; the list stays as small as the screen.
    fn compact(&mut self) {
        let keep: Vec<bool> = (0..self.messages.len())
            .map(|i| {
                let Some((kind, body)) = a2ui::message_kind(&self.messages[i]) else { return true };
                let later = || self.messages[i + 1..].iter().filter_map(a2ui::message_kind);
                match kind {
                    Kind::UpdateDataModel => {
                        let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
                        !later().any(|(k, b)| {
                            let p = b.get("path").and_then(Value::as_str).unwrap_or("/");
                            k == Kind::UpdateDataModel
                                && (p == "/"
                                    || p == path
                                    || path.starts_with(&format!("{}/", p.trim_end_matches('/'))))
                        })
                    }
                    Kind::UpdateComponents => {
                        let ids = |b: &Map<String, Value>| -> Vec<String> {
                            b.get("components")
                                .and_then(Value::as_array)
                                .map(|c| {
                                    c.iter()
                                        .filter_map(|c| c.get("id")?.as_str().map(str::to_owned))
                                        .collect()
                                })
                                .unwrap_or_default()
                        };
                        let mine = ids(body);
                        let redefined: Vec<String> = later()
                            .filter(|(k, _)| *k == Kind::UpdateComponents)
                            .flat_map(|(_, b)| ids(b))
                            .collect();
                        !mine.iter().all(|id| redefined.contains(id))
                    }
                    _ => true,
                }
            })
            .collect();
        self.keep(|i, _| keep[i]);
        if self.messages.len() > MAX_MESSAGES {
            // a screen no compaction shrinks: the oldest data-model values go first
            let excess = self.messages.len() - MAX_MESSAGES;
            let dropped = std::cell::Cell::new(0);
            self.keep(|_, m| {
                let drop = dropped.get() < excess && m.get("updateDataModel").is_some();
                dropped.set(dropped.get() + usize::from(drop));
                !drop
            });
        }
    }

    /// The messages drawn (for tests).
    pub fn messages(&self) -> &[Value] {
        &self.messages
    }

    /// Another form took this one's place in the conversation.
    pub fn supersede(&mut self) {
        self.state = FormState::Superseded;
        self.clear();
        self.pending = None;
    }

    /// A press is on its way.
    pub fn submitting(&mut self, operation_id: &str) {
        self.state = FormState::Submitting;
        self.operation_id = Some(operation_id.to_string());
        self.problem = None;
    }

    /// Nothing reached the agent: the draft stays, Submit stays enabled.
    pub fn not_delivered(&mut self, reason: &str) {
        self.state = FormState::NotDelivered;
        self.problem = Some(json!({"code": "not_delivered", "message": reason}));
    }

    /// Sent, no confirmation: only a reconcile (the same action, the same operation id).
    pub fn uncertain(&mut self, action: Value, reason: &str) {
        self.state = FormState::ConfirmationPending;
        self.pending = Some(action);
        self.problem = Some(json!({"code": "outcome_unknown", "message": reason}));
    }

    /// The Hub or the agent refused the press (nothing happened): back to where it was,
    /// or closed when the form is gone.
    pub fn refused(&mut self, before: FormState, code: &str, message: &str) {
        self.problem = Some(json!({"code": code, "message": message}));
        if matches!(code, "form_closed" | "form_expired" | "form_unknown" | "form_not_yours") {
            self.supersede();
        } else {
            self.state = before;
        }
    }

    /// Values filled from the chat: one `updateDataModel` per field.
    pub fn fill(&mut self, values: &[(String, Value)]) {
        for (field, value) in values {
            self.push(update_data_model(&self.surface_id, &format!("/form/{field}"), value.clone()));
            self.filled.insert(field.clone(), value.clone());
        }
        self.compact();
    }

    /// This form sent again as it stands under a new reference (`new`, "continue"): the
    /// values filled from the chat here that the agent has not seen are filled in it too
    /// (the student's word wins over the agent's stored value). Another form: nothing.
    pub fn carry_into(&self, new: &mut FormView) {
        if new.surface_id != self.surface_id || self.filled.is_empty() {
            return;
        }
        let values: Vec<(String, Value)> = self.filled.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        new.fill(&values);
    }

    /// The stream event: `ACTIVITY_SNAPSHOT` with `replace: true`, message id `form-<formRef>`.
    pub fn snapshot(&self, ts: i64) -> Event {
        let mut content = Map::new();
        content.insert("formRef".into(), json!(self.form_ref));
        content.insert("workflow".into(), json!(self.workflow));
        content.insert("version".into(), json!(self.version));
        content.insert("state".into(), json!(self.state.name()));
        content.insert("surfaceId".into(), json!(self.surface_id));
        content.insert("messages".into(), Value::Array(self.messages.clone()));
        content.insert("seqs".into(), json!(self.seqs));
        content.insert("errors".into(), serde_json::to_value(&self.errors).unwrap_or(Value::Null));
        content.insert("receipt".into(), self.receipt.clone().unwrap_or(Value::Null));
        content.insert("operationId".into(), json!(self.operation_id));
        content.insert("pendingAction".into(), self.pending.clone().unwrap_or(Value::Null));
        content.insert("problem".into(), self.problem.clone().unwrap_or(Value::Null));
        Event::ActivitySnapshot(ActivitySnapshot {
            message_id: format!("form-{}", self.form_ref),
            activity_type: ACTIVITY.into(),
            content,
            replace: Some(true),
            timestamp: Some(ts),
        })
    }

    /// Checks a press before anything is sent: the form is this conversation's and takes
    /// actions now (409 `form_closed`, `action_in_progress`, `reconcile_only`), the action
    /// passes the allowlist for this workflow (400 with its `a2ui_…` code) and the values
    /// the form's own rules can check (400 `invalid_value`). Returns the action object.
    pub fn check_action(&self, press: &Press, today: jiff::civil::Date) -> Result<Value, ApiError> {
        let conflict = |code, message: &str| ApiError::new(StatusCode::CONFLICT, code, message);
        if press.form_ref != self.form_ref {
            return Err(conflict("form_unknown", "this conversation has no such form open"));
        }
        match self.state {
            s if s.closed() => return Err(conflict("form_closed", "this form is closed")),
            FormState::Submitting => {
                return Err(conflict("action_in_progress", "this form's last press has no answer yet"));
            }
            _ => {}
        }
        let workflow = Workflow::from_id(&self.workflow)
            .ok_or_else(|| conflict("form_unknown", "this form's workflow is not known here"))?;
        let mut keys: Vec<&str> = workflow.fields().to_vec();
        keys.push(FORM_VERSION);
        let rules: Vec<ActionRule<'_>> =
            workflow.actions().iter().map(|name| ActionRule { name, context: &keys }).collect();
        let checked = a2ui::check_action(&Policy::fixed_forms(), &self.surface_id, &rules, &press.message)
            .map_err(|r| {
                let mut e = ApiError::new(StatusCode::BAD_REQUEST, r.code(), r.reason().to_string());
                e.field = Some("forwardedProps.a2uiAction".into());
                e
            })?;
        if self.state == FormState::ConfirmationPending {
            let same = self.operation_id.as_deref() == Some(press.operation_id.as_str())
                && self.pending.as_ref().is_some_and(|p| same_action(p, &press.message["action"]));
            if !same {
                return Err(conflict(
                    "reconcile_only",
                    "this form awaits a confirmation: only the same action with the same operationId may be sent",
                ));
            }
        }
        for (field, value) in checked.context.iter().filter(|(k, _)| k.as_str() != FORM_VERSION) {
            // a slot id is the agent's to check; the rest are the form's own rules
            if field == "slot" && value.as_array().is_some_and(|a| a.is_empty()) {
                continue;
            }
            if let Err(e) = forms::rules::check_value_with(workflow, field, value, today, &checked.context) {
                let mut err = ApiError::new(StatusCode::BAD_REQUEST, "invalid_value", e.message);
                err.field = Some(format!("forwardedProps.a2uiAction.action.context.{field}"));
                return Err(err);
            }
        }
        Ok(press.message["action"].clone())
    }
}

/// Two actions are the same press when all but their `timestamp` agree.
fn same_action(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("timestamp");
        }
        v
    };
    strip(a) == strip(b)
}

/// A press, as `forwardedProps` carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Press {
    pub form_ref: String,
    pub operation_id: String,
    /// `{"version":"v0.9","action":{…}}`.
    pub message: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Forwarded {
    a2ui_action: Value,
    form_ref: String,
    operation_id: String,
}

/// Reads `forwardedProps` when it carries a press (`a2uiAction`); `Ok(None)` otherwise.
pub fn read_press(forwarded: Option<&Value>) -> Result<Option<Press>, ApiError> {
    let Some(forwarded) = forwarded.filter(|f| f.get("a2uiAction").is_some()) else { return Ok(None) };
    let f: Forwarded = serde_path_to_error::deserialize(forwarded).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { "forwardedProps".to_string() } else { format!("forwardedProps.{path}") };
        ApiError::invalid(field, "a press is {a2uiAction, formRef, operationId} and nothing else")
    })?;
    let id_ok = |id: &str, max: usize| {
        (1..=max).contains(&id.len())
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if !id_ok(&f.operation_id, 128) {
        return Err(ApiError::invalid(
            "forwardedProps.operationId",
            "1 to 128 characters of A-Z, a-z, 0-9, _ and -",
        ));
    }
    if !id_ok(&f.form_ref, 128) {
        return Err(ApiError::invalid(
            "forwardedProps.formRef",
            "1 to 128 characters of A-Z, a-z, 0-9, _ and -",
        ));
    }
    if !f.a2ui_action.is_object() || f.a2ui_action.get("action").is_none() {
        return Err(ApiError::invalid(
            "forwardedProps.a2uiAction",
            "an A2UI client message {version, action}",
        ));
    }
    Ok(Some(Press { form_ref: f.form_ref, operation_id: f.operation_id, message: f.a2ui_action }))
}

/// What a chat message filled in an open form, and what it did not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filling {
    /// (field, the data model's value) for each value the form's rules took.
    pub filled: Vec<(String, Value)>,
    /// (field, why not) for each value read that the form would not take.
    pub not_filled: Vec<(String, String)>,
    /// The sentences nothing was read from: what still goes to the Hub.
    pub rest: String,
}

impl Filling {
    /// The note for the student: what was filled, what not and why; `None` when nothing was read.
    pub fn note(&self) -> Option<String> {
        if self.filled.is_empty() && self.not_filled.is_empty() {
            return None;
        }
        let mut note = String::new();
        if !self.filled.is_empty() {
            let shown: Vec<String> =
                self.filled.iter().map(|(f, v)| format!("{} ({})", label(f), shown_value(v))).collect();
            note.push_str(&format!("Filled in the form: {}.", shown.join(", ")));
        }
        for (field, why) in &self.not_filled {
            if !note.is_empty() {
                note.push(' ');
            }
            note.push_str(&format!("Not filled: {} — {}.", label(field), why.trim_end_matches('.')));
        }
        if self.rest.is_empty() {
            note.push_str(" Nothing was sent; check the form and press its button when ready.");
        } else {
            // the rest of the message does go out: only the form stays here
            note.push_str(" The form was not sent (the rest of your message was); check it and press its button when ready.");
        }
        Some(note)
    }
}

fn label(field: &str) -> &str {
    match field {
        "groupSize" => "group size",
        "date" => "date",
        other => other,
    }
}

fn shown_value(v: &Value) -> String {
    match v {
        Value::Array(a) => a.iter().map(shown_value).collect::<Vec<_>>().join(", "),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Splits a message into sentences (at `.`, `?`, `!` followed by a space or the end), so
/// an email's dots stay inside their sentence.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'?' | b'!') && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()) {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out.into_iter().map(str::trim).filter(|s| !s.is_empty()).collect()
}

/// The candidate values a reading gives `workflow`'s fields, as its data model holds them.
fn candidates(workflow: Workflow, r: &forms::Reading) -> Vec<(&'static str, Value)> {
    let mv =
        |field: &'static str, text: String| (field, forms::templates::model_value(workflow, field, &text));
    let mut out = Vec::new();
    match workflow {
        Workflow::Tutoring => {
            if let Some(n) = &r.name {
                out.push(mv("name", n.clone()));
            }
            if let Some(e) = &r.email {
                out.push(mv("email", e.clone()));
            }
            if let Some(d) = &r.date {
                out.push(mv("date", d.date.to_string()));
            }
            let period = r.period.or_else(|| r.time.map(|t| forms::Period::of_hour(t.hour())));
            if let Some(p) = period {
                out.push(mv("period", p.as_str().to_string()));
            }
        }
        Workflow::Booking => {
            if let Some(d) = &r.date {
                out.push(mv("date", d.date.to_string()));
            }
            if let Some(c) = r.room {
                out.push(mv("room", c.to_string()));
            }
            if let Some(h) = r.duration_hours {
                out.push(mv("duration", h.to_string()));
            }
            if let Some(g) = r.group_size {
                out.push(mv("groupSize", g.to_string()));
            }
        }
    }
    out
}

/// Reads a typed message for the open form: each sentence by `forms::read`; a value the
/// form's own rules take is filled, one they refuse is not (with why), and the sentences
/// nothing was read from are what still goes to the Hub. Sends nothing.
pub fn fill_from_chat(workflow: Workflow, text: &str, now: &jiff::ZonedDateTime) -> Filling {
    let today = now.date();
    let mut filling = Filling::default();
    let mut rest = Vec::new();
    let mut form = Map::new();
    for sentence in sentences(text).into_iter().flat_map(split_question) {
        if asks_something(sentence) {
            // "what are the opening hours on Sunday?" asks the university; its Sunday is
            // no answer to the form
            rest.push(sentence);
            continue;
        }
        let reading = forms::read(sentence, now);
        let found = candidates(workflow, &reading);
        if found.is_empty() {
            let noted: Vec<&forms::read::Note> =
                reading.notes.iter().filter(|n| workflow.fields().contains(&n.field)).collect();
            if noted.is_empty() {
                rest.push(sentence);
            }
            for n in noted {
                filling.not_filled.push((n.field.to_string(), n.reason.clone()));
            }
            continue;
        }
        for (field, value) in found {
            match forms::rules::check_value_with(workflow, field, &value, today, &form) {
                Ok(()) => {
                    form.insert(field.to_string(), value.clone());
                    filling.filled.retain(|(f, _)| f != field);
                    filling.filled.push((field.to_string(), value));
                }
                Err(e) => filling.not_filled.push((field.to_string(), e.message)),
            }
        }
    }
    filling.rest = rest.join(" ");
    filling
}

/// A sentence that ends by asking something after a pause (`,`, `;`, a dash):
/// "book it for tomorrow — also what is a derivative?" is the words for the form, then the
/// question, which goes out as it is. Any other sentence is one piece.
fn split_question(sentence: &str) -> Vec<&str> {
    if asks_something(sentence) || !sentence.ends_with('?') {
        return vec![sentence];
    }
    let chars: Vec<(usize, char)> = sentence.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let spaced = |j: usize| chars.get(j).is_some_and(|(_, c)| c.is_whitespace());
        // a hyphen is a pause only with a space either side: "2025-11-20" is one date
        let pause =
            matches!(c, ',' | ';' | '—' | '–') || (c == '-' && i > 0 && spaced(i - 1) && spaced(i + 1));
        if !pause {
            continue;
        }
        let (head, tail) = (sentence[..at].trim(), sentence[at + c.len_utf8()..].trim());
        if !head.is_empty() && asks_something(tail) {
            return vec![head, tail];
        }
    }
    vec![sentence]
}

/// A sentence that asks a question (a question mark after a question word, perhaps after
/// "also", "and", …): it goes to the university as it is, and fills nothing.
fn asks_something(sentence: &str) -> bool {
    const ASKING: &[&str] = &[
        "what", "what's", "whats", "when", "where", "which", "who", "why", "how", "is", "are", "can",
        "could", "do", "does", "will", "should",
    ];
    const LEADING: &[&str] = &["also", "and", "but", "plus", "oh", "btw", "so", "anyway"];
    let first = sentence
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase())
        .find(|w| !LEADING.contains(&w.as_str()))
        .unwrap_or_default();
    sentence.trim_end().ends_with('?') && ASKING.contains(&first.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(messages: Vec<Value>, state: FormStatus, version: u32) -> FormReply {
        FormReply {
            form_ref: "hf-1".into(),
            workflow: "study-room-booking".into(),
            version,
            state,
            messages,
            errors: vec![],
            receipt: None,
            text: String::new(),
        }
    }

    fn noon() -> jiff::ZonedDateTime {
        // a Wednesday
        "2025-11-19T12:00:00-08:00[America/Los_Angeles]".parse().unwrap()
    }

    fn first() -> Vec<Value> {
        let today = noon().date();
        forms::templates::booking_form("s-1", &forms::Prefill::default(), today, 1).messages
    }

    #[test]
    fn updates_are_appended_and_compacted_and_a_closed_form_keeps_nothing_drawable() {
        let mut view = FormView::open(&form(first(), FormStatus::Open, 1)).unwrap();
        assert_eq!((view.surface_id.as_str(), view.messages().len()), ("s-1", 3));
        let slots = forms::templates::booking_slots("s-1", &[], 2);
        let carried: Map<String, Value> =
            serde_json::from_value(json!({"date": "2025-11-20", "room": ["A"], "formVersion": 1})).unwrap();
        for _ in 0..20 {
            view.apply(&form(slots.clone(), FormStatus::Open, 2), Some(&carried));
        }
        assert!(view.messages().len() <= 8, "compacted: {}", view.messages().len());
        assert_eq!(view.version, 2);
        let kinds: Vec<&str> =
            view.messages().iter().filter_map(a2ui::message_kind).map(|(k, _)| k.key()).collect();
        assert_eq!(kinds[0], "createSurface");
        let date = view.messages().iter().any(|m| m["updateDataModel"]["path"] == "/form/date");
        assert!(date, "the carried date is kept for a redraw");
        let done = vec![forms::templates::delete_surface("s-1")];
        view.apply(&form(done, FormStatus::Submitted, 3), None);
        assert_eq!(view.state, FormState::Submitted);
        assert!(view.messages().is_empty());
        let Event::ActivitySnapshot(s) = view.snapshot(1) else { panic!() };
        assert_eq!(
            (s.message_id.as_str(), s.content["state"].as_str(), s.replace),
            ("form-hf-1", Some("submitted"), Some(true))
        );
    }

    /// The value the drawn list leaves at `/form/<field>` (the last message that sets it).
    fn drawn_value(view: &FormView, field: &str) -> Value {
        let mut value = Value::Null;
        for m in view.messages() {
            let u = &m["updateDataModel"];
            match u["path"].as_str() {
                Some("/form") => value = u["value"][field].clone(),
                Some(p) if p == format!("/form/{field}") => value = u["value"].clone(),
                _ => {}
            }
        }
        value
    }

    #[test]
    fn values_filled_from_the_chat_are_carried_into_the_same_form_sent_again_only() {
        let mut old = FormView::open(&form(first(), FormStatus::Open, 1)).unwrap();
        old.fill(&[("groupSize".into(), json!("5"))]);
        // "continue": the same surface under a new reference, the agent's values in it
        let mut again = form(first(), FormStatus::Open, 2);
        again.form_ref = "hf-2".into();
        let mut new = FormView::open(&again).unwrap();
        old.carry_into(&mut new);
        assert_eq!(drawn_value(&new, "groupSize"), json!("5"), "the chat's value wins");
        assert_eq!(drawn_value(&new, "room"), json!([]), "an untouched field keeps the agent's");
        // another form (a new surface) takes nothing
        let other = forms::templates::booking_form("s-2", &forms::Prefill::default(), noon().date(), 1);
        let mut replaced = form(other.messages, FormStatus::Open, 1);
        replaced.form_ref = "hf-3".into();
        let mut fresh = FormView::open(&replaced).unwrap();
        old.carry_into(&mut fresh);
        assert_eq!(drawn_value(&fresh, "groupSize"), json!(""));
    }

    /// The page applies in place the messages numbered past the last it drew: the numbers
    /// only grow, compaction drops a message with its number, a new surface starts over.
    #[test]
    fn each_message_keeps_its_number_through_compaction_so_the_page_can_apply_only_new_ones() {
        let seqs = |v: &FormView| -> Vec<u64> {
            let Event::ActivitySnapshot(s) = v.snapshot(1) else { panic!() };
            serde_json::from_value(s.content["seqs"].clone()).unwrap()
        };
        let mut view = FormView::open(&form(first(), FormStatus::Open, 1)).unwrap();
        assert_eq!(seqs(&view), [1, 2, 3]);
        let slots = forms::templates::booking_slots("s-1", &[], 2);
        let n = slots.len() as u64;
        let room = |r: &str| -> Map<String, Value> { serde_json::from_value(json!({"room": [r]})).unwrap() };
        view.apply(&form(slots.clone(), FormStatus::Open, 2), Some(&room("A")));
        let after_one = seqs(&view);
        assert_eq!(after_one.len(), view.messages().len());
        assert_eq!(*after_one.last().unwrap(), 3 + 1 + n);
        // the same value again (A, then B, then A): a new number, the old A dropped
        view.apply(&form(slots.clone(), FormStatus::Open, 2), Some(&room("B")));
        view.apply(&form(slots, FormStatus::Open, 2), Some(&room("A")));
        let s = seqs(&view);
        assert!(s.windows(2).all(|w| w[0] < w[1]), "increasing: {s:?}");
        assert_eq!(*s.last().unwrap(), 3 + 3 * (1 + n));
        let rooms: Vec<(u64, &Value)> = s
            .iter()
            .zip(view.messages())
            .filter(|(_, m)| m["updateDataModel"]["path"] == "/form/room")
            .map(|(n, m)| (*n, &m["updateDataModel"]["value"]))
            .collect();
        assert_eq!(rooms, [(3 + 2 * (1 + n) + 1, &json!(["A"]))], "only the last room, under its new number");
        view.apply(&form(first(), FormStatus::Open, 3), None);
        assert_eq!(seqs(&view).first(), Some(&(3 + 3 * (1 + n) + 1)), "a new surface: new numbers");
    }

    fn press(action: Value, op: &str) -> Press {
        Press {
            form_ref: "hf-1".into(),
            operation_id: op.into(),
            message: json!({"version": "v0.9", "action": action}),
        }
    }

    fn action(name: &str, context: Value) -> Value {
        json!({"name": name, "surfaceId": "s-1", "sourceComponentId": "find_btn",
            "timestamp": "2025-11-19T20:00:00.000Z", "context": context})
    }

    #[test]
    fn a_press_is_checked_before_anything_is_sent() {
        let today = noon().date();
        let mut view = FormView::open(&form(first(), FormStatus::Open, 1)).unwrap();
        let good = action(
            "find_times",
            json!({"date": "2025-11-20", "room": ["A"], "duration": ["1"], "groupSize": "3", "formVersion": 1}),
        );
        assert!(view.check_action(&press(good.clone(), "op-1"), today).is_ok());
        let code = |r: Result<Value, ApiError>| r.unwrap_err().code;
        assert_eq!(
            code(view.check_action(&press(action("submit_tutoring_request", json!({})), "o"), today)),
            "a2ui_action_not_allowed"
        );
        assert_eq!(
            code(view.check_action(&press(action("find_times", json!({"secret": 1})), "o"), today)),
            "a2ui_context_key_not_allowed"
        );
        let big = action(
            "find_times",
            json!({"date": "2025-11-20", "room": ["A"], "duration": ["1"], "groupSize": "9", "formVersion": 1}),
        );
        let e = view.check_action(&press(big, "o"), today).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_value", Some("forwardedProps.a2uiAction.action.context.groupSize"))
        );
        let mut other = press(good.clone(), "o");
        other.form_ref = "hf-2".into();
        assert_eq!(code(view.check_action(&other, today)), "form_unknown");

        view.submitting("op-1");
        assert_eq!(code(view.check_action(&press(good.clone(), "op-2"), today)), "action_in_progress");
        view.uncertain(good.clone(), "no answer in time");
        assert_eq!(code(view.check_action(&press(good.clone(), "op-2"), today)), "reconcile_only");
        let mut later = good.clone();
        later["timestamp"] = json!("2025-11-19T20:05:00.000Z");
        assert!(view.check_action(&press(later, "op-1"), today).is_ok(), "a reconcile: same action, same id");
        view.supersede();
        assert_eq!(code(view.check_action(&press(good, "op-1"), today)), "form_closed");
    }

    #[test]
    fn press_shapes_are_read_strictly() {
        assert_eq!(read_press(None).unwrap(), None);
        assert_eq!(read_press(Some(&json!({}))).unwrap(), None);
        let ok = json!({"a2uiAction": {"version": "v0.9", "action": {}}, "formRef": "hf-1", "operationId": "op-1"});
        assert!(read_press(Some(&ok)).unwrap().is_some());
        let mut extra = ok.clone();
        extra["x"] = json!(1);
        assert_eq!(read_press(Some(&extra)).unwrap_err().code, "invalid_input");
        let mut bad = ok.clone();
        bad["operationId"] = json!("a b");
        assert_eq!(read_press(Some(&bad)).unwrap_err().field.as_deref(), Some("forwardedProps.operationId"));
    }

    #[test]
    fn chat_filling_over_a_table_of_messages() {
        use Workflow::{Booking, Tutoring};
        let now = noon();
        // (workflow, message, fields filled, fields refused, what still goes to the Hub)
        type Row = (Workflow, &'static str, &'static [&'static str], &'static [&'static str], &'static str);
        let table: &[Row] = &[
            (Booking, "room B", &["room"], &[], ""),
            (Booking, "Room c, 2 hours", &["room", "duration"], &[], ""),
            (Booking, "tomorrow for 4 people", &["date", "groupSize"], &[], ""),
            (
                Booking,
                "make it 1 hour. Is there a printer in the library?",
                &["duration"],
                &[],
                "Is there a printer in the library?",
            ),
            (Booking, "room A for 9 people", &["room"], &["groupSize"], ""),
            (Booking, "for 3 hours", &[], &["duration"], ""),
            (
                Booking,
                "what are the opening hours on Sunday?",
                &[],
                &[],
                "what are the opening hours on Sunday?",
            ),
            (Tutoring, "I'm Alex Student, alex@example.com", &["name", "email"], &[], ""),
            (Tutoring, "next Monday mornings", &["date", "period"], &[], ""),
            (Tutoring, "Saturday afternoon", &["period"], &["date"], ""),
            (Tutoring, "what is the chain rule?", &[], &[], "what is the chain rule?"),
            (Booking, "make it Thursday at 3pm for 3 people", &["date", "groupSize"], &[], ""),
            (Booking, "make it 2024-01-15 for 40 people", &[], &["date", "groupSize"], ""),
            // a question after a pause in the same sentence still goes out, and fills nothing
            (
                Booking,
                "book it for tomorrow afternoon — also what is a derivative?",
                &["date"],
                &[],
                "also what is a derivative?",
            ),
            (Booking, "room B for 2 hours; is it quiet?", &["room", "duration"], &[], "is it quiet?"),
            (
                Tutoring,
                "Monday morning, and how long is a session?",
                &["date", "period"],
                &[],
                "and how long is a session?",
            ),
            (
                Booking,
                "tomorrow - which rooms have a whiteboard?",
                &["date"],
                &[],
                "which rooms have a whiteboard?",
            ),
            // a pause without a question after it splits nothing
            (Booking, "tomorrow, room C - for 2 hours?", &["date", "room", "duration"], &[], ""),
        ];
        let mut wrong = Vec::new();
        for (workflow, message, filled, refused, rest) in table {
            let f = fill_from_chat(*workflow, message, &now);
            let got_filled: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
            let got_refused: Vec<&str> = f.not_filled.iter().map(|(k, _)| k.as_str()).collect();
            if got_filled != *filled || got_refused != *refused || f.rest != *rest {
                wrong.push(format!(
                    "{message:?}: filled {got_filled:?} refused {got_refused:?} rest {:?}",
                    f.rest
                ));
            }
            // a refused value always says why; a message that filled nothing and refused nothing says nothing
            assert_eq!(
                f.note().is_some(),
                !filled.is_empty() || !refused.is_empty(),
                "{message:?}: {:?}",
                f.note()
            );
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn chat_filling_takes_what_the_rules_take_and_passes_the_rest_on() {
        let now = noon();
        let f = fill_from_chat(
            Workflow::Booking,
            "Tomorrow, room A for 2 hours. What are the library hours?",
            &now,
        );
        let fields: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(fields, ["date", "room", "duration"], "{f:?}");
        assert_eq!(f.filled[1].1, json!(["A"]));
        assert_eq!(f.rest, "What are the library hours?");
        assert!(
            f.note().unwrap().contains("The form was not sent (the rest of your message was)"),
            "{:?}",
            f.note()
        );
        let f = fill_from_chat(Workflow::Booking, "room A for 9 people", &now);
        assert_eq!(f.filled.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["room"]);
        assert_eq!(f.not_filled[0].0, "groupSize", "room A takes 4: {f:?}");
        assert!(f.note().unwrap().contains("Not filled: group size"), "{:?}", f.note());
        assert!(
            f.note().unwrap().ends_with("Nothing was sent; check the form and press its button when ready.")
        );
        assert!(f.rest.is_empty());
        let f = fill_from_chat(Workflow::Tutoring, "my email is ada@example.edu. Saturday afternoon", &now);
        let fields: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(fields, ["email", "period"], "{f:?}");
        assert_eq!(f.not_filled[0].0, "date", "a Saturday is no weekday: {f:?}");
        let f = fill_from_chat(Workflow::Tutoring, "what is a derivative?", &now);
        assert_eq!((f.note(), f.rest.as_str()), (None, "what is a derivative?"));
    }
}
