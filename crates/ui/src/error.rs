//! Errors as the page sees them — `{"error":{"code","message","field"?}}` with a stable
//! `code` — and the JSON body reader every POST uses (content type, size, syntax, fields).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

/// The largest body a POST may carry.
/// The codes a run (a question or a form press) ends with in `RUN_ERROR.code`, besides a
/// refusal's own (the page has words for each: `web/store/words.js`).
pub mod run_codes {
    /// No answer from the Hub in time: it may still have handled it.
    pub const TIMEOUT: &str = "timeout";
    /// The Hub answered with an error.
    pub const HUB_ERROR: &str = "hub_error";
    /// The Hub could not be reached: nothing was sent.
    pub const HUB_UNAVAILABLE: &str = "hub_unavailable";
    /// The connection broke after the question went out.
    pub const OUTCOME_UNKNOWN: &str = "outcome_unknown";
    /// A question in the conversation is still running.
    pub const RUN_IN_PROGRESS: &str = "run_in_progress";
}

pub const BODY_LIMIT: usize = 64 * 1024;

/// One refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub field: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), field: None }
    }

    /// 400 `invalid_input` naming `field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: Some(field.into()), ..Self::new(StatusCode::BAD_REQUEST, "invalid_input", message) }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = json!({"code": self.code, "message": self.message});
        if let Some(field) = self.field {
            error["field"] = json!(field);
        }
        (self.status, axum::Json(json!({ "error": error }))).into_response()
    }
}

/// Reads a JSON body of type `T`: `application/json` only (415), at most [`BODY_LIMIT`]
/// bytes (413), JSON (400 `invalid_json`), the right fields and types with nothing unknown
/// (400 `invalid_input`, `field` as the body spelled it: `messages[0].content`). Messages
/// never quote the body's values.
pub fn read_json<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let json_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json_type {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "the body must be application/json",
        ));
    }
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("the body is over {} KiB", BODY_LIMIT / 1024),
            )
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", "the body could not be read")
        }
    })?;
    let de = &mut serde_json::Deserializer::from_slice(&bytes);
    let value: T = serde_path_to_error::deserialize(de).map_err(|e| refusal(&e))?;
    Ok(value)
}

fn refusal(e: &serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let inner = e.inner();
    if !inner.is_data() {
        let message = format!("the body is not JSON (line {} column {})", inner.line(), inner.column());
        return ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", message);
    }
    let text = inner.to_string();
    // serde's own text quotes what the body held; only its kind and what was expected are kept
    let named =
        |prefix: &str| text.strip_prefix(prefix).and_then(|rest| rest.split('`').nth(1)).map(str::to_owned);
    let mut field = e.path().to_string();
    let message = if text.starts_with("unknown field ") {
        // the path already ends with the unknown field
        "unknown field".to_string()
    } else if let Some(name) = named("missing field ") {
        field = join(&field, &name);
        "missing field".to_string()
    } else if let Some((_, expected)) = text.split_once(", expected ") {
        let expected = expected.split(" at line ").next().unwrap_or(expected);
        format!("wrong type or value: expected {expected}")
    } else {
        "wrong type or value".to_string()
    };
    ApiError::invalid(field, message)
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() || path == "." { name.to_string() } else { format!("{path}.{name}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        a: String,
        items: Vec<Item>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        n: u32,
    }

    fn read(ct: Option<&str>, body: &str) -> Result<Body, ApiError> {
        let mut headers = HeaderMap::new();
        if let Some(ct) = ct {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(ct).unwrap());
        }
        read_json(&headers, Ok(Bytes::from(body.to_string())))
    }

    #[test]
    fn refusals_name_the_field_and_never_quote_values() {
        let ok = r#"{"a":"x","items":[{"n":1}]}"#;
        assert!(read(Some("application/json; charset=utf-8"), ok).is_ok());
        assert_eq!(read(Some("text/plain"), ok).unwrap_err().code, "unsupported_media_type");
        assert_eq!(read(None, ok).unwrap_err().code, "unsupported_media_type");
        assert_eq!(read(Some("application/json"), "{oops").unwrap_err().code, "invalid_json");
        let e = read(Some("application/json"), r#"{"a":"x","items":[{"n":"SECRET"}]}"#).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), ("invalid_input", Some("items[0].n")));
        assert!(!e.message.contains("SECRET") && e.message.contains("expected u32"), "{}", e.message);
        let e = read(Some("application/json"), r#"{"a":"x","items":[],"zz":1}"#).unwrap_err();
        assert_eq!((e.field.as_deref(), e.message.as_str()), (Some("zz"), "unknown field"));
        let e = read(Some("application/json"), r#"{"items":[]}"#).unwrap_err();
        assert_eq!((e.field.as_deref(), e.message.as_str()), (Some("a"), "missing field"));
        let e = read(Some("application/json"), r#"{"a":"x","items":[{"m":1}]}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("items[0].m"));
    }
}
