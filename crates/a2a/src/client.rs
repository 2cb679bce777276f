//! The A2A client: card discovery (size-capped, no redirects, conditional) and typed
//! JSON-RPC calls with the protocol headers and a timeout.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use a2a_lf::{
    AgentCard, CancelTaskRequest, GetTaskRequest, ListTasksRequest, ListTasksResponse, Message,
    SendMessageRequest, SendMessageResponse, Task,
};
use reqwest::{StatusCode, header};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{CARD_PATH, headers, jsonrpc_interface};

/// Limits and timeouts of a client.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Whole-request timeout (connect, send, receive).
    pub timeout: Duration,
    /// Largest Agent Card accepted.
    pub card_limit: usize,
    /// Largest JSON-RPC response accepted.
    pub response_limit: usize,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            card_limit: 256 * 1024,
            response_limit: crate::DEFAULT_BODY_LIMIT * 4,
        }
    }
}

/// Why a call failed. Messages are one line, lowercase, and name where we looked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("connection refused by {url} (is the agent running?)")]
    Refused { url: String },
    #[error("no answer from {url} within {} ms", .after.as_millis())]
    Timeout { url: String, after: Duration },
    #[error("could not connect to {url}: {reason}")]
    Connect { url: String, reason: String },
    /// The connection was made and the request (maybe only part of it) went out, then the
    /// connection broke before a full answer came: whether the agent handled it is unknown.
    #[error("the connection to {url} broke after the request was sent ({reason}); the outcome is unknown")]
    Broken { url: String, reason: String },
    #[error("{url} is not a usable address: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("{url} answered http {status}")]
    Http { url: String, status: u16 },
    #[error("{url} answered with a redirect, which is not followed")]
    Redirect { url: String },
    #[error("the response from {url} is larger than {limit} bytes")]
    TooLarge { url: String, limit: usize },
    #[error("bad agent card at {url}: {reason}")]
    BadCard { url: String, reason: String },
    #[error("the agent answered error {code} ({}): {message}", .reason.as_deref().unwrap_or("no reason"))]
    Rpc { code: i32, message: String, reason: Option<String> },
    #[error("invalid response from {url}: {reason}")]
    InvalidResponse { url: String, reason: String },
}

impl ClientError {
    /// Whether the request certainly never reached the agent: the connection was refused
    /// or never made, the address was unusable, or the card (fetched before any request)
    /// was bad. A [`ClientError::Broken`] connection or a timeout is not "nothing sent".
    pub fn nothing_sent(&self) -> bool {
        matches!(
            self,
            Self::Refused { .. } | Self::Connect { .. } | Self::BadUrl { .. } | Self::BadCard { .. }
        )
    }

    /// The JSON-RPC code when the agent answered with an error.
    pub fn rpc_code(&self) -> Option<i32> {
        match self {
            Self::Rpc { code, .. } => Some(*code),
            _ => None,
        }
    }
}

#[derive(Serialize)]
struct RpcRequest<'a, P: Serialize> {
    jsonrpc: &'static str,
    id: i64,
    method: &'a str,
    params: &'a P,
}

#[derive(serde::Deserialize)]
struct RpcResponse<'a> {
    #[serde(borrow, default)]
    jsonrpc: Option<&'a str>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(borrow, default)]
    result: Option<&'a serde_json::value::RawValue>,
    #[serde(default)]
    error: Option<Value>,
}

/// What a card fetch found.
#[derive(Debug, Clone)]
pub enum CardFetch {
    /// A new or changed card, with the ETag the server sent.
    Fresh { card: Box<AgentCard>, etag: Option<String> },
    /// The card matches the ETag we sent (304).
    NotModified,
}

/// A client. Cheap to clone; clones share connections.
#[derive(Debug, Clone)]
pub struct A2aClient {
    http: reqwest::Client,
    config: Arc<ClientConfig>,
    next_id: Arc<AtomicI64>,
}

impl Default for A2aClient {
    fn default() -> Self {
        Self::new(ClientConfig::default())
    }
}

/// How long a client keeps an idle connection for reuse: under the 10 s after which every
/// Campus server closes one (`guard::Limits::head_timeout`), so a client never sends on a
/// connection the server is closing. Every HTTP client of ours uses it.
pub const POOL_IDLE: Duration = Duration::from_secs(5);

