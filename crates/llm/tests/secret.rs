//! The key never leaves its header: with a recognisable key and every log captured (all
//! levels, every crate, the HTTP stack included), no error, Debug print, log line or
//! recorded request contains it, although the fake's error bodies repeat it.

use std::time::Duration;

use llm::fake::{FakeReply, FakeServer, Script};
use llm::{Anthropic, AnthropicConfig, ApiKey, LiveSetup, Llm, Message, Model, ModelConfig, Request, Schema};
use serde_json::json;
use testkit::logs::Captured;

const CANARY: &str = "sk-ant-CANARY-7f3a9c1e5b2d4068";

#[tokio::test]
async fn the_key_appears_in_no_error_debug_print_log_or_record() {
    let logs = Captured::default();
    let sink = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || sink.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let fake = FakeServer::start(Script::default()).await.unwrap();
    let key = ApiKey::new(CANARY).unwrap();
    let mut config = AnthropicConfig::new(fake.url(), Some(key.clone()));
    config.timeout = Duration::from_millis(500);
    let client = Anthropic::new(config.clone()).unwrap();
    let schema = Schema::new(json!({"type": "object", "additionalProperties": false,
        "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}))
    .unwrap();
    let req = Request::new("secret_test", Model::default(), "system", vec![Message::user("hello")], 100);

    // the danger is real: the provider's error body repeats the key
    fake.set_script(Script { replies: vec![FakeReply::status(401)], ..Script::default() });
    let raw = reqwest::Client::new()
        .post(format!("{}/v1/messages", fake.url()))
        .header("x-api-key", CANARY)
        .header("anthropic-version", llm::API_VERSION)
        .json(&json!({"model": "claude-haiku-5-5", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}]}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(raw.contains(CANARY), "the fake echoes the key, so the checks below mean something: {raw}");

    let mut shown = Vec::new();
    let replies = [401, 403, 404, 429, 500, 529, 400]
        .into_iter()
        .map(FakeReply::status)
        .chain([
            FakeReply::stop("refusal", ""),
            FakeReply::stop("max_tokens", ""),
            FakeReply::text("not json"),
            FakeReply { delay_ms: Some(2_000), ..FakeReply::text("late") },
            FakeReply::text("fine"),
        ])
        .collect::<Vec<_>>();
    for reply in replies {
        fake.set_script(Script { replies: vec![reply], ..Script::default() });
        let text = client.text(&req).await;
        shown.push(format!("{text:?}"));
        if let Err(e) = &text {
            shown.push(format!("{e} {e:?} {}", e.to_json()));
        }
    }
    fake.set_script(Script { replies: vec![FakeReply::status(429)], ..Script::default() });
    let e = client.structured(&req, &schema).await.unwrap_err();
    shown.push(format!("{e} {e:?} {}", e.to_json()));
    shown.push(format!("{:?}", client.model_info(Model::default()).await));
    shown.push(format!("{client:?} {config:?} {key:?} {key}"));
    let env = |k: &str| match k {
        "ANTHROPIC_API_KEY" => Some(CANARY.to_string()),
        "ANTHROPIC_BASE_URL" => Some(fake.url().to_string()),
        _ => None,
    };
    let setup = LiveSetup::from_env("TUTOR", &ModelConfig::default(), "TUTOR_CONFIG", &env).unwrap();
    shown.push(format!("{setup:?} {}", setup.key_status()));

    let records = serde_json::to_string(&fake.requests()).unwrap();
    assert!(fake.total() >= 14, "every call reached the fake");
    let logs = logs.text();
    assert!(
        logs.contains("model call failed")
            && logs.contains("model call done")
            && logs.contains("got no answer"),
        "logs were captured: {logs}"
    );
    for (what, text) in [("errors and debug prints", shown.join("\n")), ("records", records), ("logs", logs)]
    {
        assert!(!text.contains(CANARY), "the key appears in the {what}:\n{text}");
        assert!(!text.contains("CANARY"), "part of the key appears in the {what}");
    }
}
