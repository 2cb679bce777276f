//! A fake Anthropic Messages API over real HTTP (`campus fake-anthropic`), for tests and
//! for watching live mode without a key.
//!
//! - `POST /v1/messages` checks the request as the API would where Campus could get it
//!   wrong (the key and version headers, the fields it knows, no sampling parameters,
//!   thinking as the model allows, a schema the API accepts, a model it serves → 404),
//!   then answers from the script: queued `replies` once each in order, else the first
//!   matching `rules` entry, else `default`, else a built-in reply (text, or for a
//!   structured request the smallest JSON its schema accepts).
//! - `GET /v1/models/{id}`: the served models (default: every model in [`crate::MODELS`]).
//! - Errors have the provider's shape (`{"type":"error","error":{"type","message"},
//!   "request_id"}`) and every reply a `request-id` header. The error message repeats
//!   the caller's key, as a careless provider might: clients must never pass it on.
//! - `GET /_fake/requests` reads back what was received (the last 500: method, path,
//!   headers without the key, body up to 64 KiB), `DELETE /_fake/requests` forgets
//!   them, `PUT /_fake/script` replaces the script.

use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use conf::ConfError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{MODELS, Model, ThinkingOff, unsupported_keyword};

/// `campus fake-anthropic` listens here unless told otherwise.
pub const DEFAULT_PORT: u16 = 41249;
/// Largest request body taken (the real API takes more; Campus sends a few KiB).
const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// Requests kept for reading back; older ones are forgotten.
pub const MAX_RECORDED: usize = 500;
/// Larger bodies are recorded by size only.
const MAX_RECORDED_BODY: usize = 64 * 1024;
/// Longest scripted delay.
const MAX_DELAY_MS: u64 = 600_000;

/// What the fake answers. Unknown fields are refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Used once each, in order, before any rule.
    #[serde(default)]
    pub replies: Vec<FakeReply>,
    /// Tried in order once `replies` is used up.
    #[serde(default)]
    pub rules: Vec<FakeRule>,
    /// When nothing else answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<FakeReply>,
    /// The model ids served (default: every model Campus accepts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<Vec<String>>,
    /// The only key accepted (default: any non-empty key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accept_key: Option<String>,
}

/// One scripted answer. Nothing set: the built-in reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeReply {
    /// The text block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A structured answer: sent as the text block's JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// `end_turn` unless set (`refusal`, `max_tokens`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// A thinking block with this text before the text block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    /// An error reply with this status (400–599) in the provider's shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Wait this long before answering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

impl FakeReply {
    pub fn text(text: impl Into<String>) -> Self {
        Self { text: Some(text.into()), ..Self::default() }
    }

    pub fn json(value: Value) -> Self {
        Self { json: Some(value), ..Self::default() }
    }

    pub fn status(status: u16) -> Self {
        Self { status: Some(status), ..Self::default() }
    }

    pub fn stop(stop_reason: &str, text: &str) -> Self {
        Self { stop_reason: Some(stop_reason.into()), text: Some(text.into()), ..Self::default() }
    }
}

/// A reply for the requests that match `when`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeRule {
    pub when: When,
    pub reply: FakeReply,
}

/// Every condition set must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The last user message contains this (any case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<String>,
    /// A JSON pointer (`/question`): `contains` then looks only at the string there in
    /// the last user message read as JSON (not JSON, or no string there: no match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The system prompt contains this (any case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_contains: Option<String>,
    /// The request asks (true) or does not ask (false) for JSON-schema output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

const STOP_REASONS: [&str; 7] = [
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
];

impl Script {
    /// What is wrong with the script, as `<field>: <problem>`.
    pub fn check(&self) -> Result<(), String> {
        let replies = self.replies.iter().enumerate().map(|(i, r)| (format!("replies[{i}]"), r));
        let rules = self.rules.iter().enumerate().map(|(i, r)| (format!("rules[{i}].reply"), &r.reply));
        for (at, reply) in replies.chain(rules).chain(self.default.iter().map(|r| ("default".to_string(), r)))
        {
            if reply.status.is_some_and(|s| !(400..=599).contains(&s)) {
                return Err(format!("{at}.status: must be an error status from 400 to 599"));
            }
            if reply.delay_ms.is_some_and(|d| d > MAX_DELAY_MS) {
                return Err(format!("{at}.delay_ms: must be at most {MAX_DELAY_MS}"));
            }
            if reply.stop_reason.as_deref().is_some_and(|s| !STOP_REASONS.contains(&s)) {
                return Err(format!("{at}.stop_reason: must be one of {}", STOP_REASONS.join(", ")));
            }
        }
        if self.accept_key.as_deref().is_some_and(|k| k.trim().is_empty()) {
            return Err("accept_key: must not be empty".into());
        }
        Ok(())
    }
}

