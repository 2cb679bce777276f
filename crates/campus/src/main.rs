//! `campus`: one binary for every Campus process. Thin on purpose: read configuration,
//! build the agent, run it until Ctrl+C, SIGTERM or SIGHUP.
//!
//! Exit codes: 0 done, 1 failure, 2 a question refused before sending (empty, or over
//! 2,000 characters) or a usage error, 78 a bad configuration value or file, 141 a report's
//! reader closed its end early (`campus eval-router … | head`), as for a process stopped
//! by SIGPIPE.

mod demo;
mod lifecycle;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc instead of glibc's allocator, without transparent huge pages: why, in the `heap`
/// crate. Figures in docs/performance.md.
#[global_allocator]
static GLOBAL: heap::Allocator = heap::Allocator;

#[derive(Parser)]
#[command(name = "campus", version, about = "A multi-agent university over A2A, on 127.0.0.1")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every agent as a child process (Hub, Tutor, Library, Professor, the UI server); Ctrl+C stops them all
    #[command(after_help = demo::ports_help())]
    Demo {
        /// Every agent in live mode against the model provider (needs ANTHROPIC_API_KEY, exported or in .env)
        #[arg(long, conflicts_with = "fake_model")]
        live: bool,
        /// Every agent in live mode against a fake model server started as another child (no key, no network)
        #[arg(long)]
        fake_model: bool,
    },
    /// Run the University Hub (127.0.0.1:41243; HUB_CONFIG, PORT, ROUTER_MODE, …)
    Hub,
    /// Run the Tutor agent (127.0.0.1:41241; TUTOR_MODE=mock|fixed|live, TUTOR_MODEL, TUTOR_CONFIG, PORT, HUB_URL, …)
    Tutor,
    /// Run the Library agent (127.0.0.1:41242; LIBRARY_MODE=mock|live, LIBRARY_UI=blocks|catalog, LIBRARY_MODEL, LIBRARY_CONFIG, PORT, HUB_URL, …)
    Library,
    /// Run the Marketing 101 Professor agent (127.0.0.1:41244; PROFESSOR_MODE=mock|live, PROFESSOR_MODEL, PROFESSOR_CONFIG, PORT, HUB_URL, …)
    Professor,
    /// Run the UI server with the Student agent: open its address in a browser (127.0.0.1:4444; UI_PORT or PORT, HUB_URL)
    Ui,
    /// Ask the university a question, or chat without one (HUB_URL; TUTOR_URL asks the Tutor directly)
    #[command(after_help = STUDENT_HELP)]
    Student {
        /// Also print the ids of each exchange (sent and reply messageId, contextId, outcome, task)
        #[arg(short, long)]
        verbose: bool,
        /// The question, quotes optional; without one, a chat opens in one conversation
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "QUESTION")]
        words: Vec<String>,
    },
    /// Forget the key an agent pinned for another (after replacing that one's key on purpose); stop the agent first
    #[command(name = "forget-key", after_help = FORGET_HELP)]
    ForgetKey {
        /// The agent whose store holds the pin (hub, tutor, library, professor)
        agent: String,
        /// The identity whose key it forgets (a specialist's id for the hub; hub for a specialist)
        identity: String,
    },
    /// Measure A2A round trips (direct and through the Hub) with agents in child processes
    Bench(measure::bench::Args),
    /// Send generated requests to every HTTP endpoint of every agent (child processes); non-zero on any finding
    Fuzz(measure::fuzz::Args),
    /// Measure the Hub's router on a labelled set (JSON lines) against the default cards
    #[command(name = "eval-router")]
    EvalRouter(measure::eval::Args),
    /// Paid, opt-in: check the model exists, then a question and a follow-up through Hub and Tutor in live mode; prints the plan and worst-case cost and stops unless LIVE_SMOKE_MAX_USD covers it
    #[command(name = "smoke-live")]
    SmokeLive,
    /// Paid, opt-in: routing cases through the live Hub router and scope cases through the live Tutor; prints the plan and worst-case cost and stops unless LIVE_EVAL_MAX_USD covers it
    #[command(name = "eval-live")]
    EvalLive,
    /// Run a fake Anthropic Messages API for tests and keyless demos: scripted replies, errors and delays; records every request
    #[command(name = "fake-anthropic", after_help = FAKE_HELP)]
    FakeAnthropic {
        /// The port on 127.0.0.1 (0: any free port)
        #[arg(long, env = "PORT", default_value_t = llm::fake::DEFAULT_PORT)]
        port: u16,
        /// A JSON script: {"replies": [...], "rules": [...], "default": {...}, "models": [...], "accept_key": "..."}
        #[arg(long, value_name = "FILE", conflicts_with = "demo_script")]
        script: Option<std::path::PathBuf>,
        /// The script `campus demo --fake-model` uses: router decisions, scope checks that pass, labelled answers
        #[arg(long)]
        demo_script: bool,
    },
}

