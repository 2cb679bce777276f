//! Conformance points over real HTTP: media types the card does not accept (-32005),
//! params under their proto field names, and the card's caching headers.

mod common;

use std::net::SocketAddr;

use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext};
use a2a::wire::{AgentCard, AgentSkill, TaskState};
use a2a::{CardDoc, RpcError};
use common::rpc;
use serde_json::{Value, json};

/// "task" opens a task; anything else is answered with what the layer handed over.
struct Echo;

impl AgentExecutor for Echo {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        if ctx.text() == "task" {
            return Ok(Reply::task(TaskState::InputRequired, vec![a2a::wire::Part::text("which?")]));
        }
        let seen = json!({
            "messageId": ctx.message.message_id,
            "contextId": ctx.context_id,
            "messageMetadata": ctx.message.metadata,
            "requestMetadata": ctx.metadata,
            "mediaTypes": ctx.message.parts.iter().map(a2a::part_media_type).collect::<Vec<_>>(),
        });
        Ok(Reply::text(seen.to_string()))
    }
}

async fn start(card: impl FnOnce(&str) -> AgentCard) -> (String, CardCell) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let base = format!("http://{addr}");
    let cell = CardCell::new(CardDoc::new(card(&base)));
    let app = A2aServer::new(Echo, cell.clone()).router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, cell)
}

fn text_card(base: &str) -> AgentCard {
    a2a::basic_card("Text Agent", "text only", base)
}

/// Text by default; one skill also takes images.
fn image_skill_card(base: &str) -> AgentCard {
    let mut card = text_card(base);
    card.skills = vec![AgentSkill {
        id: "look".into(),
        name: "Look".into(),
        description: "looks at pictures".into(),
        tags: vec!["image".into()],
        examples: None,
        input_modes: Some(vec!["image/*".into()]),
        output_modes: None,
        security_requirements: None,
    }];
    card
}

fn send(parts: Value) -> Value {
    json!({"message": {"messageId": "m1", "role": "ROLE_USER", "parts": parts}})
}

fn error_of(v: &Value) -> (i64, &str, &str) {
    let data = v["error"]["data"].as_array().unwrap_or_else(|| panic!("not an error: {v}"));
    let field = data.iter().find_map(|d| d["fieldViolations"][0]["field"].as_str()).unwrap_or("");
    let reason = data.last().and_then(|i| i["reason"].as_str()).unwrap_or("");
    (v["error"]["code"].as_i64().unwrap(), reason, field)
}

fn answer(v: &Value) -> Value {
    let text = v["result"]["message"]["parts"][0]["text"].as_str().unwrap_or_else(|| panic!("{v}"));
    serde_json::from_str(text).unwrap()
}

#[tokio::test]
async fn parts_of_a_type_the_card_does_not_accept_are_refused_with_32005() {
    let (base, _) = start(text_card).await;
    let png = json!({"raw": "iVBORw0KGgo=", "filename": "x.png", "mediaType": "image/png"});
    let v = rpc(&base, "SendMessage", send(json!([{"text": "look"}, png]))).await;
    assert_eq!(error_of(&v), (-32005, "CONTENT_TYPE_NOT_SUPPORTED", "message.parts[1].mediaType"));
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("image/png") && message.contains("text/plain"), "{message}");

    // no media type: a data part is application/json, a file is application/octet-stream
    for part in [json!({"data": {"k": 1}}), json!({"url": "http://127.0.0.1:1/f"})] {
        let v = rpc(&base, "SendMessage", send(json!([part]))).await;
        assert_eq!(error_of(&v).0, -32005, "{part}");
    }
    let v =
        rpc(&base, "SendMessage", send(json!([{"data": {}, "mediaType": "application/vnd.x+json"}]))).await;
    assert_eq!(error_of(&v).0, -32005);
    // ... and a text part is text/plain; parameters and case do not matter
    let v = rpc(
        &base,
        "SendMessage",
        send(json!([{"text": "a"}, {"text": "b", "mediaType": "Text/Plain; charset=utf-8"}])),
    )
    .await;
    assert_eq!(answer(&v)["mediaTypes"], json!(["text/plain", "text/plain"]));
    // the proto spelling of the field is named as written
    let v = rpc(&base, "SendMessage", send(json!([{"text": "a", "media_type": "text/html"}]))).await;
    assert_eq!(error_of(&v), (-32005, "CONTENT_TYPE_NOT_SUPPORTED", "message.parts[0].media_type"));

    // a skill's input modes widen what the agent accepts
    let (base, _) = start(image_skill_card).await;
    let v = rpc(&base, "SendMessage", send(json!([png]))).await;
    assert_eq!(answer(&v)["mediaTypes"], json!(["image/png"]));
    let v = rpc(&base, "SendMessage", send(json!([{"data": {}}]))).await;
    assert_eq!(error_of(&v).0, -32005);
}

