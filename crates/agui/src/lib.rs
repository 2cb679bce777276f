//! AG-UI 1.0 between the browser and the UI server: the events Campus emits and accepts
//! (own serde types, checked against `@ag-ui/core` 1.0's schemas by `interop/agui`),
//! [`RunAgentInput`], SSE framing ([`sse`]) and [`Verifier`], the run-order rules of
//! `@ag-ui/client`'s `verifyEvents` for the events here.
//!
//! Knows nothing about agents or the page's channels.

mod events;
mod input;
pub mod sse;
mod verify;

pub use events::{
    ActivityDelta, ActivitySnapshot, Custom, Event, Role, RunError, RunFinished, RunStarted, StateDelta,
    StateSnapshot, TextMessageContent, TextMessageEnd, TextMessageStart, patch,
};
pub use input::{InputMessage, RunAgentInput};
pub use verify::{Verifier, VerifyError};
