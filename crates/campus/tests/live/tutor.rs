//! `campus tutor` in live mode against `campus fake-anthropic`, both real processes: an
//! answer over A2A with its metadata, a repeated request id answered with no second
//! model call, and the recognisable key found nowhere the Tutor writes or serves (its
//! logs, card, settings, telemetry feed, A2A replies); no question text in its logs.

use serde_json::{Value, json};
use testkit::{Proc, feed_snapshot, rpc, rt};

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
    testkit::put_fake_script(fake, script);
}

fn fake_total(fake: &str) -> u64 {
    testkit::fake_recorded(fake).1
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
    assert_eq!(fake_total(&fake.url), 4, "form intent, scope check, answer, answer check");

    // "Check for answer": the same request id (a new message id) costs no call
    let again = send("req-1");
    assert_eq!(again["result"]["message"]["parts"][0]["text"], ANSWER, "{again}");
    assert_eq!(again["result"]["message"]["metadata"]["requestId"], meta["requestId"]);
    assert_eq!(fake_total(&fake.url), 4);

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
    assert!(
        logs.contains("API key (ANTHROPIC_API_KEY): not needed (the model server is on this machine)"),
        "{logs}"
    );
    assert!(!logs.contains(QUESTION) && !logs.contains(ANSWER), "no message text in live-mode logs");
}

/// The page's question times out (the model is slow): the run is `unknown`, not failed;
/// "Check for answer" asks again with the same request id and collects the answer that
/// was still being written, with no second model call.
#[test]
fn a_timed_out_question_is_unknown_and_check_for_answer_collects_it_without_a_second_call() {
    use testkit::ui::{post, read_stream, run_ended, start_ui};
    let fake = Proc::start(&["fake-anthropic"], &[]);
    put_script(&fake.url);
    let slow = json!({"rules": [
        {"when": {"system_contains": "You classify"}, "reply": {"json": {"decision": "in_scope", "skill_id": "calculus-tutoring", "clarifying_question": ""}}},
        {"when": {"system_contains": "You check a draft"}, "reply": {"json": {"verdict": "within_scope"}}},
        {"when": {"system_contains": "You are the Tutor Agent"}, "reply": {"text": ANSWER, "delay_ms": 1500}},
    ]});
    rt().block_on(async {
        let put = reqwest::Client::new()
            .put(format!("{}/_fake/script", fake.url))
            .json(&slow)
            .send()
            .await
            .unwrap();
        assert_eq!(put.status(), 204);
    });
    let tutor_env = [
        ("TUTOR_MODE", "live"),
        ("ANTHROPIC_BASE_URL", fake.url.as_str()),
        ("ANTHROPIC_API_KEY", KEY),
        ("TUTOR_ENV_FILE", "/nonexistent/campus.env"),
    ];
    let u = testkit::University::start_with(&[], &tutor_env, &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[("STUDENT_TIMEOUT_MS", "300")]);
    let (thread, run) = ("t-uncertain", "r-first");
    let (status, _) = post(&format!("{}/api/ag-ui/runs", ui.url), &testkit::ui::input(thread, run, QUESTION));
    assert_eq!(status, 202);
    let frames = read_stream(&ui.url, None, None, 10, |f| run_ended(f, thread, run));
    let error =
        frames.iter().find(|f| f.is_student(thread) && f.kind() == "RUN_ERROR").expect("the wait timed out");
    assert_eq!(error.event()["code"], "timeout");
    assert_eq!(testkit::ui::statuses(&frames, thread, run).last().map(String::as_str), Some("unknown"));

    // "Check for answer" until it comes (each check that times out is unknown again); every
    // check sends the first run's request id, so the answer being written is joined
    let mut check_run = String::new();
    let mut frames = Vec::new();
    for i in 0..40 {
        let previous = if i == 0 { run.to_string() } else { check_run.clone() };
        check_run = format!("r-check-{i}");
        let check = json!({"threadId": thread, "runId": check_run, "state": {}, "messages": [], "tools": [],
                           "context": [], "forwardedProps": {"checkAnswer": {"runId": previous}}});
        let (status, body) = post(&format!("{}/api/ag-ui/runs", ui.url), &check);
        assert_eq!(status, 202, "check {i}: {body}");
        frames = read_stream(&ui.url, None, None, 10, |f| run_ended(f, thread, &check_run));
        let done =
            frames.iter().any(|f| f.kind() == "RUN_FINISHED" && f.event()["runId"] == check_run.as_str());
        if done {
            break;
        }
    }
    let finished = frames
        .iter()
        .filter(|f| f.is_student(thread))
        .find(|f| f.kind() == "RUN_FINISHED" && f.event()["runId"] == check_run.as_str())
        .expect("a check finished");
    let text: String = frames
        .iter()
        .filter(|f| {
            f.kind() == "TEXT_MESSAGE_CONTENT" && f.event()["messageId"] == format!("{check_run}:a").as_str()
        })
        .map(|f| f.event()["delta"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(text, ANSWER);
    let first_request = frames
        .iter()
        .filter(|f| f.kind() == "STATE_SNAPSHOT")
        .find_map(|f| f.event()["snapshot"]["runs"][run]["requestId"].as_str().map(str::to_string));
    assert!(first_request.is_some());
    assert_eq!(
        finished.event()["result"]["requestId"].as_str().map(str::to_string),
        first_request,
        "the same request id"
    );
    assert_eq!(fake_total(&fake.url), 4, "one question, one set of model calls");
    // a second check of the same run: nothing left to check
    let again = json!({"threadId": thread, "runId": "r-check-again", "state": {}, "messages": [], "tools": [],
                       "context": [], "forwardedProps": {"checkAnswer": {"runId": run}}});
    let (status, body) = post(&format!("{}/api/ag-ui/runs", ui.url), &again);
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("nothing_to_check")), "{body}");
}
