//! The A2A server: Agent Card serving and the JSON-RPC endpoint.
//!
//! Order of checks on `POST /a2a/jsonrpc`: body size (before parsing) → content type →
//! JSON-RPC envelope → `A2A-Version` → method → required extensions → params (proto
//! names accepted) → each part's media type against the served card (-32005) → handler.

mod executor;
mod tasks;

use std::sync::{Arc, RwLock};

use a2a_lf::{
    JsonRpcId, Message, Role, SendMessageRequest, SendMessageResponse, Task, TaskState, TaskStatus,
    new_task_id,
};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::Utc;
use serde::Serialize;

pub use executor::{AgentExecutor, Reply, RequestContext};
pub use tasks::{DEFAULT_TASK_CAPACITY, TaskStore};

use crate::body::{Unread, read_limited};
use crate::jsonrpc::{RpcMethod, parse_envelope, resolve_method};
use crate::{CardDoc, RpcError, headers, params};

/// The card being served. Swapped whole, so a reader sees the old card or the new one.
#[derive(Debug, Clone)]
pub struct CardCell(Arc<RwLock<Arc<CardDoc>>>);

impl CardCell {
    pub fn new(doc: CardDoc) -> Self {
        Self(Arc::new(RwLock::new(Arc::new(doc))))
    }

    pub fn get(&self) -> Arc<CardDoc> {
        self.0.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Replaces the card. An identical card (same ETag) keeps the old modification
    /// time, so `Last-Modified` moves only when the content does.
    pub fn set(&self, doc: CardDoc) {
        self.set_with(|| doc)
    }

    /// Replaces the card with the one `f` returns, holding the write lock while `f`
    /// runs: whatever `f` swaps alongside becomes visible no later than the card.
    pub fn set_with(&self, f: impl FnOnce() -> CardDoc) {
        let mut guard = self.0.write().unwrap_or_else(|p| p.into_inner());
        let doc = f().succeeding(&guard);
        *guard = Arc::new(doc);
    }
}

/// Shared state of one agent's A2A endpoint.
pub struct A2aServer<E> {
    executor: Arc<E>,
    tasks: Arc<TaskStore>,
    card: CardCell,
    body_limit: usize,
}

impl<E> Clone for A2aServer<E> {
    fn clone(&self) -> Self {
        Self {
            executor: self.executor.clone(),
            tasks: self.tasks.clone(),
            card: self.card.clone(),
            body_limit: self.body_limit,
        }
    }
}

impl<E: AgentExecutor> A2aServer<E> {
    pub fn new(executor: E, card: CardCell) -> Self {
        Self {
            executor: Arc::new(executor),
            tasks: Arc::new(TaskStore::default()),
            card,
            body_limit: crate::DEFAULT_BODY_LIMIT,
        }
    }

    /// Sets the largest request body accepted.
    pub fn with_body_limit(mut self, limit: usize) -> Self {
        self.body_limit = limit;
        self
    }

    pub fn tasks(&self) -> &Arc<TaskStore> {
        &self.tasks
    }

    pub fn card(&self) -> &CardCell {
        &self.card
    }

    /// The card route and the JSON-RPC routes (with and without a trailing slash).
    pub fn router(self) -> Router {
        let rpc_path_slash = format!("{}/", crate::JSONRPC_PATH);
        Router::new()
            .route(crate::CARD_PATH, get(serve_card::<E>))
            .route(crate::JSONRPC_PATH, post(rpc::<E>))
            .route(&rpc_path_slash, post(rpc::<E>))
            .with_state(self)
    }
}

/// How long a client may reuse the card without asking again. Short on purpose: a
/// specialist's card changes when its skills are saved, and a client that caches should
/// see that within seconds; five seconds still spares a page or a burst of discovery
/// calls from refetching on every request. (The Hub does not wait for it: it always
/// revalidates with `If-None-Match` when told a card changed.)
const CARD_MAX_AGE: &str = "max-age=5";

async fn serve_card<E: AgentExecutor>(State(s): State<A2aServer<E>>, headers: HeaderMap) -> Response {
    let doc = s.card.get();
    let values = |name| headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let if_none_match = values(header::IF_NONE_MATCH);
    // RFC 9110 §13.2.2: If-None-Match, when sent, decides; If-Modified-Since only without it.
    let not_modified = if if_none_match.is_empty() {
        values(header::IF_MODIFIED_SINCE).first().is_some_and(|v| doc.not_modified_since(v))
    } else {
        if_none_match.iter().any(|v| doc.matches(v))
    };
    let validators = [
        (header::ETAG, HeaderValue::from_str(&doc.etag).expect("etag is ascii")),
        (header::LAST_MODIFIED, HeaderValue::from_str(&doc.last_modified()).expect("an http-date is ascii")),
        (header::CACHE_CONTROL, HeaderValue::from_static(CARD_MAX_AGE)),
    ];
    if not_modified {
        return (StatusCode::NOT_MODIFIED, validators).into_response();
    }
    let content_type = [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))];
    (StatusCode::OK, content_type, validators, doc.json.clone()).into_response()
}

