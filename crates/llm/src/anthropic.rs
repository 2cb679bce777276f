//! The live client: a thin `reqwest` over the Anthropic Messages API.
//!
//! `POST {base}/v1/messages` and `GET {base}/v1/models/{id}`, one attempt each (no
//! retries, no redirects), a whole-call timeout, a cap on the reply body, content blocks
//! picked by type. Errors keep the status and the provider's request id, never its message.

use std::time::{Duration, Instant};

use conf::ConfError;
use reqwest::header::{HeaderMap, HeaderValue};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::{
    ApiKey, Call, Completion, ErrorCode, Llm, LlmError, Model, Request, Schema, StopReason, Thinking,
    ThinkingOff, Usage,
};

/// The one place the API version is named (`anthropic-version`).
pub const API_VERSION: &str = "2026-10-21";
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// A model call's whole time: connect, send, model, reply.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(45);
/// Largest reply body read (an 800-token answer is a few KiB; thinking blocks count too).
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// Where and how the client calls.
#[derive(Debug, Clone)]
pub struct AnthropicConfig {
    /// `https://…`, or `http://` on this machine (the fake API); no trailing slash needed.
    pub base_url: String,
    /// `None`: every call fails with `missing_credentials` before any request.
    pub key: Option<ApiKey>,
    pub timeout: Duration,
    pub body_limit: usize,
}

impl AnthropicConfig {
    pub fn new(base_url: impl Into<String>, key: Option<ApiKey>) -> Self {
        Self { base_url: base_url.into(), key, timeout: DEFAULT_TIMEOUT, body_limit: DEFAULT_BODY_LIMIT }
    }
}

/// `ANTHROPIC_BASE_URL` checked, else [`DEFAULT_BASE_URL`]: `https://` anywhere, `http://`
/// only on a loopback host (the key never crosses a network in clear text), no query.
pub fn base_url_from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<String, ConfError> {
    const VAR: &str = "ANTHROPIC_BASE_URL";
    let Some(raw) = env(VAR).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()) else {
        return Ok(DEFAULT_BASE_URL.to_string());
    };
    let bad = |p: &str| Err(ConfError::new(VAR, "", format!("{raw:?} {p}")));
    let Ok(url) = reqwest::Url::parse(&raw) else { return bad("is not a URL") };
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return bad("must be a base URL without a query, fragment or credentials");
    }
    match url.scheme() {
        "https" => {}
        "http" => {
            let host = url.host_str().unwrap_or("").trim_start_matches('[').trim_end_matches(']');
            let loopback =
                host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
            if !loopback {
                return bad(
                    "must use https:// (http:// only on this machine: 127.0.0.1, localhost or [::1])",
                );
            }
        }
        _ => return bad("must start with https://"),
    }
    Ok(raw.trim_end_matches('/').to_string())
}

/// What `GET /v1/models/{id}` says about a model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    #[serde(default)]
    pub display_name: Option<String>,
}

/// The live Anthropic client.
#[derive(Debug, Clone)]
pub struct Anthropic {
    http: reqwest::Client,
    base: String,
    key: Option<ApiKey>,
    body_limit: usize,
}

