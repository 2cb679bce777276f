//! The study-room-booking workflow on the Library: the edit screen (date, room, duration,
//! group size), `find_times` (availability from the `forms::rooms` fixture and the store's
//! booked hours; only those four criteria are read), `review_booking` (a slot this form
//! was offered, else `slot_unknown`), `back_to_edit`, `confirm_booking` (the database's
//! constraint decides: a taken slot is rejected with refreshed times, never another time
//! put in its place) and `cancel_form`. Slot ids are keyed with a secret kept in the
//! agent's store, so they survive a restart.

use a2a::server::RequestContext;
use forms::rooms::{self, Criteria, Room, Slot, SlotKey, Taken};
use forms::templates::{
    booking_back_to_edit, booking_data, booking_review, booking_screen, booking_slots, delete_surface,
};
use forms::{Prefill, Workflow, action, rules};
use jiff::civil::Date;
use serde_json::{Map, Value, json};
use specialist::forms::{
    Action, FormHost, HandlerError, OpenFormChoice, Outcome, Step, code, data_of, data_values, field_errors,
    pressed,
};
use store::Tx;
use store::bookings::NewBooking;
use vocab::FormState;

use crate::clock::Clock;

/// The workflow's id, also its skill's id.
pub const WORKFLOW: &str = "study-room-booking";
/// The workflows the Library hosts.
pub const WORKFLOWS: [Workflow; 1] = [Workflow::Booking];
/// The name of the slot key's secret in the store.
pub const SLOT_KEY_SECRET: &str = "booking-slot-key";

const EDIT: &str = "edit";
const SLOTS: &str = "slots";
const REVIEW: &str = "review";

pub const OFFER_TEXT: &str = "Here is a form to book a group study room (a demo booking). Choose a date, room, duration and group size, then find times.";
pub const NO_RENDERER_TEXT: &str = "I can book a study room with a form, but the app you are asking from can't show forms. Open the Campus page in a browser (the address `campus demo` prints) and ask there to fill it in.";
pub const DISABLED_TEXT: &str = "Study-room booking is turned off in the Library's settings right now.";
/// What the Library says for each chat outcome that is neither its answer nor its form.
pub const TEXTS: specialist::forms::ChatTexts = specialist::forms::ChatTexts {
    clarify: "What would you like: to book a group study room (for example \"book room B tomorrow at 3pm for 4 people\"), or to ask about the library (for example \"what are the opening hours?\")?",
    out_of_scope: "Sorry, that is not something the Library does: it answers from its saved information and books group study rooms. Tutoring sessions are requested from the Tutor.",
    disabled: DISABLED_TEXT,
    no_renderer: NO_RENDERER_TEXT,
};

/// The buttons of each screen.
pub fn buttons(_workflow: &str, screen: &str) -> &'static [(&'static str, &'static str)] {
    match screen {
        EDIT => &[("find_btn", action::FIND_TIMES), ("cancel_btn", action::CANCEL_FORM)],
        SLOTS => &[
            ("find_btn", action::FIND_TIMES),
            ("review_btn", action::REVIEW_BOOKING),
            ("cancel_btn", action::CANCEL_FORM),
        ],
        REVIEW => &[("back_btn", action::BACK_TO_EDIT), ("confirm_btn", action::CONFIRM_BOOKING)],
        _ => &[],
    }
}

/// A chat message that asks for the form: offer it, re-send the open one, or ask.
pub async fn offer(
    clock: Clock,
    host: &FormHost,
    key: &SlotKey,
    ctx: &RequestContext,
    choice: Option<OpenFormChoice>,
) -> Result<Outcome, String> {
    let open = host.open_form_of(&ctx.context_id, WORKFLOW).await.map_err(|e| e.message)?;
    match (open, choice) {
        (Some(form), Some(OpenFormChoice::Continue)) => {
            let key = key.clone();
            let held = Held::of(&form.values);
            let (screen, _) = redrawn(clock, &key, &form.form_id, &form.screen, &held, &form.values, 1);
            host.resend(form, screen, OFFER_TEXT.into(), move |form, version| {
                redrawn(clock, &key, &form.form_id, &form.screen, &held, &form.values, version).1
            })
            .await
            .map_err(|e| e.message)
        }
        (Some(_), None) => Err(specialist::forms::CONTINUE_OR_REPLACE.to_string()),
        _ => {
            let now = clock.now();
            let prefill = forms::read(&ctx.text(), &now).prefill();
            let (data, _) = booking_data(&prefill, now.date());
            let values = data_values(data.clone());
            host.offer(&ctx.context_id, WORKFLOW, EDIT, values, OFFER_TEXT.into(), |id| {
                booking_screen(id, &data, now.date(), 1)
            })
            .await
            .map_err(|e| e.message)
        }
    }
}

