//! The A2UI v0.9 messages of both workflows' screens, shaped per the basic catalog: only
//! Column, Row, Card, Divider, Text, TextField, Button, ChoicePicker and DateTimeInput;
//! checks call only `required`, `regex`, `length`, `numeric`, `email`, `and`, `or`,
//! `not`; every action is exactly `{"event": {...}}`; every interactive component has a
//! visible label.
//!
//! The data model lives under `/form`. A ChoicePicker binds a list of strings, so
//! `period`, `room`, `duration` and `slot` travel as one-element lists (the rules accept
//! them); the date is `YYYY-MM-DD`, the group size text.
//!
//! Every screen is drawn for one form version: each button's action context carries it as
//! the literal [`FORM_VERSION_KEY`], so the agent can tell a press on an older screen.

use jiff::civil::Date;
use serde_json::{Map, Value, json};

use crate::read::Prefill;
use crate::rooms::{Criteria, MAX_DAYS_AHEAD, MAX_GROUP, Room, Slot};
use crate::rules::{self, FieldError, NAME_MAX, NOTES_MAX, TOPIC_MAX, TUTORING_DAYS_AHEAD};
use crate::{Period, Workflow, action};

pub const VERSION: &str = "v0.9";
pub const BASIC_CATALOG_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The action context key of the form version a button was drawn with (a literal number).
pub const FORM_VERSION_KEY: &str = "formVersion";

/// A form's first messages and the prefilled values the form's own rules refused (not
/// filled; the agent may say why).
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    pub messages: Vec<Value>,
    pub not_filled: Vec<FieldError>,
}

/// Opens `surface_id` on the basic catalog.
pub fn create_surface(surface_id: &str) -> Value {
    json!({"version": VERSION, "createSurface": {
        "surfaceId": surface_id, "catalogId": BASIC_CATALOG_ID, "sendDataModel": false}})
}

/// Sets components of `surface_id`.
pub fn update_components(surface_id: &str, components: Vec<Value>) -> Value {
    json!({"version": VERSION, "updateComponents": {"surfaceId": surface_id, "components": components}})
}

/// Sets the data model of `surface_id` at `path`.
pub fn update_data_model(surface_id: &str, path: &str, value: Value) -> Value {
    json!({"version": VERSION, "updateDataModel": {"surfaceId": surface_id, "path": path, "value": value}})
}

/// Removes a surface (on submit, cancel or replacement).
pub fn delete_surface(surface_id: &str) -> Value {
    json!({"version": VERSION, "deleteSurface": {"surfaceId": surface_id}})
}

/// A binding to `/form/{field}` (`field` may hold `/`: a deeper path).
pub fn path(field: &str) -> Value {
    json!({"path": format!("/form/{field}")})
}

fn call(name: &str, args: Value) -> Value {
    json!({"call": name, "args": args})
}

fn check(condition: Value, message: &str) -> Value {
    json!({"condition": condition, "message": message})
}

/// A check that `/form/{field}` is set.
pub fn required(field: &str, message: &str) -> Value {
    check(call("required", json!({"value": path(field)})), message)
}

fn max_length(field: &str, max: usize) -> Value {
    check(call("length", json!({"value": path(field), "max": max})), &format!("At most {max} characters"))
}

/// A Text of `variant` (`h3`, `body`, `caption`, …).
pub fn text(id: &str, content: &str, variant: &str) -> Value {
    json!({"id": id, "component": "Text", "text": content, "variant": variant})
}

fn text_field(id: &str, field: &str, label: &str, variant: &str, checks: Vec<Value>) -> Value {
    json!({"id": id, "component": "TextField", "label": label, "value": path(field), "variant": variant, "checks": checks})
}

fn choice(id: &str, field: &str, label: &str, options: Vec<(String, String)>, checks: Vec<Value>) -> Value {
    let options: Vec<Value> =
        options.into_iter().map(|(label, value)| json!({"label": label, "value": value})).collect();
    json!({"id": id, "component": "ChoicePicker", "label": label, "variant": "mutuallyExclusive",
        "options": options, "value": path(field), "checks": checks})
}

