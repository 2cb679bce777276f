//! The live client against the fake Messages API, over real HTTP on 127.0.0.1: the
//! request it sends, every error code with exactly one provider call, stop reasons,
//! structured output, the timeout, the missing key, the body limit, startup settings.

use std::time::{Duration, Instant};

use llm::fake::{FakeReply, FakeServer, Script};
use llm::{
    API_VERSION, Anthropic, AnthropicConfig, ApiKey, ErrorCode, LiveSetup, Llm, Message, Model, ModelConfig,
    Request, Schema, StopReason, Thinking,
};
use serde_json::json;

const KEY: &str = "sk-ant-test-placeholder-key";

fn client(fake: &FakeServer) -> Anthropic {
    Anthropic::new(AnthropicConfig::new(fake.url(), Some(ApiKey::new(KEY).unwrap()))).unwrap()
}

fn ask(q: &str) -> Request {
    Request::new("test_call", Model::default(), "You are a test.", vec![Message::user(q)], 200)
}

fn verdict_schema() -> Schema {
    Schema::new(json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["in_scope", "out_of_scope", "needs_clarification"]},
            "reason": {"type": "string"}
        },
        "required": ["verdict", "reason"],
        "additionalProperties": false
    }))
    .unwrap()
}

fn script(replies: Vec<FakeReply>) -> Script {
    Script { replies, ..Script::default() }
}

#[tokio::test]
async fn the_request_carries_model_cap_effort_schema_thinking_and_the_key_only_in_its_header() {
    let only_ours = Script {
        replies: vec![FakeReply::json(json!({"verdict": "in_scope", "reason": "calculus"}))],
        accept_key: Some(KEY.into()),
        ..Script::default()
    };
    let fake = FakeServer::start(only_ours).await.unwrap();
    let mut req = ask("what is a derivative?");
    req.messages.insert(0, Message::user("earlier question"));
    req.messages.insert(1, Message::assistant("earlier answer"));
    let reply = client(&fake).structured(&req, &verdict_schema()).await.unwrap();
    assert_eq!(reply.content["verdict"], "in_scope");

    let sent = fake.requests();
    assert_eq!(sent.len(), 1, "one call, one request");
    let r = &sent[0];
    assert_eq!((r["method"].as_str(), r["path"].as_str()), (Some("POST"), Some("/v1/messages")));
    assert_eq!(r["headers"]["anthropic-version"], API_VERSION);
    assert_eq!(r["headers"]["content-type"], "application/json");
    assert_eq!(r["key_sent"], true, "the key went in x-api-key (ours: the fake accepts no other)");
    assert!(r["headers"].get("x-api-key").is_none(), "the fake never records the key");
    assert!(!r.to_string().contains(KEY));
    let body = &r["body"];
    assert_eq!(
        body,
        &json!({
            "model": "claude-haiku-5-5",
            "max_tokens": 200,
            "system": "You are a test.",
            "messages": [
                {"role": "user", "content": "earlier question"},
                {"role": "assistant", "content": "earlier answer"},
                {"role": "user", "content": "what is a derivative?"}
            ],
            "thinking": {"type": "disabled"},
            "output_config": {"effort": "low", "format": {"type": "json_schema", "schema": verdict_schema().value()}}
        }),
        "exactly these fields: no sampling parameters, the key nowhere in the body"
    );
    // the reply's bookkeeping comes from the provider
    assert_eq!(reply.request_id.as_deref(), r["request_id"].as_str());
    assert_eq!(reply.model, "claude-haiku-5-5");
    assert_eq!(reply.stop_reason, StopReason::EndTurn);
    assert!(reply.usage.input_tokens > 0 && reply.usage.output_tokens > 0);
}

#[tokio::test]
async fn a_text_call_with_the_models_own_thinking_sends_no_thinking_field() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let mut req = ask("explain limits");
    req.thinking = Thinking::ModelDefault;
    req.max_tokens = 800;
    let reply = client(&fake).text(&req).await.unwrap();
    assert_eq!(reply.content, "(fake model) a reply to: explain limits");
    let body = &fake.requests()[0]["body"];
    assert!(body.get("thinking").is_none());
    assert_eq!(body["output_config"], json!({"effort": "low"}));
    assert_eq!(body["max_tokens"], 800);
}

