//! Decide: the proposal for a question in its conversation. The answer to a
//! specialist's "continue or replace" goes back to the one that asked; the answer to a
//! clarifying question is read with the question it clarifies; a bare follow-up the
//! router places nowhere goes where the conversation's last question went; anything else
//! is the router's. Every proposal is validated afterwards like any other.

use std::sync::Arc;

use crate::clarify::{self, Pending};
use crate::config::Config;
use crate::decision::Decision;
use crate::intake::MAX_QUESTION;
use crate::memory::{Target, Turn};
use crate::route::mock::best_skill;
use crate::route::{ModelCall, Router};
use crate::view::SpecialistView;

/// A proposal and the question it is about.
#[derive(Debug)]
pub(crate) struct Proposal {
    pub(crate) decision: Decision,
    /// The question to forward on a route: the text, or the question a clarifying answer
    /// completes.
    pub(crate) question: String,
    /// The model calls the live router made for it.
    pub(crate) calls: Vec<ModelCall>,
}

/// The proposal for `text` in a conversation that starts from `turn`.
pub(crate) async fn propose(
    turn: &Turn,
    text: &str,
    view: &[SpecialistView],
    router: &Arc<Router>,
    config: &Config,
) -> Proposal {
    let mut calls = Vec::new();
    if let Some(Target { specialist, skill }) =
        turn.awaiting_choice.clone().filter(|_| hublink::OpenFormChoice::read(text).is_some())
    {
        // the answer to a specialist's "continue or replace": back to the one that asked
        let reason = format!("the student answered {specialist}'s question about its open form");
        return Proposal {
            decision: Decision::Route { specialist, skill, reason },
            question: text.into(),
            calls,
        };
    }
    let (decision, question) = match &turn.clarifying {
        None => {
            let decision = router.propose(text, view, &mut calls).await;
            (follow_up(turn.last_route.as_ref(), text, decision), text.to_string())
        }
        Some(pending) => match crate::courtesy::read(text) {
            // small talk answers no clarifying question: "thanks" is not what was asked for
            Some(courtesy) => (Decision::Courtesy(courtesy), text.to_string()),
            None => answer(pending, text, view, router, config, &mut calls).await,
        },
    };
    Proposal { decision, question, calls }
}

/// An answer to the clarifying question `pending`. After "Could you say a little more?"
/// (the first words placed nothing), an answer that places itself ("when is the library
/// open?") is the question; after "Do you mean A or B?", naming one sends the original
/// question there, and anything else is read together with the question it clarifies.
async fn answer(
    pending: &Pending,
    text: &str,
    view: &[SpecialistView],
    router: &Arc<Router>,
    config: &Config,
    calls: &mut Vec<ModelCall>,
) -> (Decision, String) {
    if !pending.tie {
        let alone = router.propose(text, view, calls).await;
        if matches!(alone, Decision::Route { .. }) {
            return (alone, text.to_string());
        }
    }
    if let Some(id) = clarify::named(text, &pending.options, config) {
        let skill = view.iter().find(|s| s.id == id).and_then(|s| best_skill(&pending.question, s));
        let decision = Decision::Route {
            specialist: id.to_string(),
            skill: skill.unwrap_or_default(),
            reason: format!("the student chose {id} when asked which service they meant"),
        };
        return (decision, pending.question.clone());
    }
    let together = format!("{}\n{text}", pending.question);
    if together.chars().count() > MAX_QUESTION {
        return (router.propose(text, view, calls).await, text.to_string());
    }
    (router.propose(&together, view, calls).await, together)
}

/// A message that is only small talk ("thanks!", "hi", "thanks, that helped", and "bye
/// tutor", which names a service but asks it nothing) is the Hub's to answer
/// courteously, whatever the router proposed; a question the router places nowhere
/// that reads as a follow-up ("what about at x=2?", "and from 1 to 2?", "is that
/// right?", "and x^4?", "I don't get it"), or one that only gives a new value (a day,
/// bounds, a point alone: "x=4?") or asks only for more ("one more example") wherever the
/// router placed it, in a conversation whose
/// last question was routed, is proposed to that same specialist (still validated: if it is
/// unavailable now, that is said). Anything else the router placed nowhere ("hi", "can
/// you fix my sink?") stays the Hub's to answer; a placed question or a choice between
/// services is left as decided.
fn follow_up(last: Option<&Target>, text: &str, decision: Decision) -> Decision {
    if let Some(courtesy) = crate::courtesy::read(text) {
        return Decision::Courtesy(courtesy);
    }
    // only a new day or new bounds for the last question, or only more of it ("one more
    // example"): it goes where that one went
    let new_value = last.is_some() && (clarify::only_a_new_value(text) || clarify::only_more(text));
    if !decision.placed_nowhere() && !new_value {
        return decision;
    }
    if !(new_value || clarify::reads_as_follow_up(text)) {
        return decision;
    }
    match last {
        Some(Target { specialist, skill }) => Decision::Route {
            reason: format!("a follow-up: this conversation's last question went to {specialist}"),
            specialist: specialist.clone(),
            skill: skill.clone(),
        },
        None => decision,
    }
}

#[cfg(test)]
mod tests;
