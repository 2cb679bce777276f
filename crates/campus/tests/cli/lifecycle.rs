//! Processes that never outlive the demo: however the launcher ends (SIGINT, SIGTERM,
//! SIGHUP, SIGKILL), every child is gone (checked by process group) and every port is
//! free again; a taken port stops an agent at once with one line naming it, and stops the
//! demo; a standalone specialist signs out on SIGTERM and SIGHUP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use testkit::{FAST, Proc, TempDir, University, bin, feed_events, free_port, poll, run};

/// A running `campus demo` with its stdout lines on a channel.
struct Demo {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    ports: [u16; 5],
    _data: TempDir,
}

impl Demo {
    fn start(ports: [u16; 5]) -> Demo {
        let data = TempDir::new();
        let mut child = Command::new(bin())
            .arg("demo")
            .env("CAMPUS_DATA_DIR", data.path())
            .env("HUB_PORT", ports[0].to_string())
            .env("TUTOR_PORT", ports[1].to_string())
            .env("LIBRARY_PORT", ports[2].to_string())
            .env("UI_PORT", ports[3].to_string())
            .env("PROFESSOR_PORT", ports[4].to_string())
            .env(FAST[0].0, FAST[0].1)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Demo { child, lines, seen: Vec::new(), ports, _data: data }
    }

    /// The next line that satisfies `pred` (30 s at most).
    fn wait_line(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(30)) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no line {what}; output: {:#?}", self.seen),
            }
        }
    }

    /// Every line until the demo's stdout closes.
    fn rest(&mut self) -> String {
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(30)) {
            self.seen.push(line);
        }
        self.seen.join("\n")
    }

    /// The children's pids, from the launcher's `started hub (pid N), …` line.
    fn child_pids(&mut self) -> Vec<i32> {
        let line = self.wait_line("started", |l| l.contains("[     demo] started"));
        let pids = pids_in(&line);
        assert_eq!(pids.len(), 5, "{line}");
        pids
    }

    fn signal(&self, signal: &str) {
        let ok = Command::new("kill").args([signal, &self.child.id().to_string()]).status().unwrap();
        assert!(ok.success());
    }

    fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the demo did not exit: {:#?}", self.seen);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn pids_in(line: &str) -> Vec<i32> {
    line.split("(pid ").skip(1).filter_map(|s| s.split(')').next()?.parse().ok()).collect()
}

/// Live (not zombie) processes in process group `pgid`, from /proc. A zombie holds no
/// port and runs nothing: an orphan whose new parent does not reap it stays one.
fn live_in_group(pgid: i32) -> Vec<i32> {
    let mut live = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let (state, pgrp) = (fields.first().copied(), fields.get(2).and_then(|p| p.parse::<i32>().ok()));
        if pgrp == Some(pgid) && !matches!(state, Some("Z" | "X")) {
            live.push(pid);
        }
    }
    live
}

