//! A2UI v0.9 for Campus: the official JSON Schemas (vendored from `@a2ui/web_core`
//! 0.11.0, see `schemas/SOURCE.md`) and validation against them ([`validate_server_message`],
//! [`validate_client_message`]), the Student's allowlist ([`check_payload`],
//! [`check_update`], [`check_action`] under a [`Policy`]), A2UI over A2A 1.0 ([`part`]) and
//! a surface's structure for an inspector, its words redacted ([`inspect::structure`]).
//!
//! This crate knows no agent: which workflow, which form, which actions a form takes are
//! its callers' business.

mod allowlist;
pub mod inspect;
pub mod part;
mod schema;

use serde_json::{Map, Value};

pub use allowlist::{
    ActionRule, ClientAction, FIXED_FORM_COMPONENTS, FIXED_FORM_FUNCTIONS, GENERATED_COMPONENTS,
    GENERATED_FUNCTIONS, MAX_PAYLOAD_BYTES, Policy, Refusal, RefusalCode, SurfaceInfo, UpdateInfo,
    check_action, check_payload, check_update,
};
pub use schema::{
    MAX_ISSUES, SchemaError, SchemaIssue, basic_catalog, validate_client_capabilities,
    validate_client_message, validate_server_message, validate_server_messages,
};

/// The protocol version every message carries.
pub const VERSION: &str = "v0.9";
/// The basic catalog's id.
pub const BASIC_CATALOG_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The A2A extension URI (card `capabilities.extensions[].uri`, `A2A-Extensions` header).
pub const EXTENSION_URI: &str = "https://a2ui.org/a2a-extension/a2ui/v0.9";
/// The media type of an A2A part carrying A2UI messages.
pub const MEDIA_TYPE: &str = "application/a2ui+json";

/// The four server→client message kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `createSurface`
    CreateSurface,
    /// `updateComponents`
    UpdateComponents,
    /// `updateDataModel`
    UpdateDataModel,
    /// `deleteSurface`
    DeleteSurface,
}

impl Kind {
    const ALL: [Kind; 4] =
        [Kind::CreateSurface, Kind::UpdateComponents, Kind::UpdateDataModel, Kind::DeleteSurface];

    /// The message's key for this kind.
    pub const fn key(self) -> &'static str {
        match self {
            Kind::CreateSurface => "createSurface",
            Kind::UpdateComponents => "updateComponents",
            Kind::UpdateDataModel => "updateDataModel",
            Kind::DeleteSurface => "deleteSurface",
        }
    }
}

/// A server→client message's kind and body, when it has exactly one kind's key with an
/// object under it (otherwise the schema will refuse it).
pub fn message_kind(message: &Value) -> Option<(Kind, &Map<String, Value>)> {
    let mut found = Kind::ALL.iter().filter_map(|k| Some((*k, message.get(k.key())?.as_object()?)));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}
