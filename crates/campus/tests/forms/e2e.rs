//! Forms end to end with every real part: the Student (the `student` crate) asks the real
//! Hub, which routes to the real Tutor or Library; the form comes back as the Hub's
//! reference, and each press travels Student → Hub → the issuing specialist. The buttons'
//! action contexts are resolved here from the surface the Student accepted, as the
//! renderer would resolve them from its data model.

use std::collections::HashMap;

use a2a::client::A2aClient;
use serde_json::json;
use student::{ActionOutcome, FormReply, Reply, Student};
use testkit::University;
use testkit::forms::{TUTORING_QUESTION, components, prefill, press, surface_id};
use vocab::FormState as FormStatus;

fn form(u: &Student, text: &str) -> FormReply {
    let exchange = testkit::rt().block_on(u.ask(text)).expect("the hub answers");
    match exchange.reply {
        Reply::Form(f) => f,
        other => panic!("a form for {text:?}, got {other:?}: {}", exchange.reply_text),
    }
}

/// The Hub, the Tutor and the Library, ready, and a Student asking the Hub.
fn start() -> (University, Student) {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let student = Student::new(A2aClient::default(), u.hub_url.clone());
    (u, student)
}

#[test]
fn a_tutoring_request_goes_from_the_chat_to_a_receipt_through_the_hub_once() {
    let (_u, student) = start();
    let f = form(&student, TUTORING_QUESTION);
    assert_eq!(f.workflow, "tutoring-request");
    assert!(f.form_ref.starts_with("hf-"), "the hub's reference, not the tutor's id: {}", f.form_ref);
    assert_eq!(f.state, FormStatus::Open);
    let data = prefill(&f.messages);
    assert_eq!(data["period"], json!(["afternoon"]), "prefilled from the student's words");
    assert!(data["name"].as_str().unwrap_or_default().is_empty(), "a name is never prefilled");
    let mut values = data.clone();
    values["name"] = json!("Alex Student");
    values["email"] = json!("alex@example.com");
    values["topic"] = json!("the chain rule");
    values["notes"] = json!("");
    let date: jiff::civil::Date =
        values["date"].as_str().unwrap_or_default().parse().expect("the date was read");
    assert_eq!(date.weekday(), jiff::civil::Weekday::Monday, "{data}");
    let mut screen = HashMap::new();
    components(&f.messages, &mut screen);
    let surface = surface_id(&f.messages);

    // a bad email: rejected by the Tutor's own rules, the form stays open
    let mut bad = values.clone();
    bad["email"] = json!("alex@");
    let action = press(&surface, &screen, "submit_tutoring_request", &bad);
    let ActionOutcome::Rejected(r) = testkit::rt().block_on(student.act(&f.form_ref, "op-bad", action))
    else {
        panic!("rejected")
    };
    assert!(r.errors.iter().any(|e| e.field == "email"), "{:?}", r.errors);

    // a good one: one receipt; the same operation again is the same receipt
    let action = press(&surface, &screen, "submit_tutoring_request", &values);
    let first = testkit::rt().block_on(student.act(&f.form_ref, "op-ok", action.clone()));
    let ActionOutcome::Submitted(done) = first else { panic!("submitted: {first:?}") };
    let receipt = done.receipt.clone().expect("a receipt");
    assert!(done.messages.iter().any(|m| m.get("deleteSurface").is_some()), "the form is removed");
    let again = testkit::rt().block_on(student.act(&f.form_ref, "op-ok", action));
    let ActionOutcome::Submitted(same) = again else { panic!("the stored result: {again:?}") };
    assert_eq!(same.receipt, Some(receipt.clone()), "an identical retry is the same receipt");
    let text = receipt.to_string();
    assert!(!text.to_lowercase().contains("booked"), "a request is never called booked: {text}");
    // a closed form takes nothing more
    let cancel = press(&surface, &screen, "cancel_form", &values);
    let late = testkit::rt().block_on(student.act(&f.form_ref, "op-late", cancel));
    assert!(matches!(late, ActionOutcome::Refused { ref code, .. } if code == "form_closed"), "{late:?}");
}

