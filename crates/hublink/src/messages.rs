//! The typed control messages and their A2A encoding.

use a2a::server::Reply;
use a2a::wire::{Message, Part, PartContent, Role, SendMessageResponse};
use keys::{AgentKey, Proof, ProofError, PublicKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const REGISTER: &str = "application/vnd.campus.agent-register+json";
pub const HEARTBEAT: &str = "application/vnd.campus.agent-heartbeat+json";
pub const DEREGISTER: &str = "application/vnd.campus.agent-deregister+json";
pub const CARD_CHANGED: &str = "application/vnd.campus.agent-card-changed+json";
pub const ACK: &str = "application/vnd.campus.hub-ack+json";
/// The media types a Hub receives control messages in: its card lists them in
/// `defaultInputModes`, or the A2A layer refuses them (-32005).
pub const CONTROL_TYPES: [&str; 4] = [REGISTER, HEARTBEAT, DEREGISTER, CARD_CHANGED];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Register {
    pub identity: String,
    pub instance_id: String,
    pub endpoint: String,
    pub card_url: String,
    pub enabled: bool,
    /// The agent's own public key: what every one of its control messages and its card
    /// is signed with. The Hub pins the first one an identity proves.
    pub public_key: PublicKey,
    /// How this agent answers (`mock`, `fixed`, …), as it says itself; absent from older
    /// agents (the Hub then shows it as unknown). See [`valid_mode`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The model it asks in live mode (`claude-haiku-5-5`), as it says itself; absent
    /// when no model answers or from older agents. Same characters as a mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// Longest [`Register::mode`] the Hub accepts.
pub const MAX_MODE_CHARS: usize = 32;

/// A mode is 1 to [`MAX_MODE_CHARS`] characters of `a-z`, `0-9`, `_` and `-`.
pub fn valid_mode(mode: &str) -> bool {
    (1..=MAX_MODE_CHARS).contains(&mode.len())
        && mode.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// Heartbeat and sign-out carry the same fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Heartbeat {
    pub identity: String,
    pub instance_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardChanged {
    pub identity: String,
    pub instance_id: String,
    pub notice_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    Register(Register),
    Heartbeat(Heartbeat),
    Deregister(Heartbeat),
    CardChanged(CardChanged),
}

impl Control {
    pub fn media_type(&self) -> &'static str {
        match self {
            Control::Register(_) => REGISTER,
            Control::Heartbeat(_) => HEARTBEAT,
            Control::Deregister(_) => DEREGISTER,
            Control::CardChanged(_) => CARD_CHANGED,
        }
    }

    fn body(&self) -> Value {
        let v = match self {
            Control::Register(r) => serde_json::to_value(r),
            Control::Heartbeat(h) | Control::Deregister(h) => serde_json::to_value(h),
            Control::CardChanged(c) => serde_json::to_value(c),
        };
        v.unwrap_or(Value::Null)
    }

    pub fn identity(&self) -> &str {
        match self {
            Control::Register(r) => &r.identity,
            Control::Heartbeat(h) | Control::Deregister(h) => &h.identity,
            Control::CardChanged(c) => &c.identity,
        }
    }

    /// The A2A message that carries this control message, signed by `key`: the data
    /// part holds the fields and a `proof` over them (purpose: the media type).
    pub fn to_message(&self, key: &AgentKey) -> Message {
        let mut body = self.body();
        let proof = Proof::seal(key, self.media_type(), &body);
        if let Value::Object(map) = &mut body {
            map.insert(PROOF_FIELD.into(), serde_json::to_value(proof).unwrap_or_default());
        }
        let part = Part::data(body).with_media_type(self.media_type());
        Message::new(Role::User, vec![part])
    }
}

/// The member of a control message's data part that holds its signature.
pub const PROOF_FIELD: &str = "proof";

/// A control message as received: what it says, and the signature it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub control: Control,
    /// `None`: it came unsigned (refused by the Hub).
    pub proof: Option<Proof>,
}

impl Signed {
    /// Checks the signature with the key the sender is known by (for a first
    /// registration, the key it offers), at `now_ms`.
    pub fn check(&self, key: &PublicKey, now_ms: u64) -> Result<&Proof, ProofError> {
        let proof = self.proof.as_ref().ok_or(ProofError::BadSignature)?;
        keys::check(key, self.control.media_type(), &self.control.body(), proof, now_ms)?;
        Ok(proof)
    }
}

fn is_control_type(media_type: &str) -> bool {
    CONTROL_TYPES.contains(&media_type)
}

/// Why a message that claims to be a control message was not one (answered
/// `invalid_control`); the text names the problem, never the values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("{media_type} must be a data part")]
    NotData { media_type: &'static str },
    #[error("{media_type}: {PROOF_FIELD} is not a signature")]
    Proof { media_type: &'static str },
    /// The fields do not decode: `problem` is the decoder's first sentence, without any
    /// value (at most 120 characters).
    #[error("{media_type}: {problem}")]
    Fields { media_type: &'static str, problem: String },
}

/// `None` when the message is not a control message; `Some(Err)` when it claims to be
/// one but does not decode.
pub fn parse_control(message: &Message) -> Option<Result<Signed, ControlError>> {
    let part = message.parts.iter().find(|p| p.media_type.as_deref().is_some_and(is_control_type))?;
    let media_type = CONTROL_TYPES.into_iter().find(|t| part.media_type.as_deref() == Some(t))?;
    let PartContent::Data(data) = &part.content else {
        return Some(Err(ControlError::NotData { media_type }));
    };
    let decode = |data: &Value| -> Result<Control, ControlError> {
        fn typed<T: serde::de::DeserializeOwned>(data: &Value) -> Result<T, String> {
            serde_json::from_value(data.clone()).map_err(|e| {
                let msg = e.to_string();
                msg.split(" at line").next().unwrap_or(&msg).chars().take(120).collect()
            })
        }
        let control = match media_type {
            REGISTER => typed(data).map(Control::Register),
            HEARTBEAT => typed(data).map(Control::Heartbeat),
            DEREGISTER => typed(data).map(Control::Deregister),
            _ => typed(data).map(Control::CardChanged),
        };
        control.map_err(|problem| ControlError::Fields { media_type, problem })
    };
    let mut data = data.clone();
    let proof = match &mut data {
        Value::Object(map) => map.remove(PROOF_FIELD),
        _ => None,
    };
    let proof = match proof.map(serde_json::from_value::<Proof>) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(_)) => return Some(Err(ControlError::Proof { media_type })),
    };
    Some(decode(&data).map(|control| Signed { control, proof }))
}

/// The Hub's answer to a control message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ack {
    pub ok: bool,
    /// `registered`, `alive`, `signed_out`, `refresh_scheduled`, `duplicate_notice`, or `refused`.
    pub status: String,
    /// Stable refusal code, see [`ack_codes`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat_interval_ms: Option<u64>,
    /// The Hub's public key, on an accepted registration: what its forwards are signed
    /// with (the specialist pins the first one it sees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub_key: Option<PublicKey>,
}

