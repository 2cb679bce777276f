//! Starting the real `campus` binary as child processes, reading their ready lines, and
//! the small waits the process tests share.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The `campus` binary the tests start: `CARGO_BIN_EXE_campus` when Cargo sets it for the
/// running test, else the binary beside the test's own (`target/<profile>/campus`, the test
/// being `target/<profile>/deps/<name>-<hash>`), which Cargo builds before any test of the
/// campus package.
pub fn bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(exe) = std::env::var_os("CARGO_BIN_EXE_campus") {
            return PathBuf::from(exe);
        }
        let me = std::env::current_exe().expect("the test's own path");
        let profile = me.parent().and_then(Path::parent).expect("a test under target/<profile>/deps");
        let exe = profile.join("campus");
        assert!(exe.exists(), "no campus binary at {}", exe.display());
        exe
    })
}

/// A fresh folder under the system temp dir, removed on drop: a process's data folder.
pub struct TempDir(std::path::PathBuf);

// a new folder each time, never a default one
#[allow(clippy::new_without_default)]
impl TempDir {
    pub fn new() -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("campus-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    pub fn as_str(&self) -> &str {
        self.0.to_str().expect("a utf-8 temp path")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Gives `cmd` a fresh data folder unless `env` names one (`CAMPUS_DATA_DIR`), so no
/// test shares state with another or leaves a `data/` folder in the repository.
fn data_dir(cmd: &mut Command, env: &[(&str, &str)]) -> Option<TempDir> {
    cmd.env_remove("CAMPUS_DATA_DIR");
    if env.iter().any(|(k, _)| *k == "CAMPUS_DATA_DIR") {
        return None;
    }
    let dir = TempDir::new();
    cmd.env("CAMPUS_DATA_DIR", dir.path());
    Some(dir)
}

/// A running `campus` child; killed on drop. Its stderr lines are kept for assertions.
pub struct Proc {
    child: Child,
    pub url: String,
    stderr: Arc<Mutex<Vec<String>>>,
    // dropped after the child is killed (fields drop after `Drop::drop`)
    data: Option<TempDir>,
}

impl Proc {
    /// Starts `campus <args>` with `env` and waits (up to 30 s) for its `listening on` line.
    /// Without `CAMPUS_DATA_DIR` in `env`, the process gets its own temp data folder.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Proc {
        let mut cmd = Command::new(bin());
        cmd.args(args).env("PORT", "0").env("RUST_LOG", "info");
        let data = data_dir(&mut cmd, env);
        for var in [
            "TUTOR_URL",
            "LIBRARY_URL",
            "HUB_URL",
            "HUB_CONFIG",
            "TUTOR_CONFIG",
            "TUTOR_MODE",
            "LIBRARY_CONFIG",
            "PROFESSOR_URL",
            "PROFESSOR_CONFIG",
            "PROFESSOR_MODE",
            "ROUTER_MODE",
            "STUDENT_MODE",
        ] {
            cmd.env_remove(var);
        }
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
        Proc { child, url, stderr, data }
    }

    /// The data folder the test gave it (`None` when `env` named one).
    pub fn data_dir(&self) -> Option<&std::path::Path> {
        self.data.as_ref().map(TempDir::path)
    }

    /// Kills the process with SIGKILL (no graceful path) and waits for it to be gone.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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

/// Runs `campus <args>` to completion: (exit success, stdout, stderr). Without
/// `CAMPUS_DATA_DIR` in `env`, the process gets its own temp data folder; without `PORT`,
/// an agent that gets as far as binding takes a port the system picks, never its default
/// (the defaults lie in the ephemeral range, where another test's port may already be).
pub fn run(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let mut cmd = Command::new(bin());
    cmd.args(args).env("RUST_LOG", "info").env("PORT", "0");
    let _data = data_dir(&mut cmd, env);
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

/// A free port on 127.0.0.1 for a process the test starts next. It is taken below the
/// system's ephemeral range (32768 and up on Linux), so no connection or `PORT=0` bind
/// elsewhere can be handed the same port before the child binds it, and from a counter, so
/// no two tests of one binary pick the same port; each is checked free by binding it.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    const FIRST: u32 = 20_000;
    const SPAN: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    // each test binary starts at its own place in the range (binaries run one at a time)
    let _ = NEXT.compare_exchange(u32::MAX, std::process::id() % SPAN, Ordering::Relaxed, Ordering::Relaxed);
    for _ in 0..SPAN {
        let port = (FIRST + NEXT.fetch_add(1, Ordering::Relaxed) % SPAN) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {FIRST} and {}", FIRST + SPAN)
}

/// Polls `check` every 20 ms until it returns `Some`, for up to `secs` seconds.
pub fn poll<T>(secs: u64, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `campus demo ARGS` on free ports in `data` (its working and data directory), with
/// fast heartbeats; returns the command and the ports `[hub, tutor, library, ui, fake
/// model]`.
pub fn demo(args: &[&str], data: &std::path::Path) -> (Command, [u16; 5]) {
    let ports = [free_port(), free_port(), free_port(), free_port(), free_port()];
    let mut cmd = Command::new(bin());
    cmd.args(["demo"])
        .args(args)
        .current_dir(data)
        .env("CAMPUS_DATA_DIR", data)
        .env("HEARTBEAT_INTERVAL_MS", "100");
    for (name, port) in
        ["HUB_PORT", "TUTOR_PORT", "LIBRARY_PORT", "UI_PORT", "FAKE_ANTHROPIC_PORT"].iter().zip(ports)
    {
        cmd.env(name, port.to_string());
    }
    // the Professor on a port of its own too (not returned: nothing here asks it directly)
    cmd.env("PROFESSOR_PORT", free_port().to_string());
    (cmd, ports)
}

/// A child's stdout read line by line on a thread (`campus demo`'s prefixed output).
pub struct Lines {
    rx: mpsc::Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Lines {
    /// Spawns `cmd` with stdout piped (stderr dropped) and follows its stdout.
    pub fn spawn(cmd: &mut Command) -> (Child, Lines) {
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let (tx, rx) = mpsc::channel::<String>();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        (child, Lines { rx, seen: Vec::new() })
    }

    /// The next line for which `pred` holds (within 30 s of the one before).
    pub fn wait(&mut self, pred: &dyn Fn(&str) -> bool, what: &str) -> String {
        loop {
            let line = self
                .rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no line {what}: {:?}", self.seen));
            self.seen.push(line.clone());
            if pred(&line) {
                return line;
            }
        }
    }
}

/// Every agent key file in `dir` (`<agent>.key`): the agent and the key's secret half,
/// checking each file is readable by its owner only.
pub fn agent_secrets(dir: &std::path::Path) -> Vec<(String, String)> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(agent) = name.strip_suffix(".key") else { continue };
        let mode = entry.metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{name} is readable by others: {mode:o}");
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let secret = text.trim_end().rsplit(' ').next().unwrap().to_string();
        assert!(secret.len() >= 40, "{name} holds a key");
        found.push((agent.to_string(), secret));
    }
    found.sort();
    found
}
