//! What the fault suite's scenarios share: the agents under test as child processes
//! ([`Campus`]), a question whose answer can be checked, what became of it, a row of the
//! table, and the measures around a scenario.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a::client::{A2aClient, ClientConfig};
use tokio::io::AsyncWriteExt;

use crate::bench::agents::{ChildAgent, Ops, data_dir, free_port, mb, pss_kib, rss_kib};

/// Fast heartbeats, so a stopped or restarted agent is seen within a second.
pub(super) const HEARTBEATS: [(&str, &str); 2] =
    [("HEARTBEAT_INTERVAL_MS", "100"), ("HEARTBEAT_EXPIRY_MS", "600")];
/// The Hub gives up on a specialist after this long (the cut scenario waits for it).
pub(super) const FORWARD_TIMEOUT_MS: &str = "2000";
/// A request's head must arrive within this (the slow-client scenario waits for it).
pub(super) const HEAD_TIMEOUT_MS: &str = "2000";

/// What became of one question, in the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    Answered,
    /// A clear refusal or failure the student can act on: the Hub's outcome (unavailable,
    /// failed — "never finished" among them —, …).
    Refused(&'static str),
    Unknown,
    /// No answer after every retry, or an answer to another question.
    Lost,
}

/// A question: its request id, the power whose derivative it asks, its conversation.
#[derive(Clone)]
pub(super) struct Question {
    pub(super) id: String,
    pub(super) power: u32,
    pub(super) context: Option<String>,
}

impl Question {
    pub(super) fn text(&self) -> String {
        format!("What is the derivative of x^{}?", self.power)
    }
    pub(super) fn expected(&self) -> String {
        match self.power {
            2 => "f'(x) = 2x".to_string(),
            p => format!("f'(x) = {p}x^{}", p - 1),
        }
    }
}

/// One scenario's line of the table.
#[derive(Default)]
pub(super) struct Row {
    pub(super) name: String,
    pub(super) fates: Vec<Fate>,
    /// Other refusals the scenario counts (forged messages, slow connections closed).
    pub(super) refused_extra: usize,
    pub(super) latencies: Vec<Duration>,
    pub(super) duplicated: usize,
    pub(super) memory: (u64, u64),
    pub(super) disk: (u64, u64),
    pub(super) note: String,
    /// A check of the scenario's own failed (a slow connection left open, a forgery
    /// accepted): the verdict counts it.
    pub(super) failed: bool,
}

impl Row {
    pub(super) fn count(&self, f: Fate) -> usize {
        self.fates.iter().filter(|x| **x == f).count()
    }

    pub(super) fn refused(&self) -> usize {
        self.fates.iter().filter(|x| matches!(x, Fate::Refused(_))).count()
    }

    /// How many were refused with each outcome, as words.
    pub(super) fn refusals(&self) -> String {
        let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
        for f in &self.fates {
            if let Fate::Refused(why) = f {
                *by.entry(why).or_default() += 1;
            }
        }
        by.iter().map(|(why, n)| format!("{n} {why}")).collect::<Vec<_>>().join(", ")
    }
}

/// The agents under test, each a child process, on fixed ports and one data folder, so a
/// killed one can be started again as itself.
pub(super) struct Campus {
    pub(super) hub: Mutex<Option<ChildAgent>>,
    pub(super) tutor: Mutex<Option<ChildAgent>>,
    pub(super) library: ChildAgent,
    /// Idle here, but the Hub asks every specialist it knows about a request it could not
    /// record the destination of: one it is configured with must be running.
    _professor: ChildAgent,
    professor_port: u16,
    pub(super) ports: (u16, u16, u16),
    pub(super) ops: Arc<Ops>,
    pub(super) client: A2aClient,
    pub(super) hub_url: String,
}

