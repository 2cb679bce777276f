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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::Model;

mod check;
mod reply;
mod script;

use check::{check_headers, check_request, served};
use reply::{error, message_body, ok};
use script::matches;
pub use script::{FakeReply, FakeRule, Script, When, load_script};

/// `campus fake-anthropic` listens here unless told otherwise.
pub const DEFAULT_PORT: u16 = 41249;
/// Largest request body taken (the real API takes more; Campus sends a few KiB).
const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// Requests kept for reading back; older ones are forgotten.
pub const MAX_RECORDED: usize = 500;
/// Larger bodies are recorded by size only.
const MAX_RECORDED_BODY: usize = 64 * 1024;

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

/// Serves the fake on `listener`, its connections within `limits`, until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    script: Script,
    limits: guard::Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    guard::serve(listener, router(addr, script), limits, shutdown).await
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
            let _ = guard::serve(listener, router, guard::Limits::default(), std::future::pending()).await;
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

async fn model(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let rid = shared.record(&method, &uri, &headers, &[]);
    if let Err((status, message)) = check_headers(shared.lock().script.accept_key.as_deref(), &headers) {
        return error(status, &rid, message);
    }
    if !served(shared.lock().script.models.as_deref(), &id) {
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
    let key = match check_headers(shared.lock().script.accept_key.as_deref(), &headers) {
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
    if !served(shared.lock().script.models.as_deref(), &model) {
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

/// A small valid request with `extra`'s fields added, for the parts' tests.
#[cfg(test)]
fn req(extra: Value) -> Value {
    let mut r = json!({"model": "claude-haiku-5-5", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]});
    r.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    r
}
