//! A2A 1.0 over the JSON-RPC binding.
//!
//! Wire types come from the official `a2a-lf` crate (re-exported as [`wire`]); the
//! JSON-RPC server (axum) and client (reqwest) are ours, because the official server
//! and client crates pull a gRPC stack Campus does not use.
//!
//! - [`server`]: Agent Card serving (ETag, Last-Modified, 304, a short max-age), the
//!   JSON-RPC endpoint with every error path, the [`server::AgentExecutor`] seam and the
//!   in-memory task store. Every message part's media type is checked against the
//!   served card (-32005); params accept proto field names besides JSON names.
//! - [`client`]: card discovery (size-capped, no redirects, conditional) and typed calls.
//!
//! This crate knows nothing about agents: no tutor, hub or student logic lives here.

pub mod client;
pub mod error;
pub mod headers;
pub mod server;

mod body;
mod card;
mod jsonrpc;
mod media;
mod names;
mod params;

pub use a2a_lf as wire;
pub use card::{CardDoc, CardSigner, JSONRPC_BINDING, PROTOCOL_VERSION, basic_card, jsonrpc_interface};
pub use error::RpcError;
pub use jsonrpc::{RpcMethod, parse_envelope};
pub use media::{Accepts, part_media_type};

/// Path of the public Agent Card.
pub const CARD_PATH: &str = "/.well-known/agent-card.json";
/// Path of the JSON-RPC endpoint (also served with a trailing slash).
pub const JSONRPC_PATH: &str = "/a2a/jsonrpc";
/// Default limit for a request or response body.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;