const FAKE_HELP: &str = "\
Point a live agent at it with ANTHROPIC_BASE_URL=http://127.0.0.1:41249 and any placeholder key.
A reply is {\"text\"}, {\"json\"}, {\"stop_reason\": \"refusal\"|\"max_tokens\"}, {\"status\": 429} (the
provider's error shape), with optional \"delay_ms\", \"thinking\", \"input_tokens\", \"output_tokens\".
GET /_fake/requests lists what it received (never the key); PUT /_fake/script replaces the script.";

const FORGET_HELP: &str = "\
Examples (the data folder is CAMPUS_DATA_DIR, default data):
  campus forget-key hub tutor     the Hub pins the next key the Tutor proves
  campus forget-key tutor hub     the Tutor pins the next key the Hub gives

Each agent's own key is <data folder>/<agent>.key; deleting it makes a new one at the next
start, which every agent that pinned the old one refuses (key_mismatch) until told to forget.";

const STUDENT_HELP: &str = "\
Examples:
  campus student how do I find the derivative of x^2
  campus student            (a chat: /new, /help, /quit or Ctrl+D)

A question is at most 2000 characters; an empty or longer one is not sent (exit code 2).";

impl Command {
    /// Whether the command runs until stopped (an agent, the UI server, a launcher).
    fn serves(&self) -> bool {
        matches!(
            self,
            Command::Demo { .. }
                | Command::Hub
                | Command::Tutor
                | Command::Library
                | Command::Professor
                | Command::Ui
                | Command::FakeAnthropic { .. }
        )
    }
}

fn env(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.is_empty())
}

/// Logs to stderr at `RUST_LOG`, else at `default` (the Student: warnings only, so its
/// log does not interleave with the conversation).
fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .init();
}

/// Each process runs its async work on one thread unless `CAMPUS_WORKER_THREADS` asks for
/// more. Campus runs four or five processes on one machine: one thread each avoids the
/// cross-thread wake-ups and allocator lock contention that several multi-threaded
/// runtimes sharing two cores cost (measured: the routed benchmark ran about 20% faster,
/// see README), and keeps idle memory low. The benchmark's load generator always uses one
/// thread, leaving the cores to the agents it measures.
fn runtime(bench: bool) -> anyhow::Result<tokio::runtime::Runtime> {
    const VAR: &str = "CAMPUS_WORKER_THREADS";
    let threads = conf::env_parse::<usize>(VAR, &env, "a number from 1 to 64")?.unwrap_or(1);
    if !(1..=64).contains(&threads) {
        return Err(conf::ConfError::new(VAR, "", format!("{threads} is not a number from 1 to 64")).into());
    }
    let mut builder = if bench || threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(threads);
        b
    };
    // CPU-bound work (the Tutor's answers, the router's decisions) and SQLite calls run on
    // the blocking pool: more threads than a few per core add no speed, and each keeps its
    // own stack and allocator pages (3,000 questions at once made 512 threads and left
    // the Tutor at 280 MB)
    builder.max_blocking_threads(BLOCKING_THREADS);
    builder.enable_all().build().map_err(|e| anyhow::anyhow!("could not start the async runtime: {e}"))
}

/// The most threads a process's blocking pool runs at once.
const BLOCKING_THREADS: usize = 8;

/// How every server here takes connections (`guard::Limits`: head and body timeouts, the
/// connection cap), with the environment's overrides.
///
/// Without `CAMPUS_MAX_CONNECTIONS`, the cap is [`CONNECTIONS`], or what the process's
/// open-file limit leaves room for: the soft limit is first raised to the hard one (at
/// most 65,536), and 256 files are kept for the agent's own clients, store and logs.
fn limits() -> Result<guard::Limits, conf::ConfError> {
    let mut limits = guard::Limits::from_env(&env)?;
    if env("CAMPUS_MAX_CONNECTIONS").is_none() {
        limits.max_connections = CONNECTIONS.min(open_files().saturating_sub(256)).max(64);
    }
    Ok(limits)
}

