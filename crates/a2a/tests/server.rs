//! The A2A layer over real HTTP: every error path with its code, the task rules,
//! card caching and the client's typed errors. The server runs on a real port.

mod common;

use std::net::SocketAddr;

use a2a::client::{A2aClient, AgentHandle, CardFetch, ClientError};
use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext};
use a2a::wire::{
    AgentCard, AgentExtension, ListTasksRequest, Message, Part, Role, SendMessageResponse, TaskState,
};
use a2a::{CardDoc, RpcError};
use common::{JSON, V1, code, raw, reason, rpc};
use serde_json::{Value, json};

/// Answers by keyword: "task" opens a task asking for input, "done" completes it,
/// "reject" fails with -32602, anything else is a plain message.
struct Scripted;

impl AgentExecutor for Scripted {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let text = ctx.text();
        Ok(match text.as_str() {
            "task" => Reply::task(TaskState::InputRequired, vec![Part::text("which course?")]),
            "done" => Reply::task(TaskState::Completed, vec![Part::text("enrolled")]),
            "reject" => return Err(RpcError::invalid_params("message.parts", "not today")),
            "seam" => Reply::text(
                json!({"extensions": ctx.extensions, "metadata": ctx.metadata, "context": ctx.context_id})
                    .to_string(),
            ),
            _ => Reply::text(format!("echo: {text}")),
        })
    }
}

fn card(base: &str, required_ext: Option<&str>) -> AgentCard {
    let mut card = a2a::basic_card("Test Agent", "test", base);
    card.capabilities.extensions = required_ext.map(|uri| {
        vec![AgentExtension { uri: uri.into(), description: None, required: Some(true), params: None }]
    });
    card
}

struct TestServer {
    base: String,
    cell: CardCell,
}

async fn start(required_ext: Option<&str>) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let base = format!("http://{addr}");
    let cell = CardCell::new(CardDoc::new(card(&base, required_ext)));
    let app = A2aServer::new(Scripted, cell.clone()).with_body_limit(64 * 1024).router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    TestServer { base, cell }
}

fn user_text(text: &str) -> Value {
    json!({"message": {"messageId": format!("m-{text}"), "role": "ROLE_USER", "parts": [{"text": text}]}})
}

