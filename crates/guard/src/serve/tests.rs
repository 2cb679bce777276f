//! The server over real sockets: raw requests written byte by byte where a client would
//! misbehave, and what comes back.

use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::{get, post};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use super::*;

struct Server {
    addr: std::net::SocketAddr,
    /// Told when a request reaches `/slow`'s handler.
    entered: std::sync::Arc<tokio::sync::Notify>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(limits: Limits) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let entered = std::sync::Arc::new(tokio::sync::Notify::new());
        let in_handler = entered.clone();
        let app = Router::new()
            .route("/x", get(|| async { "ok" }))
            .route("/echo", post(|body: axum::body::Bytes| async move { format!("{} bytes", body.len()) }))
            .route(
                "/slow",
                get(move || async move {
                    in_handler.notify_one();
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    "slow ok"
                }),
            );
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(serve(listener, app, limits, async move {
            let _ = stopped.await;
        }));
        Server { addr, entered, stop: Some(stop), done }
    }

    fn host(&self) -> String {
        format!("Host: {}\r\n", self.addr)
    }

    async fn connect(&self) -> TcpStream {
        TcpStream::connect(self.addr).await.unwrap()
    }

    /// One whole request on a new connection, answered: its status line and body.
    async fn get(&self, path: &str) -> (String, String) {
        let mut s = self.connect().await;
        let req = format!("GET {path} HTTP/1.1\r\n{}Connection: close\r\n\r\n", self.host());
        s.write_all(req.as_bytes()).await.unwrap();
        answer(&mut s).await
    }
}

