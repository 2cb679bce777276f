//! The one model seam. Every model call in Campus goes through [`Llm`]: one structured
//! call (a JSON Schema in, a checked `serde_json::Value` out) and one text call, over
//! three implementations:
//!
//! - [`Anthropic`]: the live client, a thin `reqwest` over the Messages API (no SDK, no
//!   retries, 45 s timeout, the API version in [`API_VERSION`]);
//! - [`Mock`]: deterministic and labelled (`model: "mock"`), scripted by closures, offline;
//! - [`fake`]: a fake Messages API over real HTTP (`campus fake-anthropic`), scripted
//!   replies, errors and delays, recording every request, for tests and keyless demos.
//!
//! What an agent needs at startup is in [`LiveSetup`] (model, key, base URL); which models
//! exist and what they cost is the one table in [`MODELS`]. Failures are [`LlmError`]s
//! with a stable [`ErrorCode`]; the provider's own message is never kept.
//!
//! This crate knows no agent.

mod anthropic;
mod error;
pub mod fake;
mod key;
mod mock;
mod models;
mod schema;
mod setup;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use anthropic::{
    API_VERSION, Anthropic, AnthropicConfig, DEFAULT_BASE_URL, DEFAULT_BODY_LIMIT, DEFAULT_TIMEOUT,
    ModelInfo, base_url_from_env,
};
pub use error::{ErrorCode, LlmError};
pub use key::{ApiKey, DEFAULT_KEY_VAR, load_key};
pub use mock::{Mock, MockReply};
pub use models::{DEFAULT_MODEL, LongPrompt, MODELS, Model, ModelSpec, ThinkingOff, choose_model};
pub use schema::{Schema, unsupported_keyword};
pub use setup::{LiveSetup, ModelConfig};

/// What a model call returns: boxed so that `dyn Llm` works (an agent holds
/// `Arc<dyn Llm>` and does not know which implementation answers).
pub type Call<'a, T> = Pin<Box<dyn Future<Output = Result<T, LlmError>> + Send + 'a>>;

/// Who wrote a message of the conversation sent to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// One message of the conversation sent to the model (text only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    pub text: String,
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Self { role: Role::User, text: text.into() }
    }

    pub fn assistant(text: impl Into<String>) -> Self {
        Self { role: Role::Assistant, text: text.into() }
    }
}

/// `output_config.effort`: how much the model may think and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    Low,
    Medium,
    High,
}

impl Effort {
    pub fn as_str(self) -> &'static str {
        match self {
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
        }
    }
}

/// Whether the model thinks before it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thinking {
    /// As the model does by default (the request names no `thinking`).
    ModelDefault,
    /// As little as the model allows: `disabled` where it can be, `between_tools` where
    /// that is the lowest setting, and the model's default (at the request's effort) where
    /// thinking cannot be turned off (see [`ThinkingOff`]). For small structured calls:
    /// thinking tokens count toward `max_tokens`.
    Off,
}

/// One model call. Build it with [`Request::new`] (effort low, thinking off: the small
/// structured call) and change what differs.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Names the call in logs and mock rules (`scope_check`, `tutor_answer`, …); never
    /// sent to the provider.
    pub purpose: &'static str,
    pub model: Model,
    /// The server-side system prompt (empty: none sent).
    pub system: String,
    pub messages: Vec<Message>,
    /// The output cap (`max_tokens`), thinking included.
    pub max_tokens: u32,
    /// `None` sends no effort (the model's default).
    pub effort: Option<Effort>,
    pub thinking: Thinking,
}

impl Request {
    pub fn new(
        purpose: &'static str,
        model: Model,
        system: impl Into<String>,
        messages: Vec<Message>,
        max_tokens: u32,
    ) -> Self {
        Self {
            purpose,
            model,
            system: system.into(),
            messages,
            max_tokens,
            effort: Some(Effort::Low),
            thinking: Thinking::Off,
        }
    }
}

/// Tokens billed for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// As our agents report it in a reply's metadata ([`vocab::meta::TokenUsage`],
    /// `{inputTokens, outputTokens}`; the provider's own wire names are snake_case, which
    /// `Serialize` keeps).
    pub fn tokens(&self) -> vocab::meta::TokenUsage {
        vocab::meta::TokenUsage { input_tokens: self.input_tokens, output_tokens: self.output_tokens }
    }

    /// [`Usage::tokens`] as JSON, for a metadata map.
    pub fn report(&self) -> serde_json::Value {
        serde_json::to_value(self.tokens()).unwrap_or_default()
    }
}

/// Why the model stopped (`stop_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    MaxTokens,
    StopSequence,
    ToolUse,
    PauseTurn,
    Refusal,
    ModelContextWindowExceeded,
    /// A reason this crate does not know (or none given).
    #[serde(other)]
    Other,
}

impl StopReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::ToolUse => "tool_use",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Refusal => "refusal",
            StopReason::ModelContextWindowExceeded => "model_context_window_exceeded",
            StopReason::Other => "other",
        }
    }

    /// The output ran out of room (the cap or the context window).
    pub fn is_truncation(self) -> bool {
        matches!(self, StopReason::MaxTokens | StopReason::ModelContextWindowExceeded)
    }
}

