//! The UI server (`campus ui`): serves the page embedded from `web/`, hosts the Student
//! agent (which talks only to the Hub), and gives each page one AG-UI stream.
//!
//! - `POST /api/ag-ui/runs` (AG-UI `RunAgentInput`): a question as a run ([`runs`]).
//! - `GET /api/ui/stream`: every channel on one SSE stream ([`stream`]): `student` (runs),
//!   `monitor` (consoles, topology pulses, statuses: [`monitor`]), `system` (notices).
//! - It follows the Hub's telemetry feed (the Hub's own events and its specialists',
//!   relayed and redacted) and polls the Hub's `/dev/registry`; it never contacts a
//!   specialist. The Student's own telemetry is served at `/telemetry/events`.
//!
//! The wire contract is `docs/ui-stream.md`.

mod assets;
pub mod error;
mod feed;
pub mod forms;
pub mod hops;
pub mod monitor;
pub mod notices;
pub mod runs;
pub mod stream;

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a::client::{A2aClient, ClientConfig};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use telemetry::Telemetry;
use tokio::net::TcpListener;
use tokio::sync::watch;
use vocab::agents::{HUB, STUDENT};
use vocab::registry::RegistryView;

use crate::error::{ApiError, BODY_LIMIT, read_json};
use crate::monitor::Monitor;
use crate::notices::Notices;
use crate::runs::Runs;
use crate::stream::Stream;

/// Where the UI server listens unless `PORT` or `UI_PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 4444;
/// The hosted Student's mode without its own model, as it says itself: it only passes
/// questions to the Hub.
pub const STUDENT_MODE: &str = "no model";
/// How often the Hub's registry is read for the agents' statuses.
const POLL: Duration = Duration::from_secs(1);

/// The fewest and most frames `UI_HISTORY_FRAMES` may keep.
pub const HISTORY_RANGE: std::ops::RangeInclusive<usize> = 16..=100_000;

/// The UI server's configuration: `PORT` (as every agent), else `UI_PORT`, else 4444;
/// `HUB_URL`; `STUDENT_TIMEOUT_MS` (how long the Student waits for an answer);
/// `UI_HISTORY_FRAMES` (frames the stream keeps for resuming, [`stream::HISTORY`] unless set);
/// the hosted Student's own model (`STUDENT_MODE`, see [`student::OwnModel::from_env`]).
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub hub_url: String,
    pub timeout: Duration,
    pub history: usize,
    pub own: Option<Arc<student::OwnModel>>,
}

impl Config {
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, conf::ConfError> {
        let mut port = DEFAULT_PORT;
        for var in ["UI_PORT", "PORT"] {
            if let Some(p) = conf::env_parse::<u16>(var, env, "a port number (0-65535)")? {
                port = p;
            }
        }
        let hub_url = env("HUB_URL").unwrap_or_else(|| student::DEFAULT_HUB_URL.into());
        conf::check_local_url("HUB_URL", "", &hub_url)?;
        let timeout_ms =
            conf::env_parse::<u64>("STUDENT_TIMEOUT_MS", env, "a number of milliseconds")?.unwrap_or(35_000);
        let (low, high) = (HISTORY_RANGE.start(), HISTORY_RANGE.end());
        let what = format!("a number of frames from {low} to {high}");
        let history = match conf::env_parse::<usize>("UI_HISTORY_FRAMES", env, &what)? {
            None => stream::HISTORY,
            Some(n) if HISTORY_RANGE.contains(&n) => n,
            Some(n) => {
                return Err(conf::ConfError::new("UI_HISTORY_FRAMES", "", format!("{n} is not {what}")));
            }
        };
        Ok(Self {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port),
            hub_url: hub_url.trim_end_matches('/').to_string(),
            timeout: Duration::from_millis(timeout_ms.max(1)),
            history,
            own: student::OwnModel::from_env(env)?,
        })
    }
}

/// Unix time now, in milliseconds.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A boot tag for the stream's ids: the start time in hex and the process id, so a
/// restarted server never repeats an id.
fn new_boot() -> String {
    format!("{:x}{:x}", now_ms(), std::process::id())
}

#[derive(Clone)]
struct App {
    stream: Stream,
    runs: Arc<Runs>,
    notices: Arc<Notices>,
}

/// The running UI server's parts.
pub struct Ui {
    pub router: Router,
    pub stream: Stream,
    pub telemetry: Telemetry,
}