#[test]
fn a_study_room_is_booked_through_the_hub_after_times_and_a_review() {
    let (_u, student) = start();
    let f = form(&student, "I want to reserve a group study room for 4 people tomorrow");
    assert_eq!(f.workflow, "study-room-booking");
    let surface = surface_id(&f.messages);
    let mut screen = HashMap::new();
    components(&f.messages, &mut screen);
    let mut values = prefill(&f.messages);
    assert_eq!(values["groupSize"].as_u64().or_else(|| values["groupSize"].as_str()?.parse().ok()), Some(4));
    values["room"] = json!(["B"]);
    values["duration"] = json!(["1"]);

    let find = press(&surface, &screen, "find_times", &values);
    let ActionOutcome::Updated(times) = testkit::rt().block_on(student.act(&f.form_ref, "op-find", find))
    else {
        panic!("free times")
    };
    assert!(times.version > f.version, "a new screen is a new version");
    components(&times.messages, &mut screen);
    let picker =
        screen.values().find(|c| c["component"] == "ChoicePicker" && c["value"]["path"] == "/form/slot");
    let options = picker.expect("a slot picker")["options"].as_array().unwrap().clone();
    assert!(!options.is_empty(), "tomorrow has free times in room B");
    let slot = options[0]["value"].as_str().unwrap().to_string();
    values["slot"] = json!([slot]);

    // a slot id this form was never offered is refused, never replaced by another time
    let mut forged = values.clone();
    forged["slot"] = json!(["s-00000000000000000000000000000000"]);
    let review = press(&surface, &screen, "review_booking", &forged);
    let out = testkit::rt().block_on(student.act(&f.form_ref, "op-forged", review));
    assert!(
        matches!(&out, ActionOutcome::Refused { code, .. } if code == "slot_unknown")
            || matches!(&out, ActionOutcome::Rejected(r) if r.errors.iter().any(|e| e.code == "slot_unknown")),
        "{out:?}"
    );

    let review = press(&surface, &screen, "review_booking", &values);
    let ActionOutcome::Updated(summary) =
        testkit::rt().block_on(student.act(&f.form_ref, "op-review", review))
    else {
        panic!("the review screen")
    };
    components(&summary.messages, &mut screen);
    let confirm = press(&surface, &screen, "confirm_booking", &values);
    let out = testkit::rt().block_on(student.act(&f.form_ref, "op-confirm", confirm));
    let ActionOutcome::Submitted(done) = out else { panic!("booked: {out:?}") };
    let receipt = done.receipt.expect("a receipt").to_string();
    assert!(receipt.contains("bk-"), "a booking id: {receipt}");
}

#[test]
fn a_press_the_hub_saw_no_answer_for_is_uncertain_and_reconciles_to_one_effect() {
    // the Library handles its first form action 1.5 s late; the Hub waits 400 ms for it
    let u = University::start(
        &[("HUB_FORWARD_TIMEOUT_MS", "400")],
        &[("CAMPUS_TEST_DELAY_FIRST_ACTION_MS", "1500")],
    );
    u.wait_ready();
    let student = Student::new(A2aClient::default(), u.hub_url.clone());
    let f = form(&student, "I want to reserve a group study room for 4 people tomorrow");
    let surface = surface_id(&f.messages);
    let mut screen = HashMap::new();
    components(&f.messages, &mut screen);
    let mut values = prefill(&f.messages);
    values["room"] = json!(["A"]);
    values["duration"] = json!(["1"]);
    let find = press(&surface, &screen, "find_times", &values);
    let first = testkit::rt().block_on(student.act(&f.form_ref, "op-slow", find.clone()));
    assert!(matches!(first, ActionOutcome::Uncertain { .. }), "no answer in time is uncertain: {first:?}");
    // the reconcile: the same press, the same operation id, until the Library's answer is there
    let settled = testkit::poll(10, "the reconcile's answer", || {
        match testkit::rt().block_on(student.act(&f.form_ref, "op-slow", find.clone())) {
            ActionOutcome::Uncertain { .. } => None,
            other => Some(other),
        }
    });
    let ActionOutcome::Updated(times) = settled else { panic!("the times, once: {settled:?}") };
    assert_eq!(times.version, f.version + 1, "the effect ran once, however many times it was asked");
    // a new press is a new operation: the next version
    components(&times.messages, &mut screen);
    let again = press(&surface, &screen, "find_times", &values);
    let ActionOutcome::Updated(next) = testkit::rt().block_on(student.act(&f.form_ref, "op-next", again))
    else {
        panic!("a new press runs")
    };
    assert_eq!(next.version, f.version + 2);
}

