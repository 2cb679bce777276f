//! The Hub's hybrid router as real processes against `campus fake-anthropic`: the model
//! is asked only below the threshold (counted at the fake API), its decision is validated
//! and attributed in the reply's metadata, and the key never leaves the Hub's process
//! (logs, replies, card, status, telemetry scanned).

use serde_json::{Value, json};
use testkit::{Proc, University, http_json, rpc};

const KEY: &str = "sk-ant-hub-leak-canary-5c1e9a";

fn send(hub: &str, id: &str, text: &str) -> Value {
    let params = json!({"message": {"messageId": id, "role": "ROLE_USER",
        "parts": [{"text": text, "mediaType": "text/plain"}], "metadata": {"requestId": id}}});
    let v = rpc(hub, "SendMessage", params);
    v["result"]["message"].clone()
}

fn recorded(fake: &Proc) -> Vec<Value> {
    testkit::fake_recorded(&fake.url).0
}

#[test]
fn hybrid_asks_the_model_only_below_its_threshold_and_never_leaks_the_key() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    let script = json!({"accept_key": KEY, "default": {"json": {"decision": "clarify", "agent": "", "skill": "",
        "question": "Is this about a course subject or about the library?", "reason": "vague"}}});
    testkit::put_fake_script(&fake.url, script);
    let u = University::start(
        &[
            ("ROUTER_MODE", "hybrid"),
            ("ROUTER_HYBRID_THRESHOLD", "0.5"),
            ("ANTHROPIC_BASE_URL", &fake.url),
            ("ANTHROPIC_API_KEY", KEY),
            ("HUB_ENV_FILE", "/nonexistent/.env"),
        ],
        &[],
    );
    u.wait_ready();

    // confident: the classifier answers, nothing reaches the model
    let confident = send(&u.hub_url, "q-confident", "When is the library open on Monday?");
    assert_eq!(confident["metadata"]["outcome"], "route", "{confident}");
    assert_eq!(confident["metadata"]["router"]["modelCalls"], 0, "{confident}");
    assert!(recorded(&fake).is_empty(), "no model call at or above the threshold");

    // nothing routable said (a rule, no probability): below any threshold, one call
    let vague = send(&u.hub_url, "q-vague", "hmm");
    assert_eq!(vague["metadata"]["outcome"], "clarify", "{vague}");
    assert_eq!(vague["parts"][0]["text"], "Is this about a course subject or about the library?");
    let router = &vague["metadata"]["router"];
    assert_eq!(
        (router["mode"].as_str(), router["modelCalls"].as_u64()),
        (Some("hybrid"), Some(1)),
        "{vague}"
    );
    assert_eq!(router["call"]["model"], "claude-haiku-5-5");
    let requests = recorded(&fake);
    assert_eq!(requests.len(), 1);
    assert_eq!(router["call"]["requestId"], requests[0]["request_id"]);
    // the request: skills as data, the question, the schema; no URL anywhere in it
    let body = &requests[0]["body"];
    let data: Value = serde_json::from_str(body["messages"][0]["content"].as_str().unwrap_or_else(|| {
        body["messages"][0]["content"][0]["text"].as_str().expect("the user message text")
    }))
    .unwrap();
    assert_eq!(data["question"], "hmm");
    let agents: Vec<&str> =
        data["services"].as_array().unwrap().iter().map(|s| s["agent"].as_str().unwrap()).collect();
    assert_eq!(agents, ["tutor", "library", "professor"]);
    assert!(!body.to_string().contains("http"), "no URL is shown to the model: {body}");
    assert_eq!(body["output_config"]["format"]["type"], "json_schema");
    assert_eq!(requests[0]["key_sent"], true);

    // a retry of the same request id is answered from the ledger: no second call
    let again = send(&u.hub_url, "q-vague", "hmm");
    assert_eq!(again["parts"], vague["parts"]);
    assert_eq!(recorded(&fake).len(), 1);

    // a provider error: the classifier decides, the code is in the metadata, one call
    let script = json!({"accept_key": KEY, "default": {"status": 529}});
    testkit::put_fake_script(&fake.url, script);
    let failed = send(&u.hub_url, "q-failed", "hmm");
    assert_eq!(failed["metadata"]["router"]["call"]["error"]["code"], "provider_unavailable", "{failed}");
    assert_eq!(recorded(&fake).len(), 2);

    // the key: nowhere in what the Hub emits
    let card = http_json("GET", &format!("{}/.well-known/agent-card.json", u.hub_url), None).1;
    let registry = u.registry();
    assert_eq!(registry["hub"]["key"], "not needed (the model server is on this machine)");
    assert_eq!(registry["hub"]["model"], "claude-haiku-5-5");
    let feed = testkit::feed_snapshot(&u.hub_url).unwrap_or_default();
    let logs = u.hub().stderr().join("\n");
    for (what, text) in [
        ("replies", format!("{confident}{vague}{again}{failed}")),
        ("card", card.to_string()),
        ("status", registry.to_string()),
        ("telemetry", feed),
        ("logs", logs.clone()),
        ("fake's record", recorded(&fake).iter().map(Value::to_string).collect()),
    ] {
        assert!(!text.contains(KEY), "the key leaked into the hub's {what}");
    }
    assert!(logs.contains("model call done") && logs.contains("model call failed"), "{logs}");
    assert!(!logs.contains("hmm"), "no message text in the hub's logs");
}
