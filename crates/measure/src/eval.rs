//! `campus eval-router`: the Hub's router (decision and validation, as on the request
//! path) over a labelled set, against the skills the default Tutor, Library and Professor
//! cards advertise and the Hub's configuration (`HUB_CONFIG`, its out-of-scope examples).
//!
//! The set is JSON lines: `{"text", "expected", "kind", "lang"}` (other fields ignored);
//! `expected` is a specialist id (or its capability id), `clarify` or `unsupported`. A
//! specialist nobody registered is expected to be answered `unsupported`.

use std::time::Instant;

use anyhow::{Context, bail};
use hub::{Router, RouterMode, RouterParts};

mod args;
mod metrics;
mod model;
pub(crate) mod observe;
mod set;
mod sweep;

pub use args::Args;

use metrics::{Figures, figures, pct};
use model::{model_for, model_note, with_model};
use observe::{default_view, observe};
use set::{check_labels, read_set};
use sweep::{cross_validate, sweep};

fn print(f: &Figures, training_micros: Option<u128>) {
    say!("router: {}", f.mode);
    if let Some(us) = training_micros {
        say!("training: {:.1} ms", us as f64 / 1000.0);
    }
    say!("action accuracy   {}", pct(&f.accuracy));
    say!("macro-F1          {:.3}", f.macro_f1);
    say!("wrong routes      {} ({:.1}%)", f.wrong_routes, f.wrong_route_rate * 100.0);
    for (name, pr) in [("clarify", &f.clarify), ("unsupported", &f.unsupported)] {
        say!(
            "{name:<17} precision {:.3} ({} said)  recall {:.3} ({} expected)",
            pr.precision,
            pr.predicted,
            pr.recall,
            pr.expected
        );
    }
    match f.ece {
        Some(e) => say!("calibration (ECE) {e:.3} over {} scored decisions", f.ece_n),
        None => say!("calibration (ECE) n/a: this router gives no probabilities"),
    }
    say!("latency           p50 {:.1} µs  p99 {:.1} µs", f.p50_micros, f.p99_micros);
    say!("sent to the model {} of {} ({:.1}%)", f.model_calls, f.accuracy.n, f.model_share * 100.0);
    if let Some(kb) = peak_memory_kb() {
        say!("peak memory       {:.1} MiB (the whole process)", kb as f64 / 1024.0);
    }
    for (title, map) in [("by kind", &f.by_kind), ("by language", &f.by_lang)] {
        say!("{title}:");
        for (k, r) in map {
            say!("  {k:<14} {}", pct(r));
        }
    }
}

/// The process's peak resident memory (Linux), in KiB.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `campus eval-router`.
pub async fn run(args: Args, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    // the mode measured is the Hub's ROUTER_MODE: `embed` loads (or refuses) as the Hub does
    let env = |k: &str| if k == "ROUTER_MODE" { Some(args.mode.clone()) } else { env(k) };
    let config = hub::Config::from_env(&env)?;
    let mode = RouterMode::parse(&args.mode).context("unknown router mode")?;
    let parts = RouterParts::load(&config, &env)?;
    let view = default_view(&config);
    let Some(set) = &args.set else {
        return cross_validate(&config, &view, args.json);
    };
    let model_options = args.replay.is_some() || args.record.is_some() || args.stand_in || args.sweep;
    if model_options && !mode.calls_model() {
        bail!("--replay, --record, --stand-in and --sweep are for --mode live or hybrid");
    }
    if args.sweep && mode != RouterMode::Hybrid {
        bail!("--sweep is for --mode hybrid");
    }
    let items = read_set(set)?;
    check_labels(set, &items, &config)?;
    let llm = model_for(&args, &config, &view, &items).await?;
    let router = with_model(Router::new(parts), llm.clone());
    let training = mode.trains().then(|| {
        let started = Instant::now();
        router.model(&view);
        started.elapsed().as_micros()
    });
    if args.sweep {
        let live = with_model(
            Router::new(RouterParts { mode: RouterMode::Live, ..RouterParts::load(&config, &env)? }),
            llm,
        );
        return sweep(&router, &live, &config, &view, &items, args.json).await;
    }
    let obs = observe(&router, &config, &view, &items).await;
    let f = figures(&args.mode, &obs);
    if args.errors {
        for (item, o) in items.iter().zip(&obs).filter(|(_, o)| o.expected != o.got) {
            let conf = o.confidence.map(|c| format!("{c:.2}")).unwrap_or_else(|| "rule".into());
            say!("{:<11} → {:<11} {conf:<5} {:<12} {}", o.expected, o.got, item.kind, item.text);
        }
    }
    if args.json {
        say!("{}", serde_json::to_string(&f)?);
    } else {
        if mode.calls_model() {
            say!("model: {}", model_note(&args, &config));
        }
        print(&f, training);
    }
    Ok(())
}