/// Everything the server sends until it closes: (status line, body).
async fn answer(s: &mut TcpStream) -> (String, String) {
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .expect("an answer in time")
        .ok();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.lines().next().unwrap_or_default().to_string();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn limits() -> Limits {
    Limits {
        head_timeout: Duration::from_millis(400),
        body_timeout: Duration::from_millis(400),
        max_body: 64,
        max_connections: 8,
    }
}

#[tokio::test]
async fn a_head_that_never_ends_is_closed_while_others_are_served() {
    let server = Server::start(limits()).await;
    let mut slow = server.connect().await;
    let began = Instant::now();
    slow.write_all(format!("GET /x HTTP/1.1\r\n{}X-Half: ", server.host()).as_bytes()).await.unwrap();
    // others are served meanwhile
    assert_eq!(server.get("/x").await, ("HTTP/1.1 200 OK".into(), "ok".into()));
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the half-sent request was never closed");
    let waited = began.elapsed();
    assert!(waited >= Duration::from_millis(350), "closed before its time: {waited:?}");
    assert!(!String::from_utf8_lossy(&rest).contains("200 OK"), "a half request was answered");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_head_timeout() {
    let server = Server::start(limits()).await;
    let mut s = server.connect().await;
    s.write_all(format!("GET /x HTTP/1.1\r\n{}\r\n", server.host()).as_bytes()).await.unwrap();
    let mut buf = [0u8; 256];
    let n = s.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200 OK"));
    // nothing more is sent: the server closes the idle connection
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "an idle connection was kept open");
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_answered_408() {
    let server = Server::start(limits()).await;
    let mut s = server.connect().await;
    let head = format!(
        "POST /echo HTTP/1.1\r\n{}Content-Type: text/plain\r\nContent-Length: 40\r\n\r\n",
        server.host()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(b"only ten b").await.unwrap();
    let (status, body) = answer(&mut s).await;
    assert_eq!(status, "HTTP/1.1 408 Request Timeout");
    assert!(body.contains("\"code\":\"body_timeout\""), "{body}");
}

#[tokio::test]
async fn a_malformed_chunked_body_is_400_not_413() {
    let server = Server::start(limits()).await;
    let mut s = server.connect().await;
    let req = format!(
        "POST /echo HTTP/1.1\r\n{}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
        server.host()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let (status, body) = answer(&mut s).await;
    assert_eq!(status, "HTTP/1.1 400 Bad Request");
    assert!(body.contains("\"code\":\"invalid_body\""), "{body}");
}

#[tokio::test]
async fn bodies_within_the_limit_reach_the_handler_and_larger_ones_are_413() {
    let server = Server::start(limits()).await;
    for (len, want) in [(64, "HTTP/1.1 200 OK"), (65, "HTTP/1.1 413 Payload Too Large")] {
        let mut s = server.connect().await;
        let head = format!(
            "POST /echo HTTP/1.1\r\n{}Content-Length: {len}\r\nConnection: close\r\n\r\n",
            server.host()
        );
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(&vec![b'a'; len]).await.unwrap();
        let (status, body) = answer(&mut s).await;
        assert_eq!(status, want, "{len} bytes: {body}");
        if len == 64 {
            assert_eq!(body, "64 bytes");
        } else {
            assert!(body.contains("\"code\":\"body_too_large\""), "{body}");
        }
    }
    // chunked, no length announced: the same limit
    let mut s = server.connect().await;
    let req = format!(
        "POST /echo HTTP/1.1\r\n{}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n30\r\n{}\r\n30\r\n{}\r\n0\r\n\r\n",
        server.host(),
        "b".repeat(48),
        "b".repeat(48)
    );
    s.write_all(req.as_bytes()).await.unwrap();
    assert_eq!(answer(&mut s).await.0, "HTTP/1.1 413 Payload Too Large");
}

#[tokio::test]
async fn past_the_cap_a_connection_is_refused_503_until_one_closes() {
    let server =
        Server::start(Limits { max_connections: 2, head_timeout: Duration::from_secs(5), ..limits() }).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        // a request answered, the connection kept open
        let mut s = server.connect().await;
        s.write_all(format!("GET /x HTTP/1.1\r\n{}\r\n", server.host()).as_bytes()).await.unwrap();
        let mut buf = [0u8; 256];
        let n = s.read(&mut buf).await.unwrap();
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200 OK"));
        held.push(s);
    }
    let (status, body) = server.get("/x").await;
    assert_eq!(status, "HTTP/1.1 503 Service Unavailable");
    assert!(body.contains("\"code\":\"too_many_connections\""), "{body}");
    drop(held.pop());
    // the server sees the close and frees its place; poll until a request is served
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _) = server.get("/x").await;
        if status == "HTTP/1.1 200 OK" {
            break;
        }
        assert!(Instant::now() < deadline, "a closed connection never freed its place: {status}");
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish_then_returns() {
    let mut server = Server::start(limits()).await;
    let mut s = server.connect().await;
    s.write_all(format!("GET /slow HTTP/1.1\r\n{}\r\n", server.host()).as_bytes()).await.unwrap();
    // the request is in the handler (it sleeps 300 ms) when the server is told to stop
    server.entered.notified().await;
    let _ = server.stop.take().unwrap().send(());
    let (status, body) = answer(&mut s).await;
    assert_eq!((status.as_str(), body.as_str()), ("HTTP/1.1 200 OK", "slow ok"));
    let done = tokio::time::timeout(Duration::from_secs(5), &mut server.done).await;
    assert!(matches!(done, Ok(Ok(Ok(())))), "serve did not return after its connections closed");
    assert!(TcpStream::connect(server.addr).await.is_err(), "still taking connections after shutdown");
}

#[test]
fn limits_come_from_the_environment_or_are_refused_clearly() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    };
    assert_eq!(Limits::from_env(&env(&[])).unwrap(), Limits::default());
    let set = Limits::from_env(&env(&[
        ("CAMPUS_HEAD_TIMEOUT_MS", "250"),
        ("CAMPUS_BODY_TIMEOUT_MS", "1500"),
        ("CAMPUS_MAX_CONNECTIONS", "3"),
    ]))
    .unwrap();
    assert_eq!(
        (set.head_timeout, set.body_timeout, set.max_connections),
        (Duration::from_millis(250), Duration::from_millis(1500), 3)
    );
    for bad in
        [("CAMPUS_HEAD_TIMEOUT_MS", "0"), ("CAMPUS_MAX_CONNECTIONS", "many"), ("CAMPUS_MAX_CONNECTIONS", "0")]
    {
        let pairs: &'static [(&str, &str)] = Box::leak(Box::new([bad]));
        let e = Limits::from_env(&env(pairs)).unwrap_err();
        assert!(e.to_string().contains(bad.0), "{e}");
    }
}
