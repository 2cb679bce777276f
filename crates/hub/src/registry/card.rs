//! A specialist's Agent Card as the registry takes it: checked against the allowlist
//! entry before anything is built from it, and what a fetch came to.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a::client::{A2aClient, AgentHandle, CardFetch, ClientError};
use a2a::wire::AgentCard;

use crate::config::SpecialistConf;
use crate::view::{SkillIndex, index};

/// Why a fetched card was refused (shown as the registry's `cardError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardProblem {
    #[error("card name {found:?} is not the expected {expected:?}")]
    Name { found: String, expected: String },
    #[error("expected exactly one JSONRPC interface, found {0}")]
    Interfaces(usize),
    #[error("the JSONRPC interface is not protocol version 1.0")]
    Version,
    #[error("the JSONRPC interface is not at the configured endpoint")]
    Endpoint,
    #[error("the card declares security this hub does not expect")]
    Security,
    #[error("{0}")]
    Signature(keys::CardSignatureError),
    #[error("no key is known for this specialist yet (it has not registered)")]
    NoKey,
    #[error("{0}")]
    Unusable(String),
}

impl CardProblem {
    /// A stable code for each problem.
    pub fn code(&self) -> &'static str {
        match self {
            CardProblem::Name { .. } => "card_name_mismatch",
            CardProblem::Interfaces(_) => "card_interfaces",
            CardProblem::Version => "card_version",
            CardProblem::Endpoint => "card_endpoint_mismatch",
            CardProblem::Security => "card_security_unexpected",
            CardProblem::Signature(e) => e.code(),
            CardProblem::NoKey => "card_no_key",
            CardProblem::Unusable(_) => "card_unusable",
        }
    }
}

pub(super) fn same_url(a: &str, b: &str) -> bool {
    a.trim_end_matches('/').eq_ignore_ascii_case(b.trim_end_matches('/'))
}

/// Checks a fetched card against the allowlist entry: expected name, exactly one
/// JSON-RPC 1.0 interface at the configured endpoint, no security we did not expect.
pub fn validate_card(conf: &SpecialistConf, card: &AgentCard) -> Result<(), CardProblem> {
    if card.name != conf.card_name {
        return Err(CardProblem::Name { found: card.name.clone(), expected: conf.card_name.clone() });
    }
    let jsonrpc: Vec<_> = card
        .supported_interfaces
        .iter()
        .filter(|i| i.protocol_binding.eq_ignore_ascii_case("JSONRPC"))
        .collect();
    if jsonrpc.len() != 1 {
        return Err(CardProblem::Interfaces(jsonrpc.len()));
    }
    if !a2a::headers::version_supported(&jsonrpc[0].protocol_version) {
        return Err(CardProblem::Version);
    }
    let expected = format!("{}{}", conf.endpoint.trim_end_matches('/'), a2a::JSONRPC_PATH);
    if !same_url(&jsonrpc[0].url, &expected) {
        return Err(CardProblem::Endpoint);
    }
    let has_security = card.security_schemes.as_ref().is_some_and(|s| !s.is_empty())
        || card.security_requirements.as_ref().is_some_and(|s| !s.is_empty());
    if has_security {
        return Err(CardProblem::Security);
    }
    Ok(())
}

/// A card that passed [`validate_card`], with what is built from it once.
#[derive(Debug, Clone)]
pub(crate) struct GoodCard {
    pub(crate) card: AgentCard,
    /// The router's view of its skills.
    pub(crate) index: Arc<Vec<SkillIndex>>,
    /// The client handle for its interface.
    pub(crate) handle: Arc<AgentHandle>,
    pub(crate) etag: Option<String>,
    /// Unix ms of the last successful fetch (200 or 304).
    pub(crate) fetched_at: u64,
}

/// What one card fetch came to, as the `card_fetched` event reports it.
pub use vocab::events::CardOutcome;

/// A fetch's result, read: a new good card, the old one confirmed, or why neither.
pub(super) enum Fetched {
    NotModified,
    Fresh(Box<GoodCard>),
    Invalid(CardProblem),
    Failed(ClientError),
}

impl Fetched {
    pub(super) fn outcome(&self) -> CardOutcome {
        match self {
            Fetched::NotModified => CardOutcome::NotModified,
            Fetched::Fresh(_) => CardOutcome::Updated,
            Fetched::Invalid(_) => CardOutcome::Invalid,
            Fetched::Failed(_) => CardOutcome::Failed,
        }
    }
}

pub(super) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// Reads a fetch of `conf`'s card: a fresh card is validated, its signature checked
/// against the specialist's pinned `key`, and its index and handle built; anything else
/// is said as it is.
pub(super) fn read(
    client: &A2aClient,
    conf: &SpecialistConf,
    key: Option<&keys::PublicKey>,
    fetched: Result<CardFetch, ClientError>,
) -> Fetched {
    match fetched {
        Ok(CardFetch::NotModified) => Fetched::NotModified,
        Ok(CardFetch::Fresh { card, etag }) => {
            if let Err(problem) = validate_card(conf, &card) {
                return Fetched::Invalid(problem);
            }
            let Some(key) = key else { return Fetched::Invalid(CardProblem::NoKey) };
            if let Err(e) = keys::verify_card(&card, key) {
                return Fetched::Invalid(CardProblem::Signature(e));
            }
            match AgentHandle::from_card(client.clone(), &conf.endpoint, (*card).clone(), etag.clone()) {
                Ok(handle) => Fetched::Fresh(Box::new(GoodCard {
                    index: Arc::new(index(&card.skills)),
                    card: *card,
                    etag,
                    fetched_at: now_ms(),
                    handle: Arc::new(handle),
                })),
                Err(e) => Fetched::Invalid(CardProblem::Unusable(e.to_string())),
            }
        }
        Err(err) => Fetched::Failed(err),
    }
}

/// The configuration revision from a card's scope extension, when it has one.
pub(crate) fn scope_revision(card: &AgentCard) -> Option<u64> {
    card.capabilities
        .extensions
        .as_ref()?
        .iter()
        .find(|e| e.uri.contains("skill-scope"))?
        .params
        .as_ref()?
        .get("revision")?
        .as_u64()
}
