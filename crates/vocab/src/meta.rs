//! The metadata of a reply the Hub gives the Student: who served it, what came of the
//! question, the ids that tie it to the request, and a form's description when it opened
//! or acted on one. The Hub writes it from [`ReplyMeta`]; the Student reads it back the
//! same way.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::form::CampusForm;

/// The metadata key of who answered.
pub const SERVED_BY_KEY: &str = "servedBy";
/// The metadata key of what came of the request.
pub const OUTCOME_KEY: &str = "outcome";
/// The request id: the Student's, echoed back; a retry with it is answered from the ledger.
pub const REQUEST_ID_KEY: &str = "requestId";
/// The Student's operation id of a form action, echoed back.
pub const OPERATION_ID_KEY: &str = "operationId";
/// The Hub's own id of one forward to a specialist (questions and actions alike).
pub const HUB_OPERATION_ID_KEY: &str = "hubOperationId";
/// On a question the Hub forwards: the id of the specialist's skill the Hub chose for it
/// (covered by the Hub's signature, so a specialist reads it only from a forward the Hub
/// signed; a direct caller's message has none and the specialist picks on its own).
pub const HUB_SKILL_KEY: &str = "hubSkillId";
/// On the Hub's signed message asking a specialist what became of an earlier forward
/// (same `hubOperationId`): `true`. On the specialist's answer: a [`Lookup`].
pub const HUB_LOOKUP_KEY: &str = "hubLookup";

/// What a specialist says of an earlier forward the Hub asks about by its operation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lookup {
    /// It answered; the answer it gave comes with this.
    Answered,
    /// It is still working on it.
    InProgress,
    /// It has no answer: it never received it, never finished it (stopped meanwhile), or
    /// answered with something it does not replay (a form).
    NotAnswered,
}

/// On a message the Hub forwards to a specialist: the Hub's signature over it (who it is
/// for, a digest of the message, the student the Hub vouches for), `hublink::HubSignature`.
/// A specialist trusts nothing a message says about a student without it.
pub const HUB_SIGNATURE_KEY: &str = "hubSignature";
/// On a specialist's reply to a forward: its signature over the reply, naming the
/// forward it answers (`hublink::sign_reply`). The Hub relays no reply without it.
pub const SPECIALIST_SIGNATURE_KEY: &str = "specialistSignature";
/// The HTTP header of the Hub's signature on a request it makes of a specialist's own API
/// (a settings change through the Hub's developer proxy): `hublink::sign_request`.
pub const HUB_SIGNATURE_HEADER: &str = "campus-hub-signature";
/// The Student's hint beside a question ([`StudentHint`]): where its own model thinks the
/// question belongs; the Hub still decides.
pub const STUDENT_HINT_KEY: &str = "studentHint";
/// A question a follow-up button of an open form asked (`message.metadata.followUpOf`:
/// the Hub's `hf-…` reference of that form): the Hub sends it to the specialist whose
/// form it is, when the form is the asker's, open, in this conversation.
pub const FOLLOW_UP_OF_KEY: &str = "followUpOf";
/// On every message of a conversation the student began anew ("New conversation" on the
/// page, `/new` in the chat): `true`. The Hub passes it on in what it signs when it
/// forwards; the Library makes the demo loans again the first time such a conversation
/// reaches it, and never for a conversation merely unseen (a one-off question from the
/// command line, a reloaded page).
pub const BEGUN_ANEW_KEY: &str = "conversationBegunAnew";

/// `studentHint`: the capability the Student's own model picked, and its mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudentHint {
    pub capability: String,
    pub mode: String,
}

/// `ReplyMeta::router`'s key.
pub const ROUTER_KEY: &str = "router";

/// `router` in a reply's metadata: how the Hub's router decided in a mode that calls a
/// model (never text or a key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouterReport {
    pub mode: String,
    pub model: String,
    /// How many model calls this question made.
    pub model_calls: usize,
    /// The last call's model, latency, tokens, request id and error code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<CallReport>,
}

/// What one model call did, as a reply's metadata reports it: never the key, the
/// question or the model's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallReport {
    /// The model that answered (as the provider names it), or the one asked.
    pub model: String,
    pub latency_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CallError>,
}

/// A model call's tokens (`{inputTokens, outputTokens}`), in every report of one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Why a model call failed: a stable code, our words for it (never the provider's), and
/// the provider's request id when it gave one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallError {
    pub code: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// Who answered: a specialist (by id, its card's name and the capability it serves) or
/// the Hub itself (no capability).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServedBy {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
}

impl ServedBy {
    /// The `id` of a `servedBy` value, read in place.
    pub fn id_of(value: &Value) -> Option<&str> {
        value.get("id").and_then(Value::as_str)
    }

