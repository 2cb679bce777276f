//! One telemetry event and how its id is made.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

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
    /// The agent that emitted it (`tutor`, `hub`, …); shared by all of a feed's events.
    pub agent: Arc<str>,
    /// What happened: `message_received`, `reply_published`, `heartbeat`, …
    pub kind: String,
    /// Details, a JSON object.
    #[serde(default)]
    pub data: Data,
    /// Set by the Hub when it relays a specialist's event: that specialist's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relayed_from: Option<String>,
}

/// An event's details, kept as the JSON text they were serialized to once: an agent's
/// request path then builds no JSON tree per event, keeping and dropping an event frees
/// one buffer, and relaying or serving it copies that text as it is.
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Data(Box<RawValue>);

impl Data {
    /// `{}`.
    pub fn empty() -> Self {
        Self(RawValue::from_string("{}".to_owned()).expect("{} is json"))
    }

    /// The JSON of `details`; `null` (and anything that does not serialize) becomes `{}`.
    pub fn new(details: &impl Serialize) -> Self {
        match serde_json::value::to_raw_value(details) {
            Ok(raw) if raw.get() != "null" => Self(raw),
            Ok(_) => Self::empty(),
            Err(e) => {
                tracing::debug!(error = %e, "telemetry details did not serialize; recorded as {{}}");
                Self::empty()
            }
        }
    }

    /// Details from JSON text, if it is JSON.
    pub fn from_json(json: String) -> Option<Self> {
        RawValue::from_string(json).ok().map(Self)
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        self.0.get()
    }

    /// The details parsed into a [`Value`] (for inspection and tests; this allocates a tree).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }
}

impl Default for Data {
    fn default() -> Self {
        Self::empty()
    }
}

/// Equal when they hold the same JSON value (whatever the spacing or key order).
impl PartialEq for Data {
    fn eq(&self, other: &Self) -> bool {
        self.json() == other.json() || self.value() == other.value()
    }
}

impl fmt::Debug for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.json())
    }
}

impl From<Value> for Data {
    fn from(value: Value) -> Self {
        Self::new(&value)
    }
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
            data: json!({"skill": "calculus"}).into(),
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
        assert_eq!(serde_json::from_str::<Event>(&value.to_string()).unwrap(), event);
    }

    #[test]
    fn data_is_json_text_made_once() {
        assert_eq!(Data::new(&json!(null)).json(), "{}");
        assert_eq!(Data::default().json(), "{}");
        assert_eq!(Data::new(&json!({"a": [1, "x"]})).json(), r#"{"a":[1,"x"]}"#);
        assert_eq!(
            Data::from_json(r#"{ "b": 1, "a": 2 }"#.into()).unwrap(),
            Data::new(&json!({"a": 2, "b": 1}))
        );
        assert!(Data::from_json("{oops".into()).is_none());
        assert_ne!(Data::new(&json!({"a": 1})), Data::new(&json!({"a": 2})));
        assert_eq!(Data::new(&json!({"a": 1})).value()["a"], 1);
        // a map with a non-string key does not serialize to JSON: it is recorded as {}
        let odd: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert_eq!(Data::new(&odd).json(), "{}");
    }

    #[test]
    fn boots_differ() {
        assert_ne!(new_boot(), new_boot());
    }
}