#[tokio::test]
async fn envelope_and_header_errors_have_their_codes() {
    let s = start(None).await;
    let b = &s.base;
    let ok_body =
        json!({"jsonrpc":"2.0","id":"s1","method":"SendMessage","params": user_text("hi")}).to_string();

    let (_, v) = raw(b, "{not json", &[JSON, V1]).await;
    assert_eq!((code(&v), v["id"].clone(), reason(&v)), (-32700, Value::Null, "PARSE_ERROR"));

    let (_, v) = raw(b, format!("[{ok_body}]"), &[JSON, V1]).await;
    assert_eq!(code(&v), -32600);
    assert_eq!(reason(&v), "INVALID_REQUEST");

    let (_, v) = raw(b, r#"{"jsonrpc":"1.0","id":5,"method":"SendMessage"}"#, &[JSON, V1]).await;
    assert_eq!((code(&v), v["id"].clone()), (-32600, json!(5)));
    let (_, v) = raw(b, r#"{"jsonrpc":"2.0","id":5}"#, &[JSON, V1]).await;
    assert_eq!(code(&v), -32600);

    for name in ["message/send", "tasks/get", "NoSuchMethod"] {
        let v = rpc(b, name, json!({})).await;
        assert_eq!(code(&v), -32601, "{name}");
        assert_eq!(reason(&v), "METHOD_NOT_FOUND");
    }

    // version header: missing means 0.3; unsupported values too
    let (_, v) = raw(b, ok_body.clone(), &[JSON]).await;
    assert_eq!((code(&v), reason(&v)), (-32009, "VERSION_NOT_SUPPORTED"));
    assert_eq!(v["id"], "s1");
    let (_, v) = raw(b, ok_body.clone(), &[JSON, ("a2a-version", "0.3")]).await;
    assert_eq!(code(&v), -32009);

    // content type
    let (_, v) = raw(b, ok_body.clone(), &[("content-type", "text/plain"), V1]).await;
    assert_eq!((code(&v), reason(&v)), (-32005, "CONTENT_TYPE_NOT_SUPPORTED"));
    assert_eq!(v["id"], "s1", "the id is still echoed");
    let (_, v) = raw(b, ok_body.clone(), &[V1]).await;
    assert_eq!(code(&v), -32005);
    let (_, v) = raw(b, ok_body.clone(), &[("content-type", "application/json; charset=utf-8"), V1]).await;
    assert!(v["result"]["message"].is_object(), "{v}");

    // the trailing slash is the same endpoint
    let resp = reqwest::Client::new()
        .post(format!("{b}/a2a/jsonrpc/"))
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(ok_body.clone())
        .send()
        .await
        .unwrap();
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["result"]["message"]["parts"][0]["text"], "echo: hi");
}

#[tokio::test]
async fn bad_params_name_the_field() {
    let s = start(None).await;
    let b = &s.base;
    let cases = [
        (json!({}), "message"),
        (
            json!({"message": {"messageId": "m", "role": "ROLE_ROBOT", "parts": [{"text": "x"}]}}),
            "message.role",
        ),
        (json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": []}}), "message.parts"),
        (
            json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": 5}]}}),
            "message.parts[0].text",
        ),
        (json!({"message": {"role": "ROLE_USER", "parts": [{"text": "x"}]}}), "message.messageId"),
    ];
    for (params, field) in cases {
        let v = rpc(b, "SendMessage", params).await;
        assert_eq!(code(&v), -32602, "{v}");
        assert_eq!(reason(&v), "INVALID_PARAMS");
        assert!(v["error"]["message"].as_str().unwrap().contains(field), "{field}: {v}");
        assert_eq!(v["error"]["data"][0]["fieldViolations"][0]["field"], field);
    }
    let v = rpc(b, "GetTask", json!({})).await;
    assert_eq!(code(&v), -32602);
    let v = rpc(b, "SendMessage", user_text("reject")).await;
    assert_eq!(code(&v), -32602, "an executor's error is answered as is");
}

#[tokio::test]
async fn oversized_bodies_are_refused_before_parsing() {
    let s = start(None).await;
    // 64 KiB limit in this server; a body of invalid JSON would be -32700 if it were parsed
    let (status, v) = raw(&s.base, vec![b'{'; 200 * 1024], &[JSON, V1]).await;
    assert_eq!(status, 413);
    assert_eq!(code(&v), -32600);
    assert!(v["error"]["message"].as_str().unwrap().contains("limit"), "{v}");
    // chunked (no content-length) is cut off too
    let stream = futures_once(vec![b' '; 100 * 1024]);
    let (status, _) = raw(&s.base, stream, &[JSON, V1]).await;
    assert_eq!(status, 413);
}

fn futures_once(bytes: Vec<u8>) -> reqwest::Body {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    tokio::spawn(async move {
        for chunk in bytes.chunks(8 * 1024) {
            if tx.send(Ok(chunk.to_vec())).await.is_err() {
                break;
            }
        }
    });
    reqwest::Body::wrap_stream(ReceiverStream(rx))
}

struct ReceiverStream(tokio::sync::mpsc::Receiver<Result<Vec<u8>, std::io::Error>>);

impl futures_core::Stream for ReceiverStream {
    type Item = Result<Vec<u8>, std::io::Error>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.0.poll_recv(cx)
    }
}

#[tokio::test]
async fn unsupported_operations() {
    let s = start(None).await;
    for (method, want) in [
        ("SendStreamingMessage", -32004),
        ("SubscribeToTask", -32004),
        ("CreateTaskPushNotificationConfig", -32003),
        ("GetExtendedAgentCard", -32007),
    ] {
        assert_eq!(code(&rpc(&s.base, method, json!({"id": "x"})).await), want, "{method}");
    }
}

#[tokio::test]
async fn required_extension_must_be_activated() {
    let uri = "https://campus.example/ext/scope/v1";
    let s = start(Some(uri)).await;
    let body = json!({"jsonrpc":"2.0","id":1,"method":"SendMessage","params": user_text("hi")}).to_string();
    let (_, v) = raw(&s.base, body.clone(), &[JSON, V1]).await;
    assert_eq!((code(&v), reason(&v)), (-32008, "EXTENSION_SUPPORT_REQUIRED"));
    let (_, v) = raw(&s.base, body.clone(), &[JSON, V1, ("a2a-extensions", "urn:other")]).await;
    assert_eq!(code(&v), -32008);
    let (_, v) = raw(&s.base, body, &[JSON, V1, ("a2a-extensions", &format!("urn:other, {uri}"))]).await;
    assert!(v["result"]["message"].is_object(), "{v}");
}

async fn connect(s: &TestServer) -> AgentHandle {
    A2aClient::default().connect(&s.base).await.expect("connect")
}

fn msg(text: &str, task_id: Option<&str>, context_id: Option<&str>) -> Message {
    let mut m = Message::new(Role::User, vec![Part::text(text)]);
    m.task_id = task_id.map(str::to_string);
    m.context_id = context_id.map(str::to_string);
    m
}

#[tokio::test]
async fn task_lifecycle_and_its_errors() {
    let s = start(None).await;
    let agent = connect(&s).await;

    // a plain message keeps the caller's context
    let SendMessageResponse::Message(m) =
        agent.send_message(msg("hello", None, Some("ctx-1")), &[]).await.unwrap()
    else {
        panic!("expected a message")
    };
    assert_eq!(m.context_id.as_deref(), Some("ctx-1"));
    assert_eq!(m.role, Role::Agent);

    // a task opens, takes a follow-up, completes
    let SendMessageResponse::Task(t) =
        agent.send_message(msg("task", None, Some("ctx-1")), &[]).await.unwrap()
    else {
        panic!("expected a task")
    };
    assert_eq!(t.status.state, TaskState::InputRequired);
    assert_eq!(t.context_id, "ctx-1");
    let got = agent.get_task(&t.id, None).await.unwrap();
    assert_eq!(got.history.as_ref().map(Vec::len), Some(2));
    let got = agent.get_task(&t.id, Some(1)).await.unwrap();
    assert_eq!(got.history.as_ref().map(Vec::len), Some(1));
    let got = agent.get_task(&t.id, Some(0)).await.unwrap();
    assert!(got.history.is_none());

    // a follow-up from another context is refused
    let err = agent.send_message(msg("done", Some(&t.id), Some("ctx-other")), &[]).await.unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32602));

    let SendMessageResponse::Task(done) =
        agent.send_message(msg("done", Some(&t.id), None), &[]).await.unwrap()
    else {
        panic!("expected a task")
    };
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.id, t.id);
    assert_eq!(done.history.as_ref().map(Vec::len), Some(4));

    // terminal: no more messages (-32004), no cancel (-32002)
    let err = agent.send_message(msg("more", Some(&t.id), None), &[]).await.unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32004));
    let err = agent.cancel_task(&t.id).await.unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32002));
    let state = agent.get_task(&t.id, None).await.unwrap().status.state;
    assert_eq!(state, TaskState::Completed, "a refused message changes nothing");

    // cancel an open task, then it is terminal
    let SendMessageResponse::Task(open) = agent.send_message(msg("task", None, None), &[]).await.unwrap()
    else {
        panic!("expected a task")
    };
    assert_eq!(agent.cancel_task(&open.id).await.unwrap().status.state, TaskState::Canceled);
    assert_eq!(agent.cancel_task(&open.id).await.unwrap_err().rpc_code(), Some(-32002));

    // unknown ids
    assert_eq!(agent.get_task("nope", None).await.unwrap_err().rpc_code(), Some(-32001));
    assert_eq!(agent.cancel_task("nope").await.unwrap_err().rpc_code(), Some(-32001));
    let err = agent.send_message(msg("x", Some("nope"), None), &[]).await.unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32001));
    match agent.get_task("nope", None).await.unwrap_err() {
        ClientError::Rpc { reason, .. } => assert_eq!(reason.as_deref(), Some("TASK_NOT_FOUND")),
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn list_tasks_filters_and_pages() {
    let s = start(None).await;
    let agent = connect(&s).await;
    for i in 0..5 {
        let ctx = if i < 3 { "a" } else { "b" };
        agent.send_message(msg("task", None, Some(ctx)), &[]).await.unwrap();
    }
    let mut req = ListTasksRequest {
        context_id: Some("a".into()),
        status: None,
        page_size: Some(2),
        page_token: None,
        history_length: Some(0),
        status_timestamp_after: None,
        include_artifacts: None,
        tenant: None,
    };
    let first = agent.list_tasks(&req).await.unwrap();
    assert_eq!((first.tasks.len(), first.total_size, first.page_size), (2, 3, 2));
    assert!(first.tasks.iter().all(|t| t.context_id == "a" && t.history.is_none()));
    req.page_token = Some(first.next_page_token.clone());
    let second = agent.list_tasks(&req).await.unwrap();
    assert_eq!(second.tasks.len(), 1);
    assert!(second.next_page_token.is_empty());
    assert!(!first.tasks.iter().any(|t| t.id == second.tasks[0].id));

    req.context_id = None;
    req.page_token = None;
    req.page_size = None;
    req.status = Some(TaskState::Completed);
    assert_eq!(agent.list_tasks(&req).await.unwrap().total_size, 0);
    req.status = Some(TaskState::InputRequired);
    assert_eq!(agent.list_tasks(&req).await.unwrap().total_size, 5);

    let v = rpc(&s.base, "ListTasks", json!({"pageSize": 1000})).await;
    assert_eq!(code(&v), -32602);
    let v = rpc(&s.base, "ListTasks", json!({"pageToken": "forged"})).await;
    assert_eq!(code(&v), -32602);
}

#[tokio::test]
async fn card_is_served_with_etag_and_304() {
    let s = start(None).await;
    let http = reqwest::Client::new();
    let url = format!("{}/.well-known/agent-card.json", s.base);
    let resp = http.get(&url).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "max-age=5");
    let etag = resp.headers()["etag"].to_str().unwrap().to_string();
    let card: Value = resp.json().await.unwrap();
    assert_eq!(card["supportedInterfaces"][0]["protocolBinding"], "JSONRPC");
    assert_eq!(card["supportedInterfaces"][0]["protocolVersion"], "1.0");
    assert!(card.get("url").is_none() && card.get("protocolVersion").is_none(), "no v0.3 fields");

    let resp = http.get(&url).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(resp.status(), 304);
    assert_eq!(resp.headers()["etag"], etag.as_str());

    // the client's conditional fetch
    let client = A2aClient::default();
    assert!(matches!(client.fetch_card(&s.base, Some(&etag)).await.unwrap(), CardFetch::NotModified));

    // a changed card has a new etag and is served whole
    let mut changed = card_from(&s);
    changed.description = "changed".into();
    s.cell.set(CardDoc::new(changed));
    match client.fetch_card(&s.base, Some(&etag)).await.unwrap() {
        CardFetch::Fresh { card, etag: new } => {
            assert_eq!(card.description, "changed");
            assert_ne!(new.as_deref(), Some(etag.as_str()));
        }
        CardFetch::NotModified => panic!("the card changed"),
    }
}

