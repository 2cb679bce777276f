//! Answer: the reply the Hub stores for a question (the ledger answers its retries with
//! it) and relays, its metadata built from [`ReplyMeta`] in one place.

use a2a::wire::{Part, new_message_id};
use serde_json::Value;
use vocab::meta::RouterReport;
use vocab::{CampusForm, ReplyMeta, ReplyOutcome, ServedBy};

use crate::forward::text_part;
use crate::ledger::Stored;
use crate::memory::Target;
use crate::plan::Said;
use crate::route::{ModelCall, Router};

fn stored(parts: Vec<Part>, meta: ReplyMeta) -> Stored {
    // the conversation is filled in when the work ends (the request's, or an assigned one)
    Stored {
        message_id: new_message_id(),
        context_id: String::new(),
        parts,
        metadata: meta.into_map(),
        recheck: None,
    }
}

/// The Hub's own answer: served by the Hub, in its words.
pub(crate) fn said(request_id: &str, hub: &ServedBy, said: &Said) -> Stored {
    let mut meta = ReplyMeta::new(hub.clone(), said.outcome);
    meta.request_id = Some(request_id.into());
    stored(vec![text_part(said.text.clone())], meta)
}

/// The Hub's words for a forward to `to` that failed once it had begun.
pub(crate) fn failed(request_id: &str, hub: &ServedBy, to: &Target, said: &Said) -> Stored {
    let mut meta = ReplyMeta::new(hub.clone(), said.outcome);
    meta.request_id = Some(request_id.into());
    meta.skill_id = Some(to.skill.clone());
    stored(vec![text_part(said.text.clone())], meta)
}

/// A specialist's answer, relayed: `served_by` names it; `form`, the Hub's reference to
/// a form it opened.
pub(crate) fn served(
    request_id: &str,
    to: &Target,
    served_by: ServedBy,
    parts: Vec<Part>,
    form: Option<CampusForm>,
) -> Stored {
    let outcome = if form.is_some() { ReplyOutcome::Form } else { ReplyOutcome::Route };
    let mut meta = ReplyMeta::new(served_by, outcome);
    meta.request_id = Some(request_id.into());
    meta.skill_id = Some(to.skill.clone());
    meta.campus_form = form;
    stored(parts, meta)
}

/// `router` of a reply in `live` and `hybrid` modes: the mode, how many model calls
/// this question made, and the last one's model, latency, tokens, request id and error
/// code (never the key or any text).
pub(crate) fn with_router(mut stored: Stored, router: &Router, calls: &[ModelCall]) -> Stored {
    if router.mode().calls_model() {
        let report = RouterReport {
            mode: router.mode().as_str().into(),
            model: router.model_id().into(),
            model_calls: calls.len(),
            call: calls.last().map(ModelCall::report),
        };
        let report = serde_json::to_value(report).expect("a router report serializes");
        stored.metadata.insert(vocab::meta::ROUTER_KEY.into(), report);
    }
    stored
}

/// Who served a stored answer, and what came of it, for the `reply_published` event.
pub(crate) fn served_by_and_outcome(stored: &Stored) -> (Option<&str>, Option<ReplyOutcome>) {
    let served_by = stored.metadata.get(vocab::meta::SERVED_BY_KEY).and_then(ServedBy::id_of);
    let outcome =
        stored.metadata.get(vocab::meta::OUTCOME_KEY).and_then(Value::as_str).and_then(ReplyOutcome::parse);
    (served_by, outcome)
}
