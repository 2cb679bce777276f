//! The Tutor agent. With no tutoring skill enabled it declines; otherwise its
//! [`Mode`] (`TUTOR_MODE`) decides who answers:
//! - `mock` (the default): the offline tutor ([`MockTutor`]), a course pack of
//!   explanations with worked examples plus derivatives and integrals computed with
//!   their steps by the `calculus` crate, every result checked numerically first, every
//!   answer labelled [`LABEL`];
//! - `fixed`: the Part 1 reply, [`FIXED_REPLY`] (the benchmark measures plumbing with it).
//!
//! - `live`: a model through the `llm` seam, bounded by the scope layers ([`live`]).
//!
//! Served by [`specialist::serve`]:
//! A2A endpoint, settings API, telemetry feed and Hub link.

mod card;
mod course;
mod define;
mod executor;
pub mod form;
mod leibniz;
pub mod live;
mod mock;
mod mode;
mod request;
mod scope;

use skills::{Rules, Skill, SkillSet};

pub use card::agent_card;
pub use executor::{Answerer, DECLINE_REPLY, FIXED_REPLY, Tutor};
pub use live::{LiveConfig, LiveTutor};
pub use mock::{Answer, LABEL, MEMORY_CAPACITY, MockTutor};
pub use mode::Mode;

/// The Tutor's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41241;
/// Registry identity.
pub const IDENTITY: &str = "tutor";

/// The Tutor's built-in skills (revision 1).
pub fn default_skills() -> SkillSet {
    SkillSet {
        skills: vec![
            Skill {
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
                examples: [
                    "Can you help me with calculus?",
                    "Differentiate x^2 and explain each step",
                    "What is the derivative of x^3*sin(x)?",
                    "Integrate 3x^2 + 2x",
                    "What's the linear approximation of sqrt(x) near x = 4?",
                    "area under sin(x) between 0 and pi, exactly",
                    "What's the average rate of change of h(x) = x^3 on [1, 4]?",
                    "Find the local extrema of g(t) = t^4 - 8t^2",
                    "Explain the chain rule like I'm five",
                    "When do I use the quotient rule instead of the product rule?",
                    "What does it mean for a function to be continuous at a point?",
                    "Is the one-sided limit of 1/x as x → 0 from the left minus infinity?",
                    "How does the ratio test work on the series of n/2^n?",
                    "How do I solve the differential equation dy/dx = 2y?",
                    "What's the Taylor series of e^x around 0?",
                    "Related rates: a 5 m ladder slides down a wall, how fast does its top fall?",
                    "How does the squeeze theorem show x^2·cos(1/x) goes to 0?",
                    "What's the second derivative of ln(x)?",
                    "Show me integration by parts on x·e^x",
                    "I'm lost with substitution when integrating",
                    "how to find the critical points of a function",
                    "What is a Riemann sum and how does it approximate area?",
                    "A balloon is being inflated; how fast does its radius grow?",
                    "What's the rate of change of a circle's area as its radius grows?",
                    "How can I tell where a function is increasing or decreasing?",
                    "Find the volume when y = x^2 is rotated around the x-axis",
                    "If position is s(t) = 5t^2, what is the instantaneous velocity at t = 2?",
                    "do i need +C on evry indefinit integral?",
                    "how do i diferentiate sqrt(x)",
                    "derivativ of cos(2x) pls",
                    "how to integrat with partial fractons",
                    "calclus hw: wat does it mean wen a limit doesnt exist from both sides",
                    "No entiendo cómo hacer la integral de 2x, ¿me lo explicas step by step?",
                    "¿Cuál es el limit de 1/x cuando x tiende a cero?",
                    "Mujhe derivative samajh nahi aa raha, x^3 ka derivative batao na",
                    "Integration by parts kab use karte hain, thoda explain karo",
                    "Paano kunin ang derivative ng x^2 + 5x?",
                    "Nalilito ako sa limits sa calculus, pwede mo ba ituro?",
                    "Làm sao tính đạo hàm của sin(x) vậy?",
                    "Cho em hỏi cách tính tích phân của x^2 ạ",
                ]
                .map(String::from)
                .to_vec(),
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
            },
            tutoring_request_skill(),
        ],
    }
}

/// The tutoring-request workflow as a skill: disabled, it is neither offered nor accepted.
fn tutoring_request_skill() -> Skill {
    Skill {
        id: form::WORKFLOW.into(),
        name: "Tutoring session requests".into(),
        description: "Takes a request for a session with a human tutor (name, email, preferred weekday and time of day, topic) through a form; a tutor confirms the time later.".into(),
        tags: ["tutoring session", "tutor appointment", "in-person tutor", "meet a tutor", "one-on-one help"]
            .map(String::from)
            .to_vec(),
        examples: [
            "I'd like to meet a tutor in person on Thursday afternoon",
            "Can I schedule a one-on-one session with a tutor?",
            "Sign me up for a session with a tutor next week",
            "I want to arrange a face-to-face tutoring appointment",
            "Could a tutor see me tomorrow morning about series?",
            "Request a tutoring session on the 12th, mornings work best",
        ]
        .map(String::from)
        .to_vec(),
        enabled: true,
        // what the offline tutor says it covers is calculus: the form is not a topic
        allowed_scope: Vec::new(),
        excluded: ["confirming a time (a tutor does that later)".to_string()].to_vec(),
        answer_content: String::new(),
    }
}

/// The Tutor's validation rules: reference notes are optional.
pub const RULES: Rules = Rules { require_content: false };

/// The Tutor answering with `answerer`, its chat messages read by `decider` (the
/// heuristic; in live mode the model), ready for [`specialist::serve`].
pub fn agent(
    answerer: Answerer,
    decider: std::sync::Arc<dyn forms::intent::Decide>,
) -> specialist::Agent<Tutor, impl FnOnce(skills::Settings, telemetry::Telemetry, store::Store) -> Tutor> {
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: answerer.mode().as_str(),
        model: answerer.model(),
        default_skills: default_skills(),
        rules: RULES,
        executor: move |settings, telemetry, store| {
            let env = |k: &str| std::env::var(k).ok();
            Tutor::new(settings, telemetry, answerer, specialist::forms::FormHost::new(store, decider, &env))
        },
    }
}

#[cfg(test)]
mod intent_tests;
#[cfg(test)]
mod tests;
