//! A reply read back: the answer's text and parts, its conversation and task, and who
//! served it as the Hub's metadata says.

use a2a::client::{AgentHandle, ClientError};
use a2a::wire::SendMessageResponse;
use serde_json::{Map, Value};
use vocab::ReplyMeta;
use vocab::meta::{OUTCOME_KEY, SERVED_BY_KEY};

use crate::{Exchange, form};

pub(crate) fn read_reply(
    agent: &AgentHandle,
    response: SendMessageResponse,
    sent_message_id: String,
    request_id: String,
) -> Result<Exchange, ClientError> {
    let (reply_message_id, reply_context, parts, metadata, task) = match response {
        SendMessageResponse::Message(m) => (m.message_id, m.context_id, m.parts, m.metadata, None),
        SendMessageResponse::Task(t) => {
            let state = state_name(&t.status.state);
            // A task's metadata, with its status message's over it.
            let mut metadata = t.metadata.unwrap_or_default();
            // The answer is in the status message, or (a common SDK pattern) in artifacts.
            let (id, parts) = match t.status.message {
                Some(m) if !m.parts.is_empty() => {
                    metadata.extend(m.metadata.unwrap_or_default());
                    (m.message_id, m.parts)
                }
                _ => {
                    let parts: Vec<_> =
                        t.artifacts.unwrap_or_default().into_iter().flat_map(|a| a.parts).collect();
                    (String::new(), parts)
                }
            };
            let metadata = (!metadata.is_empty()).then_some(metadata);
            (id, Some(t.context_id.clone()), parts, metadata, Some((t.id, state)))
        }
    };
    let context_id = reply_context.ok_or_else(|| ClientError::InvalidResponse {
        url: agent.endpoint.clone(),
        reason: "the reply has no contextId".into(),
    })?;
    let reply_text: Vec<&str> = parts.iter().filter_map(|p| p.as_text()).collect();
    let Attribution { served_by, attribution, outcome } = Attribution::read(metadata.as_ref());
    let reply = form::read(&parts, metadata.as_ref());
    tracing::info!(message_id = %reply_message_id, in_reply_to = %sent_message_id, context_id = %context_id, "received reply");
    Ok(Exchange {
        agent: agent.card.name.clone(),
        served_by,
        attribution,
        outcome,
        endpoint: agent.endpoint.clone(),
        sent_message_id,
        sent_context_id: None,
        request_id,
        reply_message_id,
        context_id,
        reply_text: reply_text.join("\n"),
        task,
        reply,
        step: None,
        metadata,
    })
}

/// Who served a reply and what came of it, as its metadata says.
#[derive(Debug, Clone, PartialEq, Default)]
struct Attribution {
    /// `servedBy.name`.
    served_by: Option<String>,
    /// `servedBy` whole.
    attribution: Option<Value>,
    /// `outcome`, as the agent spelled it.
    outcome: Option<String>,
}

impl Attribution {
    /// The Hub's metadata read as the Hub writes it ([`ReplyMeta`]); metadata that is not
    /// the Hub's whole (an agent that is not the Hub, an older Hub, a field that does not
    /// read) gives what each of `servedBy` (an object), its `name` and `outcome` (strings)
    /// says on its own, `None` for the rest.
    fn read(metadata: Option<&std::collections::HashMap<String, Value>>) -> Attribution {
        let Some(metadata) = metadata else { return Attribution::default() };
        let map: Map<String, Value> = metadata.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        if let Some(meta) = ReplyMeta::read(&map) {
            return Attribution {
                attribution: serde_json::to_value(&meta.served_by).ok(),
                served_by: Some(meta.served_by.name),
                outcome: Some(meta.outcome.as_str().to_string()),
            };
        }
        let served = map.get(SERVED_BY_KEY).filter(|v| v.is_object());
        Attribution {
            served_by: served.and_then(|s| s.get("name")).and_then(Value::as_str).map(str::to_string),
            attribution: served.cloned(),
            outcome: map.get(OUTCOME_KEY).and_then(Value::as_str).map(str::to_string),
        }
    }
}

fn state_name(state: &a2a::wire::TaskState) -> String {
    serde_json::to_value(state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashMap;

    fn read(m: Value) -> Attribution {
        let m: HashMap<String, Value> = serde_json::from_value(m).unwrap();
        Attribution::read(Some(&m))
    }

    #[test]
    fn the_hubs_metadata_reads_whole() {
        let served = json!({"id": "tutor", "name": "Tutor Agent", "capability": "Tutoring"});
        let a = read(json!({"servedBy": served, "outcome": "route", "requestId": "r-1"}));
        assert_eq!(a.served_by.as_deref(), Some("Tutor Agent"));
        assert_eq!(a.attribution, Some(served));
        assert_eq!(a.outcome.as_deref(), Some("route"));
    }

    #[test]
    fn partial_metadata_gives_what_each_field_says() {
        assert_eq!(Attribution::read(None), Attribution::default());
        assert_eq!(read(json!({})), Attribution::default());
        // another agent's metadata: nothing of ours
        assert_eq!(read(json!({"mode": "mock", "servedBy": "tutor"})), Attribution::default());
        // an older Hub: a name without an id, an outcome this Student does not know
        let a = read(json!({"servedBy": {"name": "Tutor Agent"}, "outcome": "routed"}));
        assert_eq!(a.served_by.as_deref(), Some("Tutor Agent"));
        assert_eq!(a.attribution, Some(json!({"name": "Tutor Agent"})));
        assert_eq!(a.outcome.as_deref(), Some("routed"));
        // only an outcome; a whole attribution beside a form description that does not read
        let a = read(json!({"outcome": "clarify"}));
        assert_eq!((a.served_by, a.attribution, a.outcome.as_deref()), (None, None, Some("clarify")));
        let a = read(json!({"servedBy": {"id": "hub", "name": "Campus"}, "outcome": "form",
                            "campusForm": {"formRef": "hf-1"}}));
        assert_eq!((a.served_by.as_deref(), a.outcome.as_deref()), (Some("Campus"), Some("form")));
        assert_eq!(a.attribution, Some(json!({"id": "hub", "name": "Campus"})));
        // a name that is not a string is no name; the object is still the attribution
        let a = read(json!({"servedBy": {"name": 7}}));
        assert_eq!((a.served_by, a.attribution), (None, Some(json!({"name": 7}))));
    }
}
