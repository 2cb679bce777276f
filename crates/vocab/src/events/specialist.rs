//! The kinds of event on a specialist's own feed (its `/telemetry/events`, which the Hub
//! relays with the specialist's id in `relayedFrom`), and their payloads. The link to
//! the Hub (`hublink`) reports the last four; the specialist's request path the first two.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

super::kinds! {
    /// What happened at a specialist, as the event's `kind` names it.
    SpecialistEventKind {
        /// A question or form action arrived ([`Received`]).
        MessageReceived = "message_received",
        /// The specialist answered ([`Published`]).
        ReplyPublished = "reply_published",
        /// The Hub accepted its registration ([`LinkRegistered`]).
        Registered = "registered",
        /// The Hub refused its registration ([`RegistrationRefused`]).
        RegistrationRefused = "registration_refused",
        /// A heartbeat the Hub answered (no fields; transient: not kept in the history).
        HeartbeatSent = "heartbeat_sent",
        /// A card-change notice sent to the Hub ([`NoticeSent`]).
        CardChangeNotice = "card_change_notice",
    }
}

/// `message_received`. `text` is the message's text: a specialist's feed redacts it before
/// it is kept (unless `HUB_TELEMETRY_SHOW_CONTENT=1`), and the Hub again before it relays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Received<'a> {
    pub message_id: Cow<'a, str>,
    pub context_id: Cow<'a, str>,
    /// The Hub's operation id for this hop (`-` when the asker gave none).
    pub operation_id: Cow<'a, str>,
    /// `hub` (a valid signature of the Hub's pinned key) or `unverified` (anyone).
    #[serde(default = "unverified")]
    pub caller: Cow<'a, str>,
    pub text: Cow<'a, str>,
}

fn unverified() -> Cow<'static, str> {
    Cow::Borrowed("unverified")
}

/// `reply_published`, with what the answering agent adds (`details`, flattened in).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Published<'a, D> {
    pub message_id: &'a str,
    pub context_id: &'a str,
    /// The Hub's operation id for this hop (`-` when the asker gave none): what ties the
    /// reply to the Hub's `forwarded` event.
    pub operation_id: &'a str,
    pub outcome: &'a str,
    pub text: &'a str,
    #[serde(flatten)]
    pub details: &'a D,
}

/// What ties a `message_received` or `reply_published` to the Hub's forward: as a reader
/// of either sees it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relayed<'a> {
    pub operation_id: Cow<'a, str>,
}

/// `registered`: the instance the Hub accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkRegistered<'a> {
    pub instance_id: Cow<'a, str>,
    pub enabled: bool,
}

/// `registration_refused`: the Hub's refusal code (`hublink::ack_codes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistrationRefused<'a> {
    pub code: Cow<'a, str>,
}

/// `card_change_notice`: one attempt at telling the Hub the card changed, and how it went
/// (`delivered`, `rejected: <code>`, `pending`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoticeSent<'a> {
    /// The skill-scope revision the card now has, when it has one.
    pub revision: Option<u64>,
    pub attempt: u32,
    pub outcome: Cow<'a, str>,
}

/// `heartbeat_sent`: no fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeartbeatSent {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_published_reply_reads_back_as_the_operation_it_answers() {
        let details = json!({"skill": "calculus"});
        let p = Published {
            message_id: "m",
            context_id: "c",
            operation_id: "op-1",
            outcome: "answered",
            text: "t",
            details: &details,
        };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["skill"], "calculus", "details are flattened in: {v}");
        let r: Relayed = serde_json::from_value(v).unwrap();
        assert_eq!(r.operation_id, "op-1");
        assert_eq!(serde_json::to_value(HeartbeatSent {}).unwrap(), json!({}));
        for k in SpecialistEventKind::ALL {
            assert_eq!(SpecialistEventKind::parse(k.as_str()), Some(*k));
        }
    }
}
