//! Recheck: a retry (or "Check for answer") of a question whose outcome is unknown asks
//! the specialist again, by the forward's operation id, what became of it — a signed
//! lookup the specialist answers from what it keeps, never by doing the work again:
//!
//! - it answered: that answer is the request's, stored for good;
//! - it has no answer (never received or never finished it): the student is told to ask
//!   again, as a new question;
//! - it is still working on it, or cannot be reached: the outcome stays unknown, and the
//!   next retry asks again.
//!
//! When the Hub stopped before it could record whom it asked, every specialist is asked.

use std::collections::HashMap;

use a2a::wire::{Message, Role, SendMessageResponse};
use serde_json::json;
use vocab::ServedBy;
use vocab::meta::{HUB_LOOKUP_KEY, HUB_OPERATION_ID_KEY, Lookup};

use crate::answer;
use crate::ask::Ask;
use crate::forward::{Forward, SendOutcome, reply_parts, text_part};
use crate::intake::Question;
use crate::ledger::{Ledger, Recheck, Stored};
use crate::memory::Target;
use crate::plan::Failed;

/// What asking again came to.
pub(crate) enum Rechecked {
    /// What became of it is known now: the answer, or that there is none.
    Settled(Stored),
    /// Still unknown.
    Unknown,
}

/// The lookup message for `r`.
fn lookup_message(r: &Recheck) -> Message {
    let mut message = Message::new(Role::User, vec![text_part("(what became of an earlier question)")]);
    message.context_id = r.hub_context.clone();
    message.metadata = Some(HashMap::from([
        (HUB_OPERATION_ID_KEY.to_string(), json!(r.operation_id)),
        (HUB_LOOKUP_KEY.to_string(), json!(true)),
    ]));
    message
}

/// What the specialist said of the lookup.
fn lookup_of(resp: &SendMessageResponse) -> Option<Lookup> {
    let SendMessageResponse::Message(m) = resp else { return None };
    let value = m.metadata.as_ref()?.get(HUB_LOOKUP_KEY)?;
    serde_json::from_value(value.clone()).ok()
}

/// The answer to a repeat of `q` whose stored answer is `stored`: as stored, unless its
/// outcome is unknown and asking again settles it (then stored for good in `ledger`).
pub(crate) async fn settle(hub: &Ask<'_>, ledger: &Ledger, q: &Question, stored: Stored) -> Stored {
    let Some(seq) = stored.recheck.as_ref().map(|r| r.seq) else { return stored };
    match recheck(hub, &q.request_id, &stored).await {
        Rechecked::Settled(settled) => {
            ledger.settle(&q.key, seq, &settled).await;
            settled
        }
        Rechecked::Unknown => stored,
    }
}

/// Asks again about the request `request_id`, whose stored answer is `stored`.
pub(crate) async fn recheck(hub: &Ask<'_>, request_id: &str, stored: &Stored) -> Rechecked {
    let Some(r) = &stored.recheck else { return Rechecked::Unknown };
    let asked: Vec<String> = match &r.specialist {
        Some(s) => vec![s.clone()],
        None => hub.registry.ids().to_vec(),
    };
    let mut unknown = false;
    for specialist in &asked {
        let Ok(forward) = Forward::to(hub.registry, specialist) else {
            unknown = true;
            continue;
        };
        let card_name = forward.card_name().to_string();
        let sent = forward.send(lookup_message(r), None, &[], hub.config.forward_timeout).await;
        let resp = match sent {
            SendOutcome::Answered(resp) => *resp,
            _ => {
                unknown = true;
                continue;
            }
        };
        match lookup_of(&resp) {
            Some(Lookup::Answered) => {
                tracing::info!(request_id, specialist = %specialist, "a recheck found the specialist's answer");
                let name = hub.config.display_name(specialist);
                let served_by = ServedBy { id: specialist.clone(), name: card_name, capability: Some(name) };
                let to =
                    Target { specialist: specialist.clone(), skill: r.skill.clone().unwrap_or_default() };
                let mut answered = answer::served(request_id, &to, served_by, reply_parts(resp), None);
                if r.skill.is_none()
                    && let Some(mut meta) = vocab::ReplyMeta::read(&answered.metadata)
                {
                    meta.skill_id = None; // the Hub stopped before it recorded the skill
                    answered.metadata = meta.into_map();
                }
                answered.context_id = stored.context_id.clone();
                return Rechecked::Settled(answered);
            }
            Some(Lookup::NotAnswered) => {}
            Some(Lookup::InProgress) | None => unknown = true,
        }
    }
    if unknown {
        return Rechecked::Unknown;
    }
    tracing::info!(request_id, "a recheck found no answer: the question was never finished");
    let name = match &r.specialist {
        Some(s) => hub.config.display_name(s),
        None => "university's".to_string(),
    };
    let said = Failed::NeverFinished.said(&name);
    let mut settled = answer::said(request_id, &hub.config.served_by_hub(), &said);
    settled.context_id = stored.context_id.clone();
    Rechecked::Settled(settled)
}
