//! `campus`: one binary for every Campus process. Thin on purpose: read configuration,
//! build the agent, run it until Ctrl+C.

mod bench;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use tokio::net::TcpListener;

#[derive(Parser)]
#[command(name = "campus", version, about = "A multi-agent university over A2A, on 127.0.0.1")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Tutor agent (127.0.0.1:41241; PORT overrides)
    Tutor,
    /// Ask the Tutor one question from the command line (TUTOR_URL overrides where)
    Student {
        /// The question (default: the Part 1 greeting)
        text: Option<String>,
    },
    /// Measure A2A round trips to a fixed Tutor in a child process
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    // The benchmark's load generator runs on one thread, leaving the other core to the
    // agents it measures; agents use the multi-threaded runtime.
    let builder = match cli.command {
        Command::Bench(_) => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = match { builder }.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Tutor => run_tutor().await,
            Command::Student { text } => run_student(text).await,
            Command::Bench(args) => bench::run(args).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
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

async fn run_tutor() -> anyhow::Result<()> {
    let config = tutor::Config::from_env(env)?;
    let listener = TcpListener::bind(config.bind).await.map_err(|e| {
        anyhow::anyhow!("could not bind {}: {}", config.bind, e.kind().to_string().to_lowercase())
    })?;
    let addr = listener.local_addr()?;
    // The ready line: tests and the launcher read the real address from it.
    println!("tutor listening on http://{addr}");
    tutor::serve(listener, shutdown_signal()).await?;
    Ok(())
}

async fn run_student(text: Option<String>) -> anyhow::Result<()> {
    let base = env("TUTOR_URL").unwrap_or_else(|| student::DEFAULT_TUTOR_URL.to_string());
    let timeout_ms = match env("STUDENT_TIMEOUT_MS") {
        None => 10_000,
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| anyhow::anyhow!("STUDENT_TIMEOUT_MS: {v:?} is not a number of milliseconds"))?,
    };
    let client = a2a::client::A2aClient::new(a2a::client::ClientConfig {
        timeout: Duration::from_millis(timeout_ms),
        ..Default::default()
    });
    let text = text.unwrap_or_else(|| student::DEFAULT_QUESTION.to_string());
    let ex = student::ask(&client, &base, &text, None)
        .await
        .map_err(|e| anyhow::anyhow!("could not ask the agent at {base}: {e}"))?;
    println!("{}: {}", ex.agent, ex.reply_text);
    println!("sent  messageId={} contextId={}", ex.sent_message_id, ex.context_id);
    println!("reply messageId={} contextId={}", ex.reply_message_id, ex.context_id);
    if let Some((id, state)) = &ex.task {
        println!("task  id={id} state={state}");
    }
    Ok(())
}
