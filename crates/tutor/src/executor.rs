//! Fixed mode: one fixed reply to every chat message, while a tutoring skill is enabled.

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde::Serialize;
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

/// What a reply's telemetry event adds: the skill configuration it was answered under.
#[derive(Serialize)]
struct Revision {
    revision: u64,
}

impl AgentExecutor for Tutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        specialist::log_received(&self.telemetry, &ctx);
        let policy = self.settings.policy();
        let (text, outcome) =
            if policy.is_empty() { (DECLINE_REPLY, "declined") } else { (FIXED_REPLY, "answered") };
        let reply = Reply::text(text);
        specialist::log_reply(
            &self.telemetry,
            &ctx,
            &reply,
            outcome,
            text,
            &Revision { revision: policy.revision },
        );
        Ok(reply)
    }
}
