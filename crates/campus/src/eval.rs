//! `campus eval-router`: the Hub's router (decision and validation, as on the request
//! path) over a labelled set, against the skills the default Tutor and Library cards
//! advertise and the Hub's configuration (`HUB_CONFIG`, its out-of-scope examples).
//!
//! The set is JSON lines: `{"text", "expected", "kind", "lang"}` (other fields ignored);
//! `expected` is a specialist id (or its capability id), `clarify` or `unsupported`. A
//! specialist nobody registered (the Professor's `marketing`, for now) is expected to be
//! answered `unsupported`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::decisions;
use hub::{Outcome, Router, RouterMode, RouterParts, SpecialistView, Status};
use serde::{Deserialize, Serialize};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The labelled set (JSON lines)
    #[arg(long, required_unless_present = "cv")]
    set: Option<std::path::PathBuf>,
    /// Instead of a set: cross-validate the classifier on its own training texts
    /// (10 folds over the sentences, then each library skill held out whole)
    #[arg(long, conflicts_with = "set")]
    cv: bool,
    /// The router to measure
    /// (embed: only in a build with `--features embed`, after scripts/fetch-minilm.sh;
    /// live and hybrid: with --replay, --stand-in, or the Hub's model settings)
    #[arg(long, default_value = "classifier", value_parser = ["classifier", "mock", "direct", "embed", "live", "hybrid"])]
    mode: String,
    /// live, hybrid: answer the model's calls from decisions recorded in FILE (JSON lines,
    /// see eval/routing-dev.live-decisions.v1.jsonl): no call leaves the machine
    #[arg(long, value_name = "FILE", conflicts_with_all = ["record", "stand_in"])]
    replay: Option<std::path::PathBuf>,
    /// live, hybrid: first ask the model about every item (the configured model: HUB_MODEL,
    /// ANTHROPIC_BASE_URL, the key; or --stand-in) and record its decisions in FILE
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    /// live, hybrid: the deterministic stand-in (the mock keyword heuristic behind the
    /// model seam) instead of a model; its figures are the stand-in's, not a model's
    #[arg(long)]
    stand_in: bool,
    /// Recording from the real provider costs money: say so
    #[arg(long)]
    paid: bool,
    /// hybrid: accuracy against the share sent to the model over a range of thresholds
    #[arg(long)]
    sweep: bool,
    /// Print the figures as one JSON object instead of a table
    #[arg(long)]
    json: bool,
    /// Also list every item decided wrongly (expected, got, text)
    #[arg(long)]
    errors: bool,
}

/// The largest set read (bytes) and the longest question (characters).
const MAX_SET_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Item {
    pub(crate) text: String,
    pub(crate) expected: String,
    #[serde(default)]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) lang: String,
}