/// The connections a server takes at once by default, where open files allow.
const CONNECTIONS: usize = 4096;

/// Raises the soft open-file limit to the hard one (at most 65,536); the soft limit after.
fn open_files() -> usize {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else { return 1024 };
    let want = hard.min(65_536);
    if want > soft && setrlimit(Resource::RLIMIT_NOFILE, want, hard).is_ok() {
        return want as usize;
    }
    soft as usize
}

/// Exit code for a configuration error (like `EX_CONFIG`).
const EXIT_CONFIG: u8 = 78;
/// Exit code for a question refused before sending (as clap's usage errors).
const EXIT_REFUSED: u8 = 2;

fn exit_code(e: &anyhow::Error) -> ExitCode {
    if e.downcast_ref::<conf::ConfError>().is_some() {
        ExitCode::from(EXIT_CONFIG)
    } else if e.downcast_ref::<student::chat::Refused>().is_some() {
        ExitCode::from(EXIT_REFUSED)
    } else if let Some(failed) = e.downcast_ref::<demo::StartFailed>() {
        ExitCode::from(if failed.config { EXIT_CONFIG } else { 1 })
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(
        if matches!(
            cli.command,
            Command::Student { .. } | Command::SmokeLive | Command::EvalLive | Command::Bench(_)
        ) {
            "warn"
        } else {
            "info"
        },
    );
    let fail = |e: anyhow::Error| {
        eprintln!("error: {e:#}");
        exit_code(&e)
    };
    match lifecycle::follow_parent(&env) {
        Ok(true) => {}
        Ok(false) => {
            return fail(anyhow::anyhow!("the launcher that started this process is gone; not starting"));
        }
        Err(e) => return fail(e.into()),
    }
    let runtime = match runtime(matches!(cli.command, Command::Bench(_))) {
        Ok(rt) => rt,
        Err(e) => return fail(e),
    };
    // Launchers spawn their children here, in the future block_on polls on this (main)
    // thread: a child's parent-death signal follows the thread that spawned it.
    let result = runtime.block_on(async {
        if cli.command.serves() {
            // a server that goes quiet hands back what its busy moments left (see heap)
            tokio::spawn(heap::hand_back_when_quiet());
        }
        match cli.command {
            Command::Demo { live, fake_model } => {
                let models = match (live, fake_model) {
                    (true, _) => demo::Models::Live,
                    (_, true) => demo::Models::Fake,
                    _ => demo::Models::Default,
                };
                demo::run(models).await
            }
            Command::Hub => run_hub().await,
            Command::Tutor => run_tutor().await,
            Command::Library => run_library().await,
            Command::Professor => run_professor().await,
            Command::Ui => run_ui().await,
            Command::Student { verbose, words } => run_student(words, verbose).await,
            Command::ForgetKey { agent, identity } => forget_key(&agent, &identity).await,
            Command::Bench(args) => measure::bench::run(args).await,
            Command::Fuzz(args) => measure::fuzz::run(args).await,
            Command::EvalRouter(args) => measure::eval::run(args, &env).await,
            Command::SmokeLive => measure::paid::smoke(&env).await,
            Command::EvalLive => measure::paid::eval(&env).await,
            Command::FakeAnthropic { port, script, demo_script } => {
                run_fake_anthropic(port, script, demo_script).await
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

async fn run_hub() -> anyhow::Result<()> {
    let config = hub::Config::from_env(&env)?;
    // the live router's client and the embed router's model (a model that cannot be
    // loaded is a configuration error, exit 78)
    let routing = hub::RouterParts::load(&config, &env)?;
    let listener = lifecycle::bind("hub", config.bind).await?;
    // An unusable data file or folder stops the Hub here, before its ready line (exit 1).
    let data = hub::open_store(&config).await?;
    let shutdown = lifecycle::shutdown_signal()?;
    if let Some(live) = &config.live {
        // the model and whether its key is set (never the key)
        println!(
            "hub router {} on {} (key {}: {})",
            config.router.as_str(),
            live.model.id(),
            live.key_variable,
            live.key_status()
        );
    }
    // The ready line: tests and the launcher read the real address from it.
    println!("hub listening on http://{}", listener.local_addr()?);
    hub::serve(listener, config, routing, data, limits()?, shutdown).await?;
    Ok(())
}

/// `campus forget-key AGENT IDENTITY`: removes IDENTITY's pin from AGENT's store.
async fn forget_key(agent: &str, identity: &str) -> anyhow::Result<()> {
    let known = |id: &str| id == vocab::agents::HUB || vocab::agents::SPECIALISTS.contains(&id);
    if !known(agent) {
        anyhow::bail!("{agent:?} is not an agent with a store (hub, tutor, library, professor)");
    }
    let dir =
        std::path::PathBuf::from(env("CAMPUS_DATA_DIR").unwrap_or_else(|| store::DEFAULT_DATA_DIR.into()));
    let path = store::file_for(&dir, agent);
    if !path.exists() {
        anyhow::bail!("{}: no such file (is CAMPUS_DATA_DIR right?)", path.display());
    }
    let store = store::Store::open(&path)?;
    let identity_owned = identity.to_string();
    let forgotten = store.run(move |s| s.forget_key(&identity_owned)).await?;
    if forgotten {
        println!("{agent} forgot {identity}'s key; it pins the next one {identity} proves");
    } else {
        println!("{agent} had no key pinned for {identity}");
    }
    Ok(())
}

async fn run_fake_anthropic(
    port: u16,
    script: Option<std::path::PathBuf>,
    demo_script: bool,
) -> anyhow::Result<()> {
    let script = match script {
        Some(path) => llm::fake::load_script(&path)?,
        None if demo_script => demo::fake_script(),
        None => llm::fake::Script::default(),
    };
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let listener = lifecycle::bind("fake-anthropic", addr).await?;
    let shutdown = lifecycle::shutdown_signal()?;
    println!("fake-anthropic listening on http://{}", listener.local_addr()?);
    llm::fake::serve(listener, script, limits()?, shutdown).await?;
    Ok(())
}

async fn run_ui() -> anyhow::Result<()> {
    let config = ui::Config::from_env(&env)?;
    let listener = lifecycle::bind("ui", config.bind).await?;
    let shutdown = lifecycle::shutdown_signal()?;
    println!("ui listening on http://{}", listener.local_addr()?);
    ui::serve(listener, config, limits()?, shutdown).await?;
    Ok(())
}

/// The Tutor: `TUTOR_MODE`; in live mode the model reads its chat too (see [`live_model`]).
async fn run_tutor() -> anyhow::Result<()> {
    let mode = tutor::Mode::from_env(&env)?;
    let config = specialist::Config::from_env("TUTOR_CONFIG", tutor::DEFAULT_PORT, tutor::RULES, &env)?;
    let (answerer, decider) = match tutor::Answerer::for_mode(mode) {
        Some(answerer) => (answerer, forms::intent::heuristic()),
        None => {
            let (model, llm, log_content) = live_model("tutor", &config)?;
            let decider: std::sync::Arc<dyn forms::intent::Decide> =
                std::sync::Arc::new(forms::intent::Live { llm: llm.clone(), model });
            (tutor::Answerer::live(tutor::LiveConfig { llm, model, log_content }), decider)
        }
    };
    run_specialist("tutor", config, tutor::agent(answerer, decider)).await
}

/// The Library: `LIBRARY_MODE`; in live mode see [`live_model`].
async fn run_library() -> anyhow::Result<()> {
    let mode = library::Mode::from_env("LIBRARY_MODE", &env)?;
    let ui = library::ComposeMode::from_env(&env)?;
    // a fixed clock that is no instant stops the Library here (exit 78), not at its first answer
    library::Clock::from_env(&env).map_err(|e| {
        let problem = e.trim_start_matches(library::CLOCK_ENV).trim_start_matches(": ").to_string();
        conf::ConfError::new(library::CLOCK_ENV, "", problem)
    })?;
    let config = specialist::Config::from_env("LIBRARY_CONFIG", library::DEFAULT_PORT, library::RULES, &env)?;
    let live = match mode {
        library::Mode::Mock => None,
        library::Mode::Live => {
            let (model, llm, log_content) = live_model("library", &config)?;
            Some(library::LiveConfig { llm, model, log_content })
        }
    };
    run_specialist("library", config, library::agent(live, ui)).await
}

/// The Professor: `PROFESSOR_MODE`; in live mode see [`live_model`].
async fn run_professor() -> anyhow::Result<()> {
    let mode = professor::Mode::from_env(professor::MODE_ENV, &env)?;
    let config =
        specialist::Config::from_env("PROFESSOR_CONFIG", professor::DEFAULT_PORT, professor::RULES, &env)?;
    let live = match mode {
        professor::Mode::Mock => None,
        professor::Mode::Live => {
            let (model, llm, log_content) = live_model("professor", &config)?;
            Some(professor::LiveConfig { llm, model, log_content })
        }
    };
    run_specialist("professor", config, professor::agent(live)).await
}

/// A specialist's model in live mode: `<AGENT>_MODEL`, else the config's `model.name` (an
/// unknown one stops it here, exit 78); the key from the config's `model.keyVariable`
/// (default `ANTHROPIC_API_KEY`), else `<AGENT>_ENV_FILE` / `.env`; and
/// `<AGENT>_LOG_CONTENT`. Prints the startup line, which says whether a key is set, never
/// the key.
fn live_model(
    agent: &str,
    config: &specialist::Config,
) -> anyhow::Result<(llm::Model, std::sync::Arc<dyn llm::Llm>, bool)> {
    let upper = agent.to_ascii_uppercase();
    let setup = llm::LiveSetup::from_env(&upper, &config.model, &config.source, &env)?;
    let log_content = conf::env_bool(&format!("{upper}_LOG_CONTENT"), &env)?.unwrap_or(false);
    let client =
        setup.client().map_err(|e| anyhow::anyhow!("the model client could not start: {}", e.code))?;
    eprintln!(
        "{agent} live mode: model {}, API key ({}): {}, content logging {}",
        setup.model.id(),
        setup.key_variable,
        setup.key_status(),
        if log_content { "on" } else { "off" }
    );
    Ok((setup.model, std::sync::Arc::new(client), log_content))
}

async fn run_specialist<E, F>(
    name: &str,
    config: specialist::Config,
    agent: specialist::Agent<E, F>,
) -> anyhow::Result<()>
where
    E: a2a::server::AgentExecutor,
    F: FnOnce(skills::Settings, telemetry::Telemetry, specialist::Store) -> E,
{
    // A taken port stops the agent first, before it touches its data file.
    let listener = lifecycle::bind(name, config.bind).await?;
    // An unusable data file or folder stops the agent here, before its ready line (exit 1).
    let stored = specialist::open_store(agent.identity, &config, agent.rules).await?;
    let shutdown = lifecycle::shutdown_signal()?;
    println!("{name} listening on http://{}", listener.local_addr()?);
    specialist::serve(listener, agent, config, stored, limits()?, shutdown).await?;
    Ok(())
}

/// One question (the words joined by spaces) or, without words, a chat on stdin.
async fn run_student(words: Vec<String>, verbose: bool) -> anyhow::Result<()> {
    // A question that would be refused is refused before anything else is read or sent.
    let joined = (!words.is_empty()).then(|| words.join(" "));
    let question = joined.as_deref().map(student::chat::check_question).transpose()?;
    let config = student::Config::from_env(&env)?;
    let client = a2a::client::A2aClient::new(a2a::client::ClientConfig {
        timeout: config.timeout,
        ..Default::default()
    });
    let own = student::OwnModel::from_env(&env)?;
    if let Some(own) = &own {
        let key = own.key_status().map(|k| format!(", key {k}")).unwrap_or_default();
        eprintln!("student's own model: {} ({}{key})", own.mode().as_str(), own.model_id());
    }
    let me = student::Student::new(client, config.url.clone()).text_only().with_own_model(own);
    let mut out = std::io::stdout().lock();
    let Some(question) = question else {
        let stdin = std::io::stdin();
        let opts = student::chat::ChatOptions { prompt: stdin.is_terminal(), verbose };
        let mut err = std::io::stderr();
        return Ok(student::chat::chat(&me, stdin.lock(), &mut out, &mut err, opts).await?);
    };
    let asked = me
        .ask_own(question)
        .await
        .map_err(|e| anyhow::anyhow!("could not ask the agent at {}: {e}", config.url))?;
    student::chat::write_asked(&mut out, &asked, verbose)?;
    Ok(())
}
