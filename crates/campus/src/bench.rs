//! `campus bench`: SendMessage round trips from our client to a fixed Tutor, directly and
//! routed through the Hub, with every agent in its own child process, at several
//! concurrency levels. It measures plumbing, so its Tutor runs with `TUTOR_MODE=fixed`
//! (the Part 1 reply), not the offline tutor's parsing and checks. Prints messages/s, p50/p99 latency, the latency the Hub adds and
//! resident memory. A `campus ui` follows the Hub throughout, with one browser stream
//! open (read by the benchmark): the frames/s that stream delivers under the routed load
//! and the UI server's idle and loaded memory are printed too. `--browser` measures the
//! page in headless chromium under the routed load instead (see `browser`). A benchmark,
//! not a test: it asserts nothing.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a::client::{A2aClient, AgentHandle, ClientConfig};
use a2a::wire::{Message, Part, Role};
use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

mod browser;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Round trips per concurrency level
    #[arg(long, default_value_t = 20_000)]
    requests: usize,
    /// Concurrency levels, comma-separated
    #[arg(long, default_value = "1,16,64", value_delimiter = ',')]
    concurrency: Vec<usize>,
    /// RUST_LOG for the Tutor and Hub children (info makes each log lines per message)
    #[arg(long, default_value = "warn")]
    agent_log: String,
    /// Run only the Tutor (no Hub, no Library): the A2A layer's own cost
    #[arg(long)]
    tutor_only: bool,
    /// The Hub's ROUTER_MODE (classifier, its default, or mock)
    #[arg(long, default_value = "classifier", value_parser = ["classifier", "mock"])]
    router: String,
    /// The page under load instead: open it in headless chromium (Topology, then
    /// Conversation) while questions are routed at the highest --concurrency level
    #[arg(long)]
    browser: bool,
    /// With --browser: how long each view is loaded, in seconds
    #[arg(long, default_value_t = 10)]
    seconds: u64,
}

/// The benchmark's Tutor answers with the fixed reply: plumbing, not tutoring, is measured.
fn fixed_mode() -> (&'static str, String) {
    ("TUTOR_MODE", "fixed".into())
}

/// A child `campus` process, killed on drop.
pub(crate) struct ChildAgent {
    child: Child,
    pub(crate) url: String,
}

impl ChildAgent {
    /// Starts `campus <subcommand>` with `env` and waits for its ready line.
    pub(crate) async fn start(subcommand: &str, log: &str, env: &[(&str, String)]) -> anyhow::Result<Self> {
        let exe = std::env::current_exe().context("could not find the campus binary")?;
        let mut child = Command::new(exe)
            .arg(subcommand)
            .env("PORT", "0")
            .env("RUST_LOG", log)
            // stopped by the kernel if the benchmark is killed (see lifecycle::follow_parent);
            // spawned from the future block_on polls on the main thread, as that requires
            .env(crate::lifecycle::PARENT_PID_VAR, std::process::id().to_string())
            // built-in settings, whatever was saved under the user's data/ folder
            .env("CAMPUS_DATA_DIR", data_dir())
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
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

/// CPU time (user + system, in clock ticks) a process has used, from /proc (Linux).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Waits until the agents are idle (no CPU used over 200 ms; at most 10 s), so one
/// phase's leftovers (the Hub relaying telemetry) do not run into the next.
async fn settle(pids: &[(&str, u32)]) {
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
fn pss_kib(pid: u32) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let line = rollup.lines().find(|l| l.starts_with("Pss:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A question the Hub's router (classifier or mock) sends to the Tutor.
const QUESTION: &str = "How do I find the derivative of x^2?";

fn message(text: &str) -> Message {
    Message::new(Role::User, vec![Part::text(text)])
}

pub(crate) fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Latencies of `total` round trips made by `concurrency` workers.
pub(crate) async fn measure(
    agent: &AgentHandle,
    total: usize,
    concurrency: usize,
) -> anyhow::Result<(Duration, Vec<Duration>)> {
    measure_until(agent, total, concurrency, None).await
}

/// As [`measure`], stopping early at `until` if it comes first.
async fn measure_until(
    agent: &AgentHandle,
    total: usize,
    concurrency: usize,
    until: Option<Instant>,
) -> anyhow::Result<(Duration, Vec<Duration>)> {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let mut workers = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        let agent = agent.clone();
        let next = next.clone();
        workers.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity((total / concurrency + 1).min(1 << 16));
            while next.fetch_add(1, Ordering::Relaxed) < total && until.is_none_or(|u| Instant::now() < u) {
                let t = Instant::now();
                agent.send_message(message(QUESTION), &[]).await?;
                lat.push(t.elapsed());
            }
            Ok::<_, a2a::client::ClientError>(lat)
        }));
    }
    let mut all = Vec::with_capacity(total.min(1 << 20));
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

/// The Tutor alone (its Hub link finds no Hub and keeps retrying quietly).
async fn tutor_only(args: &Args, port: u16, hub_url: String) -> anyhow::Result<()> {
    let tutor = ChildAgent::start(
        "tutor",
        &args.agent_log,
        &[("PORT", port.to_string()), ("HUB_URL", hub_url), fixed_mode()],
    )
    .await?;
    let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(10), ..Default::default() });
    let agent = client.connect(&tutor.url).await?;
    let pid = tutor.pid().context("the tutor has no pid")?;
    let before = rss_kib(pid);
    say!(
        "campus bench --tutor-only: SendMessage round trips, our client -> Tutor (RUST_LOG={})",
        args.agent_log
    );
    let measured = [("tutor", pid), ("client", std::process::id())];
    let direct = levels(&agent, args, &measured).await?;
    print_levels("\ndirect: client -> tutor (no hub running)", &direct, &measured);
    say!("\ntutor resident memory: {} idle at start, {} idle after the load", mb(before), mb(rss_kib(pid)));
    Ok(())
}

