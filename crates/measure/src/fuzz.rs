//! `campus fuzz`: every HTTP endpoint of every Campus process (the Hub, the Tutor, the
//! Library, the UI server, the fake model server), each a child process, sent generated
//! requests: valid ones, valid ones with bytes flipped, the right shape with wrong types,
//! sizes and escapes, garbage, random bytes, empty bodies, wrong content types and
//! methods now and then, an oversize body now and then, and a few the local guard must
//! refuse. Every request is a function of the seed, the endpoint and its index, so a
//! finding's reproducer is those three. A finding: a 5xx, a refusal the guard did not
//! make, internals or a secret in an answer, a process that exits or prints a panic, an
//! agent that no longer answers a normal request afterwards. Exits non-zero on any.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;

mod bodies;
pub(crate) mod check;
mod send;
mod system;

use send::{Tally, fuzz_endpoint};
use system::System;

/// `campus fuzz`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Requests sent to every endpoint
    #[arg(long, default_value_t = 10_000)]
    pub bodies: usize,
    /// The seed every request is generated from
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Requests in flight at once (streams: four times as many, since each waits for quiet)
    #[arg(long, default_value_t = 8)]
    pub in_flight: usize,
}

/// What a run found, for the caller (`campus fuzz` prints it as it goes).
#[derive(Debug, Default)]
pub struct Report {
    pub endpoints: usize,
    pub requests: usize,
    pub findings: usize,
}

/// `campus fuzz`.
pub async fn run(args: Args) -> anyhow::Result<()> {
    let report = fuzz(&args).await?;
    if report.findings > 0 {
        bail!("{} findings (seed {})", report.findings, args.seed);
    }
    Ok(())
}

/// Starts every process, fuzzes every endpoint and prints the table; the report.
pub async fn fuzz(args: &Args) -> anyhow::Result<Report> {
    if args.bodies == 0 || args.in_flight == 0 {
        bail!("--bodies and --in-flight must be at least 1");
    }
    let started = Instant::now();
    let mut system = System::start(args.seed).await?;
    let endpoints = system.endpoints().await?;
    let secrets = Arc::new(system.secrets.clone());
    let http = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()?;
    say!(
        "campus fuzz: {} endpoints on {} processes, {} requests each, seed {}, {} in flight",
        endpoints.len(),
        system.servers.len(),
        args.bodies,
        args.seed,
        args.in_flight
    );
    say!(
        "{:<52} {:>7} {:>7} {:>7} {:>5} {:>9} {:>8}",
        "endpoint",
        "sent",
        "2xx",
        "4xx",
        "5xx",
        "transport",
        "findings"
    );
    let mut report = Report { endpoints: endpoints.len(), ..Report::default() };
    let mut reproducers = Vec::new();
    let mut panics_seen = vec![0; system.servers.len()];
    for mut e in endpoints {
        system.refresh_revision(&mut e).await?;
        let e = Arc::new(e);
        let server = &system.servers[e.server];
        let in_flight = if e.stream { args.in_flight * 4 } else { args.in_flight };
        let mut t: Tally = fuzz_endpoint(
            &http,
            &e,
            (&server.agent.url, server.port),
            (args.seed, args.bodies, in_flight),
            &secrets,
        )
        .await;
        // a process that panicked or exited during this endpoint's fuzz
        for (i, s) in system.servers.iter_mut().enumerate() {
            let panics = s.agent.stderr_lines();
            if panics.len() > panics_seen[i] {
                t.findings += 1;
                let what = format!("the {} printed: {}", s.name, panics[panics_seen[i]]);
                t.examples.push((usize::MAX, what, Vec::new()));
                panics_seen[i] = panics.len();
            }
            if let Some(status) = s.agent.exited() {
                bail!("the {} exited ({status}) while {} was fuzzed", s.name, e.label);
            }
        }
        say!(
            "{:<52} {:>7} {:>7} {:>7} {:>5} {:>9} {:>8}",
            e.label,
            t.sent,
            t.ok,
            t.client_errors,
            t.server_errors,
            t.transport_errors,
            t.findings
        );
        report.requests += t.sent;
        report.findings += t.findings;
        reproducers
            .extend(t.examples.into_iter().map(|(index, what, head)| (e.label.clone(), index, what, head)));
    }
    let problems = system.still_answers().await;
    report.findings += problems.len();
    for (label, index, what, head) in &reproducers {
        let index = if *index == usize::MAX { "-".to_string() } else { index.to_string() };
        say!("finding: {label} seed {} index {index}: {what}", args.seed);
        say!("  body: {:?}", String::from_utf8_lossy(head));
    }
    for problem in &problems {
        say!("finding: after the fuzz, {problem}");
    }
    say!(
        "{} requests to {} endpoints in {:.0} s: {} findings{}",
        report.requests,
        report.endpoints,
        started.elapsed().as_secs_f64(),
        report.findings,
        if problems.is_empty() { "; every agent still answers normally" } else { "" }
    );
    Ok(report)
}
