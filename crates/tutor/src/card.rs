//! The Tutor's Agent Card.

use a2a::wire::{AgentCard, AgentProvider, AgentSkill};

/// The card for a Tutor reachable at `base_url` (`http://127.0.0.1:41241`).
pub fn agent_card(base_url: &str) -> AgentCard {
    let mut card = a2a::basic_card(
        "Tutor Agent",
        "Helps students with calculus: limits, derivatives and integrals.",
        base_url,
    );
    card.version = env!("CARGO_PKG_VERSION").into();
    card.skills = vec![AgentSkill {
        id: "calculus-tutoring".into(),
        name: "Calculus tutoring".into(),
        description: "Explains calculus concepts and works through problems step by step.".into(),
        tags: ["calculus", "math", "derivatives", "integrals", "limits"].map(String::from).to_vec(),
        examples: Some(vec![
            "Can you help me with calculus?".into(),
            "How do I find the derivative of x^2?".into(),
        ]),
        input_modes: None,
        output_modes: None,
        security_requirements: None,
    }];
    card.provider =
        Some(AgentProvider { organization: "Campus (fictional local demo)".into(), url: base_url.into() });
    card
}
