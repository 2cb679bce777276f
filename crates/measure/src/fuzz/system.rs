//! The system under fuzz: Hub, Tutor, Library and a `campus ui`, each a child process in
//! live mode against a fake model server (another child, `--demo-script`), and a second
//! fake model server that is itself fuzzed (so a script the fuzz replaces never reaches
//! the agents' model). Every endpoint each one serves, with a valid call of each; the
//! secrets no answer may hold; the check that every agent still answers normally.

use std::time::Duration;

use a2a::client::{A2aClient, ClientConfig};
use anyhow::{Context, bail};
use reqwest::Method;
use serde_json::{Value, json};

use crate::bench::agents::{ChildAgent, Stderr, free_port};
use crate::bench::load::message;
use crate::fuzz::check::Secret;

/// The valid model for the fake's endpoints.
const MODEL: &str = "claude-haiku-5-5";
/// The key the fuzz sends the fuzzed fake (which repeats a key it refuses, by design).
pub(crate) const CLIENT_KEY: &str = "sk-ant-fuzz-client";

/// Keeps the standard error lines that tell of a panic.
fn panic_line(line: &str) -> bool {
    line.contains("panicked") || line.contains("stack backtrace")
}

/// One child process and where it listens.
pub(crate) struct Server {
    pub(crate) name: &'static str,
    pub(crate) agent: ChildAgent,
    pub(crate) port: u16,
}

/// One endpoint: the server (index into [`System::servers`]), method and path (`{}`
/// where a path parameter goes, its valid value `param`), valid bodies, the headers a
/// valid call sends, whether it answers with a stream, and the 5xx statuses it documents.
pub(crate) struct Endpoint {
    pub(crate) server: usize,
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) param: String,
    pub(crate) templates: Vec<Vec<u8>>,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) stream: bool,
    pub(crate) allowed_5xx: &'static [u16],
    pub(crate) label: String,
    /// The server whose settings revision the valid bodies carry (a save makes it stale).
    pub(crate) settings_of: Option<usize>,
}

pub(crate) struct System {
    pub(crate) servers: Vec<Server>,
    pub(crate) secrets: Vec<Secret>,
    data: std::path::PathBuf,
}

