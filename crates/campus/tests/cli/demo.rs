//! `campus demo`: every agent as a child process; a child that dies is reported; one
//! SIGINT stops them all, and the specialists sign out from the Hub first.

use std::process::Command;

use testkit::{bin, free_port, http_json};

#[test]
fn demo_runs_reports_and_stops_everything() {
    let (hub, tutor, library, ui, professor) =
        (free_port(), free_port(), free_port(), free_port(), free_port());
    let data = testkit::TempDir::new();
    let (mut demo, mut out) = testkit::Lines::spawn(
        Command::new(bin())
            .arg("demo")
            .env("CAMPUS_DATA_DIR", data.path())
            .env("HUB_PORT", hub.to_string())
            .env("TUTOR_PORT", tutor.to_string())
            .env("LIBRARY_PORT", library.to_string())
            .env("PROFESSOR_PORT", professor.to_string())
            .env("UI_PORT", ui.to_string())
            .env("HEARTBEAT_INTERVAL_MS", "100")
            .env("RUST_LOG", "info"),
    );
    let mut wait_line = |pred: &dyn Fn(&str) -> bool, what: &str| out.wait(pred, what);
    let ready = wait_line(&|l| l.contains("all agents ready"), "all agents ready");
    let hub_url = format!("http://127.0.0.1:{hub}");
    assert!(ready.contains(&hub_url), "{ready}");
    let ui_url = format!("http://127.0.0.1:{ui}");
    assert!(ready.contains(&format!("ui {ui_url} (pid ")), "{ready}");
    let (code, _) = http_json("GET", &format!("{ui_url}/api/ui/health"), None);
    assert_eq!(code, 200);
    // "ready" means ready to answer: the Hub has seen every specialist register by then
    let (_, reg) = http_json("GET", &format!("{hub_url}/dev/registry"), None);
    let registered = reg["specialists"].as_array().unwrap().iter().filter(|s| s["status"] == "ready").count();
    assert_eq!(registered, 3, "{reg}");
    let (ok, out, _) =
        testkit::run(&["student", "What are the library hours on Monday?"], &[("HUB_URL", &hub_url)]);
    assert!(ok && out.contains("Monday"), "{out}");

    // a child that dies is reported, and the others keep running
    let library_pid = ready
        .split("library ")
        .nth(1)
        .and_then(|s| s.split("(pid ").nth(1))
        .and_then(|s| s.split(')').next())
        .unwrap()
        .to_string();
    assert!(Command::new("kill").args(["-KILL", &library_pid]).status().unwrap().success());
    let died = wait_line(&|l| l.contains("library exited on its own"), "the library's death");
    assert!(died.contains("[     demo]"), "{died}");

    // one SIGINT to the launcher: the tutor signs out, the hub stops last, all exit
    assert!(Command::new("kill").args(["-INT", &demo.id().to_string()]).status().unwrap().success());
    wait_line(
        &|l| l.contains("[      hub]") && l.contains("specialist signed out") && l.contains("tutor"),
        "the tutor's sign-out",
    );
    wait_line(&|l| l.contains("all agents stopped"), "the end");
    let status = demo.wait().unwrap();
    assert!(status.success(), "{status}");
    let (code, _) = http_json("GET", &format!("{hub_url}/dev/registry"), None);
    assert_eq!(code, 0, "the hub is gone");
    let (code, _) = http_json("GET", &format!("{ui_url}/api/ui/health"), None);
    assert_eq!(code, 0, "the ui server is gone");
}
