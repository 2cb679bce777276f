//! The card-change path and configuration, with real processes: saving skills through
//! the Hub's proxy, notices as hints, failed refreshes, relayed telemetry, and bad or
//! example configuration files; media types and proto field names with every agent.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use a2a::client::A2aClient;
use a2a::wire::SendMessageResponse;
use hublink::{Control, parse_ack};
use serde_json::{Value, json};
use testkit::{
    Proc, University, ask, control, feed_events, feed_snapshot, http_json, poll, received, rpc, rt, run,
    settings,
};

#[test]
fn saving_skills_changes_the_card_and_the_hub_routes_by_the_new_card() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    // before: statistics is nobody's subject
    assert_eq!(ask(&u.hub_url, "statistics regression homework").outcome.as_deref(), Some("unsupported"));
    let card_url = format!("{}/.well-known/agent-card.json", u.tutor_url);
    let etag_before = tokio_etag(&card_url);
    let s = settings(&u, "tutor");
    assert_eq!(s["revision"], 1);
    let mut skills = s["skills"].clone();
    let tags = skills[0]["tags"].as_array_mut().unwrap();
    tags.pop(); // the default skill has as many tags as a skill may have
    tags.push(json!("statistics"));

    // a stale editor gets 409 and changes nothing
    let (status, v) = http_json(
        "PUT",
        &format!("{}/dev/agents/tutor/settings", u.hub_url),
        Some(json!({"baseRevision": 0, "skills": skills})),
    );
    assert_eq!((status, v["error"]["code"].as_str()), (409, Some("stale_revision")));

    let (status, v) = http_json(
        "PUT",
        &format!("{}/dev/agents/tutor/settings", u.hub_url),
        Some(json!({"baseRevision": 1, "skills": skills})),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["revision"], 2);
    let etag_after = tokio_etag(&card_url);
    assert_ne!(etag_before, etag_after);
    assert_eq!(v["etag"], etag_after);
    // the notice reaches the Hub, which re-fetches from its configured URL
    poll(10, "the hub to see revision 2", || (u.specialist("tutor")["cardRevision"] == 2).then_some(()));
    assert_eq!(u.specialist("tutor")["cardEtag"], etag_after);
    let ex = ask(&u.hub_url, "statistics regression homework");
    assert_eq!(ex.outcome.as_deref(), Some("route"), "{}", ex.reply_text);
    assert!(
        u.tutor.stderr().iter().any(|l| l.contains("card change notice sent") && l.contains("delivered"))
    );

    // disabling the skill: the Tutor declines even a direct call that bypasses the Hub
    skills[0]["enabled"] = json!(false);
    let (status, _) = http_json(
        "PUT",
        &format!("{}/dev/agents/tutor/settings", u.hub_url),
        Some(json!({"baseRevision": 2, "skills": skills})),
    );
    assert_eq!(status, 200);
    let direct = rt()
        .block_on(async {
            student::ask(&A2aClient::default(), &u.tutor_url, "derivative of x^2", None).await
        })
        .unwrap();
    assert_eq!(direct.reply_text, tutor::DECLINE_REPLY);
    poll(10, "the hub to see revision 3", || (u.specialist("tutor")["cardRevision"] == 3).then_some(()));
    assert_eq!(
        ask(&u.hub_url, "How do I find the derivative of x^2?").outcome.as_deref(),
        Some("unsupported")
    );

    // the Library refuses an enabled skill without content, through the proxy too
    let mut lib = settings(&u, "library")["skills"].clone();
    lib[0]["answerContent"] = json!("");
    let (status, v) = http_json(
        "PUT",
        &format!("{}/dev/agents/library/settings", u.hub_url),
        Some(json!({"baseRevision": 1, "skills": lib})),
    );
    assert_eq!(status, 422);
    assert_eq!(v["error"]["fields"][0]["field"], "skills[0].answerContent");
    let (status, v) = http_json("GET", &format!("{}/dev/agents/plumber/settings", u.hub_url), None);
    assert_eq!((status, v["error"]["code"].as_str()), (404, Some("unknown_agent")));
}

fn tokio_etag(url: &str) -> String {
    rt().block_on(async {
        let r = reqwest::get(url).await.unwrap();
        r.headers()["etag"].to_str().unwrap().to_string()
    })
}

