//! `campus demo`: every agent that exists, each as its own child process (this same
//! binary), with prefixed and coloured output.
//!
//! The children never outlive the launcher. Ctrl+C, SIGTERM or SIGHUP to the launcher
//! stops them in order (specialists first, so their sign-out reaches a Hub still up); a
//! child that cannot start (a taken port, a bad configuration) stops them all and the
//! demo exits non-zero; if the launcher is killed outright, each child gets SIGTERM from
//! the kernel (`CAMPUS_PARENT_PID`, see `lifecycle::follow_parent`) and stops gracefully.
//! A child that exits on its own after it was ready is reported, never hidden.

use std::io::{IsTerminal, Write};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use anyhow::Context;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use crate::lifecycle::{PARENT_PID_VAR, PORT_VAR_VAR, stop_signal};

mod fake_script;
pub(crate) use fake_script::fake_script;

/// How many agents the demo runs (the fake model server, when asked for, comes after them).
const N: usize = 5;

/// One child process: name (its subcommand), colour, port variable, default port.
type Spec = (&'static str, &'static str, &'static str, u16);

/// The processes the demo runs, in start order (start order does not matter: specialists
/// keep retrying registration, the UI server keeps following the Hub). The Hub first.
const AGENTS: [Spec; N] = [
    ("hub", "35", "HUB_PORT", hub::DEFAULT_PORT),
    ("tutor", "32", "TUTOR_PORT", tutor::DEFAULT_PORT),
    ("library", "36", "LIBRARY_PORT", library::DEFAULT_PORT),
    ("professor", "91", "PROFESSOR_PORT", professor::DEFAULT_PORT),
    ("ui", "33", "UI_PORT", ui::DEFAULT_PORT),
];
/// The UI server's index in [`AGENTS`].
const UI: usize = 4;

/// `--fake-model`: `campus fake-anthropic` with the demo's script, after the agents.
const FAKE: Spec = ("fake-anthropic", "34", "FAKE_ANTHROPIC_PORT", llm::fake::DEFAULT_PORT);

/// Each agent's live mode: the process it runs in, the variable, the live value. An agent
/// whose live mode lands is one line here (the Library: `LIBRARY_MODE`; the Student, in
/// the UI server: `STUDENT_MODE`).
pub(crate) const LIVE_MODES: &[(&str, &str, &str)] = &[
    ("hub", "ROUTER_MODE", "live"),
    ("tutor", "TUTOR_MODE", "live"),
    ("library", "LIBRARY_MODE", "live"),
    ("professor", "PROFESSOR_MODE", "live"),
    ("ui", "STUDENT_MODE", "live"),
];

/// The placeholder key `--fake-model` gives every agent: the fake takes any key, and an
/// exported real key is never sent to it.
pub(crate) const FAKE_KEY: &str = "fake-key-for-campus-fake-anthropic";

/// How the demo's agents answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Models {
    /// Each agent's default (offline) mode.
    Default,
    /// `--live`: every agent in live mode against the provider (a key is required).
    Live,
    /// `--fake-model`: every agent in live mode against `campus fake-anthropic`.
    Fake,
}

impl Models {
    fn describe(self) -> &'static str {
        match self {
            Models::Default => "on mock models",
            Models::Live => "in live mode (questions and recent history go to the model provider)",
            Models::Fake => {
                "in live mode against the fake model server (no key, nothing leaves this machine)"
            }
        }
    }
}

/// Before anything starts: `--live` needs a key in `ANTHROPIC_API_KEY` (exported, or in
/// `.env`); without one the demo stops here, naming the variable.
pub(crate) fn check_live_key(env: &dyn Fn(&str) -> Option<String>) -> Result<(), conf::ConfError> {
    match llm::load_key(llm::DEFAULT_KEY_VAR, env, std::path::Path::new(".env"))? {
        Some(_) => Ok(()),
        None => Err(conf::ConfError::new(
            llm::DEFAULT_KEY_VAR,
            "",
            "is not set (export it or put it in .env); campus demo --live started nothing. \
             To watch live mode without a key: campus demo --fake-model",
        )),
    }
}