#[test]
fn continue_or_replace_is_answered_through_the_hub_and_anything_else_is_routed_as_usual() {
    let (_u, student) = start();
    let ask = |text: &str| testkit::rt().block_on(student.ask(text)).expect("the hub answers");
    let asks_which = |text: &str| {
        let e = ask(text);
        assert!(
            matches!(e.reply, Reply::Answer) && e.reply_text.contains("\"continue\""),
            "the library asks whether to continue or replace: {}",
            e.reply_text
        );
        assert!(e.served_by.as_deref().unwrap_or("").contains("Library"), "{e:?}");
    };
    let first = form(&student, "I want to reserve a group study room for 4 people on friday");
    let surface = surface_id(&first.messages);
    let sent = prefill(&first.messages);
    assert_eq!(sent["groupSize"], json!("4"), "{sent}");
    assert!(!sent["date"].as_str().unwrap_or_default().is_empty(), "the date was read: {sent}");

    // "continue": the same form comes back (its surface is the Library's form id) as it
    // stands: the values it was sent with
    asks_which("can I book a study room for friday?");
    let kept = form(&student, "continue");
    assert_eq!(kept.workflow, "study-room-booking");
    assert_eq!(surface_id(&kept.messages), surface, "the open form, not a new one");
    assert!(kept.version > first.version, "re-sent at its next version");
    assert_eq!(prefill(&kept.messages), sent, "the prefilled values come back");

    // on the times screen, with the choices pressed: it comes back on that screen, with them
    let mut screen = HashMap::new();
    components(&kept.messages, &mut screen);
    let mut chosen = sent.clone();
    chosen["room"] = json!(["B"]);
    chosen["duration"] = json!(["1"]);
    let find = press(&surface, &screen, "find_times", &chosen);
    let ActionOutcome::Updated(times) = testkit::rt().block_on(student.act(&kept.form_ref, "op-find", find))
    else {
        panic!("the times")
    };
    asks_which("can I book a study room for friday?");
    let again = form(&student, "continue");
    assert_eq!(surface_id(&again.messages), surface);
    assert!(again.version > times.version, "re-sent at its next version");
    let data = prefill(&again.messages);
    for field in ["date", "room", "duration", "groupSize"] {
        assert_eq!(data[field], chosen[field], "{field} as pressed: {data}");
    }
    let mut screen = HashMap::new();
    components(&again.messages, &mut screen);
    assert!(screen.contains_key("slot_field") && screen.contains_key("review_btn"), "the times screen");
    let kept = again;

    // "replace": a new form; the reference it replaces takes nothing more
    asks_which("can I book a study room for friday?");
    let new = form(&student, "replace");
    assert_eq!(new.workflow, "study-room-booking");
    assert_ne!(surface_id(&new.messages), surface, "a new form");
    assert_ne!(new.form_ref, kept.form_ref);
    let mut screen = HashMap::new();
    components(&kept.messages, &mut screen);
    let find = press(&surface, &screen, "find_times", &prefill(&kept.messages));
    let late = testkit::rt().block_on(student.act(&kept.form_ref, "op-old", find));
    assert!(matches!(&late, ActionOutcome::Refused { code, .. } if code == "form_closed"), "{late:?}");

    // the awaited answer is consumed once: a new question instead is routed as usual ...
    asks_which("can I book a study room for friday?");
    let other = ask("what is the derivative of x^2?");
    assert_eq!(other.outcome.as_deref(), Some("route"), "{other:?}");
    assert!(other.served_by.as_deref().unwrap_or("").contains("Tutor"), "{other:?}");
    // ... and a "replace" nobody asked for is the Hub's to answer
    let stray = ask("replace");
    assert_ne!(stray.outcome.as_deref(), Some("route"), "{stray:?}");
}

#[test]
fn continue_re_sends_the_tutoring_form_with_its_prefilled_values() {
    let (_u, student) = start();
    let first = form(&student, TUTORING_QUESTION);
    let sent = prefill(&first.messages);
    assert_eq!(sent["period"], json!(["afternoon"]), "{sent}");
    let e = testkit::rt().block_on(student.ask(TUTORING_QUESTION)).expect("the hub answers");
    assert!(e.reply_text.contains("\"continue\""), "the tutor asks: {}", e.reply_text);
    let kept = form(&student, "continue");
    assert_eq!(kept.workflow, "tutoring-request");
    assert_eq!(surface_id(&kept.messages), surface_id(&first.messages), "the open form");
    assert!(kept.version > first.version, "re-sent at its next version");
    assert_eq!(prefill(&kept.messages), sent, "the prefilled date and time of day come back");
}

#[test]
fn a_booking_is_cancelled_from_its_first_screen() {
    let (_u, student) = start();
    let f = form(&student, "I want to reserve a group study room for 4 people");
    let mut screen = HashMap::new();
    components(&f.messages, &mut screen);
    let surface = surface_id(&f.messages);
    let cancel = press(&surface, &screen, "cancel_form", &prefill(&f.messages));
    let out = testkit::rt().block_on(student.act(&f.form_ref, "op-cancel", cancel));
    let ActionOutcome::Cancelled(done) = out else { panic!("cancelled: {out:?}") };
    assert!(done.messages.iter().any(|m| m.get("deleteSurface").is_some()), "the form is removed");
}

#[test]
fn a_question_about_the_booking_rules_is_answered_in_words_through_the_hub() {
    let (_u, student) = start();
    let e = testkit::rt()
        .block_on(student.ask("how far ahead can I book a study room?"))
        .expect("the hub answers");
    assert!(matches!(e.reply, Reply::Answer), "words, not a form: {e:?}");
    assert!(e.served_by.as_deref().unwrap_or("").contains("Library"), "{e:?}");
    assert!(e.reply_text.contains("14 days ahead"), "the rule itself: {}", e.reply_text);
    assert!(!e.reply_text.contains("Do you mean"), "no question back: {}", e.reply_text);
}
