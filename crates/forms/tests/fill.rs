//! Filling a form from the chat over tables of messages, at a fixed instant in the demo
//! time zone.

use forms::Workflow;
use forms::fill::fill_from_chat;
use serde_json::json;

/// Wednesday 2025-11-19, noon Pacific.
fn noon() -> jiff::ZonedDateTime {
    "2025-11-19T12:00:00-08:00[America/Los_Angeles]".parse().unwrap()
}

#[test]
fn chat_filling_over_a_table_of_messages() {
    use Workflow::{Booking, Tutoring};
    let now = noon();
    // (workflow, message, fields filled, fields refused, what still goes to the Hub)
    type Row = (Workflow, &'static str, &'static [&'static str], &'static [&'static str], &'static str);
    let table: &[Row] = &[
        (Booking, "room B", &["room"], &[], ""),
        (Booking, "Room c, 2 hours", &["room", "duration"], &[], ""),
        (Booking, "tomorrow for 4 people", &["date", "groupSize"], &[], ""),
        (
            Booking,
            "make it 1 hour. Is there a printer in the library?",
            &["duration"],
            &[],
            "Is there a printer in the library?",
        ),
        (Booking, "room A for 9 people", &["room"], &["groupSize"], ""),
        (Booking, "for 3 hours", &[], &["duration"], ""),
        (Booking, "what are the opening hours on Sunday?", &[], &[], "what are the opening hours on Sunday?"),
        (Tutoring, "I'm Alex Student, alex@example.com", &["name", "email"], &[], ""),
        (Tutoring, "next Monday mornings", &["date", "period"], &[], ""),
        (Tutoring, "Saturday afternoon", &["period"], &["date"], ""),
        (Tutoring, "what is the chain rule?", &[], &[], "what is the chain rule?"),
        (Booking, "make it Thursday at 3pm for 3 people", &["date", "groupSize"], &[], ""),
        (Booking, "make it 2024-01-15 for 40 people", &[], &["date", "groupSize"], ""),
        // a question after a pause in the same sentence still goes out, and fills nothing
        (
            Booking,
            "book it for tomorrow afternoon — also what is a derivative?",
            &["date"],
            &[],
            "also what is a derivative?",
        ),
        (Booking, "room B for 2 hours; is it quiet?", &["room", "duration"], &[], "is it quiet?"),
        (
            Tutoring,
            "Monday morning, and how long is a session?",
            &["date", "period"],
            &[],
            "and how long is a session?",
        ),
        (
            Booking,
            "tomorrow - which rooms have a whiteboard?",
            &["date"],
            &[],
            "which rooms have a whiteboard?",
        ),
        // a pause without a question after it splits nothing
        (Booking, "tomorrow, room C - for 2 hours?", &["date", "room", "duration"], &[], ""),
    ];
    let mut wrong = Vec::new();
    for (workflow, message, filled, refused, rest) in table {
        let f = fill_from_chat(*workflow, message, &now);
        let got_filled: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
        let got_refused: Vec<&str> = f.not_filled.iter().map(|(k, _)| k.as_str()).collect();
        if got_filled != *filled || got_refused != *refused || f.rest != *rest {
            wrong.push(format!(
                "{message:?}: filled {got_filled:?} refused {got_refused:?} rest {:?}",
                f.rest
            ));
        }
        // a refused value always says why; a message that filled nothing and refused nothing says nothing
        assert_eq!(
            f.note().is_some(),
            !filled.is_empty() || !refused.is_empty(),
            "{message:?}: {:?}",
            f.note()
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn chat_filling_takes_what_the_rules_take_and_passes_the_rest_on() {
    let now = noon();
    let f =
        fill_from_chat(Workflow::Booking, "Tomorrow, room A for 2 hours. What are the library hours?", &now);
    let fields: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(fields, ["date", "room", "duration"], "{f:?}");
    assert_eq!(f.filled[1].1, json!(["A"]));
    assert_eq!(f.rest, "What are the library hours?");
    assert!(
        f.note().unwrap().contains("The form was not sent (the rest of your message was)"),
        "{:?}",
        f.note()
    );
    let f = fill_from_chat(Workflow::Booking, "room A for 9 people", &now);
    assert_eq!(f.filled.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["room"]);
    assert_eq!(f.not_filled[0].0, "groupSize", "room A takes 4: {f:?}");
    assert!(f.note().unwrap().contains("Not filled: group size"), "{:?}", f.note());
    assert!(f.note().unwrap().ends_with("Nothing was sent; check the form and press its button when ready."));
    assert!(f.rest.is_empty());
    let f = fill_from_chat(Workflow::Tutoring, "my email is ada@example.edu. Saturday afternoon", &now);
    let fields: Vec<&str> = f.filled.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(fields, ["email", "period"], "{f:?}");
    assert_eq!(f.not_filled[0].0, "date", "a Saturday is no weekday: {f:?}");
    let f = fill_from_chat(Workflow::Tutoring, "what is a derivative?", &now);
    assert_eq!((f.note(), f.rest.as_str()), (None, "what is a derivative?"));
}

#[test]
fn sentences_and_questions_over_a_table() {
    use forms::fill::{asks_something, sentences, split_question};
    // (text, its sentences)
    let split: &[(&str, &[&str])] = &[
        ("room B. for 2 hours", &["room B.", "for 2 hours"]),
        ("mail ada@example.edu. Saturday", &["mail ada@example.edu.", "Saturday"]),
        ("what? really!  ", &["what?", "really!"]),
        ("", &[]),
    ];
    for (text, want) in split {
        assert_eq!(sentences(text), *want, "{text:?}");
    }
    // (sentence, its pieces): a question after a pause is a piece of its own
    let pieces: &[(&str, &[&str])] = &[
        ("tomorrow - which rooms are free?", &["tomorrow", "which rooms are free?"]),
        ("on 2025-11-20?", &["on 2025-11-20?"]),
        ("tomorrow, room C - for 2 hours?", &["tomorrow, room C - for 2 hours?"]),
        ("what is a limit?", &["what is a limit?"]),
    ];
    for (sentence, want) in pieces {
        assert_eq!(split_question(sentence), *want, "{sentence:?}");
    }
    for (sentence, asks) in [
        ("also, what is a derivative?", true),
        ("is it quiet?", true),
        ("room B?", false),
        ("what a day", false),
    ] {
        assert_eq!(asks_something(sentence), asks, "{sentence:?}");
    }
}
