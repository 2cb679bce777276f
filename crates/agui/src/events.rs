//! The AG-UI 1.0 events Campus uses, as `@ag-ui/core` 1.0 spells them: `type` in
//! SCREAMING_SNAKE_CASE, fields in camelCase, optional fields left out (never `null`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// One AG-UI event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Event {
    RunStarted(RunStarted),
    RunFinished(RunFinished),
    RunError(RunError),
    TextMessageStart(TextMessageStart),
    TextMessageContent(TextMessageContent),
    TextMessageEnd(TextMessageEnd),
    StateSnapshot(StateSnapshot),
    StateDelta(StateDelta),
    ActivitySnapshot(ActivitySnapshot),
    ActivityDelta(ActivityDelta),
    Custom(Custom),
}

impl Event {
    /// The wire name of the event's type (`RUN_STARTED`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::RunStarted(_) => "RUN_STARTED",
            Event::RunFinished(_) => "RUN_FINISHED",
            Event::RunError(_) => "RUN_ERROR",
            Event::TextMessageStart(_) => "TEXT_MESSAGE_START",
            Event::TextMessageContent(_) => "TEXT_MESSAGE_CONTENT",
            Event::TextMessageEnd(_) => "TEXT_MESSAGE_END",
            Event::StateSnapshot(_) => "STATE_SNAPSHOT",
            Event::StateDelta(_) => "STATE_DELTA",
            Event::ActivitySnapshot(_) => "ACTIVITY_SNAPSHOT",
            Event::ActivityDelta(_) => "ACTIVITY_DELTA",
            Event::Custom(_) => "CUSTOM",
        }
    }

    /// `RUN_STARTED {threadId, runId}` at `ts` (Unix milliseconds).
    pub fn run_started(thread_id: &str, run_id: &str, ts: i64) -> Self {
        Event::RunStarted(RunStarted {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            timestamp: Some(ts),
            ..Default::default()
        })
    }

    /// `RUN_FINISHED {threadId, runId, result?}`.
    pub fn run_finished(thread_id: &str, run_id: &str, result: Option<Value>, ts: i64) -> Self {
        Event::RunFinished(RunFinished {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            result,
            timestamp: Some(ts),
        })
    }

    /// `RUN_ERROR {message, code}`.
    pub fn run_error(code: &str, message: &str, ts: i64) -> Self {
        Event::RunError(RunError { message: message.into(), code: Some(code.into()), timestamp: Some(ts) })
    }

    /// START, one CONTENT with the whole text (none when it is empty) and END.
    pub fn text_message(message_id: &str, role: Role, text: &str, ts: i64) -> Vec<Self> {
        let mut events = vec![Event::TextMessageStart(TextMessageStart {
            message_id: message_id.into(),
            role: Some(role),
            name: None,
            timestamp: Some(ts),
        })];
        if !text.is_empty() {
            events.push(Event::TextMessageContent(TextMessageContent {
                message_id: message_id.into(),
                delta: text.into(),
                timestamp: Some(ts),
            }));
        }
        events.push(Event::TextMessageEnd(TextMessageEnd {
            message_id: message_id.into(),
            timestamp: Some(ts),
        }));
        events
    }

    /// `STATE_SNAPSHOT {snapshot}`.
    pub fn state_snapshot(snapshot: Value, ts: i64) -> Self {
        Event::StateSnapshot(StateSnapshot { snapshot, timestamp: Some(ts) })
    }

    /// `STATE_DELTA {delta}` (RFC 6902 operations; see [`patch`]).
    pub fn state_delta(delta: Vec<Value>, ts: i64) -> Self {
        Event::StateDelta(StateDelta { delta, timestamp: Some(ts) })
    }

    /// `ACTIVITY_SNAPSHOT {messageId, activityType, content}`.
    pub fn activity(message_id: String, activity_type: &str, content: Map<String, Value>, ts: i64) -> Self {
        Event::ActivitySnapshot(ActivitySnapshot {
            message_id,
            activity_type: activity_type.into(),
            content,
            replace: None,
            timestamp: Some(ts),
        })
    }

    /// `CUSTOM {name, value}`.
    pub fn custom(name: &str, value: Value, ts: i64) -> Self {
        Event::Custom(Custom { name: name.into(), value, timestamp: Some(ts) })
    }
}

/// Who wrote a text message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Developer,
    System,
    Assistant,
    User,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStarted {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFinished {
    pub thread_id: String,
    pub run_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunError {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageStart {
    pub message_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageContent {
    pub message_id: String,
    pub delta: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageEnd {
    pub message_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateSnapshot {
    pub snapshot: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateDelta {
    /// RFC 6902 operations.
    pub delta: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivitySnapshot {
    pub message_id: String,
    pub activity_type: String,
    pub content: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityDelta {
    pub message_id: String,
    pub activity_type: String,
    /// RFC 6902 operations.
    pub patch: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Custom {
    pub name: String,
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
}

/// RFC 6902 operations, built by name.
pub mod patch {
    use super::*;

    /// `{"op":"add","path","value"}`.
    pub fn add(path: &str, value: Value) -> Value {
        json!({"op": "add", "path": path, "value": value})
    }

    /// `{"op":"replace","path","value"}`.
    pub fn replace(path: &str, value: Value) -> Value {
        json!({"op": "replace", "path": path, "value": value})
    }

    /// A JSON Pointer token: `~` → `~0`, `/` → `~1`.
    pub fn token(key: &str) -> String {
        key.replace('~', "~0").replace('/', "~1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_shapes_are_ag_ui_1_0() {
        let e = Event::run_started("t", "r", 5);
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":5}"#
        );
        let e = Event::run_error("hub_unavailable", "the hub could not be reached", 1);
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type":"RUN_ERROR","message":"the hub could not be reached","code":"hub_unavailable","timestamp":1})
        );
        let text = Event::text_message("m", Role::Assistant, "hi", 2);
        assert_eq!(
            serde_json::to_value(&text).unwrap(),
            json!([
                {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","timestamp":2},
                {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi","timestamp":2},
                {"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":2}
            ])
        );
        let mut content = Map::new();
        content.insert("agent".into(), json!("hub"));
        let a = Event::activity("console:hub:1".into(), "campus.console", content, 3);
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["type"], "ACTIVITY_SNAPSHOT");
        assert_eq!(v["activityType"], "campus.console");
        assert!(v.get("replace").is_none(), "optional fields are left out, never null");
        for e in [e, a, Event::state_delta(vec![patch::add("/a~1b", json!(1))], 4)] {
            let back: Event = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
            assert_eq!(back, e);
        }
        assert_eq!(patch::token("a/b~c"), "a~1b~0c");
    }
}
