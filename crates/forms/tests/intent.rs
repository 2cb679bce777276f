//! The labelled offer-a-form heuristic over a table of messages.

use forms::Workflow::{Booking, Tutoring};
use std::sync::{Arc, Mutex};

use forms::intent::{Decide, Decision, Heuristic, INTENT_MAX_TOKENS, Live, MAX_TEXT};
use llm::{ErrorCode, Mock, MockReply, Model, Request};
use serde_json::json;

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
}

#[test]
fn the_table_of_messages_is_decided_as_expected() {
    use Decision::*;
    let table = [
        (Tutoring, "Can I meet a tutor about derivatives tomorrow afternoon?", OfferForm),
        (Tutoring, "I'd like to arrange in-person help with calculus", OfferForm),
        (Tutoring, "I'd like to arrange in person help with calculus", OfferForm),
        (Tutoring, "book a tutoring session", OfferForm),
        (Tutoring, "I need a tutor for integrals next Monday", OfferForm),
        (Tutoring, "can I schedule an appointment with someone?", OfferForm),
        (Tutoring, "what is the derivative of x^2", Answer),
        (Tutoring, "I don't need a tutor, just explain the chain rule", Answer),
        (Tutoring, "tutor", Clarify),
        (Tutoring, "help", Clarify),
        (Tutoring, "", Clarify),
        (Tutoring, "I want to reserve a group study room", OutOfScope),
        (Booking, "I want to reserve a group study room", OfferForm),
        (Booking, "book room B tomorrow for 4 people", OfferForm),
        (Booking, "is room C free on Friday?", OfferForm),
        (Booking, "what are the opening hours", Answer),
        (Booking, "how do I renew a book?", Answer),
        (Booking, "I need a book about calculus", Answer),
        (Booking, "study room", Clarify),
        (Booking, "room", Clarify),
        (Booking, "Can I meet a tutor tomorrow?", OutOfScope),
        (Booking, "don't book a room, what are the hours?", Answer),
        (Booking, "how far ahead can I book a study room?", Answer),
        (Booking, "How long can we keep a booked room?", Answer),
        (Booking, "What happens if we show up late for our room booking?", Answer),
        (Booking, "how do I book a group study room for tomorrow?", OfferForm),
        (Booking, "Can I reserve room A on Friday afternoon?", OfferForm),
        // the form makes a booking and cancels none: cancelling is answered from content
        (Booking, "can I cancel my room booking", Answer),
        (Booking, "how do I cancel a booking?", Answer),
        (Booking, "cancel my booking", Answer),
        (Booking, "I want to cancel my study room reservation for Friday", Answer),
        (Booking, "¿puedo cancelar mi reserva de sala?", Answer),
        (Booking, "cancel room B tomorrow, and then book room C for 4 people instead", OfferForm),
        (Booking, "book a room for tomorrow", OfferForm),
        // book the noun: a booking verb with a book, a textbook or a DVD as its object is a
        // hold, answered from content, never the room form
        (Booking, "can I book a book?", Answer),
        (Booking, "can I reserve a book?", Answer),
        (Booking, "I want to book the chemistry textbook", Answer),
        (Booking, "can I reserve a DVD?", Answer),
        (Booking, "I'd like to book a copy", Answer),
        (Booking, "can I book books?", Answer),
        (Booking, "¿puedo reservar un libro?", Answer),
        (Booking, "puis-je réserver un livre ?", Answer),
        (Booking, "kann ich ein Buch reservieren?", Answer),
        (Booking, "can I book a room to read a book in?", OfferForm),
        // a room in French, German, Spanish and Hinglish is a room
        (Booking, "est-ce que je peux réserver une salle d'étude ?", OfferForm),
        (Booking, "Kann ich einen Gruppenraum reservieren?", OfferForm),
        (Booking, "ich möchte einen Raum buchen", OfferForm),
        (Booking, "je voudrais réserver une salle pour jeudi", OfferForm),
        (Booking, "quiero reservar una sala de estudio", OfferForm),
        (Booking, "mujhe ek kamra book karna hai", OfferForm),
        (Tutoring, "how long is a tutoring session?", Answer),
        (Tutoring, "how do I book a tutoring session?", OfferForm),
    ];
    let wrong: Vec<String> = table
        .iter()
        .filter(|(wf, text, want)| Heuristic.decision(*wf, text) != *want)
        .map(|(wf, text, want)| {
            format!("{wf:?} {text:?}: expected {want:?}, got {:?}", Heuristic.decision(*wf, text))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_heuristic_is_labelled_and_sits_behind_the_seam() {
    let decider: &dyn Decide = &Heuristic;
    assert_eq!(decider.label(), "heuristic");
    let decided = run(decider.decide(Booking, "reserve a room")).unwrap();
    assert_eq!((decided.decision, decided.call), (Decision::OfferForm, None));
    assert_eq!(serde_json::to_value(Decision::OfferForm).expect("serializes"), "offer_form");
}

/// A live decider over a mock that answers `reply` and keeps every request it was sent.
fn live(reply: MockReply) -> (Live, Arc<Mock>, Arc<Mutex<Vec<Request>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let keep = seen.clone();
    let mock = Arc::new(Mock::new(move |req, _| {
        keep.lock().unwrap().push(req.clone());
        reply.clone()
    }));
    (Live { llm: mock.clone(), model: Model::default() }, mock, seen)
}

#[test]
fn the_live_decider_maps_the_model_s_four_outcomes_and_keeps_offers_to_its_workflow() {
    let cases = [
        (json!({"decision": "offer_form", "workflow": "study-room-booking"}), Booking, Decision::OfferForm),
        (json!({"decision": "offer_form", "workflow": "tutoring-request"}), Tutoring, Decision::OfferForm),
        (json!({"decision": "clarify", "workflow": "none"}), Booking, Decision::Clarify),
        (json!({"decision": "out_of_scope", "workflow": "none"}), Tutoring, Decision::OutOfScope),
        (json!({"decision": "answer", "workflow": "none"}), Booking, Decision::Answer),
        // an offer that names no workflow is no offer
        (json!({"decision": "offer_form", "workflow": "none"}), Booking, Decision::Answer),
    ];
    for (content, workflow, want) in cases {
        let (decider, mock, seen) = live(MockReply::Json(content.clone()));
        assert_eq!(decider.label(), "live");
        let decided = run(decider.decide(workflow, "book room B tomorrow")).unwrap();
        assert_eq!(decided.decision, want, "{content}");
        assert_eq!(decided.call.as_ref().map(|c| c.request_id.as_deref()), Some(Some("mock-1")));
        assert_eq!(mock.calls(), 1);
        let req = seen.lock().unwrap()[0].clone();
        assert_eq!(
            (req.purpose, req.max_tokens, req.effort),
            ("form_intent", INTENT_MAX_TOKENS, Some(llm::Effort::Low))
        );
        assert_eq!(req.messages.len(), 1);
        assert_eq!(req.messages[0].text, "book room B tomorrow");
        assert!(req.system.contains(workflow.id()), "{}", req.system);
    }
    // the schema names the four outcomes and the agent's one workflow
    let schema = Live::schema(Booking);
    assert_eq!(
        schema.value()["properties"]["decision"]["enum"],
        json!(["answer", "clarify", "offer_form", "out_of_scope"])
    );
    assert_eq!(schema.value()["properties"]["workflow"]["enum"], json!(["study-room-booking", "none"]));
    // a reply outside the schema is invalid output, not a guess
    let (decider, _, _) = live(MockReply::Json(json!({"decision": "book_it", "workflow": "none"})));
    let e = run(decider.decide(Booking, "x")).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidOutput);
}

#[test]
fn the_live_decider_passes_a_failure_on_and_sends_no_overlong_message() {
    let (decider, mock, _) = live(MockReply::Fail(ErrorCode::RateLimited));
    let e = run(decider.decide(Tutoring, "meet a tutor")).unwrap_err();
    assert_eq!((e.code, mock.calls()), (ErrorCode::RateLimited, 1));

    let (decider, mock, _) = live(MockReply::Json(json!({"decision": "clarify", "workflow": "none"})));
    let long = "a".repeat(MAX_TEXT + 1);
    let decided = run(decider.decide(Tutoring, &long)).unwrap();
    assert_eq!((decided.decision, decided.call, mock.calls()), (Decision::Answer, None, 0));
}