#[test]
fn notices_are_hints_duplicates_spoofs_and_urls_change_nothing() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let instance = u.specialist("tutor")["instanceId"].as_str().unwrap().to_string();
    let tutor = testkit::agent_key(&u.tutor, "tutor");
    let refreshes = |u: &University| u.specialist("tutor")["refreshes"].as_u64().unwrap();
    let before = refreshes(&u);

    // a notice carrying a URL: the Hub fetches its configured URL, never this one
    let hits = Arc::new(AtomicUsize::new(0));
    let decoy = decoy_server(hits.clone());
    let mut msg = Control::CardChanged(hublink::CardChanged {
        identity: "tutor".into(),
        instance_id: instance.clone(),
        notice_id: "n-1".into(),
        revision: Some(99),
    })
    .to_message(&tutor);
    if let a2a::wire::PartContent::Data(d) = &mut msg.parts[0].content {
        d["cardUrl"] = json!(format!("{decoy}/.well-known/agent-card.json"));
        d["endpoint"] = json!(decoy.clone());
    }
    let ack = rt().block_on(async {
        let hub = A2aClient::default().connect(&u.hub_url).await.unwrap();
        let SendMessageResponse::Message(m) = hub.send_message(msg, &[]).await.unwrap() else { panic!() };
        parse_ack(&SendMessageResponse::Message(m)).unwrap()
    });
    assert_eq!(ack.status, "refresh_scheduled");
    poll(10, "the refresh", || (refreshes(&u) > before).then_some(()));
    // a late notice for an unchanged card: a conditional fetch, 304, same card
    assert_eq!(u.specialist("tutor")["cardRevision"], 1);
    assert_eq!(hits.load(Ordering::SeqCst), 0, "the URL in the notice was never fetched");

    // the same notice id again: ignored
    let dup = control(
        &u,
        &tutor,
        Control::CardChanged(hublink::CardChanged {
            identity: "tutor".into(),
            instance_id: instance.clone(),
            notice_id: "n-1".into(),
            revision: None,
        }),
    );
    assert_eq!(dup.status, "duplicate_notice");
    // a spoofed sender: wrong instance, unknown identity
    let spoof = control(
        &u,
        &tutor,
        Control::CardChanged(hublink::CardChanged {
            identity: "tutor".into(),
            instance_id: "not-me".into(),
            notice_id: "n-2".into(),
            revision: None,
        }),
    );
    assert_eq!(spoof.code.as_deref(), Some("not_registered"));
    let stranger = control(
        &u,
        &tutor,
        Control::CardChanged(hublink::CardChanged {
            identity: "plumber".into(),
            instance_id: instance,
            notice_id: "n-3".into(),
            revision: None,
        }),
    );
    assert_eq!(stranger.code.as_deref(), Some("not_allowlisted"));
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

fn decoy_server(hits: Arc<AtomicUsize>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            hits.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    url
}

#[test]
fn a_failed_refresh_keeps_the_last_good_card() {
    let mut u = University::start(&[("HEARTBEAT_EXPIRY_MS", "60000")], &[]);
    u.wait_ready();
    let good = u.specialist("library");
    // the Library goes away without signing out; its card can no longer be fetched
    drop(std::mem::replace(&mut u.library, Proc::start(&["tutor"], &[("HUB_URL", "http://127.0.0.1:9")])));
    let (status, _) = http_json("POST", &format!("{}/dev/refresh", u.hub_url), None);
    assert_eq!(status, 202);
    let after = poll(10, "the failed refresh", || {
        let s = u.specialist("library");
        s["cardError"].is_string().then_some(s)
    });
    assert_eq!(after["skills"], good["skills"], "skills are kept, not invented or dropped");
    assert_eq!(after["cardEtag"], good["cardEtag"]);
}

#[test]
fn telemetry_is_redacted_at_the_specialist_and_at_the_relay_unless_both_are_asked() {
    let flag = |on: bool| -> Vec<(&str, &str)> {
        if on { vec![("HUB_TELEMETRY_SHOW_CONTENT", "1")] } else { vec![] }
    };
    for (hub_shows, tutor_keeps) in [(false, false), (true, false), (true, true)] {
        let show = hub_shows && tutor_keeps;
        let u = University::start_with(&flag(hub_shows), &flag(tutor_keeps), &[]);
        u.wait_ready();
        let secret = "zebra-derivative-7731";
        ask(&u.hub_url, &format!("How do I find the derivative of {secret}?"));
        let feed = poll(10, "the relayed reply event", || {
            let text = feed_snapshot(&u.hub_url)?;
            let relayed = text
                .lines()
                .any(|l| l.contains("\"relayedFrom\":\"tutor\"") && l.contains("reply_published"));
            relayed.then_some(text)
        });
        assert_eq!(feed.contains(secret), show, "hub {hub_shows}, tutor {tutor_keeps}");
        if !show {
            assert!(feed.contains("chars redacted]"), "{feed}");
        }
        // the Tutor's own feed, read directly, holds the text only when it was asked to
        let own = feed_snapshot(&u.tutor_url).expect("the tutor's feed");
        assert_eq!(own.contains(secret), tutor_keeps, "the tutor's own feed, keeps={tutor_keeps}");
        assert!(!u.hub().stderr().iter().any(|l| l.contains(secret)), "the hub logs no message text");
    }
}

