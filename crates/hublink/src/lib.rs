//! The Hub link: this application's control messages between the University Hub and
//! its specialists, carried as typed A2A data parts (our own media types, not built-in
//! A2A features), and the specialist's side of the conversation ([`run_link`]).
//!
//! | media type | sender | fields |
//! |---|---|---|
//! | `application/vnd.campus.agent-register+json` | specialist | `identity, instanceId, endpoint, cardUrl, enabled, publicKey, mode?, model?` |
//! | `application/vnd.campus.agent-heartbeat+json` | specialist | `identity, instanceId` |
//! | `application/vnd.campus.agent-deregister+json` | specialist | `identity, instanceId` |
//! | `application/vnd.campus.agent-card-changed+json` | specialist | `identity, instanceId, noticeId, revision?` |
//! | `application/vnd.campus.hub-ack+json` | Hub (reply) | `ok, status, code?, message?, heartbeatIntervalMs?, hubKey?` |
//!
//! A control message is one A2A message whose first data part has one of these media
//! types. Every one a specialist sends carries a `proof` member ([`keys::Proof`]: its own
//! key's signature over the other fields, the media type as purpose, a time and a
//! nonce); the Hub checks it against the key it pinned for that identity, so an instance
//! id is no credential. The Hub answers with an agent message whose data part is an ack. A card-change
//! notice is only a hint: the Hub re-fetches the card from its own configured URL and
//! applies nothing from the notice (fields it does not know, such as a URL, are ignored).

mod choice;
mod link;
mod messages;
mod trust;

pub use choice::{AWAITS_FORM_CHOICE, AWAITS_KEY, OpenFormChoice, awaits_form_choice};

pub use link::{LinkConfig, LinkEvents, run_link};
pub use messages::{
    ACK, Ack, CARD_CHANGED, CONTROL_TYPES, CardChanged, Control, ControlError, DEREGISTER, HEARTBEAT,
    Heartbeat, MAX_MODE_CHARS, PROOF_FIELD, REGISTER, Register, Signed, ack_codes, ack_reply, parse_ack,
    parse_control, valid_mode,
};
pub use trust::{
    Caller, HUB_IDENTITY, HubTrust, check_reply, sign_forward, sign_forward_at, sign_reply, sign_request,
};