/// The question the ready hint suggests (the mock router sends it to the Tutor).
const TRY_QUESTION: &str = "what is the derivative of x^2";

/// `campus demo --help`: the port variables and their defaults, and how it stops.
pub(crate) fn ports_help() -> String {
    let mut help = String::from("Ports (on 127.0.0.1):\n");
    for (name, _, var, port) in AGENTS.into_iter().chain([FAKE]) {
        help.push_str(&format!("  {var:<19} the {name} (default {port})\n"));
    }
    help.push_str(
        "\nCtrl+C, SIGTERM or SIGHUP stops every agent (the specialists sign out from the Hub first);\n\
         if the demo itself is killed, its agents are stopped by the kernel. A child that cannot\n\
         start (a taken port, a bad configuration) stops the demo: exit code 1, or 78 for a bad\n\
         configuration value or file.",
    );
    help
}

/// The children's ports: `HUB_PORT`, `TUTOR_PORT`, `LIBRARY_PORT`, `PROFESSOR_PORT`, `UI_PORT`
/// (`FAKE_ANTHROPIC_PORT` for the fake) or the defaults.
fn ports(specs: &[Spec]) -> Result<Vec<u16>, conf::ConfError> {
    let mut ports = Vec::with_capacity(specs.len());
    for (_, _, var, default) in specs {
        let port =
            conf::env_parse::<u16>(var, &crate::env, "a port number from 1 to 65535")?.unwrap_or(*default);
        if port == 0 {
            return Err(conf::ConfError::new(*var, "", "0 is not a port number from 1 to 65535"));
        }
        ports.push(port);
    }
    Ok(ports)
}

/// Whether a child gets the launcher's variable `name`: the system's basics (`PATH`,
/// `HOME`, the locale, `TMPDIR`, …), Campus's own (`CAMPUS_*`, `HUB_*`, `TUTOR_*`, …,
/// `RUST_LOG`) and, only in `--live` mode, the provider's (`ANTHROPIC_*`, and a key
/// variable an agent's config may name, `*_API_KEY`). Nothing else reaches a child: no
/// `GITHUB_TOKEN`, no `DB_PASSWORD`, no variable it has no use for.
fn passed_to_children(name: &str, models: Models) -> bool {
    const SYSTEM: [&str; 10] =
        ["PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR", "TERM", "NO_COLOR", "SSL_CERT_FILE", "SSL_CERT_DIR"];
    const PROXY: [&str; 6] = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"];
    const CAMPUS: [&str; 11] = [
        "CAMPUS_",
        "HUB_",
        "TUTOR_",
        "LIBRARY_",
        "PROFESSOR_",
        "STUDENT_",
        "ROUTER_",
        "UI_",
        "HEARTBEAT_",
        "SPECIALIST_",
        "RUST_",
    ];
    let live = models == Models::Live
        && (name.starts_with("ANTHROPIC_") || name.ends_with("_API_KEY") || PROXY.contains(&name));
    let campus = CAMPUS.iter().any(|p| name.starts_with(p)) && !is_credential(name);
    SYSTEM.contains(&name) || name.starts_with("LC_") || campus || live
}

/// Whether an environment variable's name says it holds a credential (`ANTHROPIC_API_KEY`,
/// `GITHUB_TOKEN`, `DB_PASSWORD`, …): only a child that calls the real provider gets those.
fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_uppercase().replace("PUBLIC_KEY", "");
    ["KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL"].iter().any(|w| name.contains(w))
}