/// Builds the UI server for `addr` and starts its background work (following the Hub's
/// feed, polling its registry, flushing the monitor), which stops when `stop` turns true.
pub fn build(config: &Config, addr: SocketAddr, stop: watch::Receiver<bool>) -> Ui {
    let stream = Stream::with_capacity(new_boot(), config.history);
    let telemetry = Telemetry::new(STUDENT);
    let monitor = Arc::new(Monitor::new(stream.clone()));
    let client = A2aClient::new(ClientConfig { timeout: config.timeout, ..Default::default() });
    let runs = Arc::new(
        Runs::new(stream.clone(), monitor.clone(), client, config.hub_url.clone(), telemetry.clone())
            .with_own_model(config.own.clone()),
    );
    let student = student_fields(config.own.as_deref());
    let http = reqwest::Client::builder()
        .pool_idle_timeout(a2a::client::POOL_IDLE)
        .no_proxy()
        .timeout(Duration::from_secs(3))
        .build()
        .expect("http client builds with static settings");
    spawn_follow(&config.hub_url, runs.clone(), monitor.clone(), stop.clone());
    let notices = Arc::new(Notices::new(stream.clone()));
    spawn_poll(
        http,
        config.hub_url.clone(),
        runs.clone(),
        monitor.clone(),
        notices.clone(),
        student,
        stop.clone(),
    );
    spawn_flush(monitor, stop);
    let app = App { stream: stream.clone(), runs, notices };
    let api = Router::new()
        .route("/", get(assets::shell))
        .route("/conversation", get(assets::shell))
        .route("/activity", get(assets::shell))
        .route("/topology", get(assets::shell))
        .route("/assets/{*path}", get(assets::asset))
        .route("/api/ui/stream", get(events))
        .route("/api/ui/health", get(health))
        .route("/api/ag-ui/runs", post(start_run))
        .route("/api/ui/conversations", post(new_conversation))
        .fallback(not_found)
        .with_state(app)
        .merge(telemetry.router())
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    let router = guard::protect(api, guard::LocalPolicy::new(addr));
    Ui { router, stream, telemetry }
}

fn spawn_follow(hub_url: &str, runs: Arc<Runs>, monitor: Arc<Monitor>, mut stop: watch::Receiver<bool>) {
    let url = format!("{hub_url}{}", telemetry::EVENTS_PATH);
    let http = reqwest::Client::builder()
        .pool_idle_timeout(a2a::client::POOL_IDLE)
        .no_proxy()
        .build()
        .expect("http client builds with static settings");
    tokio::spawn(async move {
        let on_event = move |event: telemetry::Event| {
            runs.on_hub_event(&event);
            monitor.push(event);
        };
        let shutdown = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        telemetry::follow(http, url, None, on_event, shutdown).await;
    });
}

/// Reads `/dev/registry` once a second into the agents' statuses, and a notice when the
/// Hub stops or starts answering.
fn spawn_poll(
    http: reqwest::Client,
    hub_url: String,
    runs: Arc<Runs>,
    monitor: Arc<Monitor>,
    notices: Arc<Notices>,
    student: Value,
    mut stop: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let url = format!("{hub_url}/dev/registry");
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.wait_for(|s| *s) => break,
            }
            let registry = match http.get(&url).send().await {
                Ok(r) if r.status().is_success() => r.json::<RegistryView>().await.ok(),
                _ => None,
            };
            notices.hub(registry.is_some());
            let (agents, hub) = statuses(registry.as_ref(), runs.in_flight(), &student);
            monitor.status(agents, hub);
        }
    });
}

/// What the page is told of the hosted Student's own model: its mode, its model (in live
/// and mock modes), and `modelServer: "this_machine"` when its model server is on this
/// machine (the fake Messages API of `campus demo --fake-model`).
fn student_fields(own: Option<&student::OwnModel>) -> Value {
    let mode = own.map_or(STUDENT_MODE, |o| o.mode().as_str());
    let model = own.map(student::OwnModel::model_id);
    let local = own.is_some_and(student::OwnModel::on_this_machine);
    json!({"mode": mode, "model": model, "modelServer": local.then_some("this_machine")})
}

