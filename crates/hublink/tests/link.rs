//! The specialist's side of the Hub link against a scripted Hub over real HTTP: what
//! happens to a card-change notice the Hub does not answer, or refuses.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a::client::{A2aClient, ClientConfig};
use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext};
use a2a::{CardDoc, RpcError};
use hublink::{Ack, Control, LinkConfig, LinkEvents, ack_codes, ack_reply, parse_control, run_link};
use serde_json::Value;
use tokio::sync::{oneshot, watch};

/// How the scripted Hub answers a card-change notice.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Answer {
    Ack,
    /// An internal error: to the link, a notice nobody answered.
    Fail,
    NotRegistered,
}

#[derive(Default)]
struct Seen {
    /// Every control message, in arrival order: ("register" | "heartbeat" | …, notice id, revision).
    controls: Vec<(&'static str, String, Option<u64>)>,
    /// The answers to give to notices, in order; `Ack` once they run out.
    script: Vec<Answer>,
    /// Control messages not signed by the link's key (there must be none).
    unsigned: usize,
}

/// The scripted specialist's key, and the scripted Hub's.
fn link_key() -> keys::AgentKey {
    keys::AgentKey::from_seed([0x11; 32])
}
fn hub_key() -> keys::AgentKey {
    keys::AgentKey::from_seed([0x22; 32])
}

#[derive(Clone, Default)]
struct ScriptedHub(Arc<Mutex<Seen>>);

impl ScriptedHub {
    fn controls(&self) -> Vec<(&'static str, String, Option<u64>)> {
        self.0.lock().unwrap().controls.clone()
    }

    fn count(&self, kind: &str) -> usize {
        self.controls().iter().filter(|c| c.0 == kind).count()
    }
}

impl AgentExecutor for ScriptedHub {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let signed = parse_control(&ctx.message).expect("a control part").expect("a valid control");
        let mut seen = self.0.lock().unwrap();
        if signed.check(&link_key().public(), keys::now_ms()).is_err() {
            seen.unsigned += 1;
        }
        let ack = match signed.control {
            Control::Register(r) => {
                assert_eq!(r.public_key, link_key().public(), "a registration offers the agent's key");
                seen.controls.push(("register", String::new(), None));
                let mut ack = Ack::ok("registered");
                ack.heartbeat_interval_ms = Some(40);
                ack.hub_key = Some(hub_key().public());
                ack
            }
            Control::Heartbeat(_) => {
                seen.controls.push(("heartbeat", String::new(), None));
                Ack::ok("alive")
            }
            Control::Deregister(_) => {
                seen.controls.push(("deregister", String::new(), None));
                Ack::ok("signed_out")
            }
            Control::CardChanged(n) => {
                seen.controls.push(("notice", n.notice_id.clone(), n.revision));
                let answer = if seen.script.is_empty() { Answer::Ack } else { seen.script.remove(0) };
                match answer {
                    Answer::Ack => Ack::ok("refresh_scheduled"),
                    Answer::Fail => return Err(RpcError::internal()),
                    Answer::NotRegistered => Ack::refused(ack_codes::NOT_REGISTERED, "unknown instance"),
                }
            }
        };
        Ok(ack_reply(&ack))
    }
}

struct Running {
    hub: ScriptedHub,
    trust: Arc<hublink::HubTrust>,
    changes: watch::Sender<u64>,
    events: Arc<Mutex<Vec<Value>>>,
    stop: Option<oneshot::Sender<()>>,
    link: tokio::task::JoinHandle<()>,
}

async fn start(script: Vec<Answer>) -> Running {
    let hub = ScriptedHub::default();
    hub.0.lock().unwrap().script = script;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut card = a2a::basic_card("Scripted Hub", "a hub for tests", &base);
    card.default_input_modes = hublink::CONTROL_TYPES.map(String::from).to_vec();
    let card = CardCell::new(CardDoc::new(card));
    let app = A2aServer::new(hub.clone(), card).router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let trust = hublink::HubTrust::open("tutor", std::sync::Arc::new(link_key()), None, None).await.unwrap();
    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = events.clone();
    let on_event: LinkEvents = Arc::new(move |kind, data: Value| {
        if kind == vocab::events::specialist::SpecialistEventKind::CardChangeNotice {
            sink.lock().unwrap().push(data);
        }
    });
    let cfg = LinkConfig {
        hub_url: base,
        identity: "tutor".into(),
        endpoint: "http://127.0.0.1:1".into(),
        card_url: "http://127.0.0.1:1/.well-known/agent-card.json".into(),
        enabled: true,
        mode: Some("mock".into()),
        model: Some("claude-haiku-5-5".into()),
        heartbeat_interval: Duration::from_millis(40),
        key: Arc::new(link_key()),
        trust: Some(trust.clone()),
    };
    let client = A2aClient::new(ClientConfig { timeout: Duration::from_secs(2), ..Default::default() });
    let (changes, rx) = watch::channel(0);
    let (stop, stopped) = oneshot::channel::<()>();
    let link = tokio::spawn(run_link(cfg, client, rx, on_event, async {
        let _ = stopped.await;
    }));
    let running = Running { hub, trust, changes, events, stop: Some(stop), link };
    running.until(|h| h.count("register") == 1).await;
    running
}