/// Each child's environment: its own `PORT`, where the others are, what ties it to this
/// launcher, and in live modes its live mode variable (and, with the fake, where the
/// model is and a placeholder key).
fn child_env(index: usize, specs: &[Spec], ports: &[u16], models: Models) -> Vec<(&'static str, String)> {
    let url = |i: usize| format!("http://127.0.0.1:{}", ports[i]);
    let name = specs[index].0;
    let mut env = vec![
        ("PORT", ports[index].to_string()),
        (PORT_VAR_VAR, specs[index].2.to_string()),
        (PARENT_PID_VAR, std::process::id().to_string()),
    ];
    match name {
        "hub" => {
            env.push(("TUTOR_URL", url(1)));
            env.push(("LIBRARY_URL", url(2)));
            env.push(("PROFESSOR_URL", url(3)));
        }
        "fake-anthropic" => return env,
        _ => env.push(("HUB_URL", url(0))),
    }
    if models != Models::Default {
        env.extend(
            LIVE_MODES
                .iter()
                .filter(|(agent, ..)| *agent == name)
                .map(|(_, var, value)| (*var, value.to_string())),
        );
    }
    if models == Models::Fake {
        let fake = specs.iter().position(|s| s.0 == FAKE.0).expect("the fake is started with --fake-model");
        env.push(("ANTHROPIC_BASE_URL", url(fake)));
        env.push((llm::DEFAULT_KEY_VAR, FAKE_KEY.to_string()));
    }
    env
}

/// A child that could not start: the demo stopped the others and exits non-zero.
#[derive(Debug)]
pub(crate) struct StartFailed {
    agent: &'static str,
    port: u16,
    status: ExitStatus,
    /// The child stopped on a configuration error (its exit code 78): so does the demo.
    pub(crate) config: bool,
}

impl std::fmt::Display for StartFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the {} (port {}) exited before it was ready ({})", self.agent, self.port, self.status)
    }
}

impl std::error::Error for StartFailed {}

enum Note {
    Ready(&'static str, String),
    Exited(&'static str, ExitStatus),
}

fn paint(colour: &str, text: &str) -> String {
    if std::io::stdout().is_terminal() { format!("\x1b[{colour}m{text}\x1b[0m") } else { text.to_string() }
}

/// Prints a line; a closed terminal (after SIGHUP) or pipe must not stop the shutdown.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout(), "{line}");
}

fn pipe(
    name: &'static str,
    colour: &'static str,
    stream: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    notes: Option<mpsc::UnboundedSender<Note>>,
) {
    tokio::spawn(async move {
        let mut lines = BufReader::new(stream).lines();
        let prefix = paint(colour, &format!("[{name:>9}]"));
        while let Ok(Some(line)) = lines.next_line().await {
            if let (Some(tx), Some(url)) = (&notes, line.split(" listening on ").nth(1)) {
                let _ = tx.send(Note::Ready(name, url.trim().to_string()));
            }
            say(&format!("{prefix} {line}"));
        }
    });
}

fn signal_all(pids: &[Option<u32>], signal: Signal) {
    for pid in pids.iter().flatten() {
        if let Ok(pid) = i32::try_from(*pid) {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }
}

/// A command that asks the demo's Hub, runnable from where the demo was started.
fn try_hint(hub_port: u16) -> String {
    let hub_url = if hub_port == hub::DEFAULT_PORT {
        String::new()
    } else {
        format!("HUB_URL=http://127.0.0.1:{hub_port} ")
    };
    format!("try: {hub_url}{} student {TRY_QUESTION}", campus_command())
}

/// `campus` when that name on PATH is this binary; else this binary's path, relative to
/// the current directory when it is inside it (`./target/release/campus` in a checkout).
fn campus_command() -> String {
    let Ok(exe) = std::env::current_exe().and_then(|e| e.canonicalize()) else {
        return "campus".into();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| dir.join("campus").canonicalize().is_ok_and(|p| p == exe))
    });
    if on_path {
        return "campus".into();
    }
    let cwd = std::env::current_dir().and_then(|d| d.canonicalize()).ok();
    let shown = match cwd.as_ref().and_then(|d| exe.strip_prefix(d).ok()) {
        Some(rel) => format!("./{}", rel.display()),
        None => exe.display().to_string(),
    };
    if shown.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%=".contains(c)) {
        shown
    } else {
        format!("'{}'", shown.replace('\'', r"'\''"))
    }
}

/// Where the launcher is in stopping its children.
struct Stop {
    stopping: bool,
    hub_signalled: bool,
    /// SIGKILL sent to whoever had not stopped 5 s after the last SIGINT.
    killed: bool,
}