struct Level {
    concurrency: usize,
    rate: f64,
    p50: Duration,
    p99: Duration,
    max: Duration,
    /// CPU time each measured process spent per round trip, in microseconds (`None` when
    /// /proc could not be read).
    cpu: Vec<Option<f64>>,
}

/// Linux reports process CPU time in ticks of 1/100 s (`USER_HZ`, fixed at 100 for
/// /proc on every architecture Campus runs on).
const TICKS_PER_SECOND: f64 = 100.0;

async fn levels(agent: &AgentHandle, args: &Args, pids: &[(&str, u32)]) -> anyhow::Result<Vec<Level>> {
    measure(agent, 500, 16).await?; // warm up connections and allocators
    let mut out = Vec::new();
    let ticks = || pids.iter().map(|(_, p)| cpu_ticks(*p)).collect::<Vec<_>>();
    for &c in &args.concurrency {
        let before = ticks();
        let (elapsed, lat) = measure(agent, args.requests, c).await?;
        let after = ticks();
        let per_trip = |(b, a): (Option<u64>, Option<u64>)| {
            let used = a?.checked_sub(b?)?;
            Some(used as f64 / TICKS_PER_SECOND * 1e6 / lat.len() as f64)
        };
        out.push(Level {
            concurrency: c,
            rate: lat.len() as f64 / elapsed.as_secs_f64(),
            p50: percentile(&lat, 0.50),
            p99: percentile(&lat, 0.99),
            max: lat.last().copied().unwrap_or_default(),
            cpu: before.into_iter().zip(after).map(per_trip).collect(),
        });
    }
    Ok(out)
}

fn print_levels(title: &str, levels: &[Level], pids: &[(&str, u32)]) {
    say!("{title}");
    let names: String = pids.iter().map(|(name, _)| format!(" {:>10}", format!("{name} µs"))).collect();
    say!(
        "{:>11} {:>12} {:>10} {:>10} {:>10}{names}",
        "concurrency",
        "messages/s",
        "p50 ms",
        "p99 ms",
        "max ms"
    );
    for l in levels {
        let cpu: String = l
            .cpu
            .iter()
            .map(|cpu| {
                format!(" {:>10}", cpu.map(|us| format!("{us:.1}")).unwrap_or_else(|| "unknown".into()))
            })
            .collect();
        say!(
            "{:>11} {:>12.0} {:>10} {:>10} {:>10}{cpu}",
            l.concurrency,
            l.rate,
            ms(l.p50),
            ms(l.p99),
            ms(l.max)
        );
    }
}

fn mb(kib: Option<u64>) -> String {
    kib.map(|k| format!("{:.1} MB", k as f64 / 1024.0)).unwrap_or_else(|| "unknown".into())
}

/// The agents' data folder for one benchmark run: fresh, and removed when it ends.
pub(crate) fn data_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("campus-bench-{}", std::process::id()))
}

pub(crate) async fn run(args: Args) -> anyhow::Result<()> {
    let result = bench_all(args).await;
    let _ = std::fs::remove_dir_all(data_dir());
    result
}

