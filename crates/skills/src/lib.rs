//! Skills as one source.
//!
//! One [`SkillSet`] per agent, validated once, produces three things together:
//! - the Agent Card's `skills` (the standard fields; enabled skills only),
//! - the documented scope extension [`SCOPE_EXTENSION_URI`] under
//!   `capabilities.extensions` (per-skill allowed scope and exclusions, plus the
//!   configuration's revision; not required, so any client can ignore it),
//! - the runtime [`Policy`] the agent enforces on every request, including direct A2A
//!   calls that bypass the Hub.
//!
//! Answer content is private: it goes into the policy, never onto the card.
//!
//! [`Settings`] holds the live snapshot and swaps configuration, card and policy in one
//! step, writing each save through its [`Persist`] (the agent's store) before anything
//! changes; [`router`] serves the local settings API (read, preview, save the whole set or
//! change one skill, each with the revision it started from; a stale one gets 409).

mod api;
mod model;
mod settings;

pub use api::{BODY_LIMIT, router};
pub use model::{FieldError, Policy, PolicySkill, Rules, Skill, SkillPatch, SkillSet, build_card, validate};
pub use settings::{Persist, SaveError, Settings, Snapshot};

/// The scope extension's URI (documented in docs/internals.md), one of Campus's own words.
pub use vocab::SKILL_SCOPE_EXTENSION_URI as SCOPE_EXTENSION_URI;
