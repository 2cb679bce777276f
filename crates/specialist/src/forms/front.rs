//! The chat front every agent hosting a form shares: a form's reply published (logged and
//! recorded), and a chat message that may get the form answered before the agent's own
//! answerer sees it.

use std::future::Future;

use a2a::server::{Reply, RequestContext};
use serde_json::{Map, Value, json};
use telemetry::Telemetry;
use vocab::form::FORM_ID_KEY;

use super::chat::{Chat, ChatTexts, OpenFormChoice, chat_reply};
use super::contract::Outcome;
use super::host::FormHost;

/// What an agent's front says and records: its feed, its workflow and words for it, its
/// name in a model failure's words (`The Tutor`) and its mode.
#[derive(Clone, Copy)]
pub struct Front<'a> {
    pub telemetry: &'a Telemetry,
    pub workflow: forms::Workflow,
    pub texts: &'a ChatTexts,
    pub who: &'static str,
    pub mode: &'static str,
}

impl FormHost {
    /// A form's reply, logged and recorded as `form_<state>` with the form's id, workflow
    /// and version and the agent's mode.
    pub fn publish(&self, front: &Front<'_>, ctx: &RequestContext, outcome: &Outcome) -> Reply {
        self.publish_with(front, ctx, outcome, Map::new())
    }

    /// [`FormHost::publish`] with the agent's own `extra` details beside the form's (a
    /// composed screen's structure and checks).
    pub fn publish_with(
        &self,
        front: &Front<'_>,
        ctx: &RequestContext,
        outcome: &Outcome,
        extra: Map<String, Value>,
    ) -> Reply {
        let reply = outcome.reply();
        let mut details = json!({FORM_ID_KEY: outcome.form_id, "workflow": outcome.workflow,
                             "version": outcome.version, "mode": front.mode});
        if let Some(d) = details.as_object_mut() {
            d.extend(extra);
        }
        let outcome_code = format!("form_{}", outcome.state.as_str());
        crate::log_reply(front.telemetry, ctx, &reply, &outcome_code, &outcome.text, &details);
        reply
    }

    /// A chat message that may get the form, a clarifying question or a decline
    /// ([`FormHost::read_chat`]), answered and recorded with the decision's metadata; `Err`
    /// when it is a question for the agent's own answerer, with the decision's model call
    /// if one was made. `offer` offers the form or re-sends the open one; its `Err` is what
    /// to say instead (continue or replace).
    pub async fn answer_chat<F, Fut>(
        &self,
        front: &Front<'_>,
        ctx: &RequestContext,
        policy: &skills::Policy,
        offer: F,
    ) -> Result<Reply, Option<llm::Reply<()>>>
    where
        F: FnOnce(Option<OpenFormChoice>) -> Fut,
        Fut: Future<Output = Result<Outcome, String>>,
    {
        let read = self.read_chat(ctx, front.workflow, policy, front.texts).await;
        let meta = read.metadata();
        let say = |text: &str, outcome: &str| {
            let reply = crate::live::with_metadata(chat_reply(text), meta.clone());
            crate::log_reply(front.telemetry, ctx, &reply, outcome, text, &meta);
            reply
        };
        let choice = match read.chat {
            Chat::Question => return Err(read.call),
            Chat::Say(text, outcome) => return Ok(say(text, outcome)),
            Chat::Failed(e) => return Ok(say(&crate::live::error_text(front.who, &e), "model_error")),
            Chat::Offer(choice) => choice,
        };
        Ok(match offer(choice).await {
            Ok(outcome) => crate::live::with_metadata(self.publish(front, ctx, &outcome), meta),
            Err(text) => say(&text, "form_asked_continue"),
        })
    }
}
