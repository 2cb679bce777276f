//! A2UI over A2A 1.0: the data part that carries a payload, the client capabilities the
//! Student puts in message metadata, and the extension a card declares.
//!
//! A2A 1.0 types a part with `mediaType`; the A2UI extension's examples (written for
//! A2A v0.3) put `metadata.mimeType` instead. Parts made here carry both; parts read here
//! may carry either.

use std::collections::HashMap;

use a2a::wire::{AgentExtension, Part, PartContent};
use serde_json::{Value, json};

use crate::{BASIC_CATALOG_ID, EXTENSION_URI, MEDIA_TYPE, VERSION};

/// The metadata key of the v0.3-style media type.
pub const MIME_TYPE_KEY: &str = "mimeType";
/// The message metadata key of the client's capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "a2uiClientCapabilities";

/// Why a part that says it is A2UI could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartError {
    /// Typed `application/a2ui+json` but not a data part.
    #[error("an a2ui part must be a data part")]
    NotData,
    /// Its data is neither a list of message objects nor one message object.
    #[error("an a2ui part must carry a list of message objects")]
    NotMessages,
}

impl PartError {
    /// The stable code callers report.
    pub fn code(&self) -> &'static str {
        match self {
            PartError::NotData => "a2ui_part_not_data",
            PartError::NotMessages => "a2ui_part_not_messages",
        }
    }
}

/// A data part carrying `messages` as one JSON array, typed both ways.
pub fn data_part(messages: Vec<Value>) -> Part {
    let mut part = Part::data(Value::Array(messages)).with_media_type(MEDIA_TYPE);
    part.metadata = Some(HashMap::from([(MIME_TYPE_KEY.to_string(), Value::from(MEDIA_TYPE))]));
    part
}

/// Whether a part says it is A2UI, by `mediaType` or by `metadata.mimeType`.
pub fn is_a2ui_part(part: &Part) -> bool {
    let by_metadata = || {
        part.metadata.as_ref().and_then(|m| m.get(MIME_TYPE_KEY)).and_then(Value::as_str) == Some(MEDIA_TYPE)
    };
    part.media_type.as_deref() == Some(MEDIA_TYPE) || by_metadata()
}

/// The messages of an A2UI part: `None` for a part that is not A2UI, else its data as a
/// list (a single message object, as in the extension's examples, is a list of one).
/// The messages are not checked here: see [`crate::check_payload`].
pub fn read_part(part: &Part) -> Option<Result<Vec<Value>, PartError>> {
    if !is_a2ui_part(part) {
        return None;
    }
    let PartContent::Data(data) = &part.content else {
        return Some(Err(PartError::NotData));
    };
    Some(match data {
        Value::Array(items) if items.iter().all(Value::is_object) => Ok(items.clone()),
        Value::Object(_) => Ok(vec![data.clone()]),
        _ => Err(PartError::NotMessages),
    })
}

/// The A2UI messages of every A2UI part in `parts`, in order; the first unreadable
/// A2UI part is an error.
pub fn read_parts(parts: &[Part]) -> Result<Vec<Value>, PartError> {
    let mut out = Vec::new();
    for read in parts.iter().filter_map(read_part) {
        out.extend(read?);
    }
    Ok(out)
}

/// The client capabilities object (`client_capabilities.json`): v0.9, these catalogs.
pub fn client_capabilities(catalog_ids: &[&str]) -> Value {
    json!({ VERSION: { "supportedCatalogIds": catalog_ids } })
}

/// Message metadata announcing the Student's renderer: the basic catalog only.
pub fn client_metadata() -> HashMap<String, Value> {
    HashMap::from([(CLIENT_CAPABILITIES_KEY.to_string(), client_capabilities(&[BASIC_CATALOG_ID]))])
}

/// Whether message metadata says the client renders `catalog_id` in v0.9.
pub fn client_supports(metadata: Option<&HashMap<String, Value>>, catalog_id: &str) -> bool {
    metadata
        .and_then(|m| m.get(CLIENT_CAPABILITIES_KEY))
        .and_then(|c| c.get(VERSION))
        .and_then(|v| v.get("supportedCatalogIds"))
        .and_then(Value::as_array)
        .is_some_and(|ids| ids.iter().any(|id| id.as_str() == Some(catalog_id)))
}

/// The extension entry of an Agent Card: A2UI v0.9 with these catalogs, not required.
pub fn agent_extension(catalog_ids: &[&str]) -> AgentExtension {
    AgentExtension {
        uri: EXTENSION_URI.to_string(),
        description: Some("A2UI v0.9 surfaces in application/a2ui+json data parts".to_string()),
        required: Some(false),
        params: Some(HashMap::from([("supportedCatalogIds".to_string(), json!(catalog_ids))])),
    }
}

/// Whether an `A2A-Extensions` header's URIs activate A2UI v0.9.
pub fn extension_requested(uris: &[String]) -> bool {
    uris.iter().any(|u| u == EXTENSION_URI)
}