/// One decision as measured: what was expected (after mapping unregistered services to
/// `unsupported`), what the router and validation did, its confidence and its time.
#[derive(Debug, Clone)]
pub(crate) struct Observed {
    pub(crate) expected: String,
    pub(crate) got: String,
    /// Whether `got` is a dispatch to a specialist.
    pub(crate) routed: bool,
    pub(crate) kind: String,
    pub(crate) lang: String,
    pub(crate) confidence: Option<f32>,
    pub(crate) took: Duration,
    /// Whether the model was asked.
    pub(crate) sent: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Rate {
    pub(crate) n: usize,
    pub(crate) correct: usize,
    pub(crate) rate: f64,
    /// Wilson 95% interval.
    pub(crate) low: f64,
    pub(crate) high: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct PrecisionRecall {
    pub(crate) precision: f64,
    pub(crate) recall: f64,
    pub(crate) predicted: usize,
    pub(crate) expected: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Figures {
    pub(crate) mode: String,
    pub(crate) accuracy: Rate,
    pub(crate) macro_f1: f64,
    pub(crate) by_kind: BTreeMap<String, Rate>,
    pub(crate) by_lang: BTreeMap<String, Rate>,
    pub(crate) clarify: PrecisionRecall,
    pub(crate) unsupported: PrecisionRecall,
    /// Dispatched to a specialist other than the expected one (or when none was).
    pub(crate) wrong_routes: usize,
    pub(crate) wrong_route_rate: f64,
    /// Expected calibration error over the decisions that carry a probability (10 bins).
    pub(crate) ece: Option<f64>,
    pub(crate) ece_n: usize,
    pub(crate) p50_micros: f64,
    pub(crate) p99_micros: f64,
    /// Questions the model was asked about, and their share.
    pub(crate) model_calls: usize,
    pub(crate) model_share: f64,
}

pub(crate) fn wilson(correct: usize, n: usize) -> Rate {
    if n == 0 {
        return Rate { n, correct, rate: 0.0, low: 0.0, high: 1.0 };
    }
    let (z, nf) = (1.96f64, n as f64);
    let p = correct as f64 / nf;
    let denom = 1.0 + z * z / nf;
    let center = (p + z * z / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Rate { n, correct, rate: p, low: (center - half).max(0.0), high: (center + half).min(1.0) }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn precision_recall(obs: &[Observed], label: &str) -> PrecisionRecall {
    let predicted = obs.iter().filter(|o| o.got == label).count();
    let expected = obs.iter().filter(|o| o.expected == label).count();
    let both = obs.iter().filter(|o| o.got == label && o.expected == label).count();
    PrecisionRecall { precision: ratio(both, predicted), recall: ratio(both, expected), predicted, expected }
}

fn percentile_micros(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

/// The figures of a run.
pub(crate) fn figures(mode: &str, obs: &[Observed]) -> Figures {
    let right = |o: &&Observed| o.expected == o.got;
    let group = |key: fn(&Observed) -> &str| {
        let mut m: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for o in obs {
            let e = m.entry(key(o).to_string()).or_default();
            e.0 += usize::from(o.expected == o.got);
            e.1 += 1;
        }
        m.into_iter().map(|(k, (c, n))| (k, wilson(c, n))).collect()
    };
    let mut labels: Vec<&str> = obs.iter().flat_map(|o| [o.expected.as_str(), o.got.as_str()]).collect();
    labels.sort_unstable();
    labels.dedup();
    let f1s: Vec<f64> = labels
        .iter()
        .map(|l| {
            let pr = precision_recall(obs, l);
            if pr.precision + pr.recall == 0.0 {
                0.0
            } else {
                2.0 * pr.precision * pr.recall / (pr.precision + pr.recall)
            }
        })
        .collect();
    let wrong_routes = obs.iter().filter(|o| o.routed && o.got != o.expected).count();
    let scored: Vec<&Observed> = obs.iter().filter(|o| o.confidence.is_some()).collect();
    let ece = (!scored.is_empty()).then(|| {
        let mut bins = [(0usize, 0f64, 0usize); 10];
        for o in &scored {
            let c = f64::from(o.confidence.unwrap_or(0.0)).clamp(0.0, 1.0);
            let b = calibration_bin(c);
            bins[b].0 += 1;
            bins[b].1 += c;
            bins[b].2 += usize::from(o.expected == o.got);
        }
        bins.iter()
            .filter(|b| b.0 > 0)
            .map(|(n, conf, ok)| {
                (*n as f64 / scored.len() as f64) * (*ok as f64 / *n as f64 - conf / *n as f64).abs()
            })
            .sum()
    });
    let mut times: Vec<Duration> = obs.iter().map(|o| o.took).collect();
    times.sort_unstable();
    Figures {
        mode: mode.to_string(),
        accuracy: wilson(obs.iter().filter(right).count(), obs.len()),
        macro_f1: if f1s.is_empty() { 0.0 } else { f1s.iter().sum::<f64>() / f1s.len() as f64 },
        by_kind: group(|o| &o.kind),
        by_lang: group(|o| &o.lang),
        clarify: precision_recall(obs, "clarify"),
        unsupported: precision_recall(obs, "unsupported"),
        wrong_routes,
        wrong_route_rate: ratio(wrong_routes, obs.len()),
        ece,
        ece_n: scored.len(),
        p50_micros: percentile_micros(&times, 0.5),
        p99_micros: percentile_micros(&times, 0.99),
        model_calls: obs.iter().filter(|o| o.sent).count(),
        model_share: ratio(obs.iter().filter(|o| o.sent).count(), obs.len()),
    }
}

/// What the Hub's registry would show with the default Tutor and Library registered and
/// ready: their cards' skills; any other allowlisted specialist is not connected.
pub(crate) fn default_view(config: &hub::Config) -> Vec<SpecialistView> {
    let base = "http://127.0.0.1:1";
    let card_skills = |id: &str| match id {
        tutor::IDENTITY => {
            Some(skills::build_card(&tutor::agent_card(base), &tutor::default_skills(), 1).skills)
        }
        library::IDENTITY => {
            Some(skills::build_card(&library::agent_card(base), &library::default_skill_set(), 1).skills)
        }
        _ => None,
    };
    config
        .specialists
        .iter()
        .map(|s| {
            let (status, skills) = match card_skills(&s.id) {
                Some(list) => (Status::Ready, hub::index(&list)),
                None => (Status::Disconnected, Vec::new()),
            };
            SpecialistView {
                id: s.id.clone(),
                name: s.card_name.clone(),
                capability: s.capability.id.clone(),
                status,
                skills: std::sync::Arc::new(skills),
            }
        })
        .collect()
}

/// The label an expectation stands for here: a routable specialist's id (a capability
/// id counts as its specialist's), `clarify`, or otherwise `unsupported`.
fn effective(expected: &str, config: &hub::Config, view: &[SpecialistView]) -> String {
    let id = config
        .specialists
        .iter()
        .find(|s| s.id == expected || s.capability.id == expected)
        .map(|s| s.id.as_str());
    match id {
        Some(id) if view.iter().any(|s| s.id == id && s.routable()) => id.to_string(),
        _ if expected == "clarify" => "clarify".into(),
        _ => "unsupported".into(),
    }
}

/// Decides every item as the Hub would (router, then validation).
pub(crate) async fn observe(
    router: &Router,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
) -> Vec<Observed> {
    let mut obs = Vec::with_capacity(items.len());
    for item in items {
        let started = Instant::now();
        let decided = router.decide_live(&item.text, view, true).await;
        let took = started.elapsed();
        obs.push(observed(item, decided, took, config, view));
    }
    obs
}

fn observed(
    item: &Item,
    decided: hub::Decided,
    took: Duration,
    config: &hub::Config,
    view: &[SpecialistView],
) -> Observed {
    let sent = decided.call.is_some();
    let outcome = hub::validate(decided.decision, view);
    let (got, routed) = match &outcome {
        Outcome::Route { specialist, .. } | Outcome::Unavailable { specialist, .. } => {
            (specialist.clone(), true)
        }
        Outcome::Clarify { .. } => ("clarify".to_string(), false),
        Outcome::Unsupported { .. } => ("unsupported".to_string(), false),
    };
    Observed {
        expected: effective(&item.expected, config, view),
        got,
        routed,
        kind: item.kind.clone(),
        lang: item.lang.clone(),
        confidence: decided.confidence,
        took,
        sent,
    }
}

/// The labels an item may expect: the set's five (`tutor`, `library`, `marketing`,
/// `clarify`, `unsupported`) and any configured specialist's or capability's id. Anything
/// else is a typo that would silently count as `unsupported`, so the set is refused.
fn check_labels(path: &std::path::Path, items: &[Item], config: &hub::Config) -> anyhow::Result<()> {
    const SET_LABELS: [&str; 5] = ["tutor", "library", "marketing", "clarify", "unsupported"];
    let known = |label: &str| {
        SET_LABELS.contains(&label)
            || config.specialists.iter().any(|s| s.id == label || s.capability.id == label)
    };
    if let Some((n, item)) = items.iter().enumerate().find(|(_, i)| !known(&i.expected)) {
        bail!(
            "{} item {}: unknown expected label {:?} (one of {}, or a configured specialist's id)",
            path.display(),
            n + 1,
            item.expected,
            SET_LABELS.join(", ")
        );
    }
    Ok(())
}

pub(crate) fn read_set(path: &std::path::Path) -> anyhow::Result<Vec<Item>> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_SET_BYTES {
        bail!("{} is larger than {} MiB", path.display(), MAX_SET_BYTES / 1024 / 1024);
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let item: Item = serde_json::from_str(line)
            .with_context(|| format!("{} line {}: not a labelled item", path.display(), i + 1))?;
        if item.text.chars().count() > hub::MAX_QUESTION {
            bail!("{} line {}: the question is longer than the hub accepts", path.display(), i + 1);
        }
        items.push(item);
    }
    if items.is_empty() {
        bail!("{} holds no items", path.display());
    }
    Ok(items)
}

fn pct(r: &Rate) -> String {
    format!(
        "{:5.1}%  [{:5.1}, {:5.1}]  {:>3}/{:<3}",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0,
        r.correct,
        r.n
    )
}

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

pub(crate) async fn run(args: Args, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    // the mode measured is the Hub's ROUTER_MODE: `embed` loads (or refuses) as the Hub does
    let config =
        hub::Config::from_env(&|k| if k == "ROUTER_MODE" { Some(args.mode.clone()) } else { env(k) })?;
    let mode = RouterMode::parse(&args.mode).context("unknown router mode")?;
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
    let router = with_model(Router::new(RouterParts::load(&config)?), llm.clone());
    let training = mode.trains().then(|| {
        let started = Instant::now();
        router.model(&view);
        started.elapsed().as_micros()
    });
    if args.sweep {
        let live = with_model(
            Router::new(RouterParts { mode: RouterMode::Live, ..RouterParts::load(&config)? }),
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

fn with_model(router: Router, llm: Option<Arc<dyn llm::Llm>>) -> Router {
    match llm {
        Some(llm) => router.with_llm(llm),
        None => router,
    }
}

fn model_note(args: &Args, config: &hub::Config) -> String {
    match (&args.replay, &args.record, args.stand_in) {
        (Some(path), _, _) => format!("decisions replayed from {}", path.display()),
        (_, _, true) => "the deterministic stand-in (mock keyword heuristic), not a model".into(),
        _ => config.live.as_ref().map_or_else(String::new, |l| l.model.id().to_string()),
    }
}

/// What answers the live router's calls: a replay, the stand-in, or (`None`) the Hub's
/// configured client. With `--record`, that is first asked about every item and the
/// decisions are written to the file, then replayed from memory (one call per item).
async fn model_for(
    args: &Args,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
) -> anyhow::Result<Option<Arc<dyn llm::Llm>>> {
    if let Some(path) = &args.replay {
        return Ok(Some(Arc::new(decisions::Replay::read(path)?)));
    }
    if !args.stand_in
        && let Some(live) = &config.live
        && live.client.base_url == llm::DEFAULT_BASE_URL
        && !args.paid
    {
        bail!(
            "this asks {} ({}) up to {} times and costs money: add --paid, or use --replay, --stand-in or ANTHROPIC_BASE_URL (campus fake-anthropic)",
            live.model.id(),
            llm::DEFAULT_BASE_URL,
            items.len()
        );
    }
    let inner: Option<Arc<dyn llm::Llm>> = if args.stand_in { Some(Arc::new(hub::stand_in())) } else { None };
    let Some(path) = &args.record else { return Ok(inner) };
    let inner: Arc<dyn llm::Llm> = match inner {
        Some(i) => i,
        None => {
            let live = config.live.as_ref().context("the live router has no model settings")?;
            Arc::new(live.client().map_err(|e| anyhow::anyhow!("the model client: {e}"))?)
        }
    };
    let note = if args.stand_in {
        decisions::STAND_IN_NOTE.to_string()
    } else {
        format!(
            "decisions of {} through the Hub's live router; recorded with campus eval-router --record",
            inner.label()
        )
    };
    let recorder = Arc::new(decisions::Recorder::new(inner));
    let live = Router::new(RouterParts::of(RouterMode::Live, config)).with_llm(recorder.clone());
    for item in items {
        live.decide_live(&item.text, view, true).await;
    }
    let replay = recorder.write(path, &note)?;
    say!("recorded {} decisions in {}", items.len(), path.display());
    Ok(Some(Arc::new(replay)))
}

/// Thresholds `--sweep` reports.
const SWEEP: [f32; 14] = [0.0, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0];

/// `--sweep`: each item decided once by the classifier and once by the live router;
/// for each threshold the hybrid takes the classifier's decision at or above it
/// ([`hub::hybrid_sends`], the Hub's own rule) and the live one below it.
async fn sweep(
    hybrid: &Router,
    live: &Router,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
    json: bool,
) -> anyhow::Result<()> {
    let mut pairs = Vec::with_capacity(items.len());
    for item in items {
        let started = Instant::now();
        let local = hybrid.decide_live(&item.text, view, false).await;
        let local = observed(item, local, started.elapsed(), config, view);
        let started = Instant::now();
        let model = live.decide_live(&item.text, view, true).await;
        let model = observed(item, model, started.elapsed(), config, view);
        pairs.push((local, model));
    }
    let rows: Vec<(f32, Figures)> = SWEEP
        .iter()
        .map(|&t| {
            let obs: Vec<Observed> = pairs
                .iter()
                .map(
                    |(local, model)| {
                        if hub::hybrid_sends(local.confidence, t) { model.clone() } else { local.clone() }
                    },
                )
                .collect();
            (t, figures("hybrid", &obs))
        })
        .collect();
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(t, f)| serde_json::json!({"threshold": t, "accuracy": f.accuracy, "wrongRoutes": f.wrong_routes, "modelShare": f.model_share}))
            .collect();
        say!("{}", serde_json::to_string(&v)?);
        return Ok(());
    }
    say!("threshold  accuracy [Wilson 95%]          wrong routes  sent to the model");
    for (t, f) in &rows {
        say!(
            "{t:>9.2}  {}  {:>12}  {:>5.1}% ({})",
            pct(&f.accuracy),
            f.wrong_routes,
            f.model_share * 100.0,
            f.model_calls
        );
    }
    Ok(())
}

/// `--cv`: the classifier (default fit and rules) cross-validated on the training the
/// Hub would build from the default cards and its out-of-scope examples.
fn cross_validate(config: &hub::Config, view: &[SpecialistView], json: bool) -> anyhow::Result<()> {
    let training = hub::training(view, &config.out_of_scope);
    let (fit, rules) = (intent::softmax::Fit::default(), intent::Rules::default());
    let started = Instant::now();
    let folds = intent::cv::cross_validate(&training, fit, rules, CV_FOLDS);
    let skills = intent::cv::leave_skill_out(&training, fit, rules);
    let took = started.elapsed();
    let row = |s: &intent::cv::Score| (wilson(s.correct, s.n), s.wrong_routes);
    if json {
        let (f, s) = (row(&folds), row(&skills));
        let v = serde_json::json!({
            "folds": {"accuracy": f.0, "wrongRoutes": f.1},
            "skillHeldOut": {"accuracy": s.0, "wrongRoutes": s.1},
        });
        say!("{v}");
        return Ok(());
    }
    for (name, s) in [(format!("{CV_FOLDS}-fold"), &folds), ("skill held out".into(), &skills)] {
        let (r, wrong) = row(s);
        say!("{name:<16} {}  wrong routes {wrong} ({:.1}%)", pct(&r), ratio(wrong, s.n) * 100.0);
    }
    say!("took {:.1} s", took.as_secs_f64());
    Ok(())
}

const CV_FOLDS: usize = 10;

/// The tenth of [0, 1] a confidence falls in. Confidences are f32: 0.9 is 0.89999998 as
/// an f64, so the bin is taken a hair above it (0.9 is in bin 9, not 8).
fn calibration_bin(c: f64) -> usize {
    ((c * 10.0 + 1e-6) as usize).min(9)
}

#[cfg(test)]
mod tests {
    /// Character trigrams of a text, folded (lowercase, letters and digits, single spaces).
    fn trigrams(text: &str) -> std::collections::HashSet<String> {
        let folded: String = text.chars().map(intent::text::fold).collect();
        let words: Vec<&str> =
            folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        let chars: Vec<char> = format!(" {} ", words.join(" ")).chars().collect();
        chars.windows(3).map(|w| w.iter().collect()).collect()
    }

    /// The router learns from the default cards and out-of-scope examples, never from the
    /// dev set: no training text is a copy or a near-copy of a dev item (character-trigram
    /// Jaccard similarity at most 0.5: six blind-written examples above it were dropped).
    #[test]
    fn no_training_text_is_a_near_copy_of_a_dev_item() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let training = hub::training(&super::default_view(&config), &config.out_of_scope);
        let dev = super::read_set(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/routing-dev.v1.jsonl"),
        )
        .unwrap();
        let dev: Vec<(String, std::collections::HashSet<String>)> =
            dev.into_iter().map(|i| (i.text.clone(), trigrams(&i.text))).collect();
        let texts: Vec<&String> =
            training.skills.iter().flat_map(|s| &s.texts).chain(&training.out_of_scope).collect();
        assert!(texts.len() > 500, "{} training texts", texts.len());
        for text in texts {
            let t = trigrams(text);
            for (item, d) in &dev {
                let jaccard = t.intersection(d).count() as f64 / t.union(d).count() as f64;
                assert!(jaccard <= 0.5, "{text:?} is too close to the dev item {item:?} ({jaccard:.2})");
            }
        }
    }

    /// A misspelled or unknown expected label is refused, naming the item; the set's five
    /// labels and configured ids are accepted.
    #[test]
    fn an_unknown_expected_label_is_refused() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let item = |expected: &str| super::Item {
            text: "integrate x^2".into(),
            expected: expected.into(),
            kind: String::new(),
            lang: String::new(),
        };
        let path = std::path::Path::new("set.jsonl");
        let good: Vec<_> =
            ["tutor", "library", "marketing", "clarify", "unsupported", "tutoring"].map(item).to_vec();
        super::check_labels(path, &good, &config).unwrap();
        for bad in ["tutr", "Tutor", ""] {
            let items = vec![item("library"), item(bad)];
            let e = super::check_labels(path, &items, &config).unwrap_err().to_string();
            assert!(e.contains("item 2") && e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    #[test]
    fn f32_confidences_fall_in_their_own_tenth() {
        for (c, bin) in [(0.9f32, 9), (0.7, 7), (0.1, 1), (0.0, 0), (1.0, 9), (0.95, 9), (0.89, 8)] {
            assert_eq!(super::calibration_bin(f64::from(c)), bin, "{c}");
        }
    }

    use super::*;

    fn o(expected: &str, got: &str, kind: &str, confidence: Option<f32>, micros: u64) -> Observed {
        Observed {
            expected: expected.into(),
            got: got.into(),
            routed: !matches!(got, "clarify" | "unsupported"),
            kind: kind.into(),
            lang: if kind == "mixed" { "es-en".into() } else { "en".into() },
            confidence,
            took: Duration::from_micros(micros),
            sent: false,
        }
    }

    /// Six decisions worked out by hand.
    #[test]
    fn figures_on_a_hand_computed_set() {
        let obs = [
            o("tutor", "tutor", "plain", Some(0.9), 10),
            o("tutor", "library", "plain", Some(0.6), 20),
            o("library", "library", "mixed", Some(0.8), 30),
            o("clarify", "clarify", "vague", None, 40),
            o("unsupported", "tutor", "plain", Some(0.7), 50),
            o("unsupported", "unsupported", "mixed", Some(0.9), 1000),
        ];
        let f = figures("classifier", &obs);
        assert_eq!((f.accuracy.correct, f.accuracy.n), (4, 6));
        // Wilson 95% for 4/6: (0.3000, 0.9032)
        assert!(
            (f.accuracy.low - 0.3000).abs() < 1e-3 && (f.accuracy.high - 0.9032).abs() < 1e-3,
            "{:?}",
            f.accuracy
        );
        // per label: tutor P 1/2 R 1/2 → F1 0.5; library P 1/2 R 1 → 2/3;
        // clarify 1; unsupported P 1 R 1/2 → 2/3; macro = (0.5 + 2/3 + 1 + 2/3) / 4
        assert!((f.macro_f1 - (0.5 + 2.0 / 3.0 + 1.0 + 2.0 / 3.0) / 4.0).abs() < 1e-9, "{}", f.macro_f1);
        assert_eq!(f.wrong_routes, 2);
        assert!((f.wrong_route_rate - 2.0 / 6.0).abs() < 1e-9);
        assert_eq!(f.by_kind["plain"].correct, 1);
        assert_eq!(f.by_kind["plain"].n, 3);
        assert_eq!((f.by_lang["es-en"].correct, f.by_lang["es-en"].n), (2, 2));
        assert_eq!(f.clarify, PrecisionRecall { precision: 1.0, recall: 1.0, predicted: 1, expected: 1 });
        assert_eq!(f.unsupported, PrecisionRecall { precision: 1.0, recall: 0.5, predicted: 1, expected: 2 });
        // bins: 0.9 ×2 (both right) → |1 − 0.9| · 2/5; 0.6 (wrong) → 0.6 · 1/5;
        // 0.8 (right) → 0.2 · 1/5; 0.7 (wrong) → 0.7 · 1/5
        let ece = 0.1 * 2.0 / 5.0 + 0.6 / 5.0 + 0.2 / 5.0 + 0.7 / 5.0;
        assert!((f.ece.unwrap() - ece).abs() < 1e-6, "{:?}", f.ece);
        assert_eq!(f.ece_n, 5);
        assert_eq!((f.p50_micros, f.p99_micros), (40.0, 1000.0));
    }

    #[test]
    fn wilson_edges() {
        let r = wilson(0, 0);
        assert_eq!((r.low, r.high), (0.0, 1.0));
        let r = wilson(10, 10);
        assert!(r.high == 1.0 && (r.low - 0.7225).abs() < 1e-3, "{r:?}");
    }

    #[test]
    fn an_unregistered_service_is_expected_unsupported() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let view = default_view(&config);
        assert_eq!(effective("tutor", &config, &view), "tutor");
        assert_eq!(effective("tutoring", &config, &view), "tutor");
        assert_eq!(effective("marketing", &config, &view), "unsupported");
        assert_eq!(effective("clarify", &config, &view), "clarify");
    }
}
