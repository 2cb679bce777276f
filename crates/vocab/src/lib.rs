//! Campus's own vocabulary on the wire, as types: what our agents put beside the A2A
//! protocol (reply metadata, form descriptions and their states, our media types) and
//! what they report on their telemetry feeds. Every crate that writes or reads these
//! uses the types here, so a renamed key or state fails to compile instead of silently
//! reading nothing. The protocols themselves live in `a2a`, `a2ui` and `agui`; the Hub
//! link's control messages in `hublink`.
//!
//! The page reads the same names from `web/vocab.js`, generated from these types and
//! checked by `crates/ui/tests/page_vocab.rs`, never from hand copies.
//!
//! What stays in `hublink`: the Hub link's control messages (register, heartbeat,
//! sign-out, card-changed, ack) with their media types and codec, and the `campusAwaits`
//! marker a specialist's "continue or replace" question carries. They are that
//! protocol's own, read and written only by its two ends (the link's run loop and the
//! Hub's registry) through `hublink`'s types; nothing else — no page, no other crate —
//! names them.

pub mod agents;
pub mod events;
pub mod form;
pub mod loans;
pub mod meta;
pub mod registry;

pub use events::HubEventKind;

/// Campus's own A2A extension: a card's skill scope and its revision (docs/internals.md).
pub const SKILL_SCOPE_EXTENSION_URI: &str = "urn:campus:skill-scope:v1";
pub use form::{CampusForm, FormState};
pub use meta::{ReplyMeta, ReplyOutcome, ServedBy};