fn date_input(id: &str, label: &str, min: Date, max: Date, message: &str) -> Value {
    date_input_at(id, "date", label, min, max, message)
}

/// A date-only DateTimeInput bound to `/form/{field}`, from `min` to `max` (both
/// included), required with `message`.
pub fn date_input_at(id: &str, field: &str, label: &str, min: Date, max: Date, message: &str) -> Value {
    json!({"id": id, "component": "DateTimeInput", "label": label, "value": path(field),
        "enableDate": true, "enableTime": false, "min": min.to_string(), "max": max.to_string(),
        "checks": [required(field, message)]})
}

/// A button and its label (a Text child): two components. Its action's context binds
/// `context`'s fields and carries `version` as [`FORM_VERSION_KEY`].
fn button(id: &str, label: &str, variant: &str, name: &str, context: &[&str], version: u32) -> [Value; 2] {
    let context: Map<String, Value> = context.iter().map(|f| ((*f).to_string(), path(f))).collect();
    button_with(id, label, variant, name, context, version)
}

/// A button and its label (a Text child, `{id}_label`): two components. Its action's
/// context is `context` (bindings or literals) with `version` as [`FORM_VERSION_KEY`].
pub fn button_with(
    id: &str,
    label: &str,
    variant: &str,
    name: &str,
    mut context: Map<String, Value>,
    version: u32,
) -> [Value; 2] {
    let label_id = format!("{id}_label");
    let mut event = Map::new();
    event.insert("name".into(), json!(name));
    context.insert(FORM_VERSION_KEY.into(), json!(version));
    event.insert("context".into(), Value::Object(context));
    [
        json!({"id": label_id, "component": "Text", "text": label}),
        json!({"id": id, "component": "Button", "child": label_id, "variant": variant, "action": {"event": event}}),
    ]
}

fn days_after(today: Date, days: i32) -> Date {
    today.checked_add(jiff::Span::new().days(days)).unwrap_or(today)
}

/// Keeps a prefilled value only if the form's rule takes it.
fn keep(
    workflow: Workflow,
    field: &str,
    said: Option<String>,
    today: Date,
    form: &Map<String, Value>,
    not_filled: &mut Vec<FieldError>,
) -> Option<Value> {
    let value = model_value(workflow, field, &said?);
    match rules::check_value_with(workflow, field, &value, today, form) {
        Ok(()) => Some(value),
        Err(e) => {
            not_filled.push(e);
            None
        }
    }
}

/// The tutoring form, prefilled with the scheduling words the student already said
/// (a clock time alone gives its part of the day), drawn as `version`.
pub fn tutoring_form(surface_id: &str, prefill: &Prefill, today: Date, version: u32) -> Built {
    let (data, not_filled) = tutoring_data(prefill, today);
    Built { messages: tutoring_screen(surface_id, &data, today, version), not_filled }
}

/// The tutoring form's data model (what `/form` holds) prefilled from `prefill`, and the
/// prefilled values its rules refused.
pub fn tutoring_data(prefill: &Prefill, today: Date) -> (Value, Vec<FieldError>) {
    let wf = Workflow::Tutoring;
    let mut not_filled = Vec::new();
    let empty = Map::new();
    let date = keep(wf, "date", prefill.date.map(|d| d.to_string()), today, &empty, &mut not_filled);
    let period = prefill.period.or_else(|| prefill.time.map(|t| Period::of_hour(t.hour())));
    let period = keep(wf, "period", period.map(|p| p.as_str().to_string()), today, &empty, &mut not_filled);
    let data = json!({
        "name": "", "email": "",
        "date": date.unwrap_or(json!("")),
        "period": period.unwrap_or(json!([])),
        "topic": "", "notes": "",
    });
    (data, not_filled)
}

