//! What a router proposes ([`Decision`]) and what code decided after checking it against
//! the registry ([`Outcome`]). Only a validated route dispatches. No fan-out, no
//! fallback: a chosen specialist that is not ready is reported unavailable, never
//! replaced.

use serde::Serialize;

use crate::view::{SpecialistView, Status};

/// What a router proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Route {
        specialist: String,
        skill: String,
        reason: String,
    },
    /// Ask the student: which of `options` (specialist ids) they mean, or, when empty,
    /// what they need at all. The Hub words the question (see `clarify`) unless the live
    /// router wrote one (`question`, at most `route::live::MAX_CLARIFY_CHARS`).
    Clarify {
        options: Vec<String>,
        question: Option<String>,
    },
    Unsupported {
        reason: String,
    },
    /// Small talk the Hub answers itself (decided by the Hub's conversation rules, never
    /// a router).
    Courtesy(vocab::events::Courtesy),
}

impl Decision {
    /// Whether the router placed the question nowhere: out of scope, or too vague to
    /// offer any service.
    pub fn placed_nowhere(&self) -> bool {
        match self {
            Decision::Unsupported { .. } => true,
            Decision::Clarify { options, .. } => options.is_empty(),
            Decision::Route { .. } | Decision::Courtesy(_) => false,
        }
    }
}

/// What code decided after checking the proposal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Route {
        specialist: String,
        skill: String,
        reason: String,
    },
    /// Offer `options` (routable specialist ids; empty when nothing is routable). `tie`:
    /// the router hesitated between these, rather than finding the question too vague.
    Clarify {
        options: Vec<String>,
        tie: bool,
        /// The live router's wording (model text: never in telemetry).
        #[serde(skip)]
        question: Option<String>,
    },
    Unsupported {
        reason: String,
    },
    /// Supported, but the specialist for it is not ready.
    Unavailable {
        specialist: String,
        status: Status,
    },
    Courtesy {
        courtesy: vocab::events::Courtesy,
    },
}

impl Outcome {
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Route { .. } => "route",
            Outcome::Clarify { .. } => "clarify",
            Outcome::Unsupported { .. } => "unsupported",
            Outcome::Unavailable { .. } => "unavailable",
            Outcome::Courtesy { .. } => "courtesy",
        }
    }

    /// The reply's `outcome` for a decision the Hub answers itself, or a route's.
    pub fn reply_outcome(&self) -> vocab::ReplyOutcome {
        match self {
            Outcome::Route { .. } => vocab::ReplyOutcome::Route,
            Outcome::Clarify { .. } => vocab::ReplyOutcome::Clarify,
            Outcome::Unsupported { .. } => vocab::ReplyOutcome::Unsupported,
            Outcome::Unavailable { .. } => vocab::ReplyOutcome::Unavailable,
            Outcome::Courtesy { .. } => vocab::ReplyOutcome::Courtesy,
        }
    }
}

/// What is routable now, as capability ids ("none" when nothing is), for a reason.
pub(crate) fn capability_list(view: &[SpecialistView]) -> String {
    let caps: Vec<&str> = view.iter().filter(|s| s.routable()).map(|s| s.capability.as_str()).collect();
    if caps.is_empty() { "none".into() } else { caps.join(" and ") }
}

/// Checks a proposal against the registry view: only a registered specialist with that
/// skill on its current card is routed, and only when it is ready. Anything else fails
/// closed as unsupported; nothing is redirected. A clarifying question offers only
/// what is routable right now.
pub fn validate(decision: Decision, view: &[SpecialistView]) -> Outcome {
    match decision {
        Decision::Clarify { options, question } => {
            let routable = |id: &String| view.iter().any(|s| &s.id == id && s.routable());
            let tie = !options.is_empty();
            let options: Vec<String> = if tie {
                options.into_iter().filter(routable).collect()
            } else {
                view.iter().filter(|s| s.routable()).map(|s| s.id.clone()).collect()
            };
            Outcome::Clarify { tie: tie && options.len() > 1, options, question }
        }
        Decision::Unsupported { reason } => Outcome::Unsupported { reason },
        Decision::Courtesy(courtesy) => Outcome::Courtesy { courtesy },
        Decision::Route { specialist, skill, reason } => {
            let Some(s) = view.iter().find(|s| s.id == specialist) else {
                return Outcome::Unsupported {
                    reason: "the router chose a service that is not registered".into(),
                };
            };
            if s.status == Status::Disabled {
                return Outcome::Unavailable { specialist, status: Status::Disabled };
            }
            if !s.skills.is_empty() && !s.skills.iter().any(|k| k.id == skill) {
                return Outcome::Unsupported {
                    reason: "the router chose a skill the service does not offer".into(),
                };
            }
            if s.skills.is_empty() && s.status == Status::Ready {
                return Outcome::Unsupported { reason: "the service has no enabled skills".into() };
            }
            if s.status != Status::Ready {
                return Outcome::Unavailable { specialist, status: s.status };
            }
            Outcome::Route { specialist, skill, reason }
        }
    }
}

/// A proposal with the classifier's probability for what it acted on (`None` from the
/// mock and direct routers, and for the classifier's rule-based clarifying questions).
pub struct Scored {
    pub decision: Decision,
    pub confidence: Option<f32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RouterMode;
    use crate::route::{Router, RouterParts};
    use crate::testing::{config, skills, view};

    #[test]
    fn validation_fails_closed_and_never_redirects() {
        let mut v = view();
        let forged =
            Decision::Route { specialist: "plumber".into(), skill: "pipes".into(), reason: String::new() };
        assert!(matches!(validate(forged, &v), Outcome::Unsupported { .. }));
        let wrong_skill =
            Decision::Route { specialist: "tutor".into(), skill: "printing".into(), reason: String::new() };
        assert!(matches!(validate(wrong_skill, &v), Outcome::Unsupported { .. }));
        v[1].status = Status::Stale;
        let d = Router::new(RouterParts::of(RouterMode::Mock, &config())).decide("library opening hours", &v);
        assert_eq!(
            validate(d, &v),
            Outcome::Unavailable { specialist: "library".into(), status: Status::Stale }
        );
    }

    #[test]
    fn clarifying_questions_offer_only_what_is_routable_now() {
        let mut v = view();
        let tie = || Decision::Clarify { options: vec!["tutor".into(), "library".into()], question: None };
        assert_eq!(
            validate(tie(), &v),
            Outcome::Clarify { options: vec!["tutor".into(), "library".into()], tie: true, question: None }
        );
        v[0].status = Status::Disabled;
        assert_eq!(
            validate(tie(), &v),
            Outcome::Clarify { options: vec!["library".into()], tie: false, question: None }
        );
        let vague = Decision::Clarify { options: vec![], question: None };
        assert_eq!(
            validate(vague.clone(), &v),
            Outcome::Clarify { options: vec!["library".into()], tie: false, question: None }
        );
        v[1].skills = skills(vec![]);
        assert_eq!(validate(vague, &v), Outcome::Clarify { options: vec![], tie: false, question: None });
        assert!(!v[1].routable(), "ready without enabled skills is not routable");
    }
}
