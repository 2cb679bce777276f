//! The feed over real HTTP on 127.0.0.1, and `follow` against it.

use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;
use telemetry::{Event, HISTORY_TRUNCATED, SseFrame, SseParser, Telemetry};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Waits for `f`, failing the test if it takes unreasonably long.
async fn within<T>(f: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(20), f).await.expect("timed out")
}

struct Server {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(telemetry: &Telemetry, addr: SocketAddr) -> Server {
        let listener = TcpListener::bind(addr).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let app = telemetry.router();
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
        });
        Server { addr, stop, task }
    }

    fn url(&self) -> String {
        format!("http://{}/telemetry/events", self.addr)
    }

    /// Graceful shutdown; finishes only because open feeds are disconnected.
    async fn stop(self, telemetry: &Telemetry) {
        telemetry.disconnect_all();
        self.stop.send(()).unwrap();
        within(self.task).await.unwrap().unwrap();
    }
}

/// A raw SSE reader: keeps the exact text it got and the frames parsed from it.
struct Reader {
    response: reqwest::Response,
    parser: SseParser,
    frames: VecDeque<SseFrame>,
    raw: String,
}

impl Reader {
    async fn open(url: &str, last_event_id: Option<&str>) -> Reader {
        let mut request = reqwest::Client::new().get(url);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let response = within(request.send()).await.unwrap();
        assert_eq!(response.status(), 200);
        Reader { response, parser: SseParser::new(), frames: VecDeque::new(), raw: String::new() }
    }

    async fn frame(&mut self) -> SseFrame {
        while self.frames.is_empty() {
            let chunk = within(self.response.chunk()).await.unwrap().expect("the feed ended");
            self.raw.push_str(std::str::from_utf8(&chunk).unwrap());
            self.frames.extend(self.parser.push(&chunk));
        }
        self.frames.pop_front().unwrap()
    }

    async fn event(&mut self) -> (SseFrame, Event) {
        let frame = self.frame().await;
        let event = serde_json::from_str(&frame.data).unwrap();
        (frame, event)
    }

    /// The ids of the next `n` frames.
    async fn ids(&mut self, n: usize) -> Vec<String> {
        let mut ids = Vec::new();
        for _ in 0..n {
            ids.push(self.frame().await.id.expect("a kept event has an id line"));
        }
        ids
    }
}

fn ids(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.id.clone()).collect()
}

fn any_port() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

#[tokio::test]
async fn a_connected_client_receives_emitted_events() {
    let t = Telemetry::new("tutor");
    let server = Server::start(&t, any_port()).await;
    let mut reader = Reader::open(&server.url(), None).await;
    let headers = reader.response.headers();
    assert_eq!(headers["content-type"], "text/event-stream");
    assert_eq!(headers["cache-control"], "no-cache");

    let event = t.emit("registered", json!({"skill": "calculus", "text": "line one\nline two"}));
    let (frame, got) = reader.event().await;
    assert_eq!(got, event);
    let json = serde_json::to_string(&event).unwrap();
    assert_eq!(reader.raw, format!("id: {}\nevent: registered\ndata: {json}\n\n", event.id));
    assert_eq!(frame.event.as_deref(), Some("registered"));

    let beat = t.emit_transient("heartbeat", json!({}));
    let (frame, got) = reader.event().await;
    assert_eq!((frame.id, frame.event.as_deref(), got), (None, Some("heartbeat"), beat));
    assert_eq!(t.history(), vec![event]);
    server.stop(&t).await;
}

#[tokio::test]
async fn resuming_gets_only_the_missed_events() {
    let t = Telemetry::new("tutor");
    let server = Server::start(&t, any_port()).await;
    let events: Vec<Event> = (0..5).map(|i| t.emit("message_received", json!({ "i": i }))).collect();

    let mut by_header = Reader::open(&server.url(), Some(&events[2].id)).await;
    let query = format!("{}?after={}", server.url(), events[3].id);
    let mut by_query = Reader::open(&query, None).await;
    let mut fresh = Reader::open(&server.url(), None).await;
    let marker = t.emit("marker", json!({}));

    assert_eq!(by_header.ids(3).await, [ids(&events[3..]), vec![marker.id.clone()]].concat());
    assert_eq!(by_query.ids(2).await, vec![events[4].id.clone(), marker.id.clone()]);
    assert_eq!(fresh.ids(6).await, [ids(&events), vec![marker.id.clone()]].concat());
    server.stop(&t).await;
}

