//! `campus bench`: SendMessage round trips from our client to a fixed Tutor, directly and
//! routed through the Hub, with every agent in its own child process, at several
//! concurrency levels. It measures plumbing, so its Tutor runs with `TUTOR_MODE=fixed`
//! (the Part 1 reply), not the offline tutor's parsing and checks. Prints messages/s, p50/p99 latency, the latency the Hub adds and
//! resident memory. A `campus ui` follows the Hub throughout, with one browser stream
//! open (read by the benchmark): the frames/s that stream delivers under the routed load
//! and the UI server's idle and loaded memory are printed too. `--browser` measures the
//! page in headless chromium under the routed load instead (see `browser`). A benchmark,
//! not a test: it asserts nothing.

use std::time::{Duration, Instant};

use a2a::client::{A2aClient, ClientConfig};
use anyhow::{Context, bail};

pub(crate) mod agents;
mod args;
mod browser;
mod faults;
pub(crate) mod load;
mod system;

pub use args::Args;

use agents::{ChildAgent, data_dir, fixed_mode, free_port, mb, pss_kib, rss_kib, settle};
use load::{levels, print_levels};
use system::{PeakRss, StreamReader, System};

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

/// `campus bench`.
pub async fn run(args: Args) -> anyhow::Result<()> {
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
    if args.faults {
        return faults::run(&args).await;
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
    let after_load: Vec<Option<u64>> = pids.iter().map(|(_, p)| rss_kib(*p)).collect();
    let client_after = rss_kib(me);
    // every server hands back what the load freed within one period of going quiet (heap)
    let quiet = heap::PERIOD * 2 + Duration::from_secs(1);
    tokio::time::sleep(quiet).await;
    let quiet = quiet.as_secs();
    say!(
        "\nresident memory: RSS idle before the load / right after it / {quiet} s after it; PSS {quiet} s after"
    );
    say!(
        "(RSS counts the binary's resident code in every process; PSS divides each shared page among the processes mapping it)"
    );
    let (mut totals, mut pss_total) = ([0u64; 3], 0u64);
    for ((name, pid), after) in pids.iter().copied().zip(&after_load) {
        let before = idle_before.iter().find(|(n, _)| *n == name).and_then(|(_, k)| *k);
        let (later, pss) = (rss_kib(pid), pss_kib(pid));
        for (t, v) in totals.iter_mut().zip([before, *after, later]) {
            *t += v.unwrap_or(0);
        }
        pss_total += pss.unwrap_or(0);
        say!("{name:>13} {:>9} / {:>9} / {:>9}   PSS {:>9}", mb(before), mb(*after), mb(later), mb(pss));
    }
    say!(
        "{:>13} {:>9} / {:>9} / {:>9}   PSS {:>9}  (hub, tutor, library, ui)",
        "agents total",
        mb(Some(totals[0])),
        mb(Some(totals[1])),
        mb(Some(totals[2])),
        mb(Some(pss_total))
    );
    say!("{:>13} {:>9} right after the load, {} later", "bench client", mb(client_after), mb(rss_kib(me)));
    Ok(())
}
