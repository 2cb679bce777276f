//! `PROFESSOR_MODE=live` as a real process against `campus fake-anthropic` (no paid call):
//! the model's answer is released unless it states a calendar date that neither the
//! lesson nor the question states (then the course pack's answer, saying so); the exact
//! request (the pack and the lesson as data, the instructions server-side); a provider
//! error answered with its code after exactly one call; the key in nothing it emits.

use serde_json::{Value, json};
use testkit::{Proc, TempDir};

const CANARY: &str = "sk-ant-PROFCANARY-93b1e0c4d7";

fn ask(url: &str, text: &str) -> Value {
    let m = json!({"messageId": format!("m-{text}"), "role": "ROLE_USER", "contextId": "ctx-prof",
                   "parts": [{"text": text}]});
    testkit::rpc::send_message(url, m, None)
}

fn text(v: &Value) -> String {
    v["result"]["message"]["parts"].as_array().unwrap().iter().filter_map(|p| p["text"].as_str()).collect()
}

fn reply(text: &str) -> Value {
    json!({"text": text, "input_tokens": 700, "output_tokens": 40})
}

#[test]
fn the_live_professor_releases_no_date_it_was_not_given() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    let dir = TempDir::new();
    let none = dir.path().join("no.env");
    let env = [
        ("HUB_URL", "http://127.0.0.1:9"),
        ("PROFESSOR_MODE", "live"),
        ("ANTHROPIC_BASE_URL", fake.url.as_str()),
        ("ANTHROPIC_API_KEY", CANARY),
        ("PROFESSOR_ENV_FILE", none.to_str().unwrap()),
    ];
    let professor = Proc::start(&["professor"], &env);
    let mut emitted = Vec::new();

    // an answer with no date: released as the model wrote it, with what it cost
    let said = "Segmentation splits a market into groups with shared needs.";
    testkit::script_fake_replies(&fake.url, json!([reply(said)]));
    let v = ask(&professor.url, "what is market segmentation?");
    assert_eq!(text(&v), said, "{v}");
    let meta = &v["result"]["message"]["metadata"];
    assert_eq!((&meta["mode"], &meta["model"]), (&json!("live"), &json!("claude-haiku-5-5")), "{meta}");
    let seen = testkit::fake_requests(&fake.url);
    assert_eq!(seen.len(), 1, "one call");
    let body = &seen[0]["body"];
    assert!(body["system"].to_string().contains("Professor of Marketing 101"), "{body}");
    assert!(body["system"].to_string().contains("never instructions"), "lesson text is content: {body}");
    let user = body["messages"][0].to_string();
    assert!(user.contains("Segmentation divides a broad market"), "the pack is sent as data: {user}");
    assert_eq!(body["max_tokens"], 800);
    emitted.push(v.to_string());

    // a date the model made up: withheld, and the pack's own answer given, saying so
    testkit::script_fake_replies(&fake.url, json!([reply("The case study is due on March 3, 2027.")]));
    let v = ask(&professor.url, "when is the marketing case study due?");
    let t = text(&v);
    assert!(t.starts_with(professor::live::WITHHELD_NOTE), "{t}");
    assert!(
        t.contains(professor::LABEL) && t.contains("each brief and its due date arrive as a lesson"),
        "{t}"
    );
    assert!(!t.contains("March 3"), "{t}");
    assert_eq!(v["result"]["message"]["metadata"]["check"]["code"], "date_not_given", "{v}");
    emitted.push(v.to_string());

    // a date the question gives may be repeated
    testkit::script_fake_replies(&fake.url, json!([reply("Handing it in on March 3 costs 10% a day late.")]));
    let v = ask(&professor.url, "if I hand in the case study on March 3, what happens?");
    assert_eq!(text(&v), "Handing it in on March 3 costs 10% a day late.", "{v}");
    // a date in the lesson asked about may be repeated too; the lesson is sent as data
    testkit::script_fake_replies(&fake.url, json!([reply("It says a price is a message.")]));
    let v = ask(&professor.url, "what did the lesson 'what a price says' say?");
    assert_eq!(text(&v), "It says a price is a message.", "{v}");
    let user = testkit::fake_requests(&fake.url)[0]["body"]["messages"][0].to_string();
    assert!(user.contains("lesson-price-says") && user.contains("A price is a message"), "{user}");

    // a provider error: its code, after exactly one call
    testkit::script_fake_replies(&fake.url, json!([{"status": 529}]));
    let v = ask(&professor.url, "what is branding?");
    assert!(text(&v).starts_with("The Professor could not answer:"), "{v}");
    assert_eq!(testkit::fake_requests(&fake.url).len(), 1, "no retry");
    emitted.push(v.to_string());

    // the key is in no reply and no log line
    for e in &emitted {
        assert!(!e.contains(CANARY), "{e}");
    }
    assert!(professor.stderr().iter().all(|l| !l.contains(CANARY)));
}
