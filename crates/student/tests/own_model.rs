//! The Student's own model step against a scripted Hub (a real A2A server that records
//! what reached it): the mock heuristic, and live mode against the fake Messages API
//! (real HTTP, every request counted). Obvious questions cost no call; a clarifying
//! question is asked once, never twice in a row; a capability reaches the Hub only as a
//! hint in metadata; "not offered" sends nothing; every failure sends the question on
//! as it is.

use std::sync::{Arc, Mutex};

use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext};
use a2a::{CardDoc, RpcError};
use llm::fake::{FakeReply, FakeServer, Script};
use llm::{Anthropic, AnthropicConfig, ApiKey, Model};
use serde_json::{Value, json};
use student::own::{Mode, OwnModel};
use student::{Asked, Student};

/// What reached the Hub: each question's text and its metadata.
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

struct Hub(Seen);

impl AgentExecutor for Hub {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let metadata = serde_json::to_value(&ctx.metadata).unwrap();
        let message_metadata = serde_json::to_value(&ctx.message.metadata).unwrap();
        self.0.lock().unwrap().push((ctx.text(), json!({"request": metadata, "message": message_metadata})));
        Ok(Reply::text("the hub answered"))
    }
}

/// A Hub whose public card offers Tutoring and Library.
async fn hub() -> (String, Seen) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut card = a2a::basic_card("Campus University", "front desk", &base);
    card.skills = serde_json::from_value(json!([
        {"id": "tutoring", "name": "Tutoring", "description": "Help with course subjects.",
         "tags": ["tutoring", "calculus", "derivative", "math"]},
        {"id": "library", "name": "Library", "description": "Opening hours, borrowing, study rooms.",
         "tags": ["library", "hours", "borrow", "book", "study room"]},
    ]))
    .unwrap();
    let seen: Seen = Arc::default();
    let app = A2aServer::new(Hub(seen.clone()), CardCell::new(CardDoc::new(card))).router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, seen)
}

fn student(base: &str, own: OwnModel) -> Student {
    Student::new(a2a::client::A2aClient::default(), base).text_only().with_own_model(Some(Arc::new(own)))
}

fn live(fake: &FakeServer, key: Option<&str>) -> OwnModel {
    let key = key.map(|k| ApiKey::new(k).unwrap());
    let client = Anthropic::new(AnthropicConfig::new(fake.url(), key)).unwrap();
    OwnModel::new(Mode::Live, Arc::new(client), Model::default())
}

fn local(asked: Asked) -> student::LocalReply {
    match asked {
        Asked::Local(r) => r,
        Asked::Sent(ex) => panic!("sent: {ex:?}"),
    }
}

fn sent(asked: Asked) -> student::Exchange {
    match asked {
        Asked::Sent(ex) => ex,
        Asked::Local(r) => panic!("answered locally: {r:?}"),
    }
}

fn hint(seen: &Seen) -> Value {
    seen.lock().unwrap().last().unwrap().1["message"]["studentHint"].clone()
}

#[tokio::test]
async fn the_mock_passes_obvious_questions_clarifies_once_hints_and_declines() {
    let (base, seen) = hub().await;
    let me = student(&base, OwnModel::mock());

    let ex = sent(me.ask_own("What are the library hours on Monday?").await.unwrap());
    assert_eq!(ex.reply_text, "the hub answered");
    let step = ex.step.unwrap();
    assert_eq!((step.outcome, step.model_calls, step.mode), ("obvious", 0, "mock"));
    assert_eq!(seen.lock().unwrap()[0].0, "What are the library hours on Monday?");
    assert!(hint(&seen).is_null(), "an obvious question goes on as it is");

    let reply = local(me.ask_own("hi").await.unwrap());
    assert_eq!(reply.step.outcome, "clarify");
    assert!(reply.text.contains("Tutoring or Library"), "{}", reply.text);
    assert!(reply.labelled().contains(student::own::LABEL) && reply.labelled().contains("mock, not a model"));
    assert_eq!(seen.lock().unwrap().len(), 1, "a clarifying question sends nothing");
    // a vague answer again: not a second clarifying question; the answer goes on with the question
    let ex = sent(me.ask_own("not sure").await.unwrap());
    assert_eq!(ex.step.unwrap().outcome, "pass");
    assert_eq!(seen.lock().unwrap()[1].0, "hi\nnot sure");

    let ex = sent(me.ask_own("Can I borrow a calculus book?").await.unwrap());
    assert_eq!(ex.step.as_ref().unwrap().capability.as_deref(), Some("library"));
    assert_eq!(hint(&seen), json!({"capability": "library", "mode": "mock"}));

    let reply = local(me.ask_own("Can you fix my plumbing?").await.unwrap());
    assert_eq!(reply.step.outcome, "not_offered");
    assert!(reply.text.contains("doesn't seem to offer"), "{}", reply.text);
    assert_eq!(seen.lock().unwrap().len(), 3, "not offered: nothing reached the Hub");
}

