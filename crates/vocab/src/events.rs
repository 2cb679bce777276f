//! The kinds of event the Hub reports on its telemetry feed (`/telemetry/events`), and
//! the fields of the ones the UI server reads. Payloads carry ids, codes and counts,
//! never a question's text or a key.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

macro_rules! kinds {
    ($(#[$edoc:meta])* $enum:ident { $($(#[$doc:meta])* $variant:ident = $name:literal,)* }) => {
        $(#[$edoc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $enum {
            $($(#[$doc])* $variant,)*
        }

        impl $enum {
            pub const ALL: &[$enum] = &[$($enum::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }

            pub fn parse(s: &str) -> Option<$enum> {
                match s {
                    $($name => Some($enum::$variant),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use kinds;

pub mod specialist;
pub mod student;

kinds! {
    /// What happened at the Hub, as the event's `kind` names it.
    HubEventKind {
        /// A Student's question arrived ([`Received`]).
        MessageReceived = "message_received",
        /// A repeated request id, answered from the ledger ([`Ids`]).
        DuplicateRequest = "duplicate_request",
        /// The validated decision (`requestId`, `contextId`, `decision` with its `kind`).
        Routed = "routed",
        /// A question forwarded to a specialist ([`Forwarded`]).
        Forwarded = "forwarded",
        /// The specialist answered the forward ([`Operation`]).
        SpecialistReplied = "specialist_replied",
        /// The forward failed ([`Operation`] with its reason and code).
        ForwardFailed = "forward_failed",
        /// The Hub's answer went back to the Student ([`Published`]).
        ReplyPublished = "reply_published",
        /// The classifier was trained (targets, skills, temperature, micros).
        RouterTrained = "router_trained",
        /// A form a specialist opened, recorded as the Hub's reference ([`FormEvent`]).
        FormRelayed = "form_relayed",
        /// A Student's press on a form arrived ([`FormEvent`] with its `operationId`).
        FormActionReceived = "form_action_received",
        /// Refused, by the Hub (no `specialist`) or by the specialist (its `code`).
        FormActionRefused = "form_action_refused",
        /// A repeated press answered from the Hub's record.
        FormActionReplayed = "form_action_replayed",
        /// Forwarded to the specialist that opened the form (`hubOperationId`).
        FormActionForwarded = "form_action_forwarded",
        /// Forwarded, no confirmation in time.
        FormActionUnknown = "form_action_unknown",
        /// The specialist's answer, recorded (`state`, `version`).
        FormActionResult = "form_action_result",
        /// The Hub's reply to the press went back to the Student (`code` when it is a refusal).
        FormActionReplied = "form_action_replied",
        /// A specialist registered (specialist, instanceId, enabled, mode).
        Registered = "registered",
        /// A heartbeat (transient: not kept in the history).
        Heartbeat = "heartbeat",
        SignedOut = "signed_out",
        CardChangeNotice = "card_change_notice",
        /// A card fetch and what came of it (specialist, outcome, revision, etag).
        CardFetched = "card_fetched",
    }
}

/// `message_received`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Received<'a> {
    pub message_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
    pub request_id: Cow<'a, str>,
    pub text_chars: usize,
}

/// `routed`: the validated decision, as the Hub serializes its outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Routed<'a> {
    pub request_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
    pub decision: RoutedDecision,
}

/// What the Hub decided after checking the router's proposal against its registry
/// (`decision.kind`). Never the live router's wording: a clarifying question's text is
/// not on the feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoutedDecision {
    /// Sent to `specialist` for `skill`.
    Route { specialist: String, skill: String, reason: String },
    /// The Hub asks which of `options` (specialist ids) the student means; `tie`: the
    /// router hesitated between them.
    Clarify { options: Vec<String>, tie: bool },
    /// No service here handles it.
    Unsupported { reason: String },
    /// Supported, but `specialist` is not ready (`status`).
    Unavailable { specialist: String, status: crate::registry::Status },
    /// Small talk (a greeting, thanks, a goodbye): the Hub answers it itself.
    Courtesy { courtesy: Courtesy },
}

/// Which small talk a message was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Courtesy {
    Greeting,
    Thanks,
    Goodbye,
}

impl RoutedDecision {
    /// The `kind` on the wire, the same word as the reply's outcome.
    pub fn kind(&self) -> &'static str {
        self.outcome().as_str()
    }

    /// The reply's outcome for this decision.
    pub fn outcome(&self) -> crate::ReplyOutcome {
        match self {
            RoutedDecision::Route { .. } => crate::ReplyOutcome::Route,
            RoutedDecision::Clarify { .. } => crate::ReplyOutcome::Clarify,
            RoutedDecision::Unsupported { .. } => crate::ReplyOutcome::Unsupported,
            RoutedDecision::Unavailable { .. } => crate::ReplyOutcome::Unavailable,
            RoutedDecision::Courtesy { .. } => crate::ReplyOutcome::Courtesy,
        }
    }

    /// The specialist a route went to.
    pub fn routed_to(&self) -> Option<&str> {
        match self {
            RoutedDecision::Route { specialist, .. } => Some(specialist),
            _ => None,
        }
    }
}

/// `duplicate_request`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ids<'a> {
    pub request_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
}

/// `forwarded`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Forwarded<'a> {
    pub request_id: Cow<'a, str>,
    pub specialist: Cow<'a, str>,
    pub operation_id: Cow<'a, str>,
    pub message_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
    pub skill: Cow<'a, str>,
}

/// `specialist_replied` and `forward_failed` (with a reason, and an error's code).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Operation<'a> {
    pub request_id: Cow<'a, str>,
    pub specialist: Cow<'a, str>,
    pub operation_id: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
}

/// Why a forward brought no answer: `forward_failed`'s `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForwardFailure {
    /// The specialist could not be reached: nothing was sent.
    Unreachable,
    /// It answered with an error (the event's `code`).
    Error,
    /// The question went out and no proper answer came back in time.
    OutcomeUnknown,
}

impl ForwardFailure {
    pub const ALL: [ForwardFailure; 3] =
        [ForwardFailure::Unreachable, ForwardFailure::Error, ForwardFailure::OutcomeUnknown];

    pub fn as_str(self) -> &'static str {
        match self {
            ForwardFailure::Unreachable => "unreachable",
            ForwardFailure::Error => "error",
            ForwardFailure::OutcomeUnknown => "outcome_unknown",
        }
    }

    pub fn parse(s: &str) -> Option<ForwardFailure> {
        ForwardFailure::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// `reply_published`: who served it and what came of it, as the reply says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Published<'a> {
    pub message_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
    pub request_id: Cow<'a, str>,
    pub served_by: Option<Cow<'a, str>>,
    pub outcome: Option<crate::ReplyOutcome>,
}

/// The events that name a specialist and little else, as the UI server reads them: the
/// specialist, and for `card_fetched` its [`CardOutcome`]. `heartbeat` and `signed_out`
/// carry just this; `registered`, `card_change_notice` and `card_fetched` are written as
/// [`Registered`], [`CardNotice`] and [`CardFetched`], which read back as this too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject<'a> {
    pub specialist: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Cow<'a, str>>,
}

