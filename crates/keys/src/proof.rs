//! Signed claims: who says what, when, once.

use std::time::{SystemTime, UNIX_EPOCH};

use bounded::BoundedMap;
use serde::{Deserialize, Serialize};

use crate::jcs::canonical;
use crate::{AgentKey, PublicKey, b64};

/// How far a proof's time may be from the verifier's clock, either way.
pub const MAX_SKEW_MS: u64 = 30_000;

/// A signature over `(purpose, issuedAtMs, nonce, canonical claims)`, sent beside the
/// claims it covers. The purpose (a media type, `forward`, …) keeps a signature made for
/// one use from passing for another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Proof {
    /// The signer's key id ([`PublicKey::kid`]).
    pub kid: String,
    pub issued_at_ms: u64,
    pub nonce: String,
    pub signature: String,
}

/// Why a proof was refused; [`ProofError::code`] is the stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("signed with another key than the one this agent is known by")]
    WrongKey,
    #[error("the signature does not match")]
    BadSignature,
    #[error("the signature is too old or from the future")]
    Stale,
    #[error("this signed message was already received")]
    Replayed,
}

impl ProofError {
    pub fn code(self) -> &'static str {
        match self {
            ProofError::WrongKey => "key_mismatch",
            ProofError::BadSignature => "bad_signature",
            ProofError::Stale => "stale_signature",
            ProofError::Replayed => "replayed",
        }
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

pub(crate) fn input(purpose: &str, issued_at_ms: u64, nonce: &str, claims: &serde_json::Value) -> String {
    format!("campus-proof-v1\n{purpose}\n{issued_at_ms}\n{nonce}\n{}", canonical(claims))
}

impl Proof {
    /// Signs `claims` for `purpose`, now, with a fresh nonce.
    pub fn seal(key: &AgentKey, purpose: &str, claims: &impl Serialize) -> Proof {
        let claims = serde_json::to_value(claims).unwrap_or_default();
        let (issued_at_ms, nonce) = (now_ms(), nonce());
        let signature = key.sign(input(purpose, issued_at_ms, &nonce, &claims).as_bytes());
        Proof { kid: key.public().kid(), issued_at_ms, nonce, signature: b64(&signature.to_bytes()) }
    }
}

/// 16 random bytes, base64url (without randomness, the time and a counter still keep
/// nonces apart).
pub(crate) fn nonce() -> String {
    let mut nonce = [0u8; 16];
    if getrandom::fill(&mut nonce).is_err() {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        nonce[..8].copy_from_slice(&n.to_le_bytes());
        nonce[8..].copy_from_slice(&now_ms().to_le_bytes());
    }
    b64(&nonce)
}

/// Verifies `proof` over `claims` for `purpose` with the key the signer is known by, at
/// `now_ms`. Freshness only; [`Replay`] refuses a repeat.
pub fn check(
    key: &PublicKey,
    purpose: &str,
    claims: &impl Serialize,
    proof: &Proof,
    now_ms: u64,
) -> Result<(), ProofError> {
    let message = signed_input(&key.kid(), purpose, claims, proof, now_ms)?;
    if key.verify(message.as_bytes(), &proof.signature) { Ok(()) } else { Err(ProofError::BadSignature) }
}

/// What `proof` must have been made over, once its key id (`kid`) and time (at `now_ms`)
/// are right: the steps every check of a proof shares before its signature or MAC.
pub(crate) fn signed_input(
    kid: &str,
    purpose: &str,
    claims: &impl Serialize,
    proof: &Proof,
    now_ms: u64,
) -> Result<String, ProofError> {
    if proof.kid != kid {
        return Err(ProofError::WrongKey);
    }
    if proof.issued_at_ms.abs_diff(now_ms) > MAX_SKEW_MS {
        return Err(ProofError::Stale);
    }
    let claims = serde_json::to_value(claims).map_err(|_| ProofError::BadSignature)?;
    Ok(input(purpose, proof.issued_at_ms, &proof.nonce, &claims))
}

/// The nonces of proofs accepted within the freshness window: a proof is taken once.
/// Bounded; a nonce pushed out by `capacity` newer ones is older than any replay worth
/// refusing only while fewer than `capacity` proofs arrive per window (size it so).
///
/// Held in memory: what was taken before it was made (a restart) is not known, so a proof
/// issued before then is refused as a possible replay, whoever sends it — a fresh one
/// is made for every attempt anyway.
#[derive(Debug)]
pub struct Replay {
    seen: BoundedMap<String, u64>,
    since_ms: u64,
}

impl Replay {
    pub fn new(capacity: usize) -> Self {
        Self::since(capacity, now_ms())
    }