/// An open form drawn whole as it stands (`screen`, the values held), as `version`: the
/// editing screen with its values, the times it was offered, the review of the time
/// chosen. Returns the screen drawn (the editing screen when what it needs is not held).
fn redrawn(
    clock: Clock,
    key: &SlotKey,
    form_id: &str,
    screen: &str,
    held: &Held,
    values: &Value,
    version: u32,
) -> (&'static str, Vec<Value>) {
    let today = clock.now().date();
    let data = match data_of(values) {
        Some(data) => Value::Object(data.clone()),
        None => booking_data(&held.criteria.map(prefill_of).unwrap_or_default(), today).0,
    };
    let mut messages = booking_screen(form_id, &data, today, version);
    let Some(criteria) = held.criteria.filter(|_| !held.slots.is_empty() && screen != EDIT) else {
        return (EDIT, messages);
    };
    let slots = offered(key, form_id, &criteria, &held.slots);
    messages.extend(booking_back_to_edit(form_id, &slots, version));
    let chosen = data.pointer("/slot/0").and_then(Value::as_str);
    match slots.iter().find(|s| Some(s.id.as_str()) == chosen).filter(|_| screen == REVIEW) {
        Some(slot) => {
            messages.extend(booking_review(form_id, &criteria, slot, version));
            (REVIEW, messages)
        }
        None => (SLOTS, messages),
    }
}

fn prefill_of(c: Criteria) -> Prefill {
    Prefill {
        date: Some(c.date),
        duration_hours: Some(u32::from(c.duration)),
        group_size: Some(u32::from(c.group_size)),
        room: c.room.as_str().chars().next(),
        ..Prefill::default()
    }
}

/// What the Library holds for a booking form: the last criteria looked up and the start
/// hours it offered for them.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Held {
    criteria: Option<Criteria>,
    #[serde(default)]
    slots: Vec<i8>,
    /// The form's data model as last sent or pressed ([`specialist::forms::DATA_KEY`]).
    #[serde(default)]
    form: Map<String, Value>,
}

impl Held {
    fn of(values: &Value) -> Held {
        serde_json::from_value(values.clone()).unwrap_or_default()
    }