impl Anthropic {
    /// A client; `Err` (`connection_failed`) only when the HTTP stack cannot start.
    pub fn new(config: AnthropicConfig) -> Result<Anthropic, LlmError> {
        let http = reqwest::Client::builder()
            // under the servers' idle close (see a2a::client::POOL_IDLE; the fake is one)
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .user_agent(concat!("campus/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|_| LlmError::new(ErrorCode::ConnectionFailed))?;
        Ok(Anthropic {
            http,
            base: config.base_url.trim_end_matches('/').to_string(),
            key: config.key,
            body_limit: config.body_limit,
        })
    }

    /// Whether a key is configured (for the startup line: never the key itself).
    pub fn has_key(&self) -> bool {
        self.key.is_some()
    }

    /// `GET /v1/models/{id}`: whether the account can use `model` (not a billed call).
    pub async fn model_info(&self, model: Model) -> Result<ModelInfo, LlmError> {
        let url = format!("{}/v1/models/{}", self.base, model.id());
        let raw = self.send(self.http.get(url)).await?;
        serde_json::from_slice(&raw.body).map_err(|_| raw.error(ErrorCode::InvalidOutput))
    }

    async fn messages(&self, req: &Request, schema: Option<&Schema>) -> Result<Completion, LlmError> {
        let url = format!("{}/v1/messages", self.base);
        let raw = self.send(self.http.post(url).json(&request_body(req, schema))).await?;
        let wire: WireMessage =
            serde_json::from_slice(&raw.body).map_err(|_| raw.error(ErrorCode::InvalidOutput))?;
        let texts: Vec<&str> =
            wire.content.iter().filter(|b| b.kind == "text").filter_map(|b| b.text.as_deref()).collect();
        Ok(Completion {
            text: (!texts.is_empty()).then(|| texts.concat()),
            stop_reason: wire.stop_reason.unwrap_or(StopReason::Other),
            usage: Usage { input_tokens: wire.usage.input_tokens, output_tokens: wire.usage.output_tokens },
            request_id: raw.request_id,
            model: wire.model.unwrap_or_else(|| req.model.id().to_string()),
            latency: raw.latency,
        })
    }

    /// One attempt: the key and version headers, the status, the request id, the body
    /// up to the limit. A non-success status is an error with its code.
    async fn send(&self, builder: reqwest::RequestBuilder) -> Result<Raw, LlmError> {
        let Some(key) = &self.key else { return Err(LlmError::new(ErrorCode::MissingCredentials)) };
        // ApiKey::new admits only visible ASCII, which a header always carries
        let mut key_header =
            HeaderValue::from_str(key.expose()).map_err(|_| LlmError::new(ErrorCode::MissingCredentials))?;
        key_header.set_sensitive(true);
        let started = Instant::now();
        let mut resp = builder
            .header("x-api-key", key_header)
            .header("anthropic-version", API_VERSION)
            .send()
            .await
            .map_err(|e| LlmError::new(transport_code(&e)))?;
        let status = resp.status().as_u16();
        let mut request_id = request_id(resp.headers());
        let partial =
            |code| LlmError { code, status: Some(status), request_id: request_id.clone(), usage: None };
        if resp.content_length().is_some_and(|n| n > self.body_limit as u64) {
            return Err(partial(ErrorCode::ResponseTooLarge));
        }
        let mut body = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() + chunk.len() > self.body_limit {
                        return Err(partial(ErrorCode::ResponseTooLarge));
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) => return Err(partial(transport_code(&e))),
            }
        }
        if !(200..300).contains(&status) {
            // the body's request_id when the header had none; nothing else from it
            if request_id.is_none() {
                request_id = serde_json::from_slice::<ErrorBody>(&body)
                    .ok()
                    .and_then(|b| b.request_id)
                    .filter(|id| clean_id(id));
            }
            return Err(LlmError {
                code: ErrorCode::from_status(status),
                status: Some(status),
                request_id,
                usage: None,
            });
        }
        Ok(Raw { status, request_id, body, latency: started.elapsed() })
    }
}

impl Llm for Anthropic {
    fn label(&self) -> &'static str {
        "live"
    }

    fn complete<'a>(&'a self, req: &'a Request, schema: Option<&'a Schema>) -> Call<'a, Completion> {
        Box::pin(self.messages(req, schema))
    }
}

/// The Messages API body for `req`: the model, the cap, the system prompt, the messages,
/// thinking as the model allows it off, effort and the JSON Schema under `output_config`.
/// No sampling parameters (the API version refuses them).
pub(crate) fn request_body(req: &Request, schema: Option<&Schema>) -> Value {
    let messages: Vec<Value> =
        req.messages.iter().map(|m| json!({"role": m.role, "content": m.text})).collect();
    let mut body = json!({"model": req.model.id(), "max_tokens": req.max_tokens, "messages": messages});
    if !req.system.is_empty() {
        body["system"] = json!(req.system);
    }
    if req.thinking == Thinking::Off {
        match req.model.spec().thinking_off {
            ThinkingOff::Disabled => body["thinking"] = json!({"type": "disabled"}),
            ThinkingOff::BetweenTools => body["thinking"] = json!({"type": "between_tools"}),
            ThinkingOff::AlwaysOn => {}
        }
    }
    let mut output = Map::new();
    if let Some(effort) = req.effort {
        output.insert("effort".into(), json!(effort.as_str()));
    }
    if let Some(schema) = schema {
        output.insert("format".into(), json!({"type": "json_schema", "schema": schema.value()}));
    }
    if !output.is_empty() {
        body["output_config"] = Value::Object(output);
    }
    body
}

