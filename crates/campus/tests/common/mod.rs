//! Starting the real `campus` binary as child processes, reading their ready lines.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_campus");

/// A running `campus` child; killed on drop. Its stderr lines are kept for assertions.
pub struct Proc {
    child: Child,
    pub url: String,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Proc {
    /// Starts `campus <args>` with `env` and waits (up to 30 s) for its `listening on` line.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Proc {
        let mut cmd = Command::new(BIN);
        cmd.args(args).env("PORT", "0").env("RUST_LOG", "info").env_remove("TUTOR_URL");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn campus");
        let stderr = collect(child.stderr.take().unwrap());
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.split(" listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("campus {args:?} did not print its ready line; stderr: {:?}", stderr.lock().unwrap())
        });
        Proc { child, url, stderr }
    }

    pub fn stderr(&self) -> Vec<String> {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until a stderr line satisfies `pred` (up to 10 s, checking as lines arrive).
    pub fn wait_for_log(&self, pred: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(line) = self.stderr().into_iter().find(|l| pred(l)) {
                return line;
            }
            assert!(std::time::Instant::now() < deadline, "log line not found; stderr: {:?}", self.stderr());
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn collect(stream: impl std::io::Read + Send + 'static) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    lines
}

/// Runs `campus <args>` to completion: (exit success, stdout, stderr).
pub fn run(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env("RUST_LOG", "info");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run campus");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value after `key=` in a line of `key=value` pairs.
pub fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("{key}=");
    text.split_whitespace().find_map(|w| w.strip_prefix(pat.as_str())).map(|v| v.trim_matches('"'))
}
