//! The seam an agent implements: one call per incoming message.

use std::collections::HashMap;
use std::future::Future;

use a2a_lf::{Artifact, Message, Part, Task, TaskState, new_message_id};
use serde_json::Value;

use crate::RpcError;

/// Everything an agent learns about one incoming message. The layer has already
/// validated the message, assigned the context id and loaded the task it continues.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The incoming message, with `context_id` filled in.
    pub message: Message,
    /// The conversation this message belongs to (client's, or a new one).
    pub context_id: String,
    /// Whether the layer made `context_id` up because the client named none.
    pub new_context: bool,
    /// The task this message continues, as it stood before this message.
    pub task: Option<Task>,
    /// Extension URIs the client activated in `A2A-Extensions`.
    pub extensions: Vec<String>,
    /// The request's `metadata`.
    pub metadata: Option<HashMap<String, Value>>,
}

impl RequestContext {
    /// All text parts of the message, joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.message.parts.iter().filter_map(|p| p.as_text()).collect();
        texts.join("\n")
    }
}

/// What an agent answers. The layer turns it into a wire Message or Task (ids, roles,
/// timestamps, history) and enforces the task-state rules.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A standalone agent message, outside any task. `message_id` is the id the reply
    /// will carry (made by [`Reply::text`] and friends), so the agent can log it.
    Message {
        message_id: String,
        parts: Vec<Part>,
        metadata: Option<HashMap<String, Value>>,
        /// The context to answer in, when not the request's: only for an answer the agent
        /// gave before (a retry), in the conversation it gave it in.
        context_id: Option<String>,
    },
    /// Start a task, or move the task this message continues to `state`.
    Task {
        message_id: String,
        state: TaskState,
        parts: Vec<Part>,
        artifacts: Vec<Artifact>,
        metadata: Option<HashMap<String, Value>>,
    },
}

impl Reply {
    /// A plain-text agent message.
    pub fn text(text: impl Into<String>) -> Self {
        Reply::Message {
            message_id: new_message_id(),
            parts: vec![Part::text(text).with_media_type("text/plain")],
            metadata: None,
            context_id: None,
        }
    }

    /// A task update with a status message.
    pub fn task(state: TaskState, parts: Vec<Part>) -> Self {
        Reply::Task { message_id: new_message_id(), state, parts, artifacts: Vec::new(), metadata: None }
    }

    /// The id the reply's message will carry.
    pub fn message_id(&self) -> &str {
        match self {
            Reply::Message { message_id, .. } | Reply::Task { message_id, .. } => message_id,
        }
    }
}

/// An agent. Implementations must be cheap to share: the layer holds one in an `Arc`.
pub trait AgentExecutor: Send + Sync + 'static {
    /// Handles one message. An `Err` is answered as that JSON-RPC error.
    fn execute(&self, ctx: RequestContext) -> impl Future<Output = Result<Reply, RpcError>> + Send;

    /// Told after the layer has moved a task to canceled.
    fn canceled(&self, _task: &Task) -> impl Future<Output = ()> + Send {
        async {}
    }
}
