//! A2A 1.0 Agent Card signatures: a JWS (RFC 7515) with a detached payload, the RFC 8785
//! canonical card without its `signatures` member and without empty values (empty
//! strings, lists and objects, at any depth) or the one default the card's proto form
//! leaves out (an extension's `required: false`): the form the official SDKs
//! canonicalize, so they verify our cards — interop/py checks it. The protected header names the
//! algorithm (`EdDSA`), the key id and the public key (`jwk`); a verifier that has pinned
//! the signer's key checks against its pin, never against the header's key.

use std::sync::Arc;

use a2a_lf::{AgentCard, AgentCardSignature};
use serde_json::Value;

use crate::jcs::canonical;
use crate::{AgentKey, PublicKey, b64, unb64};

/// Why a card's signature was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CardSignatureError {
    #[error("the card is not signed")]
    Unsigned,
    #[error("no signature on the card is by the key this agent is known by")]
    WrongKey,
    #[error("the card's signature does not match its content")]
    BadSignature,
}

impl CardSignatureError {
    pub fn code(self) -> &'static str {
        match self {
            CardSignatureError::Unsigned => "card_unsigned",
            CardSignatureError::WrongKey => "card_key_mismatch",
            CardSignatureError::BadSignature => "bad_card_signature",
        }
    }
}

/// The signed bytes: the card as JSON, `signatures` and empty values removed, canonical.
fn payload(card: &AgentCard) -> String {
    let mut value = serde_json::to_value(card).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("signatures");
    }
    // `AgentExtension.required` is a proto3 bool without presence: its proto JSON form
    // omits `false` (the only such field a card can hold but OAuth's `pkceRequired`)
    let extensions = value.pointer_mut("/capabilities/extensions").and_then(Value::as_array_mut);
    for extension in extensions.into_iter().flatten().filter_map(Value::as_object_mut) {
        if extension.get("required") == Some(&Value::Bool(false)) {
            extension.remove("required");
        }
    }
    canonical(&without_empty(value).unwrap_or(Value::Null))
}

/// `value` without empty strings, lists and objects (an object or list emptied by that
/// goes too); `None` when nothing is left.
fn without_empty(value: Value) -> Option<Value> {
    match value {
        Value::String(s) if s.is_empty() => None,
        Value::Array(items) => {
            let kept: Vec<Value> = items.into_iter().filter_map(without_empty).collect();
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(map) => {
            let kept: serde_json::Map<String, Value> =
                map.into_iter().filter_map(|(k, v)| without_empty(v).map(|v| (k, v))).collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        other => Some(other),
    }
}

/// A signature of `card` (whatever signatures it carries are not covered).
pub fn sign_card(key: &AgentKey, card: &AgentCard) -> AgentCardSignature {
    let public = key.public();
    let header = serde_json::json!({"alg": "EdDSA", "typ": "JOSE", "kid": public.kid(), "jwk": public.jwk()});
    let protected = b64(canonical(&header).as_bytes());
    let input = format!("{protected}.{}", b64(payload(card).as_bytes()));
    let signature = b64(&key.sign(input.as_bytes()).to_bytes());
    AgentCardSignature { protected, signature, header: None }
}

/// A signer for an A2A server's card cell: every version of the card it serves is signed.
pub fn card_signer(key: Arc<AgentKey>) -> impl Fn(&AgentCard) -> AgentCardSignature + Send + Sync {
    move |card| sign_card(&key, card)
}

/// Checks that one of `card`'s signatures is `key`'s, over this content.
pub fn verify_card(card: &AgentCard, key: &PublicKey) -> Result<(), CardSignatureError> {
    let signatures = card.signatures.as_deref().unwrap_or_default();
    if signatures.is_empty() {
        return Err(CardSignatureError::Unsigned);
    }
    let kid = key.kid();
    let ours = signatures.iter().filter(|s| {
        let header: Option<Value> = unb64(&s.protected).and_then(|b| serde_json::from_slice(&b).ok());
        header.is_some_and(|h| h["alg"] == "EdDSA" && h["kid"] == kid.as_str())
    });
    let payload = b64(payload(card).as_bytes());
    let mut found = false;
    for s in ours {
        found = true;
        if key.verify(format!("{}.{payload}", s.protected).as_bytes(), &s.signature) {
            return Ok(());
        }
    }
    Err(if found { CardSignatureError::BadSignature } else { CardSignatureError::WrongKey })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(name: &str) -> AgentCard {
        a2a::basic_card(name, "d", "http://127.0.0.1:1")
    }

    #[test]
    fn a_signed_card_verifies_with_its_key_and_only_as_signed() {
        let key = AgentKey::from_seed([3; 32]);
        let mut c = card("Tutor");
        assert_eq!(verify_card(&c, &key.public()), Err(CardSignatureError::Unsigned));
        c.signatures = Some(vec![sign_card(&key, &c)]);
        assert_eq!(verify_card(&c, &key.public()), Ok(()));
        // through JSON and back (a fetched card) it still verifies
        let fetched: AgentCard = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(verify_card(&fetched, &key.public()), Ok(()));
        // another key's pin refuses it; so does any change to the content
        assert_eq!(
            verify_card(&c, &AgentKey::from_seed([4; 32]).public()),
            Err(CardSignatureError::WrongKey)
        );
        let mut changed = c.clone();
        changed.description = "a copy with other words".into();
        assert_eq!(verify_card(&changed, &key.public()), Err(CardSignatureError::BadSignature));
        // a copied signature does not sign another agent's card
        let mut other = card("Squatter");
        other.signatures = c.signatures.clone();
        assert_eq!(verify_card(&other, &key.public()), Err(CardSignatureError::BadSignature));
    }

    #[test]
    fn empty_values_are_not_part_of_what_is_signed() {
        let key = AgentKey::from_seed([3; 32]);
        let mut c = card("Tutor");
        c.signatures = Some(vec![sign_card(&key, &c)]);
        // a reader that drops empty values (as the official SDKs do) sees the same card
        let mut dropped = serde_json::to_value(&c).unwrap();
        dropped.as_object_mut().unwrap().remove("skills");
        let dropped: AgentCard = serde_json::from_value(dropped).unwrap();
        assert_eq!(verify_card(&dropped, &key.public()), Ok(()));
        assert_eq!(
            without_empty(serde_json::json!({"a": "", "b": [[], {}], "c": {"d": ""}, "e": [0, false, "x"]})),
            Some(serde_json::json!({"e": [0, false, "x"]}))
        );
    }

    #[test]
    fn the_protected_header_names_the_algorithm_key_id_and_public_key() {
        let key = AgentKey::from_seed([5; 32]);
        let s = sign_card(&key, &card("Hub"));
        let header: Value = serde_json::from_slice(&unb64(&s.protected).unwrap()).unwrap();
        assert_eq!(header["alg"], "EdDSA");
        assert_eq!(header["typ"], "JOSE");
        assert_eq!(header["kid"], key.public().kid());
        assert_eq!(header["jwk"]["x"], key.public().to_string());
        assert_eq!(unb64(&s.signature).unwrap().len(), 64);
    }
}
