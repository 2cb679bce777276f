//! The settings API takes changes from the Hub only: every request other than a read
//! must carry the Hub's signature over its method, path and body (the Hub's developer
//! proxy signs what it passes on, `hublink::sign_request`). Another local program can
//! read the settings, never change them: 403 `hub_signature_required`.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use vocab::meta::HUB_SIGNATURE_HEADER;

use hublink::HubTrust;

fn refused(status: StatusCode, code: &str, message: String) -> Response {
    (status, axum::Json(json!({"error": {"code": code, "message": message}}))).into_response()
}

/// Middleware over the settings routes.
pub(crate) async fn hub_only_writes(
    State(trust): State<Arc<HubTrust>>,
    req: Request,
    next: Next,
) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, skills::BODY_LIMIT).await else {
        return refused(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", "the body is over 256 KiB".into());
    };
    let path = parts.uri.path_and_query().map_or(parts.uri.path(), |p| p.as_str());
    let header = parts.headers.get(HUB_SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
    if let Err(reason) = trust.check_request(parts.method.as_str(), path, &bytes, header) {
        tracing::warn!(reason, method = %parts.method, "refused a settings change the hub did not sign");
        let message = match reason {
            "no_hub_key" => "this agent has not registered with the hub yet, so it cannot check the hub's signature; try again once it is ready".to_string(),
            "unsigned" => "settings change only through the hub's developer proxy (/dev/agents/{id}/settings)".to_string(),
            other => format!("the hub's signature on this change is not valid ({other})"),
        };
        return refused(StatusCode::FORBIDDEN, "hub_signature_required", message);
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}
