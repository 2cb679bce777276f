//! Proto field names in params. ProtoJSON parsers accept a field under its JSON name
//! (`contextId`) and under its original proto name (`context_id`); so do we, for the
//! fields of the request types we decode. Keys are rewritten to the JSON name before
//! typed decoding; values that are user data (`metadata`, a part's `data`) keep their
//! keys exactly as sent. Errors name a field as the request wrote it.

use serde_json::{Map, Value};

use crate::RpcError;

/// Proto names of the request fields a2a-lf decodes (SendMessageRequest, Message,
/// Part, SendMessageConfiguration, the push config, GetTask, ListTasks), with their JSON
/// names. `blocking` (v0.3, the inverse of `returnImmediately`) is deliberately absent.
const PROTO_NAMES: &[(&str, &str)] = &[
    ("message_id", "messageId"),
    ("context_id", "contextId"),
    ("task_id", "taskId"),
    ("reference_task_ids", "referenceTaskIds"),
    ("media_type", "mediaType"),
    ("history_length", "historyLength"),
    ("accepted_output_modes", "acceptedOutputModes"),
    ("return_immediately", "returnImmediately"),
    ("task_push_notification_config", "taskPushNotificationConfig"),
    ("push_notification_config", "pushNotificationConfig"),
    ("page_size", "pageSize"),
    ("page_token", "pageToken"),
    ("status_timestamp_after", "statusTimestampAfter"),
    ("include_artifacts", "includeArtifacts"),
];

/// Fields whose value is user data (`google.protobuf.Struct` / `Value`): never rewritten.
const USER_DATA: &[&str] = &["metadata", "data"];

/// Where keys were rewritten: (path with JSON names, path as the request wrote it).
#[derive(Debug, Default)]
pub(crate) struct Written(Vec<(String, String)>);

impl Written {
    /// An error naming a field by its JSON path, renamed to the path the request used.
    pub(crate) fn restore<T>(&self, result: Result<T, RpcError>) -> Result<T, RpcError> {
        result.map_err(|e| {
            let Some(field) = e.field.clone() else { return e };
            let under = |p: &str| {
                field == p || field.strip_prefix(p).is_some_and(|r| r.starts_with('.') || r.starts_with('['))
            };
            match self.0.iter().filter(|(json, _)| under(json)).max_by_key(|(json, _)| json.len()) {
                Some((json, written)) => {
                    let renamed = format!("{written}{}", &field[json.len()..]);
                    e.with_field(&field, renamed)
                }
                None => e,
            }
        })
    }
}

/// Rewrites proto names to JSON names in `params`, recursively, outside user data.
pub(crate) fn normalize(params: Option<Value>) -> Result<(Value, Written), RpcError> {
    let mut value = params.unwrap_or_else(|| Value::Object(Map::new()));
    let mut written = Written::default();
    walk(&mut value, "", "", &mut written)?;
    Ok((value, written))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn walk(value: &mut Value, path: &str, as_written: &str, out: &mut Written) -> Result<(), RpcError> {
    match value {
        Value::Object(obj) => {
            let mut renamed: Vec<(&str, &str)> = Vec::new();
            for (proto, json) in PROTO_NAMES {
                if let Some(v) = obj.remove(*proto) {
                    if obj.contains_key(*json) {
                        return Err(RpcError::invalid_params(
                            join(as_written, json),
                            format!("given twice, as {json} and as {proto}"),
                        ));
                    }
                    obj.insert(json.to_string(), v);
                    out.0.push((join(path, json), join(as_written, proto)));
                    renamed.push((json, proto));
                }
            }
            for (key, child) in obj.iter_mut() {
                if USER_DATA.contains(&key.as_str()) {
                    continue;
                }
                let written_key = renamed.iter().find(|(j, _)| j == key).map_or(key.as_str(), |(_, p)| p);
                walk(child, &join(path, key), &join(as_written, written_key), out)?;
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                walk(item, &format!("{path}[{i}]"), &format!("{as_written}[{i}]"), out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn proto_names_become_json_names_outside_user_data() {
        let params = json!({
            "message": {"message_id": "m", "context_id": "c", "role": "ROLE_USER",
                        "parts": [{"text": "t", "media_type": "text/plain", "metadata": {"page_size": 1}}],
                        "metadata": {"context_id": "kept", "nested": {"task_id": "kept"}}},
            "configuration": {"history_length": 2, "accepted_output_modes": ["text/plain"]},
            "metadata": {"history_length": "kept"}
        });
        let (v, _) = normalize(Some(params)).unwrap();
        assert_eq!(v["message"]["messageId"], "m");
        assert_eq!(v["message"]["contextId"], "c");
        assert_eq!(v["message"]["parts"][0]["mediaType"], "text/plain");
        assert_eq!(v["message"]["parts"][0]["metadata"], json!({"page_size": 1}));
        assert_eq!(v["message"]["metadata"], json!({"context_id": "kept", "nested": {"task_id": "kept"}}));
        assert_eq!(v["configuration"], json!({"historyLength": 2, "acceptedOutputModes": ["text/plain"]}));
        assert_eq!(v["metadata"], json!({"history_length": "kept"}));
        let (v, _) = normalize(Some(json!({"data": {"page_size": 1}}))).unwrap();
        assert_eq!(v, json!({"data": {"page_size": 1}}));
    }

    #[test]
    fn both_spellings_at_once_are_refused() {
        let e = normalize(Some(json!({"message": {"contextId": "a", "context_id": "b"}}))).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (-32602, Some("message.contextId")));
    }

    #[test]
    fn errors_name_the_field_as_written() {
        let (_, w) =
            normalize(Some(json!({"message": {"context_id": "", "parts": [{"media_type": 1}]}}))).unwrap();
        let e = w.restore::<()>(Err(RpcError::invalid_params("message.contextId", "must not be empty")));
        let e = e.unwrap_err();
        assert_eq!(e.field.as_deref(), Some("message.context_id"));
        assert_eq!(e.message, "invalid params: message.context_id: must not be empty");
        let e =
            w.restore::<()>(Err(RpcError::invalid_params("message.parts[0].mediaType", "bad"))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("message.parts[0].media_type"));
        let e = w.restore::<()>(Err(RpcError::invalid_params("message.role", "bad"))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("message.role"));
    }
}