impl Campus {
    pub(super) async fn start() -> anyhow::Result<Self> {
        let ports = (free_port()?, free_port()?, free_port()?);
        let ops = Arc::new(Ops::default());
        let library = ChildAgent::start("library", "warn", &Self::specialist_env(ports.0, ports.2)).await?;
        let professor_port = free_port()?;
        let professor =
            ChildAgent::start("professor", "warn", &Self::specialist_env(ports.0, professor_port)).await?;
        let tutor = Self::start_tutor(ports, &ops).await?;
        let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(35), ..Default::default() });
        let campus = Campus {
            hub: Mutex::new(None),
            tutor: Mutex::new(Some(tutor)),
            library,
            _professor: professor,
            professor_port,
            ports,
            ops,
            client,
            hub_url: format!("http://127.0.0.1:{}", ports.0),
        };
        campus.start_hub().await?;
        Ok(campus)
    }

    pub(super) fn specialist_env(hub: u16, port: u16) -> Vec<(&'static str, String)> {
        vec![
            ("PORT", port.to_string()),
            ("HUB_URL", format!("http://127.0.0.1:{hub}")),
            ("HEARTBEAT_INTERVAL_MS", "100".into()),
        ]
    }

    pub(super) async fn start_tutor(ports: (u16, u16, u16), ops: &Arc<Ops>) -> anyhow::Result<ChildAgent> {
        ChildAgent::start_watched("tutor", &Self::specialist_env(ports.0, ports.1), ops.clone()).await
    }

    pub(super) async fn start_hub(&self) -> anyhow::Result<()> {
        let url = |p: u16| format!("http://127.0.0.1:{p}");
        let mut env = vec![
            ("PORT", self.ports.0.to_string()),
            ("TUTOR_URL", url(self.ports.1)),
            ("LIBRARY_URL", url(self.ports.2)),
            ("PROFESSOR_URL", url(self.professor_port)),
            ("HUB_FORWARD_TIMEOUT_MS", FORWARD_TIMEOUT_MS.into()),
            ("CAMPUS_HEAD_TIMEOUT_MS", HEAD_TIMEOUT_MS.into()),
        ];
        env.extend(HEARTBEATS.iter().map(|(k, v)| (*k, v.to_string())));
        let hub = ChildAgent::start("hub", "warn", &env).await?;
        *lock(&self.hub) = Some(hub);
        self.wait_routable().await
    }

    /// Until a question reaches the Tutor through the Hub (at most 20 s).
    pub(super) async fn wait_routable(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut n = 0;
        while Instant::now() < deadline {
            n += 1;
            let q = Question { id: format!("ready-{n}-{}", std::process::id()), power: 2, context: None };
            if let (Fate::Answered, _) = self.ask(&q).await {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await; // the registration's poll interval
        }
        anyhow::bail!("the hub did not route to the tutor within 20 s")
    }

    /// Asks once; the fate as the student sees it now, and the conversation it was given.
    pub(super) async fn ask(&self, q: &Question) -> (Fate, Option<String>) {
        let student = student::Student::new(self.client.clone(), &self.hub_url);
        student.set_conversation(q.context.clone());
        let Ok(ex) = student.ask_with_request_id(&q.text(), &q.id).await else {
            return (Fate::Unknown, q.context.clone());
        };
        let context = Some(ex.context_id.clone());
        let fate = match ex.outcome.as_deref() {
            Some("route") => {
                let ours = ex.metadata.as_ref().and_then(|m| m.get(vocab::meta::REQUEST_ID_KEY))
                    == Some(&serde_json::Value::String(q.id.clone()));
                if ours && ex.reply_text.contains(&q.expected()) { Fate::Answered } else { Fate::Lost }
            }
            Some("outcome_unknown") => Fate::Unknown,
            Some("failed") if ex.reply_text.contains("never finished") => {
                Fate::Refused("never finished, ask again")
            }
            Some(other) => Fate::Refused(
                vocab::ReplyOutcome::ALL
                    .iter()
                    .map(|o| o.as_str())
                    .find(|name| *name == other)
                    .unwrap_or("another outcome"),
            ),
            None => Fate::Refused("no outcome"),
        };
        (fate, context)
    }

    /// Asks each question, concurrently; their fates and first-attempt latencies.
    pub(super) async fn ask_all(
        self: &Arc<Self>,
        questions: Vec<Question>,
    ) -> Vec<(Question, Fate, Duration)> {
        let tasks: Vec<_> = questions
            .into_iter()
            .map(|mut q| {
                let me = self.clone();
                tokio::spawn(async move {
                    let t = Instant::now();
                    let (fate, context) = me.ask(&q).await;
                    q.context = context;
                    (q, fate, t.elapsed())
                })
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            if let Ok(r) = t.await {
                out.push(r);
            }
        }
        out
    }

    /// "Check for answer" for every question still unknown, until none is or 30 s pass;
    /// a question still unknown then stays unknown, one that never got any reply is lost.
    pub(super) async fn settle(&self, asked: &mut [(Question, Fate, Duration)]) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline && asked.iter().any(|(_, f, _)| *f == Fate::Unknown) {
            for (q, fate, _) in asked.iter_mut().filter(|(_, f, _)| *f == Fate::Unknown) {
                let (now, context) = self.ask(q).await;
                *fate = now;
                q.context = context.or(q.context.take());
            }
            tokio::time::sleep(Duration::from_millis(200)).await; // between rounds of retries
        }
    }

    pub(super) fn pids(&self) -> Vec<u32> {
        let (hub, tutor) = (
            lock(&self.hub).as_ref().and_then(ChildAgent::pid),
            lock(&self.tutor).as_ref().and_then(ChildAgent::pid),
        );
        [hub, tutor, self.library.pid()].into_iter().flatten().collect()
    }

    /// Resident memory of the three agents, KiB.
    pub(super) fn memory(&self) -> u64 {
        self.pids().into_iter().filter_map(rss_kib).sum()
    }

    pub(super) fn pss(&self) -> u64 {
        self.pids().into_iter().filter_map(pss_kib).sum()
    }

    /// Each agent's resident memory, as words.
    pub(super) fn each(&self) -> String {
        let named = |n: &str, pid: Option<u32>| format!("{n} {}", mb(pid.and_then(rss_kib)));
        let hub = lock(&self.hub).as_ref().and_then(ChildAgent::pid);
        let tutor = lock(&self.tutor).as_ref().and_then(ChildAgent::pid);
        [named("hub", hub), named("tutor", tutor), named("library", self.library.pid())].join(", ")
    }
}

