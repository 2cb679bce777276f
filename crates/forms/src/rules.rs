//! Each workflow's field rules: what the issuing agent accepts, what chat-filling checks a
//! value against, and what the templates' client-side checks mirror. Errors carry a stable
//! snake_case `code` and a lowercase message fit to show a student.

use jiff::civil::{Date, Weekday};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::read::is_email;
use crate::rooms::{self, Criteria, MAX_DAYS_AHEAD, MAX_GROUP, Room};
use crate::{Period, Workflow};

/// Stable error codes.
pub mod code {
    pub const REQUIRED: &str = "required";
    pub const TOO_LONG: &str = "too_long";
    pub const INVALID_EMAIL: &str = "invalid_email";
    pub const INVALID_DATE: &str = "invalid_date";
    pub const NOT_A_WEEKDAY: &str = "not_a_weekday";
    pub const OUT_OF_RANGE: &str = "out_of_range";
    pub const INVALID_VALUE: &str = "invalid_value";
    pub const TOO_MANY_PEOPLE: &str = "too_many_people";
    pub const UNKNOWN_FIELD: &str = "unknown_field";
}

pub const NAME_MAX: usize = 80;
pub const EMAIL_MAX: usize = 254;
pub const TOPIC_MAX: usize = 120;
pub const NOTES_MAX: usize = 500;
pub const SLOT_MAX: usize = 64;
/// A loan id is at most this long (`A-Za-z0-9_-`).
pub const LOAN_ID_MAX: usize = 64;
/// A follow-up button's question is at most this long.
pub const REQUEST_MAX: usize = 300;
/// A tutoring request's preferred date is at most this many days ahead.
pub const TUTORING_DAYS_AHEAD: i32 = 60;

/// One field's problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub code: &'static str,
    pub message: String,
}

impl FieldError {
    fn new(field: &str, code: &'static str, message: impl Into<String>) -> FieldError {
        // a field name the client invented is cut short
        let field: String = field.chars().take(64).collect();
        FieldError { field, code, message: message.into() }
    }
}

/// A tutoring request that passed every rule (values trimmed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TutoringRequest {
    pub name: String,
    pub email: String,
    pub date: Date,
    pub period: Period,
    pub topic: String,
    pub notes: Option<String>,
}

/// A booking whose fields passed every rule; whether the slot is real and free is the
/// Library's check against its schedule ([`rooms::find_slot`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BookingRequest {
    pub criteria: Criteria,
    pub slot: String,
}

/// A field's value once read.
enum Parsed {
    Text(String),
    Absent,
    Date(Date),
    Period(Period),
    Room(Room),
    Count(u8),
}

/// Checks a submitted tutoring form. Every field is checked; all problems are returned.
pub fn validate_tutoring(form: &Map<String, Value>, today: Date) -> Result<TutoringRequest, Vec<FieldError>> {
    let mut read = read_all(Workflow::Tutoring, Workflow::Tutoring.fields(), form, today)?;
    let mut take = |field: &str| read.remove(field);
    let text = |v: Option<Parsed>| match v {
        Some(Parsed::Text(s)) => Some(s),
        _ => None,
    };
    let (Some(name), Some(email), Some(Parsed::Date(date)), Some(Parsed::Period(period)), Some(topic)) =
        (text(take("name")), text(take("email")), take("date"), take("period"), text(take("topic")))
    else {
        unreachable!("every tutoring field reads as its kind")
    };
    Ok(TutoringRequest { name, email, date, period, topic, notes: text(take("notes")) })
}

/// Checks the four fields an availability lookup carries (`find_times`); a `slot` is refused
/// as an unknown field here.
pub fn validate_booking_criteria(
    form: &Map<String, Value>,
    today: Date,
) -> Result<Criteria, Vec<FieldError>> {
    let mut read = read_all(Workflow::Booking, &CRITERIA_FIELDS, form, today)?;
    criteria_of(&mut read)
}

/// Checks a whole booking form (review and confirm), slot included.
pub fn validate_booking(form: &Map<String, Value>, today: Date) -> Result<BookingRequest, Vec<FieldError>> {
    let mut read = read_all(Workflow::Booking, Workflow::Booking.fields(), form, today)?;
    let criteria = criteria_of(&mut read)?;
    match read.remove("slot") {
        Some(Parsed::Text(slot)) => Ok(BookingRequest { criteria, slot }),
        _ => unreachable!("the slot reads as text"),
    }
}

const CRITERIA_FIELDS: [&str; 4] = ["date", "room", "duration", "groupSize"];