#[tokio::test]
async fn each_error_status_gets_its_code_with_exactly_one_provider_call() {
    let cases = [
        (401, ErrorCode::AuthenticationFailed),
        (403, ErrorCode::PermissionDenied),
        (404, ErrorCode::ModelUnavailable),
        (429, ErrorCode::RateLimited),
        (500, ErrorCode::ProviderUnavailable),
        (529, ErrorCode::ProviderUnavailable),
        (400, ErrorCode::RequestRejected),
        (413, ErrorCode::RequestRejected),
    ];
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let client = client(&fake);
    for (i, (status, code)) in cases.into_iter().enumerate() {
        fake.set_script(script(vec![FakeReply::status(status)]));
        let e = client.text(&ask("q")).await.unwrap_err();
        assert_eq!(e.code, code, "{status}");
        assert_eq!(e.status, Some(status));
        assert_eq!(fake.total(), i as u64 + 1, "{status}: exactly one call, no retry");
        let recorded = fake.requests().last().cloned().unwrap();
        assert_eq!(
            e.request_id.as_deref(),
            recorded["request_id"].as_str(),
            "{status}: the request id is kept"
        );
        let shown = format!("{e} {e:?} {}", e.to_json());
        assert!(
            !shown.contains("scripted error") && !shown.contains(KEY),
            "{status}: the provider's message is dropped: {shown}"
        );
        assert_eq!(e.to_json()["message"], code.message());
    }
    // the same codes for the models endpoint
    fake.set_script(script(vec![FakeReply::status(529)]));
    let e = client.structured(&ask("q"), &verdict_schema()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::ProviderUnavailable);
}

#[tokio::test]
async fn a_model_the_provider_does_not_serve_is_model_unavailable_and_nothing_else_is_tried() {
    let only_sonnet = Script { models: Some(vec!["claude-sonnet-5-5".into()]), ..Script::default() };
    let fake = FakeServer::start(only_sonnet).await.unwrap();
    let client = client(&fake);
    let e = client.model_info(Model::default()).await.unwrap_err();
    assert_eq!((e.code, e.status), (ErrorCode::ModelUnavailable, Some(404)));
    let e = client.text(&ask("q")).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::ModelUnavailable);
    let sent = fake.requests();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0]["path"], "/v1/models/claude-haiku-5-5");
    assert_eq!(sent[1]["body"]["model"], "claude-haiku-5-5", "no other model substituted");
    let sonnet = Model::parse("claude-sonnet-5-5").unwrap();
    let info = client.model_info(sonnet).await.unwrap();
    assert_eq!(
        (info.id.as_str(), info.display_name.as_deref()),
        ("claude-sonnet-5-5", Some("Claude Sonnet 5.5"))
    );
    assert_eq!(fake.requests()[2]["headers"]["anthropic-version"], API_VERSION);
}

#[tokio::test]
async fn refusal_and_truncation() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let client = client(&fake);
    let schema = verdict_schema();
    let cases: Vec<(FakeReply, bool, Result<&str, ErrorCode>)> = vec![
        (FakeReply::stop("refusal", ""), false, Err(ErrorCode::Refusal)),
        (FakeReply::stop("refusal", "I can't"), false, Err(ErrorCode::Refusal)),
        (FakeReply::stop("refusal", ""), true, Err(ErrorCode::Refusal)),
        (FakeReply::stop("max_tokens", ""), false, Err(ErrorCode::TruncatedNoText)),
        (
            FakeReply { thinking: Some("long thought".into()), ..FakeReply::stop("max_tokens", "") },
            false,
            Err(ErrorCode::TruncatedNoText),
        ),
        (FakeReply::stop("max_tokens", "{\"verdict\": \"in_sc"), true, Err(ErrorCode::TruncatedNoText)),
        (FakeReply::stop("model_context_window_exceeded", ""), false, Err(ErrorCode::TruncatedNoText)),
        (FakeReply::stop("max_tokens", "A partial answer"), false, Ok("A partial answer")),
        (FakeReply::stop("end_turn", ""), false, Err(ErrorCode::InvalidOutput)),
    ];
    for (i, (reply, structured, want)) in cases.into_iter().enumerate() {
        fake.set_script(script(vec![reply.clone()]));
        let got = if structured {
            client.structured(&ask("q"), &schema).await.map(|r| r.content.to_string())
        } else {
            client.text(&ask("q")).await.map(|r| r.content)
        };
        match (got, want) {
            (Ok(text), Ok(want)) => assert_eq!(text, want, "case {i}"),
            (Err(e), Err(code)) => {
                assert_eq!(e.code, code, "case {i}: {reply:?}");
                assert!(
                    e.request_id.is_some() && e.usage.is_some(),
                    "case {i}: billed calls keep id and usage"
                );
            }
            (got, want) => panic!("case {i}: got {got:?}, want {want:?}"),
        }
    }
}

