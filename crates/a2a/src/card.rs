//! An Agent Card prepared for serving: its bytes, a content-hash ETag, the media types
//! it accepts and when its content last changed, computed once.

use std::time::SystemTime;

use a2a_lf::{AgentCard, AgentCardSignature, AgentInterface};
use axum::body::Bytes;
use sha2::{Digest, Sha256};

use crate::media::Accepts;

/// The binding name of the JSON-RPC interface in `supportedInterfaces`.
pub const JSONRPC_BINDING: &str = "JSONRPC";
/// The protocol version we declare and look for.
pub const PROTOCOL_VERSION: &str = "1.0";

/// Signs each version of a card an agent serves (its `signatures`, A2A 1.0).
pub type CardSigner = std::sync::Arc<dyn Fn(&AgentCard) -> AgentCardSignature + Send + Sync>;

/// A card with its serialized form and strong ETag. Keys are serialized in sorted
/// order, so the same card always has the same bytes and the same ETag.
#[derive(Debug, Clone)]
pub struct CardDoc {
    pub card: AgentCard,
    pub json: Bytes,
    pub etag: String,
    /// The input media types the card declares (defaults and skills').
    pub accepts: Accepts,
    /// When this content was first served; kept when an identical card replaces it
    /// (see `CardCell::set`). Sent as `Last-Modified` (whole seconds).
    pub modified: SystemTime,
    /// Whether another version of the card was served within the same second: then
    /// `If-Modified-Since` cannot tell the two apart and is answered in full.
    pub(crate) shares_its_second: bool,
}

impl CardDoc {
    /// `card` signed by `signer` (whatever signatures it had are replaced), when given.
    pub fn signed(mut card: AgentCard, signer: Option<&CardSigner>) -> Self {
        if let Some(sign) = signer {
            card.signatures = None;
            card.signatures = Some(vec![sign(&card)]);
        }
        Self::new(card)
    }

    pub fn new(card: AgentCard) -> Self {
        // Through Value: its map is ordered, the card's HashMaps are not.
        let value = serde_json::to_value(&card).expect("an agent card always serializes");
        let json = Bytes::from(serde_json::to_vec(&value).expect("a json value always serializes"));
        let digest = Sha256::digest(&json);
        let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        let accepts = Accepts::from_card(&card);
        Self {
            card,
            json,
            etag: format!("\"{hex}\""),
            accepts,
            modified: SystemTime::now(),
            shares_its_second: false,
        }
    }

    /// `Last-Modified`: the time the content last changed, as an HTTP-date.
    pub fn last_modified(&self) -> String {
        httpdate::fmt_http_date(self.modified)
    }

    /// Whether an `If-Modified-Since` value says the client's copy is current. HTTP-dates
    /// have whole seconds, so a card that replaced another within its second is never
    /// "not modified" in that second; `If-None-Match` (exact) is the better validator and
    /// takes precedence when a client sends both.
    pub fn not_modified_since(&self, if_modified_since: &str) -> bool {
        let Ok(since) = httpdate::parse_http_date(if_modified_since.trim()) else { return false };
        let (modified, since) = (unix_secs(self.modified), unix_secs(since));
        modified < since || (modified == since && !self.shares_its_second)
    }

    /// This card as the successor of `previous`: an identical card keeps its time.
    pub(crate) fn succeeding(mut self, previous: &CardDoc) -> Self {
        if self.etag == previous.etag {
            self.modified = previous.modified;
            self.shares_its_second = previous.shares_its_second;
        } else {
            self.shares_its_second = unix_secs(self.modified) <= unix_secs(previous.modified);
        }
        self
    }

    /// Whether an `If-None-Match` header value matches this card (`*`, a list, weak tags).
    pub fn matches(&self, if_none_match: &str) -> bool {
        if_none_match
            .split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == self.etag)
    }
}

fn unix_secs(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// A text-in, text-out card for an agent at `base_url` with one JSON-RPC 1.0 interface
/// and nothing else; callers add skills, capabilities and provider.
pub fn basic_card(name: &str, description: &str, base_url: &str) -> AgentCard {
    AgentCard {
        name: name.into(),
        description: description.into(),
        version: "1.0.0".into(),
        supported_interfaces: vec![AgentInterface::new(
            format!("{}{}", base_url.trim_end_matches('/'), crate::JSONRPC_PATH),
            JSONRPC_BINDING,
        )],
        capabilities: a2a_lf::AgentCapabilities {
            streaming: Some(false),
            push_notifications: Some(false),
            extensions: None,
            extended_agent_card: None,
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![],
        provider: None,
        documentation_url: None,
        icon_url: None,
        security_schemes: None,
        security_requirements: None,
        signatures: None,
    }
}

/// The card's JSON-RPC 1.0 interface, if it declares one.
pub fn jsonrpc_interface(card: &AgentCard) -> Option<&AgentInterface> {
    card.supported_interfaces.iter().find(|i| {
        i.protocol_binding.eq_ignore_ascii_case(JSONRPC_BINDING)
            && crate::headers::version_supported(&i.protocol_version)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(name: &str) -> AgentCard {
        basic_card(name, "d", "http://127.0.0.1:1")
    }

    #[test]
    fn etag_is_a_content_hash() {
        let a = CardDoc::new(card("a"));
        assert_eq!(a.etag, CardDoc::new(card("a")).etag);
        assert_ne!(a.etag, CardDoc::new(card("b")).etag);
        assert!(a.matches(&a.etag));
        assert!(a.matches(&format!("\"x\", W/{}", a.etag)));
        assert!(a.matches("*"));
        assert!(!a.matches("\"x\""));
    }

    #[test]
    fn last_modified_is_an_http_date_and_answers_if_modified_since() {
        let a = CardDoc::new(card("a"));
        let lm = a.last_modified();
        assert!(lm.ends_with(" GMT") && lm.len() == 29, "{lm}");
        assert!(a.not_modified_since(&lm));
        assert!(!a.not_modified_since("Sun, 06 Nov 1994 08:49:37 GMT"));
        assert!(!a.not_modified_since("yesterday"));
        // a change within the same second: that second no longer proves anything
        let mut b = CardDoc::new(card("b"));
        b.modified = a.modified;
        let b = b.succeeding(&a);
        assert_eq!(b.last_modified(), lm);
        assert!(!b.not_modified_since(&lm));
        let same = CardDoc::new(card("a")).succeeding(&a);
        assert_eq!(same.modified, a.modified, "identical content keeps its time");
    }

    #[test]
    fn finds_the_jsonrpc_interface() {
        let mut c = card("a");
        assert!(jsonrpc_interface(&c).is_some());
        c.supported_interfaces[0].protocol_version = "0.3".into();
        assert!(jsonrpc_interface(&c).is_none());
    }
}