struct Raw {
    status: u16,
    request_id: Option<String>,
    body: Vec<u8>,
    latency: Duration,
}

impl Raw {
    fn error(&self, code: ErrorCode) -> LlmError {
        LlmError { code, status: Some(self.status), request_id: self.request_id.clone(), usage: None }
    }
}

/// The code for a failure to get an answer at all. Its cause goes to the debug log only:
/// reqwest's words name the URL and the transport's reason, never a header.
fn transport_code(e: &reqwest::Error) -> ErrorCode {
    let mut cause = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        cause.push_str(": ");
        cause.push_str(&s.to_string());
        source = s.source();
    }
    tracing::debug!(cause = %cause, "model request got no answer");
    if e.is_timeout() { ErrorCode::Timeout } else { ErrorCode::ConnectionFailed }
}

/// The `request-id` header, if it looks like an id (kept on errors and shown to people).
fn request_id(headers: &HeaderMap) -> Option<String> {
    headers.get("request-id").and_then(|v| v.to_str().ok()).filter(|id| clean_id(id)).map(str::to_string)
}

fn clean_id(id: &str) -> bool {
    (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[derive(Deserialize)]
struct WireMessage {
    #[serde(default)]
    model: Option<String>,
    content: Vec<WireBlock>,
    #[serde(default)]
    stop_reason: Option<StopReason>,
    usage: WireUsage,
}

#[derive(Deserialize)]
struct WireBlock {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

/// Only the request id is read from an error body; `error.message` is never touched.
#[derive(Deserialize)]
struct ErrorBody {
    #[serde(default)]
    request_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Effort, Message};

    #[test]
    fn base_urls() {
        let with = |v: &'static str| move |k: &str| (k == "ANTHROPIC_BASE_URL").then(|| v.to_string());
        assert_eq!(base_url_from_env(&|_| None).unwrap(), DEFAULT_BASE_URL);
        assert_eq!(base_url_from_env(&with("http://127.0.0.1:41249/")).unwrap(), "http://127.0.0.1:41249");
        assert_eq!(
            base_url_from_env(&with("https://proxy.example/anthropic")).unwrap(),
            "https://proxy.example/anthropic"
        );
        assert!(base_url_from_env(&with("http://proxy.example")).is_err(), "clear text off this machine");
        assert!(base_url_from_env(&with("ftp://127.0.0.1")).is_err());
        assert!(base_url_from_env(&with("https://a.example/?x=1")).is_err());
        assert!(base_url_from_env(&with("https://user:pw@a.example")).is_err());
        assert!(base_url_from_env(&with("not a url")).is_err());
    }

    #[test]
    fn thinking_off_follows_the_model() {
        let mut req =
            Request::new("t", Model::parse("claude-haiku-5-5").unwrap(), "", vec![Message::user("q")], 10);
        assert_eq!(request_body(&req, None)["thinking"], json!({"type": "disabled"}));
        req.model = Model::parse("claude-sonnet-5-5").unwrap();
        assert_eq!(request_body(&req, None)["thinking"], json!({"type": "between_tools"}));
        req.model = Model::parse("claude-opus-5-5").unwrap();
        assert!(request_body(&req, None).get("thinking").is_none());
        req.thinking = Thinking::ModelDefault;
        req.effort = None;
        req.model = Model::default();
        let body = request_body(&req, None);
        assert!(
            body.get("thinking").is_none()
                && body.get("output_config").is_none()
                && body.get("system").is_none()
        );
        req.effort = Some(Effort::High);
        assert_eq!(request_body(&req, None)["output_config"], json!({"effort": "high"}));
    }
}
