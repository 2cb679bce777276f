//! `campus ui`'s edges: bad input gets a clear error with a stable code and the field, and
//! sends nothing; the local guard refuses other hosts and cross-site POSTs; the shell
//! answers every view's address.

use serde_json::{Value, json};
use testkit::free_port;
use testkit::ui::{input, post, raw, start_ui};

#[test]
fn bad_input_is_refused_with_a_stable_code_and_nothing_is_sent() {
    // no Hub at all: anything that got through would show as a request_sent
    let hub = format!("http://127.0.0.1:{}", free_port());
    let ui = start_ui(&hub, &[]);
    let runs = format!("{}/api/ag-ui/runs", ui.url);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = input("t", "r", "what is a limit?");
        f(&mut v);
        v
    };
    let cases: Vec<(&str, Value, &str, Option<&str>)> = vec![
        ("empty question", input("t", "r", "  \n "), "invalid_input", Some("messages[0].content")),
        ("too long", input("t", "r", &"é".repeat(2001)), "invalid_input", Some("messages[0].content")),
        ("wrong type", with(&|v| v["threadId"] = json!(7)), "invalid_input", Some("threadId")),
        (
            "content not text",
            with(&|v| v["messages"][0]["content"] = json!(12)),
            "invalid_input",
            Some("messages[0].content"),
        ),
        ("unknown field", with(&|v| v["extra"] = json!(1)), "invalid_input", Some("extra")),
        (
            "unknown message field",
            with(&|v| v["messages"][0]["oops"] = json!(1)),
            "invalid_input",
            Some("messages[0].oops"),
        ),
        (
            "missing field",
            with(&|v| drop(v.as_object_mut().unwrap().remove("tools"))),
            "invalid_input",
            Some("tools"),
        ),
        (
            "no user message",
            with(&|v| v["messages"][0]["role"] = json!("assistant")),
            "invalid_input",
            Some("messages"),
        ),
        ("bad run id", with(&|v| v["runId"] = json!("a b")), "invalid_input", Some("runId")),
        ("bad thread id", with(&|v| v["threadId"] = json!("")), "invalid_input", Some("threadId")),
        (
            "the notices' thread",
            with(&|v| v["threadId"] = json!("notices")),
            "invalid_input",
            Some("threadId"),
        ),
    ];
    for (what, body, code, field) in cases {
        let (status, answer) = post(&runs, &body);
        assert_eq!(status, 400, "{what}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
        assert_eq!(answer["error"]["field"].as_str(), field, "{what}: {answer}");
        assert!(answer["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}");
    }
    // the message names the limit, never echoes the question
    let (_, answer) = post(&runs, &input("t", "r", &"SECRET ".repeat(400)));
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("2000") && !message.contains("SECRET"), "{message}");
    let json = [("content-type", "application/json")];
    for (what, headers, body, status, code) in [
        ("not json", &json[..], "{oops".to_string(), 400, "invalid_json"),
        ("empty body", &json[..], String::new(), 400, "invalid_json"),
        (
            "wrong content type",
            &[("content-type", "text/plain")][..],
            input("t", "r", "x").to_string(),
            415,
            "unsupported_media_type",
        ),
        ("no content type", &[][..], input("t", "r", "x").to_string(), 415, "unsupported_media_type"),
        ("too large", &json[..], format!("{{\"pad\":\"{}\"}}", "x".repeat(70 * 1024)), 413, "too_large"),
    ] {
        let (got, ct, text) = raw("POST", &runs, headers, Some(body));
        let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!((got, answer["error"]["code"].as_str()), (status, Some(code)), "{what}: {text}");
        assert!(ct.starts_with("application/json"), "{what}: {ct}");
    }
    // a new conversation takes {} only
    let conversations = format!("{}/api/ui/conversations", ui.url);
    let (status, answer) = post(&conversations, &json!({}));
    assert_eq!(status, 201, "{answer}");
    assert!(answer["threadId"].as_str().is_some_and(|t| !t.is_empty()));
    let (status, answer) = post(&conversations, &json!({"x": 1}));
    assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("invalid_input")));
    // nothing was sent to any agent
    let sent = testkit::feed_events(&ui.url).iter().filter(|e| e["kind"] == "request_sent").count();
    assert_eq!(sent, 0);
}

#[test]
fn the_local_guard_refuses_other_hosts_and_cross_site_posts() {
    let hub = format!("http://127.0.0.1:{}", free_port());
    let ui = start_ui(&hub, &[]);
    let runs = format!("{}/api/ag-ui/runs", ui.url);
    let body = input("t", "r", "what is a limit?").to_string();
    let ct = ("content-type", "application/json");
    for (what, headers, code) in [
        ("foreign origin", vec![ct, ("origin", "http://evil.example")], "origin_not_allowed"),
        ("cross-site fetch", vec![ct, ("sec-fetch-site", "cross-site")], "origin_not_allowed"),
        ("another host (DNS rebinding)", vec![ct, ("host", "evil.example:4444")], "host_not_allowed"),
    ] {
        let (status, _, text) = raw("POST", &runs, &headers, Some(body.clone()));
        let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!((status, answer["error"]["code"].as_str()), (403, Some(code)), "{what}: {text}");
    }
    // the stream and the page are for this host only
    for path in ["/api/ui/stream", "/", "/telemetry/events"] {
        let (status, _, _) = raw("GET", &format!("{}{path}", ui.url), &[("host", "evil.example")], None);
        assert_eq!(status, 403, "{path}");
    }
    // the page's own origin may post
    let origin = ui.url.clone();
    let (status, _, text) = raw("POST", &runs, &[ct, ("origin", &origin)], Some(body));
    assert_eq!(status, 202, "{text}");
}

#[test]
fn every_view_address_serves_the_shell() {
    let hub = format!("http://127.0.0.1:{}", free_port());
    let ui = start_ui(&hub, &[]);
    let (_, _, shell) = raw("GET", &format!("{}/", ui.url), &[], None);
    assert!(shell.contains("<html"), "{shell}");
    for path in ["/conversation", "/activity", "/topology"] {
        let (status, ct, body) = raw("GET", &format!("{}{path}", ui.url), &[], None);
        assert_eq!(
            (status, ct.as_str(), body.as_str()),
            (200, "text/html; charset=utf-8", shell.as_str()),
            "{path}"
        );
    }
    for path in ["/assets/nope.js", "/nowhere", "/assets/../Cargo.toml"] {
        let (status, _, text) = raw("GET", &format!("{}{path}", ui.url), &[], None);
        let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!((status, answer["error"]["code"].as_str()), (404, Some("not_found")), "{path}: {text}");
    }
    let (status, _, text) = raw("GET", &format!("{}/api/ui/health", ui.url), &[], None);
    assert_eq!(status, 200, "{text}");
}
