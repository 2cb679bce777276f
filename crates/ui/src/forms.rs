//! Forms in the page (docs/ui-stream.md, "Forms"): the form open in each conversation as
//! the page draws it — an `ACTIVITY_SNAPSHOT` (`a2ui-surface`) holding the whole A2UI
//! message list to draw its current screen from scratch. The checks on a press before
//! the Student sends it are in [`press`]; filling a form from what the student types is
//! `forms::fill`'s.
//!
//! The list is what the agent sent (each update appended), plus the values an action
//! carried (so a redraw keeps what the student had chosen), compacted so it never grows
//! past what the screen needs. Only the Student's `act` sends anything: filling from the
//! chat sends nothing.

mod drawn;
pub mod press;

use a2ui::Kind;
use agui::ActivitySnapshot;
use agui::Event;
use serde_json::{Map, Value, json};
use student::{FieldError, FormReply};
use vocab::FormState as Wire;

/// The `activityType` of a form's snapshots.
pub const ACTIVITY: &str = "a2ui-surface";
/// The field a version number travels under in every action's context.
pub(crate) const FORM_VERSION: &str = "formVersion";
/// Messages kept for one form after compaction (a form's screens need a handful).
const MAX_MESSAGES: usize = 64;

/// Where a form is, as the page shows it (with this window's own presses: sending, not
/// delivered, confirmation pending); what the agent said of it is `vocab::FormState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewState {
    Editing,
    Submitting,
    Rejected,
    ConfirmationPending,
    Submitted,
    Cancelled,
    Superseded,
    NotDelivered,
}

impl ViewState {
    pub const ALL: [ViewState; 8] = [
        ViewState::Editing,
        ViewState::Submitting,
        ViewState::Rejected,
        ViewState::ConfirmationPending,
        ViewState::Submitted,
        ViewState::Cancelled,
        ViewState::Superseded,
        ViewState::NotDelivered,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ViewState::Editing => "editing",
            ViewState::Submitting => "submitting",
            ViewState::Rejected => "rejected",
            ViewState::ConfirmationPending => "confirmation_pending",
            ViewState::Submitted => "submitted",
            ViewState::Cancelled => "cancelled",
            ViewState::Superseded => "superseded",
            ViewState::NotDelivered => "not_delivered",
        }
    }

    /// A closed form never becomes editable again.
    pub fn closed(self) -> bool {
        matches!(self, ViewState::Submitted | ViewState::Cancelled | ViewState::Superseded)
    }

    /// The student may change the form's values (and chat-filling may).
    pub fn fillable(self) -> bool {
        matches!(self, ViewState::Editing | ViewState::Rejected | ViewState::NotDelivered)
    }
}

/// The form open in one conversation, as the page draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct FormView {
    pub form_ref: String,
    pub workflow: String,
    pub surface_id: String,
    pub version: u32,
    pub state: ViewState,
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
    /// The conversation's earlier forms, newest last (at most [`EARLIER_KEPT`]): their
    /// references and whether this one replaced them open (else they had closed). A press
    /// on one is refused as `form_closed` in words that say which, never `form_unknown`.
    earlier: Vec<(String, bool)>,
}

/// How many earlier forms of a conversation a view remembers.
pub const EARLIER_KEPT: usize = 16;

/// The surface a payload creates, if it starts with `createSurface`.
fn created_surface(messages: &[Value]) -> Option<String> {
    let (kind, body) = a2ui::message_kind(messages.first()?)?;
    (kind == Kind::CreateSurface).then(|| body.get("surfaceId")?.as_str().map(str::to_owned))?
}

