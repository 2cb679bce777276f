//! Measuring Campus from outside, for the `campus` binary's measuring subcommands: `bench`
//! (A2A round trips with every agent in a child process, and `--browser`, the page in
//! headless chromium under load), `fuzz` (generated requests to every endpoint of every
//! process), `eval-router` (the Hub's router on a labelled set) and
//! the paid, opt-in live checks `smoke-live` and `eval-live`. Nothing here serves or runs
//! an agent: the agents are child processes of the running executable (the `campus`
//! binary that calls in here), started, read and stopped from outside.
//!
//! Reports go to standard output through [`say!`]: a reader that stops early
//! (`campus eval-router … | head`) ends the process quietly with exit code 141, as for a
//! process stopped by SIGPIPE.

/// `println!` for reports: a reader that stops early (`| head`) ends the process quietly
/// instead of panicking. SIGPIPE stays ignored, as Rust sets it, so a socket's broken pipe
/// is still an error the caller sees.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::say_line(format_args!($($arg)*))
    };
}

pub mod bench;
pub mod chromium;
mod decisions;
pub mod eval;
pub mod fuzz;
pub mod paid;
mod webdriver;

pub use bench::agents::{PARENT_PID_VAR, wait_registered};

use std::io::Write;

fn say_line(line: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}
