//! Field rules of both workflows.

use forms::rules::{
    check_value, check_value_with, validate_booking, validate_booking_criteria, validate_tutoring,
};
use forms::{Period, Room, Workflow};
use jiff::civil::Date;
use serde_json::{Map, Value, json};

/// Monday 2026-11-30.
const TODAY: Date = Date::constant(2026, 11, 30);

fn map(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

fn tutoring() -> Value {
    json!({"name": "  Alex Student ", "email": "alex@example.edu", "date": "2026-12-01",
        "period": ["afternoon"], "topic": "derivatives", "notes": ""})
}

fn codes(errors: &[forms::FieldError]) -> Vec<(String, &'static str)> {
    errors.iter().map(|e| (e.field.clone(), e.code)).collect()
}

#[test]
fn a_valid_tutoring_form_is_trimmed_and_typed() {
    let req = validate_tutoring(&map(tutoring()), TODAY).expect("valid");
    assert_eq!(req.name, "Alex Student");
    assert_eq!(req.date, Date::constant(2026, 12, 1));
    assert_eq!(req.period, Period::Afternoon);
    assert_eq!(req.notes, None);
    // a plain string for the period is taken too
    let mut form = map(tutoring());
    form.insert("period".into(), json!("morning"));
    form.insert("notes".into(), json!("  chain rule  "));
    let req = validate_tutoring(&form, TODAY).expect("valid");
    assert_eq!((req.period, req.notes.as_deref()), (Period::Morning, Some("chain rule")));
}

#[test]
fn every_tutoring_problem_is_named_with_a_stable_code() {
    let cases: &[(&str, Value, &str)] = &[
        ("name", json!("   "), "required"),
        ("name", json!("x".repeat(81)), "too_long"),
        ("email", json!(""), "required"),
        ("email", json!("alex@example"), "invalid_email"),
        ("email", json!("alex@@example.edu"), "invalid_email"),
        ("date", json!("2026-12-05"), "not_a_weekday"),
        ("date", json!("2026-11-27"), "out_of_range"),
        ("date", json!("2027-02-01"), "out_of_range"),
        ("date", json!("12/01/2026"), "invalid_date"),
        ("date", json!("2026-02-30"), "invalid_date"),
        ("period", json!(["evening"]), "invalid_value"),
        ("period", json!([]), "required"),
        ("period", json!(["morning", "afternoon"]), "invalid_value"),
        ("topic", json!("t".repeat(121)), "too_long"),
        ("notes", json!("n".repeat(501)), "too_long"),
        ("name", json!({"a": 1}), "invalid_value"),
    ];
    for (field, value, code) in cases {
        let mut form = map(tutoring());
        form.insert((*field).into(), value.clone());
        let errors = validate_tutoring(&form, TODAY).expect_err(field);
        assert_eq!(codes(&errors), [((*field).to_string(), *code)], "{field} = {value}");
        let message = &errors[0].message;
        assert!(
            !message.ends_with('.') && message.chars().next().is_some_and(char::is_lowercase),
            "{message}"
        );
    }
    // the last date in range is taken; a missing field is required; all problems at once
    let mut form = map(tutoring());
    form.insert("date".into(), json!("2027-01-29"));
    assert!(validate_tutoring(&form, TODAY).is_ok());
    let errors = validate_tutoring(&map(json!({"email": "x", "extra": 1})), TODAY).expect_err("invalid");
    assert_eq!(
        codes(&errors),
        [
            ("name".into(), "required"),
            ("email".into(), "invalid_email"),
            ("date".into(), "required"),
            ("period".into(), "required"),
            ("topic".into(), "required"),
            ("extra".into(), "unknown_field"),
        ]
    );
}

fn booking() -> Value {
    json!({"date": "2026-12-01", "room": ["B"], "duration": ["2"], "groupSize": "4", "slot": ["s-0123abcd"]})
}

#[test]
fn booking_fields_have_their_rules() {
    let req = validate_booking(&map(booking()), TODAY).expect("valid");
    assert_eq!((req.criteria.room, req.criteria.duration, req.criteria.group_size), (Room::B, 2, 4));
    assert_eq!(req.slot, "s-0123abcd");
    let cases: &[(&str, Value, &str)] = &[
        ("date", json!("2026-12-15"), "out_of_range"),
        ("date", json!("2026-11-29"), "out_of_range"),
        ("room", json!(["D"]), "invalid_value"),
        ("duration", json!(["3"]), "invalid_value"),
        ("duration", json!(0), "invalid_value"),
        ("groupSize", json!("7"), "too_many_people"),
        ("groupSize", json!("0"), "out_of_range"),
        ("groupSize", json!("four"), "invalid_value"),
        ("slot", json!(""), "required"),
        ("slot", json!("s-../../etc"), "invalid_value"),
    ];
    for (field, value, code) in cases {
        let mut form = map(booking());
        form.insert((*field).into(), value.clone());
        let errors = validate_booking(&form, TODAY).expect_err(field);
        assert_eq!(codes(&errors), [((*field).to_string(), *code)], "{field} = {value}");
    }
    let mut form = map(booking());
    form.insert("groupSize".into(), json!("7"));
    let errors = validate_booking(&form, TODAY).expect_err("too many");
    assert_eq!(errors[0].message, "room B holds up to 6 people");
    // the window's last day, a number for the duration, a lower-case room
    let mut form = map(booking());
    form.insert("date".into(), json!("2026-12-14"));
    form.insert("duration".into(), json!(1));
    form.insert("room".into(), json!("c"));
    form.insert("groupSize".into(), json!(10));
    assert!(validate_booking(&form, TODAY).is_ok());
}

#[test]
fn an_availability_lookup_carries_the_four_criteria_only() {
    let mut form = map(booking());
    let errors = validate_booking_criteria(&form, TODAY).expect_err("slot is not a criterion");
    assert_eq!(codes(&errors), [("slot".into(), "unknown_field")]);
    form.remove("slot");
    let c = validate_booking_criteria(&form, TODAY).expect("valid");
    assert_eq!(c.date, Date::constant(2026, 12, 1));
}

#[test]
fn one_value_is_checked_alone_or_against_the_form() {
    let wf = Workflow::Booking;
    assert!(check_value(wf, "groupSize", &json!("8"), TODAY).is_ok());
    let e = check_value(wf, "groupSize", &json!("11"), TODAY).expect_err("too many");
    assert_eq!((e.code, e.message.as_str()), ("too_many_people", "the largest room holds 10 people"));
    let e =
        check_value_with(wf, "groupSize", &json!("8"), TODAY, &map(json!({"room": ["A"]}))).expect_err("A");
    assert_eq!(e.code, "too_many_people");
    assert_eq!(
        check_value(wf, "duration", &json!("3"), TODAY).expect_err("3").message,
        "bookings are 1 or 2 hours"
    );
    assert_eq!(check_value(wf, "name", &json!("Alex"), TODAY).expect_err("no name").code, "unknown_field");
    let tw = Workflow::Tutoring;
    assert!(check_value(tw, "email", &json!("alex@example.edu"), TODAY).is_ok());
    assert_eq!(check_value(tw, "date", &json!("2026-12-05"), TODAY).expect_err("sat").code, "not_a_weekday");
    assert_eq!(check_value(tw, "period", &json!("evening"), TODAY).expect_err("eve").code, "invalid_value");
    assert!(check_value(tw, "notes", &json!(""), TODAY).is_ok());
}