#[derive(Serialize)]
struct Success<'a, T: Serialize> {
    jsonrpc: &'static str,
    id: &'a JsonRpcId,
    result: &'a T,
}

/// A JSON-RPC error response (HTTP 200, as the binding wants, unless `status` says otherwise).
pub fn error_response(status: StatusCode, id: &JsonRpcId, err: &RpcError) -> Response {
    let wire = a2a_lf::JsonRpcResponse::error(id.clone(), err.to_wire());
    json_response(status, &wire)
}

fn json_response<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (
            status,
            [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            Bytes::from(bytes),
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

fn is_json(headers: &HeaderMap) -> Result<(), RpcError> {
    let ct = headers.get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap_or("?"));
    let Some(ct) = ct else {
        return Err(RpcError::content_type("(none)"));
    };
    let mime = ct.split(';').next().unwrap_or("").trim();
    if mime.eq_ignore_ascii_case("application/json") { Ok(()) } else { Err(RpcError::content_type(ct)) }
}

async fn rpc<E: AgentExecutor>(State(s): State<A2aServer<E>>, headers: HeaderMap, body: Body) -> Response {
    let bytes = match read_limited(&headers, body, s.body_limit).await {
        Ok(bytes) => bytes,
        Err(Unread::TooLarge) => {
            let err =
                RpcError::invalid_request(format!("request body exceeds the {} byte limit", s.body_limit));
            return error_response(StatusCode::PAYLOAD_TOO_LARGE, &JsonRpcId::Null, &err);
        }
        Err(Unread::Broken) => {
            let err = RpcError::invalid_request("the request body could not be read");
            return error_response(StatusCode::BAD_REQUEST, &JsonRpcId::Null, &err);
        }
    };
    if let Err(err) = is_json(&headers) {
        let id = parse_envelope(&bytes).map(|e| e.id).unwrap_or(JsonRpcId::Null);
        return error_response(StatusCode::OK, &id, &err);
    }
    let env = match parse_envelope(&bytes) {
        Ok(env) => env,
        Err((id, err)) => return error_response(StatusCode::OK, &id, &err),
    };
    let id = env.id;
    match dispatch(&s, &headers, &env.method, env.params).await {
        Ok(Outcome::Send(r)) => {
            json_response(StatusCode::OK, &Success { jsonrpc: "2.0", id: &id, result: &r })
        }
        Ok(Outcome::Task(t)) => {
            json_response(StatusCode::OK, &Success { jsonrpc: "2.0", id: &id, result: &t })
        }
        Ok(Outcome::List(l)) => {
            json_response(StatusCode::OK, &Success { jsonrpc: "2.0", id: &id, result: &l })
        }
        Err(err) => {
            if err.code == a2a_lf::error_code::INTERNAL_ERROR {
                tracing::warn!(method = %env.method.chars().take(64).collect::<String>(), "a2a request failed with an internal error");
            }
            error_response(StatusCode::OK, &id, &err)
        }
    }
}

enum Outcome {
    Send(SendMessageResponse),
    Task(Task),
    List(a2a_lf::ListTasksResponse),
}

async fn dispatch<E: AgentExecutor>(
    s: &A2aServer<E>,
    headers: &HeaderMap,
    method: &str,
    params: Option<serde_json::Value>,
) -> Result<Outcome, RpcError> {
    let version: Vec<&str> =
        headers.get_all(headers::VERSION).iter().map(|v| v.to_str().unwrap_or("?")).collect();
    match version.as_slice() {
        [] => return Err(RpcError::version_not_supported(None)),
        [v] if headers::version_supported(v) => {}
        [v, ..] => return Err(RpcError::version_not_supported(Some(v))),
    }
    let method = resolve_method(method)?;
    let extensions = headers::parse_extensions(
        headers.get_all(headers::EXTENSIONS).iter().filter_map(|v| v.to_str().ok()),
    );
    let card = s.card.get();
    if let Some(declared) = &card.card.capabilities.extensions
        && let Some(missing) =
            declared.iter().find(|x| x.required == Some(true) && !extensions.iter().any(|u| u == &x.uri))
    {
        return Err(RpcError::extension_required(&missing.uri));
    }
    match method {
        RpcMethod::SendMessage => {
            let req = params::send_message(params, &card.accepts)?;
            send_message(s, req, extensions).await.map(Outcome::Send)
        }
        RpcMethod::GetTask => {
            let req = params::get_task(params)?;
            let task = s.tasks.get(&req.id).ok_or_else(|| RpcError::task_not_found(&req.id))?;
            Ok(Outcome::Task(tasks::shape(&task, req.history_length, true)))
        }
        RpcMethod::ListTasks => Ok(Outcome::List(s.tasks.list(&params::list_tasks(params)?)?)),
        RpcMethod::CancelTask => {
            let req = params::cancel_task(params)?;
            let task = s.tasks.cancel(&req.id)?;
            s.executor.canceled(&task).await;
            Ok(Outcome::Task(task))
        }
        RpcMethod::SendStreamingMessage | RpcMethod::SubscribeToTask => Err(RpcError::unsupported(
            "streaming is not supported by this agent (capabilities.streaming is false)",
        )),
        RpcMethod::CreatePushConfig
        | RpcMethod::GetPushConfig
        | RpcMethod::ListPushConfigs
        | RpcMethod::DeletePushConfig => Err(RpcError::push_not_supported()),
        RpcMethod::GetExtendedAgentCard => Err(RpcError::extended_card_not_configured()),
    }
}

fn agent_message(
    message_id: String,
    context_id: &str,
    task_id: Option<&str>,
    parts: Vec<a2a_lf::Part>,
    metadata: Option<std::collections::HashMap<String, serde_json::Value>>,
) -> Message {
    Message {
        message_id,
        context_id: Some(context_id.to_string()),
        task_id: task_id.map(str::to_string),
        role: Role::Agent,
        parts,
        metadata,
        extensions: None,
        reference_task_ids: None,
    }
}

async fn send_message<E: AgentExecutor>(
    s: &A2aServer<E>,
    req: SendMessageRequest,
    extensions: Vec<String>,
) -> Result<SendMessageResponse, RpcError> {
    let SendMessageRequest { mut message, configuration, metadata, .. } = req;
    let history_length = configuration.as_ref().and_then(|c| c.history_length);

    // Continuing a task: it must exist, be open and belong to the same context.
    let task = match message.task_id.as_deref() {
        None => None,
        Some(task_id) => {
            let task = s.tasks.get(task_id).ok_or_else(|| RpcError::task_not_found(task_id))?;
            if task.status.state.is_terminal() {
                return Err(tasks::terminal_error(&task));
            }
            if message.context_id.as_ref().is_some_and(|c| c != &task.context_id) {
                return Err(RpcError::invalid_params(
                    "message.contextId",
                    "does not match the task's context",
                ));
            }
            Some(task)
        }
    };
    let client_named_context = message.context_id.is_some();
    let context_id = match (&task, &message.context_id) {
        (Some(t), _) => t.context_id.clone(),
        (None, Some(c)) => c.clone(),
        (None, None) => a2a_lf::new_context_id(),
    };
    message.context_id = Some(context_id.clone());
    if let Some(t) = &task {
        s.tasks.append(&t.id, message.clone())?;
    }

    let ctx = RequestContext {
        new_context: task.is_none() && !client_named_context,
        message: message.clone(),
        context_id: context_id.clone(),
        task: task.clone(),
        extensions,
        metadata,
    };
    let reply = s.executor.execute(ctx).await?;

    match reply {
        Reply::Message { message_id, parts, metadata, context_id: answered_in } => {
            let context = answered_in.as_deref().filter(|_| task.is_none()).unwrap_or(&context_id);
            Ok(SendMessageResponse::Message(agent_message(message_id, context, None, parts, metadata)))
        }
        Reply::Task { message_id, state, parts, artifacts, metadata } => {
            if state == TaskState::Unspecified {
                tracing::warn!("agent returned a task without a state");
                return Err(RpcError::internal());
            }
            let now = Some(Utc::now());
            // A status message needs content; a task may answer with artifacts only.
            let has_parts = !parts.is_empty();
            let mut out = match task {
                Some(t) => s.tasks.update(&t.id, |t| {
                    let status_msg = agent_message(message_id, &context_id, Some(&t.id), parts, None);
                    if has_parts {
                        t.history.get_or_insert_with(Vec::new).push(status_msg.clone());
                    }
                    t.status = TaskStatus { state, message: has_parts.then_some(status_msg), timestamp: now };
                    if !artifacts.is_empty() {
                        t.artifacts.get_or_insert_with(Vec::new).extend(artifacts);
                    }
                    if metadata.is_some() {
                        t.metadata = metadata;
                    }
                })?,
                None => {
                    let id = new_task_id();
                    let status_msg = agent_message(message_id, &context_id, Some(&id), parts, None);
                    message.task_id = Some(id.clone());
                    let t = Task {
                        id,
                        context_id: context_id.clone(),
                        status: TaskStatus {
                            state,
                            message: has_parts.then(|| status_msg.clone()),
                            timestamp: now,
                        },
                        artifacts: (!artifacts.is_empty()).then_some(artifacts),
                        history: Some(if has_parts { vec![message, status_msg] } else { vec![message] }),
                        metadata,
                    };
                    s.tasks.insert(t.clone());
                    t
                }
            };
            tasks::trim_history(&mut out, history_length);
            Ok(SendMessageResponse::Task(out))
        }
    }
}
