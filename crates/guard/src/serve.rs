//! How every Campus server takes connections, so that no client can hold one open.
//!
//! - A request's head (its line and headers) must arrive within [`Limits::head_timeout`];
//!   the same time bounds a keep-alive connection left idle between requests (hyper
//!   starts the head timer as soon as a connection waits for its next request). A
//!   connection that runs out of it is closed.
//! - A request's body must arrive within [`Limits::body_timeout`] of its head: the body is
//!   read whole here, before any handler sees it — `408 body_timeout` when it is late,
//!   `413 body_too_large` past [`Limits::max_body`], `400 invalid_body` when it cannot be
//!   read (a malformed chunked encoding, a connection cut mid-body). Handlers then read a
//!   body already in memory, and keep their own, smaller limits.
//! - At most [`Limits::max_connections`] connections at once: one more is answered
//!   `503 too_many_connections` (with `Retry-After: 1`) and closed.
//!
//! Each is logged, at most once a second a kind with the count since the last line, so a
//! flood cannot flood the log. Errors are `{"error":{"code":…,"message":…}}`, as the guard's
//! other refusals.

use std::convert::Infallible;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use conf::{ConfError, env_parse};
use http_body_util::LengthLimitError;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

/// What one server allows a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A request's head must have arrived within this of the connection's first byte or
    /// its previous response; an idle keep-alive connection is closed after it too.
    pub head_timeout: Duration,
    /// A request's body must have arrived within this of its head.
    pub body_timeout: Duration,
    /// The largest body read at all (handlers may take less).
    pub max_body: usize,
    /// Connections open at once; one more is refused.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 10 s for a head and for a body, 4 MiB, 512 connections (well under a process's
    /// usual 1,024 open files, with room for the agent's own clients and store).
    fn default() -> Self {
        Limits {
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_body: 4 << 20,
            max_connections: 512,
        }
    }
}

