//! Driving Debian's chromium through chromedriver with fantoccini (plain HTTP on
//! loopback: no TLS stack). Tests skip with a printed line when chromedriver is absent,
//! unless `CAMPUS_REQUIRE_BROWSER` is set (CI), where its absence is a failure.

#![allow(unreachable_pub)]

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde_json::{Value, json};

use measure::chromium::{self, CHROMEDRIVER, CHROMIUM};
const AXE: &str = include_str!("../vendor/axe.min.js");
/// How long a wait for the page may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// Whether the browser tests can run here; prints the skip line when they cannot.
pub fn available(test: &str) -> bool {
    if Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CAMPUS_REQUIRE_BROWSER").is_none(),
        "CAMPUS_REQUIRE_BROWSER is set but {CHROMEDRIVER} or {CHROMIUM} is missing"
    );
    // straight to stderr, not eprintln!: the test harness captures the macros' output of a
    // passing test, and this line must be seen
    let line = format!(
        "skipped {test}: {CHROMEDRIVER} is absent (apt-get install chromium chromium-driver fonts-dejavu-core runs it; .ci/run does)\n"
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    false
}

/// A running chromedriver on a port it chose; killed on drop.
pub struct Driver {
    child: Child,
    pub url: String,
}

impl Driver {
    pub fn start() -> Driver {
        // its own process group: the browsers it starts join it, so dropping the driver
        // stops them too even when a test panicked before closing its session
        let mut child = Command::new(CHROMEDRIVER)
            .process_group(0)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn chromedriver");
        let (tx, rx) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("started successfully on port ").nth(1) {
                    let _ = tx.send(rest.trim_end_matches('.').trim().to_string());
                }
            }
        });
        let port = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("chromedriver did not say which port it took")
        });
        Driver { child, url: format!("http://127.0.0.1:{port}") }
    }

    /// A new browser session (its own profile). `reduced_motion` makes the
    /// prefers-reduced-motion query match.
    pub async fn session(&self, reduced_motion: bool) -> Client {
        let mut args = chromium::ARGS.to_vec();
        if reduced_motion {
            args.push("--force-prefers-reduced-motion");
        }
        let caps = json!({"browserName": "chrome", "goog:chromeOptions": {"binary": CHROMIUM, "args": args}});
        let Value::Object(caps) = caps else { unreachable!() };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match ClientBuilder::new(HttpConnector::new()).capabilities(caps.clone()).connect(&self.url).await
            {
                Ok(c) => return c,
                Err(e) if Instant::now() < deadline => {
                    eprintln!("chromedriver not ready yet: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("no browser session: {e}"),
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `script` (a function body; may `await`) and returns its value.
pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

/// Polls `script` until it returns something truthy (not null/false/""/0); returns it.
pub async fn until(c: &Client, what: &str, script: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let v = js(c, script).await;
        let truthy = match &v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => true,
        };
        if truthy {
            return v;
        }
        if Instant::now() > deadline {
            let shot =
                screenshot(c, &format!("failed-{}", what.replace(|c: char| !c.is_alphanumeric(), "-"))).await;
            panic!("timed out waiting for {what} (screenshot {})", shot.display());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for an element matching `css`.
pub async fn find(c: &Client, css: &str) -> Element {
    c.wait().at_most(WAIT).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"))
}

/// Where screenshots go: target/screenshots/ (git-ignored).
pub fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

pub async fn screenshot(c: &Client, name: &str) -> PathBuf {
    let path = screenshot_dir().join(format!("{name}.png"));
    if let Ok(png) = c.screenshot().await {
        let _ = std::fs::write(&path, png);
    }
    path
}

/// The `id` attribute (or tag) of the focused element, and its text/label, for keyboard checks.
pub async fn focused(c: &Client) -> Value {
    js(
        c,
        "const a = document.activeElement; return {id: a.id || '', tag: a.tagName.toLowerCase(), \
         node: a.dataset?.node || '', link: a.dataset?.link || '', text: (a.getAttribute('aria-label') || a.textContent || '').trim().slice(0, 80), \
         href: a.getAttribute('href') || '', role: a.getAttribute('role') || ''};",
    )
    .await
}

/// Presses `key` (a WebDriver key code such as "\u{E004}" for Tab) on the focused element.
pub async fn press(c: &Client, key: &str) {
    c.active_element().await.expect("a focused element").send_keys(key).await.expect("send keys");
}

pub const TAB: &str = "\u{E004}";
pub const ENTER: &str = "\u{E007}";
pub const SPACE: &str = "\u{E00D}";

/// Presses Tab until `pred` holds for the focused element (at most `max` presses); returns it.
pub async fn tab_to(c: &Client, what: &str, max: usize, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..max {
        press(c, TAB).await;
        let f = focused(c).await;
        if pred(&f) {
            return f;
        }
    }
    panic!("Tab never reached {what}")
}

/// Runs axe-core 4.14.1 (WCAG 2.0–2.2 A and AA rules) on the page as it is; returns the
/// serious and critical violations as readable lines.
pub async fn axe(c: &Client) -> Vec<String> {
    let loaded = js(c, "return typeof window.axe === 'object';").await;
    if loaded != Value::Bool(true) {
        c.execute(AXE, vec![]).await.expect("load axe-core");
    }
    let result = js(
        c,
        "return await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a','wcag2aa','wcag21a','wcag21aa','wcag22aa']}});",
    )
    .await;
    result["violations"]
        .as_array()
        .expect("axe violations")
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .map(|v| {
            let nodes: Vec<String> = v["nodes"]
                .as_array()
                .map(|n| {
                    n.iter()
                        .take(5)
                        .map(|n| format!("{} — {}", n["target"], n["failureSummary"].as_str().unwrap_or("")))
                        .collect()
                })
                .unwrap_or_default();
            format!("{} ({}): {}", v["id"], v["impact"], nodes.join(" | "))
        })
        .collect()
}
