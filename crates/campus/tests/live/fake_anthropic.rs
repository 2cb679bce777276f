//! `campus fake-anthropic` as a real process: its ready line, a script from a file and one
//! put over HTTP, the live client calling it, and what it recorded read back over HTTP
//! (never the key); a bad script file stops it with exit code 78.

use llm::{Anthropic, AnthropicConfig, ApiKey, ErrorCode, Llm, Message, Model, Request, Schema};
use serde_json::{Value, json};
use testkit::{Proc, TempDir, bin, rt};

const KEY: &str = "sk-ant-process-test-key";

fn client(url: &str) -> Anthropic {
    Anthropic::new(AnthropicConfig::new(url, Some(ApiKey::new(KEY).unwrap()))).unwrap()
}

fn scope_check() -> Request {
    Request::new(
        "scope_check",
        Model::default(),
        "Classify the request.",
        vec![Message::user("what is a limit?")],
        400,
    )
}

fn schema() -> Schema {
    Schema::new(json!({"type": "object", "additionalProperties": false, "required": ["verdict"],
        "properties": {"verdict": {"type": "string", "enum": ["in_scope", "out_of_scope"]}}}))
    .unwrap()
}

#[test]
fn a_scripted_reply_reaches_the_client_and_the_request_is_recorded() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    assert!(fake.url.starts_with("http://127.0.0.1:"), "{}", fake.url);
    rt().block_on(async {
        let http = reqwest::Client::new();
        let script = json!({"replies": [{"json": {"verdict": "out_of_scope"}, "input_tokens": 120, "output_tokens": 9}]});
        let put = http.put(format!("{}/_fake/script", fake.url)).json(&script).send().await.unwrap();
        assert_eq!(put.status(), 204);

        let reply = client(&fake.url).structured(&scope_check(), &schema()).await.unwrap();
        assert_eq!(reply.content, json!({"verdict": "out_of_scope"}));
        assert_eq!((reply.usage.input_tokens, reply.usage.output_tokens), (120, 9));

        let seen: Value = http.get(format!("{}/_fake/requests", fake.url)).send().await.unwrap().json().await.unwrap();
        assert_eq!(seen["total"], 1);
        let r = &seen["requests"][0];
        assert_eq!(r["path"], "/v1/messages");
        assert_eq!(r["request_id"].as_str(), reply.request_id.as_deref());
        assert_eq!(r["headers"]["anthropic-version"], llm::API_VERSION);
        assert_eq!(r["key_sent"], true);
        assert_eq!(r["body"]["model"], "claude-haiku-5-5");
        assert_eq!(r["body"]["max_tokens"], 400);
        assert_eq!(r["body"]["thinking"], json!({"type": "disabled"}));
        assert_eq!(r["body"]["output_config"]["effort"], "low");
        assert_eq!(r["body"]["output_config"]["format"]["schema"], *schema().value());
        assert!(!seen.to_string().contains(KEY), "the key is never recorded");

        // the queue is used up: the built-in reply fits the schema
        let again = client(&fake.url).structured(&scope_check(), &schema()).await.unwrap();
        assert_eq!(again.content, json!({"verdict": "in_scope"}));

        // a bad script is refused with its field named, and the old one stays
        let bad = http.put(format!("{}/_fake/script", fake.url)).body(r#"{"replies": [{"status": 200}]}"#).send().await.unwrap();
        assert_eq!(bad.status(), 400);
        let body: Value = bad.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid_script");
        assert!(body["error"]["message"].as_str().unwrap().starts_with("replies[0].status"), "{body}");
    });
    assert!(fake.stderr().iter().all(|l| !l.contains(KEY)), "{:?}", fake.stderr());
}

#[test]
fn a_script_file_scripts_errors_and_a_bad_one_stops_the_process() {
    let dir = TempDir::new();
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("script.json");
    std::fs::write(&file, r#"{"replies": [{"status": 529}], "rules": [{"when": {"contains": "plumbing"}, "reply": {"stop_reason": "refusal"}}]}"#).unwrap();
    let fake = Proc::start(&["fake-anthropic", "--script", file.to_str().unwrap()], &[]);
    rt().block_on(async {
        let client = client(&fake.url);
        let e = client.text(&scope_check()).await.unwrap_err();
        assert_eq!((e.code, e.status), (ErrorCode::ProviderUnavailable, Some(529)));
        assert!(e.request_id.as_deref().is_some_and(|id| id.starts_with("req_")));
        let mut plumbing = scope_check();
        plumbing.messages = vec![Message::user("Fix my PLUMBING please")];
        assert_eq!(client.text(&plumbing).await.unwrap_err().code, ErrorCode::Refusal);
        assert!(client.text(&scope_check()).await.unwrap().content.starts_with("(fake model)"));
    });

    std::fs::write(&file, r#"{"replies": [{"status": 299}]}"#).unwrap();
    let out = std::process::Command::new(bin())
        .args(["fake-anthropic", "--script", file.to_str().unwrap()])
        .env("PORT", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(78));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("replies[0].status: must be an error status from 400 to 599"), "{err}");
    assert!(out.stdout.is_empty(), "it never printed its ready line");
}
