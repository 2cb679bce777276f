//! `campus demo`: every agent that exists, each as its own child process (this same
//! binary), with prefixed and coloured output. Ctrl+C (or SIGINT/SIGTERM to the
//! launcher) is passed on to every child, so each specialist signs out from the Hub; a
//! child that exits on its own is reported, never hidden.

use std::io::IsTerminal;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use anyhow::Context;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

/// The agents the demo runs (name, colour, port variable, default port), in start order
/// (start order does not matter: specialists keep retrying registration).
const AGENTS: [(&str, &str, &str, u16); 3] = [
    ("hub", "35", "HUB_PORT", hub::DEFAULT_PORT),
    ("tutor", "32", "TUTOR_PORT", tutor::DEFAULT_PORT),
    ("library", "36", "LIBRARY_PORT", library::DEFAULT_PORT),
];

/// Each child's environment: its own `PORT`, and where the others are.
fn child_env(name: &str) -> anyhow::Result<Vec<(String, String)>> {
    let mut ports = Vec::new();
    for (agent, _, var, default) in AGENTS {
        let port = match std::env::var(var).ok().filter(|v| !v.is_empty()) {
            None => default,
            Some(v) => v.parse::<u16>().map_err(|_| anyhow::anyhow!("{var}: {v:?} is not a port number"))?,
        };
        ports.push((agent, port));
    }
    let url = |agent: &str| {
        let port = ports.iter().find(|(a, _)| *a == agent).map(|(_, p)| *p).unwrap_or(0);
        format!("http://127.0.0.1:{port}")
    };
    let own = ports.iter().find(|(a, _)| *a == name).map(|(_, p)| *p).unwrap_or(0);
    let mut env = vec![("PORT".to_string(), own.to_string())];
    if name == "hub" {
        env.push(("TUTOR_URL".into(), url("tutor")));
        env.push(("LIBRARY_URL".into(), url("library")));
    } else {
        env.push(("HUB_URL".into(), url("hub")));
    }
    Ok(env)
}

enum Note {
    Ready(&'static str, String),
    Exited(&'static str, ExitStatus),
}

fn paint(colour: &str, text: &str) -> String {
    if std::io::stdout().is_terminal() { format!("\x1b[{colour}m{text}\x1b[0m") } else { text.to_string() }
}

fn pipe(
    name: &'static str,
    colour: &'static str,
    stream: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    notes: Option<mpsc::UnboundedSender<Note>>,
) {
    tokio::spawn(async move {
        let mut lines = BufReader::new(stream).lines();
        let prefix = paint(colour, &format!("[{name:>7}]"));
        while let Ok(Some(line)) = lines.next_line().await {
            if let (Some(tx), Some(url)) = (&notes, line.split(" listening on ").nth(1)) {
                let _ = tx.send(Note::Ready(name, url.trim().to_string()));
            }
            println!("{prefix} {line}");
        }
    });
}

fn signal_all(children: &[(&str, Option<u32>)], signal: Signal) {
    for (_, pid) in children {
        if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }
}

pub(crate) async fn run() -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("could not find the campus binary")?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut children: Vec<(&'static str, Child)> = Vec::new();
    for (name, colour, _, _) in AGENTS {
        let mut child = Command::new(&exe)
            .arg(name)
            .envs(child_env(name)?)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Own process group: a terminal's Ctrl+C reaches only the launcher, which
            // stops the specialists first and the Hub last.
            .process_group(0)
            .spawn()
            .with_context(|| format!("could not start campus {name}"))?;
        pipe(name, colour, child.stdout.take().context("no stdout")?, Some(tx.clone()));
        pipe(name, colour, child.stderr.take().context("no stderr")?, None);
        children.push((name, child));
    }
    let pids: Vec<(&str, Option<u32>)> = children.iter().map(|(n, c)| (*n, c.id())).collect();
    let pid_of = |name: &str| pids.iter().find(|(n, _)| *n == name).and_then(|(_, p)| *p).unwrap_or(0);
    for (name, mut child) in children {
        let tx = tx.clone();
        tokio::spawn(async move {
            if let Ok(status) = child.wait().await {
                let _ = tx.send(Note::Exited(name, status));
            }
        });
    }
    drop(tx);
    let demo = paint("1", "[   demo]");
    println!("{demo} starting {} agents on mock models; Ctrl+C stops them all", AGENTS.len());

    let mut ready = Vec::new();
    let mut running: Vec<&str> = AGENTS.iter().map(|(n, ..)| *n).collect();
    let mut stopping = false;
    let mut hub_signalled = false;
    let hub_deadline = tokio::time::sleep(Duration::from_secs(3600));
    tokio::pin!(hub_deadline);
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("could not listen for SIGTERM")?;
    let stop_requested = async move {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = sigterm.recv() => {}
        }
    };
    tokio::pin!(stop_requested);
    loop {
        tokio::select! {
            note = rx.recv() => match note {
                Some(Note::Ready(name, url)) => {
                    ready.push(format!("{name} {url} (pid {})", pid_of(name)));
                    if ready.len() == AGENTS.len() {
                        println!("{demo} all agents ready: {}", ready.join(", "));
                        println!("{demo} try: campus student \"How do I find the derivative of x^2?\"");
                    }
                }
                Some(Note::Exited(name, status)) => {
                    running.retain(|n| *n != name);
                    if !stopping {
                        let msg = format!("{name} exited on its own ({status}); the other agents keep running");
                        println!("{demo} {}", paint("31", &msg));
                    }
                    if stopping && !hub_signalled && running == ["hub"] {
                        hub_signalled = true;
                        signal_all(&pids[..1], Signal::SIGINT);
                    }
                    if running.is_empty() {
                        break;
                    }
                }
                None => break,
            },
            _ = &mut stop_requested, if !stopping => {
                stopping = true;
                println!("{demo} stopping every agent (specialists sign out from the hub)");
                // Specialists first, so their sign-out reaches a Hub that is still up;
                // the Hub when they are gone (or after 5 s at the latest).
                signal_all(&pids[1..], Signal::SIGINT);
                hub_deadline.as_mut().reset(tokio::time::Instant::now() + Duration::from_secs(5));
                if running == ["hub"] {
                    hub_signalled = true;
                    signal_all(&pids[..1], Signal::SIGINT);
                }
            }
            _ = &mut hub_deadline, if stopping && !hub_signalled => {
                hub_signalled = true;
                signal_all(&pids, Signal::SIGINT);
            }
        }
    }
    println!("{demo} all agents stopped");
    Ok(())
}
