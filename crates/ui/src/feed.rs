//! The telemetry the UI server follows, read through Campus's own words: the Hub's events
//! by [`HubEventKind`] and the payloads of `vocab::events`, never by matching strings;
//! a specialist's own events, relayed by the Hub with `relayedFrom`, keep their own kinds
//! (`vocab::events::specialist`); the hosted Student's own are `vocab::events::student`.
//!
//! Only what the hop strip of a question or of a press on a form needs is read here
//! ([`read`]); the monitor reads the same payloads for its labels.

use serde::de::DeserializeOwned;
use vocab::events::specialist::{Relayed, SpecialistEventKind};
use vocab::events::{FormEvent, Forwarded, Operation, Published, Received, Routed, RoutedDecision};
use vocab::{HubEventKind, ReplyOutcome};

/// What one event of the feed says of a question's way.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FeedEvent {
    /// `message_received`: the Hub has the question.
    HubReceived,
    /// `routed`: what the Hub decided.
    Decided(RoutedDecision),
    /// `forwarded` to `specialist`, as the Hub's operation `operation_id`.
    Forwarded { specialist: String, operation_id: String },
    /// `specialist_replied`.
    SpecialistReplied,
    /// `forward_failed`, and why (`unreachable`, `outcome_unknown`, `error`, …).
    ForwardFailed { specialist: String, reason: Option<String> },
    /// `reply_published`: the Hub answered the Student.
    HubReplied { outcome: Option<ReplyOutcome> },
    /// The specialist's own `message_received`, relayed.
    SpecialistReceived,
    /// The specialist's own `reply_published`, relayed.
    SpecialistPublished,
    /// `form_action_received`: the Hub has the press.
    ActionReceived,
    /// `form_action_refused` with its code: by the Hub itself, or (`specialist` named) by
    /// the specialist or because it could not be reached.
    ActionRefused { specialist: Option<String>, code: Option<String> },
    /// `form_action_replayed`: a repeated press, answered from the Hub's record.
    ActionReplayed,
    /// `form_action_forwarded` to `specialist` as the Hub's operation `operation_id`.
    ActionForwarded { specialist: String, operation_id: String },
    /// `form_action_unknown`: forwarded, no confirmation in time.
    ActionUnknown,
    /// `form_action_result`: the specialist's answer, recorded.
    ActionResult,
    /// `form_action_replied`: the Hub's reply went back (`code` for a refusal).
    ActionReplied { code: Option<String> },
}

/// Which question an event is about: the Hub names the request; a specialist's relayed
/// event names only the Hub's operation (the forward).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum About {
    Request(String),
    Operation(String),
    /// A press on a form, by the operation id the page gave it.
    Action(String),
}

/// The event's payload as `T`, when it is one.
pub(crate) fn payload<T: DeserializeOwned>(e: &telemetry::Event) -> Option<T> {
    serde_json::from_str(e.data.json()).ok()
}

