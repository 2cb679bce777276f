//! `campus eval-router`'s flags.

#[derive(clap::Args)]
pub struct Args {
    /// The labelled set (JSON lines)
    #[arg(long, required_unless_present = "cv")]
    pub(crate) set: Option<std::path::PathBuf>,
    /// Instead of a set: cross-validate the classifier on its own training texts
    /// (10 folds over the sentences, then each library skill held out whole)
    #[arg(long, conflicts_with = "set")]
    pub(crate) cv: bool,
    /// The router to measure
    /// (embed: only in a build with `--features embed`, after scripts/fetch-minilm.sh;
    /// live and hybrid: with --replay, --stand-in, or the Hub's model settings)
    #[arg(long, default_value = "classifier", value_parser = ["classifier", "mock", "direct", "embed", "live", "hybrid"])]
    pub(crate) mode: String,
    /// live, hybrid: answer the model's calls from decisions recorded in FILE (JSON lines,
    /// see eval/routing-dev.live-decisions.v1.jsonl): no call leaves the machine
    #[arg(long, value_name = "FILE", conflicts_with_all = ["record", "stand_in"])]
    pub(crate) replay: Option<std::path::PathBuf>,
    /// live, hybrid: first ask the model about every item (the configured model: HUB_MODEL,
    /// ANTHROPIC_BASE_URL, the key; or --stand-in) and record its decisions in FILE
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<std::path::PathBuf>,
    /// live, hybrid: the deterministic stand-in (the mock keyword heuristic behind the
    /// model seam) instead of a model; its figures are the stand-in's, not a model's
    #[arg(long)]
    pub(crate) stand_in: bool,
    /// Recording from the real provider costs money: say so
    #[arg(long)]
    pub(crate) paid: bool,
    /// hybrid: accuracy against the share sent to the model over a range of thresholds
    #[arg(long)]
    pub(crate) sweep: bool,
    /// Print the figures as one JSON object instead of a table
    #[arg(long)]
    pub(crate) json: bool,
    /// Also list every item decided wrongly (expected, got, text)
    #[arg(long)]
    pub(crate) errors: bool,
}