impl Drop for System {
    fn drop(&mut self) {
        self.servers.clear();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

const HUB: usize = 0;
const TUTOR: usize = 1;
const LIBRARY: usize = 2;
const UI: usize = 3;
const FAKE: usize = 4;
const MODEL_FAKE: usize = 5;
const PROFESSOR: usize = 6;

impl System {
    pub(crate) async fn start(seed: u64) -> anyhow::Result<Self> {
        let data = std::env::temp_dir().join(format!("campus-fuzz-{}", std::process::id()));
        let model_key = format!("sk-ant-fuzz-SECRET-{seed:016x}-{}", std::process::id());
        let (hub_port, tutor_port, library_port, professor_port) =
            (free_port()?, free_port()?, free_port()?, free_port()?);
        let url = |p: u16| format!("http://127.0.0.1:{p}");
        let keep = panic_line as fn(&str) -> bool;
        let launch = |args: &'static [&'static str], env: Vec<(&'static str, String)>| {
            let data = data.clone();
            async move { ChildAgent::launch(args, "warn", &env, &data, Stderr::Keep(keep)).await }
        };
        let model = launch(&["fake-anthropic", "--demo-script"], vec![]).await?;
        let fuzzed_fake = launch(&["fake-anthropic"], vec![]).await?;
        let live = |var: &'static str| {
            vec![
                (var, "live".to_string()),
                ("ANTHROPIC_BASE_URL", model.url.clone()),
                (llm::DEFAULT_KEY_VAR, model_key.clone()),
                ("HUB_URL", url(hub_port)),
            ]
        };
        let with_port = |mut env: Vec<(&'static str, String)>, port: u16| {
            env.push(("PORT", port.to_string()));
            env
        };
        let tutor = launch(&["tutor"], with_port(live("TUTOR_MODE"), tutor_port)).await?;
        let library = launch(&["library"], with_port(live("LIBRARY_MODE"), library_port)).await?;
        let professor = launch(&["professor"], with_port(live("PROFESSOR_MODE"), professor_port)).await?;
        let mut hub_env = with_port(live("ROUTER_MODE"), hub_port);
        hub_env.extend([
            ("TUTOR_URL", tutor.url.clone()),
            ("LIBRARY_URL", library.url.clone()),
            ("PROFESSOR_URL", professor.url.clone()),
        ]);
        let hub = launch(&["hub"], hub_env).await?;
        let ui = launch(&["ui"], live("STUDENT_MODE")).await?;
        let servers =
            [("hub", hub), ("tutor", tutor), ("library", library), ("ui", ui), ("fake", fuzzed_fake)]
                .into_iter()
                .chain([("model", model), ("professor", professor)])
                .map(|(name, agent)| {
                    let port = agent.url.rsplit(':').next().and_then(|p| p.parse().ok()).unwrap_or(0);
                    Server { name, agent, port }
                })
                .collect();
        let mut secrets = vec![Secret { name: "the model key".into(), value: model_key }];
        for entry in std::fs::read_dir(&data).context("could not read the agents' data folder")? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "key") {
                let value = std::fs::read_to_string(&path).unwrap_or_default().trim().to_string();
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                secrets.push(Secret { name, value });
            }
        }
        let system = Self { servers, secrets, data };
        if !crate::wait_registered(hub_port).await {
            bail!("the specialists did not register with the hub within 10 s");
        }
        system.wait_routes().await?;
        Ok(system)
    }

    fn url(&self, server: usize) -> &str {
        &self.servers[server].agent.url
    }

    /// Polls until the Hub routes a question to the Tutor (20 s at most).
    async fn wait_routes(&self) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            if self
                .asks(HUB, "what is the derivative of x^2")
                .await
                .is_ok_and(|o| o == Some(vocab::ReplyOutcome::Route))
            {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the hub did not route to the tutor within 20 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await; // poll interval while the tutor registers
        }
    }

    /// Sends one question to an agent: its reply's outcome (`None`: a reply without one,
    /// as a specialist's own); an error unless the answer is a message with text.
    async fn asks(&self, server: usize, text: &str) -> anyhow::Result<Option<vocab::ReplyOutcome>> {
        let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(20), ..Default::default() });
        let agent = client.connect(self.url(server)).await?;
        let a2a::wire::SendMessageResponse::Message(m) = agent.send_message(message(text), &[]).await? else {
            bail!("the {} answered with a task", self.servers[server].name)
        };
        let text: String = m.parts.iter().filter_map(|p| p.as_text()).collect();
        if text.trim().is_empty() {
            bail!("the {} answered without text", self.servers[server].name);
        }
        let metadata = m.metadata.map(|md| md.into_iter().collect()).unwrap_or_default();
        Ok(vocab::ReplyMeta::read(&metadata).map(|meta| meta.outcome))
    }

    /// After the fuzz: each agent answers a normal request as it should. The problems, if any.
    pub(crate) async fn still_answers(&self) -> Vec<String> {
        let mut problems = Vec::new();
        match self.asks(HUB, "what is the derivative of x^2").await {
            Ok(Some(vocab::ReplyOutcome::Route)) => {}
            other => problems.push(format!("the hub did not route a calculus question: {other:?}")),
        }
        for (server, question) in [
            (TUTOR, "what is the derivative of x^2"),
            (LIBRARY, "when is the library open"),
            (PROFESSOR, "what is market segmentation?"),
        ] {
            if let Err(e) = self.asks(server, question).await {
                problems.push(format!("the {} did not answer: {e:#}", self.servers[server].name));
            }
        }
        let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build();
        let Ok(http) = http else { return vec!["no http client".into()] };
        let ui = self.url(UI);
        let health = http.get(format!("{ui}/api/ui/health")).send().await;
        if !health.is_ok_and(|r| r.status() == 200) {
            problems.push("the ui server's health did not answer 200".into());
        }
        let run = json!({"threadId": "fz-final", "runId": "fz-final-run", "state": {}, "tools": [], "context": [],
            "forwardedProps": {}, "messages": [{"id": "fz-final-m", "role": "user", "content": "derivative of x^2"}]});
        let started = http.post(format!("{ui}/api/ag-ui/runs")).json(&run).send().await;
        if !started.is_ok_and(|r| r.status() == 202) {
            problems.push("the ui server did not start a run (202)".into());
        }
        for server in [FAKE, MODEL_FAKE] {
            let models = http
                .get(format!("{}/v1/models/{MODEL}", self.url(server)))
                .header("x-api-key", CLIENT_KEY)
                .header("anthropic-version", "2023-06-01")
                .send()
                .await;
            if !models.is_ok_and(|r| r.status() == 200) {
                problems.push(format!("the {} fake did not serve its model", self.servers[server].name));
            }
        }
        problems
    }

    /// Every endpoint each server serves (read from their routers), with valid calls built
    /// from what the agents report now (settings revisions, skill ids).
    pub(crate) async fn endpoints(&self) -> anyhow::Result<Vec<Endpoint>> {
        let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build()?;
        let mut out = Vec::new();
        let mut add = |server: usize, method: Method, path: &str, param: &str, templates: Vec<Value>| {
            let label = format!("{} {method} {path}", self.servers[server].name)
                .replace("{}", &format!("{{{param}}}"));
            out.push(Endpoint {
                server,
                method,
                path: path.to_string(),
                param: param.to_string(),
                templates: templates.iter().map(|t| t.to_string().into_bytes()).collect(),
                headers: Vec::new(),
                stream: false,
                allowed_5xx: &[],
                label,
                settings_of: None,
            });
        };
        for (server, question) in [
            (HUB, "derivative of x^3"),
            (TUTOR, "integral of 2x"),
            (LIBRARY, "when is the library open"),
            (PROFESSOR, "what are the 4 Ps of marketing?"),
        ] {
            let rpc = rpc_templates(question);
            add(server, Method::GET, a2a::CARD_PATH, "", vec![]);
            add(server, Method::POST, a2a::JSONRPC_PATH, "", rpc.clone());
            add(server, Method::POST, &format!("{}/", a2a::JSONRPC_PATH), "", rpc);
            add(server, Method::GET, telemetry::EVENTS_PATH, "", vec![]);
        }
        add(HUB, Method::GET, "/dev/registry", "", vec![]);
        add(HUB, Method::POST, "/dev/refresh", "", vec![json!({})]);
        for (server, base, id) in [
            (HUB, "/dev/agents/{}/settings", "tutor"),
            (TUTOR, "/api/settings", ""),
            (LIBRARY, "/api/settings", ""),
            (PROFESSOR, "/api/settings", ""),
        ] {
            let owner = if server == HUB { TUTOR } else { server };
            let (saved, skill) = settings_templates(&http, self.url(owner)).await?;
            add(server, Method::GET, base, id, vec![]);
            add(server, Method::PUT, base, id, vec![saved.clone()]);
            add(server, Method::POST, &format!("{base}/preview"), id, vec![saved.clone()]);
            let patch =
                json!({"baseRevision": saved["baseRevision"], "enabled": true, "description": "fuzzed"});
            add(
                server,
                Method::PATCH,
                &format!("{}/skills/{skill}", base.replace("{}", id)),
                "",
                vec![patch],
            );
        }
        for page in ["/", "/conversation", "/activity", "/topology", "/no-such-page"] {
            add(UI, Method::GET, page, "", vec![]);
        }
        add(UI, Method::GET, "/assets/{}", "app.js", vec![]);
        add(UI, Method::GET, "/api/ui/stream", "", vec![]);
        add(UI, Method::GET, "/api/ui/health", "", vec![]);
        add(UI, Method::GET, telemetry::EVENTS_PATH, "", vec![]);
        let run = json!({"threadId": "fz-thread", "runId": "fz-run", "state": {}, "tools": [], "context": [],
            "forwardedProps": {}, "messages": [{"id": "fz-m", "role": "user", "content": "derivative of x^2"}]});
        add(UI, Method::POST, "/api/ag-ui/runs", "", vec![run]);
        add(UI, Method::POST, "/api/ui/conversations", "", vec![json!({})]);
        let messages =
            json!({"model": MODEL, "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]});
        let structured = json!({"model": MODEL, "max_tokens": 64, "system": "s", "messages": [{"role": "user",
            "content": [{"type": "text", "text": "hi"}]}], "output_config": {"format": {"type": "json_schema",
            "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}}}});
        add(FAKE, Method::POST, "/v1/messages", "", vec![messages, structured]);
        add(FAKE, Method::GET, "/v1/models/{}", MODEL, vec![]);
        add(FAKE, Method::GET, "/_fake/requests", "", vec![]);
        add(FAKE, Method::DELETE, "/_fake/requests", "", vec![]);
        let script = json!({"replies": [{"text": "hello"}], "rules": [{"when": {"contains": "x"}, "reply": {"json": {"a": "b"}}}],
            "default": {"text": "fallback"}});
        add(FAKE, Method::PUT, "/_fake/script", "", vec![script]);
        add(FAKE, Method::GET, "/no-such-path", "", vec![]);
        for e in &mut out {
            let path = e.path.as_str();
            if path.contains("settings") && e.method != Method::GET {
                e.settings_of = Some(if e.server == HUB { TUTOR } else { e.server });
            }
            e.stream = path == telemetry::EVENTS_PATH || path == "/api/ui/stream";
            if e.server == FAKE {
                e.headers =
                    vec![("x-api-key", CLIENT_KEY.into()), ("anthropic-version", "2023-06-01".into())];
            }
            if path.starts_with(a2a::JSONRPC_PATH) {
                e.headers = vec![("a2a-version", "1.0".into())];
            }
        }
        Ok(out)
    }
}

impl System {
    /// Gives `e`'s valid bodies the current settings revision of the server they edit.
    pub(crate) async fn refresh_revision(&self, e: &mut Endpoint) -> anyhow::Result<()> {
        let Some(owner) = e.settings_of else { return Ok(()) };
        let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build()?;
        let (saved, _) = settings_templates(&http, self.url(owner)).await?;
        for t in &mut e.templates {
            let mut v: Value = serde_json::from_slice(t)?;
            v["baseRevision"] = saved["baseRevision"].clone();
            *t = v.to_string().into_bytes();
        }
        Ok(())
    }
}

/// Valid JSON-RPC calls: a question (most often), and the task methods.
fn rpc_templates(question: &str) -> Vec<Value> {
    let call =
        |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let send = call(
        "SendMessage",
        json!({"message": {"messageId": "fz-1", "role": "ROLE_USER", "parts": [{"text": question}]},
            "configuration": {"acceptedOutputModes": ["text/plain"]}}),
    );
    vec![
        send.clone(),
        send,
        call("GetTask", json!({"id": "fz-task"})),
        call("ListTasks", json!({"pageSize": 5})),
        call("CancelTask", json!({"id": "fz-task"})),
        call(
            "SendStreamingMessage",
            json!({"message": {"messageId": "fz-2", "role": "ROLE_USER", "parts": [{"text": "x"}]}}),
        ),
    ]
}

/// A specialist's saved settings as a save's body (`{baseRevision, skills}`), and its first skill's id.
async fn settings_templates(http: &reqwest::Client, specialist: &str) -> anyhow::Result<(Value, String)> {
    let saved: Value = http.get(format!("{specialist}/api/settings")).send().await?.json().await?;
    let skill =
        saved["skills"][0]["id"].as_str().context("the specialist's settings have no skill")?.to_string();
    let revision = saved.get("revision").cloned().context("the specialist's settings have no revision")?;
    Ok((json!({"baseRevision": revision, "skills": saved["skills"]}), skill))
}