/// Refusal codes in [`Ack::code`].
pub mod ack_codes {
    pub const NOT_ALLOWLISTED: &str = "not_allowlisted";
    pub const ENDPOINT_MISMATCH: &str = "endpoint_mismatch";
    pub const NOT_REGISTERED: &str = "not_registered";
    pub const INVALID_CONTROL: &str = "invalid_control";
    /// The signature's own codes ([`keys::ProofError::code`]): `key_mismatch` (not the
    /// pinned key), `bad_signature` (missing or not matching), `stale_signature`,
    /// `replayed`.
    pub const KEY_MISMATCH: &str = "key_mismatch";
    pub const BAD_SIGNATURE: &str = "bad_signature";
}

impl Ack {
    pub fn ok(status: &str) -> Self {
        Self {
            ok: true,
            status: status.into(),
            code: None,
            message: None,
            heartbeat_interval_ms: None,
            hub_key: None,
        }
    }

    pub fn refused(code: &str, message: impl Into<String>) -> Self {
        Self {
            ok: false,
            status: "refused".into(),
            code: Some(code.into()),
            message: Some(message.into()),
            heartbeat_interval_ms: None,
            hub_key: None,
        }
    }
}

/// The agent reply carrying an ack.
pub fn ack_reply(ack: &Ack) -> Reply {
    let part = Part::data(serde_json::to_value(ack).unwrap_or(Value::Null)).with_media_type(ACK);
    Reply::Message {
        message_id: a2a::wire::new_message_id(),
        parts: vec![part],
        metadata: None,
        context_id: None,
    }
}

