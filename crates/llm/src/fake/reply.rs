//! Replies in the provider's shape: errors (`{"type":"error","error":{"type","message"},
//! "request_id"}`, the error type named from the status), successes, and a message body
//! from a scripted reply, with its `request-id` header.
//!
//! Subtle: a reply with no text and no JSON gets the built-in text only when it ends the
//! turn (`end_turn`); for a structured request that is the smallest JSON its schema
//! accepts (first `const`, `enum` or `anyOf`/`oneOf` branch, required properties only).
//! Token counts not scripted are a quarter of the bytes (of the request; of the text and
//! thinking), rounded up.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::script::{FakeReply, last_user_text};

/// An error in the provider's shape, with its `request-id` header.
pub(super) fn error(status: u16, request_id: &str, message: String) -> Response {
    let kind = match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        402 => "billing_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        500..=599 => "api_error",
        _ => "invalid_request_error",
    };
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body =
        json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id});
    (code, [("request-id", request_id.to_string())], axum::Json(body)).into_response()
}

pub(super) fn ok(request_id: &str, body: Value) -> Response {
    (StatusCode::OK, [("request-id", request_id.to_string())], axum::Json(body)).into_response()
}

pub(super) fn message_body(
    rid: &str,
    model: &str,
    req: &Value,
    reply: &FakeReply,
    request_bytes: usize,
) -> Value {
    let stop = reply.stop_reason.as_deref().unwrap_or("end_turn");
    let text = match (&reply.json, &reply.text) {
        (Some(json), _) => json.to_string(),
        (None, Some(text)) => text.clone(),
        (None, None) if stop == "end_turn" => builtin_text(req),
        (None, None) => String::new(),
    };
    let mut content = Vec::new();
    if let Some(thinking) = &reply.thinking {
        content.push(json!({"type": "thinking", "thinking": thinking, "signature": "fake-signature"}));
    }
    if !text.is_empty() {
        content.push(json!({"type": "text", "text": text}));
    }
    let thought = reply.thinking.as_deref().map_or(0, str::len);
    json!({
        "id": format!("msg_{}", rid.trim_start_matches("req_")),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {
            "input_tokens": reply.input_tokens.unwrap_or(request_bytes.div_ceil(4) as u64),
            "output_tokens": reply.output_tokens.unwrap_or((text.len() + thought).div_ceil(4) as u64),
        },
    })
}

/// The built-in reply: the smallest JSON a structured request's schema accepts, else a
/// text naming itself and the question.
fn builtin_text(req: &Value) -> String {
    match req.pointer("/output_config/format/schema") {
        Some(schema) => smallest(schema, 0).to_string(),
        None => {
            let asked: String = last_user_text(req).chars().take(200).collect();
            format!("(fake model) a reply to: {asked}")
        }
    }
}

fn smallest(schema: &Value, depth: usize) -> Value {
    if depth > 16 {
        return Value::Null;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|e| e.first()) {
            return smallest(first, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.iter().find_map(Value::as_str).unwrap_or("null"),
        _ => "null",
    };
    match kind {
        "object" => {
            let props = schema.get("properties");
            let required = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            let fields = required.iter().filter_map(Value::as_str).map(|name| {
                let sub = props.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
                (name.to_string(), smallest(sub, depth + 1))
            });
            Value::Object(fields.collect())
        }
        "array" => json!([]),
        "string" => json!("fake"),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::req;

    #[test]
    fn the_builtin_reply_fits_the_schema() {
        let schema = json!({"type": "object", "additionalProperties": false, "required": ["verdict", "lines", "n", "why"],
            "properties": {"verdict": {"enum": ["route", "clarify"]}, "lines": {"type": "array", "items": {"type": "string"}},
            "n": {"type": "integer"}, "why": {"anyOf": [{"type": "string"}, {"type": "null"}]}}});
        let value = smallest(&schema, 0);
        assert_eq!(value, json!({"verdict": "route", "lines": [], "n": 0, "why": "fake"}));
        assert!(crate::Schema::new(schema).unwrap().accepts(&value));
        let text = builtin_text(&req(json!({})));
        assert_eq!(text, "(fake model) a reply to: hi");
    }
}
