//! The Hub's localhost-only developer endpoints (behind the local guard, like
//! everything the Hub serves):
//!
//! - `GET /dev/registry` — every specialist's status, card ETag and revision, heartbeat age
//! - `POST /dev/refresh` — re-fetch every specialist's card (the "Refresh skills" button)
//! - `GET|PUT /dev/agents/{id}/settings`, `POST /dev/agents/{id}/settings/preview` — a
//!   proxy to that specialist's own settings API, at its configured endpoint only, each
//!   change signed by the Hub (`campus-hub-signature`: the specialist takes no other);
//!   `PATCH /dev/agents/{id}/settings/skills/{skill}` likewise (one skill's change)
//!
//! Errors: `{"error": {"code", "message"}}` with `unknown_agent` (404) and
//! `agent_unreachable` (502); the specialist's own answers pass through unchanged.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde_json::json;

use crate::config::Config;
use crate::registry::Registry;

const BODY_LIMIT: usize = 256 * 1024;

#[derive(Clone)]
struct DevState {
    config: Arc<Config>,
    registry: Arc<Registry>,
    http: reqwest::Client,
}

fn error(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({"error": {"code": code, "message": message}}))).into_response()
}

async fn registry_view(State(s): State<DevState>) -> Response {
    let live = s.config.live.as_ref();
    let hub = vocab::registry::HubInfo {
        name: s.config.name.clone(),
        mode: s.config.router.as_str().into(),
        // the model and whether a key is set, never the key
        model: live.map(|l| l.model.id().to_string()),
        key: live.map(|l| l.key_status().to_string()),
    };
    Json(vocab::registry::RegistryView { hub, specialists: s.registry.describe() }).into_response()
}

async fn refresh(State(s): State<DevState>) -> Response {
    let scheduled: Vec<&String> =
        s.registry.ids().iter().filter(|id| s.registry.request_refresh(id)).collect();
    (StatusCode::ACCEPTED, Json(json!({"scheduled": scheduled}))).into_response()
}

/// A body for the specialist: as the client sent it, with its content type (the
/// specialist judges both), or a JSON error when it could not be read here.
type Forward = Result<(Option<HeaderValue>, Bytes), Box<Response>>;

fn forward(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Forward {
    match body {
        Ok(bytes) => Ok((headers.get(header::CONTENT_TYPE).cloned(), bytes)),
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            Err(Box::new(error(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", "the body is over 256 KiB")))
        }
        Err(_) => Err(Box::new(error(StatusCode::BAD_REQUEST, "bad_request", "the body could not be read"))),
    }
}

async fn proxy(s: &DevState, id: &str, method: Method, tail: &str, body: Forward) -> Response {
    let (content_type, body) = match body {
        Ok(b) => b,
        Err(refused) => return *refused,
    };
    let Some(spec) = s.config.specialist(id) else {
        return error(StatusCode::NOT_FOUND, "unknown_agent", "no specialist with that id");
    };
    let path = format!("/api/settings{tail}");
    let url = format!("{}{path}", spec.endpoint.trim_end_matches('/'));
    let signature = (method != Method::GET)
        .then(|| hublink::sign_request(s.registry.key(), id, method.as_str(), &path, &body));
    let mut req = s.http.request(method, &url);
    if let Some(signature) = signature {
        req = req.header(vocab::meta::HUB_SIGNATURE_HEADER, signature);
    }
    if let Some(content_type) = content_type {
        req = req.header(header::CONTENT_TYPE, content_type);
    }
    if !body.is_empty() {
        req = req.body(body);
    }
    let resp = match req.send().await {
        Ok(r) => r,
        Err(_) => {
            return error(StatusCode::BAD_GATEWAY, "agent_unreachable", "the specialist did not answer");
        }
    };
    let status = StatusCode::from_u16(resp.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    match resp.bytes().await {
        Ok(bytes) if bytes.len() <= BODY_LIMIT * 4 => {
            (status, [(header::CONTENT_TYPE, "application/json")], Body::from(bytes)).into_response()
        }
        _ => error(
            StatusCode::BAD_GATEWAY,
            "agent_unreachable",
            "the specialist's answer was incomplete or too large",
        ),
    }
}

async fn settings_get(State(s): State<DevState>, Path(id): Path<String>) -> Response {
    proxy(&s, &id, Method::GET, "", Ok((None, Bytes::new()))).await
}

async fn settings_put(
    State(s): State<DevState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    proxy(&s, &id, Method::PUT, "", forward(&headers, body)).await
}

async fn settings_preview(
    State(s): State<DevState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    proxy(&s, &id, Method::POST, "/preview", forward(&headers, body)).await
}

async fn settings_patch(
    State(s): State<DevState>,
    Path((id, skill)): Path<(String, String)>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // Only a well-formed skill id goes into the forwarded path.
    let well_formed = !skill.is_empty()
        && skill.len() <= 64
        && skill.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !well_formed {
        return error(StatusCode::NOT_FOUND, "unknown_skill", "no skill with that id");
    }
    proxy(&s, &id, Method::PATCH, &format!("/skills/{skill}"), forward(&headers, body)).await
}

pub(crate) fn router(config: Arc<Config>, registry: Arc<Registry>) -> Router {
    let http = reqwest::Client::builder()
        .pool_idle_timeout(a2a::client::POOL_IDLE)
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(5))
        .no_proxy()
        .build()
        .expect("http client builds with static settings");
    Router::new()
        .route("/dev/registry", get(registry_view))
        .route("/dev/refresh", post(refresh))
        .route("/dev/agents/{id}/settings", get(settings_get).put(settings_put))
        .route("/dev/agents/{id}/settings/preview", post(settings_preview))
        .route("/dev/agents/{id}/settings/skills/{skill}", patch(settings_patch))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(DevState { config, registry, http })
}
