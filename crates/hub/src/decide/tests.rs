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

mod rows;
use rows::rows;

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
