//! A key two agents share without it ever travelling: X25519 of one's secret and the
//! other's public key (their Ed25519 keys in Montgomery form; see "On using the same key
//! pair for Ed25519 and an X25519 based KEM", eprint 2021/509), hashed with both public
//! keys. It authenticates the messages on the request path — a forward, its reply — with
//! HMAC-SHA-256 (about a microsecond) instead of an Ed25519 signature and its verification
//! (tens of microseconds each), in the same [`Proof`] form.

use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::proof::{input, nonce, signed_input};
use crate::{AgentKey, Proof, ProofError, PublicKey, b64, unb64};

/// The key id a shared key's proofs carry.
pub const SHARED_KID: &str = "shared";

/// The key two agents share. Its bytes never leave it (no `Debug` of them, no
/// serialization).
pub struct SharedKey([u8; 32]);

impl std::fmt::Debug for SharedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedKey(…)")
    }
}

impl AgentKey {
    /// The key this agent shares with the owner of `peer` (the same one the peer
    /// computes); `None` for a peer key that yields no secret (a low-order point).
    pub fn shared_with(&self, peer: &PublicKey) -> Option<SharedKey> {
        let point = ed25519_dalek::VerifyingKey::from_bytes(&peer.bytes()).ok()?.to_montgomery();
        let dh = point.mul_clamped(self.scalar_bytes());
        if dh.as_bytes().iter().all(|b| *b == 0) {
            return None;
        }
        let (mine, theirs) = (self.public().bytes(), peer.bytes());
        let (a, b) = if mine <= theirs { (mine, theirs) } else { (theirs, mine) };
        let mut h = Sha256::new();
        h.update(b"campus-shared-key-v1");
        h.update(a);
        h.update(b);
        h.update(dh.as_bytes());
        Some(SharedKey(h.finalize().into()))
    }
}

impl SharedKey {
    fn mac(&self, message: &[u8]) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("hmac takes any key length");
        mac.update(message);
        mac
    }

    /// Authenticates `claims` for `purpose`, now, with a fresh nonce.
    pub fn seal(&self, purpose: &str, claims: &impl Serialize) -> Proof {
        self.seal_at(purpose, claims, crate::now_ms())
    }

    /// [`SharedKey::seal`] as if made at `issued_at_ms` (a test makes an old one with it).
    pub fn seal_at(&self, purpose: &str, claims: &impl Serialize, issued_at_ms: u64) -> Proof {
        let claims = serde_json::to_value(claims).unwrap_or_default();
        let nonce = nonce();
        let tag = self.mac(input(purpose, issued_at_ms, &nonce, &claims).as_bytes()).finalize().into_bytes();
        Proof { kid: SHARED_KID.into(), issued_at_ms, nonce, signature: b64(&tag) }
    }

    /// Checks `proof` over `claims` for `purpose` at `now_ms` (freshness only; a
    /// [`crate::Replay`] refuses a repeat).
    pub fn check(
        &self,
        purpose: &str,
        claims: &impl Serialize,
        proof: &Proof,
        now_ms: u64,
    ) -> Result<(), ProofError> {
        let message = signed_input(SHARED_KID, purpose, claims, proof, now_ms)?;
        let tag = unb64(&proof.signature).ok_or(ProofError::BadSignature)?;
        self.mac(message.as_bytes()).verify_slice(&tag).map_err(|_| ProofError::BadSignature)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn both_sides_compute_the_same_key_and_no_third_party_does() {
        let (hub, tutor, other) =
            (AgentKey::from_seed([1; 32]), AgentKey::from_seed([2; 32]), AgentKey::from_seed([3; 32]));
        let at_hub = hub.shared_with(&tutor.public()).unwrap();
        let at_tutor = tutor.shared_with(&hub.public()).unwrap();
        let claims = json!({"audience": "tutor", "digest": "d"});
        let proof = at_hub.seal("forward", &claims);
        let now = proof.issued_at_ms;
        assert_eq!(at_tutor.check("forward", &claims, &proof, now), Ok(()));
        // another agent's key with the hub, or the wrong purpose, claims or time: refused
        let at_other = other.shared_with(&hub.public()).unwrap();
        assert_eq!(at_other.check("forward", &claims, &proof, now), Err(ProofError::BadSignature));
        assert_eq!(at_tutor.check("reply", &claims, &proof, now), Err(ProofError::BadSignature));
        assert_eq!(
            at_tutor.check("forward", &json!({"audience": "library"}), &proof, now),
            Err(ProofError::BadSignature)
        );
        assert_eq!(
            at_tutor.check("forward", &claims, &proof, now + crate::MAX_SKEW_MS + 1),
            Err(ProofError::Stale)
        );
        let signed = Proof::seal(&hub, "forward", &claims);
        assert_eq!(at_tutor.check("forward", &claims, &signed, now), Err(ProofError::WrongKey));
        assert_eq!(format!("{at_hub:?}"), "SharedKey(…)");
    }
}