#[tokio::test]
async fn content_blocks_are_picked_by_type() {
    let reply = FakeReply { thinking: Some("Let me think.".into()), ..FakeReply::text("The answer.") };
    let fake = FakeServer::start(script(vec![reply])).await.unwrap();
    let r = client(&fake).text(&ask("q")).await.unwrap();
    assert_eq!(r.content, "The answer.", "the thinking block comes first and is skipped");
}

#[tokio::test]
async fn structured_output_is_parsed_and_checked_against_the_schema() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let client = client(&fake);
    let schema = verdict_schema();

    fake.set_script(script(vec![FakeReply::json(
        json!({"verdict": "needs_clarification", "reason": "which one?"}),
    )]));
    let r = client.structured(&ask("q"), &schema).await.unwrap();
    #[derive(serde::Deserialize)]
    struct Verdict {
        verdict: String,
        reason: String,
    }
    let v: Verdict = r.parse().unwrap();
    assert_eq!((v.verdict.as_str(), v.reason.as_str()), ("needs_clarification", "which one?"));

    for bad in [
        FakeReply::json(json!({"verdict": "maybe", "reason": ""})),
        FakeReply::json(json!({"verdict": "in_scope"})),
        FakeReply::text("in_scope, because calculus"),
    ] {
        fake.set_script(script(vec![bad.clone()]));
        let e = client.structured(&ask("q"), &schema).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOutput, "{bad:?}");
    }
    // nothing scripted: the fake's smallest reply in the schema's shape
    fake.set_script(Script::default());
    let r = client.structured(&ask("q"), &schema).await.unwrap();
    assert_eq!(r.content, json!({"verdict": "in_scope", "reason": "fake"}));
}

#[tokio::test]
async fn a_slow_provider_is_a_timeout() {
    let slow = FakeReply { delay_ms: Some(5_000), ..FakeReply::text("late") };
    let fake = FakeServer::start(script(vec![slow])).await.unwrap();
    let mut config = AnthropicConfig::new(fake.url(), Some(ApiKey::new(KEY).unwrap()));
    config.timeout = Duration::from_millis(300);
    let client = Anthropic::new(config).unwrap();
    let started = Instant::now();
    let e = client.text(&ask("q")).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::Timeout);
    assert!(started.elapsed() < Duration::from_secs(4), "gave up at the timeout, not the delay");
    assert_eq!(fake.total(), 1, "no retry after the timeout");
}

#[tokio::test]
async fn a_missing_key_makes_no_request() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let client = Anthropic::new(AnthropicConfig::new(fake.url(), None)).unwrap();
    assert!(!client.has_key());
    let e = client.text(&ask("q")).await.unwrap_err();
    assert_eq!((e.code, e.status, e.request_id.clone()), (ErrorCode::MissingCredentials, None, None));
    let e = client.structured(&ask("q"), &verdict_schema()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::MissingCredentials);
    let e = client.model_info(Model::default()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::MissingCredentials);
    assert_eq!(fake.total(), 0, "nothing reached the provider");
}

#[tokio::test]
async fn an_unreachable_provider_is_connection_failed() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let config = AnthropicConfig::new(format!("http://127.0.0.1:{port}"), Some(ApiKey::new(KEY).unwrap()));
    let e = Anthropic::new(config).unwrap().text(&ask("q")).await.unwrap_err();
    assert_eq!((e.code, e.status), (ErrorCode::ConnectionFailed, None));
}

#[tokio::test]
async fn a_reply_over_the_body_limit_is_refused() {
    let fake = FakeServer::start(script(vec![FakeReply::text("x".repeat(10_000))])).await.unwrap();
    let mut config = AnthropicConfig::new(fake.url(), Some(ApiKey::new(KEY).unwrap()));
    config.body_limit = 4_096;
    let e = Anthropic::new(config).unwrap().text(&ask("q")).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::ResponseTooLarge);
    assert!(e.request_id.is_some());
}

#[tokio::test]
async fn a_wrong_key_is_authentication_failed() {
    let strict = Script { accept_key: Some("sk-the-right-one".into()), ..Script::default() };
    let fake = FakeServer::start(strict).await.unwrap();
    let e = client(&fake).text(&ask("q")).await.unwrap_err();
    assert_eq!((e.code, e.status), (ErrorCode::AuthenticationFailed, Some(401)));
}

/// A temp folder removed on drop.
struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("llm-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn env_of(pairs: Vec<(&'static str, String)>) -> impl Fn(&str) -> Option<String> {
    move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
}

