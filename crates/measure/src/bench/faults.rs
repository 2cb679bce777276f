//! `campus bench --faults`: the load, soak, slow-client, kill, impersonation and cut
//! scenarios against real Hub, Tutor and Library processes, one table. Each question has
//! a request id of its own and an answer that can be checked (the offline Tutor's
//! derivative of `x^k`), so an answer to another question counts as lost; a question left
//! `outcome_unknown` is asked again with its request id ("Check for answer") until it
//! settles; the Tutor's log of the Hub's operations tells work done twice. Run as root, the
//! whole suite runs in a network namespace of its own, where the cut scenario drops the
//! Tutor's packets with nftables. A benchmark: it prints, it asserts nothing.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::bench::agents::mb;
use crate::bench::args::Args;
use crate::bench::load::percentile;

mod campus;
mod scenarios;

use campus::{Campus, Fate, Row};

/// Runs every scenario and prints the table.
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let isolated = scenarios::own_network();
    let campus = Arc::new(Campus::start().await.context("starting the agents")?);
    say!(
        "campus bench --faults: hub, tutor and library (and an idle professor) as child processes{}",
        match &isolated {
            Ok(()) => " in a network namespace of their own".to_string(),
            Err(why) => format!(" (no network namespace: {why}; the cut scenario is skipped)"),
        }
    );
    // idle: once every agent has handed back what starting (and the Hub's training) freed
    tokio::time::sleep(heap::PERIOD * 2 + Duration::from_secs(1)).await;
    let idle = (campus.memory(), campus.pss(), campus.each());
    let mut rows = Vec::new();
    for level in &args.load {
        rows.push(scenarios::load(&campus, *level).await);
        say!("after {level} at once: {}", campus.each());
    }
    rows.push(scenarios::soak(&campus, args.soak_seconds, args.soak_rate).await);
    rows.push(scenarios::slow_clients(&campus, args.slow_clients).await);
    rows.push(scenarios::impersonation(&campus).await);
    if isolated.is_ok() {
        rows.push(scenarios::cut(&campus).await);
    }
    rows.push(scenarios::kill(&campus, scenarios::Victim::Tutor).await);
    rows.push(scenarios::kill(&campus, scenarios::Victim::Hub).await);
    print_table(&rows);
    let broken: Vec<String> = rows
        .iter()
        .filter(|r| {
            r.failed
                || r.count(Fate::Lost) > 0
                || r.duplicated > 0
                || r.count(Fate::Unknown) > 0
                || r.note.contains("integrity_check") && !r.note.contains("integrity_check: ok")
                || r.note.contains("restart failed")
                || r.note.contains("could not cut")
        })
        .map(|r| r.name.clone())
        .collect();
    say!(
        "\nverdict: {}",
        if broken.is_empty() {
            "every question answered or clearly refused; none lost, none unknown, none done twice; every slow connection closed, every forgery refused, every file intact".to_string()
        } else {
            format!("broken in {}", broken.join(", "))
        }
    );
    say!(
        "\nthe agents' memory: idle at the start {} (PSS {}: {}); at the end {} (PSS {}: {})",
        mb(Some(idle.0)),
        mb(Some(idle.1)),
        idle.2,
        mb(Some(campus.memory())),
        mb(Some(campus.pss())),
        campus.each()
    );
    if broken.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("the fault suite found {} broken scenario(s)", broken.len())
    }
}

fn print_table(rows: &[Row]) {
    say!(
        "\n{:<34} {:>6} {:>8} {:>7} {:>7} {:>5} {:>5} {:>8} {:>8} {:>17} {:>15}",
        "scenario",
        "asked",
        "answered",
        "refused",
        "unknown",
        "lost",
        "dupl.",
        "p50 ms",
        "p99 ms",
        "memory MB",
        "hub disk MB"
    );
    let mb = |k: u64| k as f64 / 1024.0;
    for r in rows {
        let mut lat = r.latencies.clone();
        lat.sort_unstable();
        let ms = |p| format!("{:.1}", percentile(&lat, p).as_secs_f64() * 1000.0);
        say!(
            "{:<34} {:>6} {:>8} {:>7} {:>7} {:>5} {:>5} {:>8} {:>8} {:>17} {:>15}",
            r.name,
            r.fates.len(),
            r.count(Fate::Answered),
            r.refused() + r.refused_extra,
            r.count(Fate::Unknown),
            r.count(Fate::Lost),
            r.duplicated,
            ms(0.50),
            ms(0.99),
            format!("{:.1} -> {:.1}", mb(r.memory.0), mb(r.memory.1)),
            format!("{:.1} -> {:.1}", r.disk.0 as f64 / 1e6, r.disk.1 as f64 / 1e6),
        );
        let refusals = r.refusals();
        let mut notes = Vec::new();
        if !r.note.is_empty() {
            notes.push(r.note.clone());
        }
        if !refusals.is_empty() {
            notes.push(format!("refused: {refusals}"));
        }
        if !notes.is_empty() {
            say!("{:<34} {}", "", notes.join("; "));
        }
    }
    say!(
        "\n(memory: the three agents' RSS before and after the scenario; hub disk: hub.sqlite3 and its -wal; \
         refused: clear refusals, with forged messages and slow connections closed; lost: no answer after \
         every retry, or another question's)"
    );
}
