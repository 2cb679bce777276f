//! Plan: what the Hub does with a validated decision — forward it, or answer in its own
//! words (which service the student means, what is offered, what is unavailable). Pure.
//! The Hub's own wording of a forward that failed lives here too.

use crate::clarify::{self, Pending};
use crate::config::Config;
use crate::decision::Outcome;
use crate::memory::Target;
use crate::view::{SpecialistView, Status};
use vocab::ReplyOutcome;

/// What the Hub does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plan {
    /// Forward the question to this specialist and skill.
    Forward(Target),
    /// Answer in the Hub's own words.
    Say(Said),
}

/// An answer in the Hub's own words.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Said {
    pub(crate) outcome: ReplyOutcome,
    pub(crate) text: String,
    /// Whether the answer stands (false: nothing was sent anywhere; a retry decides again).
    pub(crate) settled: bool,
    /// The clarifying question the Hub now waits on.
    pub(crate) clarifying: Option<Pending>,
}

impl Said {
    fn new(outcome: ReplyOutcome, text: String, settled: bool) -> Said {
        Said { outcome, text, settled, clarifying: None }
    }
}

/// The plan for `outcome`, the decision on `question`, over `view`.
pub(crate) fn plan(outcome: &Outcome, question: &str, view: &[SpecialistView], config: &Config) -> Plan {
    let names =
        |ids: &mut dyn Iterator<Item = &String>| ids.map(|id| config.display_name(id)).collect::<Vec<_>>();
    let said = match outcome {
        Outcome::Route { specialist, skill, .. } => {
            return Plan::Forward(Target { specialist: specialist.clone(), skill: skill.clone() });
        }
        Outcome::Clarify { options, tie, question: worded } => {
            let text = worded.clone().unwrap_or_else(|| clarify::question(&names(&mut options.iter()), *tie));
            let clarifying = (!options.is_empty()).then(|| Pending {
                question: question.to_string(),
                options: options.clone(),
                tie: *tie,
            });
            Said { clarifying, ..Said::new(ReplyOutcome::Clarify, text, true) }
        }
        Outcome::Unsupported { .. } => {
            let routable = names(&mut view.iter().filter(|s| s.routable()).map(|s| &s.id));
            let all_up = view.iter().all(|s| s.routable());
            Said::new(ReplyOutcome::Unsupported, clarify::unsupported(&routable, all_up), true)
        }
        Outcome::Courtesy { courtesy } => {
            let routable = names(&mut view.iter().filter(|s| s.routable()).map(|s| &s.id));
            Said::new(ReplyOutcome::Courtesy, crate::courtesy::reply(*courtesy, &routable), true)
        }
        Outcome::Unavailable { specialist, status } => {
            let text = format!(
                "The {} service is unavailable right now ({}). Your question was not sent anywhere else; please try again shortly.",
                config.display_name(specialist),
                status_words(*status)
            );
            Said::new(ReplyOutcome::Unavailable, text, false)
        }
    };
    Plan::Say(said)
}

/// A status as the Hub says it to a student.
pub(crate) fn status_words(status: Status) -> &'static str {
    match status {
        Status::Ready => "ready",
        Status::Stale => "it stopped checking in",
        Status::Unreachable => "unreachable",
        Status::Disconnected => "not connected",
        Status::Disabled => "disabled",
        Status::InvalidCard => "its agent card could not be verified",
    }
}

/// How a forward of a question to the service called `name` failed, in the Hub's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failed {
    /// It was not ready when the forward started: nothing was sent.
    NotReady(Status),
    /// Nothing reached it.
    NotSent,
    /// It answered with JSON-RPC error `code`.
    Error(i32),
    /// No answer in time, or a broken one.
    Unknown,
    /// An answer without any content.
    Empty,
    /// Asked again after an unknown outcome, it had no answer: it never finished.
    NeverFinished,
}

impl Failed {
    /// The reply's outcome, its text, and whether it stands.
    pub(crate) fn said(self, name: &str) -> Said {
        match self {
            Failed::NotReady(status) => Said::new(
                ReplyOutcome::Unavailable,
                format!("The {name} service is unavailable right now ({}).", status_words(status)),
                false,
            ),
            Failed::NotSent => Said::new(
                ReplyOutcome::Unavailable,
                format!(
                    "The {name} service is unavailable right now (unreachable). Your question was not sent anywhere else."
                ),
                false,
            ),
            Failed::Error(code) => Said::new(
                ReplyOutcome::Failed,
                format!("The {name} service could not answer that request (error {code})."),
                true,
            ),
            Failed::Unknown => Said::new(
                ReplyOutcome::OutcomeUnknown,
                format!(
                    "The {name} service did not answer properly in time, so I can't tell whether it handled your request. Check for the answer in a moment: the service is asked what became of it, and nothing is done twice."
                ),
                true,
            ),
            Failed::NeverFinished => Said::new(
                ReplyOutcome::Failed,
                format!(
                    "The {name} service never finished that question (it may have stopped meanwhile), so there is no answer to give. Ask it again: it will be handled as a new question."
                ),
                true,
            ),
            Failed::Empty => Said::new(
                ReplyOutcome::InvalidAnswer,
                format!("The {name} service answered without any content."),
                true,
            ),
        }
    }
}