/// The whole tutoring form (a createSurface first) holding `data`, drawn as `version`.
pub fn tutoring_screen(surface_id: &str, data: &Value, today: Date, version: u32) -> Vec<Value> {
    let last = days_after(today, TUTORING_DAYS_AHEAD);
    let mut components = vec![
        json!({"id": "root", "component": "Card", "child": "form_col"}),
        json!({"id": "form_col", "component": "Column", "children": [
            "title", "intro", "name_field", "email_field", "date_field", "period_field",
            "topic_field", "notes_field", "buttons"]}),
        text("title", "Request a tutoring session", "h3"),
        text(
            "intro",
            "Tutoring runs Monday to Friday, 09:00–17:00 Pacific Time. This sends a request; a tutor confirms a time later.",
            "caption",
        ),
        text_field(
            "name_field",
            "name",
            "Your name",
            "shortText",
            vec![required("name", "Enter your name"), max_length("name", NAME_MAX)],
        ),
        text_field(
            "email_field",
            "email",
            "Email",
            "shortText",
            vec![
                required("email", "Enter your email address"),
                check(
                    call("email", json!({"value": path("email")})),
                    "Enter an email address like alex@example.edu",
                ),
            ],
        ),
        date_input("date_field", "Preferred date (a weekday)", today, last, "Choose a preferred date"),
        choice(
            "period_field",
            "period",
            "Preferred time of day",
            vec![
                ("Morning (09:00–12:00)".into(), "morning".into()),
                ("Afternoon (12:00–17:00)".into(), "afternoon".into()),
            ],
            vec![required("period", "Choose morning or afternoon")],
        ),
        text_field(
            "topic_field",
            "topic",
            "Topic",
            "shortText",
            vec![required("topic", "Say what you would like help with"), max_length("topic", TOPIC_MAX)],
        ),
        text_field(
            "notes_field",
            "notes",
            "Notes (optional)",
            "longText",
            vec![max_length("notes", NOTES_MAX)],
        ),
        json!({"id": "buttons", "component": "Row", "children": ["cancel_btn", "submit_btn"]}),
    ];
    components.extend(button("cancel_btn", "Cancel", "default", action::CANCEL_FORM, &[], version));
    components.extend(button(
        "submit_btn",
        "Send tutoring request",
        "primary",
        action::SUBMIT_TUTORING_REQUEST,
        Workflow::Tutoring.fields(),
        version,
    ));
    vec![
        create_surface(surface_id),
        update_components(surface_id, components),
        update_data_model(surface_id, "/form", data.clone()),
    ]
}

const BOOKING_EDIT_CHILDREN: [&str; 7] =
    ["title", "intro", "date_field", "room_field", "duration_field", "group_field", "find_btn"];

/// The booking form's editing screen: date, room, duration, group size, "Find times" and
/// "Cancel", drawn as `version`.
pub fn booking_form(surface_id: &str, prefill: &Prefill, today: Date, version: u32) -> Built {
    let (data, not_filled) = booking_data(prefill, today);
    Built { messages: booking_screen(surface_id, &data, today, version), not_filled }
}

/// The booking form's data model (what `/form` holds) prefilled from `prefill`, and the
/// prefilled values its rules refused.
pub fn booking_data(prefill: &Prefill, today: Date) -> (Value, Vec<FieldError>) {
    let wf = Workflow::Booking;
    let mut not_filled = Vec::new();
    let empty = Map::new();
    let date = keep(wf, "date", prefill.date.map(|d| d.to_string()), today, &empty, &mut not_filled);
    let room = keep(wf, "room", prefill.room.map(|c| c.to_string()), today, &empty, &mut not_filled);
    let hours = prefill.duration_hours.map(|h| h.to_string());
    let duration = keep(wf, "duration", hours, today, &empty, &mut not_filled);
    let mut with_room = Map::new();
    if let Some(room) = &room {
        with_room.insert("room".into(), room.clone());
    }
    let size = prefill.group_size.map(|n| n.to_string());
    let group = keep(wf, "groupSize", size, today, &with_room, &mut not_filled);
    let data = json!({
        "date": date.unwrap_or(json!("")),
        "room": room.unwrap_or(json!([])),
        "duration": duration.unwrap_or(json!([])),
        "groupSize": group.unwrap_or(json!("")),
        "slot": [],
    });
    (data, not_filled)
}