#[test]
fn a_routed_question_leaves_one_correlated_trail_in_the_hubs_feed() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let question = "How do I find the derivative of x^2?";
    let ex = ask(&u.hub_url, question);
    assert_eq!(ex.outcome.as_deref(), Some("route"));
    let events = poll(10, "the hub's and the tutor's events for the question", || {
        let events = feed_events(&u.hub_url);
        let done = |agent: &str| events.iter().any(|e| e["agent"] == agent && e["kind"] == "reply_published");
        (done("hub") && done("tutor")).then_some(events)
    });
    let kinds = ["message_received", "routed", "forwarded", "specialist_replied", "reply_published"];
    let own: Vec<&Value> = events
        .iter()
        .filter(|e| e["agent"] == "hub" && kinds.contains(&e["kind"].as_str().unwrap()))
        .collect();
    let trail: Vec<&str> = own.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(trail, kinds, "one question, one trail, in order");
    let data = |i: usize| &own[i]["data"];
    for i in [0, 1, 4] {
        assert_eq!(data(i)["requestId"], ex.request_id.as_str(), "{}", own[i]);
    }
    assert_eq!(data(0)["textChars"], question.chars().count());
    assert!(data(0).get("text").is_none(), "the hub's own events carry no message text");
    assert_eq!(data(1)["decision"]["kind"], "route");
    assert_eq!(data(1)["decision"]["specialist"], "tutor");
    assert_eq!((&data(2)["specialist"], &data(2)["skill"]), (&json!("tutor"), &data(1)["decision"]["skill"]));
    let operation = data(2)["operationId"].as_str().expect("an operation id");
    assert_eq!(data(3)["operationId"], operation);
    assert_eq!((&data(4)["servedBy"], &data(4)["outcome"]), (&json!("tutor"), &json!("route")));
    // the tutor's relayed event names the hop it received: the same operation and context
    let hop = events
        .iter()
        .find(|e| e["relayedFrom"] == "tutor" && e["kind"] == "message_received")
        .expect("the tutor's relayed message_received");
    assert_eq!(hop["data"]["operationId"], operation);
    assert_eq!(hop["data"]["contextId"], data(2)["contextId"]);
    assert_eq!(hop["data"]["messageId"], data(2)["messageId"]);
    // every event, own or relayed, kept or transient, has an id no other event has
    let ids: std::collections::HashSet<&str> = events.iter().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids.len(), events.len());
}

#[test]
fn every_agent_refuses_media_types_its_card_does_not_accept_and_reads_proto_names() {
    let u = University::start(&[], &[]);
    // registration and heartbeats are typed data parts: they pass because the Hub's card
    // declares their media types
    u.wait_ready();
    let (_, card) = http_json("GET", &format!("{}/.well-known/agent-card.json", u.hub_url), None);
    let modes = card["defaultInputModes"].as_array().unwrap();
    assert_eq!(modes[0], "text/plain");
    for control in [hublink::REGISTER, hublink::HEARTBEAT, hublink::DEREGISTER, hublink::CARD_CHANGED] {
        assert!(modes.contains(&json!(control)), "{control}: {modes:?}");
    }
    assert!(card["skills"].as_array().unwrap().iter().all(|s| s["inputModes"] == json!(["text/plain"])));

    let t0 = received(&u.tutor);
    let png = json!({"raw": "iVBORw0KGgo=", "filename": "diagram.png", "mediaType": "image/png"});
    for url in [&u.hub_url, &u.tutor_url, &u.library_url] {
        for part in [png.clone(), json!({"data": {"question": "limits"}})] {
            let params = json!({"message": {"messageId": "m-media", "role": "ROLE_USER",
                                            "parts": [{"text": "What is in this?"}, part]}});
            let v = rpc(url, "SendMessage", params);
            assert_eq!(v["error"]["code"], -32005, "{url}: {v}");
            assert_eq!(v["error"]["data"][1]["reason"], "CONTENT_TYPE_NOT_SUPPORTED", "{v}");
            assert_eq!(v["error"]["data"][0]["fieldViolations"][0]["field"], "message.parts[1].mediaType");
        }
    }
    // proto field names: the conversation the student named, metadata keys as sent
    let params = json!({"message": {"message_id": "snake-1", "context_id": "my-conversation",
        "role": "ROLE_USER", "parts": [{"text": "How do I find the derivative of x^2?", "media_type": "text/plain"}],
        "metadata": {"requestId": "snake-req", "client_note": "kept"}}});
    let v = rpc(&u.hub_url, "SendMessage", params);
    let reply = &v["result"]["message"];
    assert_eq!(
        (&reply["contextId"], &reply["metadata"]["outcome"]),
        (&json!("my-conversation"), &json!("route")),
        "{v}"
    );
    assert_eq!(reply["metadata"]["requestId"], "snake-req");
    poll(5, "the one forward", || (received(&u.tutor) == t0 + 1).then_some(()));

    // the Hub's card: a short max-age and a Last-Modified that answers If-Modified-Since
    rt().block_on(async {
        let url = format!("{}/.well-known/agent-card.json", u.hub_url);
        let first = reqwest::get(&url).await.unwrap();
        assert_eq!(first.headers()["cache-control"], "max-age=5");
        let last_modified = first.headers()["last-modified"].to_str().unwrap().to_string();
        let again = reqwest::Client::new().get(&url).header("if-modified-since", &last_modified).send().await;
        assert_eq!(again.unwrap().status(), 304);
    });
}