impl Running {
    /// Polls (every 10 ms, at most 10 s) until `done` holds for the Hub's record.
    async fn until(&self, done: impl Fn(&ScriptedHub) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !done(&self.hub) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out; the hub saw {:?}",
                self.hub.controls()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits until the Hub has answered `n` more heartbeats.
    async fn heartbeats(&self, n: usize) {
        let beats = self.hub.count("heartbeat");
        self.until(|h| h.count("heartbeat") >= beats + n).await;
    }

    fn notices(&self) -> Vec<(String, Option<u64>)> {
        self.hub.controls().into_iter().filter(|c| c.0 == "notice").map(|c| (c.1, c.2)).collect()
    }

    fn outcomes(&self) -> Vec<(u64, u64, String)> {
        let events = self.events.lock().unwrap();
        events
            .iter()
            .map(|e| {
                let n = |k: &str| e[k].as_u64().unwrap_or_default();
                (n("revision"), n("attempt"), e["outcome"].as_str().unwrap_or_default().to_string())
            })
            .collect()
    }

    /// Stops the link; every control message it sent was signed by its key.
    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.link.await.unwrap();
        assert_eq!(self.hub.0.lock().unwrap().unsigned, 0, "every control message is signed");
    }
}

#[tokio::test]
async fn every_control_message_is_signed_and_the_hubs_key_is_pinned_on_registering() {
    let running = start(vec![]).await;
    running.heartbeats(2).await;
    assert_eq!(running.trust.key(), Some(hub_key().public()), "pinned from the accepted registration");
    running.changes.send(1).unwrap();
    running.until(|h| h.count("notice") == 1).await;
    running.stop().await;
}

#[tokio::test]
async fn an_unanswered_notice_is_sent_again_with_its_id_after_the_next_heartbeat() {
    let running = start(vec![Answer::Fail, Answer::Fail]).await;
    running.changes.send(1).unwrap();
    running.until(|h| h.count("notice") == 3).await;
    let notices = running.notices();
    assert!(notices.iter().all(|n| n == &notices[0]), "one notice id and revision throughout: {notices:?}");
    assert_eq!(notices[0].1, Some(1));
    // each retry follows a heartbeat the Hub answered
    let kinds: Vec<&str> = running.hub.controls().iter().map(|c| c.0).collect();
    let positions: Vec<usize> =
        kinds.iter().enumerate().filter(|(_, k)| **k == "notice").map(|(i, _)| i).collect();
    assert!(positions.windows(2).all(|w| kinds[w[0] + 1..w[1]].contains(&"heartbeat")), "{kinds:?}");
    // delivered on the third attempt, and then never sent again
    running.heartbeats(3).await;
    assert_eq!(running.notices().len(), 3);
    assert_eq!(
        running.outcomes(),
        vec![(1, 1, "pending".into()), (1, 2, "pending".into()), (1, 3, "delivered".into())]
    );
    running.stop().await;
}

#[tokio::test]
async fn a_newer_change_replaces_an_unanswered_notice() {
    let running = start(vec![Answer::Fail]).await;
    running.changes.send(1).unwrap();
    running.until(|h| h.count("notice") == 1).await;
    running.changes.send(2).unwrap();
    running.until(|h| h.controls().iter().any(|c| c.0 == "notice" && c.2 == Some(2))).await;
    running.heartbeats(3).await;
    let notices = running.notices();
    let last = notices.iter().rposition(|n| n.1 == Some(1)).unwrap();
    let newer = notices.iter().position(|n| n.1 == Some(2)).unwrap();
    assert!(last < newer, "revision 1 was not retried after revision 2 went out: {notices:?}");
    assert_eq!(notices.iter().filter(|n| n.1 == Some(2)).count(), 1, "{notices:?}");
    assert_ne!(notices[0].0, notices[newer].0, "a new change is a new notice id");
    running.stop().await;
}

#[tokio::test]
async fn a_notice_refused_as_not_registered_registers_again_at_once() {
    let running = start(vec![Answer::NotRegistered]).await;
    running.changes.send(1).unwrap();
    running.until(|h| h.count("register") == 2).await;
    let kinds: Vec<&str> = running.hub.controls().iter().map(|c| c.0).collect();
    let notice = kinds.iter().position(|k| *k == "notice").unwrap();
    assert_eq!(kinds[notice + 1], "register", "registered again right after the refusal: {kinds:?}");
    // registering makes the Hub fetch the card: the refused notice is not sent again
    running.heartbeats(3).await;
    assert_eq!(running.notices().len(), 1);
    assert_eq!(running.outcomes(), vec![(1, 1, "rejected: not_registered".into())]);
    running.stop().await;
}

#[tokio::test]
async fn a_hub_that_is_down_leaves_the_notice_pending_and_signing_out_still_happens() {
    // the Hub fails the notice; shutting down while it is pending signs out all the same
    let running = start(vec![Answer::Fail; 100]).await;
    running.changes.send(7).unwrap();
    running.until(|h| h.count("notice") >= 2).await;
    let hub = running.hub.clone();
    running.stop().await;
    assert_eq!(hub.controls().last().unwrap().0, "deregister");
}
