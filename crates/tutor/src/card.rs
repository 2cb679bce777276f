//! The Tutor's Agent Card.

use a2a::wire::{AgentCapabilities, AgentCard, AgentInterface, AgentProvider, AgentSkill};

/// The card for a Tutor reachable at `base_url` (`http://127.0.0.1:41241`).
pub fn agent_card(base_url: &str) -> AgentCard {
    AgentCard {
        name: "Tutor Agent".into(),
        description: "Helps students with calculus: limits, derivatives and integrals.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        supported_interfaces: vec![AgentInterface::new(
            format!("{base_url}{}", a2a::JSONRPC_PATH),
            a2a::JSONRPC_BINDING,
        )],
        capabilities: AgentCapabilities {
            streaming: Some(false),
            push_notifications: Some(false),
            extensions: None,
            extended_agent_card: None,
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "calculus-tutoring".into(),
            name: "Calculus tutoring".into(),
            description: "Explains calculus concepts and works through problems step by step.".into(),
            tags: vec![
                "calculus".into(),
                "math".into(),
                "derivatives".into(),
                "integrals".into(),
                "limits".into(),
            ],
            examples: Some(vec![
                "Can you help me with calculus?".into(),
                "How do I find the derivative of x^2?".into(),
            ]),
            input_modes: None,
            output_modes: None,
            security_requirements: None,
        }],
        provider: Some(AgentProvider {
            organization: "Campus (fictional local demo)".into(),
            url: base_url.into(),
        }),
        documentation_url: None,
        icon_url: None,
        security_schemes: None,
        security_requirements: None,
        signatures: None,
    }
}
