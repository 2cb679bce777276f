//! What a live-mode reply says about the model calls behind it: mode, model, latency,
//! tokens and the provider's request ids (never the key, never the model's words).

use std::time::Instant;

use a2a::server::Reply as A2aReply;
use llm::{LlmError, Model, Reply, Usage};
use serde_json::{Map, Value, json};

/// How a specialist with an offline and a live answerer answers (`LIBRARY_MODE`,
/// `PROFESSOR_MODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Its labelled, deterministic offline answerer; the heuristic reads form intent.
    #[default]
    Mock,
    /// A model whose answers code checks; the model reads form intent.
    Live,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Mock => "mock",
            Mode::Live => "live",
        }
    }

    /// Reads `var` (`mock` or `live`, default `mock`); another value is a configuration
    /// error naming it.
    pub fn from_env(
        var: &'static str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Mode, conf::ConfError> {
        let choices = [Mode::Mock, Mode::Live].map(|m| (m.as_str(), m));
        conf::env_choice(var, env, &choices, Mode::default())
    }
}

/// How a specialist calls its model in live mode.
#[derive(Clone)]
pub struct LiveConfig {
    pub llm: std::sync::Arc<dyn llm::Llm>,
    pub model: Model,
    /// `<AGENT>_LOG_CONTENT=1`: log the question and the released text (off by default).
    pub log_content: bool,
}

/// A live answer: the text, its outcome and the reply's metadata.
#[derive(Debug, Clone)]
pub struct LiveAnswer {
    pub text: String,
    pub outcome: &'static str,
    pub metadata: Map<String, Value>,
}

impl LiveAnswer {
    /// `text` with `outcome`; the metadata is `meter`'s with `extra` (an object) added.
    pub fn new(meter: &Meter, text: String, outcome: &'static str, extra: Value) -> Self {
        let mut metadata = meter.metadata();
        if let Value::Object(extra) = extra {
            metadata.extend(extra);
        }
        LiveAnswer { text, outcome, metadata }
    }

    /// A model call for `purpose` that failed: `<who> could not answer: … (<code>).`, the
    /// outcome `model_error` and `modelError` in the metadata.
    pub fn failed(who: &str, purpose: &str, mut meter: Meter, e: &LlmError) -> Self {
        meter.failed(purpose, e);
        LiveAnswer { text: error_text(who, e), outcome: "model_error", metadata: error_metadata(&meter, e) }
    }
}

/// The calls made for one reply.
#[derive(Debug, Clone)]
pub struct Meter {
    started: Instant,
    model: String,
    usage: Usage,
    request_id: Option<String>,
    calls: Vec<Value>,
}

impl Meter {
    /// Starts timing a reply answered by `model`.
    pub fn new(model: Model) -> Self {
        Meter::named(model.id())
    }

    /// Starts timing a reply answered by the model the provider calls `model`.
    pub fn named(model: &str) -> Self {
        Meter {
            started: Instant::now(),
            model: model.to_string(),
            usage: Usage::default(),
            request_id: None,
            calls: Vec::new(),
        }
    }

    fn add(&mut self, purpose: &str, usage: Usage, request_id: Option<&String>, latency_ms: u64) {
        self.usage.input_tokens += usage.input_tokens;
        self.usage.output_tokens += usage.output_tokens;
        if let Some(id) = request_id {
            self.request_id = Some(id.clone());
        }
        self.calls.push(json!({"purpose": purpose, "requestId": request_id, "latencyMs": latency_ms,
                                "inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens}));
    }

    /// Tokens billed so far.
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// How many calls were made.
    pub fn calls(&self) -> usize {
        self.calls.len()
    }

    /// A call that answered.
    pub fn ok<T>(&mut self, purpose: &str, r: &Reply<T>) {
        self.model = r.model.clone();
        self.add(purpose, r.usage, r.request_id.as_ref(), r.latency.as_millis() as u64);
    }

    /// A call that failed (tokens billed anyway are counted).
    pub fn failed(&mut self, purpose: &str, e: &LlmError) {
        self.add(purpose, e.usage.unwrap_or_default(), e.request_id.as_ref(), 0);
    }

    /// `mode`, `model`, `latencyMs`, `usage`, `requestId` (the last call's) and
    /// `modelCalls` (each call's purpose, request id, latency and tokens).
    pub fn metadata(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("mode".into(), json!("live"));
        m.insert("model".into(), json!(self.model));
        m.insert("latencyMs".into(), json!(self.started.elapsed().as_millis() as u64));
        m.insert("usage".into(), self.usage.report());
        m.insert("requestId".into(), json!(self.request_id));
        m.insert("modelCalls".into(), Value::Array(self.calls.clone()));
        m
    }
}

/// The metadata of a reply that failed on a model call: `mode`, `model`, the calls and
/// `modelError` (`{code, message, requestId?}`, our words, never the provider's).
pub fn error_metadata(meter: &Meter, e: &LlmError) -> Map<String, Value> {
    let mut m = meter.metadata();
    m.insert("modelError".into(), e.to_json());
    m
}

/// What a student reads when a model call failed: `<who> could not answer: <our words>
/// (<code>).`
pub fn error_text(who: &str, e: &LlmError) -> String {
    format!("{who} could not answer: {} ({}).", e.code.message(), e.code.as_str())
}

/// `reply` with `extra` added to its metadata.
pub fn with_metadata(mut reply: A2aReply, extra: Map<String, Value>) -> A2aReply {
    let (A2aReply::Message { metadata, .. } | A2aReply::Task { metadata, .. }) = &mut reply;
    metadata.get_or_insert_with(Default::default).extend(extra);
    reply
}