/// Reads an ack out of the Hub's response.
pub fn parse_ack(response: &SendMessageResponse) -> Option<Ack> {
    let SendMessageResponse::Message(m) = response else { return None };
    m.parts.iter().find(|p| p.media_type.as_deref() == Some(ACK)).and_then(|p| match &p.content {
        PartContent::Data(d) => serde_json::from_value(d.clone()).ok(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_unknown_fields_ignored() {
        let c = Control::CardChanged(CardChanged {
            identity: "tutor".into(),
            instance_id: "i1".into(),
            notice_id: "n1".into(),
            revision: Some(3),
        });
        let key = AgentKey::from_seed([9; 32]);
        let mut msg = c.to_message(&key);
        let signed = parse_control(&msg).unwrap().unwrap();
        assert_eq!(signed.control, c);
        assert!(signed.check(&key.public(), keys::now_ms()).is_ok());
        // a notice carrying a URL decodes to the same notice: the URL goes nowhere
        if let PartContent::Data(d) = &mut msg.parts[0].content {
            d["cardUrl"] = "http://evil.example/card".into();
        }
        assert_eq!(parse_control(&msg).unwrap().unwrap().control, c);
    }

    #[test]
    fn a_control_message_is_signed_over_what_it_says() {
        let key = AgentKey::from_seed([9; 32]);
        let hb = Control::Heartbeat(Heartbeat { identity: "tutor".into(), instance_id: "i1".into() });
        let mut msg = hb.to_message(&key);
        let now = keys::now_ms();
        let other = AgentKey::from_seed([8; 32]).public();
        let signed = parse_control(&msg).unwrap().unwrap();
        assert_eq!(signed.check(&other, now).unwrap_err(), ProofError::WrongKey);
        // the same words as another instance: the signature no longer matches
        if let PartContent::Data(d) = &mut msg.parts[0].content {
            d["instanceId"] = "i2".into();
        }
        let changed = parse_control(&msg).unwrap().unwrap();
        assert_eq!(changed.check(&key.public(), now).unwrap_err(), ProofError::BadSignature);
        // unsigned: decodes, and fails the check
        let bare = Message::new(
            Role::User,
            vec![
                Part::data(serde_json::json!({"identity": "tutor", "instanceId": "i1"}))
                    .with_media_type(HEARTBEAT),
            ],
        );
        let unsigned = parse_control(&bare).unwrap().unwrap();
        assert_eq!(unsigned.proof, None);
        assert_eq!(unsigned.check(&key.public(), now).unwrap_err(), ProofError::BadSignature);
        // as a sign-out, the heartbeat's signature is refused (the purpose is the media type)
        if let PartContent::Data(d) = &mut msg.parts[0].content {
            d["instanceId"] = "i1".into();
        }
        msg.parts[0].media_type = Some(DEREGISTER.into());
        let moved = parse_control(&msg).unwrap().unwrap();
        assert_eq!(moved.check(&key.public(), now).unwrap_err(), ProofError::BadSignature);
    }

    #[test]
    fn non_control_and_broken_control() {
        let chat = Message::new(Role::User, vec![Part::text("hello")]);
        assert_eq!(parse_control(&chat), None);
        let broken = Message::new(
            Role::User,
            vec![Part::data(serde_json::json!({"identity": 5})).with_media_type(HEARTBEAT)],
        );
        assert!(matches!(parse_control(&broken), Some(Err(_))));
        let text = Message::new(Role::User, vec![Part::text("x").with_media_type(REGISTER)]);
        assert!(matches!(parse_control(&text), Some(Err(_))));
    }
}
