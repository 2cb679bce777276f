//! The JSON-RPC 2.0 envelope: parsing a request body into id, method and params, and
//! the error that belongs to each way it can be wrong.

use a2a_lf::JsonRpcId;
use serde_json::Value;

use crate::RpcError;

/// The A2A 1.0 methods of the JSON-RPC binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RpcMethod {
    SendMessage,
    SendStreamingMessage,
    GetTask,
    ListTasks,
    CancelTask,
    SubscribeToTask,
    CreatePushConfig,
    GetPushConfig,
    ListPushConfigs,
    DeletePushConfig,
    GetExtendedAgentCard,
}

impl RpcMethod {
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "SendMessage" => Self::SendMessage,
            "SendStreamingMessage" => Self::SendStreamingMessage,
            "GetTask" => Self::GetTask,
            "ListTasks" => Self::ListTasks,
            "CancelTask" => Self::CancelTask,
            "SubscribeToTask" => Self::SubscribeToTask,
            "CreateTaskPushNotificationConfig" => Self::CreatePushConfig,
            "GetTaskPushNotificationConfig" => Self::GetPushConfig,
            "ListTaskPushNotificationConfigs" => Self::ListPushConfigs,
            "DeleteTaskPushNotificationConfig" => Self::DeletePushConfig,
            "GetExtendedAgentCard" => Self::GetExtendedAgentCard,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::SendMessage => "SendMessage",
            Self::SendStreamingMessage => "SendStreamingMessage",
            Self::GetTask => "GetTask",
            Self::ListTasks => "ListTasks",
            Self::CancelTask => "CancelTask",
            Self::SubscribeToTask => "SubscribeToTask",
            Self::CreatePushConfig => "CreateTaskPushNotificationConfig",
            Self::GetPushConfig => "GetTaskPushNotificationConfig",
            Self::ListPushConfigs => "ListTaskPushNotificationConfigs",
            Self::DeletePushConfig => "DeleteTaskPushNotificationConfig",
            Self::GetExtendedAgentCard => "GetExtendedAgentCard",
        }
    }
}

/// A request whose envelope is valid: the method is still a raw name (unknown names are
/// answered by the caller, after the version check, with -32601).
#[derive(Debug)]
pub struct Envelope {
    pub id: JsonRpcId,
    pub method: String,
    pub params: Option<Value>,
}

/// Parses a request body. On failure returns the id to echo (null when it could not be
/// read) and the error.
pub fn parse_envelope(body: &[u8]) -> Result<Envelope, (JsonRpcId, RpcError)> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| (JsonRpcId::Null, RpcError::parse(format!("parse error: {}", short(&e)))))?;
    let mut obj = match value {
        Value::Object(obj) => obj,
        Value::Array(_) => {
            return Err((JsonRpcId::Null, RpcError::invalid_request("batch requests are not supported")));
        }
        _ => {
            return Err((JsonRpcId::Null, RpcError::invalid_request("a request must be a JSON object")));
        }
    };
    let id = match obj.remove("id") {
        None => {
            return Err((
                JsonRpcId::Null,
                RpcError::invalid_request("id is required (notifications are not supported)"),
            ));
        }
        Some(Value::Null) => JsonRpcId::Null,
        Some(Value::String(s)) => JsonRpcId::String(s),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(i) => JsonRpcId::Number(i),
            None => {
                return Err((
                    JsonRpcId::Null,
                    RpcError::invalid_request("id must be a string or an integer"),
                ));
            }
        },
        Some(_) => {
            return Err((JsonRpcId::Null, RpcError::invalid_request("id must be a string or an integer")));
        }
    };
    match obj.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(_) => return Err((id, RpcError::invalid_request("jsonrpc must be \"2.0\""))),
        None => return Err((id, RpcError::invalid_request("jsonrpc is required and must be \"2.0\""))),
    }
    let method = match obj.remove("method") {
        Some(Value::String(m)) if !m.is_empty() => m,
        Some(_) => return Err((id, RpcError::invalid_request("method must be a non-empty string"))),
        None => return Err((id, RpcError::invalid_request("method is required"))),
    };
    let params = match obj.remove("params") {
        None | Some(Value::Null) => None,
        Some(p @ Value::Object(_)) => Some(p),
        Some(_) => return Err((id, RpcError::invalid_params("params", "must be an object"))),
    };
    Ok(Envelope { id, method, params })
}

/// Maps a method name to a method, with a hint for the v0.3 names.
pub(crate) fn resolve_method(name: &str) -> Result<RpcMethod, RpcError> {
    RpcMethod::from_name(name).ok_or_else(|| {
        if name.contains('/') {
            let mut e = RpcError::method_not_found(name);
            e.message.push_str(" (v0.3 method names are not served; this is A2A 1.0)");
            e
        } else {
            RpcError::method_not_found(name)
        }
    })
}

fn short(e: &serde_json::Error) -> String {
    // serde_json messages never contain input text beyond a token, but keep them short.
    let s = e.to_string();
    s.chars().take(160).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_code(body: &str) -> (JsonRpcId, i32) {
        let (id, e) = parse_envelope(body.as_bytes()).expect_err("should fail");
        (id, e.code)
    }

    #[test]
    fn envelope_errors() {
        assert_eq!(err_code("{"), (JsonRpcId::Null, -32700));
        assert_eq!(err_code("[]"), (JsonRpcId::Null, -32600));
        assert_eq!(
            err_code("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\"}]"),
            (JsonRpcId::Null, -32600)
        );
        assert_eq!(err_code("42"), (JsonRpcId::Null, -32600));
        assert_eq!(
            err_code(r#"{"jsonrpc":"1.0","id":7,"method":"GetTask"}"#),
            (JsonRpcId::Number(7), -32600)
        );
        assert_eq!(err_code(r#"{"id":"a","method":"GetTask"}"#), (JsonRpcId::String("a".into()), -32600));
        assert_eq!(err_code(r#"{"jsonrpc":"2.0","id":1}"#), (JsonRpcId::Number(1), -32600));
        assert_eq!(err_code(r#"{"jsonrpc":"2.0","id":1.5,"method":"GetTask"}"#), (JsonRpcId::Null, -32600));
        assert_eq!(err_code(r#"{"jsonrpc":"2.0","id":{},"method":"GetTask"}"#), (JsonRpcId::Null, -32600));
        assert_eq!(err_code(r#"{"jsonrpc":"2.0","method":"GetTask"}"#), (JsonRpcId::Null, -32600));
        assert_eq!(
            err_code(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}"#),
            (JsonRpcId::Number(1), -32602)
        );
    }

    #[test]
    fn deep_nesting_is_a_parse_error_not_a_crash() {
        let body = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(err_code(&body).1, -32700);
    }

    #[test]
    fn v03_names_are_not_found() {
        assert_eq!(resolve_method("message/send").unwrap_err().code, -32601);
        assert_eq!(resolve_method("SendMessage").unwrap(), RpcMethod::SendMessage);
    }
}