#[tokio::test]
async fn setup_reads_the_key_from_env_file_and_an_exported_variable_wins() {
    let fake = FakeServer::start(Script::default()).await.unwrap();
    let dir = Dir::new("setup");
    let file = dir.0.join(".env");
    std::fs::write(
        &file,
        "# local secrets\nTUTOR_ANTHROPIC_API_KEY=sk-from-file\nANTHROPIC_API_KEY=sk-other\n",
    )
    .unwrap();
    let config = ModelConfig { name: None, key_variable: Some("TUTOR_ANTHROPIC_API_KEY".into()) };
    let base = ("ANTHROPIC_BASE_URL", fake.url().to_string());
    let file_var = ("TUTOR_ENV_FILE", file.display().to_string());

    // from the file
    let env = env_of(vec![base.clone(), file_var.clone()]);
    let setup = LiveSetup::from_env("TUTOR", &config, "TUTOR_CONFIG=t.json", &env).unwrap();
    // the fake is on this machine: its key is a placeholder, never called "configured"
    assert_eq!(
        (setup.model, setup.key_status()),
        (Model::default(), "not needed (the model server is on this machine)")
    );
    setup.client().unwrap().text(&ask("q")).await.unwrap();
    // the fake accepts only the file's key now: proof of which key was sent
    fake.set_script(Script { accept_key: Some("sk-from-file".into()), ..Script::default() });
    setup.client().unwrap().text(&ask("q")).await.unwrap();

    // an exported variable wins over the file
    let env = env_of(vec![base.clone(), file_var.clone(), ("TUTOR_ANTHROPIC_API_KEY", "sk-exported".into())]);
    let setup = LiveSetup::from_env("TUTOR", &config, "TUTOR_CONFIG=t.json", &env).unwrap();
    let e = setup.client().unwrap().text(&ask("q")).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed, "the exported key was sent, not the file's");
    fake.set_script(Script { accept_key: Some("sk-exported".into()), ..Script::default() });
    setup.client().unwrap().text(&ask("q")).await.unwrap();

    // no file and no variable: not set, and calls send nothing
    let env = env_of(vec![base.clone(), ("TUTOR_ENV_FILE", dir.0.join("absent.env").display().to_string())]);
    let setup = LiveSetup::from_env("TUTOR", &config, "TUTOR_CONFIG=t.json", &env).unwrap();
    assert_eq!(setup.key_status(), "NOT SET");
    assert!(!format!("{setup:?}").contains("sk-"), "{setup:?}");
    let before = fake.total();
    assert_eq!(
        setup.client().unwrap().text(&ask("q")).await.unwrap_err().code,
        ErrorCode::MissingCredentials
    );
    assert_eq!(fake.total(), before);
}

#[test]
fn setup_rejects_an_unknown_model_and_a_bad_base_url() {
    let config = ModelConfig { name: Some("claude-sonnet-5-5".into()), key_variable: None };
    let env = env_of(vec![("HUB_MODEL", "claude-3-opus".into())]);
    let e = LiveSetup::from_env("HUB", &config, "HUB_CONFIG=h.json", &env).unwrap_err();
    assert_eq!(e.source, "HUB_MODEL");
    assert!(e.problem.contains("claude-haiku-5-5, claude-sonnet-5-5 or claude-opus-5-5"), "{e}");
    let bad_name = ModelConfig { name: Some("haiku".into()), key_variable: None };
    let e = LiveSetup::from_env("HUB", &bad_name, "HUB_CONFIG=h.json", &|_| None).unwrap_err();
    assert_eq!((e.source.as_str(), e.field.as_str()), ("HUB_CONFIG=h.json", "model.name"));
    let e = LiveSetup::from_env(
        "HUB",
        &config,
        "f",
        &env_of(vec![("ANTHROPIC_BASE_URL", "http://example.com".into())]),
    )
    .unwrap_err();
    assert_eq!(e.source, "ANTHROPIC_BASE_URL");
    let bad_var = ModelConfig { name: None, key_variable: Some("MY-KEY".into()) };
    assert_eq!(LiveSetup::from_env("HUB", &bad_var, "f", &|_| None).unwrap_err().field, "model.keyVariable");
    let ok =
        LiveSetup::from_env("HUB", &config, "f", &env_of(vec![("HUB_ENV_FILE", "/nonexistent/.env".into())]))
            .unwrap();
    assert_eq!(ok.model.id(), "claude-sonnet-5-5");
    assert_eq!(ok.client.base_url, "https://api.anthropic.com");
    let parsed: ModelConfig =
        serde_json::from_value(json!({"name": "claude-opus-5-5", "keyVariable": "K"})).unwrap();
    assert_eq!(parsed.key_variable.as_deref(), Some("K"));
    assert!(serde_json::from_value::<ModelConfig>(json!({"model": "x"})).is_err());
}
