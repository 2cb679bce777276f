//! The table: each row a question, the conversation it is asked in, the registry's state
//! and the router, and what the Hub must do with it.

use super::*;

pub(super) fn rows() -> Vec<Row> {
    use Mode::{Direct, Mock};
    use ReplyOutcome::{Clarify, Courtesy, Unavailable, Unsupported};
    use Want::{Forward, Say};
    let tie = || clarifying("the price of a limit", BOTH, true);
    let vague = || clarifying("hi", BOTH, false);
    let long = "x ".repeat(1_995);
    vec![
        // a new conversation, everything ready
        row(
            "What's the derivative of x^2?",
            fresh(),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "library opening hours on Monday",
            fresh(),
            all_ready,
            Mock,
            Forward("library", "opening-hours", None),
        ),
        row("how much does it cost to print", fresh(), all_ready, Mock, Forward("library", "printing", None)),
        row(
            "can I book a study room",
            fresh(),
            all_ready,
            Mock,
            Forward("library", "study-room-booking", None),
        ),
        row("I want a tutor session", fresh(), all_ready, Mock, Forward("tutor", "session-request", None)),
        row(
            "fix my kitchen sink please",
            fresh(),
            all_ready,
            Mock,
            Say(
                Unsupported,
                "That isn't something this university's services handle. I can help with: Tutoring, Library.",
                true,
                None,
            ),
        ),
        row(
            "hmm",
            fresh(),
            all_ready,
            Mock,
            Say(
                Clarify,
                "Could you say a little more about what you need? I can help with Tutoring and Library.",
                true,
                Some(BOTH),
            ),
        ),
        // small talk is answered, never a clarifying question; the thread is kept
        row(
            "hi",
            fresh(),
            all_ready,
            Mock,
            Say(
                Courtesy,
                "Hello! I can help with Tutoring and Library. What would you like to ask?",
                true,
                None,
            ),
        ),
        row(
            "thanks!",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Say(Courtesy, "You're welcome", true, None),
        ),
        row("Thank you so much, bye", fresh(), all_ready, Mock, Say(Courtesy, "Goodbye", true, None)),
        row("gracias", fresh(), all_ready, Mock, Say(Courtesy, "You're welcome", true, None)),
        // thanks with what they are for, even with a word that refers back ("that")
        row(
            "thanks, that helped",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Say(Courtesy, "You're welcome", true, None),
        ),
        row("danke für die Hilfe", fresh(), all_ready, Mock, Say(Courtesy, "You're welcome", true, None)),
        row("merci pour ton aide", fresh(), all_ready, Mock, Say(Courtesy, "You're welcome", true, None)),
        // small talk that names a service asks it nothing, whatever the router proposed
        row(
            "thanks tutor",
            after_route("tutor", "calculus-help"),
            all_ready,
            model("route", "tutor", "calculus-help", ""),
            Say(Courtesy, "You're welcome", true, None),
        ),
        row("bye tutor", fresh(), all_ready, Direct, Say(Courtesy, "Goodbye", true, None)),
        // thanks that also ask something are a question
        row(
            "thanks, and what is a derivative?",
            after_route("library", "opening-hours"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        // small talk while a clarifying question is open is not an answer to it
        row("thanks", vague(), all_ready, Mock, Say(Courtesy, "You're welcome", true, None)),
        // a bare follow-up goes where the conversation's last question went
        row(
            "another example please",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "why?",
            after_route("library", "opening-hours"),
            all_ready,
            Mock,
            Forward("library", "opening-hours", None),
        ),
        row(
            "otro ejemplo por favor",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        // with no conversation to follow, it is not offered, and what is offered is named
        row(
            "another example please",
            fresh(),
            all_ready,
            Mock,
            Say(Unsupported, "I can help with: Tutoring, Library.", true, None),
        ),
        row(
            "the price of a limit",
            fresh(),
            all_ready,
            Mock,
            Say(Clarify, "Do you mean Tutoring or Library?", true, Some(BOTH)),
        ),
        // specialists that are not ready: said, nothing sent, the answer does not stand
        row(
            "derivative of x^2",
            fresh(),
            tutor(Status::Disabled),
            Mock,
            Say(Unavailable, "The Tutoring service is unavailable right now (disabled)", false, None),
        ),
        row(
            "derivative of x^2",
            fresh(),
            tutor(Status::Stale),
            Mock,
            Say(Unavailable, "(it stopped checking in)", false, None),
        ),
        row(
            "derivative of x^2",
            fresh(),
            tutor(Status::Disconnected),
            Mock,
            Say(Unavailable, "(not connected)", false, None),
        ),
        row(
            "derivative of x^2",
            fresh(),
            tutor(Status::InvalidCard),
            Mock,
            Say(Unavailable, "(its agent card could not be verified)", false, None),
        ),
        row(
            "library opening hours",
            fresh(),
            |v| v[1].status = Status::Unreachable,
            Mock,
            Say(
                Unavailable,
                "The Library service is unavailable right now (unreachable). Your question was not sent anywhere else",
                false,
                None,
            ),
        ),
        row(
            "the price of a limit",
            fresh(),
            tutor(Status::Disabled),
            Mock,
            Say(
                Clarify,
                "Could you say a little more about what you need? I can help with Library.",
                true,
                Some(LIBRARY),
            ),
        ),
        row(
            "hmm",
            fresh(),
            |v| v.iter_mut().for_each(|s| s.status = Status::Stale),
            Mock,
            Say(Clarify, "No service is available right now", true, None),
        ),
        row(
            "hello",
            fresh(),
            |v| v.iter_mut().for_each(|s| s.status = Status::Stale),
            Mock,
            Say(Courtesy, "Hello! No service is available right now", true, None),
        ),
        row(
            "fix my kitchen sink please",
            fresh(),
            tutor(Status::Stale),
            Mock,
            Say(
                Unsupported,
                "None of the services available right now handles that. I can help with: Library.",
                true,
                None,
            ),
        ),
        row(
            "library opening hours",
            fresh(),
            |v| v[1].skills = skills(vec![]),
            Mock,
            Say(
                Unsupported,
                "None of the services available right now handles that. I can help with: Tutoring.",
                true,
                None,
            ),
        ),
        // follow-ups go where the conversation's last question went
        row(
            "what about at x=2?",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "and on sunday?",
            after_route("library", "opening-hours"),
            all_ready,
            Mock,
            Forward("library", "opening-hours", None),
        ),
        row(
            "is that right?",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "do it again",
            after_route("library", "printing"),
            all_ready,
            Mock,
            Forward("library", "printing", None),
        ),
        // a new expression, a new point, another one, not understood: where the last
        // question went, in each language
        row(
            "and x^4?",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "x=4?",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "otro más",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "I don't get it",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row(
            "ich verstehe das nicht",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        row("x=4?", fresh(), all_ready, Mock, Say(Unsupported, "That isn't something", true, None)),
        row(
            "what about at x=2?",
            fresh(),
            all_ready,
            Mock,
            Say(Unsupported, "That isn't something", true, None),
        ),
        row(
            "hmm",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Say(Clarify, "Could you say a little more", true, Some(BOTH)),
        ),
        row(
            "library opening hours",
            after_route("tutor", "calculus-help"),
            all_ready,
            Mock,
            Forward("library", "opening-hours", None),
        ),
        row(
            "and at x=3?",
            after_route("tutor", "calculus-help"),
            tutor(Status::Disabled),
            Mock,
            Say(Unavailable, "(disabled)", false, None),
        ),
        // answers to a clarifying question
        row(
            "tutoring",
            tie(),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", Some("the price of a limit")),
        ),
        row(
            "the library",
            tie(),
            all_ready,
            Mock,
            Forward("library", "printing", Some("the price of a limit")),
        ),
        row(
            "I mean TUTORING",
            tie(),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", Some("the price of a limit")),
        ),
        row(
            "the library",
            tie(),
            |v| v[1].status = Status::Disabled,
            Mock,
            Say(Unavailable, "The Library service is unavailable right now (disabled)", false, None),
        ),
        row("when is the library open", vague(), all_ready, Mock, Forward("library", "opening-hours", None)),
        row("derivatives please", vague(), all_ready, Mock, Forward("tutor", "calculus-help", None)),
        // naming the service answers: the original question goes there
        row("tutoring", vague(), all_ready, Mock, Forward("tutor", "calculus-help", Some("hi"))),
        row("the library", vague(), all_ready, Mock, Forward("library", "opening-hours", Some("hi"))),
        row(
            "the one about printing",
            clarifying("the price of a limit", BOTH, true),
            all_ready,
            Mock,
            Forward("library", "printing", Some("the price of a limit\nthe one about printing")),
        ),
        row(
            "derivative of x^2 please",
            clarifying(&long, BOTH, true),
            all_ready,
            Mock,
            Forward("tutor", "calculus-help", None),
        ),
        // the answer to a specialist's "continue or replace" goes back to it
        row(
            "continue",
            awaiting("tutor", "session-request"),
            all_ready,
            Mock,
            Forward("tutor", "session-request", None),
        ),
        row(
            "Replace it.",
            awaiting("library", "study-room-booking"),
            all_ready,
            Mock,
            Forward("library", "study-room-booking", None),
        ),
        row(
            "start over please",
            awaiting("library", "study-room-booking"),
            all_ready,
            Mock,
            Forward("library", "study-room-booking", None),
        ),
        row(
            "library opening hours",
            awaiting("tutor", "session-request"),
            all_ready,
            Mock,
            Forward("library", "opening-hours", None),
        ),
        row(
            "continue",
            awaiting("tutor", "session-request"),
            tutor(Status::Stale),
            Mock,
            Say(Unavailable, "(it stopped checking in)", false, None),
        ),
        // the live router: code accepts only a registered, enabled choice
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("route", "plumber", "pipes", ""),
            Say(Unsupported, "That isn't something", true, None),
        ),
        row(
            "when can I come in?",
            fresh(),
            |v| v[1].skills = skills(vec![skill("opening-hours", &["hours"])]),
            model("route", "library", "printing", ""),
            Say(Unsupported, "That isn't something", true, None),
        ),
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("route", "tutor", "opening-hours", ""),
            Say(Unsupported, "That isn't something", true, None),
        ),
        row(
            "when can I come in?",
            fresh(),
            tutor(Status::Disabled),
            model("route", "tutor", "calculus-help", ""),
            Say(Unavailable, "(disabled)", false, None),
        ),
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("route", "library", "opening-hours", ""),
            Forward("library", "opening-hours", None),
        ),
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("clarify", "", "", "Which course is it for?"),
            Say(Clarify, "Which course is it for?", true, Some(BOTH)),
        ),
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("unsupported", "", "", ""),
            Say(Unsupported, "That isn't something", true, None),
        ),
        row(
            "when can I come in?",
            fresh(),
            all_ready,
            model("route", "", "", ""),
            Say(Unsupported, "That isn't something", true, None),
        ),
        // direct: everything to the Tutor
        row("library hours", fresh(), all_ready, Direct, Forward("tutor", "calculus-help", None)),
        row(
            "library hours",
            fresh(),
            tutor(Status::Stale),
            Direct,
            Say(Unavailable, "(it stopped checking in)", false, None),
        ),
    ]
}
