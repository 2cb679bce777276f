//! `campus bench`'s flags.

#[derive(clap::Args)]
pub struct Args {
    /// Round trips per concurrency level
    #[arg(long, default_value_t = 20_000)]
    pub(crate) requests: usize,
    /// Concurrency levels, comma-separated
    #[arg(long, default_value = "1,16,64", value_delimiter = ',')]
    pub(crate) concurrency: Vec<usize>,
    /// RUST_LOG for the Tutor and Hub children (info makes each log lines per message)
    #[arg(long, default_value = "warn")]
    pub(crate) agent_log: String,
    /// Run only the Tutor (no Hub, no Library): the A2A layer's own cost
    #[arg(long)]
    pub(crate) tutor_only: bool,
    /// The Hub's ROUTER_MODE (classifier, its default, or mock)
    #[arg(long, default_value = "classifier", value_parser = ["classifier", "mock"])]
    pub(crate) router: String,
    /// The page under load instead: open it in headless chromium (Topology, then
    /// Conversation) while questions are routed at the highest --concurrency level
    #[arg(long)]
    pub(crate) browser: bool,
    /// With --browser: how long each view is loaded, in seconds
    #[arg(long, default_value_t = 10)]
    pub(crate) seconds: u64,
    /// The fault suite instead: load, soak, slow clients, forged control messages, a cut
    /// network (as root, in a network namespace of its own) and kill -9 of the Tutor and
    /// the Hub, against real processes, with one table
    #[arg(long)]
    pub(crate) faults: bool,
    /// With --faults: the load scenario's sizes (questions at once), comma-separated
    #[arg(long, default_value = "1000,3000", value_delimiter = ',')]
    pub(crate) load: Vec<usize>,
    /// With --faults: how long the soak runs, in seconds
    #[arg(long, default_value_t = 60)]
    pub(crate) soak_seconds: u64,
    /// With --faults: the soak's questions a second
    #[arg(long, default_value_t = 100)]
    pub(crate) soak_rate: u64,
    /// With --faults: connections holding half a request line
    #[arg(long, default_value_t = 1100)]
    pub(crate) slow_clients: usize,
}