fn criteria_of(
    read: &mut std::collections::HashMap<&'static str, Parsed>,
) -> Result<Criteria, Vec<FieldError>> {
    match (read.remove("date"), read.remove("room"), read.remove("duration"), read.remove("groupSize")) {
        (
            Some(Parsed::Date(date)),
            Some(Parsed::Room(room)),
            Some(Parsed::Count(duration)),
            Some(Parsed::Count(group_size)),
        ) => Ok(Criteria { date, room, duration, group_size }),
        _ => unreachable!("every criteria field reads as its kind"),
    }
}

/// Reads `fields` of `form` (others are `unknown_field`), each by its rule.
fn read_all(
    workflow: Workflow,
    fields: &[&'static str],
    form: &Map<String, Value>,
    today: Date,
) -> Result<std::collections::HashMap<&'static str, Parsed>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut read = std::collections::HashMap::new();
    for field in fields {
        match check_field(workflow, field, form.get(*field), today, form) {
            Ok(v) => {
                read.insert(*field, v);
            }
            Err(e) => errors.push(e),
        }
    }
    let mut unknown: Vec<&String> = form.keys().filter(|k| !fields.contains(&k.as_str())).collect();
    unknown.sort();
    for key in unknown {
        errors.push(FieldError::new(key, code::UNKNOWN_FIELD, "this form has no such field"));
    }
    if errors.is_empty() { Ok(read) } else { Err(errors) }
}

/// Whether the form would take `value` for `field` (chat-filling: a value the form would
/// not take is not filled, and the message says why). Checks the field alone: a group
/// size against the largest room; see [`check_value_with`] to check it against the room
/// the form has.
pub fn check_value(workflow: Workflow, field: &str, value: &Value, today: Date) -> Result<(), FieldError> {
    check_value_with(workflow, field, value, today, &Map::new())
}

/// [`check_value`] with the form's other values, for rules across fields (a group size
/// and the room's capacity).
pub fn check_value_with(
    workflow: Workflow,
    field: &str,
    value: &Value,
    today: Date,
    form: &Map<String, Value>,
) -> Result<(), FieldError> {
    check_field(workflow, field, Some(value), today, form).map(|_| ())
}

