//! The Student agent. For now it talks to one agent (the Tutor) by its base URL; once
//! the Hub exists it talks only to the Hub. It never calls another agent's code: every
//! exchange is an A2A message.

use a2a::client::{A2aClient, ClientError};
use a2a::wire::{Message, Part, Role, SendMessageResponse, new_message_id};

/// Where the Tutor is unless `TUTOR_URL` says otherwise.
pub const DEFAULT_TUTOR_URL: &str = "http://127.0.0.1:41241";
/// The Part 1 question.
pub const DEFAULT_QUESTION: &str = "Hello Tutor Agent. Can you help me with calculus?";

/// One question and its answer, with the ids that trace it through both processes' logs.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The answering agent's name, from its card.
    pub agent: String,
    /// The JSON-RPC endpoint the card named.
    pub endpoint: String,
    pub sent_message_id: String,
    pub reply_message_id: String,
    pub context_id: String,
    /// The reply's text parts, joined by newlines.
    pub reply_text: String,
    /// When the agent answered with a task: its id and state (`TASK_STATE_…`). The reply
    /// message id is empty when the task's answer came only in artifacts.
    pub task: Option<(String, String)>,
}

/// Discovers the agent at `base_url` from its card and asks `text`, continuing
/// `context_id` when given.
pub async fn ask(
    client: &A2aClient,
    base_url: &str,
    text: &str,
    context_id: Option<String>,
) -> Result<Exchange, ClientError> {
    let agent = client.connect(base_url).await?;
    let message = Message {
        message_id: new_message_id(),
        context_id,
        task_id: None,
        role: Role::User,
        parts: vec![Part::text(text).with_media_type("text/plain")],
        metadata: None,
        extensions: None,
        reference_task_ids: None,
    };
    let sent_message_id = message.message_id.clone();
    tracing::info!(message_id = %sent_message_id, context_id = message.context_id.as_deref().unwrap_or("(new)"), agent = %agent.card.name, "sending message");
    let response = agent.send_message(message, &[]).await?;
    let (reply_message_id, reply_context, parts, task) = match response {
        SendMessageResponse::Message(m) => (m.message_id, m.context_id, m.parts, None),
        SendMessageResponse::Task(t) => {
            let state = state_name(&t.status.state);
            // The answer is in the status message, or (a common SDK pattern) in artifacts.
            let (id, parts) = match t.status.message {
                Some(m) if !m.parts.is_empty() => (m.message_id, m.parts),
                _ => {
                    let parts: Vec<_> =
                        t.artifacts.unwrap_or_default().into_iter().flat_map(|a| a.parts).collect();
                    (String::new(), parts)
                }
            };
            (id, Some(t.context_id.clone()), parts, Some((t.id, state)))
        }
    };
    let context_id = reply_context.ok_or_else(|| ClientError::InvalidResponse {
        url: agent.endpoint.clone(),
        reason: "the reply has no contextId".into(),
    })?;
    let reply_text: Vec<&str> = parts.iter().filter_map(|p| p.as_text()).collect();
    tracing::info!(message_id = %reply_message_id, in_reply_to = %sent_message_id, context_id = %context_id, "received reply");
    Ok(Exchange {
        agent: agent.card.name.clone(),
        endpoint: agent.endpoint.clone(),
        sent_message_id,
        reply_message_id,
        context_id,
        reply_text: reply_text.join("\n"),
        task,
    })
}

fn state_name(state: &a2a::wire::TaskState) -> String {
    serde_json::to_value(state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
