//! Settings and the Hub's request ledger survive a restart: the real binary, each agent
//! with its own data folder, killed with SIGKILL (no graceful path) and started again on
//! the same folders.

use serde_json::{Value, json};
use testkit::{FAST, Proc, TempDir, University, free_port, http_json, poll, received, run};

struct Dirs {
    hub: TempDir,
    tutor: TempDir,
    library: TempDir,
}

struct Ports {
    hub: u16,
    tutor: u16,
    library: u16,
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

/// Starts Hub, Tutor and Library on fixed ports with their own data folders.
fn start(p: &Ports, d: &Dirs) -> (Proc, Proc, Proc) {
    let (hub_url, tutor_url, library_url) = (url(p.hub), url(p.tutor), url(p.library));
    let specialist = |port: u16, dir: &TempDir, agent: &str| {
        let port = port.to_string();
        Proc::start(
            &[agent],
            &[("PORT", &port), ("HUB_URL", &hub_url), FAST[0], ("CAMPUS_DATA_DIR", dir.as_str())],
        )
    };
    let tutor = specialist(p.tutor, &d.tutor, "tutor");
    let library = specialist(p.library, &d.library, "library");
    let port = p.hub.to_string();
    let hub = Proc::start(
        &["hub"],
        &[
            ("PORT", &port),
            ("TUTOR_URL", &tutor_url),
            ("LIBRARY_URL", &library_url),
            FAST[0],
            FAST[1],
            ("CAMPUS_DATA_DIR", d.hub.as_str()),
        ],
    );
    (hub, tutor, library)
}

fn settings(base: &str) -> Value {
    let (status, v) = http_json("GET", &format!("{base}/api/settings"), None);
    assert_eq!(status, 200, "{v}");
    v
}

/// The served card and its ETag header.
fn card(base: &str) -> (Value, String) {
    let rt = testkit::rt();
    rt.block_on(async {
        let resp = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap();
        let etag = resp.headers()["etag"].to_str().unwrap().to_string();
        (resp.json().await.unwrap(), etag)
    })
}

fn registry_entry(hub: &str, id: &str) -> Value {
    let (_, reg) = http_json("GET", &format!("{hub}/dev/registry"), None);
    reg["specialists"].as_array().and_then(|l| l.iter().find(|s| s["id"] == id)).cloned().unwrap_or_default()
}

fn wait_revision(hub: &str, id: &str, revision: u64, etag: &str) {
    poll(15, &format!("the hub to show {id} at revision {revision}"), || {
        let e = registry_entry(hub, id);
        (e["status"] == "ready" && e["cardRevision"] == revision && e["cardEtag"] == etag).then_some(())
    });
}

fn revision_of(card: &Value) -> Value {
    let exts = card["capabilities"]["extensions"].as_array().cloned().unwrap_or_default();
    exts.iter()
        .find(|e| e["uri"] == skills::SCOPE_EXTENSION_URI)
        .map(|e| e["params"]["revision"].clone())
        .unwrap_or_default()
}

#[test]
fn saved_settings_and_revisions_survive_sigkill_and_a_restart() {
    let p = Ports { hub: free_port(), tutor: free_port(), library: free_port() };
    let d = Dirs { hub: TempDir::new(), tutor: TempDir::new(), library: TempDir::new() };
    let (hub, tutor, library) = start(&p, &d);
    let (hub_url, tutor_url, library_url) = (url(p.hub), url(p.tutor), url(p.library));
    assert!(d.tutor.path().join("tutor.sqlite3").exists(), "created on first start");

    // the Library: two whole saves (revisions 2 and 3), through the Hub's developer proxy
    // (the Library takes no change the Hub did not sign: it has the Hub's key once registered)
    for id in ["tutor", "library"] {
        poll(15, &format!("{id} registered"), || {
            (registry_entry(&hub_url, id)["status"] == "ready").then_some(())
        });
    }
    let before = settings(&library_url);
    assert_eq!((before["revision"].clone(), before["matchesDefault"].clone()), (json!(1), json!(true)));
    let mut skills = before["skills"].clone();
    skills[0]["description"] = json!("Opening hours of the main library, saved before a crash.");
    let (st, v) = http_json(
        "PUT",
        &format!("{hub_url}/dev/agents/library/settings"),
        Some(json!({"baseRevision": 1, "skills": skills})),
    );
    assert_eq!((st, v["revision"].clone()), (200, json!(2)), "{v}");
    skills[0]["tags"] = json!(["hours", "opening", "schedule", "weekend"]);
    let (st, v) = http_json(
        "PUT",
        &format!("{hub_url}/dev/agents/library/settings"),
        Some(json!({"baseRevision": 2, "skills": skills})),
    );
    assert_eq!((st, v["revision"].clone()), (200, json!(3)), "{v}");
    let library_etag = v["etag"].as_str().unwrap().to_string();

    // the Tutor: one skill's change, through the Hub's developer proxy
    let skill = settings(&tutor_url)["skills"][0]["id"].as_str().unwrap().to_string();
    let (st, v) = http_json(
        "PATCH",
        &format!("{hub_url}/dev/agents/tutor/settings/skills/{skill}"),
        Some(json!({"baseRevision": 1, "excluded": ["home repair"], "tags": ["calculus", "limits"]})),
    );
    assert_eq!((st, v["revision"].clone()), (200, json!(2)), "{v}");
    let tutor_etag = v["etag"].as_str().unwrap().to_string();
    for (path, code) in [
        ("tutor/settings/skills/..%2Fsettings", "unknown_skill"),
        ("tutor/settings/skills/no-such-skill", "unknown_skill"),
        ("nobody/settings/skills/a", "unknown_agent"),
    ] {
        let body = json!({"baseRevision": 2, "enabled": false});
        let (st, v) = http_json("PATCH", &format!("{hub_url}/dev/agents/{path}"), Some(body));
        assert_eq!((st, v["error"]["code"].as_str()), (404, Some(code)), "{path}: {v}");
    }
    // the proxy answers in the API's own JSON errors: an oversized body, a bad field
    let url = format!("{hub_url}/dev/agents/tutor/settings/skills/{skill}");
    let huge = json!({"baseRevision": 2, "description": "x".repeat(300 * 1024)});
    let (st, v) = http_json("PATCH", &url, Some(huge));
    assert_eq!((st, v["error"]["code"].as_str()), (413, Some("body_too_large")), "{v}");
    let (st, v) = http_json("PATCH", &url, Some(json!({"enabled": false})));
    assert_eq!((st, v["error"]["code"].as_str()), (400, Some("bad_request")), "{v}");
    assert_eq!(v["error"]["message"], "missing field `baseRevision`", "{v}");
    wait_revision(&hub_url, "library", 3, &library_etag);
    wait_revision(&hub_url, "tutor", 2, &tutor_etag);

    // SIGKILL everyone: nothing gets to flush or sign out
    for proc in [hub, tutor, library] {
        proc.kill();
    }
    let (_hub, tutor, _library) = start(&p, &d);

    let lib = settings(&library_url);
    assert_eq!(lib["revision"], 3);
    assert_eq!(lib["skills"], skills, "the saved skills are back");
    assert_eq!(lib["etag"], json!(library_etag));
    let (card_json, etag) = card(&library_url);
    assert_eq!(etag, library_etag, "the same card, so the same etag");
    assert_eq!(revision_of(&card_json), json!(3));
    assert_eq!(card_json["skills"][0]["tags"], json!(["hours", "opening", "schedule", "weekend"]));

    let tut = settings(&tutor_url);
    assert_eq!((tut["revision"].clone(), tut["matchesDefault"].clone()), (json!(2), json!(false)));
    assert_eq!(tut["skills"][0]["excluded"], json!(["home repair"]));
    let (card_json, etag) = card(&tutor_url);
    assert_eq!((etag.as_str(), revision_of(&card_json)), (tutor_etag.as_str(), json!(2)));
    assert_eq!(card_json["skills"][0]["tags"], json!(["calculus", "limits"]));
    let line = tutor.wait_for_log(|l| l.contains("skill settings loaded from the store"));
    assert!(line.contains("revision=2"), "{line}");

    // the fresh Hub fetched the restored cards on registration
    wait_revision(&hub_url, "library", 3, &library_etag);
    wait_revision(&hub_url, "tutor", 2, &tutor_etag);

    // the revision continues from the stored one
    let (st, v) = http_json(
        "PATCH",
        &format!("{hub_url}/dev/agents/tutor/settings/skills/{skill}"),
        Some(json!({"baseRevision": 2, "enabled": false})),
    );
    assert_eq!((st, v["revision"].clone()), (200, json!(3)), "{v}");
    let disabled_etag = v["etag"].as_str().unwrap().to_string();
    wait_revision(&hub_url, "tutor", 3, &disabled_etag);

    // deleting the Tutor's file resets it to its defaults at revision 1
    tutor.kill();
    std::fs::remove_file(d.tutor.path().join("tutor.sqlite3")).unwrap();
    let tport = p.tutor.to_string();
    let tutor = Proc::start(
        &["tutor"],
        &[("PORT", &tport), ("HUB_URL", &hub_url), FAST[0], ("CAMPUS_DATA_DIR", d.tutor.as_str())],
    );
    let tut = settings(&tutor_url);
    assert_eq!((tut["revision"].clone(), tut["matchesDefault"].clone()), (json!(1), json!(true)));
    assert!(!tutor.stderr().iter().any(|l| l.contains("loaded from the store")));
    let reset_etag = tut["etag"].as_str().unwrap().to_string();
    wait_revision(&hub_url, "tutor", 1, &reset_etag);
}

#[test]
fn an_unreadable_data_file_stops_the_agent_with_one_line() {
    let dir = TempDir::new();
    std::fs::create_dir_all(dir.path()).unwrap();
    // a specialist, and the Hub (its ledger's file)
    for agent in ["library", "hub"] {
        let file = dir.path().join(format!("{agent}.sqlite3"));
        let garbage = b"not a database at all, but not empty either; ".repeat(200);
        std::fs::write(&file, &garbage).unwrap();
        let (ok, out, err) = run(&[agent], &[("CAMPUS_DATA_DIR", dir.as_str())]);
        assert!(!ok);
        assert!(!out.contains("listening on"), "it never serves: {out}");
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{err}");
        assert!(
            errors[0].contains(&format!("{agent}.sqlite3")) && errors[0].contains("cannot read"),
            "{err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), garbage, "the file is left as it was");
    }

    // a folder that cannot be created: exit 1 (not configuration), before serving
    let blocker = dir.path().join("blocker");
    std::fs::write(&blocker, b"x").unwrap();
    let status = std::process::Command::new(testkit::bin())
        .arg("tutor")
        .env("PORT", "0")
        .env("CAMPUS_DATA_DIR", blocker.join("data"))
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(1));
    let err = String::from_utf8_lossy(&status.stderr);
    assert!(err.contains("data folder") && err.contains("blocker"), "{err}");
}

#[test]
fn no_test_leaves_a_data_folder_in_the_crate() {
    // every process the helpers start gets its own temp folder
    let (ok, _, err) = run(&["tutor"], &[("PORT", "not-a-port")]);
    assert!(!ok, "{err}");
    let started = Proc::start(&["tutor"], &[]);
    drop(started);
    let crate_data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    assert!(!crate_data.exists(), "a test wrote {}", crate_data.display());
}

/// A request to the Hub with a request id, in the conversation `context` names (none: a
/// first question); the JSON-RPC answer.
fn ask_with_id(hub: &str, context: Option<&str>, request_id: &str, question: &str) -> Value {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let mut message = json!({"messageId": format!("m-{request_id}-{nanos}"), "role": "ROLE_USER",
                             "parts": [{"text": question}], "metadata": {"requestId": request_id}});
    if let Some(c) = context {
        message["contextId"] = json!(c);
    }
    testkit::rpc(hub, "SendMessage", json!({ "message": message }))
}

#[test]
fn a_repeated_request_id_is_answered_from_the_ledger_after_the_hub_is_killed() {
    let data = TempDir::new();
    let mut u = University::start(&[("CAMPUS_DATA_DIR", data.as_str())], &[]);
    u.wait_ready();
    assert!(data.path().join("hub.sqlite3").exists(), "created on first start");
    let t0 = received(&u.tutor);
    let derivative = "How do I find the derivative of x^2?";
    let integral = "And what is the integral of x^2?";
    let first = ask_with_id(&u.hub_url, None, "kill-1", derivative)["result"]["message"].clone();
    let ctx = first["contextId"].as_str().expect("a context").to_string();
    let second = ask_with_id(&u.hub_url, Some(&ctx), "kill-2", integral)["result"]["message"].clone();
    assert_eq!(second["metadata"]["outcome"], "route", "{second}");
    poll(5, "two dispatches", || (received(&u.tutor) == t0 + 2).then_some(()));

    // SIGKILL: nothing gets to flush
    u.hub.take().expect("hub").kill();
    u.start_hub();
    u.wait_ready();
    let (t1, l1) = (received(&u.tutor), received(&u.library));
    // the retry of a first question (no context), the same naming the assigned context,
    // and a retry inside the conversation: all the stored answers
    for (context, id, question, was) in [
        (None, "kill-1", derivative, &first),
        (Some(ctx.as_str()), "kill-1", derivative, &first),
        (Some(ctx.as_str()), "kill-2", integral, &second),
    ] {
        let again = ask_with_id(&u.hub_url, context, id, question)["result"]["message"].clone();
        assert_eq!(again["messageId"], was["messageId"], "the stored answer: {again}");
        assert_eq!(again["parts"], was["parts"]);
        assert_eq!(again["contextId"], json!(ctx), "in the first answer's conversation");
    }
    // the log lines come through a pipe the test reads on its own thread: wait for them
    let from_ledger = || u.hub().stderr().iter().filter(|l| l.contains("answered from the ledger")).count();
    poll(5, "three answers from the ledger in the log", || (from_ledger() >= 3).then_some(()));
    assert_eq!(from_ledger(), 3);
    assert!(!u.hub().stderr().iter().any(|l| l.contains("routing decision")), "nothing decided again");
    // a new request id is dispatched, and it is the only dispatch since the restart
    let third = ask_with_id(&u.hub_url, Some(&ctx), "kill-3", derivative)["result"]["message"].clone();
    assert_ne!(third["messageId"], first["messageId"]);
    poll(5, "the new request's dispatch", || (received(&u.tutor) == t1 + 1).then_some(()));
    assert_eq!(received(&u.tutor), t1 + 1, "the retries were not dispatched");
    assert_eq!(received(&u.library), l1);
}