#[tokio::test]
async fn an_id_older_than_the_ring_gets_history_truncated_first() {
    let t = Telemetry::with_capacity("tutor", 3);
    let server = Server::start(&t, any_port()).await;
    let events: Vec<Event> = (0..6).map(|i| t.emit("message_received", json!({ "i": i }))).collect();

    let mut reader = Reader::open(&server.url(), Some(&events[0].id)).await;
    let (frame, notice) = reader.event().await;
    assert_eq!((frame.id, frame.event.as_deref()), (None, Some(HISTORY_TRUNCATED)));
    assert_eq!(notice.kind, HISTORY_TRUNCATED);
    assert_eq!(notice.data.value()["after"], events[0].id.as_str());
    assert_eq!(reader.ids(3).await, ids(&events[3..]));
    server.stop(&t).await;
}

#[tokio::test]
async fn follow_reconnects_after_a_restart_without_duplicates_and_stops_on_shutdown() {
    let t = Telemetry::new("tutor");
    let server = Server::start(&t, any_port()).await;
    let addr = server.addr;
    let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
    let (stop, stopped) = oneshot::channel::<()>();
    let follower = tokio::spawn(telemetry::follow(
        reqwest::Client::new(),
        server.url(),
        None,
        move |event| tx.send(event).unwrap(),
        async {
            let _ = stopped.await;
        },
    ));
    let kept = vec![t.emit("a", json!({})), t.emit("b", json!({}))];
    // kept events wait in the history until the follower connects
    for expected in &kept {
        assert_eq!(&within(rx.recv()).await.unwrap(), expected);
    }
    // a transient one goes only to whoever is connected now; it must not move the resume point
    let beat = t.emit_transient("heartbeat", json!({}));
    assert_eq!(within(rx.recv()).await.unwrap(), beat);

    // down: what happens meanwhile must arrive after the restart, once
    server.stop(&t).await;
    let missed = vec![t.emit("c", json!({})), t.emit("d", json!({}))];
    let server = Server::start(&t, addr).await;
    for expected in &missed {
        assert_eq!(&within(rx.recv()).await.unwrap(), expected);
    }
    let live = t.emit("e", json!({}));
    assert_eq!(within(rx.recv()).await.unwrap(), live);

    stop.send(()).unwrap();
    within(follower).await.unwrap();
    assert!(rx.recv().await.is_none(), "no further events and on_event dropped");
    server.stop(&t).await;
}

#[tokio::test]
async fn follow_skips_frames_that_are_not_events_and_never_logs_their_text() {
    let logs = testkit::logs::Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt().with_writer(move || writer.clone()).with_ansi(false).finish();
    let _logging = tracing::subscriber::set_default(subscriber);
    let listener = TcpListener::bind(any_port()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    // not JSON; JSON whose wrongly typed field holds text (serde's own message would quote it)
    let body = "data: not json SECRET-1\n\n: comment\n\n\
                data: {\"id\":\"x:0\",\"ts\":\"SECRET-2 my question\",\"agent\":\"a\",\"kind\":\"e\",\"data\":{}}\n\n\
                id: x:1\nevent: e\ndata: {\"id\":\"x:1\",\"ts\":1,\"agent\":\"a\",\"kind\":\"e\",\"data\":{}}\n\n";
    let app = axum::Router::new().route(
        "/telemetry/events",
        axum::routing::get(move || async move { ([("content-type", "text/event-stream")], body) }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
    let (stop, stopped) = oneshot::channel::<()>();
    let follower = tokio::spawn(telemetry::follow(
        reqwest::Client::new(),
        format!("http://{addr}/telemetry/events"),
        None,
        move |event| tx.send(event).unwrap(),
        async {
            let _ = stopped.await;
        },
    ));
    let event = within(rx.recv()).await.unwrap();
    assert_eq!((event.id.as_str(), event.kind.as_str()), ("x:1", "e"));
    stop.send(()).unwrap();
    within(follower).await.unwrap();
    let logs = logs.text();
    assert_eq!(logs.matches("skipped a telemetry frame that is not an event").count(), 2, "{logs}");
    assert!(!logs.contains("SECRET"), "{logs}");
}

#[tokio::test]
async fn follow_stops_on_shutdown_while_the_feed_is_unreachable() {
    // a port that was just free: nothing listens there
    let addr = TcpListener::bind(any_port()).await.unwrap().local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let follower = tokio::spawn(telemetry::follow(
        reqwest::Client::new(),
        format!("http://{addr}/telemetry/events"),
        Some("b:1".into()),
        |_| panic!("no feed, no events"),
        async {
            let _ = stopped.await;
        },
    ));
    stop.send(()).unwrap();
    within(follower).await.unwrap();
}