fn view_state(status: Wire) -> ViewState {
    match status {
        Wire::Open => ViewState::Editing,
        Wire::Rejected => ViewState::Rejected,
        Wire::Submitted => ViewState::Submitted,
        Wire::Cancelled => ViewState::Cancelled,
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
            state: ViewState::Editing,
            messages: Vec::new(),
            seqs: Vec::new(),
            next_seq: 1,
            errors: Vec::new(),
            receipt: None,
            operation_id: None,
            pending: None,
            problem: None,
            filled: Map::new(),
            earlier: Vec::new(),
        };
        view.apply(form, None);
        Some(view)
    }

    /// The agent's reply for this form: its messages appended (after the values the
    /// action carried — by their paths under `/form`, [`FormView::bound_values`] — so the
    /// agent's own data-model changes win), its state, errors and
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

    /// `new` takes this form's place in the conversation: it remembers this one (and those
    /// before it) and whether it was still open.
    pub fn hand_over(&self, new: &mut FormView) {
        new.earlier = self.earlier.clone();
        new.earlier.push((self.form_ref.clone(), !self.state.closed()));
        let over = new.earlier.len().saturating_sub(EARLIER_KEPT);
        new.earlier.drain(..over);
    }

    /// Whether `form_ref` is an earlier form of this conversation: `Some(true)` when a newer
    /// one replaced it open, `Some(false)` when it had closed.
    pub fn earlier(&self, form_ref: &str) -> Option<bool> {
        self.earlier.iter().rev().find(|(r, _)| r == form_ref).map(|(_, replaced)| *replaced)
    }

    /// Another form took this one's place in the conversation.
    pub fn supersede(&mut self) {
        self.state = ViewState::Superseded;
        self.clear();
        self.pending = None;
    }

    /// A press is on its way.
    pub fn submitting(&mut self, operation_id: &str) {
        self.state = ViewState::Submitting;
        self.operation_id = Some(operation_id.to_string());
        self.problem = None;
    }

    /// Nothing reached the agent: the draft stays, Submit stays enabled.
    pub fn not_delivered(&mut self, reason: &str) {
        self.state = ViewState::NotDelivered;
        self.problem = Some(json!({"code": "not_delivered", "message": reason}));
    }

    /// Sent, no confirmation: only a reconcile (the same action, the same operation id).
    pub fn uncertain(&mut self, action: Value, reason: &str) {
        self.state = ViewState::ConfirmationPending;
        self.pending = Some(action);
        self.problem = Some(json!({"code": "outcome_unknown", "message": reason}));
    }

    /// The Hub or the agent refused the press (nothing happened): back to where it was,
    /// or closed when the form is gone.
    pub fn refused(&mut self, before: ViewState, code: &str, message: &str) {
        self.problem = Some(json!({"code": code, "message": message}));
        if matches!(code, "form_closed" | "form_expired" | "form_unknown" | "form_not_yours") {
            self.supersede();
        } else {
            self.state = before;
        }
    }

    /// Values filled from the chat: one `updateDataModel` per field. A booking whose
    /// date, room, duration or group size changed while times were listed gets its editing
    /// screen back with those times taken away and a line saying to find times again
    /// ([`forms::templates::booking_find_again`]); one under review is not filled at all
    /// ([`FormView::reviewing`]).
    pub fn fill(&mut self, values: &[(String, Value)]) {
        // a criterion that really changed (the same room typed again changes nothing)
        let changed = values.iter().any(|(f, v)| f != "slot" && self.drawn_value(f) != *v);
        self.set_values(values);
        if self.workflow == forms::Workflow::Booking.id() && changed && self.shows_times() {
            for m in forms::templates::booking_find_again(&self.surface_id, self.version) {
                self.push(m);
            }
        }
        self.compact();
    }

    /// One `updateDataModel` per field, remembered as filled from the chat.
    fn set_values(&mut self, values: &[(String, Value)]) {
        for (field, value) in values {
            self.push(update_data_model(&self.surface_id, &format!("/form/{field}"), value.clone()));
            self.filled.insert(field.clone(), value.clone());
        }
    }

    /// The value the drawn list leaves at `/form/<field>` (the last message that sets it).
    fn drawn_value(&self, field: &str) -> Value {
        let mut value = Value::Null;
        for m in &self.messages {
            let u = &m["updateDataModel"];
            match u["path"].as_str() {
                Some("/form") => value = u["value"][field].clone(),
                Some(p) if p.strip_prefix("/form/") == Some(field) => value = u["value"].clone(),
                _ => {}
            }
        }
        value
    }

    /// Whether the screen drawn last answers "Find times" (its last `updateComponents` has
    /// one of [`forms::templates::BOOKING_TIMES_SHOWN`]: the times, or the line that there
    /// are none).
    fn shows_times(&self) -> bool {
        forms::templates::BOOKING_TIMES_SHOWN.iter().any(|id| self.last_screen_has(id))
    }

    /// Whether the screen drawn last is a booking's review
    /// ([`forms::templates::BOOKING_REVIEW_SHOWN`]): the chat fills nothing there, since
    /// the agent holds the reviewed choices and its review screen has no "Find times".
    pub fn reviewing(&self) -> bool {
        self.workflow == forms::Workflow::Booking.id()
            && self.last_screen_has(forms::templates::BOOKING_REVIEW_SHOWN)
    }

    fn last_screen_has(&self, id: &str) -> bool {
        let last = self.messages.iter().rev().find_map(|m| m.get("updateComponents"));
        let mut ids = last
            .and_then(|u| u.get("components"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("id").and_then(Value::as_str));
        ids.any(|shown| shown == id)
    }

    /// This form sent again as it stands under a new reference (`new`, "continue"): the
    /// values filled from the chat here that the agent has not seen are filled in it too
    /// (the student's word wins over the agent's stored value). Another form: nothing.
    pub fn carry_into(&self, new: &mut FormView) {
        // a form sent again under review shows what its agent holds: nothing is carried there
        if new.surface_id != self.surface_id || self.filled.is_empty() || new.reviewing() {
            return;
        }
        let values: Vec<(String, Value)> = self.filled.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // the agent's screen as it sent it: its times are for what it holds, not redrawn here
        new.set_values(&values);
        new.compact();
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
}

#[cfg(test)]
mod tests;