/// What a provider answered, before [`Llm::text`] or [`Llm::structured`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The `text` blocks joined in order (picked by type: thinking blocks and any other
    /// block are skipped); `None` when there was none.
    pub text: Option<String>,
    pub stop_reason: StopReason,
    pub usage: Usage,
    /// The provider's request id (`request-id` header), when it gave one.
    pub request_id: Option<String>,
    /// The model that answered, as the provider names it (`mock` for the mock).
    pub model: String,
    pub latency: Duration,
}

/// A successful call: the content and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply<T> {
    pub content: T,
    pub stop_reason: StopReason,
    pub usage: Usage,
    pub request_id: Option<String>,
    pub model: String,
    pub latency: Duration,
}

impl<T> Reply<T> {
    fn from(completion: Completion, content: T) -> Self {
        Reply {
            content,
            stop_reason: completion.stop_reason,
            usage: completion.usage,
            request_id: completion.request_id,
            model: completion.model,
            latency: completion.latency,
        }
    }
}

impl Reply<Value> {
    /// The structured content as `T`; a shape the schema allowed but `T` does not is
    /// `invalid_output`.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, LlmError> {
        T::deserialize(&self.content).map_err(|_| LlmError {
            code: ErrorCode::InvalidOutput,
            status: None,
            request_id: self.request_id.clone(),
            usage: Some(self.usage),
        })
    }
}

/// The model seam. Implement [`Llm::complete`]; call [`Llm::text`] or
/// [`Llm::structured`], which read the completion the same way for every implementation
/// (stop reasons, empty output, the schema check) and log each call without its content.
pub trait Llm: Send + Sync {
    /// What answers, for the page and the logs: `live`, `mock`.
    fn label(&self) -> &'static str;

    /// Sends one request; `schema` asks for JSON output in that shape. Makes exactly one
    /// provider call (or none: a missing key), never retries.
    fn complete<'a>(&'a self, req: &'a Request, schema: Option<&'a Schema>) -> Call<'a, Completion>;

    /// A text answer: `refusal`, `truncated_no_text` when the cap was used up before any
    /// text, `invalid_output` for no text otherwise. A truncated answer that has text is
    /// returned, with `stop_reason: max_tokens`.
    fn text<'a>(&'a self, req: &'a Request) -> Call<'a, Reply<String>> {
        Box::pin(async move {
            let done = self.complete(req, None).await;
            logged(req, self.label(), done.and_then(read_text))
        })
    }

    /// A JSON answer in `schema`'s shape, checked against it in code: `refusal`,
    /// `truncated_no_text` when the cap cut the JSON, `invalid_output` when it is not JSON
    /// or not in the schema's shape.
    fn structured<'a>(&'a self, req: &'a Request, schema: &'a Schema) -> Call<'a, Reply<Value>> {
        Box::pin(async move {
            let done = self.complete(req, Some(schema)).await;
            logged(req, self.label(), done.and_then(|c| read_structured(c, schema)))
        })
    }
}

fn fail(code: ErrorCode, c: &Completion) -> LlmError {
    LlmError { code, status: None, request_id: c.request_id.clone(), usage: Some(c.usage) }
}

fn read_text(c: Completion) -> Result<Reply<String>, LlmError> {
    if c.stop_reason == StopReason::Refusal {
        return Err(fail(ErrorCode::Refusal, &c));
    }
    match c.text.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(text) => {
            let text = text.to_string();
            Ok(Reply::from(c, text))
        }
        None if c.stop_reason.is_truncation() => Err(fail(ErrorCode::TruncatedNoText, &c)),
        None => Err(fail(ErrorCode::InvalidOutput, &c)),
    }
}

fn read_structured(c: Completion, schema: &Schema) -> Result<Reply<Value>, LlmError> {
    if c.stop_reason == StopReason::Refusal {
        return Err(fail(ErrorCode::Refusal, &c));
    }
    let parsed = c.text.as_deref().and_then(|t| serde_json::from_str::<Value>(t).ok());
    match parsed {
        Some(value) if schema.accepts(&value) => Ok(Reply::from(c, value)),
        None if c.stop_reason.is_truncation() => Err(fail(ErrorCode::TruncatedNoText, &c)),
        _ => Err(fail(ErrorCode::InvalidOutput, &c)),
    }
}

/// One log line per call: what it was for, the model, latency, tokens, stop reason and
/// request id. Never the prompt, the answer or the provider's message.
fn logged<T>(
    req: &Request,
    label: &'static str,
    result: Result<Reply<T>, LlmError>,
) -> Result<Reply<T>, LlmError> {
    match &result {
        Ok(r) => tracing::info!(
            purpose = req.purpose,
            llm = label,
            model = %r.model,
            latency_ms = r.latency.as_millis() as u64,
            input_tokens = r.usage.input_tokens,
            output_tokens = r.usage.output_tokens,
            stop_reason = r.stop_reason.as_str(),
            request_id = r.request_id.as_deref().unwrap_or("-"),
            "model call done"
        ),
        Err(e) => tracing::warn!(
            purpose = req.purpose,
            llm = label,
            model = req.model.id(),
            code = e.code.as_str(),
            status = e.status.unwrap_or(0),
            request_id = e.request_id.as_deref().unwrap_or("-"),
            "model call failed"
        ),
    }
    result
}
