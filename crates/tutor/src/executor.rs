//! The Tutor's executor: the skill policy first (no tutoring skill enabled → decline),
//! then the [`Answerer`] its mode chose.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde::Serialize;
use skills::Settings;
use specialist::forms::{Chat, FormHost, Outcome, skill_enabled};
use telemetry::Telemetry;

use crate::form;

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
    host: FormHost,
}

impl Tutor {
    pub fn new(settings: Settings, telemetry: Telemetry, answerer: Answerer, host: FormHost) -> Self {
        Self { settings, telemetry, answerer, host }
    }

    /// A form action: the host's checks, then the tutoring handler once.
    async fn act(&self, ctx: &RequestContext) -> Result<Reply, RpcError> {
        let settings = self.settings.clone();
        let enabled = move |w: &str| skill_enabled(&settings.policy(), w);
        let outcome = self.host.act(ctx, &form::WORKFLOWS, enabled, form::buttons, form::handle).await?;
        Ok(self.publish(ctx, &outcome))
    }

    fn publish(&self, ctx: &RequestContext, outcome: &Outcome) -> Reply {
        let reply = outcome.reply();
        let details = serde_json::json!({"formId": outcome.form_id, "workflow": outcome.workflow,
                                          "version": outcome.version, "mode": self.answerer.mode().as_str()});
        let state = serde_json::to_value(outcome.state).ok();
        let state = state.as_ref().and_then(|s| s.as_str()).unwrap_or("form");
        specialist::log_reply(
            &self.telemetry,
            ctx,
            &reply,
            &format!("form_{state}"),
            &outcome.text,
            &details,
        );
        reply
    }

    /// A chat message that may get the form, a clarifying question or a decline: `None`
    /// when it is a question to answer.
    async fn maybe_form(&self, ctx: &RequestContext) -> Option<Reply> {
        let policy = self.settings.policy();
        let read = self.host.read_chat(ctx, forms::Workflow::Tutoring, &policy, &form::TEXTS).await;
        let meta = read.metadata();
        let say = |text: &str, outcome: &str| {
            let reply = specialist::live::with_metadata(Reply::text(text), meta.clone());
            specialist::log_reply(&self.telemetry, ctx, &reply, outcome, text, &meta);
            reply
        };
        let choice = match read.chat {
            Chat::Question => return None,
            Chat::Say(text, outcome) => return Some(say(text, outcome)),
            Chat::Failed(e) => {
                return Some(say(&specialist::live::error_text("The Tutor", &e), "model_error"));
            }
            Chat::Offer(choice) => choice,
        };
        Some(match form::offer(&self.host, ctx, choice).await {
            Ok(outcome) => specialist::live::with_metadata(self.publish(ctx, &outcome), meta),
            Err(text) => say(&text, "form_asked_continue"),
        })
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
        if FormHost::is_action(&ctx) {
            return self.act(&ctx).await;
        }
        if let Some(reply) = self.maybe_form(&ctx).await {
            return Ok(reply);
        }
        let policy = self.settings.policy();
        // the tutoring-request form is no tutoring skill: with only it enabled, decline
        let (text, outcome) = if policy.skills.iter().all(|s| s.id == form::WORKFLOW) {
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
