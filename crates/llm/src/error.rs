//! Sanitized model errors: a stable code, our own wording, the provider's request id and
//! status. The provider's message is never read into them (it can echo key material).

use std::fmt;

use serde_json::Value;

use crate::Usage;

/// Why a model call failed, as a stable snake_case code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// No API key is configured: no request was made.
    MissingCredentials,
    /// 401.
    AuthenticationFailed,
    /// 403.
    PermissionDenied,
    /// 404: the configured model is not available (no other model is substituted).
    ModelUnavailable,
    /// 429.
    RateLimited,
    /// 5xx, 529 (overloaded).
    ProviderUnavailable,
    /// The call took longer than the client's timeout.
    Timeout,
    /// The provider could not be reached (connect, TLS, a broken reply stream).
    ConnectionFailed,
    /// The model declined (`stop_reason: refusal`).
    Refusal,
    /// The output cap was used up before any usable text.
    TruncatedNoText,
    /// Any other status (400, 402, 413, a redirect …): the provider refused the request.
    RequestRejected,
    /// A reply with no text, not JSON, or not in the requested schema's shape.
    InvalidOutput,
    /// The reply was larger than the client's body limit.
    ResponseTooLarge,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 13] = [
        ErrorCode::MissingCredentials,
        ErrorCode::AuthenticationFailed,
        ErrorCode::PermissionDenied,
        ErrorCode::ModelUnavailable,
        ErrorCode::RateLimited,
        ErrorCode::ProviderUnavailable,
        ErrorCode::Timeout,
        ErrorCode::ConnectionFailed,
        ErrorCode::Refusal,
        ErrorCode::TruncatedNoText,
        ErrorCode::RequestRejected,
        ErrorCode::InvalidOutput,
        ErrorCode::ResponseTooLarge,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MissingCredentials => "missing_credentials",
            ErrorCode::AuthenticationFailed => "authentication_failed",
            ErrorCode::PermissionDenied => "permission_denied",
            ErrorCode::ModelUnavailable => "model_unavailable",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::ProviderUnavailable => "provider_unavailable",
            ErrorCode::Timeout => "timeout",
            ErrorCode::ConnectionFailed => "connection_failed",
            ErrorCode::Refusal => "refusal",
            ErrorCode::TruncatedNoText => "truncated_no_text",
            ErrorCode::RequestRejected => "request_rejected",
            ErrorCode::InvalidOutput => "invalid_output",
            ErrorCode::ResponseTooLarge => "response_too_large",
        }
    }

    /// Our own words for it, safe to show a student.
    pub fn message(self) -> &'static str {
        match self {
            ErrorCode::MissingCredentials => "no API key is set for the model provider",
            ErrorCode::AuthenticationFailed => "the model provider did not accept the API key",
            ErrorCode::PermissionDenied => "the API key may not use this model",
            ErrorCode::ModelUnavailable => "the configured model is not available",
            ErrorCode::RateLimited => "the model provider is limiting requests; try again shortly",
            ErrorCode::ProviderUnavailable => "the model provider is unavailable or overloaded",
            ErrorCode::Timeout => "the model call timed out",
            ErrorCode::ConnectionFailed => "could not reach the model provider",
            ErrorCode::Refusal => "the model declined to answer",
            ErrorCode::TruncatedNoText => "the output cap was used up before any answer text",
            ErrorCode::RequestRejected => "the model provider rejected the request",
            ErrorCode::InvalidOutput => "the model's reply was not in the expected form",
            ErrorCode::ResponseTooLarge => "the model provider's reply was larger than allowed",
        }
    }

    /// The code for an HTTP error status from the provider.
    pub fn from_status(status: u16) -> ErrorCode {
        match status {
            401 => ErrorCode::AuthenticationFailed,
            403 => ErrorCode::PermissionDenied,
            404 => ErrorCode::ModelUnavailable,
            429 => ErrorCode::RateLimited,
            500..=599 => ErrorCode::ProviderUnavailable,
            _ => ErrorCode::RequestRejected,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed model call. Holds nothing the provider wrote except its request id.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmError {
    pub code: ErrorCode,
    /// The provider's HTTP status, when it answered with one.
    pub status: Option<u16>,
    /// The provider's request id, when it gave one.
    pub request_id: Option<String>,
    /// Tokens billed anyway (a refusal, a truncation, an unreadable reply).
    pub usage: Option<Usage>,
}

impl LlmError {
    pub fn new(code: ErrorCode) -> Self {
        Self { code, status: None, request_id: None, usage: None }
    }

    /// `{"code", "message", "requestId"?}`: what a reply's metadata carries.
    pub fn report(&self) -> vocab::meta::CallError {
        vocab::meta::CallError {
            code: self.code.as_str().into(),
            message: self.code.message().into(),
            request_id: self.request_id.clone(),
        }
    }

    /// [`LlmError::report`] as JSON, for a metadata map.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.report()).unwrap_or_default()
    }
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.code.message(), self.code.as_str())?;
        if let Some(id) = &self.request_id {
            write!(f, ", request id {id}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LlmError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_stable_codes() {
        let cases = [
            (401, "authentication_failed"),
            (403, "permission_denied"),
            (404, "model_unavailable"),
            (429, "rate_limited"),
            (500, "provider_unavailable"),
            (503, "provider_unavailable"),
            (529, "provider_unavailable"),
            (400, "request_rejected"),
            (402, "request_rejected"),
            (413, "request_rejected"),
        ];
        for (status, code) in cases {
            assert_eq!(ErrorCode::from_status(status).as_str(), code, "{status}");
        }
    }

    #[test]
    fn codes_and_messages_are_lowercase_without_a_period() {
        for code in ErrorCode::ALL {
            let m = code.message();
            assert!(!m.ends_with('.'), "{m}");
            assert_eq!(m.chars().next().map(|c| c.is_lowercase()), Some(true), "{m}");
            assert!(code.as_str().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        let e = LlmError { request_id: Some("req_1".into()), ..LlmError::new(ErrorCode::RateLimited) };
        assert_eq!(
            e.to_string(),
            "the model provider is limiting requests; try again shortly (rate_limited), request id req_1"
        );
        assert_eq!(e.to_json()["requestId"], "req_1");
    }
}
