//! The labelled offer-a-form heuristic over a table of messages.

use forms::Workflow::{Booking, Tutoring};
use forms::intent::{Decide, Decision, Heuristic, decide};

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
        (Tutoring, "how long is a tutoring session?", Answer),
        (Tutoring, "how do I book a tutoring session?", OfferForm),
    ];
    let wrong: Vec<String> = table
        .iter()
        .filter(|(wf, text, want)| decide(*wf, text) != *want)
        .map(|(wf, text, want)| format!("{wf:?} {text:?}: expected {want:?}, got {:?}", decide(*wf, text)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_heuristic_is_labelled_and_sits_behind_the_seam() {
    let decider: &dyn Decide = &Heuristic;
    assert_eq!(decider.label(), "heuristic");
    assert_eq!(decider.decide(Booking, "reserve a room"), Decision::OfferForm);
    assert_eq!(serde_json::to_value(Decision::OfferForm).expect("serializes"), "offer_form");
}
