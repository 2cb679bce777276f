//! Typed, validated method params. Every failure names the offending field, as the
//! request wrote it (JSON or proto name, see [`crate::names`]).

use a2a_lf::{CancelTaskRequest, GetTaskRequest, ListTasksRequest, PartContent, Role, SendMessageRequest};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::RpcError;
use crate::media::Accepts;
use crate::names::normalize;

/// Longest id (message, task, context) we accept.
pub(crate) const MAX_ID_LEN: usize = 256;
/// Default and largest ListTasks page.
pub(crate) const DEFAULT_PAGE_SIZE: i32 = 50;
pub(crate) const MAX_PAGE_SIZE: i32 = 100;

fn typed<T: DeserializeOwned>(value: Value) -> Result<T, RpcError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        // "missing field `x`" is reported at the parent; name the field itself.
        let field = match inner.strip_prefix("missing field `").and_then(|r| r.split('`').next()) {
            Some(missing) if path == "." => missing.to_string(),
            Some(missing) => format!("{path}.{missing}"),
            None if path == "." => "params".to_string(),
            None => path,
        };
        let msg: String = inner.chars().take(160).collect();
        RpcError::invalid_params(field, msg)
    })
}

fn check_id(field: &str, id: &str) -> Result<(), RpcError> {
    if id.trim().is_empty() {
        return Err(RpcError::invalid_params(field, "must not be empty"));
    }
    if id.len() > MAX_ID_LEN {
        return Err(RpcError::invalid_params(field, format!("longer than {MAX_ID_LEN} bytes")));
    }
    Ok(())
}

fn check_history(field: &str, n: Option<i32>) -> Result<(), RpcError> {
    match n {
        Some(n) if n < 0 => Err(RpcError::invalid_params(field, "must not be negative")),
        _ => Ok(()),
    }
}

/// The part fields that carry content; a part has exactly one.
const CONTENT_KEYS: [&str; 4] = ["text", "raw", "url", "data"];

/// Checks the raw parts before typed decoding, which would silently pick one content field.
fn check_raw_parts(params: &Value) -> Result<(), RpcError> {
    let Some(parts) = params.get("message").and_then(|m| m.get("parts")) else {
        return Ok(()); // typed decoding reports the missing field
    };
    let Some(parts) = parts.as_array() else {
        return Err(RpcError::invalid_params("message.parts", "must be an array"));
    };
    if parts.is_empty() {
        return Err(RpcError::invalid_params("message.parts", "must contain at least one part"));
    }
    for (i, part) in parts.iter().enumerate() {
        let field = format!("message.parts[{i}]");
        let Some(obj) = part.as_object() else {
            return Err(RpcError::invalid_params(field, "must be an object"));
        };
        let present: Vec<&str> = CONTENT_KEYS.iter().copied().filter(|k| obj.contains_key(*k)).collect();
        match present.as_slice() {
            [] => return Err(RpcError::invalid_params(field, "must have one of text, raw, url, data")),
            [one] => {
                if *one != "data" && !obj[*one].is_string() {
                    return Err(RpcError::invalid_params(format!("{field}.{one}"), "must be a string"));
                }
            }
            _ => {
                return Err(RpcError::invalid_params(
                    field,
                    format!("has {} content fields; exactly one is allowed", present.join(" and ")),
                ));
            }
        }
        for key in ["mediaType", "filename"] {
            if obj.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
                return Err(RpcError::invalid_params(format!("{field}.{key}"), "must be a string"));
            }
        }
        if obj.get("metadata").is_some_and(|v| !v.is_object() && !v.is_null()) {
            return Err(RpcError::invalid_params(format!("{field}.metadata"), "must be an object"));
        }
    }
    Ok(())
}

/// SendMessage params; every part's media type must be one `accepts` accepts (-32005).
pub(crate) fn send_message(params: Option<Value>, accepts: &Accepts) -> Result<SendMessageRequest, RpcError> {
    let (value, written) = normalize(params)?;
    written.restore(send_message_value(value, accepts))
}

fn send_message_value(params: Value, accepts: &Accepts) -> Result<SendMessageRequest, RpcError> {
    check_raw_parts(&params)?;
    let req: SendMessageRequest = typed(params)?;
    let m = &req.message;
    check_id("message.messageId", &m.message_id)?;
    if m.role != Role::User {
        return Err(RpcError::invalid_params("message.role", "must be ROLE_USER"));
    }
    if let Some(c) = &m.context_id {
        check_id("message.contextId", c)?;
    }
    if let Some(t) = &m.task_id {
        check_id("message.taskId", t)?;
    }
    for (i, p) in m.parts.iter().enumerate() {
        if let PartContent::Url(u) = &p.content
            && u.is_empty()
        {
            return Err(RpcError::invalid_params(format!("message.parts[{i}].url"), "must not be empty"));
        }
    }
    if let Some(cfg) = &req.configuration {
        check_history("configuration.historyLength", cfg.history_length)?;
    }
    accepts.check(m)?;
    Ok(req)
}

pub(crate) fn get_task(params: Option<Value>) -> Result<GetTaskRequest, RpcError> {
    let (value, written) = normalize(params)?;
    written.restore(typed(value).and_then(|req: GetTaskRequest| {
        check_id("id", &req.id)?;
        check_history("historyLength", req.history_length)?;
        Ok(req)
    }))
}

pub(crate) fn cancel_task(params: Option<Value>) -> Result<CancelTaskRequest, RpcError> {
    let (value, written) = normalize(params)?;
    written.restore(typed(value).and_then(|req: CancelTaskRequest| {
        check_id("id", &req.id)?;
        Ok(req)
    }))
}

