//! Starting the real `campus` binary as child processes, reading their ready lines.

#![allow(dead_code, unreachable_pub)]

pub mod forms;
pub mod ui;

use std::io::{BufRead, BufReader};

use a2a::client::A2aClient;
use hublink::{Control, parse_ack};
use serde_json::Value;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use student::{Exchange, Student};

pub const BIN: &str = env!("CARGO_BIN_EXE_campus");

/// A fresh folder under the system temp dir, removed on drop: a process's data folder.
pub struct TempDir(std::path::PathBuf);

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
        let mut cmd = Command::new(BIN);
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
    let mut cmd = Command::new(BIN);
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

/// A whole university: Hub, Tutor and Library as real processes on free ports, with
/// fast heartbeats. The Hub keeps one data folder across [`University::start_hub`], as a
/// restarted Hub would.
pub struct University {
    pub hub: Option<Proc>,
    pub tutor: Proc,
    pub library: Proc,
    pub hub_url: String,
    pub hub_port: u16,
    pub tutor_url: String,
    pub library_url: String,
    pub hub_env: Vec<(String, String)>,
    hub_data: TempDir,
}

pub const FAST: [(&str, &str); 2] = [("HEARTBEAT_INTERVAL_MS", "100"), ("HEARTBEAT_EXPIRY_MS", "600")];

impl University {
    pub fn start(hub_env: &[(&str, &str)], library_env: &[(&str, &str)]) -> University {
        University::start_with(hub_env, &[], library_env)
    }

    /// [`University::start`] with extra environment for the Tutor too.
    pub fn start_with(
        hub_env: &[(&str, &str)],
        tutor_env: &[(&str, &str)],
        library_env: &[(&str, &str)],
    ) -> University {
        let (hub_port, tutor_port, library_port) = (free_port(), free_port(), free_port());
        let hub_url = format!("http://127.0.0.1:{hub_port}");
        let tutor_url = format!("http://127.0.0.1:{tutor_port}");
        let library_url = format!("http://127.0.0.1:{library_port}");
        let mut henv: Vec<(String, String)> =
            vec![("TUTOR_URL".into(), tutor_url.clone()), ("LIBRARY_URL".into(), library_url.clone())];
        henv.extend(FAST.iter().chain(hub_env).map(|(k, v)| (k.to_string(), v.to_string())));
        let tport = tutor_port.to_string();
        let lport = library_port.to_string();
        let mut tenv = vec![("PORT", tport.as_str()), ("HUB_URL", hub_url.as_str()), FAST[0]];
        tenv.extend_from_slice(tutor_env);
        let tutor = Proc::start(&["tutor"], &tenv);
        let mut lenv = vec![("PORT", lport.as_str()), ("HUB_URL", hub_url.as_str()), FAST[0]];
        lenv.extend_from_slice(library_env);
        let library = Proc::start(&["library"], &lenv);
        let mut u = University {
            hub: None,
            tutor,
            library,
            hub_url,
            hub_port,
            tutor_url,
            library_url,
            hub_env: henv,
            hub_data: TempDir::new(),
        };
        u.start_hub();
        u
    }

    pub fn start_hub(&mut self) {
        let port = self.hub_port.to_string();
        let mut env: Vec<(&str, &str)> = vec![("PORT", &port)];
        if !self.hub_env.iter().any(|(k, _)| k == "CAMPUS_DATA_DIR") {
            env.push(("CAMPUS_DATA_DIR", self.hub_data.as_str()));
        }
        env.extend(self.hub_env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        self.hub = Some(Proc::start(&["hub"], &env));
    }

    pub fn hub(&self) -> &Proc {
        self.hub.as_ref().expect("hub running")
    }

    /// `GET /dev/registry` on the Hub.
    pub fn registry(&self) -> serde_json::Value {
        http_json("GET", &format!("{}/dev/registry", self.hub_url), None).1
    }

    pub fn status(&self, id: &str) -> String {
        let reg = self.registry();
        reg["specialists"]
            .as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == id))
            .map(|s| s["status"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    }

    pub fn specialist(&self, id: &str) -> serde_json::Value {
        let reg = self.registry();
        reg["specialists"]
            .as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == id))
            .cloned()
            .unwrap_or_default()
    }

    pub fn wait_status(&self, id: &str, want: &str) {
        poll(15, &format!("{id} to be {want}"), || (self.status(id) == want).then_some(()));
    }

    pub fn wait_ready(&self) {
        self.wait_status("tutor", "ready");
        self.wait_status("library", "ready");
    }
}