/// One field's rule. `form` is read only for a booking's group size (the room's capacity).
fn check_field(
    workflow: Workflow,
    field: &str,
    value: Option<&Value>,
    today: Date,
    form: &Map<String, Value>,
) -> Result<Parsed, FieldError> {
    if !workflow.fields().contains(&field) {
        return Err(FieldError::new(field, code::UNKNOWN_FIELD, "this form has no such field"));
    }
    let err = |code: &'static str, message: String| FieldError::new(field, code, message);
    let text = text_of(value).ok_or_else(|| err(code::INVALID_VALUE, "this value must be text".into()))?;
    let required = |label: &str| -> Result<String, FieldError> {
        match &text {
            Some(t) if !t.is_empty() => Ok(t.clone()),
            _ => Err(err(code::REQUIRED, format!("enter {label}"))),
        }
    };
    let at_most = |t: String, max: usize, what: &str| -> Result<String, FieldError> {
        if t.chars().count() > max {
            Err(err(code::TOO_LONG, format!("{what} must be at most {max} characters")))
        } else {
            Ok(t)
        }
    };
    match (workflow, field) {
        (Workflow::Tutoring, "name") => {
            at_most(required("your name")?, NAME_MAX, "your name").map(Parsed::Text)
        }
        (Workflow::Tutoring, "email") => {
            let email = at_most(required("your email address")?, EMAIL_MAX, "the email address")?;
            if is_email(&email) {
                Ok(Parsed::Text(email))
            } else {
                Err(err(code::INVALID_EMAIL, "enter an email address like alex@example.edu".into()))
            }
        }
        (Workflow::Tutoring, "topic") => {
            at_most(required("a topic")?, TOPIC_MAX, "the topic").map(Parsed::Text)
        }
        (Workflow::Tutoring, "notes") => match text {
            Some(t) if !t.is_empty() => at_most(t, NOTES_MAX, "notes").map(Parsed::Text),
            _ => Ok(Parsed::Absent),
        },
        (Workflow::Tutoring, "period") => match Period::parse(&required("morning or afternoon")?) {
            Some(p @ (Period::Morning | Period::Afternoon)) => Ok(Parsed::Period(p)),
            _ => Err(err(
                code::INVALID_VALUE,
                "choose morning or afternoon (tutoring runs 09:00–17:00)".into(),
            )),
        },
        (Workflow::Tutoring, "date") => {
            let date = iso_date(&required("a preferred date")?)
                .ok_or_else(|| err(code::INVALID_DATE, "enter a date as YYYY-MM-DD".into()))?;
            if matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday) {
                return Err(err(
                    code::NOT_A_WEEKDAY,
                    "tutoring is monday to friday: choose a weekday".into(),
                ));
            }
            in_range(date, today, TUTORING_DAYS_AHEAD).map_err(|m| err(code::OUT_OF_RANGE, m))?;
            Ok(Parsed::Date(date))
        }
        (Workflow::Booking, "date") => {
            let date = iso_date(&required("a date")?)
                .ok_or_else(|| err(code::INVALID_DATE, "enter a date as YYYY-MM-DD".into()))?;
            in_range(date, today, MAX_DAYS_AHEAD).map_err(|m| err(code::OUT_OF_RANGE, m))?;
            Ok(Parsed::Date(date))
        }
        (Workflow::Booking, "room") => Room::parse(&required("a room")?)
            .map(Parsed::Room)
            .ok_or_else(|| err(code::INVALID_VALUE, "choose room A, B or C".into())),
        (Workflow::Booking, "duration") => match required("a duration")?.as_str() {
            "1" => Ok(Parsed::Count(1)),
            "2" => Ok(Parsed::Count(2)),
            _ => Err(err(code::INVALID_VALUE, "bookings are 1 or 2 hours".into())),
        },
        (Workflow::Booking, "groupSize") => {
            let raw = required("how many people")?;
            let n: u32 = (raw.len() <= 4 && raw.bytes().all(|b| b.is_ascii_digit()))
                .then(|| raw.parse().ok())
                .flatten()
                .ok_or_else(|| err(code::INVALID_VALUE, "enter the number of people".into()))?;
            let room =
                form.get("room").and_then(|v| text_of(Some(v)).flatten()).and_then(|r| Room::parse(&r));
            let capacity = room.map_or(MAX_GROUP, Room::capacity);
            if n == 0 {
                return Err(err(code::OUT_OF_RANGE, "a group is at least 1 person".into()));
            }
            if n > u32::from(capacity) {
                let message = match room {
                    Some(r) => format!("room {} holds up to {} people", r.as_str(), r.capacity()),
                    None => format!("the largest room holds {MAX_GROUP} people"),
                };
                return Err(err(code::TOO_MANY_PEOPLE, message));
            }
            Ok(Parsed::Count(n as u8))
        }
        (Workflow::Booking, "slot") => {
            let slot = required("a time")?;
            if slot.len() > SLOT_MAX || !slot.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                return Err(err(code::INVALID_VALUE, "choose one of the times offered".into()));
            }
            Ok(Parsed::Text(slot))
        }
        // the range is the loan service's (and the drawn picker's): only the shape here
        (Workflow::LoanRenewal, "returnDate") => iso_date(&required("a new return date")?)
            .map(Parsed::Date)
            .ok_or_else(|| err(code::INVALID_DATE, "enter a date as YYYY-MM-DD".into())),
        (Workflow::LoanRenewal, "loanId") => {
            let id = required("a loan")?;
            let ok = id.len() <= LOAN_ID_MAX
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if ok {
                Ok(Parsed::Text(id))
            } else {
                Err(err(code::INVALID_VALUE, "choose one of the loans shown".into()))
            }
        }
        (Workflow::LoanRenewal, "request") => {
            at_most(required("a question")?, REQUEST_MAX, "the question").map(Parsed::Text)
        }
        _ => Err(err(code::UNKNOWN_FIELD, "this form has no such field".into())),
    }
}

/// A field's value as trimmed text: a string, a number, or a one-choice list (what a
/// ChoicePicker binds); `Ok(None)` when absent, empty or `null`; `None` for any other
/// shape.
fn text_of(value: Option<&Value>) -> Option<Option<String>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.trim().to_string())),
        Some(Value::Number(n)) => Some(Some(n.to_string())),
        Some(Value::Array(items)) => match items.as_slice() {
            [] => Some(None),
            [Value::String(s)] => Some(Some(s.trim().to_string())),
            _ => None,
        },
        Some(_) => None,
    }
}

/// `YYYY-MM-DD`, nothing else, and a day that exists.
pub fn iso_date(text: &str) -> Option<Date> {
    let b = text.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    Date::new(text[..4].parse().ok()?, text[5..7].parse().ok()?, text[8..].parse().ok()?).ok()
}

/// `date` within today ..= today + `days`, else the message saying the range.
fn in_range(date: Date, today: Date, days: i32) -> Result<(), String> {
    let last = today.checked_add(jiff::Span::new().days(days)).unwrap_or(today);
    if date < today || rooms::days_between(today, date) > i64::from(days) {
        return Err(format!("choose a date from {today} to {last}"));
    }
    Ok(())
}
