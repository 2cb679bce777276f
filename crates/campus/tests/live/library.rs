//! `LIBRARY_MODE=live` as a real process against `campus fake-anthropic` (no paid call):
//! the evidence check (verbatim lines released; an altered line, a disabled skill's
//! evidence or "not covered" → the fixed reply), the exact requests, every provider error
//! with exactly one call, no key → no call, unknown model → exit 78, live form intent
//! (offer with prefill from code, out of scope, clarify), and the key in nothing it emits.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use testkit::{Proc, TempDir, bin, http_json};

const A2UI_EXT: &str = "https://a2ui.org/a2a-extension/a2ui/v0.9";
const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
const CANARY: &str = "sk-ant-LIBCANARY-5e1d7c93a2";

static N: AtomicU64 = AtomicU64::new(0);

fn id(prefix: &str) -> String {
    format!("{prefix}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

fn ask(url: &str, text: &str, renders: bool) -> Value {
    let mut m = json!({"messageId": id("m"), "role": "ROLE_USER", "contextId": id("ctx"),
                       "parts": [{"text": text}], "metadata": {"studentId": "student-1"}});
    if renders {
        m["metadata"]["a2uiClientCapabilities"] = json!({"v0.9": {"supportedCatalogIds": [BASIC]}});
    }
    testkit::rpc::send_message(url, m, renders.then_some(A2UI_EXT))
}

/// The reply's message (a plain message, or a task's status message).
fn message(v: &Value) -> &Value {
    v["result"].get("message").unwrap_or_else(|| &v["result"]["task"]["status"]["message"])
}

fn text(v: &Value) -> String {
    message(v)["parts"].as_array().unwrap().iter().filter_map(|p| p["text"].as_str()).collect()
}

fn script(fake: &Proc, replies: Value) {
    testkit::script_fake_replies(&fake.url, replies);
}

fn requests(fake: &Proc) -> Vec<Value> {
    testkit::fake_requests(&fake.url)
}

fn intent(decision: &str, workflow: &str) -> Value {
    json!({"json": {"decision": decision, "workflow": workflow}, "input_tokens": 90, "output_tokens": 12})
}

fn answer(verdict: &str, skill: &str, answer: &str, evidence: &[&str]) -> Value {
    json!({"json": {"verdict": verdict, "skill_id": skill, "answer": answer, "evidence": evidence},
           "input_tokens": 900, "output_tokens": 60})
}

fn live_env<'a>(fake: &'a Proc, key: &'a str, env_file: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("HUB_URL", "http://127.0.0.1:9"),
        ("LIBRARY_MODE", "live"),
        ("ANTHROPIC_BASE_URL", fake.url.as_str()),
        ("ANTHROPIC_API_KEY", key),
        ("LIBRARY_ENV_FILE", env_file),
    ]
}

