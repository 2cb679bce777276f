//! Where the Hub's components report events: one sink ([`Emit`]) for the Hub's feed, the
//! kinds named by [`vocab::HubEventKind`] and the payloads by `vocab::events`, plus the
//! two payloads that carry the Hub's own types.

use std::sync::Arc;

use serde::Serialize;
use telemetry::Data;
use vocab::HubEventKind;

use crate::decision::Outcome;

/// Where the Hub's components report events.
#[derive(Clone)]
pub struct Emit(Arc<EmitFn>);

type EmitFn = dyn Fn(HubEventKind, Data) + Send + Sync;

impl Emit {
    pub fn new(f: impl Fn(HubEventKind, Data) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// Events go nowhere (tests).
    pub fn none() -> Self {
        Self::new(|_, _| {})
    }

    /// Reports one event: `data` is a `serde_json::Value`, or [`Data::new`] of anything
    /// `Serialize` (cheaper: no JSON tree is built).
    pub fn send(&self, kind: HubEventKind, data: impl Into<Data>) {
        (self.0)(kind, data.into())
    }

    /// Reports one event whose payload serializes as it is.
    pub fn report(&self, kind: HubEventKind, payload: &impl Serialize) {
        self.send(kind, Data::new(payload))
    }
}

/// `routed`: the validated decision (its `kind`, and for a route the specialist and skill).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Routed<'a> {
    pub(crate) request_id: &'a str,
    pub(crate) context_id: &'a str,
    pub(crate) decision: &'a Outcome,
}

/// `router_trained`: a classifier training, as reported.
#[derive(Serialize)]
pub(crate) struct Trained {
    pub(crate) targets: usize,
    pub(crate) skills: usize,
    pub(crate) temperature: f32,
    pub(crate) micros: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Status;
    use vocab::events::RoutedDecision;

    #[test]
    fn a_routed_event_reads_back_as_the_ui_reads_it() {
        let outcomes = [
            (
                Outcome::Route { specialist: "tutor".into(), skill: "explain".into(), reason: "math".into() },
                RoutedDecision::Route {
                    specialist: "tutor".into(),
                    skill: "explain".into(),
                    reason: "math".into(),
                },
            ),
            (
                Outcome::Clarify {
                    options: vec!["tutor".into(), "library".into()],
                    tie: true,
                    question: Some("model text".into()),
                },
                RoutedDecision::Clarify { options: vec!["tutor".into(), "library".into()], tie: true },
            ),
            (
                Outcome::Unsupported { reason: "out of scope".into() },
                RoutedDecision::Unsupported { reason: "out of scope".into() },
            ),
            (
                Outcome::Unavailable { specialist: "library".into(), status: Status::Stale },
                RoutedDecision::Unavailable { specialist: "library".into(), status: Status::Stale },
            ),
            (
                Outcome::Courtesy { courtesy: vocab::events::Courtesy::Thanks },
                RoutedDecision::Courtesy { courtesy: vocab::events::Courtesy::Thanks },
            ),
        ];
        for (outcome, read) in outcomes {
            let routed = Routed { request_id: "r", context_id: "c", decision: &outcome };
            let json = serde_json::to_string(&routed).unwrap();
            assert!(!json.contains("model text"), "the live router's wording stays off the feed");
            let back: vocab::events::Routed = serde_json::from_str(&json).unwrap();
            assert_eq!((back.request_id.as_ref(), back.context_id.as_ref()), ("r", "c"));
            assert_eq!(back.decision.kind(), outcome.kind());
            assert_eq!(back.decision.outcome(), outcome.reply_outcome());
            assert_eq!(back.decision, read);
        }
    }
}
