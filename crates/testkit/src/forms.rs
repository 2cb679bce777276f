//! A form's A2UI messages read as the renderer would: its components, its prefilled data,
//! and the action a button would send.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

/// A question that gets the tutoring form with its date and period prefilled, whatever
/// today is: "next Monday" is always a weekday (the Monday of next week, 1–7 days ahead),
/// inside the form's window; "tomorrow" is a weekend day on Fridays and Saturdays.
pub const TUTORING_QUESTION: &str = "Can I meet a tutor about derivatives next Monday afternoon?";

/// Every component of the surface so far, by id (later messages replace earlier ones).
pub fn components(messages: &[Value], into: &mut HashMap<String, Value>) {
    for m in messages {
        for c in m["updateComponents"]["components"].as_array().into_iter().flatten() {
            into.insert(c["id"].as_str().unwrap().to_string(), c.clone());
        }
    }
}

/// The action the renderer would send for the button whose event is `name`: its context's
/// paths (`/form/<field>`) resolved from `values`, its literals kept.
pub fn press(surface: &str, screen: &HashMap<String, Value>, name: &str, values: &Value) -> Value {
    let (id, button) = screen
        .iter()
        .find(|(_, c)| c["component"] == "Button" && c["action"]["event"]["name"] == name)
        .unwrap_or_else(|| panic!("a {name} button on the screen"));
    let mut context = Map::new();
    for (k, v) in button["action"]["event"]["context"].as_object().unwrap() {
        let resolved = match v.get("path").and_then(Value::as_str) {
            Some(path) => values[path.trim_start_matches("/form/")].clone(),
            None => v.clone(),
        };
        context.insert(k.clone(), resolved);
    }
    json!({"name": name, "surfaceId": surface, "sourceComponentId": id,
           "timestamp": "2026-11-30T10:00:00.000Z", "context": context})
}

pub fn surface_id(messages: &[Value]) -> String {
    messages
        .iter()
        .find_map(|m| m["createSurface"]["surfaceId"].as_str())
        .expect("a createSurface")
        .to_string()
}

/// The data model the form was prefilled with (`/form`).
pub fn prefill(messages: &[Value]) -> Value {
    messages
        .iter()
        .find(|m| m["updateDataModel"]["path"] == "/form")
        .map(|m| m["updateDataModel"]["value"].clone())
        .unwrap_or_else(|| json!({}))
}
