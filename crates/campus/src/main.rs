//! `campus`: one binary for every Campus process. Thin on purpose: read configuration,
//! build the agent, run it until Ctrl+C.

mod bench;
mod demo;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tokio::net::TcpListener;

/// mimalloc instead of glibc's allocator: an agent's request path is many small, short-lived
/// allocations (JSON, headers, ids), and glibc's malloc and free were over a quarter of the
/// Hub's CPU time per routed question (perf). Built with `no_thp`, so mimalloc does not ask
/// the kernel for transparent huge pages (`madvise(MADV_HUGEPAGE)`): where THP is set to
/// `madvise` (this machine), that request doubled each process's idle resident memory. A
/// kernel set to `always` uses huge pages unless a process opts out, which this build does
/// not do. Figures in the README, Performance.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "campus", version, about = "A multi-agent university over A2A, on 127.0.0.1")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every agent as a child process (Hub, Tutor, Library); Ctrl+C stops them all
    Demo,
    /// Run the University Hub (127.0.0.1:41243; HUB_CONFIG, PORT, ROUTER_MODE, …)
    Hub,
    /// Run the Tutor agent (127.0.0.1:41241; TUTOR_MODE=mock|fixed, TUTOR_CONFIG, PORT, HUB_URL, …)
    Tutor,
    /// Run the Library agent (127.0.0.1:41242; LIBRARY_CONFIG, PORT, HUB_URL, …)
    Library,
    /// Ask the university one question from the command line (HUB_URL; TUTOR_URL asks the Tutor directly)
    Student {
        /// The question (default: the Part 1 greeting)
        text: Option<String>,
    },
    /// Measure A2A round trips (direct and through the Hub) with agents in child processes
    Bench(bench::Args),
}

fn env(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.is_empty())
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
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
    let threads =
        match env("CAMPUS_WORKER_THREADS") {
            None => 1,
            Some(v) => v.parse::<usize>().ok().filter(|n| (1..=64).contains(n)).ok_or_else(|| {
                anyhow::anyhow!("CAMPUS_WORKER_THREADS: {v:?} is not a number from 1 to 64")
            })?,
        };
    let mut builder = if bench || threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(threads);
        b
    };
    Ok(builder.enable_all().build()?)
}

/// Exit code for a configuration error (like `EX_CONFIG`).
const EXIT_CONFIG: u8 = 78;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    let runtime = match runtime(matches!(cli.command, Command::Bench(_))) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Demo => demo::run().await,
            Command::Hub => run_hub().await,
            Command::Tutor => match tutor::Mode::from_env(&env) {
                Ok(mode) => {
                    run_specialist("tutor", "TUTOR_CONFIG", tutor::DEFAULT_PORT, tutor::agent(mode)).await
                }
                Err(e) => Err(e.into()),
            },
            Command::Library => {
                run_specialist("library", "LIBRARY_CONFIG", library::DEFAULT_PORT, library::agent()).await
            }
            Command::Student { text } => run_student(text).await,
            Command::Bench(args) => bench::run(args).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<conf::ConfError>().is_some() {
                ExitCode::from(EXIT_CONFIG)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

async fn shutdown_signal() {
    // Without a signal handler we still serve; Ctrl+C then ends the process the hard way.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
    tracing::info!("shutting down");
}

async fn bind(addr: std::net::SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("could not bind {}: {}", addr, e.kind().to_string().to_lowercase()))
}

async fn run_hub() -> anyhow::Result<()> {
    let config = hub::Config::from_env(&env)?;
    let listener = bind(config.bind).await?;
    // The ready line: tests and the launcher read the real address from it.
    println!("hub listening on http://{}", listener.local_addr()?);
    hub::serve(listener, config, shutdown_signal()).await?;
    Ok(())
}

async fn run_specialist<E, F>(
    name: &str,
    file_var: &str,
    default_port: u16,
    agent: specialist::Agent<E, F>,
) -> anyhow::Result<()>
where
    E: a2a::server::AgentExecutor,
    F: FnOnce(skills::Settings, telemetry::Telemetry) -> E,
{
    let config = specialist::Config::from_env(file_var, default_port, agent.rules, &env)?;
    let listener = bind(config.bind).await?;
    println!("{name} listening on http://{}", listener.local_addr()?);
    specialist::serve(listener, agent, config, shutdown_signal()).await?;
    Ok(())
}

async fn run_student(text: Option<String>) -> anyhow::Result<()> {
    let config = student::Config::from_env(&env)?;
    let url = config.url.clone();
    let client = a2a::client::A2aClient::new(a2a::client::ClientConfig {
        timeout: config.timeout,
        ..Default::default()
    });
    let text = text.unwrap_or_else(|| student::DEFAULT_QUESTION.to_string());
    let me = student::Student::new(client, url.clone());
    let ex = me.ask(&text).await.map_err(|e| anyhow::anyhow!("could not ask the agent at {url}: {e}"))?;
    let who = match &ex.served_by {
        Some(s) if *s != ex.agent => format!("{} · {s}", ex.agent),
        _ => ex.agent.clone(),
    };
    println!("{who}: {}", ex.reply_text);
    let sent_context = ex.sent_context_id.as_deref().unwrap_or("(new)");
    println!("sent  messageId={} contextId={sent_context}", ex.sent_message_id);
    println!("reply messageId={} contextId={}", ex.reply_message_id, ex.context_id);
    if let Some(outcome) = &ex.outcome {
        println!("outcome {outcome}");
    }
    if let Some((id, state)) = &ex.task {
        println!("task  id={id} state={state}");
    }
    Ok(())
}
