//! A Student's action on a form (docs/forms.md §3): one A2UI part holding one action,
//! with the Hub's form reference and the Student's operation id in the message metadata.

use a2a::wire::{Message, Part};
use serde_json::Value;
use store::operations::fingerprint;
use vocab::form::FORM_REF_KEY;
use vocab::meta::OPERATION_ID_KEY;

use crate::asker::{is_id, meta};
use crate::error::HubError;

/// An action from the Student.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Action {
    pub(crate) form_ref: String,
    pub(crate) operation_id: String,
    /// The A2UI part, forwarded as it came.
    pub(crate) part: Part,
    pub(crate) surface_id: String,
    /// Of the action without its timestamp: a retry made again later is the same action.
    pub(crate) fingerprint: String,
}

/// The action a message carries: `None` when it carries no A2UI part (a question).
pub(crate) fn parse(message: &Message) -> Option<Result<Action, HubError>> {
    if !message.parts.iter().any(a2ui::part::is_a2ui_part) {
        return None;
    }
    Some(read(message))
}

fn read(message: &Message) -> Result<Action, HubError> {
    let [part] = message.parts.as_slice() else { return Err(HubError::ActionParts) };
    let refuse = |code: &str, why: String| HubError::Action { code: code.into(), message: why };
    let messages = match a2ui::part::read_part(part) {
        Some(Ok(m)) => m,
        Some(Err(e)) => return Err(refuse(e.code(), e.to_string())),
        None => unreachable!("parse found an a2ui part"),
    };
    let [action_message] = messages.as_slice() else {
        return Err(refuse("a2ui_not_an_action", "an action part holds exactly one message".into()));
    };
    if serde_json::to_vec(action_message).map_or(usize::MAX, |b| b.len()) > a2ui::MAX_PAYLOAD_BYTES {
        return Err(refuse("a2ui_too_large", "the action is over the size limit".into()));
    }
    if let Err(e) = a2ui::validate_client_message(action_message) {
        return Err(refuse("a2ui_schema_invalid", e.to_string()));
    }
    let Some(action) = action_message.get("action").and_then(Value::as_object) else {
        return Err(refuse("a2ui_not_an_action", "the message is not an action".into()));
    };
    let form_ref = match meta(message, FORM_REF_KEY) {
        Some(Value::String(r)) if !r.is_empty() && r.len() <= 128 => r.clone(),
        _ => return Err(HubError::FormRefMissing),
    };
    let operation_id = match meta(message, OPERATION_ID_KEY) {
        Some(Value::String(o)) if is_id(o, 128) => o.clone(),
        _ => return Err(HubError::OperationIdInvalid),
    };
    let mut same = action.clone();
    same.remove("timestamp");
    Ok(Action {
        form_ref,
        operation_id,
        part: part.clone(),
        surface_id: action.get("surfaceId").and_then(Value::as_str).unwrap_or_default().to_string(),
        fingerprint: fingerprint(&Value::Object(same)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a::wire::Role;
    use serde_json::json;

    fn action_message(parts: Vec<Part>, metadata: Value) -> Message {
        let mut m = Message::new(Role::User, parts);
        m.metadata = serde_json::from_value(metadata).unwrap();
        m
    }

    fn action(name: &str, timestamp: &str) -> Part {
        a2ui::part::data_part(vec![json!({"version": "v0.9", "action": {
            "name": name, "surfaceId": "form-1", "sourceComponentId": "submit",
            "timestamp": timestamp, "context": {"formVersion": 1}}})])
    }

    #[test]
    fn an_action_is_read_with_its_reference_and_operation_id_and_the_timestamp_is_not_the_action() {
        let meta = json!({"formRef": "hf-1", "operationId": "op-1"});
        assert!(parse(&action_message(vec![Part::text("hi")], meta.clone())).is_none());
        let a = parse(&action_message(vec![action("cancel_form", "2026-01-01T00:00:00Z")], meta.clone()))
            .unwrap()
            .unwrap();
        assert_eq!(
            (a.form_ref.as_str(), a.operation_id.as_str(), a.surface_id.as_str()),
            ("hf-1", "op-1", "form-1")
        );
        let later = parse(&action_message(vec![action("cancel_form", "2026-01-01T00:00:09Z")], meta.clone()))
            .unwrap()
            .unwrap();
        assert_eq!(a.fingerprint, later.fingerprint);
        let other = parse(&action_message(vec![action("submit_x", "2026-01-01T00:00:00Z")], meta.clone()))
            .unwrap()
            .unwrap();
        assert_ne!(a.fingerprint, other.fingerprint);

        let with_text =
            action_message(vec![action("cancel_form", "2026-01-01T00:00:00Z"), Part::text("x")], meta);
        let e: a2a::RpcError = parse(&with_text).unwrap().unwrap_err().into();
        assert_eq!(e.code, -32602);
        let bad_op = action_message(
            vec![action("cancel_form", "2026-01-01T00:00:00Z")],
            json!({"formRef": "hf-1", "operationId": "no spaces"}),
        );
        let e: a2a::RpcError = parse(&bad_op).unwrap().unwrap_err().into();
        assert_eq!(e.field.as_deref(), Some("message.metadata.operationId"));
        let not_action = action_message(
            vec![a2ui::part::data_part(vec![json!({"version": "v0.9", "createSurface": {}})])],
            json!({"formRef": "hf-1", "operationId": "op"}),
        );
        let e: a2a::RpcError = parse(&not_action).unwrap().unwrap_err().into();
        assert!(e.reason().starts_with("a2ui_"));
    }
}
