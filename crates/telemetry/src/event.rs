//! One telemetry event and how its id is made.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The kind of the notice a subscriber gets when events it should have seen are gone.
pub const HISTORY_TRUNCATED: &str = "history_truncated";

/// One thing an agent did, as its feed carries it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// `<boot>:<seq>`, unique per feed (see the crate docs).
    pub id: String,
    /// Unix time in milliseconds.
    pub ts: i64,
    /// The agent that emitted it (`tutor`, `hub`, …).
    pub agent: String,
    /// What happened: `message_received`, `reply_published`, `heartbeat`, …
    pub kind: String,
    /// Details, a JSON object.
    #[serde(default)]
    pub data: Value,
    /// Set by the Hub when it relays a specialist's event: that specialist's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relayed_from: Option<String>,
}

/// Unix time now, in milliseconds.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A fresh boot tag: the start time in hex plus random bits, so a restarted agent (or a
/// second feed in the same process) never reuses an earlier feed's ids.
pub(crate) fn new_boot() -> String {
    // `RandomState` is seeded randomly per process and steps per instance
    let random = RandomState::new().build_hasher().finish();
    format!("{:x}{:06x}", now_ms(), random & 0xff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_shape_is_camel_case_and_omits_relayed_from_when_unset() {
        let mut event = Event {
            id: "b:1".into(),
            ts: 5,
            agent: "tutor".into(),
            kind: "registered".into(),
            data: json!({"skill": "calculus"}),
            relayed_from: None,
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"id":"b:1","ts":5,"agent":"tutor","kind":"registered","data":{"skill":"calculus"}}"#
        );
        event.relayed_from = Some("tutor".into());
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(value["relayedFrom"], "tutor");
        assert_eq!(serde_json::from_value::<Event>(value).unwrap(), event);
    }

    #[test]
    fn boots_differ() {
        assert_ne!(new_boot(), new_boot());
    }
}
