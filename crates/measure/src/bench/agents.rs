//! The agents as child processes, seen from outside: starting `campus <agent>` and reading
//! its ready line, waiting for the Hub's registry, and what /proc says about a process
//! (CPU time, resident memory), with the wait for the agents to go idle.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Set by a launcher on its children: the launcher's pid, so the child asks the kernel to
/// stop it when the launcher dies. The same variable the `campus` binary's lifecycle reads
/// (crates/campus/src/lifecycle.rs, whose test checks that the two agree).
pub const PARENT_PID_VAR: &str = "CAMPUS_PARENT_PID";

/// The benchmark's Tutor answers with the fixed reply: plumbing, not tutoring, is measured.
pub(crate) fn fixed_mode() -> (&'static str, String) {
    ("TUTOR_MODE", "fixed".into())
}

/// The Hub's operations a specialist began, read from its log (`working on an operation
/// of the hub's operation_id=…`): how many times each, across restarts.
#[derive(Default)]
pub(crate) struct Ops {
    seen: std::sync::Mutex<std::collections::HashMap<String, u32>>,
    total: std::sync::atomic::AtomicU64,
}

impl Ops {
    fn saw(&self, line: &str) {
        let Some(rest) = line.split("operation_id=").nth(1) else { return };
        if !line.contains("working on an operation") {
            return;
        }
        let id = rest.split_whitespace().next().unwrap_or_default().trim_matches('"').to_string();
        *self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(id).or_default() += 1;
        self.total.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Operations begun, counting each time.
    pub(crate) fn total(&self) -> u64 {
        self.total.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Operations begun more than once.
    pub(crate) fn repeated(&self) -> usize {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .filter(|n| **n > 1)
            .count()
    }
}

/// What becomes of a child's standard error: nothing (not read), the lines a filter
/// accepts kept for [`ChildAgent::stderr_lines`], or every line read into [`Ops`].
pub(crate) enum Stderr {
    Ignored,
    Keep(fn(&str) -> bool),
    Ops(Arc<Ops>),
}

/// A child `campus` process, killed on drop.
pub(crate) struct ChildAgent {
    child: Child,
    pub(crate) url: String,
    /// Its standard error's lines, when [`ChildAgent::launch`] was asked to keep them.
    stderr: Option<Arc<Mutex<Vec<String>>>>,
}

impl ChildAgent {
    /// Starts `campus <subcommand>` with `env` and waits for its ready line.
    pub(crate) async fn start(subcommand: &str, log: &str, env: &[(&str, String)]) -> anyhow::Result<Self> {
        Self::launch(&[subcommand], log, env, &data_dir(), Stderr::Ignored).await
    }

    /// [`ChildAgent::start`] at log level info, its log read into `ops`.
    pub(crate) async fn start_watched(
        subcommand: &str,
        env: &[(&str, String)],
        ops: Arc<Ops>,
    ) -> anyhow::Result<Self> {
        Self::launch(&[subcommand], "info", env, &data_dir(), Stderr::Ops(ops)).await
    }

    /// Starts `campus <args>` with `env` in the data folder `data` and waits for its
    /// ready line; its standard error goes where `stderr` says.
    pub(crate) async fn launch(
        args: &[&str],
        log: &str,
        env: &[(&str, String)],
        data: &std::path::Path,
        stderr: Stderr,
    ) -> anyhow::Result<Self> {
        let subcommand = args.first().copied().unwrap_or_default();
        let exe = std::env::current_exe().context("could not find the campus binary")?;
        let mut child = Command::new(exe)
            .args(args)
            .env("PORT", "0")
            .env("RUST_LOG", log)
            // stopped by the kernel if the benchmark is killed (see the campus binary's
            // lifecycle::follow_parent); spawned from the future block_on polls on the main
            // thread, as that requires
            .env(PARENT_PID_VAR, std::process::id().to_string())
            // built-in settings, whatever was saved under the user's data/ folder
            .env("CAMPUS_DATA_DIR", data)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdout(Stdio::piped())
            .stderr(if matches!(stderr, Stderr::Ignored) { Stdio::null() } else { Stdio::piped() })
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("could not start campus {subcommand}"))?;
        let pipe = child.stderr.take();
        let kept = matches!(stderr, Stderr::Keep(_)).then(|| Arc::new(Mutex::new(Vec::new())));
        if let Some(pipe) = pipe {
            let into = kept.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(pipe).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    match (&stderr, &into) {
                        (Stderr::Keep(keep), Some(into)) if keep(&line) => {
                            into.lock().unwrap_or_else(|p| p.into_inner()).push(line)
                        }
                        (Stderr::Ops(ops), _) => ops.saw(&line),
                        _ => {}
                    }
                }
            });
        }
        let stderr = kept;
        let stdout = child.stdout.take().context("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let ready = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(line) = lines.next_line().await? {
                if let Some(url) = line.split(" listening on ").nth(1) {
                    return Ok::<_, std::io::Error>(Some(url.trim().to_string()));
                }
            }
            Ok(None)
        })
        .await;
        match ready {
            Ok(Ok(Some(url))) => Ok(Self { child, url, stderr }),
            Ok(Ok(None)) => bail!("campus {subcommand} exited before it was ready"),
            Ok(Err(e)) => bail!("reading campus {subcommand} output failed: {e}"),
            Err(_) => bail!("campus {subcommand} was not ready within 20 s"),
        }
    }

    /// The lines of its standard error kept so far (none unless launched to keep some).
    pub(crate) fn stderr_lines(&self) -> Vec<String> {
        self.stderr.as_ref().map(|k| k.lock().unwrap_or_else(|p| p.into_inner()).clone()).unwrap_or_default()
    }

    /// How it ended, if it has.
    pub(crate) fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    pub(crate) fn pid(&self) -> Option<u32> {
        self.child.id()
    }
}