/// How many tutoring requests the Tutor `tutor` has recorded for the demo student, read
/// from its own SQLite file beside the running agent.
pub fn tutoring_requests(tutor: &Proc) -> usize {
    let dir = tutor.data_dir().expect("a tutor with the test's data folder");
    let store = store::Store::open(&store::file_for(dir, "tutor")).expect("the tutor's store");
    store.tutoring_requests_of(student::DEMO_STUDENT_ID, 100).expect("its requests").len()
}

/// Lines in a process's stderr that record a received message.
pub fn received(p: &Proc) -> usize {
    p.stderr().iter().filter(|l| l.contains("received message")).count()
}

/// A blocking HTTP call with a JSON body: (status, JSON answer or Null).
pub fn http_json(method: &str, url: &str, body: Option<serde_json::Value>) -> (u16, serde_json::Value) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let client = reqwest::Client::new();
        let mut req = client.request(method.parse().unwrap(), url);
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b.to_string());
        }
        match req.send().await {
            Ok(r) => {
                let status = r.status().as_u16();
                (status, r.json().await.unwrap_or(serde_json::Value::Null))
            }
            Err(_) => (0, serde_json::Value::Null),
        }
    })
}

/// Replaces the script of a fake model server (`campus fake-anthropic` at `fake`).
#[allow(dead_code)]
pub fn put_fake_script(fake: &str, script: serde_json::Value) {
    let (status, answer) = http_json("PUT", &format!("{fake}/_fake/script"), Some(script));
    assert_eq!(status, 204, "the fake refused the script: {answer}");
}

/// The requests a fake model server recorded, oldest first, and how many it received.
#[allow(dead_code)]
pub fn fake_recorded(fake: &str) -> (Vec<serde_json::Value>, u64) {
    let (status, v) = http_json("GET", &format!("{fake}/_fake/requests"), None);
    assert_eq!(status, 200, "{v}");
    (v["requests"].as_array().cloned().unwrap_or_default(), v["total"].as_u64().unwrap_or(0))
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

pub fn ask(url: &str, text: &str) -> Exchange {
    rt().block_on(async { Student::new(A2aClient::default(), url).ask(text).await }).expect("ask")
}

/// Sends a control message to the Hub as a specialist would; returns the ack.
pub fn control(u: &University, c: Control) -> hublink::Ack {
    rt().block_on(async {
        let hub = A2aClient::default().connect(&u.hub_url).await.unwrap();
        let resp = hub.send_message(c.to_message(), &[]).await.unwrap();
        parse_ack(&resp).expect("an ack")
    })
}

/// A specialist's settings through the Hub's developer proxy.
pub fn settings(u: &University, id: &str) -> Value {
    let (status, v) = http_json("GET", &format!("{}/dev/agents/{id}/settings", u.hub_url), None);
    assert_eq!(status, 200, "{v}");
    v
}

/// An agent's telemetry feed as it stands (the history is replayed first; live heartbeats
/// keep the stream busy, so read for a bounded time rather than until it goes quiet).
pub fn feed_snapshot(base_url: &str) -> Option<String> {
    rt().block_on(async {
        let mut resp = reqwest::get(format!("{base_url}/telemetry/events")).await.ok()?;
        let mut text = String::new();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(500);
        while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, resp.chunk()).await {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
        Some(text)
    })
}

/// The events in a feed snapshot.
pub fn feed_events(base_url: &str) -> Vec<Value> {
    feed_snapshot(base_url)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}

/// A raw A2A 1.0 JSON-RPC call (`A2A-Version: 1.0`) to the agent at `base_url`.
pub fn rpc(base_url: &str, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    rt().block_on(async {
        let resp = reqwest::Client::new()
            .post(format!("{base_url}/a2a/jsonrpc"))
            .header("content-type", "application/json")
            .header("a2a-version", "1.0")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        resp.json::<Value>().await.unwrap()
    })
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