fn bindable(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

/// Every child's process group is empty and every port can be bound again.
fn assert_all_gone(pids: &[i32], ports: &[u16]) {
    // each child leads its own process group
    let deadline = Instant::now() + Duration::from_secs(15);
    let live = || pids.iter().flat_map(|pid| live_in_group(*pid)).collect::<Vec<_>>();
    while !live().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = live();
    for pid in &left {
        // a failed test leaves nothing behind either
        let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    }
    assert!(left.is_empty(), "processes left behind: {left:?}");
    for port in ports {
        poll(15, &format!("port {port} to be free"), || bindable(*port).then_some(()));
    }
}

fn ends_cleanly_on(signal: &str) {
    let mut demo = Demo::start([free_port(), free_port(), free_port(), free_port(), free_port()]);
    let pids = demo.child_pids();
    let ready = demo.wait_line("all agents ready", |l| l.contains("all agents ready"));
    let ui = format!("http://127.0.0.1:{}", demo.ports[3]);
    assert!(ready.contains(&format!("ui {ui} (pid ")), "{ready}");
    assert_eq!(pids_in(&ready), pids, "the ready line names the same pids");
    for pid in &pids {
        assert_eq!(live_in_group(*pid), vec![*pid], "each child leads its own process group");
    }
    if signal == "-INT" {
        // the address to open serves the page
        let open = demo.wait_line("the address to open", |l| l.contains("in a browser"));
        assert!(open.contains(&format!("open {ui} in a browser")), "{open}");
        let (code, health) = testkit::http_json("GET", &format!("{ui}/api/ui/health"), None);
        assert_eq!((code, &health["ok"]), (200, &serde_json::json!(true)), "{health}");
        // the hint is a command that works as printed, on the ports in use
        let hint = demo.wait_line("the hint", |l| l.contains("try: "));
        let command = hint.split("try: ").nth(1).unwrap();
        assert!(command.starts_with(&format!("HUB_URL=http://127.0.0.1:{} ", demo.ports[0])), "{hint}");
        testkit::poll(15, "every specialist ready", || {
            let (_, reg) =
                testkit::http_json("GET", &format!("http://127.0.0.1:{}/dev/registry", demo.ports[0]), None);
            let ready = reg["specialists"].as_array()?.iter().filter(|s| s["status"] == "ready").count();
            (ready == 3).then_some(())
        });
        let out = Command::new("sh").args(["-c", command]).output().unwrap();
        let answer = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{hint}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(answer.starts_with("Campus University (fictional demo) · Tutor Agent: "), "{answer}");
    }
    demo.signal(signal);
    let status = demo.wait();
    if signal == "-KILL" {
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    } else {
        let name = signal.trim_start_matches('-');
        let out = demo.rest();
        assert!(status.success(), "{status}: {out}");
        assert!(out.contains(&format!("SIG{name}: stopping every agent")), "{out}");
        assert!(out.contains("all agents stopped"), "{out}");
    }
    assert_all_gone(&pids, &demo.ports);
}

#[test]
fn sigint_to_the_demo_leaves_nothing_behind() {
    ends_cleanly_on("-INT");
}

#[test]
fn sigterm_to_the_demo_leaves_nothing_behind() {
    ends_cleanly_on("-TERM");
}

#[test]
fn sighup_to_the_demo_leaves_nothing_behind() {
    ends_cleanly_on("-HUP");
}

#[test]
fn sigkill_of_the_demo_leaves_nothing_behind() {
    ends_cleanly_on("-KILL");
}

#[test]
fn a_taken_port_stops_the_agent_with_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (ok, out, err) = run(&["tutor"], &[("PORT", &port), ("HUB_URL", "http://127.0.0.1:9")]);
    assert!(!ok && out.is_empty(), "{out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {err}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains(&format!("port {port} ")), "{err}");
    assert!(lines[0].contains("already in use") && lines[0].ends_with("set PORT"), "{err}");
}

#[test]
fn a_taken_port_stops_the_demo_and_every_child() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let tutor_port = taken.local_addr().unwrap().port();
    let ports = [free_port(), tutor_port, free_port(), free_port(), free_port()];
    let mut demo = Demo::start(ports);
    let pids = demo.child_pids();
    let status = demo.wait();
    let out = demo.rest();
    assert_eq!(status.code(), Some(1), "{out}");
    // the tutor's own line names the port and the variable that moves it
    assert!(
        out.contains(&format!(
            "[    tutor] error: could not bind port {tutor_port} for the tutor: it is already in use"
        )) && out.contains("set TUTOR_PORT"),
        "{out}"
    );
    assert!(
        out.contains(&format!("error: the tutor (port {tutor_port}) exited before it was ready")),
        "{out}"
    );
    assert!(!out.contains("all agents ready"), "{out}");
    assert!(out.contains("all agents stopped"), "{out}");
    assert_all_gone(&pids, &[ports[0], ports[2], ports[3], ports[4]]);
}

#[test]
fn a_bad_port_variable_is_a_configuration_error() {
    let (ok, _, err) = run(&["demo"], &[("TUTOR_PORT", "forty")]);
    assert!(!ok);
    assert_eq!(err.trim(), "error: TUTOR_PORT: \"forty\" is not a port number from 1 to 65535");
    let out = Command::new(bin()).arg("hub").env("CAMPUS_WORKER_THREADS", "many").output().unwrap();
    assert_eq!(out.status.code(), Some(78));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim(), "error: CAMPUS_WORKER_THREADS: \"many\" is not a number from 1 to 64");
    let out = Command::new(bin()).arg("demo").env("HUB_PORT", "0").output().unwrap();
    assert_eq!(out.status.code(), Some(78), "{}", String::from_utf8_lossy(&out.stderr));
    // the Library's fixed clock for tests: no instant stops it before it is ready
    let out = Command::new(bin())
        .arg("library")
        .env("PORT", "0")
        .env("LIBRARY_CLOCK", "tomorrow")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(78), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: LIBRARY_CLOCK: not an rfc 3339 instant"), "{err}");
    assert!(out.stdout.is_empty(), "no ready line");
    // a composition mode that does not exist
    let out =
        Command::new(bin()).arg("library").env("PORT", "0").env("LIBRARY_UI", "tiles").output().unwrap();
    assert_eq!(out.status.code(), Some(78), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: LIBRARY_UI") && err.contains("catalog"), "{err}");
    assert!(out.stdout.is_empty(), "no ready line");
}