/// Polls the Hub's registry until every specialist it knows has registered (ready, or
/// registered as disabled), for up to 10 s; false when that did not happen in time.
pub async fn wait_registered(hub_port: u16) -> bool {
    let url = format!("http://127.0.0.1:{hub_port}/dev/registry");
    let client = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let registered = match client.get(&url).send().await {
            Ok(r) if r.status().is_success() => {
                r.json::<vocab::registry::RegistryView>().await.ok().is_some_and(|view| {
                    use vocab::registry::Status;
                    view.specialists
                        .iter()
                        .all(|s| matches!(s.status, Status::Ready | Status::Disabled | Status::InvalidCard))
                })
            }
            _ => false,
        };
        if registered {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// CPU time (user + system, in clock ticks) a process has used, from /proc (Linux).
pub(crate) fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Waits until the agents are idle (no CPU used over 200 ms; at most 10 s), so one
/// phase's leftovers (the Hub relaying telemetry) do not run into the next.
pub(crate) async fn settle(pids: &[(&str, u32)]) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let total = || pids.iter().filter_map(|(_, p)| cpu_ticks(*p)).sum::<u64>();
    let mut last = total();
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = total();
        if now == last {
            return;
        }
        last = now;
    }
}

/// Resident memory of a process in KiB, from /proc (Linux).
/// Proportional set size: each resident page divided by the number of processes mapping
/// it. The agents are one binary, so RSS counts its code once per process; PSS counts it once.
pub(crate) fn pss_kib(pid: u32) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let line = rollup.lines().find(|l| l.starts_with("Pss:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) fn mb(kib: Option<u64>) -> String {
    kib.map(|k| format!("{:.1} MB", k as f64 / 1024.0)).unwrap_or_else(|| "unknown".into())
}

pub(crate) fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The agents' data folder for one benchmark run: fresh, and removed when it ends.
pub(crate) fn data_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("campus-bench-{}", std::process::id()))
}