async fn bench_all(args: Args) -> anyhow::Result<()> {
    if args.requests == 0 || args.concurrency.contains(&0) {
        bail!("--requests and every --concurrency level must be at least 1");
    }
    let (hub_port, tutor_port, library_port) = (free_port()?, free_port()?, free_port()?);
    let url = |p: u16| format!("http://127.0.0.1:{p}");
    if args.tutor_only {
        return tutor_only(&args, tutor_port, url(hub_port)).await;
    }
    let system = System::start(&args, (hub_port, tutor_port, library_port)).await?;
    if args.browser {
        return browser::run(&args, &system).await;
    }
    let (ui, direct, routed) = (&system.ui, &system.direct, &system.routed);
    let pids = system.pids();
    let idle_before: Vec<(&str, Option<u64>)> = pids.iter().map(|(n, p)| (*n, rss_kib(*p))).collect();

    say!(
        "campus bench: SendMessage round trips from our client; agents in child processes (RUST_LOG={} for tutor and hub)",
        args.agent_log
    );
    say!(
        "{} round trips per level on {} cores",
        args.requests,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
    );
    say!("(the µs columns: CPU time each process spent per round trip, user + system)");
    let measured: Vec<(&str, u32)> =
        pids.iter().copied().chain(std::iter::once(("client", std::process::id()))).collect();
    settle(&pids).await;
    let direct_levels = levels(direct, &args, &measured).await?;
    print_levels("\ndirect: client -> tutor", &direct_levels, &measured);
    settle(&pids).await;
    let stream = StreamReader::start(&ui.url);
    let ui_pid = ui.pid().context("the ui server has no pid")?;
    let peak = PeakRss::start(ui_pid);
    let (frames0, bytes0, t0) = (stream.frames(), stream.bytes(), Instant::now());
    let routed_levels = levels(routed, &args, &measured).await?;
    let elapsed = t0.elapsed().as_secs_f64();
    let (frames, bytes) = (stream.frames() - frames0, stream.bytes() - bytes0);
    let ui_loaded = peak.stop();
    let title = format!("\nrouted: client -> hub ({} router) -> tutor", args.router);
    print_levels(&title, &routed_levels, &measured);
    say!(
        "\nui stream under the routed load (one browser stream open): {:.0} frames/s, {:.0} KB/s, {} reconnects; \
         ui server peak resident memory {}",
        frames as f64 / elapsed,
        bytes as f64 / 1024.0 / elapsed,
        stream.reconnects(),
        mb(ui_loaded)
    );
    settle(&pids).await;
    say!("\nlatency the hub adds (routed minus direct)");
    say!("{:>11} {:>10} {:>10}", "concurrency", "p50 ms", "p99 ms");
    for (d, r) in direct_levels.iter().zip(&routed_levels) {
        let add = |a: Duration, b: Duration| format!("{:+.3}", (a.as_secs_f64() - b.as_secs_f64()) * 1000.0);
        say!("{:>11} {:>10} {:>10}", d.concurrency, add(r.p50, d.p50), add(r.p99, d.p99));
    }

    let me = std::process::id();
    say!("\nresident memory, idle (before the load / after it)");
    let mut total_before = 0;
    let mut total_after = 0;
    for (name, pid) in pids.iter().copied().chain(std::iter::once(("bench client", me))) {
        let before = idle_before.iter().find(|(n, _)| *n == name).and_then(|(_, k)| *k);
        let after = rss_kib(pid);
        total_before += before.unwrap_or(0);
        total_after += after.unwrap_or(0);
        say!("{name:>13} {:>9} / {:>9}", mb(before), mb(after));
    }
    say!(
        "{:>13} {:>9} / {:>9}  (hub, tutor, library, ui; the bench client is not idle before)",
        "agents total",
        mb(Some(total_before)),
        mb(Some(total_after - rss_kib(me).unwrap_or(0)))
    );
    say!(
        "{:>13} {:>9}  (five processes: hub, tutor, library, ui and the client)",
        "all five",
        mb(Some(total_after))
    );
    let pss: Option<u64> = pids.iter().map(|(_, p)| *p).chain(std::iter::once(me)).map(pss_kib).sum();
    say!(
        "{:>13} {:>9}  (PSS: the same five, each shared page counted once, not once per process)",
        "all five PSS",
        mb(pss)
    );
    Ok(())
}

/// Tutor, Library, Hub and a `campus ui` following the Hub, each a child process, and
/// clients to the Tutor (direct) and the Hub (routed), once the Hub routes to the Tutor.
struct System {
    tutor: ChildAgent,
    library: ChildAgent,
    hub: ChildAgent,
    ui: ChildAgent,
    direct: AgentHandle,
    routed: AgentHandle,
}