pub(crate) async fn run(models: Models) -> anyhow::Result<()> {
    if models == Models::Live {
        check_live_key(&crate::env)?;
    }
    let mut specs: Vec<Spec> = AGENTS.to_vec();
    if models == Models::Fake {
        specs.push(FAKE);
    }
    let specs = specs;
    let ports = ports(&specs)?;
    let exe = std::env::current_exe().context("could not find the campus binary")?;
    // Before any child exists, so a stop request is never the default (immediate) death.
    let stop_requested = stop_signal().context("could not listen for signals")?;
    tokio::pin!(stop_requested);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut children: Vec<(&'static str, Child)> = Vec::new();
    for (i, &(name, colour, _, _)) in specs.iter().enumerate() {
        // Spawned here, on the thread block_on runs (see main): the children's
        // parent-death signal follows this thread.
        let args: &[&str] = if name == FAKE.0 { &[name, "--demo-script"] } else { &[name] };
        let mut command = Command::new(&exe);
        // only what a child needs (offline or against the fake, no credential of the
        // launcher's: the fake's agents get a placeholder key below)
        command.env_clear();
        command.envs(std::env::vars().filter(|(var, _)| passed_to_children(var, models)));
        let spawned = command
            .args(args)
            .envs(child_env(i, &specs, &ports, models))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Own process group: a terminal's Ctrl+C reaches only the launcher, which
            // stops the specialists first and the Hub last.
            .process_group(0)
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                // kill_on_drop stops the ones already started
                return Err(anyhow::anyhow!("could not start campus {name}: {e}"));
            }
        };
        pipe(name, colour, child.stdout.take().context("no stdout")?, Some(tx.clone()));
        pipe(name, colour, child.stderr.take().context("no stderr")?, None);
        children.push((name, child));
    }
    let pids: Vec<Option<u32>> = children.iter().map(|(_, c)| c.id()).collect();
    let demo = paint("1", "[     demo]");
    let started: Vec<String> =
        children.iter().map(|(n, c)| format!("{n} (pid {})", c.id().unwrap_or(0))).collect();
    say(&format!("{demo} started {} {}; Ctrl+C stops them all", started.join(", "), models.describe()));
    for (name, mut child) in children {
        let tx = tx.clone();
        tokio::spawn(async move {
            if let Ok(status) = child.wait().await {
                let _ = tx.send(Note::Exited(name, status));
            }
        });
    }
    drop(tx);

    let mut ready: Vec<(&str, String)> = Vec::new();
    let mut running: Vec<&str> = specs.iter().map(|(n, ..)| *n).collect();
    let mut failed: Option<StartFailed> = None;
    let mut stop = Stop { stopping: false, hub_signalled: false, killed: false };
    let hub_deadline = tokio::time::sleep(Duration::from_secs(3600));
    tokio::pin!(hub_deadline);
    // once every process is up: whether the Hub saw every specialist register in time
    let (registered_tx, mut registered_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
    // Specialists first, so their sign-out reaches a Hub that is still up; the Hub when
    // they are gone (or after 5 s at the latest).
    let begin_stop = |stop: &mut Stop, running: &[&str], deadline: std::pin::Pin<&mut tokio::time::Sleep>| {
        stop.stopping = true;
        signal_all(&pids[1..], Signal::SIGINT);
        deadline.reset(tokio::time::Instant::now() + Duration::from_secs(5));
        if running == ["hub"] || running.is_empty() {
            stop.hub_signalled = true;
            signal_all(&pids[..1], Signal::SIGINT);
        }
    };
    loop {
        tokio::select! {
            note = rx.recv() => match note {
                Some(Note::Ready(name, url)) => {
                    let pid = specs.iter().position(|a| a.0 == name).and_then(|i| pids[i]).unwrap_or(0);
                    ready.push((name, format!("{name} {url} (pid {pid})")));
                    if ready.len() == specs.len() && !stop.stopping {
                        // a question asked now would find no specialist yet: wait for the
                        // Hub to see them register before saying the university is ready
                        let tx = registered_tx.clone();
                        let hub = ports[0];
                        tokio::spawn(async move {
                            let _ = tx.send(measure::wait_registered(hub).await);
                        });
                    }
                }
                Some(Note::Exited(name, status)) => {
                    running.retain(|n| *n != name);
                    let was_ready = ready.iter().any(|(n, _)| *n == name);
                    if !stop.stopping && !was_ready {
                        let i = specs.iter().position(|a| a.0 == name).unwrap_or(0);
                        let f = StartFailed {
                            agent: name,
                            port: ports[i],
                            status,
                            config: status.code() == Some(78),
                        };
                        say(&format!("{demo} {}", paint("31", &format!("error: {f}; stopping every agent"))));
                        failed = Some(f);
                        begin_stop(&mut stop, &running, hub_deadline.as_mut());
                    } else if !stop.stopping {
                        let msg = format!("{name} exited on its own ({status}); the other agents keep running");
                        say(&format!("{demo} {}", paint("31", &msg)));
                    }
                    if stop.stopping && !stop.hub_signalled && running == ["hub"] {
                        stop.hub_signalled = true;
                        signal_all(&pids[..1], Signal::SIGINT);
                        hub_deadline.as_mut().reset(tokio::time::Instant::now() + Duration::from_secs(5));
                    }
                    if running.is_empty() {
                        break;
                    }
                }
                None => break,
            },
            Some(all_registered) = registered_rx.recv() => {
                if !stop.stopping {
                    if !all_registered {
                        let msg = "the hub has not seen every specialist register yet; until it does, questions for them are answered 'unavailable'";
                        say(&format!("{demo} {}", paint("33", msg)));
                    }
                    ready.sort_by_key(|(n, _)| specs.iter().position(|a| a.0 == *n));
                    let list: Vec<&str> = ready.iter().map(|(_, r)| r.as_str()).collect();
                    say(&format!("{demo} all agents ready: {}", list.join(", ")));
                    say(&format!("{demo} open http://127.0.0.1:{} in a browser", ports[UI]));
                    say(&format!("{demo} {}", try_hint(ports[0])));
                }
            }
            signal = &mut stop_requested, if !stop.stopping => {
                say(&format!("{demo} {signal}: stopping every agent (specialists sign out from the hub)"));
                begin_stop(&mut stop, &running, hub_deadline.as_mut());
            }
            _ = &mut hub_deadline, if stop.stopping && !stop.killed => {
                if stop.hub_signalled {
                    // still running 5 s after its SIGINT: it does not outlive the demo
                    say(&format!("{demo} {} did not stop in time; killing it", running.join(", ")));
                    stop.killed = true;
                    let left: Vec<Option<u32>> = specs
                        .iter()
                        .zip(&pids)
                        .filter(|(a, _)| running.contains(&a.0))
                        .map(|(_, p)| *p)
                        .collect();
                    signal_all(&left, Signal::SIGKILL);
                } else {
                    stop.hub_signalled = true;
                    signal_all(&pids, Signal::SIGINT);
                    hub_deadline.as_mut().reset(tokio::time::Instant::now() + Duration::from_secs(5));
                }
            }
        }
    }
    say(&format!("{demo} all agents stopped"));
    match failed {
        Some(f) => Err(f.into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_gets_the_system_basics_and_campus_variables_and_no_credential_unless_live() {
        for m in [Models::Default, Models::Fake, Models::Live] {
            for var in
                ["PATH", "HOME", "LC_ALL", "RUST_LOG", "CAMPUS_DATA_DIR", "HUB_PUBLIC_KEY", "TUTOR_MODE"]
            {
                assert!(passed_to_children(var, m), "{var} {m:?}");
            }
            for var in [
                "GITHUB_TOKEN",
                "DB_PASSWORD",
                "AWS_SECRET_ACCESS_KEY",
                "OLDPWD",
                "SSH_AUTH_SOCK",
                "HUB_TOKEN",
            ] {
                assert!(!passed_to_children(var, m), "{var} {m:?}");
            }
        }
        for var in ["ANTHROPIC_API_KEY", "MY_PROVIDER_API_KEY", "ANTHROPIC_BASE_URL", "HTTPS_PROXY"] {
            assert!(passed_to_children(var, Models::Live), "{var}");
            assert!(!passed_to_children(var, Models::Default), "{var}");
            assert!(!passed_to_children(var, Models::Fake), "{var}");
        }
    }
}
