//! The load: round trips from our client at a concurrency level, their latencies and
//! percentiles, and the table of levels with each process's CPU time per round trip.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use a2a::client::AgentHandle;
use a2a::wire::{Message, Part, Role};
use anyhow::Context;

use crate::bench::agents::cpu_ticks;
use crate::bench::args::Args;

/// A question the Hub's router (classifier or mock) sends to the Tutor.
pub(crate) const QUESTION: &str = "How do I find the derivative of x^2?";

pub(crate) fn message(text: &str) -> Message {
    Message::new(Role::User, vec![Part::text(text)])
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
pub(crate) async fn measure_until(
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

pub(crate) struct Level {
    pub(crate) concurrency: usize,
    rate: f64,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
    max: Duration,
    /// CPU time each measured process spent per round trip, in microseconds (`None` when
    /// /proc could not be read).
    cpu: Vec<Option<f64>>,
}

/// Linux reports process CPU time in ticks of 1/100 s (`USER_HZ`, fixed at 100 for
/// /proc on every architecture Campus runs on).
const TICKS_PER_SECOND: f64 = 100.0;

pub(crate) async fn levels(
    agent: &AgentHandle,
    args: &Args,
    pids: &[(&str, u32)],
) -> anyhow::Result<Vec<Level>> {
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

pub(crate) fn print_levels(title: &str, levels: &[Level], pids: &[(&str, u32)]) {
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
