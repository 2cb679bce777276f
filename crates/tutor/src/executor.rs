//! Fixed mode: one fixed reply to every chat message.

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};

/// The fixed reply of Part 1.
pub const FIXED_REPLY: &str = "Hello Student Agent. Yes, I can help you with calculus.";

/// The Tutor in fixed mode.
#[derive(Debug, Clone, Copy, Default)]
pub struct FixedTutor;

impl AgentExecutor for FixedTutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        tracing::info!(message_id = %ctx.message.message_id, context_id = %ctx.context_id, "received message");
        let reply = Reply::text(FIXED_REPLY);
        tracing::info!(
            message_id = %reply.message_id(),
            in_reply_to = %ctx.message.message_id,
            context_id = %ctx.context_id,
            "publishing reply"
        );
        Ok(reply)
    }
}