fn card_from(s: &TestServer) -> AgentCard {
    s.cell.get().card.clone()
}

#[tokio::test]
async fn client_errors_are_typed() {
    // nothing listening
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", l.local_addr().unwrap());
    drop(l);
    let client = A2aClient::default();
    assert!(matches!(client.connect(&dead).await.unwrap_err(), ClientError::Refused { .. }));

    // a server that accepts and never answers
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}", silent.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept().await {
            held.push(sock);
        }
    });
    let quick = A2aClient::new(a2a::client::ClientConfig {
        timeout: std::time::Duration::from_millis(300),
        ..Default::default()
    });
    assert!(matches!(quick.connect(&silent_url).await.unwrap_err(), ClientError::Timeout { .. }));

    // refused: nothing was sent; a connection that breaks once the request is read: the
    // request went out, so the outcome is unknown (not "nothing sent")
    let refused = client.call::<_, Value>(&format!("{dead}/rpc"), "SendMessage", &json!({}), &[]).await;
    let refused = refused.unwrap_err();
    assert!(matches!(refused, ClientError::Refused { .. }) && refused.nothing_sent(), "{refused}");
    let breaker = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let breaker_url = format!("http://{}/rpc", breaker.local_addr().unwrap());
    let (read_tx, read_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        let (mut sock, _) = breaker.accept().await.unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        // read until the body's closing brace arrived, then drop the connection unanswered
        while !got.ends_with(b"}") {
            let n = sock.read(&mut buf).await.unwrap();
            assert!(n > 0, "the client closed first");
            got.extend_from_slice(&buf[..n]);
        }
        let _ = read_tx.send(String::from_utf8_lossy(&got).into_owned());
    });
    let broken = client.call::<_, Value>(&breaker_url, "SendMessage", &json!({"q": 1}), &[]).await;
    let broken = broken.unwrap_err();
    let request = read_rx.await.unwrap();
    assert!(request.starts_with("POST /rpc") && request.contains("SendMessage"), "{request}");
    assert!(matches!(broken, ClientError::Broken { .. }) && !broken.nothing_sent(), "{broken}");
    assert!(broken.to_string().contains("outcome is unknown"), "{broken}");

    // a card without a JSON-RPC 1.0 interface, and one that is not a card
    let odd = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let odd_url = format!("http://{}", odd.local_addr().unwrap());
    let mut v03 = card(&odd_url, None);
    v03.supported_interfaces[0].protocol_version = "0.3".into();
    let v03 = serde_json::to_string(&v03).unwrap();
    let app = axum::Router::new()
        .route("/v03/.well-known/agent-card.json", axum::routing::get(move || async move { v03 }))
        .route("/junk/.well-known/agent-card.json", axum::routing::get(|| async { "<html>" }))
        .route(
            "/moved/.well-known/agent-card.json",
            axum::routing::get(|| async { axum::response::Redirect::temporary("http://127.0.0.1:9/") }),
        )
        .route("/huge/.well-known/agent-card.json", axum::routing::get(|| async { " ".repeat(300 * 1024) }));
    tokio::spawn(async move { axum::serve(odd, app).await.unwrap() });
    for (path, want) in
        [("v03", "no JSONRPC 1.0"), ("junk", "bad agent card"), ("moved", "redirect"), ("huge", "larger")]
    {
        let err = client.connect(&format!("{odd_url}/{path}")).await.unwrap_err();
        assert!(err.to_string().contains(want), "{path}: {err}");
    }
}