/// The booking form's editing screen, whole (a createSurface first), holding `data`,
/// drawn as `version`.
pub fn booking_screen(surface_id: &str, data: &Value, today: Date, version: u32) -> Vec<Value> {
    let first_screen_children = [&BOOKING_EDIT_CHILDREN[..], &["edit_buttons"]].concat();
    let mut components = vec![
        json!({"id": "root", "component": "Card", "child": "form_col"}),
        json!({"id": "form_col", "component": "Column", "children": first_screen_children}),
        json!({"id": "edit_buttons", "component": "Row", "children": ["cancel_btn"]}),
        text("title", "Book a group study room", "h3"),
        text(
            "intro",
            "Rooms are open 09:00–21:00 Pacific Time, for 1 or 2 hours, up to 14 days ahead. Demo bookings only.",
            "caption",
        ),
        date_input("date_field", "Date", today, days_after(today, MAX_DAYS_AHEAD), "Choose a date"),
        choice(
            "room_field",
            "room",
            "Room",
            Room::ALL
                .iter()
                .map(|r| {
                    (format!("Room {} (up to {} people)", r.as_str(), r.capacity()), r.as_str().to_string())
                })
                .collect(),
            vec![required("room", "Choose a room")],
        ),
        choice(
            "duration_field",
            "duration",
            "Duration",
            vec![("1 hour".into(), "1".into()), ("2 hours".into(), "2".into())],
            vec![required("duration", "Choose 1 or 2 hours")],
        ),
        text_field(
            "group_field",
            "groupSize",
            "Group size (people)",
            "number",
            vec![
                required("groupSize", "Say how many people"),
                check(
                    call(
                        "regex",
                        json!({"value": path("groupSize"), "pattern": format!("^([1-9]|{MAX_GROUP})$")}),
                    ),
                    &format!("Between 1 and {MAX_GROUP} people"),
                ),
            ],
        ),
    ];
    components.extend(button("cancel_btn", "Cancel", "default", action::CANCEL_FORM, &[], version));
    components.extend(button("find_btn", "Find times", "default", action::FIND_TIMES, &CRITERIA, version));
    vec![
        create_surface(surface_id),
        update_components(surface_id, components),
        update_data_model(surface_id, "/form", data.clone()),
    ]
}

const CRITERIA: [&str; 4] = ["date", "room", "duration", "groupSize"];

/// The update after "Find times": the free times as a ChoicePicker (or a line saying there
/// are none) and "Review booking", in place under the criteria, drawn as `version`. The
/// slot choice is reset.
pub fn booking_slots(surface_id: &str, slots: &[Slot], version: u32) -> Vec<Value> {
    vec![
        update_components(surface_id, edit_screen(Times::Offered(slots), version)),
        update_data_model(surface_id, "/form/slot", json!([])),
    ]
}

/// The editing screen after the chat changed a criterion (date, room, duration or group
/// size) while times were listed: those times were for the earlier choices, so they are
/// taken away, the slot choice is reset, and a line says to find times again — never a
/// time list that contradicts what the chat filled.
pub fn booking_find_again(surface_id: &str, version: u32) -> Vec<Value> {
    vec![
        update_components(surface_id, edit_screen(Times::Changed, version)),
        update_data_model(surface_id, "/form/slot", json!([])),
    ]
}

/// The components whose presence says the booking form answered "Find times" (the times,
/// or the line that there are none): what [`booking_find_again`] replaces.
pub const BOOKING_TIMES_SHOWN: [&str; 2] = ["slot_field", "slots_none"];
/// The component whose presence says the booking form shows its review.
pub const BOOKING_REVIEW_SHOWN: &str = "review_col";

/// What the editing screen says of free times.
enum Times<'a> {
    /// These were found for the current choices (none: a line says so).
    Offered(&'a [Slot]),
    /// The choices changed since: find times again.
    Changed,
}