    /// A memory that starts at `since_ms`: proofs issued before it are refused.
    pub fn since(capacity: usize, since_ms: u64) -> Self {
        Self { seen: BoundedMap::new(capacity), since_ms }
    }

    /// Records a checked proof; `Err(Replayed)` when its nonce was taken already, or it
    /// was issued before this memory began.
    pub fn take(&mut self, signer: &str, proof: &Proof) -> Result<(), ProofError> {
        let key = format!("{signer}/{}", proof.nonce);
        if proof.issued_at_ms < self.since_ms || self.seen.get(&key).is_some() {
            return Err(ProofError::Replayed);
        }
        self.seen.insert(key, proof.issued_at_ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_proof_verifies_for_its_key_purpose_claims_and_time_only() {
        let key = AgentKey::from_seed([1; 32]);
        let other = AgentKey::from_seed([2; 32]);
        let claims = json!({"identity": "tutor", "instanceId": "i1"});
        let proof = Proof::seal(&key, "heartbeat", &claims);
        let now = proof.issued_at_ms;
        assert_eq!(check(&key.public(), "heartbeat", &claims, &proof, now), Ok(()));
        // member order does not matter: the claims are compared canonically
        let reordered: serde_json::Value =
            serde_json::from_str(r#"{"instanceId":"i1","identity":"tutor"}"#).unwrap();
        assert_eq!(check(&key.public(), "heartbeat", &reordered, &proof, now), Ok(()));
        assert_eq!(check(&other.public(), "heartbeat", &claims, &proof, now), Err(ProofError::WrongKey));
        assert_eq!(check(&key.public(), "register", &claims, &proof, now), Err(ProofError::BadSignature));
        let changed = json!({"identity": "tutor", "instanceId": "i2"});
        assert_eq!(check(&key.public(), "heartbeat", &changed, &proof, now), Err(ProofError::BadSignature));
        let late = now + MAX_SKEW_MS + 1;
        assert_eq!(check(&key.public(), "heartbeat", &claims, &proof, late), Err(ProofError::Stale));
        let mut forged = proof.clone();
        forged.issued_at_ms += 1;
        assert_eq!(check(&key.public(), "heartbeat", &claims, &forged, now), Err(ProofError::BadSignature));
        forged = proof.clone();
        forged.signature = "AAAA".into();
        assert_eq!(check(&key.public(), "heartbeat", &claims, &forged, now), Err(ProofError::BadSignature));
        // another signer claiming this key's id still fails the signature
        let mut borrowed = Proof::seal(&other, "heartbeat", &claims);
        borrowed.kid = key.public().kid();
        assert_eq!(check(&key.public(), "heartbeat", &claims, &borrowed, now), Err(ProofError::BadSignature));
    }

    #[test]
    fn a_nonce_is_taken_once_per_signer() {
        let key = AgentKey::from_seed([1; 32]);
        let proof = Proof::seal(&key, "x", &json!({}));
        let mut replay = Replay::since(8, proof.issued_at_ms);
        assert_eq!(replay.take("tutor", &proof), Ok(()));
        assert_eq!(replay.take("tutor", &proof), Err(ProofError::Replayed));
        assert_eq!(replay.take("library", &proof), Ok(()));
        assert_ne!(Proof::seal(&key, "x", &json!({})).nonce, proof.nonce);
        assert_eq!(ProofError::Replayed.code(), "replayed");
    }

    #[test]
    fn a_proof_issued_before_the_memory_began_is_refused_as_a_possible_replay() {
        let key = AgentKey::from_seed([1; 32]);
        let proof = Proof::seal(&key, "x", &json!({}));
        // a restart: the memory of what was taken is new, and knows nothing older
        let mut after = Replay::since(8, proof.issued_at_ms + 1);
        assert_eq!(after.take("hub", &proof), Err(ProofError::Replayed));
        let mut at = Replay::since(8, proof.issued_at_ms);
        assert_eq!(at.take("hub", &proof), Ok(()));
    }
}
