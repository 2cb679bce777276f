//! The Tutor's card, without skills (they come from its skill settings).

use a2a::wire::AgentCard;

/// The card for a Tutor reachable at `base_url` (`http://127.0.0.1:41241`).
pub fn agent_card(base_url: &str) -> AgentCard {
    specialist::forms::hosting_forms(specialist::identity_card(
        "Tutor Agent",
        "Helps students with calculus: limits, derivatives and integrals.",
        base_url,
    ))
}