/// Reads and checks a script file (JSON).
pub fn load_script(path: &Path) -> Result<Script, ConfError> {
    let source = format!("--script {}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| {
        ConfError::new(
            &source,
            "",
            format!("the file cannot be read: {}", e.kind().to_string().to_lowercase()),
        )
    })?;
    let script: Script = conf::parse(&source, &text)?;
    script.check().map_err(|p| ConfError::new(&source, "", p))?;
    Ok(script)
}

struct Inner {
    script: Script,
    queue: VecDeque<FakeReply>,
    log: VecDeque<Value>,
    total: u64,
}

#[derive(Clone)]
struct Shared(Arc<Mutex<Inner>>);

impl Shared {
    fn new(script: Script) -> Self {
        let queue = script.replies.iter().cloned().collect();
        Shared(Arc::new(Mutex::new(Inner { script, queue, log: VecDeque::new(), total: 0 })))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_script(&self, script: Script) {
        let mut inner = self.lock();
        inner.queue = script.replies.iter().cloned().collect();
        inner.script = script;
    }

    /// Records one request (never its key) and returns its request id.
    fn record(&self, method: &Method, uri: &Uri, headers: &HeaderMap, body: &[u8]) -> String {
        let mut inner = self.lock();
        inner.total += 1;
        let id = format!("req_fake{:06}", inner.total);
        let kept: BTreeMap<&str, &str> = headers
            .iter()
            .filter(|(name, _)| !SECRET_HEADERS.contains(&name.as_str()))
            .filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?)))
            .collect();
        let body = if body.is_empty() {
            Value::Null
        } else if body.len() > MAX_RECORDED_BODY {
            json!({"not_recorded_bytes": body.len()})
        } else {
            serde_json::from_slice(body).unwrap_or_else(|_| json!({"not_json_bytes": body.len()}))
        };
        let entry = json!({
            "seq": inner.total,
            "request_id": id,
            "method": method.as_str(),
            "path": uri.path(),
            "headers": kept,
            "key_sent": headers.get("x-api-key").is_some_and(|v| !v.is_empty()),
            "body": body,
        });
        inner.log.push_back(entry);
        while inner.log.len() > MAX_RECORDED {
            inner.log.pop_front();
        }
        id
    }
}

/// Headers never recorded.
const SECRET_HEADERS: [&str; 4] = ["x-api-key", "authorization", "proxy-authorization", "cookie"];

/// The fake's router (wrapped in the local guard).
pub fn router(addr: SocketAddr, script: Script) -> Router {
    app(Shared::new(script), addr)
}

fn app(shared: Shared, addr: SocketAddr) -> Router {
    let api = Router::new()
        .route("/v1/messages", post(messages))
        .route("/v1/models/{id}", get(model))
        .route("/_fake/requests", get(requests).delete(forget))
        .route("/_fake/script", axum::routing::put(replace_script))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(shared);
    guard::protect(api, guard::LocalPolicy::new(addr))
}

/// Serves the fake on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    script: Script,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    axum::serve(listener, router(addr, script)).with_graceful_shutdown(shutdown).await
}

/// A fake running in this process on a free port, for tests; stopped on drop.
pub struct FakeServer {
    url: String,
    shared: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl FakeServer {
    pub async fn start(script: Script) -> std::io::Result<FakeServer> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let shared = Shared::new(script);
        let router = app(shared.clone(), addr);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Ok(FakeServer { url: format!("http://{addr}"), shared, task })
    }

    /// `http://127.0.0.1:PORT`: the base URL for the client.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The requests received, oldest first (as `GET /_fake/requests` lists them).
    pub fn requests(&self) -> Vec<Value> {
        self.shared.lock().log.iter().cloned().collect()
    }

    /// How many requests were received in all.
    pub fn total(&self) -> u64 {
        self.shared.lock().total
    }

    pub fn set_script(&self, script: Script) {
        self.shared.set_script(script);
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// An error in the provider's shape, with its `request-id` header.
fn error(status: u16, request_id: &str, message: String) -> Response {
    let kind = match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        402 => "billing_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        500..=599 => "api_error",
        _ => "invalid_request_error",
    };
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body =
        json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id});
    (code, [("request-id", request_id.to_string())], axum::Json(body)).into_response()
}

fn ok(request_id: &str, body: Value) -> Response {
    (StatusCode::OK, [("request-id", request_id.to_string())], axum::Json(body)).into_response()
}

/// The key and version headers, as the API checks them; `Ok(key)`, else the status and
/// message of the refusal.
fn check_headers(shared: &Shared, headers: &HeaderMap) -> Result<String, (u16, String)> {
    let key = headers.get("x-api-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    if key.is_empty() {
        return Err((401, "x-api-key header is required".into()));
    }
    if shared.lock().script.accept_key.as_ref().is_some_and(|k| *k != key) {
        return Err((401, format!("invalid x-api-key: {key}")));
    }
    if headers.get("anthropic-version").is_none() {
        return Err((400, "anthropic-version: header is required".into()));
    }
    Ok(key)
}