impl Limits {
    /// The defaults, each overridden by its variable when set: `CAMPUS_HEAD_TIMEOUT_MS`,
    /// `CAMPUS_BODY_TIMEOUT_MS`, `CAMPUS_MAX_CONNECTIONS` (tests set small ones).
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Limits, ConfError> {
        let mut limits = Limits::default();
        let millis = |var: &str| -> Result<Option<Duration>, ConfError> {
            match env_parse::<u64>(var, env, "a number of milliseconds")? {
                Some(0) => Err(ConfError::new(var, "", "0 is not a number of milliseconds above 0")),
                ms => Ok(ms.map(Duration::from_millis)),
            }
        };
        if let Some(d) = millis("CAMPUS_HEAD_TIMEOUT_MS")? {
            limits.head_timeout = d;
        }
        if let Some(d) = millis("CAMPUS_BODY_TIMEOUT_MS")? {
            limits.body_timeout = d;
        }
        const CONNECTIONS: &str = "CAMPUS_MAX_CONNECTIONS";
        match env_parse::<usize>(CONNECTIONS, env, "a number of connections")? {
            Some(0) => {
                return Err(ConfError::new(CONNECTIONS, "", "0 is not a number of connections above 0"));
            }
            Some(n) => limits.max_connections = n,
            None => {}
        }
        Ok(limits)
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown` completes; then takes
/// no new connection, lets each open one finish the request it is on, and returns when
/// all have closed (a streaming response must be ended by whoever `shutdown` tells).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let notes = Arc::new(Notes::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    // every connection holds a receiver; the sender sees them all closed
    let (open_tx, open_rx) = watch::channel(());
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.head_timeout);
    let shutdown = std::pin::pin!(shutdown);
    let mut shutdown = shutdown;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // out of file descriptors and the like: the listener itself is fine
                    notes.note(Note::AcceptFailed, &e.to_string());
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            notes.note(Note::TooMany, &format!("{} open", limits.max_connections));
            tokio::spawn(refuse(stream, limits.max_connections));
            continue;
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |req: Request<Incoming>| {
            let router = router.clone();
            async move { Ok::<_, Infallible>(handle(router, req, limits).await) }
        });
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        let mut stop = stop_rx.clone();
        let open = open_rx.clone();
        let notes = Arc::clone(&notes);
        tokio::spawn(async move {
            let _held = (permit, open);
            let mut conn = std::pin::pin!(conn);
            let stopping = async move {
                let _ = stop.wait_for(|s| *s).await;
            };
            let done = tokio::select! {
                done = conn.as_mut() => done,
                () = stopping => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = done {
                if e.is_timeout() {
                    notes.note(Note::HeadTimeout, &format!("{} ms", limits.head_timeout.as_millis()));
                } else {
                    tracing::debug!(error = %e, "a connection ended with an error");
                }
            }
        });
    }
    let _ = stop_tx.send(true);
    drop(open_rx);
    open_tx.closed().await;
    Ok(())
}

/// One request: its body read whole within the limits, then the router.
async fn handle(router: Router, req: Request<Incoming>, limits: Limits) -> Response {
    let (parts, body) = req.into_parts();
    let mut read = std::pin::pin!(axum::body::to_bytes(Body::new(body), limits.max_body));
    // most bodies came with their head: read them at once, without arming a timer
    let now = std::future::poll_fn(|cx| std::task::Poll::Ready(read.as_mut().poll(cx))).await;
    let read = match now {
        std::task::Poll::Ready(done) => Ok(done),
        std::task::Poll::Pending => tokio::time::timeout(limits.body_timeout, read).await,
    };
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => {
            let too_large = e.into_inner().downcast_ref::<LengthLimitError>().is_some();
            return if too_large {
                error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    &format!("the body is over {} bytes", limits.max_body),
                )
            } else {
                error(StatusCode::BAD_REQUEST, "invalid_body", "the request body could not be read")
            };
        }
        Err(_) => {
            tracing::warn!(
                timeout_ms = limits.body_timeout.as_millis() as u64,
                method = %parts.method,
                "a request body did not arrive in time"
            );
            let mut resp = error(
                StatusCode::REQUEST_TIMEOUT,
                "body_timeout",
                &format!("the request body did not arrive within {} ms", limits.body_timeout.as_millis()),
            );
            resp.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return resp;
        }
    };
    match router.oneshot(Request::from_parts(parts, Body::from(bytes))).await {
        Ok(resp) => resp,
        Err(never) => match never {},
    }
}

fn error(status: StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

/// Answers a connection past the cap and closes it, without reading its request.
async fn refuse(mut stream: TcpStream, cap: usize) {
    let body = serde_json::json!({ "error": {
        "code": "too_many_connections",
        "message": format!("this server has its {cap} connections open; try again shortly"),
    }})
    .to_string();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// What a server says of its connections, each kind at most once a second.
#[derive(Clone, Copy)]
enum Note {
    HeadTimeout,
    TooMany,
    AcceptFailed,
}

#[derive(Default)]
struct Notes {
    /// Per kind: when it was last logged, and how many happened since.
    kinds: Mutex<[(Option<Instant>, u64); 3]>,
}

impl Notes {
    fn note(&self, note: Note, detail: &str) {
        let mut kinds = self.kinds.lock().unwrap_or_else(|p| p.into_inner());
        let (last, count) = &mut kinds[note as usize];
        *count += 1;
        if last.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
            return;
        }
        let n = std::mem::take(count);
        *last = Some(Instant::now());
        drop(kinds);
        match note {
            Note::HeadTimeout => tracing::info!(
                connections = n,
                timeout = detail,
                "closed connections whose request head did not arrive in time (or left idle)"
            ),
            Note::TooMany => tracing::warn!(
                connections = n,
                cap = detail,
                "refused connections past the cap (503 too_many_connections)"
            ),
            Note::AcceptFailed => {
                tracing::warn!(times = n, error = detail, "could not accept a connection; retrying")
            }
        }
    }
}

#[cfg(test)]
mod tests;