impl<'a> Subject<'a> {
    /// `heartbeat`, `signed_out`: the specialist alone.
    pub fn of(specialist: &'a str) -> Self {
        Subject { specialist: specialist.into(), outcome: None }
    }
}

/// `registered`: which instance registered, enabled or not, in which mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered<'a> {
    pub specialist: Cow<'a, str>,
    pub instance_id: Cow<'a, str>,
    pub enabled: bool,
    pub mode: Option<Cow<'a, str>>,
}

/// `card_change_notice`: a specialist said its card changed (a hint to fetch it again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardNotice<'a> {
    pub specialist: Cow<'a, str>,
    pub notice_id: Cow<'a, str>,
}

/// `card_fetched`: one fetch of a specialist's card, what came of it, and the card the
/// Hub now uses (its skill-scope revision and HTTP entity tag, when it has them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardFetched<'a> {
    pub specialist: Cow<'a, str>,
    pub outcome: CardOutcome,
    pub revision: Option<u64>,
    pub etag: Option<Cow<'a, str>>,
}

/// What one card fetch came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardOutcome {
    /// The card had not changed (`304`).
    NotModified,
    /// A new card, valid, now in use.
    Updated,
    /// A card that failed validation; the last good one is kept.
    Invalid,
    /// The fetch itself failed; the last good one is kept.
    Failed,
}

