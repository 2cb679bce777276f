//! Intake: what a message to the Hub is — a specialist's control message, a Student's
//! action on a form, or a Student's question with the ids that make its retries the same
//! request. Pure: it reads the message and refuses what it cannot take.

use a2a::server::RequestContext;
use hublink::Signed;
use serde_json::Value;
use vocab::meta::REQUEST_ID_KEY;

use crate::asker::Asker;
use crate::error::HubError;
use crate::forms::action::{self, Action};
use crate::ledger::{Key, question_hash};

/// Longest question accepted, in characters.
pub const MAX_QUESTION: usize = 4_000;
/// Longest request id taken from the Student (longer: the message id serves).
const MAX_REQUEST_ID: usize = 256;

/// What a message is.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A specialist's control message (register, heartbeat, …), or why it is malformed.
    Control(Result<Signed, hublink::ControlError>),
    /// A Student's action on one of the Hub's forms.
    Action {
        asker: Asker,
        action: Action,
    },
    Question(Question),
}

/// A Student's question.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Question {
    /// The Student's conversation (the one it named, or the one the layer assigned).
    pub(crate) conversation: String,
    pub(crate) message_id: String,
    pub(crate) request_id: String,
    pub(crate) text: String,
    pub(crate) chars: usize,
    pub(crate) asker: Asker,
    /// The ledger key of this request, and for a first question (no conversation named)
    /// the alias its assigned conversation makes.
    pub(crate) key: Key,
    pub(crate) alias: Option<Key>,
    /// The Hub's reference of the form whose follow-up button asked it, if one did.
    pub(crate) follow_up_of: Option<String>,
}

/// Reads `ctx`'s message.
pub(crate) fn read(ctx: &RequestContext) -> Result<Incoming, HubError> {
    if let Some(control) = hublink::parse_control(&ctx.message) {
        return Ok(Incoming::Control(control));
    }
    let asker = Asker::of(&ctx.message, &ctx.extensions)?;
    if let Some(action) = action::parse(&ctx.message) {
        return Ok(Incoming::Action { asker, action: action? });
    }
    let text = ctx.text();
    if text.trim().is_empty() {
        // Every part passed the layer's media-type check (-32005), so only text is left.
        return Err(HubError::QuestionEmpty);
    }
    let chars = text.chars().count();
    if chars > MAX_QUESTION {
        return Err(HubError::QuestionTooLong { max: MAX_QUESTION });
    }
    let request_id = ctx
        .metadata
        .as_ref()
        .and_then(|m| m.get(REQUEST_ID_KEY))
        .or_else(|| ctx.message.metadata.as_ref().and_then(|m| m.get(REQUEST_ID_KEY)))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= MAX_REQUEST_ID)
        .unwrap_or(&ctx.message.message_id)
        .to_string();
    // Scoped by the conversation the client named. A first question names none (the
    // layer assigns one), so its retry is matched by request id alone.
    let scope = if ctx.new_context { String::new() } else { ctx.context_id.clone() };
    let asked = question_hash(&text);
    let key: Key = (scope, request_id.clone(), asked);
    let alias = ctx.new_context.then(|| (ctx.context_id.clone(), request_id.clone(), asked));
    let follow_up_of = ctx
        .message
        .metadata
        .as_ref()
        .and_then(|m| m.get(vocab::meta::FOLLOW_UP_OF_KEY))
        .and_then(Value::as_str)
        .filter(|r| (1..=128).contains(&r.len()))
        .map(str::to_string);
    Ok(Incoming::Question(Question {
        conversation: ctx.context_id.clone(),
        message_id: ctx.message.message_id.clone(),
        request_id,
        text,
        chars,
        asker,
        key,
        alias,
        follow_up_of,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a::wire::{Message, Part, Role};
    use serde_json::json;

    fn ctx(parts: Vec<Part>, metadata: Option<Value>, new_context: bool) -> RequestContext {
        let mut message = Message::new(Role::User, parts);
        message.metadata = metadata.map(|m| serde_json::from_value(m).unwrap());
        RequestContext {
            message,
            context_id: "ctx-1".into(),
            new_context,
            task: None,
            extensions: Vec::new(),
            metadata: None,
        }
    }

    #[test]
    fn a_question_is_keyed_by_its_conversation_request_id_and_text() {
        let Incoming::Question(q) =
            read(&ctx(vec![Part::text("limits?")], Some(json!({"requestId": "r-1"})), false)).unwrap()
        else {
            panic!("a question")
        };
        assert_eq!((q.conversation.as_str(), q.request_id.as_str(), q.chars), ("ctx-1", "r-1", 7));
        assert_eq!(q.key, ("ctx-1".to_string(), "r-1".to_string(), question_hash("limits?")));
        assert_eq!(q.alias, None);
        let Incoming::Question(first) =
            read(&ctx(vec![Part::text("limits?")], Some(json!({"requestId": "r-1"})), true)).unwrap()
        else {
            panic!("a question")
        };
        assert_eq!(first.key.0, "", "a first question's retry is found by request id alone");
        assert_eq!(first.alias.map(|a| a.0), Some("ctx-1".to_string()));
        let Incoming::Question(unnamed) = read(&ctx(vec![Part::text("x")], None, false)).unwrap() else {
            panic!("a question")
        };
        assert_eq!(unnamed.request_id, unnamed.message_id, "no request id: the message id serves");
    }

    #[test]
    fn empty_long_and_foreign_messages_are_refused_or_told_apart() {
        assert!(matches!(read(&ctx(vec![Part::text("  ")], None, false)), Err(HubError::QuestionEmpty)));
        let long = "x".repeat(MAX_QUESTION + 1);
        assert!(matches!(
            read(&ctx(vec![Part::text(long)], None, false)),
            Err(HubError::QuestionTooLong { .. })
        ));
        let bad_student = ctx(vec![Part::text("hi")], Some(json!({"studentId": "a b"})), false);
        assert!(matches!(read(&bad_student), Err(HubError::StudentId)));
        let heartbeat = hublink::Control::Heartbeat(hublink::Heartbeat {
            identity: "tutor".into(),
            instance_id: "i".into(),
        });
        let mut control = ctx(Vec::new(), None, false);
        control.message = heartbeat.to_message(&keys::AgentKey::from_seed([1; 32]));
        let read = read(&control);
        assert!(
            matches!(&read, Ok(Incoming::Control(Ok(s))) if matches!(s.control, hublink::Control::Heartbeat(_)) && s.proof.is_some())
        );
    }
}
