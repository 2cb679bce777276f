//! `RunAgentInput`, the body that starts a run, as AG-UI 1.0 defines it. Unknown fields
//! are refused, at the top and in each message.

use serde::Deserialize;
use serde_json::Value;

/// What the client sends to start a run.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunAgentInput {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default)]
    pub protocol_version: Option<String>,
    #[serde(default)]
    pub parent_run_id: Option<String>,
    #[serde(default)]
    pub state: Option<Value>,
    pub messages: Vec<InputMessage>,
    pub tools: Vec<Value>,
    pub context: Vec<Value>,
    #[serde(default)]
    pub forwarded_props: Option<Value>,
    #[serde(default)]
    pub resume: Option<Vec<Value>>,
}

/// One message of the conversation the client holds (any role); `content` is text or parts.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InputMessage {
    pub id: String,
    pub role: String,
    #[serde(default)]
    pub content: Option<Value>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Value>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub activity_type: Option<String>,
    #[serde(default)]
    pub encrypted_value: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub metadata: Option<Value>,
    #[serde(default)]
    pub subagent_run_id: Option<String>,
}

impl RunAgentInput {
    /// The text of the last `user` message: its `content` string, or its text parts joined.
    pub fn last_user_text(&self) -> Option<String> {
        let message = self.messages.iter().rev().find(|m| m.role == "user")?;
        match message.content.as_ref()? {
            Value::String(s) => Some(s.clone()),
            Value::Array(parts) => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_last_user_message_and_refuses_unknown_fields() {
        let input: RunAgentInput = serde_json::from_str(
            r#"{"threadId":"t","runId":"r","state":{},"messages":[
                {"id":"1","role":"user","content":"first"},
                {"id":"2","role":"assistant","content":"ok"},
                {"id":"3","role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],
               "tools":[],"context":[],"forwardedProps":{}}"#,
        )
        .unwrap();
        assert_eq!(input.last_user_text().as_deref(), Some("a\nb"));
        for bad in [
            r#"{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[],"extra":1}"#,
            r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x","oops":1}],"tools":[],"context":[]}"#,
            r#"{"threadId":1,"runId":"r","messages":[],"tools":[],"context":[]}"#,
            r#"{"threadId":"t","runId":"r","messages":[],"tools":[]}"#,
        ] {
            assert!(serde_json::from_str::<RunAgentInput>(bad).is_err(), "{bad}");
        }
    }
}