/// A form event (no values, no text).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormEvent<'a> {
    pub context_id: Cow<'a, str>,
    pub form_ref: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub_operation_id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specialist: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<crate::FormState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<Cow<'a, str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_events_read_back_as_the_subject_the_ui_reads() {
        let fetched = CardFetched {
            specialist: "tutor".into(),
            outcome: CardOutcome::NotModified,
            revision: Some(3),
            etag: None,
        };
        let v = serde_json::to_value(&fetched).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"specialist": "tutor", "outcome": "not_modified", "revision": 3, "etag": null})
        );
        let s: Subject = serde_json::from_value(v).unwrap();
        assert_eq!((s.specialist.as_ref(), s.outcome.as_deref()), ("tutor", Some("not_modified")));
        let registered = Registered {
            specialist: "library".into(),
            instance_id: "i-1".into(),
            enabled: false,
            mode: None,
        };
        assert_eq!(
            serde_json::to_value(&registered).unwrap(),
            serde_json::json!({"specialist": "library", "instanceId": "i-1", "enabled": false, "mode": null})
        );
        let notice = CardNotice { specialist: "tutor".into(), notice_id: "n-1".into() };
        let s: Subject = serde_json::from_value(serde_json::to_value(&notice).unwrap()).unwrap();
        assert_eq!((s.specialist.as_ref(), s.outcome), ("tutor", None));
        assert_eq!(
            serde_json::to_value(Subject::of("tutor")).unwrap(),
            serde_json::json!({"specialist": "tutor"})
        );
    }

    #[test]
    fn forward_failures_are_their_wire_names() {
        for f in ForwardFailure::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), serde_json::json!(f.as_str()));
            assert_eq!(ForwardFailure::parse(f.as_str()), Some(f));
        }
        assert_eq!(ForwardFailure::OutcomeUnknown.as_str(), crate::ReplyOutcome::OutcomeUnknown.as_str());
    }

    #[test]
    fn every_kind_reads_back_from_its_name() {
        for k in HubEventKind::ALL {
            assert_eq!(HubEventKind::parse(k.as_str()), Some(*k));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
        }
        assert_eq!(HubEventKind::parse("routed_elsewhere"), None);
    }

    #[test]
    fn a_routed_decision_reads_by_its_kind() {
        let routed: Routed = serde_json::from_value(serde_json::json!({
            "requestId": "r", "contextId": "c",
            "decision": {"kind": "route", "specialist": "tutor", "skill": "explain", "reason": "math"},
        }))
        .unwrap();
        assert_eq!((routed.decision.kind(), routed.decision.routed_to()), ("route", Some("tutor")));
        let away: RoutedDecision = serde_json::from_value(
            serde_json::json!({"kind": "unavailable", "specialist": "library", "status": "stale"}),
        )
        .unwrap();
        assert_eq!(
            away,
            RoutedDecision::Unavailable {
                specialist: "library".into(),
                status: crate::registry::Status::Stale
            }
        );
        assert_eq!(away.routed_to(), None);
        let clarify = RoutedDecision::Clarify { options: vec!["tutor".into()], tie: false };
        let v = serde_json::to_value(&clarify).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "clarify", "options": ["tutor"], "tie": false}));
        assert!(serde_json::from_value::<RoutedDecision>(serde_json::json!({"kind": "maybe"})).is_err());
    }

    #[test]
    fn a_subject_is_read_from_the_specialists_events() {
        let s: Subject =
            serde_json::from_str(r#"{"specialist":"tutor","outcome":"invalid","revision":3,"etag":null}"#)
                .unwrap();
        assert_eq!((s.specialist.as_ref(), s.outcome.as_deref()), ("tutor", Some("invalid")));
        let s: Subject = serde_json::from_str(r#"{"specialist":"tutor","noticeId":"n"}"#).unwrap();
        assert_eq!(s.outcome, None);
    }

    #[test]
    fn payloads_are_camel_case_and_leave_out_what_they_lack() {
        let op = Operation {
            request_id: "r".into(),
            specialist: "tutor".into(),
            operation_id: "o".into(),
            reason: None,
            code: None,
        };
        let v = serde_json::to_value(&op).unwrap();
        assert_eq!(v, serde_json::json!({"requestId": "r", "specialist": "tutor", "operationId": "o"}));
        let back: Operation = serde_json::from_value(v).unwrap();
        assert_eq!(back, op);
    }
}