    /// The Hub, named as its configuration names the university.
    pub fn hub(name: &str) -> ServedBy {
        ServedBy { id: crate::agents::HUB.into(), name: name.into(), capability: None }
    }
}

/// What came of a request, as the reply's `outcome` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyOutcome {
    /// A specialist answered the question.
    Route,
    /// The Hub asks which service, or what, the student means.
    Clarify,
    /// No service here handles it.
    Unsupported,
    /// The service for it is not ready, or could not be reached: nothing was sent.
    Unavailable,
    /// A form opened or an action on it was answered.
    Form,
    /// The specialist answered with nothing the Hub can relay.
    InvalidAnswer,
    /// The specialist answered with an error.
    Failed,
    /// No answer in time, or a broken one: it may or may not have been handled.
    OutcomeUnknown,
    /// The Hub answered small talk (a greeting, thanks, a goodbye) itself.
    Courtesy,
}

impl ReplyOutcome {
    pub const ALL: [ReplyOutcome; 9] = [
        ReplyOutcome::Route,
        ReplyOutcome::Clarify,
        ReplyOutcome::Unsupported,
        ReplyOutcome::Unavailable,
        ReplyOutcome::Form,
        ReplyOutcome::InvalidAnswer,
        ReplyOutcome::Failed,
        ReplyOutcome::OutcomeUnknown,
        ReplyOutcome::Courtesy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReplyOutcome::Route => "route",
            ReplyOutcome::Clarify => "clarify",
            ReplyOutcome::Unsupported => "unsupported",
            ReplyOutcome::Unavailable => "unavailable",
            ReplyOutcome::Form => "form",
            ReplyOutcome::InvalidAnswer => "invalid_answer",
            ReplyOutcome::Failed => "failed",
            ReplyOutcome::OutcomeUnknown => "outcome_unknown",
            ReplyOutcome::Courtesy => "courtesy",
        }
    }

    pub fn parse(s: &str) -> Option<ReplyOutcome> {
        ReplyOutcome::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

/// A reply's metadata, as the Hub writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplyMeta {
    pub served_by: ServedBy,
    pub outcome: ReplyOutcome,
    /// The skill a routed question went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// A form action's operation id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campus_form: Option<CampusForm>,
    /// The live router's report (mode, model, calls; never text or a key), in the
    /// modes that call a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub router: Option<RouterReport>,
}

impl ReplyMeta {
    pub fn new(served_by: ServedBy, outcome: ReplyOutcome) -> ReplyMeta {
        ReplyMeta {
            served_by,
            outcome,
            skill_id: None,
            request_id: None,
            operation_id: None,
            campus_form: None,
            router: None,
        }
    }

    /// As the reply's metadata map.
    pub fn into_map(self) -> Map<String, Value> {
        match serde_json::to_value(self).expect("reply metadata serializes") {
            Value::Object(m) => m,
            _ => unreachable!("a struct serializes to an object"),
        }
    }

    /// The metadata of a reply, when it is the Hub's (it names who served it and what
    /// came of it).
    pub fn read(metadata: &Map<String, Value>) -> Option<ReplyMeta> {
        serde_json::from_value(Value::Object(metadata.clone())).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::FormState;
    use serde_json::json;

    #[test]
    fn outcomes_are_the_wire_names() {
        for o in ReplyOutcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), json!(o.as_str()));
            assert_eq!(ReplyOutcome::parse(o.as_str()), Some(o));
        }
    }

    #[test]
    fn metadata_writes_only_what_it_has_and_reads_back() {
        let mut meta = ReplyMeta::new(ServedBy::hub("Campus"), ReplyOutcome::Clarify);
        meta.request_id = Some("r-1".into());
        let map = meta.clone().into_map();
        assert_eq!(
            Value::Object(map.clone()),
            json!({"servedBy": {"id": "hub", "name": "Campus"}, "outcome": "clarify", "requestId": "r-1"})
        );
        assert_eq!(ReplyMeta::read(&map), Some(meta));
        let form =
            CampusForm { form_ref: "hf-1".into(), workflow: "w".into(), version: 1, state: FormState::Open };
        let mut served = ReplyMeta::new(
            ServedBy { id: "tutor".into(), name: "Tutor Agent".into(), capability: Some("Tutoring".into()) },
            ReplyOutcome::Form,
        );
        served.campus_form = Some(form);
        let map = served.clone().into_map();
        assert_eq!(map["campusForm"]["state"], "open");
        assert_eq!(map["servedBy"]["capability"], "Tutoring");
        assert_eq!(ReplyMeta::read(&map), Some(served));
        assert_eq!(ReplyMeta::read(&Map::new()), None);
    }
}