impl A2aClient {
    pub fn new(config: ClientConfig) -> Self {
        let http = reqwest::Client::builder()
            .pool_idle_timeout(POOL_IDLE)
            .redirect(reqwest::redirect::Policy::none())
            .timeout(config.timeout)
            .no_proxy()
            .build()
            .expect("http client builds with static settings");
        Self { http, config: Arc::new(config), next_id: Arc::new(AtomicI64::new(1)) }
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Fetches `{base}/.well-known/agent-card.json`, conditionally when `etag` is given.
    pub async fn fetch_card(&self, base_url: &str, etag: Option<&str>) -> Result<CardFetch, ClientError> {
        let url = format!("{}{}", base_url.trim_end_matches('/'), CARD_PATH);
        self.fetch_card_url(&url, etag).await
    }

    /// Fetches a card from its full URL, conditionally when `etag` is given.
    pub async fn fetch_card_url(&self, url: &str, etag: Option<&str>) -> Result<CardFetch, ClientError> {
        let url = url.to_string();
        let mut req = self.http.get(&url).header(headers::VERSION, headers::SUPPORTED_VERSION);
        if let Some(tag) = etag {
            req = req.header(header::IF_NONE_MATCH, tag);
        }
        let resp = req.send().await.map_err(|e| self.transport_error(&url, e))?;
        let status = resp.status();
        if status == StatusCode::NOT_MODIFIED {
            return Ok(CardFetch::NotModified);
        }
        check_status(&url, status)?;
        let etag = resp.headers().get(header::ETAG).and_then(|v| v.to_str().ok()).map(str::to_string);
        let bytes = self.read_capped(&url, resp, self.config.card_limit).await?;
        let card: AgentCard = serde_json::from_slice(&bytes)
            .map_err(|e| ClientError::BadCard { url: url.clone(), reason: first_line(&e.to_string()) })?;
        if card.name.trim().is_empty() {
            return Err(ClientError::BadCard { url, reason: "the card has no name".into() });
        }
        Ok(CardFetch::Fresh { card: Box::new(card), etag })
    }

    /// Fetches the card and picks its JSON-RPC 1.0 interface.
    pub async fn connect(&self, base_url: &str) -> Result<AgentHandle, ClientError> {
        let CardFetch::Fresh { card, etag } = self.fetch_card(base_url, None).await? else {
            unreachable!("an unconditional fetch never answers 304");
        };
        AgentHandle::from_card(self.clone(), base_url, *card, etag)
    }

    /// One JSON-RPC call to `endpoint`.
    pub async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        endpoint: &str,
        method: &str,
        params: &P,
        extensions: &[String],
    ) -> Result<R, ClientError> {
        let url = reqwest::Url::parse(endpoint)
            .map_err(|e| ClientError::BadUrl { url: endpoint.into(), reason: e.to_string() })?;
        self.call_url(url, method, params, extensions).await
    }

    /// [`A2aClient::call`] with the endpoint already parsed (a handle parses it once).
    async fn call_url<P: Serialize, R: DeserializeOwned>(
        &self,
        url: reqwest::Url,
        method: &str,
        params: &P,
        extensions: &[String],
    ) -> Result<R, ClientError> {
        let endpoint = url.as_str().to_string();
        let endpoint = endpoint.as_str();
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = serde_json::to_vec(&RpcRequest { jsonrpc: "2.0", id, method, params }).map_err(|e| {
            ClientError::InvalidResponse {
                url: endpoint.into(),
                reason: format!("could not encode the request: {e}"),
            }
        })?;
        let mut req = self
            .http
            .post(url)
            .header(header::CONTENT_TYPE, "application/json")
            .header(headers::VERSION, headers::SUPPORTED_VERSION)
            .body(body);
        if !extensions.is_empty() {
            req = req.header(headers::EXTENSIONS, extensions.join(", "));
        }
        let resp = req.send().await.map_err(|e| self.transport_error(endpoint, e))?;
        let status = resp.status();
        let bytes = self.read_capped(endpoint, resp, self.config.response_limit).await?;
        let invalid = |reason: String| ClientError::InvalidResponse { url: endpoint.to_string(), reason };
        let Ok(envelope) = serde_json::from_slice::<RpcResponse<'_>>(&bytes) else {
            check_status(endpoint, status)?;
            return Err(invalid("the body is not a json-rpc response".into()));
        };
        if let Some(err) = envelope.error {
            return Err(rpc_error(&err).ok_or_else(|| invalid("malformed error object".into()))?);
        }
        check_status(endpoint, status)?;
        if envelope.jsonrpc != Some("2.0") {
            return Err(invalid("jsonrpc is not \"2.0\"".into()));
        }
        let result = envelope.result.ok_or_else(|| invalid("neither result nor error".into()))?;
        if envelope.id.as_ref().and_then(Value::as_i64) != Some(id) {
            return Err(invalid("the response id does not match the request".into()));
        }
        serde_json::from_str(result.get())
            .map_err(|e| invalid(format!("unexpected result: {}", first_line(&e.to_string()))))
    }

    async fn read_capped(
        &self,
        url: &str,
        mut resp: reqwest::Response,
        limit: usize,
    ) -> Result<Vec<u8>, ClientError> {
        if resp.content_length().is_some_and(|n| n > limit as u64) {
            return Err(ClientError::TooLarge { url: url.into(), limit });
        }
        let mut out = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| self.transport_error(url, e))? {
            if out.len() + chunk.len() > limit {
                return Err(ClientError::TooLarge { url: url.into(), limit });
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }

    fn transport_error(&self, url: &str, e: reqwest::Error) -> ClientError {
        let url = url.to_string();
        if e.is_timeout() {
            return ClientError::Timeout { url, after: self.config.timeout };
        }
        if e.is_builder() {
            return ClientError::BadUrl { url, reason: first_line(&e.to_string()) };
        }
        let mut kind = None;
        let mut source: Option<&dyn std::error::Error> = Some(&e);
        while let Some(s) = source {
            if let Some(io) = s.downcast_ref::<std::io::Error>() {
                kind = Some(io.kind());
                break;
            }
            source = s.source();
        }
        match kind {
            Some(std::io::ErrorKind::ConnectionRefused) => ClientError::Refused { url },
            Some(std::io::ErrorKind::TimedOut) => ClientError::Timeout { url, after: self.config.timeout },
            // no connection was made: nothing was sent
            _ if e.is_connect() => ClientError::Connect {
                url,
                reason: kind.map_or_else(|| "connection failed".into(), |k| k.to_string().to_lowercase()),
            },
            // the connection was made and the request went out (or started to)
            _ => ClientError::Broken {
                url,
                reason: kind.map_or_else(|| "the connection broke".into(), |k| k.to_string().to_lowercase()),
            },
        }
    }
}

