//! The Tutor agent. Fixed mode answers every chat message with one fixed reply, in the
//! caller's context, while its policy has an enabled tutoring skill; with none enabled it
//! declines. Later modes (mock and live models, forms) plug into the same executor.
//!
//! Served by [`specialist::serve`]: A2A endpoint, settings API, telemetry feed and Hub link.

mod card;
mod executor;

use skills::{Rules, Skill, SkillSet};

pub use card::agent_card;
pub use executor::{DECLINE_REPLY, FIXED_REPLY, Tutor};

/// The Tutor's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41241;
/// Registry identity.
pub const IDENTITY: &str = "tutor";

/// The Tutor's built-in skills (revision 1).
pub fn default_skills() -> SkillSet {
    SkillSet {
        skills: vec![Skill {
            id: "calculus-tutoring".into(),
            name: "Calculus tutoring".into(),
            description: "Explains calculus concepts and works through problems step by step.".into(),
            tags: ["calculus", "derivative", "integral", "limit", "differentiate", "antiderivative"]
                .map(String::from)
                .to_vec(),
            examples: vec![
                "Can you help me with calculus?".into(),
                "How do I find the derivative of x^2?".into(),
            ],
            enabled: true,
            allowed_scope: [
                "limits",
                "derivatives",
                "integrals",
                "calculus exercises",
                "algebra steps inside a calculus explanation",
            ]
            .map(String::from)
            .to_vec(),
            excluded: ["standalone physics", "non-calculus math", "home repair", "library services"]
                .map(String::from)
                .to_vec(),
            answer_content: String::new(),
        }],
    }
}

/// The Tutor's validation rules: reference notes are optional.
pub const RULES: Rules = Rules { require_content: false };

/// The Tutor, ready for [`specialist::serve`].
pub fn agent() -> specialist::Agent<Tutor, fn(skills::Settings, telemetry::Telemetry) -> Tutor> {
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        default_skills: default_skills(),
        rules: RULES,
        executor: Tutor::new,
    }
}