pub(crate) fn list_tasks(params: Option<Value>) -> Result<ListTasksRequest, RpcError> {
    let (value, written) = normalize(params)?;
    written.restore(typed(value).and_then(check_list_tasks))
}

fn check_list_tasks(req: ListTasksRequest) -> Result<ListTasksRequest, RpcError> {
    if let Some(c) = &req.context_id {
        check_id("contextId", c)?;
    }
    if let Some(size) = req.page_size
        && !(0..=MAX_PAGE_SIZE).contains(&size)
    {
        return Err(RpcError::invalid_params(
            "pageSize",
            format!("must be between 1 and {MAX_PAGE_SIZE} (0 or absent means {DEFAULT_PAGE_SIZE})"),
        ));
    }
    check_history("historyLength", req.history_length)?;
    if req.page_token.as_ref().is_some_and(|t| t.len() > MAX_ID_LEN) {
        return Err(RpcError::invalid_params("pageToken", "is not a token this server issued"));
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field_of(r: Result<impl std::fmt::Debug, RpcError>) -> String {
        let e = r.expect_err("should fail");
        assert_eq!(e.code, -32602);
        e.field.expect("field")
    }

    fn send(params: Option<Value>) -> Result<SendMessageRequest, RpcError> {
        send_message(params, &Accepts::default())
    }

    fn msg(extra: Value) -> Option<Value> {
        let mut m = json!({"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]});
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        Some(json!({ "message": m }))
    }

    #[test]
    fn send_message_fields_are_named() {
        assert_eq!(field_of(send(Some(json!({})))), "message");
        assert_eq!(field_of(send(None)), "message");
        assert_eq!(field_of(send(msg(json!({"role": "ROLE_ROBOT"})))), "message.role");
        assert_eq!(field_of(send(msg(json!({"role": "ROLE_AGENT"})))), "message.role");
        assert_eq!(field_of(send(msg(json!({"role": 5})))), "message.role");
        assert_eq!(field_of(send(msg(json!({"messageId": ""})))), "message.messageId");
        assert_eq!(field_of(send(msg(json!({"messageId": 3})))), "message.messageId");
        assert_eq!(field_of(send(msg(json!({"parts": []})))), "message.parts");
        assert_eq!(field_of(send(msg(json!({"parts": {}})))), "message.parts");
        assert_eq!(field_of(send(msg(json!({"parts": [{}]})))), "message.parts[0]");
        assert_eq!(field_of(send(msg(json!({"parts": [{"text": 1}]})))), "message.parts[0].text");
        assert_eq!(field_of(send(msg(json!({"parts": [{"text": "a", "data": {}}]})))), "message.parts[0]");
        assert_eq!(field_of(send(msg(json!({"parts": [{"raw": "!!"}]})))), "message.parts[0]");
        assert_eq!(field_of(send(msg(json!({"contextId": ""})))), "message.contextId");
        let mut with_cfg = msg(json!({})).unwrap();
        with_cfg["configuration"] = json!({"historyLength": -1});
        assert_eq!(field_of(send(Some(with_cfg))), "configuration.historyLength");
    }

    #[test]
    fn send_message_accepts_every_part_kind() {
        let p = msg(
            json!({"parts": [{"text": "a", "mediaType": "text/plain"}, {"data": {"k": 1}}, {"url": "http://x"}, {"raw": "aGk="}]}),
        );
        let req = send(p).expect("valid");
        assert_eq!(req.message.parts.len(), 4);
    }

    #[test]
    fn proto_field_names_are_accepted_and_errors_use_them() {
        let p = json!({"message": {"message_id": "m1", "context_id": "c1", "role": "ROLE_USER",
                       "parts": [{"text": "hi", "media_type": "text/plain"}],
                       "metadata": {"request_id": "r"}},
                       "configuration": {"history_length": 1, "return_immediately": true}});
        let req = send(Some(p)).expect("valid");
        assert_eq!((req.message.message_id.as_str(), req.message.context_id.as_deref()), ("m1", Some("c1")));
        assert_eq!(req.message.parts[0].media_type.as_deref(), Some("text/plain"));
        assert!(req.message.metadata.unwrap().contains_key("request_id"), "user data keeps its keys");
        let cfg = req.configuration.unwrap();
        assert_eq!((cfg.history_length, cfg.return_immediately), (Some(1), Some(true)));
        assert_eq!(field_of(send(msg(json!({"context_id": ""})))), "message.context_id");
        let got = list_tasks(Some(json!({"page_size": 5, "page_token": "t", "history_length": 0}))).unwrap();
        assert_eq!((got.page_size, got.page_token.as_deref()), (Some(5), Some("t")));
        assert_eq!(field_of(list_tasks(Some(json!({"page_size": 500})))), "page_size");
        assert_eq!(get_task(Some(json!({"id": "t", "history_length": 2}))).unwrap().history_length, Some(2));
        assert_eq!(field_of(get_task(Some(json!({"id": "t", "history_length": -1})))), "history_length");
    }

    #[test]
    fn other_methods() {
        assert_eq!(field_of(get_task(Some(json!({})))), "id");
        assert_eq!(field_of(get_task(Some(json!({"id": "t", "historyLength": -2})))), "historyLength");
        assert_eq!(field_of(cancel_task(Some(json!({"id": 1})))), "id");
        assert_eq!(field_of(list_tasks(Some(json!({"pageSize": 101})))), "pageSize");
        assert_eq!(field_of(list_tasks(Some(json!({"status": "DONE"})))), "status");
        assert!(list_tasks(None).is_ok());
    }
}