/// The Hub's data file and its write-ahead log, bytes.
pub(super) fn hub_disk() -> u64 {
    ["hub.sqlite3", "hub.sqlite3-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(data_dir().join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// `PRAGMA integrity_check` of an agent's file as a kill left it.
pub(super) fn integrity(agent: &str) -> String {
    match store::Store::open(&store::file_for(&data_dir(), agent)) {
        Ok(s) => s.integrity_check().unwrap_or_else(|e| e.to_string()),
        Err(e) => e.to_string(),
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Opens `n` connections to `addr`, each sending half a request line and then nothing.
pub(super) async fn half_requests(addr: &str, n: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        if let Ok(mut s) = tokio::net::TcpStream::connect(addr).await
            && s.write_all(b"POST /a2a/jsonrpc HTT").await.is_ok()
        {
            held.push(s);
        }
    }
    held
}

/// The Tutor's operations begun more than once, so far.
pub(super) fn twice(ops: &Ops) -> usize {
    ops.repeated()
}

/// Questions `n` with fresh request ids, tagged `tag`.
pub(super) fn questions(tag: &str, n: usize) -> Vec<Question> {
    (0..n).map(|i| Question { id: format!("{tag}-{i}"), power: (i % 20) as u32 + 2, context: None }).collect()
}

/// Fills in a row from asked questions.
pub(super) fn row(name: String, asked: Vec<(Question, Fate, Duration)>) -> Row {
    let latencies = asked.iter().map(|(_, _, d)| *d).collect();
    Row { name, fates: asked.into_iter().map(|(_, f, _)| f).collect(), latencies, ..Row::default() }
}
