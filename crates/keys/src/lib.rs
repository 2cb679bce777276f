//! Each agent's own key, and what it signs.
//!
//! - [`AgentKey`]: an Ed25519 key kept in `<data dir>/<agent>.key`, created on first start
//!   (mode `0600`, written once, never replaced); a file others can read is refused, as
//!   `ssh` refuses one. Its [`PublicKey`] is what other agents pin.
//! - [`Proof`]: a signature over a purpose, a time, a nonce and the RFC 8785 canonical
//!   form of a claim; [`check`] verifies it with a pinned key within a freshness window,
//!   and [`Replay`] refuses a nonce seen before. [`SharedKey`]: the same proofs made
//!   with a key two agents compute from their own (X25519), never sent, for the request
//!   path (HMAC-SHA-256).
//! - [`sign_card`] / [`verify_card`]: A2A 1.0 Agent Card `signatures`, a JWS whose
//!   payload is the canonical card without its `signatures` (RFC 7515 + RFC 8785).
//!
//! Nothing here prints a secret: an [`AgentKey`] shows only its key id, and no error
//! carries key material or the signed content.

mod card;
pub mod jcs;
mod key;
mod proof;
mod shared;

pub use card::{CardSignatureError, card_signer, sign_card, verify_card};
pub use key::{AgentKey, KeyError, PublicKey};
pub use proof::{MAX_SKEW_MS, Proof, ProofError, Replay, check, now_ms};
pub use shared::{SHARED_KID, SharedKey};

/// The SHA-256 of `value`'s canonical form, base64url: what a signature covers when the
/// signed thing travels beside it (a message's content).
pub fn digest(value: &serde_json::Value) -> String {
    digest_bytes(jcs::canonical(value).as_bytes())
}

/// The SHA-256 of `bytes`, base64url (a request body as sent).
pub fn digest_bytes(bytes: &[u8]) -> String {
    use sha2::Digest;
    b64(&sha2::Sha256::digest(bytes))
}

/// base64url without padding, the encoding of every key, signature and JWS segment here
/// (and of a signed header's value).
pub fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The bytes of a [`b64`] text; `None` for anything else.
pub fn unb64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text).ok()
}
