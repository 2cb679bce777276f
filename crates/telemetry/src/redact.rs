//! What the Hub strips from a specialist's events before relaying them.

use serde_json::Value;

use crate::Event;

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

/// A copy of `event` whose `data` carries no content: under a content key (see the crate
/// docs) a string becomes `"[N chars redacted]"`, any other value but `null` becomes
/// `"[redacted]"`. Everything else is kept.
pub fn redact(event: &Event) -> Event {
    let mut copy = event.clone();
    redact_value(&mut copy.data);
    copy
}

/// Whether `key` names content that [`redact`] removes.
pub fn is_content_key(key: &str) -> bool {
    let normal: String =
        key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect();
    CONTENT_KEYS.contains(&normal.as_str())
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
            data,
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
        let redacted = redact(&original);
        assert_eq!(
            redacted.data,
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
        // the original is untouched
        assert_eq!(original.data["text"], "what is the derivative of x²?");
    }

    #[test]
    fn key_matching_ignores_case_and_separators() {
        for key in ["text", "TEXT", "message_text", "messageText", "Message-Text", "errorDetail", "Value"] {
            assert!(is_content_key(key), "{key}");
        }
        for key in ["textLength", "contextId", "messageId", "kind", "formId", "skill", "state", "context"] {
            assert!(!is_content_key(key), "{key}");
        }
    }

    #[test]
    fn non_object_data_is_left_alone() {
        assert_eq!(redact(&event(json!("plain"))).data, json!("plain"));
        assert_eq!(redact(&event(json!([{"reply": "hi"}]))).data, json!([{"reply": "[2 chars redacted]"}]));
    }
}
