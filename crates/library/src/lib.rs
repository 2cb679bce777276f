//! The Library agent. It answers only from the saved answer content of its enabled skills:
//! mock mode picks the best-matching skill and copies the lines of its content that mention
//! what was asked, verbatim. It never computes anything (no due dates) and never claims a
//! transaction (renewal, booking, payment); the lines it returns are the only facts it has.
//! Live mode (`LIBRARY_MODE=live`, [`live`]) asks a model and releases its answer only
//! when the evidence it quotes is found verbatim in an enabled skill's content.
//!
//! API: [`answer`] (question + enabled skills → [`Answer`]), [`render`] (→ reply text) and
//! [`default_skills`] (the Library's fictional default configuration).

mod agent;
pub mod booking;
pub mod extract;
pub mod fixtures;
pub mod live;

pub use agent::{DEFAULT_PORT, IDENTITY, Library, Mode, RULES, agent, agent_card, default_skill_set};
pub use live::LiveConfig;

pub use extract::{Answer, NOT_COVERED, SkillText, answer, render};
pub use fixtures::{DefaultSkill, default_skills};
