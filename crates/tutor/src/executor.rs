//! Fixed mode: one fixed reply to every chat message, while a tutoring skill is enabled.

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde_json::json;
use skills::Settings;
use telemetry::Telemetry;

/// The fixed reply of Part 1.
pub const FIXED_REPLY: &str = "Hello Student Agent. Yes, I can help you with calculus.";
/// The reply when no tutoring skill is enabled (checked on every request, so direct
/// A2A calls that bypass the Hub get it too).
pub const DECLINE_REPLY: &str = "Sorry, tutoring is not available right now: no tutoring skill is enabled.";

/// The Tutor in fixed mode.
#[derive(Clone)]
pub struct Tutor {
    settings: Settings,
    telemetry: Telemetry,
}

impl Tutor {
    pub fn new(settings: Settings, telemetry: Telemetry) -> Self {
        Self { settings, telemetry }
    }
}

impl AgentExecutor for Tutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        tracing::info!(message_id = %ctx.message.message_id, context_id = %ctx.context_id, "received message");
        self.telemetry.record(
            "message_received",
            json!({"messageId": ctx.message.message_id, "contextId": ctx.context_id, "text": ctx.text()}),
        );
        let policy = self.settings.policy();
        let (text, outcome) =
            if policy.is_empty() { (DECLINE_REPLY, "declined") } else { (FIXED_REPLY, "answered") };
        let reply = Reply::text(text);
        tracing::info!(
            message_id = %reply.message_id(),
            in_reply_to = %ctx.message.message_id,
            context_id = %ctx.context_id,
            outcome,
            "publishing reply"
        );
        self.telemetry.record(
            "reply_published",
            json!({"messageId": reply.message_id(), "contextId": ctx.context_id, "outcome": outcome,
                   "revision": policy.revision, "text": text}),
        );
        Ok(reply)
    }
}
