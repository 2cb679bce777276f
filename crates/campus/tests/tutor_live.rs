//! `campus tutor` in live mode against `campus fake-anthropic`, both real processes: an
//! answer over A2A with its metadata, a repeated request id answered with no second
//! model call, and the recognisable key found nowhere the Tutor writes or serves (its
//! logs, card, settings, telemetry feed, A2A replies); no question text in its logs.

mod common;

use common::{Proc, feed_snapshot, rpc, rt};
use serde_json::{Value, json};

const KEY: &str = "sk-ant-leak-canary-7d41b2e9";
const QUESTION: &str = "What is the derivative of x^2 at x equals three?";
const ANSWER: &str = "The derivative of x^2 is 2x, so at x = 3 it is 6.";

fn put_script(fake: &str) {
    let rule = |system: &str, reply: Value| json!({"when": {"system_contains": system}, "reply": reply});
    let script = json!({"rules": [
        rule("You classify", json!({"json": {"decision": "in_scope", "skill_id": "calculus-tutoring", "clarifying_question": ""}})),
        rule("You check a draft", json!({"json": {"verdict": "within_scope"}})),
        rule("You are the Tutor Agent", json!({"text": ANSWER, "input_tokens": 321, "output_tokens": 45})),
    ]});
    rt().block_on(async {
        let put = reqwest::Client::new().put(format!("{fake}/_fake/script")).json(&script).send().await.unwrap();
        assert_eq!(put.status(), 204);
    });
}

fn fake_total(fake: &str) -> u64 {
    let seen: Value =
        rt().block_on(async { reqwest::get(format!("{fake}/_fake/requests")).await.unwrap().json().await.unwrap() });
    seen["total"].as_u64().unwrap()
}

fn get(url: &str) -> String {
    rt().block_on(async { reqwest::get(url).await.unwrap().text().await.unwrap() })
}

#[test]
fn a_live_answer_over_a2a_once_per_request_id_and_the_key_never_leaves() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    put_script(&fake.url);
    let tutor = Proc::start(
        &["tutor"],
        &[
            ("TUTOR_MODE", "live"),
            ("ANTHROPIC_BASE_URL", &fake.url),
            ("ANTHROPIC_API_KEY", KEY),
            ("TUTOR_ENV_FILE", "/nonexistent/campus.env"),
            ("HUB_URL", "http://127.0.0.1:9"),
        ],
    );
    let send = |request_id: &str| {
        let params = json!({"message": {"messageId": format!("m-{request_id}-{}", fake_total(&fake.url)),
            "contextId": "conv-live-1", "role": "ROLE_USER", "parts": [{"text": QUESTION}],
            "metadata": {"requestId": request_id}}});
        rpc(&tutor.url, "SendMessage", params)
    };
    let first = send("req-1");
    let m = &first["result"]["message"];
    assert_eq!(m["parts"][0]["text"], ANSWER, "{first}");
    let meta = &m["metadata"];
    assert_eq!((meta["mode"].as_str(), meta["model"].as_str()), (Some("live"), Some("claude-haiku-5-5")));
    assert!(meta["usage"]["inputTokens"].as_u64().unwrap() >= 321, "{meta}");
    assert!(meta["requestId"].as_str().unwrap().starts_with("req_fake"), "{meta}");
    assert!(meta["latencyMs"].is_u64());
    assert_eq!(fake_total(&fake.url), 3, "scope check, answer, answer check");

    // "Check for answer": the same request id (a new message id) costs no call
    let again = send("req-1");
    assert_eq!(again["result"]["message"]["parts"][0]["text"], ANSWER, "{again}");
    assert_eq!(again["result"]["message"]["metadata"]["requestId"], meta["requestId"]);
    assert_eq!(fake_total(&fake.url), 3);

    // everything the Tutor writes or serves, scanned for the key
    let mut emitted = vec![first.to_string(), again.to_string()];
    emitted.push(get(&format!("{}/.well-known/agent-card.json", tutor.url)));
    emitted.push(get(&format!("{}/api/settings", tutor.url)));
    emitted.push(feed_snapshot(&tutor.url).unwrap_or_default());
    tutor.wait_for_log(|l| l.contains("live answer"));
    let logs = tutor.stderr().join("\n");
    emitted.push(logs.clone());
    emitted.push(get(&format!("{}/_fake/requests", fake.url)));
    for (i, text) in emitted.iter().enumerate() {
        assert!(!text.contains(KEY), "the key leaked in item {i}");
    }
    assert!(logs.contains("API key (ANTHROPIC_API_KEY): configured"), "{logs}");
    assert!(!logs.contains(QUESTION) && !logs.contains(ANSWER), "no message text in live-mode logs");
}
