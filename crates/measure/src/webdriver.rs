//! The few WebDriver calls `campus bench --browser` needs (W3C WebDriver over plain HTTP to
//! a local chromedriver): a session with headless Debian chromium, navigate, execute a
//! script, end the session. The browser tests drive the page with fantoccini instead.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::chromium::{ARGS, CHROMEDRIVER, CHROMIUM};

/// chromedriver on a port it chose, in its own process group (the browsers it starts join
/// it); the whole group is killed on drop.
pub(crate) struct Driver {
    child: Child,
    url: String,
    http: reqwest::Client,
}

impl Driver {
    pub(crate) async fn start() -> anyhow::Result<Self> {
        for exe in [CHROMEDRIVER, CHROMIUM] {
            if !std::path::Path::new(exe).exists() {
                bail!("{exe} is absent (apt-get install chromium chromium-driver)");
            }
        }
        let mut child = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .context("could not start chromedriver")?;
        let mut lines = BufReader::new(child.stdout.take().context("no stdout")?).lines();
        let port = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(line) = lines.next_line().await? {
                if let Some(rest) = line.split("started successfully on port ").nth(1) {
                    return Ok::<_, std::io::Error>(Some(rest.trim_end_matches('.').trim().to_string()));
                }
            }
            Ok(None)
        })
        .await;
        let Ok(Ok(Some(port))) = port else { bail!("chromedriver did not say which port it took") };
        // keep reading its output so it never blocks on a full pipe
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let http = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
        Ok(Self { child, url: format!("http://127.0.0.1:{port}"), http })
    }

    /// A headless chromium session, 1280×900, its JS heap reported precisely.
    pub(crate) async fn session(&self) -> anyhow::Result<Session> {
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": ARGS}
        }}});
        let v = call(self.http.post(format!("{}/session", self.url)).json(&caps)).await?;
        let id = v["sessionId"].as_str().context("chromedriver gave no session id")?.to_string();
        Ok(Session { http: self.http.clone(), base: format!("{}/session/{id}", self.url) })
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(pid) = self.child.id().and_then(|p| i32::try_from(p).ok()) {
            let _ =
                nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
        }
    }
}

/// One browser window.
pub(crate) struct Session {
    http: reqwest::Client,
    base: String,
}

impl Session {
    pub(crate) async fn goto(&self, url: &str) -> anyhow::Result<()> {
        call(self.http.post(format!("{}/url", self.base)).json(&json!({"url": url}))).await.map(drop)
    }

    /// Runs `script` (a function body; it may `await`) and returns its value.
    pub(crate) async fn js(&self, script: &str) -> anyhow::Result<Value> {
        let body = json!({"script": script, "args": []});
        call(self.http.post(format!("{}/execute/sync", self.base)).json(&body)).await
    }

    pub(crate) async fn close(self) {
        let _ = self.http.delete(&self.base).send().await;
    }
}

/// Sends a WebDriver command; its `value`, or the WebDriver error as text.
async fn call(req: reqwest::RequestBuilder) -> anyhow::Result<Value> {
    let resp = req.send().await.context("chromedriver unreachable")?;
    let ok = resp.status().is_success();
    let mut v: Value = resp.json().await.context("chromedriver answered with something that is not JSON")?;
    let value = v["value"].take();
    if !ok {
        bail!(
            "webdriver error: {} ({})",
            value["error"],
            value["message"].as_str().unwrap_or("").lines().next().unwrap_or("")
        );
    }
    Ok(value)
}
