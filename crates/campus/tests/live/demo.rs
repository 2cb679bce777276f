//! `campus demo --fake-model` and `--live`: every agent in live mode against the fake
//! model server (a child of the demo, gone when it stops); without a key, `--live` starts
//! nothing.

use std::process::Command;

use serde_json::{Value, json};
use testkit::ui::{ask, read_stream, run_ended};
use testkit::{bin, free_port, http_json, poll, rpc};

/// A key that must never reach the fake: the demo gives its agents a placeholder.
const REAL_LOOKING_KEY: &str = "sk-ant-exported-key-demo-4242";

#[test]
fn demo_fake_model_answers_in_live_mode_and_the_fake_stops_with_it() {
    let data = testkit::TempDir::new();
    std::fs::create_dir_all(data.path()).unwrap();
    let (mut cmd, [hub, tutor, library, ui, fake]) = testkit::demo(&["--fake-model"], data.path());
    let (mut demo, mut out) = testkit::Lines::spawn(
        cmd.env("ANTHROPIC_API_KEY", REAL_LOOKING_KEY)
            .env("SOME_UNRELATED_SETTING", "not-for-the-children")
            .env("RUST_LOG", "info"),
    );
    let mut wait_line = |pred: &dyn Fn(&str) -> bool, what: &str| out.wait(pred, what);
    let started = wait_line(&|l| l.contains("[     demo] started"), "the start");
    assert!(started.contains("in live mode against the fake model server"), "{started}");
    let ready = wait_line(&|l| l.contains("all agents ready"), "all agents ready");
    let fake_url = format!("http://127.0.0.1:{fake}");
    assert!(ready.contains(&format!("fake-anthropic {fake_url} (pid ")), "{ready}");
    let fake_pid: u32 = ready
        .split("fake-anthropic ")
        .nth(1)
        .and_then(|s| s.split("(pid ").nth(1))
        .and_then(|s| s.split(')').next())
        .and_then(|s| s.parse().ok())
        .unwrap();

    // no child was given the launcher's key (not the fake, not the agents: a placeholder),
    // nor anything else it does not need
    let pids: Vec<u32> =
        ready.split("(pid ").skip(1).filter_map(|s| s.split(')').next()?.parse().ok()).collect();
    assert_eq!(pids.len(), 6, "{ready}");
    for pid in pids {
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
        let environ = String::from_utf8_lossy(&environ);
        assert!(!environ.contains(REAL_LOOKING_KEY), "process {pid} has the exported key");
        assert!(!environ.contains("not-for-the-children"), "process {pid} has a variable it does not need");
        assert!(environ.contains("CAMPUS_DATA_DIR="), "process {pid} lost its own variables");
    }

    // every agent with a live mode says so, with its model
    let hub_url = format!("http://127.0.0.1:{hub}");
    let (_, reg) = http_json("GET", &format!("{hub_url}/dev/registry"), None);
    assert_eq!(
        (reg["hub"]["mode"].as_str(), reg["hub"]["model"].as_str()),
        (Some("live"), Some("claude-haiku-5-5"))
    );
    for id in ["tutor", "library", "professor"] {
        let entry = reg["specialists"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap();
        assert_eq!(
            (entry["mode"].as_str(), entry["model"].as_str()),
            (Some("live"), Some("claude-haiku-5-5")),
            "{id}"
        );
    }

    // a question through the page's API: the live router and the live Tutor, both at the fake
    let ui_url = format!("http://127.0.0.1:{ui}");
    let (code, _) = ask(&ui_url, "t-live", "r-live", "what is the derivative of x^2");
    assert_eq!(code, 202);
    let frames = read_stream(&ui_url, None, None, 20, |f| run_ended(f, "t-live", "r-live"));
    let said: String = frames
        .iter()
        .filter(|f| f.is_student("t-live") && f.kind() == "TEXT_MESSAGE_CONTENT")
        .filter_map(|f| f.event()["delta"].as_str().map(str::to_owned))
        .collect();
    assert!(said.contains("The derivative of x^2 is 2x") && said.contains("fake model server"), "{said}");
    // the page's status says each agent's mode and model
    let snapshot = poll(10, "the page's status with the tutor's model", || {
        let frames = read_stream(&ui_url, None, None, 2, |f| {
            f.iter().any(|f| f.channel() == "monitor" && f.kind() == "STATE_SNAPSHOT")
        });
        let status = frames.into_iter().find(|f| f.channel() == "monitor" && f.kind() == "STATE_SNAPSHOT")?;
        let snapshot = status.event()["snapshot"].clone();
        (snapshot["agents"]["tutor"]["status"] == "ready").then_some(snapshot)
    });
    assert_eq!(snapshot["agents"]["tutor"]["model"], "claude-haiku-5-5", "{snapshot}");
    assert_eq!(snapshot["agents"]["hub"]["mode"], "live", "{snapshot}");
    // what the fake received: the router's decision, the Tutor's scope check, answer and
    // answer check, each with the demo's placeholder key (never the exported one)
    let (_, recorded) = http_json("GET", &format!("{fake_url}/_fake/requests"), None);
    let systems: Vec<String> = recorded["requests"]
        .as_array()
        .unwrap_or_else(|| panic!("{recorded}"))
        .iter()
        .filter(|r| r["path"] == "/v1/messages")
        .map(|r| {
            assert_eq!(r["body"]["model"], "claude-haiku-5-5");
            assert_eq!(r["key_sent"], true);
            r["body"]["system"].as_str().unwrap_or("").chars().take(30).collect()
        })
        .collect();
    // route, form intent, scope check, answer, answer check (the Student's own step passes an obvious question with no call)
    assert_eq!(systems.len(), 5, "{systems:?}");
    assert!(!recorded.to_string().contains(REAL_LOOKING_KEY));
    // the Tutor's own reply metadata: live mode, the model, the fake's request id
    let direct = rpc(
        &format!("http://127.0.0.1:{tutor}"),
        "SendMessage",
        json!({"message": {"messageId": "m-direct", "contextId": "c-direct", "role": "ROLE_USER",
            "parts": [{"text": "what is the derivative of x^2"}]}}),
    );
    let meta: &Value = &direct["result"]["message"]["metadata"];
    assert_eq!(
        (meta["mode"].as_str(), meta["model"].as_str()),
        (Some("live"), Some("claude-haiku-5-5")),
        "{direct}"
    );
    assert!(meta["requestId"].as_str().is_some_and(|id| id.starts_with("req_fake")), "{meta}");

    // every agent's own key: made in the data folder, its owner's only; its secret half in
    // no card, registry, feed or page frame (the logs are scanned after the stop)
    let secrets = testkit::agent_secrets(data.path());
    assert_eq!(secrets.len(), 4, "the hub, the tutor, the library and the professor each have a key");
    let mut shown = vec![recorded.to_string(), reg.to_string(), direct.to_string()];
    for port in [hub, tutor, library] {
        let base = format!("http://127.0.0.1:{port}");
        let (_, card) = http_json("GET", &format!("{base}/.well-known/agent-card.json"), None);
        assert!(card["signatures"][0]["protected"].is_string(), "every agent signs its card: {card}");
        shown.push(card.to_string());
        shown.push(testkit::feed_snapshot(&base).unwrap_or_default());
    }
    let frames = read_stream(&ui_url, None, None, 2, |_| false);
    shown.extend(frames.iter().map(|f| f.event().to_string()));

    // one SIGINT: everything stops, the fake included
    assert!(Command::new("kill").args(["-INT", &demo.id().to_string()]).status().unwrap().success());
    wait_line(&|l| l.contains("all agents stopped"), "the end");
    assert!(demo.wait().unwrap().success());
    shown.extend(out.seen.iter().cloned());
    for (agent, secret) in &secrets {
        for text in &shown {
            assert!(
                !text.contains(secret.as_str()),
                "{agent}'s secret key appears: {}",
                &text[..text.len().min(200)]
            );
        }
    }
    let (code, _) = http_json("GET", &format!("{fake_url}/_fake/requests"), None);
    assert_eq!(code, 0, "the fake is gone");
    poll(5, "the fake's process gone", || {
        (!std::path::Path::new(&format!("/proc/{fake_pid}")).exists()).then_some(())
    });
}

#[test]
fn demo_live_without_a_key_starts_nothing_and_names_the_variable() {
    let dir = testkit::TempDir::new(); // no .env here
    std::fs::create_dir_all(dir.path()).unwrap();
    let hub = free_port();
    let out = Command::new(bin())
        .args(["demo", "--live"])
        .current_dir(dir.path())
        .env_remove("ANTHROPIC_API_KEY")
        .env("HUB_PORT", hub.to_string())
        .env("CAMPUS_DATA_DIR", dir.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(78), "{stdout}{stderr}");
    assert!(stderr.contains("ANTHROPIC_API_KEY") && stderr.contains("--fake-model"), "{stderr}");
    assert!(!stdout.contains("started"), "{stdout}");
    let (code, _) = http_json("GET", &format!("http://127.0.0.1:{hub}/dev/registry"), None);
    assert_eq!(code, 0, "no hub was started");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "no data file was made");
}