#[test]
fn the_live_library_releases_only_verified_answers_and_reads_form_intent_with_the_model() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    let dir = TempDir::new();
    let none = dir.path().join("no.env");
    // the test plays the Hub for its settings changes (signed with the test's key)
    let hub_key = testkit::test_hub_public_key();
    let mut env = live_env(&fake, CANARY, none.to_str().unwrap());
    env.push(("HUB_PUBLIC_KEY", hub_key.as_str()));
    let library = Proc::start(&["library"], &env);
    let mut emitted = Vec::new();

    // verbatim evidence: the model's answer is released, with what it cost
    script(
        &fake,
        json!([
            intent("answer", "none"),
            answer("answered", "library-hours", "On Sundays: 12:00–18:00.", &["Sunday:  12:00–18:00"])
        ]),
    );
    let v = ask(&library.url, "is the library open on sunday?", false);
    assert_eq!(text(&v), "On Sundays: 12:00–18:00.", "{v}");
    let answered = requests(&fake).len();
    // the student's own loans: never the model's, and without the Hub's vouching no data
    let loans = ask(&library.url, "when are my books due?", false);
    assert_eq!(text(&loans), library::loans::NOT_VOUCHED, "{loans}");
    assert_eq!(requests(&fake).len(), answered, "no model call about loans");
    let meta = &message(&v)["metadata"];
    assert_eq!(
        (&meta["mode"], &meta["model"], &meta["skill"]),
        (&json!("live"), &json!("claude-haiku-5-5"), &json!("library-hours"))
    );
    assert_eq!(meta["usage"], json!({"inputTokens": 990, "outputTokens": 72}), "{meta}");
    let seen = requests(&fake);
    assert_eq!(seen.len(), 2, "one intent call and one answer call (none about loans)");
    assert_eq!(meta["requestId"], seen[1]["request_id"]);
    // the exact requests: model, cap, effort, schema, thinking off, no sampling parameters
    let (decide, answering) = (&seen[0]["body"], &seen[1]["body"]);
    assert_eq!((&decide["max_tokens"], &answering["max_tokens"]), (&json!(400), &json!(800)));
    assert_eq!(
        decide["output_config"]["format"]["schema"],
        *forms::intent::Live::schema(forms::Workflow::Booking).value()
    );
    assert_eq!(answering["output_config"]["format"]["schema"], *library::live::schema().value());
    for body in [decide, answering] {
        assert_eq!(body["model"], "claude-haiku-5-5");
        assert_eq!(body["output_config"]["effort"], "low");
        assert_eq!(body["thinking"], json!({"type": "disabled"}));
        for p in ["temperature", "top_p", "top_k"] {
            assert!(body.get(p).is_none(), "{p} sent: {body}");
        }
    }
    assert!(answering["system"].to_string().contains("Library Agent"), "a server-side system prompt");
    assert!(
        answering["messages"][0].to_string().contains("Sunday: 12:00–18:00"),
        "the saved content is sent"
    );
    assert!(seen.iter().all(|r| r["key_sent"] == true));
    emitted.push(v.to_string());

    // one altered line → withheld; "not covered" → the fixed reply, never the guess
    for reply in [
        answer("answered", "library-hours", "Sundays 12 to 7.", &["Sunday: 12:00–19:00"]),
        answer(
            "answered",
            "library-hours",
            "Sundays 12 to 6.",
            &["Sunday: 12:00–18:00", "Sundays are quiet"],
        ),
        answer("not_covered", "", "Probably closed at Easter.", &[]),
    ] {
        script(&fake, json!([intent("answer", "none"), reply]));
        let v = ask(&library.url, "is the library open on sunday?", false);
        assert_eq!(text(&v), library::NOT_COVERED, "{v}");
        emitted.push(v.to_string());
    }
    // clarify: a question written by code, not by the model
    script(&fake, json!([intent("answer", "none"), answer("clarify", "", "Which hours, dear?", &[])]));
    let v = ask(&library.url, "times?", false);
    assert!(text(&v).starts_with("Could you say a little more") && text(&v).contains("Printing"), "{v}");

    // evidence from a skill disabled meanwhile → withheld
    let (status, body) = testkit::as_hub(
        "PATCH",
        &library.url,
        "library",
        "/api/settings/skills/printing",
        json!({"baseRevision": 1, "enabled": false}),
    );
    assert_eq!(status, 200, "{body}");
    emitted.push(body.to_string());
    script(
        &fake,
        json!([
            intent("answer", "none"),
            answer(
                "answered",
                "printing",
                "10 cents a page.",
                &["Black-and-white, single-sided: €0.10 per page"]
            )
        ]),
    );
    let v = ask(&library.url, "how much is printing?", false);
    assert_eq!(text(&v), library::NOT_COVERED, "{v}");
    assert!(
        !requests(&fake)[1]["body"].to_string().contains("€0.10 per page"),
        "a disabled skill is not sent"
    );

    // live form intent: the form with prefill read by code; out of scope; clarify
    script(&fake, json!([intent("offer_form", "study-room-booking")]));
    let v = ask(&library.url, "could we get room B for 4 people?", true);
    let task = &v["result"]["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_INPUT_REQUIRED", "{v}");
    let a2ui = message(&v)["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["mediaType"] == "application/a2ui+json")
        .unwrap()["data"]
        .as_array()
        .unwrap()
        .clone();
    let prefill = testkit::forms::prefill(&a2ui);
    assert_eq!(prefill["room"], json!(["B"]), "{prefill}");
    assert!(prefill["groupSize"].to_string().contains('4'), "{prefill}");
    assert_eq!(requests(&fake).len(), 1, "no answer call for a form");
    assert_eq!(
        (&task["metadata"]["mode"], &task["metadata"]["modelCalls"][0]["purpose"]),
        (&json!("live"), &json!("form_intent"))
    );
    script(&fake, json!([intent("out_of_scope", "none")]));
    let v = ask(&library.url, "sign me up with a tutor", true);
    assert_eq!(text(&v), library::booking::TEXTS.out_of_scope);
    script(&fake, json!([intent("clarify", "none")]));
    let v = ask(&library.url, "room stuff", true);
    assert_eq!(text(&v), library::booking::TEXTS.clarify);
    assert_eq!(requests(&fake).len(), 1);

    // every provider error: its code, after exactly one call
    for (status, code) in [
        (401, "authentication_failed"),
        (403, "permission_denied"),
        (404, "model_unavailable"),
        (429, "rate_limited"),
        (500, "provider_unavailable"),
        (529, "provider_unavailable"),
    ] {
        script(&fake, json!([{"status": status}]));
        let v = ask(&library.url, "what are the opening hours?", false);
        assert!(text(&v).contains(&format!("({code})")), "{status}: {v}");
        assert_eq!(message(&v)["metadata"]["modelError"]["code"], code);
        assert_eq!(requests(&fake).len(), 1, "{status}: one call, no retry");
        emitted.push(v.to_string());
    }
    script(&fake, json!([intent("answer", "none"), {"status": 429}]));
    let v = ask(&library.url, "what are the opening hours?", false);
    assert!(text(&v).contains("(rate_limited)"), "{v}");
    assert_eq!(requests(&fake).len(), 2);
    emitted.push(v.to_string());

    // the key is in nothing the Library emits: replies, card, settings, feed, logs
    for path in ["/.well-known/agent-card.json", "/api/settings"] {
        emitted.push(http_json("GET", &format!("{}{path}", library.url), None).1.to_string());
    }
    emitted.push(testkit::feed_snapshot(&library.url).unwrap_or_default());
    let logs = library.stderr();
    assert!(
        !logs.iter().any(|l| l.contains("is the library open on sunday")),
        "no question text in the logs"
    );
    emitted.extend(logs);
    let all = emitted.join("\n");
    assert!(
        all.contains("model call failed") && all.contains("reply_published"),
        "the scan saw logs and events"
    );
    assert!(!all.contains(CANARY) && !all.contains("LIBCANARY"), "the key leaked:\n{all}");
}

#[test]
fn no_key_means_no_call_and_an_unknown_model_stops_the_library() {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    let dir = TempDir::new();
    let none = dir.path().join("no.env");
    let library = Proc::start(&["library"], &live_env(&fake, "", none.to_str().unwrap()));
    let v = ask(&library.url, "what are the opening hours?", false);
    assert!(text(&v).contains("(missing_credentials)"), "{v}");
    assert!(library.stderr().iter().any(|l| l.contains("API key (ANTHROPIC_API_KEY): NOT SET")));
    assert!(requests(&fake).is_empty(), "no request without a key");

    let out = std::process::Command::new(bin())
        .arg("library")
        .env("PORT", "0")
        .env("LIBRARY_MODE", "live")
        .env("LIBRARY_MODEL", "gpt-5")
        .env("CAMPUS_DATA_DIR", dir.path())
        .env_remove("LIBRARY_CONFIG")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(78), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("LIBRARY_MODEL"));
}
