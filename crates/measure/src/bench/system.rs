//! The system under measure: Tutor, Library, Hub and a `campus ui`, each a child
//! process, with clients to the Tutor and the Hub; one browser's stream read by the
//! benchmark (frames, bytes, what the monitor channel said); a process's peak memory.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use a2a::client::{A2aClient, AgentHandle, ClientConfig};
use anyhow::bail;

use crate::bench::agents::{ChildAgent, fixed_mode, rss_kib};
use crate::bench::args::Args;
use crate::bench::load::{QUESTION, message};

/// Tutor, Library, Hub and a `campus ui` following the Hub, each a child process, and
/// clients to the Tutor (direct) and the Hub (routed), once the Hub routes to the Tutor.
pub(crate) struct System {
    pub(crate) tutor: ChildAgent,
    pub(crate) library: ChildAgent,
    pub(crate) hub: ChildAgent,
    pub(crate) ui: ChildAgent,
    pub(crate) direct: AgentHandle,
    pub(crate) routed: AgentHandle,
}

impl System {
    pub(crate) async fn start(
        args: &Args,
        (hub_port, tutor_port, library_port): (u16, u16, u16),
    ) -> anyhow::Result<Self> {
        let url = |p: u16| format!("http://127.0.0.1:{p}");
        let tutor = ChildAgent::start(
            "tutor",
            &args.agent_log,
            &[("PORT", tutor_port.to_string()), ("HUB_URL", url(hub_port)), fixed_mode()],
        )
        .await?;
        let library = ChildAgent::start(
            "library",
            "warn",
            &[("PORT", library_port.to_string()), ("HUB_URL", url(hub_port))],
        )
        .await?;
        let hub = ChildAgent::start(
            "hub",
            &args.agent_log,
            &[
                ("PORT", hub_port.to_string()),
                ("TUTOR_URL", tutor.url.clone()),
                ("LIBRARY_URL", library.url.clone()),
                ("ROUTER_MODE", args.router.clone()),
            ],
        )
        .await?;
        let ui = ChildAgent::start("ui", &args.agent_log, &[("HUB_URL", hub.url.clone())]).await?;
        let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(10), ..Default::default() });
        let direct = client.connect(&tutor.url).await?;
        let routed = client.connect(&hub.url).await?;
        // The Hub routes only to registered specialists: wait until the Tutor is ready.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let resp = routed.send_message(message(QUESTION), &[]).await?;
            let a2a::wire::SendMessageResponse::Message(m) = resp else {
                bail!("the hub answered with a task")
            };
            let metadata = m.metadata.map(|md| md.into_iter().collect()).unwrap_or_default();
            let outcome = vocab::ReplyMeta::read(&metadata).map(|meta| meta.outcome);
            if outcome == Some(vocab::ReplyOutcome::Route) {
                break;
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the hub did not route to the tutor within 20 s (last outcome: {outcome:?})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await; // poll interval while the tutor registers
        }
        Ok(Self { tutor, library, hub, ui, direct, routed })
    }

    /// The agents' process ids, named.
    pub(crate) fn pids(&self) -> Vec<(&'static str, u32)> {
        [("hub", &self.hub), ("tutor", &self.tutor), ("library", &self.library), ("ui", &self.ui)]
            .iter()
            .filter_map(|(n, c)| c.pid().map(|p| (*n, p)))
            .collect()
    }
}

/// One browser's stream, read by the benchmark: counts the frames and bytes it delivers.
pub(crate) struct StreamReader {
    frames: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
    reconnects: Arc<AtomicU64>,
    pub(crate) topology: Arc<Topology>,
    task: tokio::task::JoinHandle<()>,
}

/// What the monitor channel said about the traffic: coalesced console entries, topology
/// pulses drawn, and the messages those pulses stand for (a coalesced pulse counts many).
#[derive(Default)]
pub(crate) struct Topology {
    coalesced: AtomicU64,
    pulses: AtomicU64,
    messages: AtomicU64,
}

impl Topology {
    fn read(&self, data: &str) {
        if !data.contains("\"coalesced\"") && !data.contains("campus.topology") {
            return;
        }
        let Ok(frame) = serde_json::from_str::<serde_json::Value>(data) else { return };
        let event = &frame["event"];
        if event["content"]["kind"] == "coalesced" {
            self.coalesced.fetch_add(1, Ordering::Relaxed);
        }
        for p in event["value"]["pulses"].as_array().into_iter().flatten() {
            self.pulses.fetch_add(1, Ordering::Relaxed);
            self.messages.fetch_add(p["count"].as_u64().unwrap_or(1), Ordering::Relaxed);
        }
    }

    /// (coalesced console entries, pulses, messages they stand for) so far.
    pub(crate) fn counts(&self) -> (u64, u64, u64) {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        (get(&self.coalesced), get(&self.pulses), get(&self.messages))
    }
}

impl StreamReader {
    pub(crate) fn start(ui_url: &str) -> Self {
        let url = format!("{ui_url}/api/ui/stream");
        let (frames, bytes, reconnects) =
            (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let topology = Arc::new(Topology::default());
        let (f, b, r, t) = (frames.clone(), bytes.clone(), reconnects.clone(), topology.clone());
        let task = tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut last_id: Option<String> = None;
            let mut parser = telemetry::SseParser::new();
            loop {
                let mut req = http.get(&url);
                if let Some(id) = &last_id {
                    req = req.header("last-event-id", id.as_str());
                }
                if let Ok(mut resp) = req.send().await {
                    while let Ok(Some(chunk)) = resp.chunk().await {
                        b.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                        for frame in parser.push(&chunk) {
                            f.fetch_add(1, Ordering::Relaxed);
                            t.read(&frame.data);
                            if frame.id.is_some() {
                                last_id = frame.id;
                            }
                        }
                    }
                }
                r.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Self { frames, bytes, reconnects, topology, task }
    }

    pub(crate) fn frames(&self) -> u64 {
        self.frames.load(Ordering::Relaxed)
    }

    pub(crate) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    pub(crate) fn reconnects(&self) -> u64 {
        self.reconnects.load(Ordering::Relaxed)
    }
}

impl Drop for StreamReader {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The highest resident memory of a process, sampled every 50 ms until stopped.
pub(crate) struct PeakRss {
    peak: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    pub(crate) fn start(pid: u32) -> Self {
        let peak = Arc::new(AtomicU64::new(0));
        let p = peak.clone();
        let task = tokio::spawn(async move {
            loop {
                if let Some(kib) = rss_kib(pid) {
                    p.fetch_max(kib, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
        Self { peak, task }
    }

    pub(crate) fn stop(self) -> Option<u64> {
        self.task.abort();
        Some(self.peak.load(Ordering::Relaxed)).filter(|k| *k > 0)
    }
}
