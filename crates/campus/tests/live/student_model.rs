//! The Student's own model in live mode (`STUDENT_MODE=live`) as real processes: the
//! command-line chat and the UI server against `campus fake-anthropic` and a real Hub.
//! Its own replies are labelled and send nothing; a provider error sends the question on
//! with the code logged; the recognisable key appears nowhere they write or stream.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use testkit::ui::{ask, read_stream, run_ended, start_ui};
use testkit::{Proc, University, bin};

const KEY: &str = "sk-ant-student-canary-5c0e91aa";

fn put_script(fake: &str) {
    let rule = |contains: &str, reply: Value| json!({"when": {"contains": contains}, "reply": reply});
    let decision = |d: &str, q: &str, confident: bool| json!({"json": {"decision": d, "capability": "", "question": q, "confident": confident}});
    let script = json!({
        "rules": [
            rule("plumbing", decision("not_offered", "", true)),
            rule("mystery", decision("clarify", "Which subject is it about?", false)),
            rule("overloaded", json!({"status": 529})),
        ],
        "default": decision("pass", "", false),
    });
    testkit::put_fake_script(fake, script);
}

fn fake_total(fake: &str) -> u64 {
    testkit::fake_recorded(fake).1
}

fn hub_questions(u: &University) -> usize {
    u.hub().stderr().iter().filter(|l| l.contains("routing decision")).count()
}

#[test]
fn live_own_model_in_the_chat_and_the_page_labelled_and_the_key_never_leaves() {
    let u = University::start(&[], &[]);
    let fake = Proc::start(&["fake-anthropic"], &[]);
    put_script(&fake.url);
    u.wait_ready();
    let live = [
        ("STUDENT_MODE", "live"),
        ("ANTHROPIC_BASE_URL", fake.url.as_str()),
        ("ANTHROPIC_API_KEY", KEY),
        ("STUDENT_ENV_FILE", "/nonexistent/campus.env"),
    ];

    // the chat: not offered, a clarifying question and its answer, a provider error
    let mut cmd = Command::new(bin());
    cmd.arg("student").arg("--verbose").env("HUB_URL", &u.hub_url).env("RUST_LOG", "info");
    cmd.env_remove("TUTOR_URL").env_remove("STUDENT_CONFIG");
    for (k, v) in live {
        cmd.env(k, v);
    }
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let input = "can you fix my plumbing\na mystery question\nI don't know\nan overloaded question\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stderr}");
    let own: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Student: ")).collect();
    assert_eq!(own.len(), 2, "{stdout}");
    assert!(
        own[0].contains("doesn't seem to offer") && own[1].contains("Which subject is it about?"),
        "{stdout}"
    );
    let labels = stdout.matches("from your Student's own model (claude-haiku-5-5); nothing was sent").count();
    assert_eq!(labels, 2, "{stdout}");
    assert_eq!(hub_questions(&u), 2, "the answer with its question, and the question the model failed on");
    assert_eq!(fake_total(&fake.url), 4, "one call per question and answer, no retry");
    assert!(stderr.contains("student step failed") && stderr.contains("provider_unavailable"), "{stderr}");
    assert!(stderr.contains("student's own model: live (claude-haiku-5-5, key not needed (the model server is on this machine))"), "{stderr}");
    for (what, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(!text.contains(KEY), "the key in the chat's {what}");
        assert!(!text.contains("mystery question") || what == "stdout", "no question text in the logs");
    }

    // the page: a labelled local reply, nothing sent, the Student's mode on its console
    let ui = start_ui(&u.hub_url, &live);
    let (status, _) = ask(&ui.url, "t-own", "r-own", "please fix my plumbing");
    assert_eq!(status, 202);
    let frames = read_stream(&ui.url, None, Some("0"), 15, |f| {
        run_ended(f, "t-own", "r-own")
            && f.iter().any(|f| f.event()["snapshot"]["agents"]["student"]["mode"] == "live")
    });
    assert!(run_ended(&frames, "t-own", "r-own"));
    let text: String = frames
        .iter()
        .filter(|f| f.is_student("t-own") && f.kind() == "TEXT_MESSAGE_CONTENT")
        .filter_map(|f| f.event()["delta"].as_str())
        .collect();
    assert!(
        text.contains("doesn't seem to offer") && text.contains("from your Student's own model"),
        "{text}"
    );
    let finished = frames.iter().find(|f| f.is_student("t-own") && f.kind() == "RUN_FINISHED").unwrap();
    assert_eq!(finished.event()["result"]["outcome"], "student_not_offered");
    assert_eq!(finished.event()["result"]["studentStep"]["mode"], "live");
    assert_eq!(hub_questions(&u), 2, "nothing reached the Hub");
    let streamed: String = frames.iter().map(|f| f.json.to_string()).collect();
    assert!(!streamed.contains(KEY), "the key in the UI stream");
    assert!(!ui.stderr().join("\n").contains(KEY), "the key in the UI server's logs");
    // every page asset the UI server serves, every view's address and its status answer
    let web = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut paths = vec!["/".to_string(), "/conversation".into(), "/activity".into(), "/topology".into()];
    let mut dirs = vec![web.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(&web).unwrap().to_string_lossy().replace('\\', "/");
                paths.push(format!("/assets/{rel}"));
            }
        }
    }
    let rt = testkit::rt();
    let mut served = 0;
    for path in &paths {
        let (status, body) = rt.block_on(async {
            let r = reqwest::get(format!("{}{path}", ui.url)).await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap_or_default())
        });
        served += usize::from(status == 200);
        assert!(!body.contains(KEY), "the key in {path}");
    }
    assert!(served >= 8, "the page's files were served ({served} of {})", paths.len());
}