fn served(shared: &Shared, model: &str) -> bool {
    match &shared.lock().script.models {
        Some(models) => models.iter().any(|m| m == model),
        None => MODELS.iter().any(|m| m.id == model),
    }
}

async fn model(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let rid = shared.record(&method, &uri, &headers, &[]);
    if let Err((status, message)) = check_headers(&shared, &headers) {
        return error(status, &rid, message);
    }
    if !served(&shared, &id) {
        return error(404, &rid, format!("model: {id}"));
    }
    let display = Model::parse(&id).map_or(id.as_str(), |m| m.spec().display_name);
    ok(
        &rid,
        json!({"type": "model", "id": id, "display_name": display, "created_at": "2026-10-07T00:00:00Z"}),
    )
}

async fn messages(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let rid = shared.record(&method, &uri, &headers, &body);
    let key = match check_headers(&shared, &headers) {
        Ok(key) => key,
        Err((status, message)) => return error(status, &rid, message),
    };
    let Ok(req) = serde_json::from_slice::<Value>(&body) else {
        return error(400, &rid, "the body is not valid JSON".into());
    };
    if let Err(problem) = check_request(&req) {
        return error(400, &rid, problem);
    }
    let model = req["model"].as_str().unwrap_or_default().to_string();
    if !served(&shared, &model) {
        return error(404, &rid, format!("model: {model}"));
    }
    let reply = {
        let mut inner = shared.lock();
        match inner.queue.pop_front() {
            Some(reply) => reply,
            None => {
                let matched =
                    inner.script.rules.iter().find(|r| matches(&r.when, &req)).map(|r| r.reply.clone());
                matched.or_else(|| inner.script.default.clone()).unwrap_or_default()
            }
        }
    };
    if let Some(ms) = reply.delay_ms {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    tracing::info!(request_id = %rid, status = reply.status.unwrap_or(200), "fake model call");
    if let Some(status) = reply.status {
        return error(status, &rid, format!("scripted error {status} for the key {key}"));
    }
    ok(&rid, message_body(&rid, &model, &req, &reply, body.len()))
}

fn message_body(rid: &str, model: &str, req: &Value, reply: &FakeReply, request_bytes: usize) -> Value {
    let stop = reply.stop_reason.as_deref().unwrap_or("end_turn");
    let text = match (&reply.json, &reply.text) {
        (Some(json), _) => json.to_string(),
        (None, Some(text)) => text.clone(),
        (None, None) if stop == "end_turn" => builtin_text(req),
        (None, None) => String::new(),
    };
    let mut content = Vec::new();
    if let Some(thinking) = &reply.thinking {
        content.push(json!({"type": "thinking", "thinking": thinking, "signature": "fake-signature"}));
    }
    if !text.is_empty() {
        content.push(json!({"type": "text", "text": text}));
    }
    let thought = reply.thinking.as_deref().map_or(0, str::len);
    json!({
        "id": format!("msg_{}", rid.trim_start_matches("req_")),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {
            "input_tokens": reply.input_tokens.unwrap_or(request_bytes.div_ceil(4) as u64),
            "output_tokens": reply.output_tokens.unwrap_or((text.len() + thought).div_ceil(4) as u64),
        },
    })
}

/// The built-in reply: the smallest JSON a structured request's schema accepts, else a
/// text naming itself and the question.
fn builtin_text(req: &Value) -> String {
    match req.pointer("/output_config/format/schema") {
        Some(schema) => smallest(schema, 0).to_string(),
        None => {
            let asked: String = last_user_text(req).chars().take(200).collect();
            format!("(fake model) a reply to: {asked}")
        }
    }
}

fn smallest(schema: &Value, depth: usize) -> Value {
    if depth > 16 {
        return Value::Null;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|e| e.first()) {
            return smallest(first, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.iter().find_map(Value::as_str).unwrap_or("null"),
        _ => "null",
    };
    match kind {
        "object" => {
            let props = schema.get("properties");
            let required = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            let fields = required.iter().filter_map(Value::as_str).map(|name| {
                let sub = props.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
                (name.to_string(), smallest(sub, depth + 1))
            });
            Value::Object(fields.collect())
        }
        "array" => json!([]),
        "string" => json!("fake"),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        _ => Value::Null,
    }
}

/// The text of the last user message (string content or its text blocks).
fn last_user_text(req: &Value) -> String {
    let messages = req["messages"].as_array().map(Vec::as_slice).unwrap_or_default();
    let Some(last) = messages.iter().rev().find(|m| m["role"] == "user") else { return String::new() };
    match &last["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join(""),
        _ => String::new(),
    }
}

fn matches(when: &When, req: &Value) -> bool {
    let has = |hay: &str, needle: &str| hay.to_lowercase().contains(&needle.to_lowercase());
    let text = last_user_text(req);
    let looked_at = match when.field.as_deref() {
        None => Some(text),
        Some(pointer) => serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.pointer(pointer).and_then(Value::as_str).map(str::to_owned)),
    };
    looked_at.is_some_and(|t| when.contains.as_deref().is_none_or(|c| has(&t, c)))
        && when.system_contains.as_deref().is_none_or(|c| has(req["system"].as_str().unwrap_or(""), c))
        && when.structured.is_none_or(|s| s == req.pointer("/output_config/format").is_some())
        && when.model.as_deref().is_none_or(|m| req["model"] == m)
}

/// The top-level fields the fake knows; any other is refused, as the API refuses extras.
const FIELDS: [&str; 8] =
    ["model", "max_tokens", "messages", "system", "thinking", "output_config", "metadata", "stop_sequences"];

/// The checks the API makes where Campus could go wrong: `Err` is the 400's message.
fn check_request(req: &Value) -> Result<(), String> {
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

async fn requests(State(shared): State<Shared>) -> Response {
    let inner = shared.lock();
    let list: Vec<&Value> = inner.log.iter().collect();
    axum::Json(json!({"total": inner.total, "requests": list})).into_response()
}

async fn forget(State(shared): State<Shared>) -> StatusCode {
    shared.lock().log.clear();
    StatusCode::NO_CONTENT
}

async fn replace_script(State(shared): State<Shared>, body: Bytes) -> Response {
    let text = String::from_utf8_lossy(&body);
    let parsed = conf::parse::<Script>("script", &text).map_err(|e| e.to_string());
    match parsed.and_then(|s| s.check().map(|()| s)) {
        Ok(script) => {
            shared.set_script(script);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(problem) => {
            let body = json!({"error": {"code": "invalid_script", "message": problem}});
            (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
        }
    }
}

async fn not_found(State(shared): State<Shared>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let rid = shared.record(&method, &uri, &headers, &[]);
    error(404, &rid, format!("{} {}: no such endpoint", method, uri.path()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(extra: Value) -> Value {
        let mut r = json!({"model": "claude-haiku-5-5", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]});
        r.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        r
    }

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

    #[test]
    fn the_builtin_reply_fits_the_schema() {
        let schema = json!({"type": "object", "additionalProperties": false, "required": ["verdict", "lines", "n", "why"],
            "properties": {"verdict": {"enum": ["route", "clarify"]}, "lines": {"type": "array", "items": {"type": "string"}},
            "n": {"type": "integer"}, "why": {"anyOf": [{"type": "string"}, {"type": "null"}]}}});
        let value = smallest(&schema, 0);
        assert_eq!(value, json!({"verdict": "route", "lines": [], "n": 0, "why": "fake"}));
        assert!(crate::Schema::new(schema).unwrap().accepts(&value));
        let text = builtin_text(&req(json!({})));
        assert_eq!(text, "(fake model) a reply to: hi");
    }

    #[test]
    fn rules_match_on_what_they_name() {
        let r = req(json!({"system": "You are the Tutor"}));
        let when =
            When { contains: Some("HI".into()), system_contains: Some("tutor".into()), ..When::default() };
        assert!(matches(&when, &r));
        assert!(!matches(&When { structured: Some(true), ..When::default() }, &r));
        assert!(!matches(&When { model: Some("claude-opus-5-5".into()), ..When::default() }, &r));
        let data =
            json!({"messages": [{"role": "user", "content": r#"{"question":"a room","services":"tutor"}"#}]});
        let at = |field: &str, contains: &str| When {
            field: Some(field.into()),
            contains: Some(contains.into()),
            ..When::default()
        };
        assert!(matches(&at("/question", "ROOM"), &req(data.clone())));
        assert!(!matches(&at("/question", "tutor"), &req(data.clone())), "only the field is read");
        assert!(!matches(&at("/missing", ""), &req(data)), "no string there: no match");
        assert!(!matches(&at("/question", ""), &r), "not json: no match");
    }

    #[test]
    fn scripts_are_checked() {
        let bad = Script { replies: vec![FakeReply::status(200)], ..Script::default() };
        assert_eq!(bad.check().unwrap_err(), "replies[0].status: must be an error status from 400 to 599");
        let bad = Script { default: Some(FakeReply::stop("done", "")), ..Script::default() };
        assert!(bad.check().unwrap_err().starts_with("default.stop_reason"));
        let e = conf::parse::<Script>("s", r#"{"replies": [{"txt": "x"}]}"#).unwrap_err();
        assert_eq!(e.field, "replies[0].txt");
        assert!(e.problem.starts_with("unknown field `txt`"), "{e}");
    }
}