#[tokio::test]
async fn params_accept_proto_field_names_and_keep_user_data_verbatim() {
    let (base, _) = start(text_card).await;
    let params = json!({
        "message": {"message_id": "snake-1", "context_id": "ctx-snake", "role": "ROLE_USER",
                    "parts": [{"text": "hi", "media_type": "text/plain"}],
                    "metadata": {"request_id": "r-1", "nested": {"task_id": "kept"}}},
        "configuration": {"history_length": 3, "accepted_output_modes": ["text/plain"]},
        "metadata": {"page_size": "kept too"}
    });
    let v = rpc(&base, "SendMessage", params).await;
    let seen = answer(&v);
    assert_eq!((&seen["messageId"], &seen["contextId"]), (&json!("snake-1"), &json!("ctx-snake")));
    assert_eq!(v["result"]["message"]["contextId"], "ctx-snake");
    assert_eq!(seen["messageMetadata"], json!({"request_id": "r-1", "nested": {"task_id": "kept"}}));
    assert_eq!(seen["requestMetadata"], json!({"page_size": "kept too"}));

    // a task with two history entries, then GetTask and ListTasks in proto names
    let mut ids = Vec::new();
    for n in 0..2 {
        let p = json!({"message": {"message_id": format!("t-{n}"), "context_id": "ctx-tasks",
                                   "role": "ROLE_USER", "parts": [{"text": "task"}]}});
        ids.push(rpc(&base, "SendMessage", p).await["result"]["task"]["id"].as_str().unwrap().to_string());
    }
    let full = rpc(&base, "GetTask", json!({"id": ids[0]})).await;
    assert_eq!(full["result"]["history"].as_array().unwrap().len(), 2, "{full}");
    let one = rpc(&base, "GetTask", json!({"id": ids[0], "history_length": 1})).await;
    assert_eq!(one["result"]["history"].as_array().unwrap().len(), 1, "{one}");
    let page = rpc(&base, "ListTasks", json!({"context_id": "ctx-tasks", "page_size": 1})).await;
    assert_eq!(page["result"]["tasks"].as_array().unwrap().len(), 1, "{page}");
    assert_eq!(page["result"]["totalSize"], 2);
    let token = page["result"]["nextPageToken"].as_str().unwrap();
    let rest =
        rpc(&base, "ListTasks", json!({"context_id": "ctx-tasks", "page_size": 1, "page_token": token}))
            .await;
    assert_eq!(rest["result"]["tasks"].as_array().unwrap().len(), 1, "{rest}");
    assert_ne!(rest["result"]["tasks"][0]["id"], page["result"]["tasks"][0]["id"]);

    // errors name the field as written; both spellings at once are refused
    let v = rpc(&base, "ListTasks", json!({"page_size": 1000})).await;
    assert_eq!(error_of(&v), (-32602, "INVALID_PARAMS", "page_size"));
    let v = rpc(&base, "GetTask", json!({"id": ids[0], "historyLength": 1, "history_length": 2})).await;
    assert_eq!(error_of(&v).0, -32602);
}

async fn get_card(base: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new().get(format!("{base}/.well-known/agent-card.json"));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

fn header(resp: &reqwest::Response, name: &str) -> String {
    resp.headers().get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
}

#[tokio::test]
async fn the_card_carries_max_age_and_a_last_modified_that_moves_only_with_its_content() {
    let (base, cell) = start(text_card).await;
    let first = get_card(&base, &[]).await;
    assert_eq!(first.status(), 200);
    assert_eq!(header(&first, "cache-control"), "max-age=5");
    let last_modified = header(&first, "last-modified");
    assert_eq!(last_modified, httpdate::fmt_http_date(cell.get().modified), "an HTTP-date");
    let etag = header(&first, "etag");

    // an identical card set again keeps its date
    let before = cell.get().modified;
    cell.set(CardDoc::new(cell.get().card.clone()));
    assert_eq!(cell.get().modified, before);
    assert_eq!(header(&get_card(&base, &[]).await, "last-modified"), last_modified);

    // If-Modified-Since: 304 with the same validators
    let not_modified = get_card(&base, &[("if-modified-since", &last_modified)]).await;
    assert_eq!(not_modified.status(), 304);
    assert_eq!(header(&not_modified, "etag"), etag);
    assert_eq!(header(&not_modified, "cache-control"), "max-age=5");
    let old = get_card(&base, &[("if-modified-since", "Sun, 06 Nov 1994 08:49:37 GMT")]).await;
    assert_eq!(old.status(), 200);
    // If-None-Match decides when both are sent
    let both =
        get_card(&base, &[("if-none-match", "\"other\""), ("if-modified-since", &last_modified)]).await;
    assert_eq!(both.status(), 200);

    // a changed card: a new date, and the old date no longer answers 304 in full
    let mut changed = cell.get().card.clone();
    changed.description = "changed".into();
    cell.set(CardDoc::new(changed));
    assert!(cell.get().modified > before);
    let fresh = get_card(&base, &[("if-modified-since", &last_modified)]).await;
    assert_eq!(fresh.status(), 200, "the content changed since that date");
    assert_eq!(header(&fresh, "last-modified"), httpdate::fmt_http_date(cell.get().modified));
    assert_ne!(header(&fresh, "etag"), etag);
}