#[tokio::test]
async fn live_mode_against_the_fake_api() {
    let (base, seen) = hub().await;
    let decision = |d: &str, capability: &str, question: &str, confident: bool| {
        FakeReply::json(
            json!({"decision": d, "capability": capability, "question": question, "confident": confident}),
        )
    };
    let script = Script {
        replies: vec![
            decision("clarify", "", "Which course is it for?", false),
            decision("clarify", "", "And which week?", false),
            decision("capability", "library", "", false),
            decision("capability", "registry-only-id", "", false),
            decision("not_offered", "", "", false),
            decision("not_offered", "", "", true),
            FakeReply::status(529),
        ],
        ..Script::default()
    };
    let fake = FakeServer::start(script).await.unwrap();
    let me = student(&base, live(&fake, Some("sk-ant-own-model-canary")));

    // obvious: no model call at all
    sent(me.ask_own("What is the derivative of x^2?").await.unwrap());
    assert_eq!(fake.total(), 0);

    let reply = local(me.ask_own("I have a question about my course").await.unwrap());
    assert_eq!(reply.text, "Which course is it for?");
    assert_eq!(reply.step.to_json()["mode"], "live");
    assert!(reply.step.to_json()["requestId"].as_str().unwrap().starts_with("req_"));
    assert_eq!(seen.lock().unwrap().len(), 1);
    // the model asks again: refused by code, the answer goes on with the question
    let ex = sent(me.ask_own("no idea").await.unwrap());
    assert_eq!(ex.step.as_ref().unwrap().outcome, "pass");
    assert_eq!(seen.lock().unwrap()[1].0, "I have a question about my course\nno idea");
    let asked = fake.requests().last().unwrap()["body"]["messages"][0]["content"].to_string();
    assert!(asked.contains(r#"\"mayClarify\":false"#), "{asked}");

    sent(me.ask_own("where can I work quietly with friends").await.unwrap());
    assert_eq!(hint(&seen), json!({"capability": "library", "mode": "live"}));
    // a capability the card does not list is no hint
    let ex = sent(me.ask_own("where is the registry office").await.unwrap());
    assert!(hint(&seen).is_null() && ex.step.unwrap().capability.is_none());
    // "not offered" only when confident
    sent(me.ask_own("something unusual").await.unwrap());
    assert_eq!(seen.lock().unwrap().len(), 5);
    local(me.ask_own("something unusual again").await.unwrap());
    assert_eq!(seen.lock().unwrap().len(), 5, "not offered: nothing reached the Hub");

    // a provider error: the question goes on as it is, after exactly one call
    let before = fake.total();
    let ex = sent(me.ask_own("an unclear question").await.unwrap());
    assert_eq!(fake.total(), before + 1, "no retry");
    let step = ex.step.unwrap().to_json();
    assert_eq!(
        (step["outcome"].as_str(), step["error"]["code"].as_str()),
        (Some("failed_open"), Some("provider_unavailable"))
    );
    assert_eq!(seen.lock().unwrap().last().unwrap().0, "an unclear question");

    // no key: no request at all, and the question still goes on
    let keyless = student(&base, live(&fake, None));
    let before = fake.total();
    let ex = sent(keyless.ask_own("an unclear question").await.unwrap());
    assert_eq!(fake.total(), before);
    assert_eq!(ex.step.unwrap().to_json()["error"]["code"], "missing_credentials");
}