#[tokio::test]
async fn extensions_and_metadata_reach_the_executor() {
    let s = start(None).await;
    let agent = connect(&s).await;
    let req = a2a::wire::SendMessageRequest {
        message: msg("seam", None, Some("ctx-seam")),
        configuration: None,
        metadata: Some([("requestId".to_string(), json!("r-1"))].into_iter().collect()),
        tenant: None,
    };
    let exts = vec!["urn:a".to_string(), "urn:b".to_string()];
    let SendMessageResponse::Message(m) = agent.send(&req, &exts).await.unwrap() else {
        panic!("expected a message")
    };
    let seen: Value = serde_json::from_str(m.parts[0].as_text().unwrap()).unwrap();
    assert_eq!(
        seen["extensions"],
        json!(["urn:a", "urn:b"]),
        "the client sends A2A-Extensions and the layer passes them on"
    );
    assert_eq!(seen["metadata"]["requestId"], "r-1");
    assert_eq!(seen["context"], "ctx-seam");
}

#[tokio::test]
async fn malformed_answers_are_invalid_responses() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let card = serde_json::to_string(&card(&base, None)).unwrap();
    let answers = std::sync::Arc::new(std::sync::Mutex::new(vec![
        "not json".to_string(),
        json!({"jsonrpc": "2.0", "id": 1}).to_string(),
        json!({"jsonrpc": "2.0", "id": 999_999, "result": {"message": {}}}).to_string(),
    ]));
    let app = axum::Router::new()
        .route("/.well-known/agent-card.json", axum::routing::get(move || async move { card }))
        .route(
            "/a2a/jsonrpc",
            axum::routing::post(move || {
                let answers = answers.clone();
                async move { answers.lock().unwrap().pop().unwrap_or_default() }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let agent = A2aClient::default().connect(&base).await.unwrap();
    for want in ["does not match", "neither result nor error", "not a json-rpc response"] {
        match agent.send_message(msg("x", None, None), &[]).await.unwrap_err() {
            ClientError::InvalidResponse { reason, .. } => assert!(reason.contains(want), "{reason}"),
            other => panic!("{want}: {other}"),
        }
    }
}
