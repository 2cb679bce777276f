//! JSON-RPC errors with A2A codes and a `google.rpc.ErrorInfo` reason.
//!
//! One place maps every failure the server can report to its code; the message is
//! meant for the caller (no internals), the reason is stable and machine-readable.

use a2a_lf::{A2AError, FieldViolation, JsonRpcError, TypedDetail, error_code as code};

/// An error the server answers with. `field` names the offending parameter when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (code {code})")]
pub struct RpcError {
    pub code: i32,
    pub message: String,
    pub field: Option<String>,
    /// An application's stable code carried as `ErrorInfo.reason` instead of the
    /// protocol's (a form's `form_closed`, `operation_reused`, …); see [`RpcError::refusal`].
    pub refusal: Option<String>,
}

impl RpcError {
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), field: None, refusal: None }
    }

    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(code::PARSE_ERROR, message)
    }

    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(code::INVALID_REQUEST, message)
    }

    pub fn method_not_found(method: &str) -> Self {
        let shown: String = method.chars().take(64).collect();
        Self::new(code::METHOD_NOT_FOUND, format!("method not found: {shown}"))
    }

    /// Invalid params naming the field (a dotted path such as `message.role`).
    pub fn invalid_params(field: impl Into<String>, message: impl Into<String>) -> Self {
        let field = field.into();
        let message = message.into();
        Self {
            code: code::INVALID_PARAMS,
            message: format!("invalid params: {field}: {message}"),
            field: Some(field),
            refusal: None,
        }
    }

    pub fn internal() -> Self {
        Self::new(code::INTERNAL_ERROR, "internal error")
    }

    pub fn task_not_found(id: &str) -> Self {
        let shown: String = id.chars().take(128).collect();
        Self::new(code::TASK_NOT_FOUND, format!("task not found: {shown}"))
    }

    pub fn task_not_cancelable(id: &str, state: &str) -> Self {
        Self::new(code::TASK_NOT_CANCELABLE, format!("task {id} is {state} and cannot be canceled"))
    }

    pub fn push_not_supported() -> Self {
        Self::new(code::PUSH_NOTIFICATION_NOT_SUPPORTED, "push notifications are not supported")
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(code::UNSUPPORTED_OPERATION, message)
    }

    pub fn content_type(got: &str) -> Self {
        let shown: String = got.chars().take(64).collect();
        Self::new(
            code::CONTENT_TYPE_NOT_SUPPORTED,
            format!("content type {shown:?} is not supported; send application/json"),
        )
    }

    /// A message part whose media type the agent does not accept (`-32005`), naming the
    /// part's `mediaType` field and what the agent does accept.
    pub fn media_type_not_accepted(index: usize, got: &str, accepted: &[String]) -> Self {
        let field = format!("message.parts[{index}].mediaType");
        let shown: String = got.chars().take(64).collect();
        Self {
            code: code::CONTENT_TYPE_NOT_SUPPORTED,
            message: format!(
                "{field}: media type {shown:?} is not accepted by this agent; it accepts {}",
                accepted.join(", ")
            ),
            field: Some(field),
            refusal: None,
        }
    }

    /// The same error naming `field` where it named `old` (a field path written
    /// differently in the request, such as `message.context_id` for `message.contextId`).
    pub(crate) fn with_field(mut self, old: &str, field: String) -> Self {
        self.message = self.message.replacen(old, &field, 1);
        self.field = Some(field);
        self
    }

    pub fn extended_card_not_configured() -> Self {
        Self::new(code::EXTENDED_CARD_NOT_CONFIGURED, "no extended agent card is configured")
    }

    pub fn extension_required(uri: &str) -> Self {
        Self::new(
            code::EXTENSION_SUPPORT_REQUIRED,
            format!("extension {uri} is required: list it in the A2A-Extensions header"),
        )
    }

    pub fn version_not_supported(got: Option<&str>) -> Self {
        let message = match got {
            None => {
                "missing A2A-Version header (a missing header means 0.3); send A2A-Version: 1.0".to_string()
            }
            Some(v) => {
                let shown: String = v.chars().take(32).collect();
                format!("A2A version {shown:?} is not supported; send A2A-Version: 1.0")
            }
        };
        Self::new(code::VERSION_NOT_SUPPORTED, message)
    }

    /// An application's refusal: invalid params naming `field`, whose `ErrorInfo.reason`
    /// is `code` (a stable snake_case code such as `form_closed`).
    pub fn refusal(field: impl Into<String>, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self { refusal: Some(code.into()), ..Self::invalid_params(field, message) }
    }

    /// The stable reason carried in `ErrorInfo`: the refusal's code when there is one,
    /// else the protocol's reason for the code.
    pub fn reason(&self) -> &str {
        self.refusal.as_deref().unwrap_or_else(|| a2a_lf::error_reason(self.code))
    }

    /// The wire error: `data` holds a `BadRequest` naming the field (when known) and
    /// always ends with an `ErrorInfo` carrying the reason.
    pub fn to_wire(&self) -> JsonRpcError {
        let mut err = A2AError::new(self.code, self.message.clone());
        if let Some(field) = &self.field {
            err = err.with_details(vec![TypedDetail::bad_request(vec![FieldViolation {
                field: field.clone(),
                description: self.message.clone(),
            }])]);
        }
        let mut wire = err.to_jsonrpc_error();
        if let Some(code) = &self.refusal
            && let Some(info) = wire.data.as_mut().and_then(|d| d.as_array_mut()).and_then(|d| d.last_mut())
        {
            info["reason"] = serde_json::Value::String(code.clone());
        }
        wire
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_error_carries_reason_and_field() {
        let wire = RpcError::invalid_params("message.role", "unknown role").to_wire();
        assert_eq!(wire.code, -32602);
        let data = wire.data.expect("data");
        let items = data.as_array().expect("array");
        let info = items.last().expect("error info");
        assert_eq!(info["@type"], "type.googleapis.com/google.rpc.ErrorInfo");
        assert_eq!(info["reason"], "INVALID_PARAMS");
        assert_eq!(info["domain"], "a2a-protocol.org");
        assert_eq!(items[0]["fieldViolations"][0]["field"], "message.role");
    }

    #[test]
    fn a_refusal_carries_its_own_code_as_the_reason() {
        let e = RpcError::refusal("metadata.formRef", "form_closed", "this form is already closed");
        assert_eq!(e.reason(), "form_closed");
        let wire = e.to_wire();
        assert_eq!(wire.code, -32602);
        let data = wire.data.expect("data");
        let items = data.as_array().expect("array");
        assert_eq!(items.last().unwrap()["reason"], "form_closed");
        assert_eq!(items[0]["fieldViolations"][0]["field"], "metadata.formRef");
    }

    #[test]
    fn long_method_names_are_cut() {
        let e = RpcError::method_not_found(&"x".repeat(10_000));
        assert!(e.message.len() < 100);
    }
}
