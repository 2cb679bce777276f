//! The form-intent seam on the Tutor: each of the four outcomes acts, with the heuristic
//! and with the live decider against the fake Messages API (in-process, real HTTP).

use std::sync::Arc;

use a2a::server::{AgentExecutor, Reply, RequestContext};
use forms::intent::{Decide, Live};
use llm::fake::{FakeReply, FakeServer, Script};
use serde_json::{Value, json};
use skills::Settings;
use specialist::forms::FormHost;
use telemetry::Telemetry;

use crate::{Answerer, Mode, RULES, Tutor, agent_card, default_skills, form};

fn tutor(decider: Arc<dyn Decide>) -> Tutor {
    let dir = std::env::temp_dir().join(format!("tutor-intent-{}-{}", std::process::id(), uuid()));
    let store = store::Store::open(&dir.join("tutor.sqlite3")).unwrap();
    let settings =
        Settings::new(agent_card("http://127.0.0.1:9"), default_skills(), default_skills(), RULES).unwrap();
    let host = FormHost::new(store, decider, &|_| None);
    Tutor::new(
        settings,
        Telemetry::new("tutor"),
        Answerer::for_mode(Mode::Mock).expect("mock answers offline"),
        host,
    )
}

fn uuid() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// A chat message from a client that renders A2UI.
fn ctx(text: &str) -> RequestContext {
    let message = serde_json::from_value(json!({"messageId": format!("m-{}", uuid()), "role": "ROLE_USER",
        "contextId": "ctx-1", "parts": [{"text": text}],
        "metadata": {"a2uiClientCapabilities": {"v0.9": {"supportedCatalogIds": [a2ui::BASIC_CATALOG_ID]}}}}))
    .unwrap();
    RequestContext {
        message,
        context_id: "ctx-1".into(),
        new_context: false,
        task: None,
        extensions: vec![a2ui::EXTENSION_URI.to_string()],
        metadata: None,
    }
}

/// The form's prefilled values (`/form`).
fn prefill(v: &Value) -> Value {
    let parts = v["parts"].as_array().unwrap();
    let messages = parts.iter().filter_map(|p| p["data"].as_array()).flatten();
    messages
        .clone()
        .find(|m| m["updateDataModel"]["path"] == "/form")
        .map(|m| m["updateDataModel"]["value"].clone())
        .unwrap_or_else(|| panic!("a prefill: {v}"))
}

/// (text, whether it is a form task, the reply as JSON)
fn read(reply: &Reply) -> (String, bool, Value) {
    let (parts, metadata, task) = match reply {
        Reply::Message { parts, metadata, .. } => (parts, metadata, false),
        Reply::Task { parts, metadata, .. } => (parts, metadata, true),
    };
    let text = parts.iter().filter_map(|p| p.as_text()).collect::<String>();
    (text, task, json!({"parts": parts, "metadata": metadata}))
}

async fn say(t: &Tutor, text: &str) -> (String, bool, Value) {
    read(&t.execute(ctx(text)).await.unwrap())
}

#[tokio::test]
async fn the_heuristic_s_four_outcomes_each_act() {
    let t = tutor(forms::intent::heuristic());
    assert_eq!(say(&t, "help").await.0, form::TEXTS.clarify);
    assert_eq!(say(&t, "I want to reserve a group study room").await.0, form::TEXTS.out_of_scope);
    let (answer, task, _) = say(&t, "what is a limit?").await;
    assert!(answer.contains("A limit describes") && !task, "{answer}");
    let (_, task, v) = say(&t, "Can I meet a tutor about derivatives on Thursday afternoon?").await;
    assert!(task, "the form: {v}");
    assert!(
        v.to_string().contains(r#""preferredPeriod":["afternoon"]"#) || v.to_string().contains("afternoon"),
        "{v}"
    );
    assert_eq!(v["metadata"].get("mode"), None, "no model metadata for the heuristic");
}

#[tokio::test]
async fn the_live_decider_s_four_outcomes_each_act_and_a_failure_gives_its_code() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let client = llm::Anthropic::new(llm::AnthropicConfig::new(
        fake.url(),
        Some(llm::ApiKey::new("sk-test").unwrap()),
    ))
    .unwrap();
    let t = tutor(Arc::new(Live { llm: Arc::new(client), model: llm::Model::default() }));
    let decide = |d: &str, w: &str| Script {
        replies: vec![FakeReply::json(json!({"decision": d, "workflow": w}))],
        ..Script::default()
    };

    fake.set_script(decide("clarify", "none"));
    assert_eq!(say(&t, "I have a thing about calculus and people").await.0, form::TEXTS.clarify);
    fake.set_script(decide("out_of_scope", "none"));
    let (text, _, v) = say(&t, "get me a table for our group").await;
    assert_eq!(text, form::TEXTS.out_of_scope);
    assert_eq!(
        (&v["metadata"]["mode"], &v["metadata"]["modelCalls"][0]["purpose"]),
        (&json!("live"), &json!("form_intent"))
    );
    fake.set_script(decide("answer", "none"));
    assert!(say(&t, "what is a limit?").await.0.contains("A limit describes"));
    // the model only decides: the prefill is read by code from the student's words
    fake.set_script(decide("offer_form", "tutoring-request"));
    let (_, task, v) = say(&t, "could somebody go over series with me thursday afternoon").await;
    assert!(task, "{v}");
    assert_eq!(prefill(&v)["period"], json!(["afternoon"]), "prefill from the words: {v}");
    assert_eq!(prefill(&v)["name"], "", "never a name from anywhere but the student");
    assert_eq!(fake.total(), 4, "one call per message");
    let sent = &fake.requests()[3]["body"];
    assert_eq!(sent["output_config"]["format"]["schema"], *Live::schema(forms::Workflow::Tutoring).value());
    assert_eq!(sent["max_tokens"], forms::intent::INTENT_MAX_TOKENS);

    fake.set_script(Script { replies: vec![FakeReply::status(503)], ..Script::default() });
    let (text, _, v) = say(&t, "what is a limit?").await;
    assert!(text.contains("(provider_unavailable)"), "{text}");
    assert_eq!(v["metadata"]["modelError"]["code"], "provider_unavailable");
    assert_eq!(fake.total(), 5, "exactly one call, no retry, no answer after it");
}