/// Runs the Hub with `HUB_CONFIG=path`: its exit code and stderr.
fn hub_with_config(path: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(testkit::bin())
        .arg("hub")
        .env("HUB_CONFIG", path)
        .env("PORT", "0")
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_bad_config_file_stops_the_process_with_one_clear_message() {
    let dir = std::env::temp_dir().join(format!("campus-conf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("hub.json");
    std::fs::write(&bad, r#"{"specialists": [{"id": "tutor", "cardName": "Tutor Agent", "endpoint": "http://evil.example:80", "capability": {"id": "t", "name": "T", "description": "d"}}]}"#).unwrap();
    let path = bad.to_string_lossy().to_string();
    let (code, err) = hub_with_config(&path);
    assert_eq!(code, Some(78));
    assert!(
        err.contains(&path) && err.contains("specialists[0].endpoint") && err.contains("this machine"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    std::fs::write(&bad, r#"{"port": "high"}"#).unwrap();
    let (ok, _, err) = run(&["hub"], &[("HUB_CONFIG", &path)]);
    assert!(!ok && err.contains("field port"), "{err}");
    let lib = dir.join("library.json");
    std::fs::write(
        &lib,
        r#"{"skills": [{"id": "x", "name": "X", "description": "d", "tags": ["t"], "answerContent": ""}]}"#,
    )
    .unwrap();
    let (ok, _, err) = run(&["library"], &[("LIBRARY_CONFIG", &lib.to_string_lossy())]);
    assert!(!ok && err.contains("skills[0].answerContent"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_kind_of_unusable_config_file_is_named_in_one_line_with_exit_78() {
    let dir = std::env::temp_dir().join(format!("campus-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let syntax = dir.join("syntax.json");
    std::fs::write(&syntax, "{\"port\": 1,\n  \"name\": campus}").unwrap();
    let snake = dir.join("snake.json");
    std::fs::write(&snake, r#"{"heartbeat_interval_ms": 500}"#).unwrap();
    let path = |p: &std::path::Path| p.to_string_lossy().to_string();
    let cases = [
        ("/nope.json".to_string(), "HUB_CONFIG=/nope.json: the file does not exist".to_string()),
        (path(&dir), format!("HUB_CONFIG={}: this is a directory, not a file", path(&dir))),
        (path(&syntax), format!("HUB_CONFIG={}: not valid JSON at line 2 column 11", path(&syntax))),
        (path(&snake), "unknown field `heartbeat_interval_ms`: it is spelled `heartbeatIntervalMs`".into()),
    ];
    for (file, want) in cases {
        let (code, err) = hub_with_config(&file);
        assert_eq!(code, Some(78), "{file}: {err}");
        assert!(err.contains(&want), "{file}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_example_config_files_start_every_agent() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config");
    let file = |name: &str| format!("{root}/{name}.example.json");
    // each example is valid: the process gets as far as binding (its port is taken here,
    // so it then stops with a bind error, not a configuration error)
    for (agent, var) in [("hub", "HUB_CONFIG"), ("tutor", "TUTOR_CONFIG"), ("library", "LIBRARY_CONFIG")] {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = taken.local_addr().unwrap().port().to_string();
        let (ok, _, err) = run(&[agent], &[(var, &file(agent)), ("PORT", &port)]);
        assert!(!ok, "{agent} should not be able to bind a taken port");
        assert!(err.contains("could not bind"), "{agent}: {err}");
    }
    // the student's example names the hub; a bad one names its field
    let (ok, _, err) = run(
        &["student", "hello"],
        &[
            ("STUDENT_CONFIG", &file("student")),
            ("HUB_URL", "http://127.0.0.1:9"),
            ("STUDENT_TIMEOUT_MS", "500"),
        ],
    );
    assert!(!ok && err.contains("http://127.0.0.1:9"), "{err}");
    let dir = std::env::temp_dir().join(format!("campus-student-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("student.json");
    std::fs::write(&bad, r#"{"hubUrl": "http://university.example:443"}"#).unwrap();
    let (ok, _, err) = run(&["student"], &[("STUDENT_CONFIG", &bad.to_string_lossy())]);
    assert!(!ok && err.contains("hubUrl"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
