//! What the Hub strips from a specialist's events before relaying them.

use serde_json::Value;

use crate::{Data, Event};

/// Keys whose values are content (what people wrote), compared after lowercasing and
/// dropping `_` and `-`, so `message_text`, `messageText` and `Message-Text` all match.
const CONTENT_KEYS: &[&str] = &[
    "text",
    "question",
    "answer",
    "reply",
    "content",
    "values",
    "value",
    "form",
    "notes",
    "errordetail",
    "messagetext",
];

/// `event` with `data` carrying no content: under a content key (see the crate docs) a
/// string becomes `"[N chars redacted]"`, any other value but `null` becomes
/// `"[redacted]"`. Everything else is kept. Details that cannot hold a content key are
/// passed on as they are, without being parsed.
pub fn redact(mut event: Event) -> Event {
    if may_name_content(event.data.json()) {
        let mut value = event.data.value();
        redact_value(&mut value);
        event.data = Data::new(&value);
    }
    event
}

/// Whether any object key in `json`, at any depth, is a content key. Scans the text once
/// without building a tree (keys without escapes are not even copied); anything it cannot
/// read counts as content.
fn may_name_content(json: &str) -> bool {
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

    /// A JSON value; yields whether a content key occurs in it.
    struct Scan;
    /// An object key; yields whether it is a content key.
    struct Key;

    impl<'de> DeserializeSeed<'de> for Scan {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Scan {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            while let Some(content) = map.next_key_seed(Key)? {
                if content || map.next_value_seed(Scan)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
            while let Some(found) = seq.next_element_seed(Scan)? {
                if found {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
    }

    impl<'de> DeserializeSeed<'de> for Key {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> Visitor<'de> for Key {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object key")
        }
        fn visit_str<E>(self, key: &str) -> Result<bool, E> {
            Ok(is_content_key(key))
        }
    }

    // stops at the first content key; serde_json then reports the unread rest as an
    // error, which counts as content too
    Scan.deserialize(&mut serde_json::Deserializer::from_str(json)).unwrap_or(true)
}

/// Whether `key` names content that [`redact`] removes.
pub fn is_content_key(key: &str) -> bool {
    if key.is_ascii() {
        // the common case, without decoding chars
        let normal = || key.bytes().filter(|b| *b != b'_' && *b != b'-').map(|b| b.to_ascii_lowercase());
        let len = normal().count();
        return CONTENT_KEYS.iter().any(|k| k.len() == len && normal().eq(k.bytes()));
    }
    let normal = || key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase);
    CONTENT_KEYS.iter().any(|k| normal().eq(k.chars()))
}

fn redact_value(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if is_content_key(key) {
                    redact_content(value);
                } else {
                    redact_value(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_value),
        _ => {}
    }
}

fn redact_content(value: &mut Value) {
    match value {
        Value::Null => {}
        Value::String(s) => *value = Value::String(format!("[{} chars redacted]", s.chars().count())),
        _ => *value = Value::String("[redacted]".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(data: Value) -> Event {
        Event {
            id: "b:7".into(),
            ts: 1,
            agent: "tutor".into(),
            kind: "message_received".into(),
            data: data.into(),
            relayed_from: Some("tutor".into()),
        }
    }

    #[test]
    fn strips_content_and_keeps_ids() {
        let original = event(json!({
            "messageId": "m-1",
            "contextId": "c-1",
            "skill": "calculus",
            "state": "completed",
            "parts": 2,
            "text": "what is the derivative of x²?",
            "message": {"role": "user", "messageText": "héllo", "parts": [{"text": "a\nb", "kind": "text"}]},
            "form": {"fields": [{"id": "name", "value": "Ada"}]},
            "answers": [{"fieldId": "age", "value": 36}, {"fieldId": "ok", "value": true}],
            "values": ["x", "y"],
            "error_detail": "stack trace",
            "notes": null,
        }));
        let redacted = redact(original.clone());
        assert_eq!(
            redacted.data.value(),
            json!({
                "messageId": "m-1",
                "contextId": "c-1",
                "skill": "calculus",
                "state": "completed",
                "parts": 2,
                "text": "[29 chars redacted]",
                "message": {"role": "user", "messageText": "[5 chars redacted]", "parts": [{"text": "[3 chars redacted]", "kind": "text"}]},
                "form": "[redacted]",
                "answers": [{"fieldId": "age", "value": "[redacted]"}, {"fieldId": "ok", "value": "[redacted]"}],
                "values": "[redacted]",
                "error_detail": "[11 chars redacted]",
                "notes": null,
            })
        );
        assert_eq!(
            (&redacted.id, redacted.ts, &redacted.agent, &redacted.kind, &redacted.relayed_from),
            (&original.id, original.ts, &original.agent, &original.kind, &original.relayed_from)
        );
    }

    #[test]
    fn only_details_that_may_name_content_are_parsed() {
        for json in [
            r#"{"messageId":"m","outcome":"route"}"#,
            r#"{"textLength":3}"#,
            r#"{"contextId":"c","skill":"calculus","count":2}"#,
        ] {
            let e = redact(Event { data: Data::from_json(json.into()).unwrap(), ..event(json!({})) });
            assert_eq!(e.data.json(), json, "passed on as it is");
        }
        // every spelling of a content key, at any depth, is found by the scan and redacted
        for key in ["te_xt", "Message-Text", "ERROR_DETAIL", "e-r-r-o-r-d-e-t-a-i-l", "Values", "notes"] {
            let json = format!(r#"{{"a":1,"b":[{{"c":{{}}}},{{"{key}":"secret"}}],"d":2}}"#);
            assert!(may_name_content(&json), "{key}");
            let e = redact(Event { data: Data::from_json(json).unwrap(), ..event(json!({})) });
            assert_eq!(e.data.value()["b"][1][key], "[6 chars redacted]", "{key}");
        }
        // a key written with escapes is read as the key it spells
        let escaped = r#"{"\u0074ext":"secret"}"#;
        let e = redact(Event { data: Data::from_json(escaped.into()).unwrap(), ..event(json!({})) });
        assert_eq!(e.data.value()["text"], "[6 chars redacted]");
        // content words inside values, or inside longer keys, are not keys
        assert!(!may_name_content(r#"{"contextId":"text","kind":["reply","notes"]}"#));
    }

    #[test]
    fn key_matching_ignores_case_and_separators() {
        for key in ["text", "TEXT", "message_text", "messageText", "Message-Text", "errorDetail", "Value"] {
            assert!(is_content_key(key), "{key}");
        }
        for key in ["textLength", "contextId", "messageId", "kind", "formId", "skill", "state", "context"] {
            assert!(!is_content_key(key), "{key}");
        }
        // a non-ASCII key is compared char by char after Unicode lowercasing
        for key in ["téxt", "text\u{200b}", "İtext", "ｔｅｘｔ"] {
            assert!(!is_content_key(key), "{key}");
        }
    }

    #[test]
    fn non_object_data_is_left_alone() {
        assert_eq!(redact(event(json!("plain"))).data.value(), json!("plain"));
        assert_eq!(
            redact(event(json!([{"reply": "hi"}]))).data.value(),
            json!([{"reply": "[2 chars redacted]"}])
        );
    }
}
