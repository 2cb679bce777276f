//! A chat message to an agent hosting a form: answer, clarify, decline or offer the form,
//! and the reply that says so.

use std::collections::HashMap;

use a2a::server::{Reply, RequestContext};
use serde_json::{Map, Value, json};

use super::host::{FormHost, skill_enabled};

impl FormHost {
    /// What a chat message is to an agent hosting `workflow`: an answer to "continue or
    /// replace" while such a form is open gets the form; otherwise the injected decider
    /// decides — answer (the agent's answerer), clarify (`texts.clarify`), out of scope
    /// (`texts.out_of_scope`) or offer the form, which then needs the workflow enabled
    /// (`policy`) and a client able to draw it, else the agent says why in words. A
    /// model decider's failure is [`Chat::Failed`]; `call` is what its call cost.
    pub async fn read_chat(
        &self,
        ctx: &RequestContext,
        workflow: forms::Workflow,
        policy: &skills::Policy,
        texts: &ChatTexts,
    ) -> ChatRead {
        use forms::intent::Decision;
        let text = ctx.text();
        let choice = OpenFormChoice::read(&text);
        let open = match choice {
            Some(_) => self.open_form_of(&ctx.context_id, workflow.id()).await.ok().flatten(),
            None => None,
        };
        let mut call = None;
        if open.is_none() {
            let decided = match self.decider.decide(workflow, &text).await {
                Ok(decided) => decided,
                Err(e) => return ChatRead { chat: Chat::Failed(e), call: None, model: self.decider.model() },
            };
            call = decided.call;
            let chat = match decided.decision {
                Decision::OfferForm => None,
                Decision::Answer => Some(Chat::Question),
                Decision::Clarify => Some(Chat::Say(texts.clarify, "clarify")),
                Decision::OutOfScope => Some(Chat::Say(texts.out_of_scope, "out_of_scope")),
            };
            if let Some(chat) = chat {
                return ChatRead { chat, call, model: self.decider.model() };
            }
        }
        let chat = if !skill_enabled(policy, workflow.id()) {
            Chat::Say(texts.disabled, "form_disabled")
        } else if !FormHost::client_renders(ctx) {
            Chat::Say(texts.no_renderer, "form_not_renderable")
        } else {
            Chat::Offer(open.and(choice))
        };
        ChatRead { chat, call, model: self.decider.model() }
    }
}

/// What a chat message is to an agent hosting a workflow ([`FormHost::read_chat`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Chat {
    /// A question for the agent's own answerer.
    Question,
    /// Say this text (a clarifying question, an honest decline, or why the form cannot be
    /// offered), with this reply outcome.
    Say(&'static str, &'static str),
    /// Offer the form; with the student's answer to "continue or replace" when one is open.
    Offer(Option<OpenFormChoice>),
    /// The model deciding failed: the agent answers with its code (no second call).
    Failed(llm::LlmError),
}

/// [`FormHost::read_chat`]'s answer and, when a model decided, what its call cost.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRead {
    pub chat: Chat,
    pub call: Option<llm::Reply<()>>,
    /// The model that decided, when one did (live mode).
    pub model: Option<llm::Model>,
}

impl ChatRead {
    /// What the reply's metadata says about the decision's model call (empty for the
    /// heuristic): see [`crate::live::Meter::metadata`]; a failure adds `modelError`.
    pub fn metadata(&self) -> Map<String, Value> {
        let Some(model) = self.model else { return Map::new() };
        let mut meter = crate::live::Meter::new(model);
        if let Some(call) = &self.call {
            meter.ok(forms::intent::PURPOSE, call);
        }
        match &self.chat {
            Chat::Failed(e) => {
                meter.failed(forms::intent::PURPOSE, e);
                crate::live::error_metadata(&meter, e)
            }
            _ => match &self.call {
                Some(call) => {
                    let mut m = meter.metadata();
                    m.insert("latencyMs".into(), json!(call.latency.as_millis() as u64));
                    m
                }
                None => Map::new(),
            },
        }
    }
}

/// What an agent says for each chat outcome that is not its answer or its form.
#[derive(Debug, Clone, Copy)]
pub struct ChatTexts {
    /// Asked when too little was said.
    pub clarify: &'static str,
    /// Said when the message asks for something this agent does not do.
    pub out_of_scope: &'static str,
    /// Said when the form was asked for but its workflow is disabled.
    pub disabled: &'static str,
    /// Said when the form was asked for but the client cannot draw it.
    pub no_renderer: &'static str,
}

pub use hublink::OpenFormChoice;

/// What the agent says when a form of this workflow is already open here.
pub const CONTINUE_OR_REPLACE: &str =
    "You already have this form open here. Say \"continue\" to keep it, or \"replace\" to start a new one.";

/// A text reply to a chat message; asking [`CONTINUE_OR_REPLACE`] marks it for the Hub,
/// which then sends the student's "continue" or "replace" back here (`hublink::AWAITS_KEY`).
pub fn chat_reply(text: &str) -> Reply {
    let mut reply = Reply::text(text);
    if text == CONTINUE_OR_REPLACE
        && let Reply::Message { metadata, .. } = &mut reply
    {
        *metadata =
            Some(HashMap::from([(hublink::AWAITS_KEY.to_string(), json!(hublink::AWAITS_FORM_CHOICE))]));
    }
    reply
}