/// The agents' statuses as the Hub reported them (`unknown` for what nothing reported).
fn statuses(registry: Option<&RegistryView>, student_in_flight: usize, student: &Value) -> (Value, Value) {
    let now = now_ms();
    let mut agents = serde_json::Map::new();
    let mut me = json!({"status": "ready", "heartbeatAt": null, "inFlight": student_in_flight});
    if let (Some(me), Some(fields)) = (me.as_object_mut(), student.as_object()) {
        me.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    agents.insert(STUDENT.into(), me);
    let hub_status = if registry.is_some() { "ready" } else { "unreachable" };
    // modes and models as each agent said (the Hub its router's, a specialist in its
    // registration); what nothing said stays null
    let hub = registry.map(|r| &r.hub);
    // nothing reports the Hub's own work in flight: unknown, not 0
    agents.insert(
        HUB.into(),
        json!({"status": hub_status, "heartbeatAt": null, "inFlight": null,
            "mode": hub.map(|h| &h.mode), "model": hub.and_then(|h| h.model.as_ref())}),
    );
    for s in registry.map(|r| r.specialists.as_slice()).unwrap_or_default() {
        let age = s.heartbeat_age_ms.map(|a| i64::try_from(a).unwrap_or(i64::MAX));
        agents.insert(
            s.id.clone(),
            json!({
                "status": s.status.as_str(),
                "heartbeatAt": age.map(|a| now.saturating_sub(a)),
                // the monitor fills in what the Hub's feed told; unknown until then
                "inFlight": null,
                "mode": s.mode,
                "model": s.model,
            }),
        );
    }
    if registry.is_none() {
        for id in vocab::agents::SPECIALISTS {
            agents.insert(
                id.into(),
                json!({"status": "unknown", "heartbeatAt": null, "inFlight": null, "mode": null, "model": null}),
            );
        }
    }
    // the Hub's public name, as it reported it (the page labels answers "<Hub> · <service>")
    (Value::Object(agents), json!({"status": hub_status, "name": hub.map(|h| &h.name)}))
}

fn spawn_flush(monitor: Arc<Monitor>, mut stop: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(monitor::FLUSH);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => monitor.flush(),
                _ = stop.wait_for(|s| *s) => break,
            }
        }
    });
}

#[derive(Deserialize)]
struct Resume {
    after: Option<String>,
}

async fn events(State(app): State<App>, Query(resume): Query<Resume>, headers: HeaderMap) -> Response {
    let header = headers.get("last-event-id").and_then(|v| v.to_str().ok());
    app.stream.respond(header, resume.after.as_deref())
}

async fn health(State(app): State<App>) -> Response {
    Json(json!({"ok": true, "boot": app.stream.boot(), "lastSeq": app.stream.last_seq()})).into_response()
}

