//! The Tutor agent. With no tutoring skill enabled it declines; otherwise its
//! [`Mode`] (`TUTOR_MODE`) decides who answers:
//! - `mock` (the default): the offline tutor ([`MockTutor`]), a course pack of
//!   explanations with worked examples plus derivatives and integrals computed with
//!   their steps by the `calculus` crate, every result checked numerically first, every
//!   answer labelled [`LABEL`];
//! - `fixed`: the Part 1 reply, [`FIXED_REPLY`] (the benchmark measures plumbing with it).
//!
//! A live model arrives later as another [`Answerer`]. Served by [`specialist::serve`]:
//! A2A endpoint, settings API, telemetry feed and Hub link.

mod card;
mod course;
mod define;
mod executor;
mod leibniz;
mod mock;
mod mode;
mod request;
mod scope;

use skills::{Rules, Skill, SkillSet};

pub use card::agent_card;
pub use executor::{Answerer, DECLINE_REPLY, FIXED_REPLY, Tutor};
pub use mock::{Answer, LABEL, MEMORY_CAPACITY, MockTutor};
pub use mode::Mode;

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
            tags: [
                "calculus",
                "derivative",
                "integral",
                "limit",
                "differentiate",
                "antiderivative",
                "integrate",
                // "d/dx", "dy/dx" and "∫ x dx" all contain the word dx
                "dx",
                "chain rule",
                "product rule",
                "quotient rule",
                "power rule",
                "substitution",
                "optimisation",
                "optimization",
                "fundamental theorem",
                "implicit",
                "differentiation",
            ]
            .map(String::from)
            .to_vec(),
            examples: vec![
                "Can you help me with calculus?".into(),
                "How do I find the derivative of x^2?".into(),
                "What is the derivative of x^3*sin(x)?".into(),
                "Integrate 3x^2 + 2x".into(),
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

/// The Tutor answering in `mode`, ready for [`specialist::serve`].
pub fn agent(
    mode: Mode,
) -> specialist::Agent<Tutor, impl FnOnce(skills::Settings, telemetry::Telemetry) -> Tutor> {
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        default_skills: default_skills(),
        rules: RULES,
        executor: move |settings, telemetry| Tutor::new(settings, telemetry, Answerer::for_mode(mode)),
    }
}

#[cfg(test)]
mod tests;
