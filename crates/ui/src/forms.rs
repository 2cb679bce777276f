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

pub mod press;

use a2ui::Kind;
use agui::ActivitySnapshot;
use agui::Event;
use std::collections::HashMap;

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
}

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

    /// The components the drawn list leaves, each as its last definition says (by id).
    pub(crate) fn drawn_components(&self) -> HashMap<String, Value> {
        let mut drawn = HashMap::new();
        for m in &self.messages {
            if m.get("deleteSurface").is_some() {
                drawn.clear();
            }
            let components = m.pointer("/updateComponents/components").and_then(Value::as_array);
            for c in components.into_iter().flatten() {
                if let Some(id) = c.get("id").and_then(Value::as_str) {
                    drawn.insert(id.to_string(), c.clone());
                }
            }
        }
        drawn
    }

    /// The date pickers drawn for `field` of one item each (bound under `/form/<field>/`):
    /// (the field's path under `/form`, min, max), by path.
    fn pickers_under(&self, field: &str) -> Vec<(String, String, String)> {
        let prefix = format!("/form/{field}/");
        let mut pickers: Vec<(String, String, String)> = self
            .drawn_components()
            .values()
            .filter(|c| c.get("component").and_then(Value::as_str) == Some("DateTimeInput"))
            .filter_map(|c| {
                let path = c.pointer("/value/path")?.as_str()?;
                path.starts_with(&prefix).then_some(())?;
                let bound = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                Some((path.trim_start_matches("/form/").to_string(), bound("min"), bound("max")))
            })
            .collect();
        pickers.sort();
        pickers
    }

    /// A loan screen's new return date typed in the chat goes to the one date picker the
    /// screen draws (`/form/returnDate/<loanId>`), inside that picker's bounds (the loan
    /// service's range); with no picker, several, or a date outside, it is not filled and
    /// the note says why. Other forms' values are left as read.
    pub fn place_dates(&self, filling: &mut forms::fill::Filling) {
        use vocab::loans::operation::RETURN_DATE;
        if self.workflow != forms::Workflow::LoanRenewal.id() {
            return;
        }
        let pickers = self.pickers_under(RETURN_DATE);
        for (field, value) in std::mem::take(&mut filling.filled) {
            if field != RETURN_DATE {
                filling.filled.push((field, value));
                continue;
            }
            let why = match pickers.as_slice() {
                [(path, min, max)] => {
                    let date = value.as_str().unwrap_or_default();
                    // ISO dates compare as text
                    if !min.is_empty() && date >= min.as_str() && date <= max.as_str() {
                        filling.filled.push((path.clone(), value));
                        continue;
                    }
                    format!("{date} is outside the dates this loan can be renewed to ({min} to {max})")
                }
                [] => "this screen has no return date to choose".to_string(),
                _ => "this screen offers more than one loan: choose the date on the form".to_string(),
            };
            filling.not_filled.push((field, why));
        }
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
mod tests {
    use super::*;

    pub(super) fn form(messages: Vec<Value>, state: Wire, version: u32) -> FormReply {
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

    pub(super) fn noon() -> jiff::ZonedDateTime {
        // a Wednesday
        "2025-11-19T12:00:00-08:00[America/Los_Angeles]".parse().unwrap()
    }

    /// A loan screen on `s-1` offering `loans` for renewal (a picker and Renew each, bounded
    /// 2025-11-21..2025-12-11), a follow-up and Close, as the Library's compiler draws one.
    pub(super) fn loan_screen(loans: &[&str]) -> Vec<Value> {
        use forms::templates::{button_with, create_surface, date_input_at, path, update_components};
        let (min, max) = ("2025-11-21".parse().unwrap(), "2025-12-11".parse().unwrap());
        let mut components = vec![json!({"id": "root", "component": "Column", "children": []})];
        for id in loans {
            let field = format!("returnDate/{id}");
            components.push(date_input_at(
                &format!("{id}_date"),
                &field,
                "New return date",
                min,
                max,
                "choose",
            ));
            let context =
                Map::from_iter([("loanId".to_string(), json!(id)), ("returnDate".to_string(), path(&field))]);
            components.extend(button_with(
                &format!("{id}_renew"),
                "Renew",
                "primary",
                "renew_loan",
                context,
                1,
            ));
        }
        let ask = Map::from_iter([("request".to_string(), json!("Renew Calculus in Motion"))]);
        components.extend(button_with("more", "Renew Calculus in Motion", "default", "follow_up", ask, 1));
        components.extend(button_with("close", "Close", "default", "cancel_form", Map::new(), 1));
        vec![create_surface("s-1"), update_components("s-1", components)]
    }

    pub(super) fn loan_form(loans: &[&str]) -> FormReply {
        FormReply { workflow: "loan-renewal".into(), ..form(loan_screen(loans), Wire::Open, 1) }
    }

    #[test]
    fn a_return_date_typed_in_the_chat_fills_the_one_picker_inside_its_bounds() {
        let filling = |view: &FormView, text: &str| {
            let mut f = forms::fill::fill_from_chat(forms::Workflow::LoanRenewal, text, &noon());
            view.place_dates(&mut f);
            f
        };
        let one = FormView::open(&loan_form(&["ln-1"])).unwrap();
        let f = filling(&one, "until 2025-12-01 please");
        assert_eq!(f.filled, [("returnDate/ln-1".to_string(), json!("2025-12-01"))]);
        assert!(
            f.note().unwrap().starts_with("Filled in the form: new return date (2025-12-01)."),
            "{:?}",
            f.note()
        );
        let mut view = one.clone();
        view.fill(&f.filled);
        assert!(
            view.messages().iter().any(|m| m["updateDataModel"]["path"] == "/form/returnDate/ln-1"
                && m["updateDataModel"]["value"] == "2025-12-01"),
            "the picker's own path is filled"
        );
        // outside the picker's bounds: not filled, and the note says the range
        let far = filling(&one, "until 2026-01-30");
        assert!(far.filled.is_empty(), "{far:?}");
        assert_eq!(far.not_filled[0].0, "returnDate");
        assert!(far.not_filled[0].1.contains("2025-11-21 to 2025-12-11"), "{far:?}");
        // two loans offered: which one is not guessed
        let two = FormView::open(&loan_form(&["ln-1", "ln-2"])).unwrap();
        let f = filling(&two, "until 2025-12-01");
        assert!(f.filled.is_empty() && f.not_filled[0].1.contains("more than one loan"), "{f:?}");
        // none offered
        let none = FormView::open(&loan_form(&[])).unwrap();
        let f = filling(&none, "until 2025-12-01");
        assert!(f.filled.is_empty() && f.not_filled[0].1.contains("no return date"), "{f:?}");
    }

    pub(super) fn first() -> Vec<Value> {
        let today = noon().date();
        forms::templates::booking_form("s-1", &forms::Prefill::default(), today, 1).messages
    }

    #[test]
    fn updates_are_appended_and_compacted_and_a_closed_form_keeps_nothing_drawable() {
        let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
        assert_eq!((view.surface_id.as_str(), view.messages().len()), ("s-1", 3));
        let slots = forms::templates::booking_slots("s-1", &[], 2);
        let carried: Map<String, Value> =
            serde_json::from_value(json!({"date": "2025-11-20", "room": ["A"], "formVersion": 1})).unwrap();
        for _ in 0..20 {
            view.apply(&form(slots.clone(), Wire::Open, 2), Some(&carried));
        }
        assert!(view.messages().len() <= 8, "compacted: {}", view.messages().len());
        assert_eq!(view.version, 2);
        let kinds: Vec<&str> =
            view.messages().iter().filter_map(a2ui::message_kind).map(|(k, _)| k.key()).collect();
        assert_eq!(kinds[0], "createSurface");
        let date = view.messages().iter().any(|m| m["updateDataModel"]["path"] == "/form/date");
        assert!(date, "the carried date is kept for a redraw");
        let done = vec![forms::templates::delete_surface("s-1")];
        view.apply(&form(done, Wire::Submitted, 3), None);
        assert_eq!(view.state, ViewState::Submitted);
        assert!(view.messages().is_empty());
        let Event::ActivitySnapshot(s) = view.snapshot(1) else { panic!() };
        assert_eq!(
            (s.message_id.as_str(), s.content["state"].as_str(), s.replace),
            ("form-hf-1", Some("submitted"), Some(true))
        );
    }

    fn drawn_value(view: &FormView, field: &str) -> Value {
        view.drawn_value(field)
    }

    #[test]
    fn values_filled_from_the_chat_are_carried_into_the_same_form_sent_again_only() {
        let mut old = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
        old.fill(&[("groupSize".into(), json!("5"))]);
        // "continue": the same surface under a new reference, the agent's values in it
        let mut again = form(first(), Wire::Open, 2);
        again.form_ref = "hf-2".into();
        let mut new = FormView::open(&again).unwrap();
        old.carry_into(&mut new);
        assert_eq!(drawn_value(&new, "groupSize"), json!("5"), "the chat's value wins");
        assert_eq!(drawn_value(&new, "room"), json!([]), "an untouched field keeps the agent's");
        // another form (a new surface) takes nothing
        let other = forms::templates::booking_form("s-2", &forms::Prefill::default(), noon().date(), 1);
        let mut replaced = form(other.messages, Wire::Open, 1);
        replaced.form_ref = "hf-3".into();
        let mut fresh = FormView::open(&replaced).unwrap();
        old.carry_into(&mut fresh);
        assert_eq!(drawn_value(&fresh, "groupSize"), json!(""));
    }

    /// The last screen drawn: the ids of the last `updateComponents`.
    fn screen_ids(view: &FormView) -> Vec<String> {
        let last = view.messages().iter().rev().find_map(|m| m.get("updateComponents")).unwrap();
        last["components"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn a_criterion_changed_in_the_chat_while_times_show_takes_them_away_and_a_review_is_kept() {
        let slot = |start| forms::rooms::Slot {
            id: format!("slot-{start}"),
            date: noon().date().tomorrow().unwrap(),
            room: forms::Room::parse("A").unwrap(),
            start_hour: start,
            duration: 1,
        };
        let slots = [slot(10), slot(11)];
        let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
        let pressed: Map<String, Value> =
            serde_json::from_value(json!({"room": ["A"], "formVersion": 1})).unwrap();
        view.apply(&form(forms::templates::booking_slots("s-1", &slots, 2), Wire::Open, 2), Some(&pressed));
        assert!(view.shows_times() && !view.reviewing());
        // the slot alone changes nothing, nor the room it already has; another room does
        view.fill(&[("slot".into(), json!(["slot-11"]))]);
        assert!(view.shows_times(), "{:?}", screen_ids(&view));
        view.fill(&[("room".into(), json!(["A"]))]);
        assert!(view.shows_times(), "the same room again: {:?}", screen_ids(&view));
        view.fill(&[("room".into(), json!(["B"]))]);
        let ids = screen_ids(&view);
        assert!(ids.contains(&"slots_changed".to_string()), "{ids:?}");
        assert!(ids.contains(&"find_btn".to_string()), "{ids:?}");
        assert!(!ids.iter().any(|id| id == "slot_field" || id == "review_btn"), "{ids:?}");
        assert_eq!(drawn_value(&view, "slot"), json!([]), "the old time's choice is reset");
        assert_eq!(drawn_value(&view, "room"), json!(["B"]));
        assert!(view.messages().iter().any(|m| m.to_string().contains("press Find times")));
        // under review: the chat fills nothing there (the UI server holds the values back)
        let criteria =
            forms::rooms::Criteria { date: slots[0].date, room: slots[0].room, duration: 1, group_size: 3 };
        view.apply(
            &form(forms::templates::booking_review("s-1", &criteria, &slots[0], 3), Wire::Open, 3),
            None,
        );
        assert!(view.reviewing() && !view.shows_times());
        // on the first screen, filling redraws nothing
        let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
        assert!(!view.reviewing());
        let before = view.messages().len();
        view.fill(&[("room".into(), json!(["B"]))]);
        assert_eq!(view.messages().len(), before + 1, "one updateDataModel only");
    }

    /// The page applies in place the messages numbered past the last it drew: the numbers
    /// only grow, compaction drops a message with its number, a new surface starts over.
    #[test]
    fn each_message_keeps_its_number_through_compaction_so_the_page_can_apply_only_new_ones() {
        let seqs = |v: &FormView| -> Vec<u64> {
            let Event::ActivitySnapshot(s) = v.snapshot(1) else { panic!() };
            serde_json::from_value(s.content["seqs"].clone()).unwrap()
        };
        let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
        assert_eq!(seqs(&view), [1, 2, 3]);
        let slots = forms::templates::booking_slots("s-1", &[], 2);
        let n = slots.len() as u64;
        let room = |r: &str| -> Map<String, Value> { serde_json::from_value(json!({"room": [r]})).unwrap() };
        view.apply(&form(slots.clone(), Wire::Open, 2), Some(&room("A")));
        let after_one = seqs(&view);
        assert_eq!(after_one.len(), view.messages().len());
        assert_eq!(*after_one.last().unwrap(), 3 + 1 + n);
        // the same value again (A, then B, then A): a new number, the old A dropped
        view.apply(&form(slots.clone(), Wire::Open, 2), Some(&room("B")));
        view.apply(&form(slots, Wire::Open, 2), Some(&room("A")));
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
        view.apply(&form(first(), Wire::Open, 3), None);
        assert_eq!(seqs(&view).first(), Some(&(3 + 3 * (1 + n) + 1)), "a new surface: new numbers");
    }
}
