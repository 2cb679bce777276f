//! The decide and plan stages on a table: a question, the conversation it is asked in
//! and the registry's state, to what the Hub does — forward to which specialist and skill
//! (and which question), or say what, and whether that answer stands. No process, no
//! network: the mock and direct routers, and the live router answered by a scripted
//! stand-in model.

use std::sync::Arc;

use serde_json::{Value, json};
use vocab::ReplyOutcome;

use super::*;
use crate::clarify::Pending;
use crate::config::RouterMode;
use crate::decision::validate;
use crate::plan::{Plan, plan};
use crate::route::RouterParts;
use crate::testing::{config, skill, skills};
use crate::view::Status;

/// A Tutor (calculus, tutoring requests) and a Library (hours, printing, study rooms).
fn campus() -> Vec<SpecialistView> {
    let spec = |id: &str, capability: &str, list| SpecialistView {
        id: id.into(),
        name: format!("{id} agent"),
        capability: capability.into(),
        status: Status::Ready,
        skills: skills(list),
    };
    vec![
        spec(
            "tutor",
            "tutoring",
            vec![
                skill("calculus-help", &["calculus", "derivative", "integral", "limit"]),
                skill("session-request", &["tutor session", "book a tutor"]),
            ],
        ),
        spec(
            "library",
            "library",
            vec![
                skill("opening-hours", &["hours", "opening", "open"]),
                skill("printing", &["print", "price"]),
                skill("study-room-booking", &["study room"]),
            ],
        ),
    ]
}

#[derive(Clone)]
enum Mode {
    Mock,
    Direct,
    /// The live router, its model answering with this decision.
    Live(Value),
}

/// The registry's state for a row: a change to [`campus`].
type Registry = Box<dyn Fn(&mut Vec<SpecialistView>)>;

fn all_ready(_: &mut Vec<SpecialistView>) {}
fn tutor(status: Status) -> impl Fn(&mut Vec<SpecialistView>) {
    move |v| v[0].status = status
}

enum Want {
    /// Forwarded to (specialist, skill), with this question (`None`: the one asked).
    Forward(&'static str, &'static str, Option<&'static str>),
    /// Said by the Hub: the outcome, words the text holds, whether it stands, and the
    /// options of the clarifying question it now waits on.
    Say(ReplyOutcome, &'static str, bool, Option<&'static [&'static str]>),
}

struct Row {
    question: String,
    turn: Turn,
    registry: Registry,
    mode: Mode,
    want: Want,
}

fn row(
    question: &str,
    turn: Turn,
    registry: impl Fn(&mut Vec<SpecialistView>) + 'static,
    mode: Mode,
    want: Want,
) -> Row {
    Row { question: question.into(), turn, registry: Box::new(registry), mode, want }
}

fn fresh() -> Turn {
    Turn::default()
}

fn after_route(specialist: &str, skill: &str) -> Turn {
    Turn {
        last_route: Some(Target { specialist: specialist.into(), skill: skill.into() }),
        ..Turn::default()
    }
}

fn clarifying(question: &str, options: &[&str], tie: bool) -> Turn {
    let options = options.iter().map(|o| o.to_string()).collect();
    Turn { clarifying: Some(Pending { question: question.into(), options, tie }), ..Turn::default() }
}

fn awaiting(specialist: &str, skill: &str) -> Turn {
    Turn {
        awaiting_choice: Some(Target { specialist: specialist.into(), skill: skill.into() }),
        ..Turn::default()
    }
}

fn model(decision: &str, agent: &str, skill: &str, question: &str) -> Mode {
    Mode::Live(
        json!({"decision": decision, "agent": agent, "skill": skill, "question": question, "reason": "r"}),
    )
}

const BOTH: &[&str] = &["tutor", "library"];
const LIBRARY: &[&str] = &["library"];

fn rows() -> Vec<Row> {
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

fn router(mode: &Mode) -> Arc<Router> {
    let c = config();
    let router = match mode {
        Mode::Mock => Router::new(RouterParts::of(RouterMode::Mock, &c)),
        Mode::Direct => Router::new(RouterParts::of(RouterMode::Direct, &c)),
        Mode::Live(answer) => {
            let answer = answer.clone();
            Router::new(RouterParts::of(RouterMode::Live, &c))
                .with_llm(Arc::new(llm::Mock::new(move |_, _| llm::MockReply::Json(answer.clone()))))
        }
    };
    Arc::new(router)
}

#[tokio::test]
async fn every_row_decides_and_plans_as_its_table_says() {
    let rows = rows();
    assert!(rows.len() >= 40, "{} rows", rows.len());
    let c = config();
    for (i, r) in rows.iter().enumerate() {
        let mut view = campus();
        (r.registry)(&mut view);
        let proposal = propose(&r.turn, &r.question, &view, &router(&r.mode), &c).await;
        let outcome = validate(proposal.decision.clone(), &view);
        let planned = plan(&outcome, &proposal.question, &view, &c);
        let at = format!(
            "row {i} ({:?}): {proposal:?} -> {planned:?}",
            r.question.chars().take(40).collect::<String>()
        );
        match (&r.want, &planned) {
            (Want::Forward(specialist, skill, question), Plan::Forward(to)) => {
                assert_eq!((to.specialist.as_str(), to.skill.as_str()), (*specialist, *skill), "{at}");
                assert_eq!(
                    proposal.question,
                    question.map(String::from).unwrap_or(r.question.clone()),
                    "{at}"
                );
            }
            (Want::Say(outcome, words, settled, options), Plan::Say(said)) => {
                assert_eq!(said.outcome, *outcome, "{at}");
                assert!(said.text.contains(words), "{at}: {:?} lacks {words:?}", said.text);
                assert_eq!(said.settled, *settled, "{at}");
                let waits: Option<Vec<&str>> =
                    said.clarifying.as_ref().map(|p| p.options.iter().map(String::as_str).collect());
                assert_eq!(waits.as_deref(), *options, "{at}");
                if let Some(p) = &said.clarifying {
                    assert_eq!(p.question, proposal.question, "{at}: the question it waits to place");
                }
            }
            _ => panic!("{at}: not what the table says"),
        }
        let live = matches!(r.mode, Mode::Live(_));
        assert_eq!(
            proposal.calls.len(),
            usize::from(live),
            "{at}: one model call in live mode, none otherwise"
        );
    }
}

#[tokio::test]
async fn a_failed_model_call_leaves_the_classifier_to_decide_and_is_reported() {
    let c = config();
    let view = campus();
    let router = Arc::new(Router::new(RouterParts::of(RouterMode::Live, &c)));
    let p = propose(&fresh(), "when is the library open", &view, &router, &c).await;
    let [call] = p.calls.as_slice() else { panic!("one call: {:?}", p.calls) };
    assert_eq!(
        call.error.as_ref().map(|e| e.code),
        Some(llm::ErrorCode::ConnectionFailed),
        "no client: never sent"
    );
    assert!(
        !matches!(p.decision, Decision::Route { ref specialist, .. } if specialist == "tutor"),
        "{:?}",
        p.decision
    );
}