impl System {
    async fn start(
        args: &Args,
        (hub_port, tutor_port, library_port): (u16, u16, u16),
    ) -> anyhow::Result<Self> {
        let url = |p: u16| format!("http://127.0.0.1:{p}");
        let tutor = ChildAgent::start(
            "tutor",
            &args.agent_log,
            &[("PORT", tutor_port.to_string()), ("HUB_URL", url(hub_port)), fixed_mode()],
        )
        .await?;
        let library = ChildAgent::start(
            "library",
            "warn",
            &[("PORT", library_port.to_string()), ("HUB_URL", url(hub_port))],
        )
        .await?;
        let hub = ChildAgent::start(
            "hub",
            &args.agent_log,
            &[
                ("PORT", hub_port.to_string()),
                ("TUTOR_URL", tutor.url.clone()),
                ("LIBRARY_URL", library.url.clone()),
                ("ROUTER_MODE", args.router.clone()),
            ],
        )
        .await?;
        let ui = ChildAgent::start("ui", &args.agent_log, &[("HUB_URL", hub.url.clone())]).await?;
        let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(10), ..Default::default() });
        let direct = client.connect(&tutor.url).await?;
        let routed = client.connect(&hub.url).await?;
        // The Hub routes only to registered specialists: wait until the Tutor is ready.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let resp = routed.send_message(message(QUESTION), &[]).await?;
            let a2a::wire::SendMessageResponse::Message(m) = resp else {
                bail!("the hub answered with a task")
            };
            let outcome = m
                .metadata
                .as_ref()
                .and_then(|md| md.get("outcome"))
                .and_then(|v| v.as_str())
                .map(str::to_string);
            if outcome.as_deref() == Some("route") {
                break;
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the hub did not route to the tutor within 20 s (last outcome: {outcome:?})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await; // poll interval while the tutor registers
        }
        Ok(Self { tutor, library, hub, ui, direct, routed })
    }

    /// The agents' process ids, named.
    fn pids(&self) -> Vec<(&'static str, u32)> {
        [("hub", &self.hub), ("tutor", &self.tutor), ("library", &self.library), ("ui", &self.ui)]
            .iter()
            .filter_map(|(n, c)| c.pid().map(|p| (*n, p)))
            .collect()
    }
}

/// One browser's stream, read by the benchmark: counts the frames and bytes it delivers.
struct StreamReader {
    frames: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
    reconnects: Arc<AtomicU64>,
    topology: Arc<Topology>,
    task: tokio::task::JoinHandle<()>,
}

/// What the monitor channel said about the traffic: coalesced console entries, topology
/// pulses drawn, and the messages those pulses stand for (a coalesced pulse counts many).
#[derive(Default)]
struct Topology {
    coalesced: AtomicU64,
    pulses: AtomicU64,
    messages: AtomicU64,
}

impl Topology {
    fn read(&self, data: &str) {
        if !data.contains("\"coalesced\"") && !data.contains("campus.topology") {
            return;
        }
        let Ok(frame) = serde_json::from_str::<serde_json::Value>(data) else { return };
        let event = &frame["event"];
        if event["content"]["kind"] == "coalesced" {
            self.coalesced.fetch_add(1, Ordering::Relaxed);
        }
        for p in event["value"]["pulses"].as_array().into_iter().flatten() {
            self.pulses.fetch_add(1, Ordering::Relaxed);
            self.messages.fetch_add(p["count"].as_u64().unwrap_or(1), Ordering::Relaxed);
        }
    }

    /// (coalesced console entries, pulses, messages they stand for) so far.
    fn counts(&self) -> (u64, u64, u64) {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        (get(&self.coalesced), get(&self.pulses), get(&self.messages))
    }
}

impl StreamReader {
    fn start(ui_url: &str) -> Self {
        let url = format!("{ui_url}/api/ui/stream");
        let (frames, bytes, reconnects) =
            (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let topology = Arc::new(Topology::default());
        let (f, b, r, t) = (frames.clone(), bytes.clone(), reconnects.clone(), topology.clone());
        let task = tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut last_id: Option<String> = None;
            let mut parser = telemetry::SseParser::new();
            loop {
                let mut req = http.get(&url);
                if let Some(id) = &last_id {
                    req = req.header("last-event-id", id.as_str());
                }
                if let Ok(mut resp) = req.send().await {
                    while let Ok(Some(chunk)) = resp.chunk().await {
                        b.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                        for frame in parser.push(&chunk) {
                            f.fetch_add(1, Ordering::Relaxed);
                            t.read(&frame.data);
                            if frame.id.is_some() {
                                last_id = frame.id;
                            }
                        }
                    }
                }
                r.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Self { frames, bytes, reconnects, topology, task }
    }

    fn frames(&self) -> u64 {
        self.frames.load(Ordering::Relaxed)
    }

    fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    fn reconnects(&self) -> u64 {
        self.reconnects.load(Ordering::Relaxed)
    }
}

impl Drop for StreamReader {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The highest resident memory of a process, sampled every 50 ms until stopped.
struct PeakRss {
    peak: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    fn start(pid: u32) -> Self {
        let peak = Arc::new(AtomicU64::new(0));
        let p = peak.clone();
        let task = tokio::spawn(async move {
            loop {
                if let Some(kib) = rss_kib(pid) {
                    p.fetch_max(kib, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
        Self { peak, task }
    }

    fn stop(self) -> Option<u64> {
        self.task.abort();
        Some(self.peak.load(Ordering::Relaxed)).filter(|k| *k > 0)
    }
}