async fn start_run(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let input: agui::RunAgentInput = match read_json(&headers, body) {
        Ok(i) => i,
        Err(e) => return e.into_response(),
    };
    let ids = json!({"threadId": input.thread_id, "runId": input.run_id});
    match app.runs.start(input) {
        Ok(true) => (StatusCode::ACCEPTED, Json(ids)).into_response(),
        Ok(false) => (StatusCode::OK, Json(ids)).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn new_conversation(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let asked = match read_json::<runs::NewConversation>(&headers, body) {
        Ok(asked) => asked,
        Err(e) => return e.into_response(),
    };
    let thread = app.runs.new_conversation(&asked);
    // every window (and one opened later, from the history) shows the new conversation,
    // never the last one's messages and receipts
    app.notices.conversation_started(&thread);
    (StatusCode::CREATED, Json(json!({"threadId": thread}))).into_response()
}

async fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such address").into_response()
}

/// Serves the UI server on `listener`, its connections within `limits`, until `shutdown`
/// completes.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    limits: guard::Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let ui = build(&config, addr, stop_rx);
    guard::serve(listener, ui.router, limits, async move {
        shutdown.await;
        let _ = stop_tx.send(true);
        ui.stream.close();
        ui.telemetry.disconnect_all();
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use vocab::registry::{HubInfo, SpecialistEntry, Status};

    #[test]
    fn config_from_env() {
        let env = |k: &str| match k {
            "UI_PORT" => Some("5555".to_string()),
            "HUB_URL" => Some("http://127.0.0.1:9/".to_string()),
            _ => None,
        };
        let c = Config::from_env(&env).unwrap();
        assert_eq!((c.bind.port(), c.hub_url.as_str()), (5555, "http://127.0.0.1:9"));
        let with_port = |k: &str| if k == "PORT" { Some("0".to_string()) } else { env(k) };
        assert_eq!(Config::from_env(&with_port).unwrap().bind.port(), 0);
        assert_eq!(Config::from_env(&|_| None).unwrap().bind.port(), DEFAULT_PORT);
        let bad = |k: &str| if k == "UI_PORT" { Some("x".to_string()) } else { None };
        assert!(Config::from_env(&bad).is_err());
        assert_eq!(c.history, stream::HISTORY);
        let history = |v: &'static str| {
            Config::from_env(&move |k: &str| (k == "UI_HISTORY_FRAMES").then(|| v.to_string()))
        };
        assert_eq!(history("64").unwrap().history, 64);
        for bad in ["0", "15", "100001", "many", "-1"] {
            let e = history(bad).unwrap_err().to_string();
            assert!(e.contains("UI_HISTORY_FRAMES") && e.contains("16 to 100000"), "{bad}: {e}");
        }
    }

    /// A specialist as the registry lists it: (id, status, heartbeat age, mode, model).
    type Row<'a> = (&'a str, Status, Option<u64>, Option<&'a str>, Option<&'a str>);

    /// A registry view as the Hub writes it: the Hub's mode and model, and each specialist.
    fn registry(hub: (&str, Option<&str>), specialists: &[Row<'_>]) -> RegistryView {
        let entry = |&(id, status, age, mode, model): &Row<'_>| SpecialistEntry {
            id: id.into(),
            capability: format!("{id} capability"),
            status,
            instance_id: None,
            mode: mode.map(str::to_owned),
            model: model.map(str::to_owned),
            heartbeat_age_ms: age,
            card_etag: None,
            card_revision: None,
            card_fetched_at: None,
            card_error: None,
            refreshes: 0,
            skills: vec![],
        };
        RegistryView {
            hub: HubInfo {
                name: "Campus".into(),
                mode: hub.0.into(),
                model: hub.1.map(str::to_owned),
                key: None,
            },
            specialists: specialists.iter().map(entry).collect(),
        }
    }

    #[test]
    fn statuses_say_unknown_for_what_nothing_reported() {
        let (agents, hub) = statuses(None, 2, &student_fields(None));
        assert_eq!(hub["status"], "unreachable");
        assert_eq!(agents["tutor"]["status"], "unknown");
        assert!(agents["tutor"]["inFlight"].is_null() && agents["hub"]["inFlight"].is_null());
        assert_eq!(agents["student"]["inFlight"], 2);
        assert!(agents["hub"]["mode"].is_null() && agents["tutor"]["mode"].is_null());
        assert_eq!(agents["student"]["mode"], STUDENT_MODE);
        let reg = registry(
            ("classifier", None),
            &[
                ("tutor", Status::Ready, Some(100), Some("fixed"), None),
                ("library", Status::Ready, Some(100), None, None),
            ],
        );
        let (agents, hub) = statuses(Some(&reg), 0, &student_fields(None));
        assert_eq!((&hub["status"], &hub["name"]), (&json!("ready"), &json!("Campus")));
        assert_eq!(agents["tutor"]["status"], "ready");
        assert_eq!(
            (&agents["hub"]["mode"], &agents["tutor"]["mode"]),
            (&json!("classifier"), &json!("fixed"))
        );
        assert!(agents["library"]["mode"].is_null(), "an agent that did not say stays unknown");
        assert!(agents["tutor"]["heartbeatAt"].as_i64().unwrap() > 0);
        assert!(agents["tutor"]["inFlight"].is_null(), "never a made-up 0");
        let reg = registry(("classifier", None), &[("tutor", Status::Stale, None, None, None)]);
        let (only, _) = statuses(Some(&reg), 0, &student_fields(None));
        assert!(only.get("library").is_none());
        assert_eq!(only["tutor"]["status"], "stale");
        assert!(only["tutor"]["heartbeatAt"].is_null(), "no heartbeat reported: none made up");
        assert!(agents["tutor"]["model"].is_null() && agents["hub"]["model"].is_null());
        let reg = registry(
            ("live", Some("claude-sonnet-5-5")),
            &[("tutor", Status::Ready, None, Some("live"), Some("claude-haiku-5-5"))],
        );
        let (agents, _) = statuses(Some(&reg), 0, &student_fields(None));
        assert_eq!(
            (&agents["hub"]["model"], &agents["tutor"]["model"]),
            (&json!("claude-sonnet-5-5"), &json!("claude-haiku-5-5"))
        );
    }

    #[test]
    fn the_hubs_registry_json_reads_as_the_view() {
        let json = json!({
            "hub": {"name": "Campus", "mode": "classifier"},
            "specialists": [{"id": "tutor", "capability": "Tutoring", "status": "invalid_card",
                "instanceId": null, "mode": null, "model": null, "heartbeatAgeMs": 5,
                "cardEtag": null, "cardRevision": null, "cardFetchedAt": null, "cardError": "bad",
                "refreshes": 2, "skills": []}],
        });
        let view: RegistryView = serde_json::from_value(json).unwrap();
        let (agents, _) = statuses(Some(&view), 0, &student_fields(None));
        assert_eq!(agents["tutor"]["status"], "invalid_card");
    }
}