/// The editing screen's components that change with the times offered (and with the
/// version every button carries).
fn edit_screen(times: Times<'_>, version: u32) -> Vec<Value> {
    let mut children: Vec<&str> = BOOKING_EDIT_CHILDREN.to_vec();
    let mut components = Vec::new();
    let line = |id: &'static str, words: &str| text(id, words, "body");
    let buttons = |ids: &[&str]| json!({"id": "edit_buttons", "component": "Row", "children": ids});
    match times {
        Times::Changed => {
            children.extend(["slots_changed", "edit_buttons"]);
            components.push(line(
                "slots_changed",
                "Your choices changed in the chat: press Find times to see the free times for them.",
            ));
            components.push(buttons(&["cancel_btn"]));
        }
        Times::Offered([]) => {
            children.extend(["slots_none", "edit_buttons"]);
            components.push(line(
                "slots_none",
                "No free times for these choices. Try another date, room or duration.",
            ));
            components.push(buttons(&["cancel_btn"]));
        }
        Times::Offered(slots) => {
            children.extend(["slot_field", "edit_buttons"]);
            components.push(choice(
                "slot_field",
                "slot",
                "Available times (Pacific Time)",
                slots.iter().map(|s| (s.label(), s.id.clone())).collect(),
                vec![required("slot", "Choose a time")],
            ));
            components.push(buttons(&["cancel_btn", "review_btn"]));
            components.extend(button(
                "review_btn",
                "Review booking",
                "primary",
                action::REVIEW_BOOKING,
                BOOKING_FIELDS,
                version,
            ));
        }
    }
    components.extend(button("cancel_btn", "Cancel", "default", action::CANCEL_FORM, &[], version));
    components.extend(button("find_btn", "Find times", "default", action::FIND_TIMES, &CRITERIA, version));
    components.insert(0, json!({"id": "form_col", "component": "Column", "children": children}));
    components.insert(0, json!({"id": "root", "component": "Card", "child": "form_col"}));
    components
}

const BOOKING_FIELDS: &[&str] = &["date", "room", "duration", "groupSize", "slot"];

/// The review screen: a summary of the chosen slot, "Back to edit" and "Confirm demo
/// booking", drawn as `version`.
pub fn booking_review(surface_id: &str, criteria: &Criteria, slot: &Slot, version: u32) -> Vec<Value> {
    let summary = format!(
        "Room {} · {} {} · {} Pacific Time · {} {}",
        slot.room.as_str(),
        weekday_name(slot.date),
        slot.date,
        slot.label(),
        criteria.group_size,
        if criteria.group_size == 1 { "person" } else { "people" },
    );
    let mut components = vec![
        json!({"id": "root", "component": "Card", "child": "review_col"}),
        json!({"id": "review_col", "component": "Column", "children": [
            "review_title", "review_summary", "review_note", "review_divider", "review_buttons"]}),
        text("review_title", "Review your booking", "h3"),
        text("review_summary", &summary, "body"),
        text("review_note", "This is a demo booking: nothing is sent to any university system.", "caption"),
        json!({"id": "review_divider", "component": "Divider"}),
        json!({"id": "review_buttons", "component": "Row", "children": ["back_btn", "confirm_btn"]}),
    ];
    components.extend(button("back_btn", "Back to edit", "default", action::BACK_TO_EDIT, &[], version));
    components.extend(button(
        "confirm_btn",
        "Confirm demo booking",
        "primary",
        action::CONFIRM_BOOKING,
        BOOKING_FIELDS,
        version,
    ));
    vec![update_components(surface_id, components)]
}

/// Back from the review screen to the editing screen with the times last offered (the
/// student's choices stay as they were), drawn as `version`.
pub fn booking_back_to_edit(surface_id: &str, slots: &[Slot], version: u32) -> Vec<Value> {
    vec![update_components(surface_id, edit_screen(Times::Offered(slots), version))]
}

/// The English name of `date`'s weekday ("Saturday").
pub fn weekday_name(date: Date) -> &'static str {
    use jiff::civil::Weekday::*;
    match date.weekday() {
        Monday => "Monday",
        Tuesday => "Tuesday",
        Wednesday => "Wednesday",
        Thursday => "Thursday",
        Friday => "Friday",
        Saturday => "Saturday",
        Sunday => "Sunday",
    }
}

/// What a form's data model holds for `field` when chat-filling sets it to `text` (a
/// ChoicePicker's fields are one-element lists).
pub fn model_value(workflow: Workflow, field: &str, text: &str) -> Value {
    match (workflow, field) {
        (Workflow::Tutoring, "period") | (Workflow::Booking, "room" | "duration" | "slot") => json!([text]),
        _ => json!(text),
    }
}