/// What an event says of a question's way, and which question: `None` for anything else
/// (or a payload that is not what its kind says).
pub(crate) fn read(e: &telemetry::Event) -> Option<(About, FeedEvent)> {
    if e.relayed_from.is_some() {
        let event = match SpecialistEventKind::parse(&e.kind)? {
            SpecialistEventKind::MessageReceived => FeedEvent::SpecialistReceived,
            SpecialistEventKind::ReplyPublished => FeedEvent::SpecialistPublished,
            _ => return None,
        };
        let relayed: Relayed = payload(e)?;
        return Some((About::Operation(relayed.operation_id.into_owned()), event));
    }
    let request = |id: std::borrow::Cow<'_, str>| About::Request(id.into_owned());
    Some(match HubEventKind::parse(&e.kind)? {
        HubEventKind::MessageReceived => {
            let r: Received = payload(e)?;
            (request(r.request_id), FeedEvent::HubReceived)
        }
        HubEventKind::Routed => {
            let r: Routed = payload(e)?;
            (request(r.request_id), FeedEvent::Decided(r.decision))
        }
        HubEventKind::Forwarded => {
            let f: Forwarded = payload(e)?;
            let event = FeedEvent::Forwarded {
                specialist: f.specialist.into_owned(),
                operation_id: f.operation_id.into_owned(),
            };
            (request(f.request_id), event)
        }
        HubEventKind::SpecialistReplied => {
            let o: Operation = payload(e)?;
            (request(o.request_id), FeedEvent::SpecialistReplied)
        }
        HubEventKind::ForwardFailed => {
            let o: Operation = payload(e)?;
            let event = FeedEvent::ForwardFailed {
                specialist: o.specialist.into_owned(),
                reason: o.reason.map(|r| r.into_owned()),
            };
            (request(o.request_id), event)
        }
        HubEventKind::ReplyPublished => {
            let p: Published = payload(e)?;
            (request(p.request_id), FeedEvent::HubReplied { outcome: p.outcome })
        }
        kind @ (HubEventKind::FormActionReceived
        | HubEventKind::FormActionRefused
        | HubEventKind::FormActionReplayed
        | HubEventKind::FormActionForwarded
        | HubEventKind::FormActionUnknown
        | HubEventKind::FormActionResult
        | HubEventKind::FormActionReplied) => {
            let f: FormEvent = payload(e)?;
            let owned = |c: Option<std::borrow::Cow<'_, str>>| c.map(|c| c.into_owned());
            let event = match kind {
                HubEventKind::FormActionReceived => FeedEvent::ActionReceived,
                HubEventKind::FormActionRefused => {
                    FeedEvent::ActionRefused { specialist: owned(f.specialist), code: owned(f.code) }
                }
                HubEventKind::FormActionReplayed => FeedEvent::ActionReplayed,
                HubEventKind::FormActionForwarded => FeedEvent::ActionForwarded {
                    specialist: owned(f.specialist)?,
                    operation_id: owned(f.hub_operation_id)?,
                },
                HubEventKind::FormActionUnknown => FeedEvent::ActionUnknown,
                HubEventKind::FormActionResult => FeedEvent::ActionResult,
                _ => FeedEvent::ActionReplied { code: owned(f.code) },
            };
            (About::Action(f.operation_id?.into_owned()), event)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn event(kind: &str, data: Value, relayed: Option<&str>) -> telemetry::Event {
        telemetry::Event {
            id: "b:1".into(),
            ts: 10,
            agent: if relayed.is_some() { "tutor".into() } else { "hub".into() },
            kind: kind.into(),
            data: data.into(),
            relayed_from: relayed.map(str::to_owned),
        }
    }

    #[test]
    fn the_hubs_events_are_read_by_kind_and_a_specialists_by_its_own() {
        let forwarded = json!({"requestId": "r", "specialist": "tutor", "operationId": "op",
            "messageId": "m", "contextId": "c", "skill": "explain"});
        assert_eq!(
            read(&event("forwarded", forwarded, None)),
            Some((
                About::Request("r".into()),
                FeedEvent::Forwarded { specialist: "tutor".into(), operation_id: "op".into() }
            ))
        );
        let routed =
            json!({"requestId": "r", "contextId": "c", "decision": {"kind": "unsupported", "reason": "x"}});
        let (_, decided) = read(&event("routed", routed, None)).unwrap();
        assert!(matches!(decided, FeedEvent::Decided(RoutedDecision::Unsupported { .. })));
        let published = json!({"messageId": "m", "contextId": "c", "requestId": "r",
            "servedBy": "hub", "outcome": "clarify"});
        assert_eq!(
            read(&event("reply_published", published.clone(), None)).unwrap().1,
            FeedEvent::HubReplied { outcome: Some(ReplyOutcome::Clarify) }
        );
        // the specialist's own reply_published names the Hub's operation, not a request
        let relayed = json!({"messageId": "m", "contextId": "c", "operationId": "op", "outcome": "ok"});
        assert_eq!(
            read(&event("reply_published", relayed, Some("tutor"))),
            Some((About::Operation("op".into()), FeedEvent::SpecialistPublished))
        );
        // a press's steps name the page's operation id; its forward the Hub's own
        let form = |more: Value| {
            let mut v = json!({"contextId": "c", "formRef": "hf-1", "operationId": "op-1"});
            v.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
            v
        };
        let action = |e| Some((About::Action("op-1".into()), e));
        assert_eq!(
            read(&event("form_action_received", form(json!({})), None)),
            action(FeedEvent::ActionReceived)
        );
        assert_eq!(
            read(&event(
                "form_action_forwarded",
                form(json!({"specialist": "library", "hubOperationId": "h"})),
                None
            )),
            action(FeedEvent::ActionForwarded { specialist: "library".into(), operation_id: "h".into() })
        );
        assert_eq!(
            read(&event("form_action_refused", form(json!({"code": "form_closed"})), None)),
            action(FeedEvent::ActionRefused { specialist: None, code: Some("form_closed".into()) })
        );
        assert_eq!(
            read(&event("form_action_replied", form(json!({"code": "form_closed"})), None)),
            action(FeedEvent::ActionReplied { code: Some("form_closed".into()) })
        );
        // a forward that names no Hub operation, a press with no operation id: nothing
        assert_eq!(read(&event("form_action_forwarded", form(json!({"specialist": "library"})), None)), None);
        assert_eq!(
            read(&event("form_action_result", json!({"contextId": "c", "formRef": "hf-1"}), None)),
            None
        );
        // not a step of a question, or not what its kind says: nothing
        assert_eq!(read(&event("heartbeat", json!({"specialist": "tutor"}), None)), None);
        assert_eq!(read(&event("routed", json!({"requestId": "r"}), None)), None);
        assert_eq!(read(&event("forwarded_elsewhere", json!({}), None)), None);
        assert_eq!(read(&event("registered", json!({"operationId": "op"}), Some("tutor"))), None);
    }
}
