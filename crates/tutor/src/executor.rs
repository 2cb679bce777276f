//! The Tutor's executor: the skill policy first (no tutoring skill enabled → decline),
//! then the [`Answerer`] its mode chose.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde::Serialize;
use skills::Settings;
use specialist::forms::{FormHost, Front, skill_enabled};
use telemetry::Telemetry;
use vocab::meta::REQUEST_ID_KEY;

use crate::form;

use crate::live::{Ask, LiveConfig, LiveTutor};
use crate::mock::MockTutor;
use crate::mode::Mode;

/// The fixed reply of Part 1 (`TUTOR_MODE=fixed`).
pub const FIXED_REPLY: &str = "Hello Student Agent. Yes, I can help you with calculus.";
/// The reply when no tutoring skill is enabled (checked on every request, so direct
/// A2A calls that bypass the Hub get it too).
pub const DECLINE_REPLY: &str = "Sorry, tutoring is not available right now: no tutoring skill is enabled.";

/// The seam between the policy and whatever writes the answer.
#[derive(Clone)]
pub enum Answerer {
    Fixed,
    Mock(Arc<MockTutor>),
    Live(Arc<LiveTutor>),
}

impl Answerer {
    /// The answerer of an offline mode; `None` for `live` (see [`Answerer::live`]).
    pub fn for_mode(mode: Mode) -> Option<Self> {
        match mode {
            Mode::Fixed => Some(Answerer::Fixed),
            Mode::Mock => Some(Answerer::Mock(Arc::new(MockTutor::default()))),
            Mode::Live => None,
        }
    }

    pub fn live(config: LiveConfig) -> Self {
        Answerer::Live(Arc::new(LiveTutor::new(config)))
    }

    /// The model a live answerer asks; `None` in the offline modes.
    pub fn model(&self) -> Option<&'static str> {
        match self {
            Answerer::Live(live) => Some(live.model().id()),
            _ => None,
        }
    }

    pub fn mode(&self) -> Mode {
        match self {
            Answerer::Fixed => Mode::Fixed,
            Answerer::Mock(_) => Mode::Mock,
            Answerer::Live(_) => Mode::Live,
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
        Ok(self.host.publish(&self.front(), ctx, &outcome))
    }

    /// The form front: the Tutor's feed, workflow, words and mode.
    fn front(&self) -> Front<'_> {
        Front {
            telemetry: &self.telemetry,
            workflow: forms::Workflow::Tutoring,
            texts: &form::TEXTS,
            who: "The Tutor",
            mode: self.answerer.mode().as_str(),
        }
    }

    /// A chat message that may get the form, a clarifying question or a decline: `None`
    /// when it is a question to answer.
    async fn maybe_form(&self, ctx: &RequestContext) -> Option<Reply> {
        let policy = self.settings.policy();
        let offer = |choice| form::offer(&self.host, ctx, choice);
        self.host.answer_chat(&self.front(), ctx, &policy, offer).await.ok()
    }
}

/// What a reply's telemetry event adds: the skill configuration it was answered under
/// and the mode that wrote it.
#[derive(Serialize)]
struct Details {
    revision: u64,
    mode: &'static str,
}

impl Tutor {
    /// A question for the live model: the reply carries the answer's metadata (mode,
    /// model, latency, usage, the provider's request ids, `tutorError`).
    async fn live(&self, live: &Arc<LiveTutor>, ctx: &RequestContext) -> Reply {
        let ask = Ask {
            context_id: ctx.context_id.clone(),
            new_context: ctx.new_context,
            request_id: request_id(ctx),
            question: ctx.text(),
        };
        let answer = live.ask(ask, self.settings.clone()).await;
        let reply = Reply::Message {
            message_id: a2a::wire::new_message_id(),
            parts: vec![a2a::wire::Part::text(&answer.text).with_media_type("text/plain")],
            metadata: Some(answer.metadata.clone().into_iter().collect()),
            context_id: (answer.context_id != ctx.context_id).then(|| answer.context_id.clone()),
        };
        let mut details = answer.metadata;
        details.insert("revision".into(), serde_json::json!(self.settings.policy().revision));
        specialist::log_reply(&self.telemetry, ctx, &reply, answer.outcome, &answer.text, &details);
        reply
    }
}

/// The asker's `requestId` (request or message metadata), else the message id: what
/// makes a repeat the same request.
fn request_id(ctx: &RequestContext) -> String {
    let given = |m: &Option<std::collections::HashMap<String, serde_json::Value>>| {
        m.as_ref().and_then(|m| m.get(REQUEST_ID_KEY)).and_then(serde_json::Value::as_str).map(str::to_string)
    };
    given(&ctx.metadata)
        .or_else(|| given(&ctx.message.metadata))
        .filter(|s| !s.is_empty() && s.len() <= 256)
        .unwrap_or_else(|| ctx.message.message_id.clone())
}

impl AgentExecutor for Tutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        specialist::log_received(&self.telemetry, &ctx);
        if FormHost::is_action(&ctx) {
            return self.act(&ctx).await;
        }
        // a repeat of a live question is answered from the live ledger, with no second
        // model call (not even the form-intent decision)
        if let Answerer::Live(live) = &self.answerer
            && live.knows(&ctx.context_id, ctx.new_context, &request_id(&ctx))
        {
            return Ok(self.live(live, &ctx).await);
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
                Answerer::Live(live) => return Ok(self.live(live, &ctx).await),
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
