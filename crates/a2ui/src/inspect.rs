//! A surface's structure for an inspector: what was composed (component types, ids, the
//! tree, bindings, actions and their context keys, date ranges, checks by function name),
//! with every other string — words a person could read, which may repeat what a student
//! typed — replaced by `"[N chars redacted]"` ([`structure`]). Numbers, booleans and
//! `null` are kept: they are layout and ranges, not words.

use serde_json::{Map, Value};

/// Keys whose string values are structure, not words: kept as they are.
pub const STRUCTURE_KEYS: &[&str] = &[
    "version",
    "surfaceId",
    "catalogId",
    "id",
    "component",
    "child",
    "children",
    "componentId",
    "path",
    "name",
    "call",
    "variant",
    "min",
    "max",
    "justify",
    "align",
    "direction",
    "usageHint",
    "sourceComponentId",
];

/// `messages` (A2UI server messages) with every string that is not structure redacted.
pub fn structure(messages: &[Value]) -> Vec<Value> {
    messages.iter().map(|m| walk(m, false)).collect()
}

/// `value`, its strings kept when `keep` (they sit under a structure key) and redacted
/// otherwise; an array under a structure key keeps its strings too (`children`).
fn walk(value: &Value, keep: bool) -> Value {
    match value {
        Value::String(s) if keep => Value::String(s.clone()),
        Value::String(s) => Value::String(format!("[{} chars redacted]", s.chars().count())),
        Value::Array(items) => Value::Array(items.iter().map(|v| walk(v, keep)).collect()),
        Value::Object(map) => {
            let out: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), walk(v, STRUCTURE_KEYS.contains(&k.as_str())))).collect();
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words_are_redacted_and_the_structure_kept() {
        let messages = vec![
            json!({"version": "v0.9", "createSurface": {"surfaceId": "loans-1", "catalogId": crate::BASIC_CATALOG_ID}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "loans-1", "components": [
                {"id": "root", "component": "Column", "children": ["title", "pick", "renew"]},
                {"id": "title", "component": "Text", "text": "Renew Calculus before my exam", "variant": "h2"},
                {"id": "pick", "component": "DateTimeInput", "label": "New return date", "value": {"path": "/loan/returnDate"},
                 "enableDate": true, "min": "2026-12-25", "max": "2027-01-14",
                 "checks": [{"call": "required", "args": {"value": {"path": "/loan/returnDate"}}, "message": "Pick a date"}]},
                {"id": "renew", "component": "Button", "child": "renew_label",
                 "action": {"event": {"name": "renewLoan", "context": {"loanId": "L-1001", "returnDate": {"path": "/loan/returnDate"}}}}},
            ]}}),
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "loans-1", "path": "/loan", "value": {"note": "my exam is on the 9th"}}}),
        ];
        let s = structure(&messages);
        assert_eq!(s[0], messages[0], "nothing but structure in a createSurface");
        let c = &s[1]["updateComponents"]["components"];
        assert_eq!(c[0], messages[1]["updateComponents"]["components"][0], "the tree is kept");
        assert_eq!(c[1]["text"], "[29 chars redacted]");
        assert_eq!((c[1]["variant"].as_str(), c[1]["component"].as_str()), (Some("h2"), Some("Text")));
        assert_eq!((c[2]["min"].as_str(), c[2]["max"].as_str()), (Some("2026-12-25"), Some("2027-01-14")));
        assert_eq!(c[2]["label"], "[15 chars redacted]");
        assert_eq!(c[2]["value"]["path"], "/loan/returnDate", "bindings are kept");
        assert_eq!(c[2]["enableDate"], true);
        assert_eq!(
            (c[2]["checks"][0]["call"].as_str(), c[2]["checks"][0]["message"].as_str()),
            (Some("required"), Some("[11 chars redacted]"))
        );
        let event = &c[3]["action"]["event"];
        assert_eq!(event["name"], "renewLoan");
        assert_eq!(event["context"]["returnDate"]["path"], "/loan/returnDate");
        // a literal in an action's context is a value, not structure
        assert_eq!(event["context"]["loanId"], "[6 chars redacted]");
        // the data model is what the student may have typed: every string goes
        assert_eq!(s[2]["updateDataModel"]["value"]["note"], "[21 chars redacted]");
        assert_eq!(s[2]["updateDataModel"]["path"], "/loan");
        let text = serde_json::to_string(&s).unwrap();
        for words in ["Calculus", "exam", "New return date", "Pick a date", "L-1001"] {
            assert!(!text.contains(words), "{words} left in {text}");
        }
    }
}
