//! Requests checked as the API would where Campus could get them wrong: the key and
//! version headers (401 and 400), the model served (404), and the body's fields (400) —
//! no sampling parameters, no unknown top-level or `output_config` fields, thinking as the
//! model allows, a JSON schema the API accepts.
//!
//! Subtle: the 401 for a key other than the script's `accept_key` repeats the key sent, as
//! a careless provider might, so tests can see that clients never pass it on.

use axum::http::HeaderMap;
use serde_json::Value;

use crate::{MODELS, Model, ThinkingOff, unsupported_keyword};

/// The key and version headers, as the API checks them; `Ok(key)`, else the status and
/// message of the refusal.
/// `accept_key`: the one key the script accepts, when it names one.
pub(super) fn check_headers(accept_key: Option<&str>, headers: &HeaderMap) -> Result<String, (u16, String)> {
    let key = headers.get("x-api-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    if key.is_empty() {
        return Err((401, "x-api-key header is required".into()));
    }
    if accept_key.is_some_and(|k| k != key) {
        return Err((401, format!("invalid x-api-key: {key}")));
    }
    if headers.get("anthropic-version").is_none() {
        return Err((400, "anthropic-version: header is required".into()));
    }
    Ok(key)
}

/// Whether `model` is served: one of the script's `models`, else one the API knows.
pub(super) fn served(models: Option<&[String]>, model: &str) -> bool {
    match models {
        Some(models) => models.iter().any(|m| m == model),
        None => MODELS.iter().any(|m| m.id == model),
    }
}

/// The top-level fields the fake knows; any other is refused, as the API refuses extras.
const FIELDS: [&str; 8] =
    ["model", "max_tokens", "messages", "system", "thinking", "output_config", "metadata", "stop_sequences"];

/// The checks the API makes where Campus could go wrong: `Err` is the 400's message.
pub(super) fn check_request(req: &Value) -> Result<(), String> {
    let Some(obj) = req.as_object() else { return Err("the body must be a JSON object".into()) };
    for sampling in ["temperature", "top_p", "top_k"] {
        if obj.contains_key(sampling) {
            return Err(format!("{sampling}: not supported with this API version"));
        }
    }
    if let Some(extra) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("{extra}: extra inputs are not permitted"));
    }
    let model = obj.get("model").and_then(Value::as_str).ok_or("model: field required")?;
    if obj.get("max_tokens").and_then(Value::as_u64).is_none_or(|n| n < 1) {
        return Err("max_tokens: a whole number of 1 or more is required".into());
    }
    let messages = obj.get("messages").and_then(Value::as_array).ok_or("messages: field required")?;
    if messages.is_empty() {
        return Err("messages: at least one message is required".into());
    }
    for (i, m) in messages.iter().enumerate() {
        if !(m["role"] == "user" || m["role"] == "assistant")
            || !(m["content"].is_string() || m["content"].is_array())
        {
            return Err(format!("messages.{i}: a role (user or assistant) and content are required"));
        }
    }
    if obj.get("system").is_some_and(|s| !s.is_string()) {
        return Err("system: must be a string".into());
    }
    if let Some(thinking) = obj.get("thinking") {
        let kind = thinking["type"].as_str().unwrap_or("");
        let off = Model::parse(model).map(|m| m.spec().thinking_off);
        let refused = match kind {
            "disabled" => off.is_some_and(|o| o != ThinkingOff::Disabled),
            "between_tools" => off.is_some_and(|o| o != ThinkingOff::BetweenTools),
            "adaptive" => false,
            _ => true,
        };
        if refused {
            return Err(format!("thinking.type.{kind}: not supported for this model"));
        }
    }
    if let Some(output) = obj.get("output_config") {
        let Some(output) = output.as_object() else { return Err("output_config: must be an object".into()) };
        if let Some(extra) = output.keys().find(|k| *k != "effort" && *k != "format") {
            return Err(format!("output_config.{extra}: extra inputs are not permitted"));
        }
        if output
            .get("effort")
            .is_some_and(|e| !["low", "medium", "high", "xhigh", "max"].contains(&e.as_str().unwrap_or("")))
        {
            return Err("output_config.effort: must be low, medium, high, xhigh or max".into());
        }
        if let Some(format) = output.get("format") {
            if format["type"] != "json_schema" || !format["schema"].is_object() {
                return Err("output_config.format: type json_schema and a schema object are required".into());
            }
            if let Some(problem) = unsupported_keyword(&format["schema"]) {
                return Err(format!("output_config.format.schema: {problem}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::fake::req;

    #[test]
    fn requests_are_checked_as_the_api_would() {
        assert_eq!(check_request(&req(json!({}))), Ok(()));
        assert!(check_request(&req(json!({"temperature": 0.2}))).unwrap_err().starts_with("temperature"));
        assert!(check_request(&req(json!({"stream": true}))).unwrap_err().contains("extra inputs"));
        let sonnet_disabled = json!({"model": "claude-sonnet-5-5", "thinking": {"type": "disabled"}});
        assert!(check_request(&req(sonnet_disabled)).is_err());
        let opus_between = json!({"model": "claude-opus-5-5", "thinking": {"type": "between_tools"}});
        assert!(check_request(&req(opus_between)).is_err());
        assert_eq!(check_request(&req(json!({"thinking": {"type": "disabled"}}))), Ok(()));
        let loose =
            json!({"output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}}});
        assert!(check_request(&req(loose)).unwrap_err().contains("additionalProperties"));
        assert!(check_request(&req(json!({"max_tokens": 0}))).is_err());
        assert!(check_request(&req(json!({"messages": []}))).is_err());
    }
}
