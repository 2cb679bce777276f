//! The A2UI templates' shapes: only the fixed forms' components and functions, every
//! action exactly `{event}`, every input labelled, every field bound, prefill checked by
//! the form's rules. (Schema validity is checked by the a2ui crate's validator.)

use forms::read::{Prefill, read};
use forms::rooms::{Criteria, SlotKey, free_slots};
use forms::templates::{
    BASIC_CATALOG_ID, FORM_VERSION_KEY, booking_back_to_edit, booking_form, booking_review, booking_slots,
    delete_surface, tutoring_form,
};
use forms::{Room, Workflow};
use jiff::ZonedDateTime;
use jiff::civil::Date;
use serde_json::{Value, json};

const COMPONENTS: [&str; 9] =
    ["Column", "Row", "Card", "Divider", "Text", "TextField", "Button", "ChoicePicker", "DateTimeInput"];
const FUNCTIONS: [&str; 8] = ["required", "regex", "length", "numeric", "email", "and", "or", "not"];
const TODAY: Date = Date::constant(2026, 11, 30);

fn now() -> ZonedDateTime {
    "2026-11-30T10:00[America/Los_Angeles]".parse().expect("fixed")
}

/// Every `call` anywhere in a value.
fn calls(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(c)) = m.get("call") {
                out.push(c.clone());
            }
            assert!(!m.contains_key("functionCall"), "no functionCall: {v}");
            m.values().for_each(|x| calls(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| calls(x, out)),
        _ => {}
    }
}

fn components(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter_map(|m| m.get("updateComponents"))
        .flat_map(|u| u["components"].as_array().expect("a list").clone())
        .collect()
}

/// The shape rules every message list here must keep.
fn assert_allowed(surface: &str, messages: &[Value]) {
    for m in messages {
        assert_eq!(m["version"], "v0.9");
        let body = m.as_object().expect("an object").iter().find(|(k, _)| *k != "version").expect("a body").1;
        assert_eq!(body["surfaceId"], surface);
        if let Some(c) = m.get("createSurface") {
            assert_eq!(c["catalogId"], BASIC_CATALOG_ID);
        }
    }
    let mut found = Vec::new();
    calls(&Value::Array(messages.to_vec()), &mut found);
    for f in &found {
        assert!(FUNCTIONS.contains(&f.as_str()), "function {f}");
    }
    let all = components(messages);
    let ids: Vec<&str> = all.iter().map(|c| c["id"].as_str().expect("an id")).collect();
    for c in &all {
        let kind = c["component"].as_str().expect("a kind");
        assert!(COMPONENTS.contains(&kind), "component {kind}");
        if matches!(kind, "TextField" | "ChoicePicker" | "DateTimeInput") {
            assert!(c["label"].as_str().is_some_and(|l| !l.is_empty()), "unlabelled {c}");
        }
        if kind == "Button" {
            let action = c["action"].as_object().expect("an action");
            assert_eq!(action.keys().collect::<Vec<_>>(), ["event"], "{c}");
            let child = c["child"].as_str().expect("a child");
            let label = all.iter().find(|x| x["id"] == child).expect("the label is sent with its button");
            assert!(label["text"].as_str().is_some_and(|t| !t.is_empty()));
        }
        // every child named is sent in the same list (or earlier: checked by the caller)
        for child in c["children"].as_array().into_iter().flatten().chain(c.get("child")) {
            assert!(ids.contains(&child.as_str().expect("an id")), "{child} missing");
        }
    }
}

fn component(messages: &[Value], id: &str) -> Value {
    components(messages).into_iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}"))
}