    fn value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The slots (with ids) for the start hours this form was offered.
fn offered(key: &SlotKey, form_id: &str, c: &Criteria, starts: &[i8]) -> Vec<Slot> {
    starts
        .iter()
        .map(|&start| Slot {
            id: key.id(form_id, c.date, c.room, start, c.duration),
            date: c.date,
            room: c.room,
            start_hour: start,
            duration: c.duration,
        })
        .collect()
}

fn taken(tx: &Tx<'_>, date: Date) -> Result<Vec<Taken>, HandlerError> {
    Ok(tx
        .taken_hours(&date.to_string())?
        .into_iter()
        .filter_map(|(room, hour)| Some(Taken { room: Room::parse(&room)?, date, hour: hour as i8 }))
        .collect())
}

fn rejected(text: &str, errors: Vec<Value>) -> Step {
    let mut step = Step::text(FormState::Rejected, text);
    step.errors = errors;
    step
}

/// The workflow's handler (runs once per operation, inside its transaction). `redo`: the
/// first run's booking found its slot taken and was rolled back.
pub fn handle(
    clock: Clock,
    key: &SlotKey,
    tx: &Tx<'_>,
    a: &Action,
    redo: bool,
) -> Result<Step, HandlerError> {
    let form_id = &a.form.form_id;
    let now = clock.now();
    let held = Held::of(&a.form.values);
    // the form's data model with what this press carried
    let data = pressed(&a.form.values, &a.values);
    match a.name.as_str() {
        action::FIND_TIMES => {
            let criteria: Map<String, Value> = a
                .values
                .iter()
                .filter(|(k, _)| ["date", "room", "duration", "groupSize"].contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let criteria = match rules::validate_booking_criteria(&criteria, now.date()) {
                Ok(c) => c,
                Err(errors) => return Ok(rejected("Some choices need fixing first.", field_errors(&errors))),
            };
            times(key, tx, form_id, criteria, data, &now, a.next_version, "Here are the free times.", None)
        }
        action::REVIEW_BOOKING | action::CONFIRM_BOOKING => {
            let request = match rules::validate_booking(&a.values, now.date()) {
                Ok(r) => r,
                Err(errors) => return Ok(rejected("Some choices need fixing first.", field_errors(&errors))),
            };
            let c = request.criteria;
            let was_offered = held.criteria == Some(c)
                && offered(key, form_id, &c, &held.slots).iter().any(|s| s.id == request.slot);
            if !was_offered {
                let error = json!({"field": "slot", "code": code::SLOT_UNKNOWN,
                                   "message": "choose one of the times offered for these choices"});
                return Ok(rejected("That time was not one offered on this form.", vec![error]));
            }
            let busy = taken(tx, c.date)?;
            let Some(slot) = rooms::find_slot(key, form_id, &c, &request.slot, &now, &busy).filter(|_| !redo)
            else {
                let text =
                    "That time has just been taken. Here are the times still free; nothing was booked.";
                let error =
                    json!({"field": "slot", "code": "slot_taken", "message": "that time is no longer free"});
                return times(key, tx, form_id, c, data, &now, a.next_version, text, Some(error));
            };
            if a.name == action::REVIEW_BOOKING {
                let mut step = Step::text(FormState::Open, "Please review the booking, then confirm it.");
                step.a2ui = booking_review(form_id, &c, &slot, a.next_version);
                step.screen = Some(REVIEW.into());
                step.values = Some(Held { form: data, ..held }.value());
                return Ok(step);
            }
            let booking = tx.book(&NewBooking {
                student_id: a.student_id.clone(),
                context_id: a.form.context_id.clone(),
                date: c.date.to_string(),
                room: c.room.as_str().into(),
                start_hour: slot.start_hour as u8,
                duration_hours: slot.duration,
                group_size: u32::from(c.group_size),
            })?;
            let times = slot.label();
            let receipt = json!({
                "bookingId": booking.id, "room": c.room.as_str(), "date": c.date.to_string(),
                "times": times, "groupSize": c.group_size, "timezone": forms::TIMEZONE,
                "note": "Demo booking",
            });
            let text = format!(
                "Demo booking confirmed: {} — room {}, {} {} Pacific Time, {} people.",
                booking.id,
                c.room.as_str(),
                c.date,
                times,
                c.group_size
            );
            let mut step = Step::text(FormState::Submitted, text);
            step.receipt = Some(receipt);
            step.a2ui = vec![delete_surface(form_id)];
            step.screen = Some("done".into());
            Ok(step)
        }
        action::BACK_TO_EDIT => {
            let slots = held.criteria.map(|c| offered(key, form_id, &c, &held.slots)).unwrap_or_default();
            let mut step = Step::text(FormState::Open, "Back to editing.");
            step.a2ui = booking_back_to_edit(form_id, &slots, a.next_version);
            step.screen = Some(if slots.is_empty() { EDIT } else { SLOTS }.into());
            Ok(step)
        }
        _ => {
            let mut step = Step::text(FormState::Cancelled, "Cancelled: nothing was booked.");
            step.a2ui = vec![delete_surface(form_id)];
            step.screen = Some("done".into());
            Ok(step)
        }
    }
}

/// The free times for `criteria`, drawn in place (and held as this form's offer, with the
/// form's data model `data`).
#[allow(clippy::too_many_arguments)]
fn times(
    key: &SlotKey,
    tx: &Tx<'_>,
    form_id: &str,
    criteria: Criteria,
    mut data: Map<String, Value>,
    now: &jiff::ZonedDateTime,
    version: u32,
    text: &str,
    error: Option<Value>,
) -> Result<Step, HandlerError> {
    let slots = rooms::free_slots(key, form_id, &criteria, now, &taken(tx, criteria.date)?);
    // the time chosen is reset with the times offered (as the screen does)
    data.insert("slot".into(), json!([]));
    let held =
        Held { criteria: Some(criteria), slots: slots.iter().map(|s| s.start_hour).collect(), form: data };
    let text = if slots.is_empty() { "No free times for these choices." } else { text };
    let mut step = match error {
        Some(e) => rejected(text, vec![e]),
        None => Step::text(FormState::Open, text),
    };
    step.a2ui = booking_slots(form_id, &slots, version);
    step.screen = Some(SLOTS.into());
    step.values = Some(held.value());
    Ok(step)
}