#[test]
fn a_child_whose_launcher_is_gone_does_not_start() {
    // pid 1 is never this test's pid: the launcher named is not the parent
    let out =
        Command::new(bin()).arg("tutor").env("PORT", "0").env("CAMPUS_PARENT_PID", "1").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "it never got as far as its ready line");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("launcher") && err.contains("gone"), "{err}");
}

#[test]
fn a_standalone_specialist_signs_out_on_sigterm_and_sighup() {
    let mut u = University::start(&[], &[]);
    u.wait_ready();
    for (id, signal) in [("tutor", "-TERM"), ("library", "-HUP")] {
        let pid = if id == "tutor" { u.tutor.pid() } else { u.library.pid() };
        assert!(Command::new("kill").args([signal, &pid.to_string()]).status().unwrap().success());
        u.wait_status(id, "disconnected");
        let proc = if id == "tutor" { &mut u.tutor } else { &mut u.library };
        poll(10, &format!("the {id} to exit"), || (!proc.is_running()).then_some(()));
        let signal_name = format!("signal=\"SIG{}\"", signal.trim_start_matches('-'));
        proc.wait_for_log(|l| l.contains("shutting down") && l.contains(&signal_name));
        proc.wait_for_log(|l| l.contains("signed out from the hub"));
    }
}

#[test]
fn demo_help_lists_the_port_variables() {
    let (ok, out, _) = run(&["demo", "--help"], &[]);
    assert!(ok);
    for (var, port) in [
        ("HUB_PORT", 41243),
        ("TUTOR_PORT", 41241),
        ("LIBRARY_PORT", 41242),
        ("PROFESSOR_PORT", 41244),
        ("UI_PORT", 4444),
    ] {
        assert!(out.lines().any(|l| l.contains(var) && l.contains(&format!("default {port}"))), "{out}");
    }
}

#[test]
fn a_child_that_does_not_stop_is_killed() {
    let mut demo = Demo::start([free_port(), free_port(), free_port(), free_port(), free_port()]);
    let pids = demo.child_pids();
    demo.wait_line("all agents ready", |l| l.contains("all agents ready"));
    // a stopped process acts on no SIGINT; SIGKILL still ends it
    assert!(Command::new("kill").args(["-STOP", &pids[1].to_string()]).status().unwrap().success());
    demo.signal("-INT");
    let status = demo.wait();
    let out = demo.rest();
    assert!(status.success(), "{out}");
    assert!(out.contains("tutor did not stop in time; killing it"), "{out}");
    assert_all_gone(&pids, &demo.ports);
}

#[test]
fn a_child_with_a_bad_configuration_stops_the_demo_with_78() {
    let ports = [free_port(), free_port(), free_port(), free_port(), free_port()];
    let data = TempDir::new();
    let out = Command::new(bin())
        .arg("demo")
        .env("CAMPUS_DATA_DIR", data.path())
        .env("HUB_PORT", ports[0].to_string())
        .env("TUTOR_PORT", ports[1].to_string())
        .env("LIBRARY_PORT", ports[2].to_string())
        .env("UI_PORT", ports[3].to_string())
        .env("PROFESSOR_PORT", ports[4].to_string())
        .env("TUTOR_CONFIG", "/nonexistent/tutor.json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(78), "{stdout}");
    assert!(
        stdout.contains("[    tutor] error: TUTOR_CONFIG=/nonexistent/tutor.json: the file does not exist"),
        "{stdout}"
    );
    assert!(stdout.contains("error: the tutor (port"), "{stdout}");
    let pids = pids_in(stdout.lines().find(|l| l.contains("[     demo] started")).unwrap());
    assert_all_gone(&pids, &ports);
}

#[test]
fn a_specialist_the_hub_expects_elsewhere_says_so_once() {
    // the Hub trusts the Tutor at a port where nothing runs; this Tutor runs on another
    let elsewhere = format!("http://127.0.0.1:{}", free_port());
    let hub = Proc::start(&["hub"], &[("TUTOR_URL", &elsewhere), FAST[0], FAST[1]]);
    let tutor = Proc::start(&["tutor"], &[("HUB_URL", &hub.url), FAST[0]]);
    poll(10, "three refused registrations", || {
        let refused = feed_events(&tutor.url).iter().filter(|e| e["kind"] == "registration_refused").count();
        (refused >= 3).then_some(())
    });
    let warned: Vec<String> =
        tutor.stderr().into_iter().filter(|l| l.contains("expects this agent at another address")).collect();
    assert_eq!(warned.len(), 1, "one warning, not one per retry: {warned:?}");
    assert!(warned[0].contains("WARN") && warned[0].contains("endpoint_mismatch"), "{warned:?}");
}