fn bound(event: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = event["context"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| *k != FORM_VERSION_KEY)
                .map(|(k, v)| (k.clone(), v["path"].as_str().expect("a path").to_string()))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn fields_as_paths(fields: &[&str]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        fields.iter().map(|f| ((*f).to_string(), format!("/form/{f}"))).collect();
    out.sort();
    out
}

#[test]
fn the_tutoring_form_is_prefilled_from_scheduling_words_only() {
    let reading =
        read("I'm Jordan Rivera, jordan@uni.example: can I meet a tutor tomorrow afternoon?", &now());
    assert_eq!(
        (reading.name.as_deref(), reading.email.as_deref()),
        (Some("Jordan Rivera"), Some("jordan@uni.example"))
    );
    let built = tutoring_form("f-1", &reading.prefill(), TODAY, 1);
    assert!(built.not_filled.is_empty());
    let m = &built.messages;
    assert_eq!(m.len(), 3);
    assert_eq!(
        m[0]["createSurface"],
        json!({"surfaceId": "f-1", "catalogId": BASIC_CATALOG_ID, "sendDataModel": false})
    );
    assert_allowed("f-1", m);
    assert_eq!(
        m[2]["updateDataModel"],
        json!({"surfaceId": "f-1", "path": "/form", "value": {
            "name": "", "email": "", "date": "2026-12-01", "period": ["afternoon"], "topic": "", "notes": ""}})
    );
    let submit = component(m, "submit_btn");
    assert_eq!(submit["action"]["event"]["name"], "submit_tutoring_request");
    assert_eq!(bound(&submit["action"]["event"]), fields_as_paths(Workflow::Tutoring.fields()));
    assert_eq!(
        component(m, "cancel_btn")["action"],
        json!({"event": {"name": "cancel_form", "context": {"formVersion": 1}}})
    );
    let date = component(m, "date_field");
    assert_eq!(
        (&date["enableDate"], &date["enableTime"], &date["min"], &date["max"]),
        (&json!(true), &json!(false), &json!("2026-11-30"), &json!("2027-01-29"))
    );
    let text = serde_json::to_string(m).expect("serializes");
    assert!(!text.contains("Jordan") && !text.contains("jordan@"), "no name or email is prefilled");
}

#[test]
fn a_prefilled_value_the_form_would_refuse_is_left_empty_and_named() {
    // Saturday is no tutoring day; 3pm alone gives the afternoon
    let p = Prefill {
        date: Some(Date::constant(2026, 12, 5)),
        time: jiff::civil::Time::new(15, 0, 0, 0).ok(),
        ..Prefill::default()
    };
    let built = tutoring_form("f-2", &p, TODAY, 1);
    let data = &built.messages[2]["updateDataModel"]["value"];
    assert_eq!((&data["date"], &data["period"]), (&json!(""), &json!(["afternoon"])));
    assert_eq!(
        built.not_filled.iter().map(|e| (e.field.as_str(), e.code)).collect::<Vec<_>>(),
        [("date", "not_a_weekday")]
    );
    // room A holds 4: a group of 6 is not filled, the room is
    let p = read("room A for 6 people, 3 hours, tomorrow", &now()).prefill();
    let built = booking_form("b-1", &p, TODAY, 1);
    let data = &built.messages[2]["updateDataModel"]["value"];
    assert_eq!(
        data,
        &json!({"date": "2026-12-01", "room": ["A"], "duration": [], "groupSize": "", "slot": []})
    );
    let refused: Vec<(&str, &str)> = built.not_filled.iter().map(|e| (e.field.as_str(), e.code)).collect();
    assert_eq!(refused, [("duration", "invalid_value"), ("groupSize", "too_many_people")]);
}

#[test]
fn the_booking_form_goes_edit_slots_review_and_back() {
    let p = read("book room B tomorrow for 4 people, 2 hours", &now()).prefill();
    let built = booking_form("b-2", &p, TODAY, 1);
    assert!(built.not_filled.is_empty());
    let m = &built.messages;
    assert_allowed("b-2", m);
    assert_eq!(
        m[2]["updateDataModel"]["value"],
        json!({"date": "2026-12-01", "room": ["B"], "duration": ["2"], "groupSize": "4", "slot": []})
    );
    let find = component(m, "find_btn");
    assert_eq!(find["action"]["event"]["name"], "find_times");
    assert_eq!(find["action"]["event"]["context"]["formVersion"], 1);
    assert_eq!(bound(&find["action"]["event"]), fields_as_paths(&["date", "room", "duration", "groupSize"]));
    assert_eq!(
        component(m, "cancel_btn")["action"],
        json!({"event": {"name": "cancel_form", "context": {"formVersion": 1}}}),
        "the first screen can be cancelled"
    );
    assert!(component(m, "form_col")["children"].as_array().unwrap().contains(&json!("edit_buttons")));
    assert_eq!(component(m, "edit_buttons")["children"], json!(["cancel_btn"]));

    let criteria = Criteria { date: Date::constant(2026, 12, 1), room: Room::B, duration: 2, group_size: 4 };
    let slots = free_slots(&SlotKey::new(b"k"), "b-2", &criteria, &now(), &[]);
    let update = booking_slots("b-2", &slots, 2);
    assert_allowed("b-2", &[m.clone(), update.clone()].concat());
    let picker = component(&update, "slot_field");
    let options = picker["options"].as_array().expect("options");
    assert_eq!(options.len(), slots.len());
    assert_eq!(options[0], json!({"label": "11:00–13:00", "value": slots[0].id}));
    assert_eq!(update[1]["updateDataModel"], json!({"surfaceId": "b-2", "path": "/form/slot", "value": []}));
    let review = component(&update, "review_btn");
    assert_eq!(review["action"]["event"]["name"], "review_booking");
    assert_eq!(review["action"]["event"]["context"]["formVersion"], 2);
    assert_eq!(component(&update, "find_btn")["action"]["event"]["context"]["formVersion"], 2, "redrawn");
    assert_eq!(bound(&review["action"]["event"]), fields_as_paths(Workflow::Booking.fields()));

    // no free time: a line says so and there is nothing to review
    let none = booking_slots("b-2", &[], 2);
    assert!(components(&none).iter().all(|c| c["id"] != "review_btn" && c["id"] != "slot_field"));
    assert!(components(&none).iter().any(|c| c["id"] == "slots_none"));

    let screen = booking_review("b-2", &criteria, &slots[0], 3);
    assert_allowed("b-2", &screen);
    let summary = component(&screen, "review_summary");
    assert_eq!(summary["text"], "Room B · Tuesday 2026-12-01 · 11:00–13:00 Pacific Time · 4 people");
    assert_eq!(
        component(&screen, "back_btn")["action"],
        json!({"event": {"name": "back_to_edit", "context": {"formVersion": 3}}})
    );
    let confirm = component(&screen, "confirm_btn");
    assert_eq!(confirm["action"]["event"]["name"], "confirm_booking");
    assert_eq!(bound(&confirm["action"]["event"]), fields_as_paths(Workflow::Booking.fields()));

    let back = booking_back_to_edit("b-2", &slots, 4);
    assert_allowed("b-2", &[m.clone(), back.clone()].concat());
    assert_eq!(component(&back, "root"), json!({"id": "root", "component": "Card", "child": "form_col"}));
    for id in ["find_btn", "review_btn", "cancel_btn"] {
        assert_eq!(component(&back, id)["action"]["event"]["context"]["formVersion"], 4, "{id}");
    }
    assert!(back.iter().all(|m| m.get("updateDataModel").is_none()), "the choices stay");
    assert_eq!(delete_surface("b-2"), json!({"version": "v0.9", "deleteSurface": {"surfaceId": "b-2"}}));
}

#[test]
fn every_action_a_template_sends_is_allowlisted_for_its_workflow() {
    let p = Prefill::default();
    let criteria = Criteria { date: Date::constant(2026, 12, 1), room: Room::C, duration: 1, group_size: 2 };
    let slots = free_slots(&SlotKey::new(b"k"), "x", &criteria, &now(), &[]);
    let cases = [
        (Workflow::Tutoring, tutoring_form("x", &p, TODAY, 1).messages),
        (
            Workflow::Booking,
            [
                booking_form("x", &p, TODAY, 1).messages,
                booking_slots("x", &slots, 2),
                booking_review("x", &criteria, &slots[0], 3),
            ]
            .concat(),
        ),
    ];
    for (wf, messages) in cases {
        let mut names: Vec<String> = components(&messages)
            .iter()
            .filter(|c| c["component"] == "Button")
            .map(|c| c["action"]["event"]["name"].as_str().expect("a name").to_string())
            .collect();
        names.sort();
        names.dedup();
        let mut allowed: Vec<&str> = wf.actions().to_vec();
        allowed.sort();
        assert_eq!(names, allowed, "{wf:?}");
    }
}
