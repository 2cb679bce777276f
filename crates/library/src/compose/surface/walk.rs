//! Reading a component for the surface rules: the components it refers to, the function
//! calls in it, the loan it shows.

use serde_json::Value;
use vocab::loans::operation::{LOAN_ID, RENEW_LOAN, RETURN_DATE};

use crate::compose::compile::LOANS;

/// The loan a component shows or acts on itself, and which of its facts a text shows: a
/// text bound to one of its facts, its date picker, its Renew button.
pub(super) fn loan_shown(c: &Value) -> Option<(&str, Option<&str>)> {
    if let Some(p) = c.pointer("/text/path").and_then(Value::as_str) {
        let mut parts = p.strip_prefix(&format!("/form/{LOANS}/"))?.split('/');
        return Some((parts.next()?, parts.next()));
    }
    if let Some(p) = c.pointer("/value/path").and_then(Value::as_str) {
        return Some((p.strip_prefix(&format!("/form/{RETURN_DATE}/"))?, None));
    }
    let event = c.pointer("/action/event")?;
    let renews = event.get("name").and_then(Value::as_str) == Some(RENEW_LOAN);
    renews
        .then(|| event.pointer(&format!("/context/{LOAN_ID}")).and_then(Value::as_str))
        .flatten()
        .map(|l| (l, None))
}

/// The data bindings (`{"path": …}`) a component shows other than through what the
/// surface rules read as bindings — a Text's `text`, an input's `value`, a button's
/// action, a check's condition: a label, a title or an option bound to the data model.
pub(crate) fn stray_bindings(c: &Value, at: &str) -> Vec<String> {
    fn walk(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(map) if map.contains_key("path") => out.push(at.to_string()),
            Value::Object(map) => {
                for (k, v) in map.iter().filter(|(k, _)| k.as_str() != "condition") {
                    walk(v, &format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let read: &[&str] = match c.get("component").and_then(Value::as_str) {
        Some("Text") => &["text"],
        _ => &["value", "action"],
    };
    let mut out = Vec::new();
    for (k, v) in c.as_object().into_iter().flatten().filter(|(k, _)| !read.contains(&k.as_str())) {
        walk(v, &format!("{at}/{k}"), &mut out);
    }
    out
}

/// The function calls under `v` other than `required`, with their paths.
pub(super) fn calls(v: &Value, at: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match v {
        Value::Object(map) => {
            if let Some(call) = map.get("call").and_then(Value::as_str)
                && call != "required"
            {
                out.push((at.to_string(), call.to_string()));
            }
            for (k, v) in map {
                out.extend(calls(v, &format!("{at}/{k}")));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                out.extend(calls(v, &format!("{at}/{i}")));
            }
        }
        _ => {}
    }
    out
}

/// The ids a component refers to, with the pointer of each: every property the basic
/// catalog types as a component id or a child list — `child` (Card, Button), `children`
/// (Row, Column, List: ids or a template's `componentId`), Modal's `trigger` and
/// `content`, each of Tabs' `tabs[].child`.
pub(super) fn references(component: &Value, at: &str) -> Vec<(String, String)> {
    let mut refs = Vec::new();
    for key in ["child", "trigger", "content"] {
        if let Some(id) = component.get(key).and_then(Value::as_str) {
            refs.push((id.to_string(), format!("{at}/{key}")));
        }
    }
    for (k, tab) in component.get("tabs").and_then(Value::as_array).into_iter().flatten().enumerate() {
        if let Some(id) = tab.get("child").and_then(Value::as_str) {
            refs.push((id.to_string(), format!("{at}/tabs/{k}/child")));
        }
    }
    match component.get("children") {
        Some(Value::Array(ids)) => {
            for (k, id) in ids.iter().enumerate() {
                if let Some(id) = id.as_str() {
                    refs.push((id.to_string(), format!("{at}/children/{k}")));
                }
            }
        }
        Some(Value::Object(template)) => {
            if let Some(id) = template.get("componentId").and_then(Value::as_str) {
                refs.push((id.to_string(), format!("{at}/children/componentId")));
            }
        }
        _ => {}
    }
    refs
}
