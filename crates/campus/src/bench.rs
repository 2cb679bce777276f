//! `campus bench`: SendMessage round trips from our client to a fixed Tutor running as a
//! child process, at several concurrency levels. Prints messages/s, p50/p99 latency and
//! the Tutor's resident memory. A benchmark, not a test: it asserts nothing.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a::client::{A2aClient, AgentHandle, ClientConfig};
use a2a::wire::{Message, Part, Role};
use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Round trips per concurrency level
    #[arg(long, default_value_t = 20_000)]
    requests: usize,
    /// Concurrency levels, comma-separated
    #[arg(long, default_value = "1,16,64", value_delimiter = ',')]
    concurrency: Vec<usize>,
    /// RUST_LOG for the Tutor child (info makes it log two lines per message)
    #[arg(long, default_value = "warn")]
    tutor_log: String,
}

/// A child `campus` process, killed on drop.
pub(crate) struct ChildAgent {
    child: Child,
    pub(crate) url: String,
}

impl ChildAgent {
    /// Starts `campus <subcommand>` on a free port and waits for its ready line.
    pub(crate) async fn start(subcommand: &str, log: &str) -> anyhow::Result<Self> {
        let exe = std::env::current_exe().context("could not find the campus binary")?;
        let mut child = Command::new(exe)
            .arg(subcommand)
            .env("PORT", "0")
            .env("RUST_LOG", log)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("could not start campus {subcommand}"))?;
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
            Ok(Ok(Some(url))) => Ok(Self { child, url }),
            Ok(Ok(None)) => bail!("campus {subcommand} exited before it was ready"),
            Ok(Err(e)) => bail!("reading campus {subcommand} output failed: {e}"),
            Err(_) => bail!("campus {subcommand} was not ready within 20 s"),
        }
    }

    pub(crate) fn pid(&self) -> Option<u32> {
        self.child.id()
    }
}

/// Resident memory of a process in KiB, from /proc (Linux).
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn message(text: &str) -> Message {
    Message::new(Role::User, vec![Part::text(text)])
}

/// Latencies of `total` round trips made by `concurrency` workers.
pub(crate) async fn measure(
    agent: &AgentHandle,
    total: usize,
    concurrency: usize,
) -> anyhow::Result<(Duration, Vec<Duration>)> {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let mut workers = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        let agent = agent.clone();
        let next = next.clone();
        workers.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(total / concurrency + 1);
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let t = Instant::now();
                agent.send_message(message("bench"), &[]).await?;
                lat.push(t.elapsed());
            }
            Ok::<_, a2a::client::ClientError>(lat)
        }));
    }
    let mut all = Vec::with_capacity(total);
    for w in workers {
        all.extend(w.await.context("a worker panicked")??);
    }
    let elapsed = start.elapsed();
    all.sort_unstable();
    Ok((elapsed, all))
}

pub(crate) fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

pub(crate) async fn run(args: Args) -> anyhow::Result<()> {
    if args.requests == 0 || args.concurrency.contains(&0) {
        bail!("--requests and every --concurrency level must be at least 1");
    }
    let tutor = ChildAgent::start("tutor", &args.tutor_log).await?;
    let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(10), ..Default::default() });
    let agent = client.connect(&tutor.url).await?;
    let pid = tutor.pid().context("tutor has no pid")?;
    let idle_before = rss_kib(pid);
    measure(&agent, 500, 16).await?; // warm up connections and allocators
    println!(
        "campus bench: SendMessage round trips, our client -> fixed Tutor (child process, RUST_LOG={})",
        args.tutor_log
    );
    println!(
        "{} round trips per level on {} cores",
        args.requests,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
    );
    println!("{:>11} {:>12} {:>10} {:>10} {:>10}", "concurrency", "messages/s", "p50 ms", "p99 ms", "max ms");
    for &c in &args.concurrency {
        let (elapsed, lat) = measure(&agent, args.requests, c).await?;
        let rate = lat.len() as f64 / elapsed.as_secs_f64();
        println!(
            "{:>11} {:>12.0} {:>10} {:>10} {:>10}",
            c,
            rate,
            ms(percentile(&lat, 0.50)),
            ms(percentile(&lat, 0.99)),
            ms(lat.last().copied().unwrap_or_default())
        );
    }
    let idle_after = rss_kib(pid);
    let show = |v: Option<u64>| {
        v.map(|k| format!("{:.1} MB", k as f64 / 1024.0)).unwrap_or_else(|| "unknown".into())
    };
    println!(
        "tutor resident memory: {} idle at start, {} idle after the load",
        show(idle_before),
        show(idle_after)
    );
    Ok(())
}
