//! The Tutor's executor: the skill policy first (no tutoring skill enabled → decline),
//! then the [`Answerer`] its mode chose.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde::Serialize;
use skills::Settings;
use telemetry::Telemetry;

use crate::mock::MockTutor;
use crate::mode::Mode;

/// The fixed reply of Part 1 (`TUTOR_MODE=fixed`).
pub const FIXED_REPLY: &str = "Hello Student Agent. Yes, I can help you with calculus.";
/// The reply when no tutoring skill is enabled (checked on every request, so direct
/// A2A calls that bypass the Hub get it too).
pub const DECLINE_REPLY: &str = "Sorry, tutoring is not available right now: no tutoring skill is enabled.";

/// The seam between the policy and whatever writes the answer. A live model plugs in
/// here as a third variant.
#[derive(Debug, Clone)]
pub enum Answerer {
    Fixed,
    Mock(Arc<MockTutor>),
}

impl Answerer {
    pub fn for_mode(mode: Mode) -> Self {
        match mode {
            Mode::Fixed => Answerer::Fixed,
            Mode::Mock => Answerer::Mock(Arc::new(MockTutor::default())),
        }
    }

    fn mode(&self) -> Mode {
        match self {
            Answerer::Fixed => Mode::Fixed,
            Answerer::Mock(_) => Mode::Mock,
        }
    }
}

/// The Tutor.
#[derive(Clone)]
pub struct Tutor {
    settings: Settings,
    telemetry: Telemetry,
    answerer: Answerer,
}

impl Tutor {
    pub fn new(settings: Settings, telemetry: Telemetry, answerer: Answerer) -> Self {
        Self { settings, telemetry, answerer }
    }
}

/// What a reply's telemetry event adds: the skill configuration it was answered under
/// and the mode that wrote it.
#[derive(Serialize)]
struct Details {
    revision: u64,
    mode: &'static str,
}

impl AgentExecutor for Tutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        specialist::log_received(&self.telemetry, &ctx);
        let policy = self.settings.policy();
        let (text, outcome) = if policy.is_empty() {
            (DECLINE_REPLY.to_string(), "declined")
        } else {
            match &self.answerer {
                Answerer::Fixed => (FIXED_REPLY.to_string(), "answered"),
                Answerer::Mock(tutor) => {
                    // parsing and the numerical checks take a little CPU: off the async thread
                    let (tutor, context, question, p) =
                        (tutor.clone(), ctx.context_id.clone(), ctx.text(), policy.clone());
                    let a = tokio::task::spawn_blocking(move || tutor.answer(&context, &question, &p))
                        .await
                        .map_err(|_| RpcError::internal())?;
                    (a.text, a.outcome)
                }
            }
        };
        let reply = Reply::text(&text);
        let details = Details { revision: policy.revision, mode: self.answerer.mode().as_str() };
        specialist::log_reply(&self.telemetry, &ctx, &reply, outcome, &text, &details);
        Ok(reply)
    }
}
