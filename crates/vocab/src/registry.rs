//! The Hub's developer view of its registry (`GET /dev/registry`): the Hub's own mode and
//! model, and every allowlisted specialist's status, card and heartbeat age. No URL and
//! no key ever appears in it.

use serde::{Deserialize, Serialize};

/// A specialist's state, as the router and the developer view see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ready,
    /// Heartbeats stopped.
    Stale,
    /// Registered, but the last call to it could not connect.
    Unreachable,
    /// Never registered, or signed out.
    Disconnected,
    Disabled,
    /// Registered, but no valid card yet (the last fetch failed validation or is pending).
    InvalidCard,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Ready,
        Status::Stale,
        Status::Unreachable,
        Status::Disconnected,
        Status::Disabled,
        Status::InvalidCard,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::Stale => "stale",
            Status::Unreachable => "unreachable",
            Status::Disconnected => "disconnected",
            Status::Disabled => "disabled",
            Status::InvalidCard => "invalid_card",
        }
    }
}

/// `GET /dev/registry`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegistryView {
    pub hub: HubInfo,
    pub specialists: Vec<SpecialistEntry>,
}

/// The Hub's router as it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HubInfo {
    pub name: String,
    /// The router's mode (`classifier`, `mock`, `live`, …).
    pub mode: String,
    /// The live router's model, in the modes that call one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Whether its key is set (`configured`, `NOT SET`), never the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// One allowlisted specialist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecialistEntry {
    pub id: String,
    /// The public capability it serves.
    pub capability: String,
    pub status: Status,
    /// Its live instance, when one is registered.
    pub instance_id: Option<String>,
    /// How it answers and the model it asks, as its registration said.
    pub mode: Option<String>,
    pub model: Option<String>,
    pub heartbeat_age_ms: Option<u64>,
    pub card_etag: Option<String>,
    pub card_revision: Option<u64>,
    /// Unix ms of the last successful card fetch.
    pub card_fetched_at: Option<u64>,
    /// Why the last card fetch was refused or failed.
    pub card_error: Option<String>,
    pub refreshes: u64,
    /// The skill ids on its accepted card.
    pub skills: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_the_wire_names() {
        for s in Status::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!(s.as_str()));
        }
    }
}
