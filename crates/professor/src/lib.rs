//! The Marketing 101 Professor agent. It answers questions about its course from its own
//! course pack ([`pack`]: eight topics with an explanation and an example each, the facts
//! about the course, the lessons it posted). Its [`Mode`] (`PROFESSOR_MODE`) decides who
//! writes the answer:
//! - `mock` (the default): labelled extraction from the pack and the lesson asked about
//!   ([`mock`]), deterministic, no model;
//! - `live`: the configured model through the `llm` seam, told that the pack and lesson
//!   text are content, with no calendar date released that the lesson or the question
//!   does not state ([`live`]).
//!
//! Served by [`specialist::serve`]: A2A endpoint, settings API, telemetry feed and Hub link.

mod course_skills;
mod executor;
pub mod live;
pub mod mock;
pub mod pack;
pub mod read;

use a2a::wire::AgentCard;
use skills::{Rules, Settings};
use telemetry::Telemetry;

pub use course_skills::default_skills;
pub use executor::{DECLINE_REPLY, Professor};
pub use live::LiveConfig;
pub use mock::{LABEL, MockProfessor, NOT_IN_PACK};

/// The Professor's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41244;
/// Registry identity.
pub const IDENTITY: &str = vocab::agents::PROFESSOR;
/// The skill that explains the course's concepts (all but the marketing mix) and lessons.
pub const TOPICS_SKILL: &str = "marketing-101";
/// The skill that explains the marketing mix: the 4 Ps, pricing, promotion.
pub const MIX_SKILL: &str = "marketing-mix";
/// The skill about the course itself.
pub const COURSE_SKILL: &str = "marketing-101-course";
/// The Professor answers from its course pack, not from saved answer content.
pub const RULES: Rules = Rules { require_content: false };

/// How the Professor answers (`PROFESSOR_MODE`): mock, labelled extraction from the
/// course pack; live, the configured model, its answers checked by code ([`live`]).
pub use specialist::live::Mode;

/// The variable that chooses the [`Mode`].
pub const MODE_ENV: &str = "PROFESSOR_MODE";

/// The card for a Professor reachable at `base_url`, without skills.
pub fn agent_card(base_url: &str) -> AgentCard {
    specialist::identity_card(
        "Marketing 101 Professor",
        "Answers questions about the Marketing 101 course and its concepts, from the course pack and its lessons.",
        base_url,
    )
}

/// The Professor, ready for [`specialist::serve`]: live when `live` is given, else mock.
pub fn agent(
    live: Option<LiveConfig>,
) -> specialist::Agent<Professor, impl FnOnce(Settings, Telemetry, store::Store) -> Professor> {
    let mode = if live.is_some() { Mode::Live } else { Mode::Mock };
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: mode.as_str(),
        model: live.as_ref().map(|l| l.model.id()),
        default_skills: default_skills(),
        rules: RULES,
        executor: move |settings, telemetry, _store| Professor::new(settings, telemetry, live),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in skills pass the same validation as a saved change (at most 80
    /// examples a skill, …): a Professor that could not register would never answer.
    #[test]
    fn the_default_skills_are_valid_and_every_pack_topic_has_an_enabled_skill() {
        assert_eq!(skills::validate(&default_skills(), RULES), Ok(()));
        let ids: Vec<String> = default_skills().skills.into_iter().map(|s| s.id).collect();
        for t in &pack::TOPICS {
            assert!(ids.iter().any(|id| id == t.skill), "{} belongs to no skill", t.id);
        }
        assert_eq!(ids, [TOPICS_SKILL, MIX_SKILL, COURSE_SKILL]);
    }

    #[test]
    fn reads_the_mode() {
        let mode = |v: Option<&str>| {
            let v = v.map(String::from);
            Mode::from_env(MODE_ENV, &move |k: &str| if k == "PROFESSOR_MODE" { v.clone() } else { None })
        };
        assert_eq!(mode(None).unwrap(), Mode::Mock);
        assert_eq!(mode(Some("live")).unwrap(), Mode::Live);
        assert!(mode(Some("magic")).unwrap_err().to_string().contains("mock or live"));
    }
}
