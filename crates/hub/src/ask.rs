//! Ask: one question forwarded to the specialist the Hub chose, in the Hub's own context
//! with it, and what came back read into the Student's answer (a form it opened recorded
//! as the Hub's reference; a "continue or replace" question remembered).

use std::borrow::Cow;
use std::collections::HashMap;

use a2a::wire::{Message, Role, SendMessageResponse};
use serde_json::json;
use vocab::events::{ForwardFailure, Forwarded, Operation};
use vocab::meta::{HUB_OPERATION_ID_KEY, HUB_SKILL_KEY};
use vocab::{HubEventKind, ServedBy};

use crate::answer;
use crate::config::Config;
use crate::events::Emit;
use crate::forms::{Forms, specialist};
use crate::forward::{Forward, SendOutcome, reply_parts, text_part};
use crate::intake::Question;
use crate::ledger::{Recheck, Stored};
use crate::memory::{Kept, Target, Turn};
use crate::plan::Failed;
use crate::registry::Registry;

/// What a forward needs of the Hub.
pub(crate) struct Ask<'a> {
    pub(crate) config: &'a Config,
    pub(crate) registry: &'a Registry,
    pub(crate) forms: &'a Forms,
    pub(crate) emit: &'a Emit,
}

impl<'a> Ask<'a> {
    pub(crate) fn new(config: &'a Config, registry: &'a Registry, forms: &'a Forms, emit: &'a Emit) -> Self {
        Ask { config, registry, forms, emit }
    }
}

/// Forwards `text` (the question, or the one a clarifying answer completed) for `q` to
/// `to`: the stored answer, and what the conversation keeps of it.
pub(crate) async fn forward(
    hub: &Ask<'_>,
    q: &Question,
    turn: &Turn,
    to: &Target,
    text: &str,
) -> (Stored, Kept) {
    let mut kept = Kept::default();
    let stored = send(hub, q, turn, to, text, &mut kept).await;
    (stored, kept)
}

async fn send(hub: &Ask<'_>, q: &Question, turn: &Turn, to: &Target, text: &str, kept: &mut Kept) -> Stored {
    let name = hub.config.display_name(&to.specialist);
    let served_by_hub = hub.config.served_by_hub();
    let fail = |failed: Failed, kept: &mut Kept| {
        let said = failed.said(&name);
        kept.settled = said.settled;
        match failed {
            Failed::NotReady(_) => answer::said(&q.request_id, &served_by_hub, &said),
            _ => answer::failed(&q.request_id, &served_by_hub, to, &said),
        }
    };
    let forward = match Forward::to(hub.registry, &to.specialist) {
        Ok(f) => f,
        Err(status) => return fail(Failed::NotReady(status), kept),
    };
    // the same for every attempt at this request: the specialist can be asked about it
    let operation_id = crate::ledger::operation_id(&q.key);
    let (context, new) = turn.hub_context(&to.specialist);
    if new {
        kept.new_context = Some((to.specialist.clone(), context.clone()));
    }
    let mut message = Message::new(Role::User, vec![text_part(text)]);
    message.context_id = Some(context.clone());
    // the skill the Hub chose travels as data: the specialist answers from it
    let mut metadata = HashMap::from([
        (HUB_OPERATION_ID_KEY.to_string(), json!(operation_id)),
        (HUB_SKILL_KEY.to_string(), json!(to.skill)),
    ]);
    q.asker.describe(&mut metadata);
    message.metadata = Some(metadata);
    let sent_id = message.message_id.clone();
    tracing::info!(specialist = %to.specialist, operation_id = %operation_id, message_id = %sent_id, context_id = %context, "forwarding");
    let forwarded = Forwarded {
        request_id: Cow::Borrowed(&q.request_id),
        specialist: Cow::Borrowed(&to.specialist),
        operation_id: Cow::Borrowed(&operation_id),
        message_id: Cow::Borrowed(&sent_id),
        context_id: Cow::Borrowed(&context),
        skill: Cow::Borrowed(&to.skill),
    };
    hub.emit.report(HubEventKind::Forwarded, &forwarded);
    let card_name = forward.card_name().to_string();
    let sent =
        forward.send(message, q.asker.vouched(), &q.asker.extensions(), hub.config.forward_timeout).await;
    let operation = |reason: Option<ForwardFailure>, code: Option<i32>| Operation {
        request_id: Cow::Borrowed(&q.request_id),
        specialist: Cow::Borrowed(&to.specialist),
        operation_id: Cow::Borrowed(&operation_id),
        reason: reason.map(|r| Cow::Borrowed(r.as_str())),
        code,
    };
    let resp = match sent {
        SendOutcome::Answered(resp) => *resp,
        SendOutcome::NotSent => {
            hub.emit.report(HubEventKind::ForwardFailed, &operation(Some(ForwardFailure::Unreachable), None));
            return fail(Failed::NotSent, kept);
        }
        SendOutcome::Refused { code, .. } => {
            hub.emit.report(HubEventKind::ForwardFailed, &operation(Some(ForwardFailure::Error), Some(code)));
            return fail(Failed::Error(code), kept);
        }
        SendOutcome::Unknown => {
            hub.emit
                .report(HubEventKind::ForwardFailed, &operation(Some(ForwardFailure::OutcomeUnknown), None));
            let mut unknown = fail(Failed::Unknown, kept);
            unknown.recheck = Some(Recheck {
                seq: 0, // the ledger fills in the request's row
                operation_id: operation_id.clone(),
                specialist: Some(to.specialist.clone()),
                skill: Some(to.skill.clone()),
                hub_context: Some(context.clone()),
            });
            return unknown;
        }
    };
    kept.settled = true;
    let form = specialist::read(&resp);
    if let SendMessageResponse::Message(m) = &resp
        && hublink::awaits_form_choice(m.metadata.as_ref())
    {
        kept.awaiting_choice = Some(to.clone());
    }
    let parts = reply_parts(resp);
    hub.emit.report(HubEventKind::SpecialistReplied, &operation(None, None));
    if parts.is_empty() {
        return fail(Failed::Empty, kept);
    }
    let campus = match form.filter(|f| f.opened().is_some()) {
        Some(form) => hub.forms.open(&q.asker, &q.conversation, &to.specialist, &q.request_id, &form).await,
        None => None,
    };
    let served_by = ServedBy { id: to.specialist.clone(), name: card_name, capability: Some(name) };
    answer::served(&q.request_id, to, served_by, parts, campus)
}