fn check_status(url: &str, status: StatusCode) -> Result<(), ClientError> {
    if status.is_redirection() {
        return Err(ClientError::Redirect { url: url.into() });
    }
    if !status.is_success() {
        return Err(ClientError::Http { url: url.into(), status: status.as_u16() });
    }
    Ok(())
}

fn rpc_error(err: &Value) -> Option<ClientError> {
    let code = i32::try_from(err.get("code")?.as_i64()?).ok()?;
    let message = err.get("message").and_then(Value::as_str).unwrap_or("").chars().take(300).collect();
    let reason = err
        .get("data")
        .and_then(Value::as_array)
        .and_then(|items| {
            items.iter().find(|d| d.get("@type").and_then(Value::as_str) == Some(a2a_lf::ERROR_INFO_TYPE))
        })
        .and_then(|d| d.get("reason").and_then(Value::as_str))
        .map(str::to_string);
    Some(ClientError::Rpc { code, message, reason })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(200).collect()
}

/// A discovered agent: its card and the JSON-RPC endpoint chosen from it.
#[derive(Debug, Clone)]
pub struct AgentHandle {
    client: A2aClient,
    pub base_url: String,
    pub card: AgentCard,
    pub etag: Option<String>,
    pub endpoint: String,
    url: reqwest::Url,
}

impl AgentHandle {
    /// Picks the card's JSON-RPC 1.0 interface; a card without one is a bad card.
    pub fn from_card(
        client: A2aClient,
        base_url: &str,
        card: AgentCard,
        etag: Option<String>,
    ) -> Result<Self, ClientError> {
        let card_url = format!("{}{}", base_url.trim_end_matches('/'), CARD_PATH);
        let iface = jsonrpc_interface(&card).ok_or_else(|| ClientError::BadCard {
            url: card_url.clone(),
            reason: "no JSONRPC 1.0 entry in supportedInterfaces".into(),
        })?;
        let endpoint = iface.url.clone();
        let url = match reqwest::Url::parse(&endpoint) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => u,
            _ => {
                return Err(ClientError::BadCard {
                    url: card_url,
                    reason: "the JSONRPC interface url is not an http(s) url".into(),
                });
            }
        };
        Ok(Self { client, base_url: base_url.to_string(), card, etag, endpoint, url })
    }

    pub async fn send_message(
        &self,
        message: Message,
        extensions: &[String],
    ) -> Result<SendMessageResponse, ClientError> {
        let req = SendMessageRequest { message, configuration: None, metadata: None, tenant: None };
        self.send(&req, extensions).await
    }

    pub async fn send(
        &self,
        req: &SendMessageRequest,
        extensions: &[String],
    ) -> Result<SendMessageResponse, ClientError> {
        self.client.call_url(self.url.clone(), "SendMessage", req, extensions).await
    }

    pub async fn get_task(&self, id: &str, history_length: Option<i32>) -> Result<Task, ClientError> {
        let req = GetTaskRequest { id: id.into(), history_length, tenant: None };
        self.client.call_url(self.url.clone(), "GetTask", &req, &[]).await
    }

    pub async fn list_tasks(&self, req: &ListTasksRequest) -> Result<ListTasksResponse, ClientError> {
        self.client.call_url(self.url.clone(), "ListTasks", req, &[]).await
    }

    pub async fn cancel_task(&self, id: &str) -> Result<Task, ClientError> {
        let req = CancelTaskRequest { id: id.into(), metadata: None, tenant: None };
        self.client.call_url(self.url.clone(), "CancelTask", &req, &[]).await
    }
}
