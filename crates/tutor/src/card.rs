//! The Tutor's card, without skills (they come from its skill settings).

use a2a::wire::{AgentCard, AgentProvider};

/// The card for a Tutor reachable at `base_url` (`http://127.0.0.1:41241`).
pub fn agent_card(base_url: &str) -> AgentCard {
    let mut card = a2a::basic_card(
        "Tutor Agent",
        "Helps students with calculus: limits, derivatives and integrals.",
        base_url,
    );
    card.version = env!("CARGO_PKG_VERSION").into();
    card.provider =
        Some(AgentProvider { organization: "Campus (fictional local demo)".into(), url: base_url.into() });
    card
}
