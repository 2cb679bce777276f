//! The local guard: the middleware every Campus server wears from day one.
//!
//! - `Host` must be a loopback name (`localhost`, `127.x.x.x`, `[::1]`) or the bound
//!   address, with the bound port. Anything else is refused: that is what a DNS
//!   rebinding attack looks like from the server's side.
//! - A state-changing request (anything but GET, HEAD, OPTIONS) whose `Origin` is not
//!   the server itself or a configured origin is refused, and so is one a browser marks
//!   `Sec-Fetch-Site: cross-site`. Programs that send no `Origin` are not browsers and pass.
//!
//! - A request with two `Host` headers is refused `400 duplicate_host` (RFC 9112 §3.2).
//!
//! Refusals are `403` (`400` for two hosts) with
//! `{"error":{"code":"host_not_allowed"|"origin_not_allowed"|"duplicate_host","message":…}}`.
//! [`serve`] is how every server takes connections (timeouts, a connection cap, bodies
//! read whole within limits): see its module.

mod serve;

pub use serve::{Limits, serve};

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

/// Who may talk to a server bound at `addr`.
#[derive(Debug, Clone)]
pub struct LocalPolicy {
    addr: SocketAddr,
    extra_origins: Vec<String>,
}

impl LocalPolicy {
    /// The policy for a server bound at `addr` (use the listener's real address, so port 0 works).
    pub fn new(addr: SocketAddr) -> Self {
        Self { addr, extra_origins: Vec::new() }
    }

    /// Also allow state-changing requests from this origin (`http://127.0.0.1:4444`).
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.extra_origins.push(origin.into().trim_end_matches('/').to_ascii_lowercase());
        self
    }

    /// Whether a `Host` header value names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let Some((name, port)) = split_host_port(host) else { return false };
        port == self.addr.port() && self.name_allowed(name)
    }

    fn name_allowed(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        if name == "localhost" {
            return true;
        }
        match name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.addr.ip(),
            Err(_) => false,
        }
    }

    /// Whether an `Origin` header value may change state here.
    pub fn origin_allowed(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        if self.extra_origins.contains(&origin) {
            return true;
        }
        match origin.strip_prefix("http://") {
            Some(hostport) => self.host_allowed(hostport),
            None => false,
        }
    }

    /// Checks one request's headers; `Err` carries the refusal.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), Refusal> {
        let mut hosts = headers.get_all(header::HOST).iter();
        let host = hosts.next().and_then(|v| v.to_str().ok());
        if hosts.next().is_some() {
            // RFC 9112 §3.2: a request with more than one Host is answered 400
            return Err(Refusal::TwoHosts);
        }
        if !host.is_some_and(|h| self.host_allowed(h)) {
            return Err(Refusal::Host);
        }
        let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        if safe {
            return Ok(());
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let ok = origin.to_str().is_ok_and(|o| self.origin_allowed(o));
            if !ok {
                return Err(Refusal::Origin);
            }
        } else if headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) == Some("cross-site") {
            return Err(Refusal::Origin);
        }
        Ok(())
    }
}

/// Splits `host:port` / `[v6]:port`; a missing port is refused (we never bind 80).
fn split_host_port(s: &str) -> Option<(&str, u16)> {
    let s = s.trim();
    let (name, port) = if let Some(rest) = s.strip_prefix('[') {
        let (v6, port) = rest.split_once("]:")?;
        (v6, port)
    } else {
        s.rsplit_once(':')?
    };
    if name.is_empty() || port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, port.parse().ok()?))
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Host,
    /// More than one `Host` header (`400`).
    TwoHosts,
    Origin,
}

impl Refusal {
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Host => "host_not_allowed",
            Refusal::TwoHosts => "duplicate_host",
            Refusal::Origin => "origin_not_allowed",
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            Refusal::Host => (StatusCode::FORBIDDEN, "host header does not name this local server"),
            Refusal::TwoHosts => (StatusCode::BAD_REQUEST, "a request has one host header"),
            Refusal::Origin => (StatusCode::FORBIDDEN, "cross-site request refused"),
        };
        let body = serde_json::json!({ "error": { "code": self.code(), "message": message } });
        (status, axum::Json(body)).into_response()
    }
}

async fn guard(State(policy): State<Arc<LocalPolicy>>, req: Request, next: Next) -> Response {
    match policy.check(req.method(), req.headers()) {
        Ok(()) => next.run(req).await,
        Err(refusal) => {
            tracing::warn!(code = refusal.code(), method = %req.method(), "refused a request");
            refusal.into_response()
        }
    }
}

/// Wraps every route of `router` in the guard.
pub fn protect(router: Router, policy: LocalPolicy) -> Router {
    router.layer(middleware::from_fn_with_state(Arc::new(policy), guard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    fn policy() -> LocalPolicy {
        LocalPolicy::new("127.0.0.1:41241".parse().unwrap()).allow_origin("http://127.0.0.1:4444")
    }

    #[test]
    fn hosts() {
        let p = policy();
        for ok in ["127.0.0.1:41241", "localhost:41241", "LOCALHOST:41241", "[::1]:41241", "127.0.0.2:41241"]
        {
            assert!(p.host_allowed(ok), "{ok}");
        }
        for bad in [
            "evil.example:41241",
            "127.0.0.1:41242",
            "127.0.0.1",
            "localhost",
            "10.0.0.1:41241",
            "127.0.0.1.evil.example:41241",
            "[::1]",
            ":41241",
            "127.0.0.1:41241:1",
        ] {
            assert!(!p.host_allowed(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        let p = policy();
        assert!(p.origin_allowed("http://127.0.0.1:41241"));
        assert!(p.origin_allowed("http://127.0.0.1:4444/"));
        assert!(!p.origin_allowed("http://127.0.0.1:5555"));
        assert!(!p.origin_allowed("https://evil.example"));
        assert!(!p.origin_allowed("null"));
    }

    async fn status(method: &str, headers: &[(&str, &str)]) -> (StatusCode, String) {
        let app =
            protect(Router::new().route("/x", get(|| async { "ok" }).post(|| async { "ok" })), policy());
        let mut req = Request::builder().method(method).uri("/x");
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let resp = app.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), 10_000).await.unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn middleware_refuses_with_stable_codes() {
        let host = ("host", "127.0.0.1:41241");
        assert_eq!(status("GET", &[host]).await.0, StatusCode::OK);
        assert_eq!(status("POST", &[host]).await.0, StatusCode::OK);
        assert_eq!(status("POST", &[host, ("origin", "http://127.0.0.1:4444")]).await.0, StatusCode::OK);
        let (s, body) = status("GET", &[("host", "attacker.example:41241")]).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        assert!(body.contains("host_not_allowed"));
        let (s, body) = status("GET", &[]).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        assert!(body.contains("host_not_allowed"));
        let (s, body) = status("POST", &[host, ("origin", "http://evil.example")]).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        assert!(body.contains("origin_not_allowed"));
        let (s, _) = status("POST", &[host, ("sec-fetch-site", "cross-site")]).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        let (s, body) = status("GET", &[host, ("host", "127.0.0.1:41241")]).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "a second host, even a good one");
        assert!(body.contains("duplicate_host"));
        // reading is allowed from anywhere on the machine; changing state is not
        assert_eq!(status("GET", &[host, ("origin", "http://evil.example")]).await.0, StatusCode::OK);
    }
}
