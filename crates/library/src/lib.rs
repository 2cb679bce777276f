//! The Library agent. It answers only from the saved answer content of its enabled skills:
//! mock mode answers from the skill the Hub chose (or the best-matching one) and copies the
//! lines of its content that answer what was asked, verbatim ([`extract`]). It never
//! computes anything (no due dates; a day asked is only named) and never claims a
//! transaction (renewal, booking, payment); the lines it returns are the only facts it has.
//! Live mode (`LIBRARY_MODE=live`, [`live`]) asks a model and releases its answer only
//! when the evidence it quotes is found verbatim in an enabled skill's content.
//!
//! API: [`answer`] (question + enabled skills + [`Context`]: the clock's now, the skill
//! the Hub chose and the conversation's last question → [`Answer`]), [`render`] (→ reply text), [`Clock`] (`LIBRARY_CLOCK`) and
//! [`default_skills`] (the Library's fictional default configuration).

mod agent;
pub mod booking;
pub mod clock;
pub mod compose;
pub mod days;
pub mod extract;
pub mod fixtures;
pub mod live;
pub mod loans;
mod question;
mod rank;
pub mod renewal;
mod reply;
pub mod words;

pub use agent::{
    ComposeMode, DEFAULT_PORT, IDENTITY, Library, Mode, RULES, agent, agent_card, default_skill_set,
};
pub use live::LiveConfig;

pub use clock::{CLOCK_ENV, Clock};
pub use extract::{ASK_THE_DESK, Answer, Context, NOT_COVERED, SkillText, answer, render};
pub use fixtures::{DefaultSkill, default_skills};
