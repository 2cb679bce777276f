//! Registry tests: card validation, and refreshes against a real card server.

use super::*;
use crate::config::Capability;
use hublink::{Ack, CardChanged, Control, Heartbeat, Register, ack_codes};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A registry for one specialist at `base`, with events going nowhere.
fn registry(base: &str) -> Arc<Registry> {
    let emit = Emit::none();
    let key = Arc::new(AgentKey::from_seed([0; 32]));
    Registry::new(
        &[conf(base)],
        (Duration::from_secs(3), Duration::from_secs(10)),
        A2aClient::default(),
        (key, Pins::memory()),
        emit,
    )
}

/// The test specialist's key.
fn tutor_key() -> AgentKey {
    AgentKey::from_seed([1; 32])
}

/// `control` as it arrives, signed by `key`.
async fn send(reg: &Registry, key: &AgentKey, control: Control) -> Ack {
    let signed = hublink::parse_control(&control.to_message(key)).unwrap().unwrap();
    reg.control(&signed).await
}

/// A registration of instance `instance` at `base`, offering `key`.
fn registration(base: &str, instance: &str, key: &AgentKey) -> Register {
    Register {
        identity: "tutor".into(),
        instance_id: instance.into(),
        endpoint: base.into(),
        card_url: format!("{base}/.well-known/agent-card.json"),
        enabled: true,
        public_key: key.public(),
        mode: None,
        model: None,
    }
}

async fn register(reg: &Registry, base: &str) -> Ack {
    send(reg, &tutor_key(), Control::Register(registration(base, "i", &tutor_key()))).await
}

fn beat(instance: &str) -> Heartbeat {
    Heartbeat { identity: "tutor".into(), instance_id: instance.into() }
}

fn conf(endpoint: &str) -> SpecialistConf {
    SpecialistConf {
        id: "tutor".into(),
        card_name: "Tutor Agent".into(),
        endpoint: endpoint.into(),
        capability: Capability {
            id: "tutoring".into(),
            name: "Tutoring".into(),
            description: "d".into(),
            tags: vec![],
            examples: vec![],
        },
        public_key: None,
    }
}

#[test]
fn card_validation() {
    let c = conf("http://127.0.0.1:41241");
    let good = a2a::basic_card("Tutor Agent", "d", "http://127.0.0.1:41241");
    assert!(validate_card(&c, &good).is_ok());
    let mut wrong_name = good.clone();
    wrong_name.name = "Library Agent".into();
    assert!(validate_card(&c, &wrong_name).unwrap_err().to_string().contains("name"));
    let mut elsewhere = good.clone();
    elsewhere.supported_interfaces[0].url = "http://127.0.0.1:9/a2a/jsonrpc".into();
    assert!(validate_card(&c, &elsewhere).unwrap_err().to_string().contains("configured endpoint"));
    let mut two = good.clone();
    two.supported_interfaces.push(two.supported_interfaces[0].clone());
    assert!(validate_card(&c, &two).unwrap_err().to_string().contains("exactly one"));
    let mut old = good.clone();
    old.supported_interfaces[0].protocol_version = "0.3".into();
    assert!(validate_card(&c, &old).is_err());
    let mut secured = good.clone();
    secured.security_requirements = Some(vec![std::collections::HashMap::from([("k".to_string(), vec![])])]);
    assert!(validate_card(&c, &secured).unwrap_err().to_string().contains("security"));
}

/// A card server that counts fetches, records `If-None-Match`, answers 304 when it
/// matches, and holds each fetch until the test releases it.
async fn card_server(
    name: &str,
    arrived: Arc<AtomicUsize>,
    conditional: Arc<AtomicUsize>,
    gate: Arc<tokio::sync::Semaphore>,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut card = a2a::basic_card(name, "d", &base);
    card.signatures = Some(vec![keys::sign_card(&tutor_key(), &card)]);
    let doc = a2a::CardDoc::new(card);
    let app = axum::Router::new().route(
        "/.well-known/agent-card.json",
        axum::routing::get(move |headers: axum::http::HeaderMap| {
            let (arrived, conditional, gate, doc) =
                (arrived.clone(), conditional.clone(), gate.clone(), doc.clone());
            async move {
                arrived.fetch_add(1, Ordering::SeqCst);
                gate.acquire().await.unwrap().forget();
                let inm = headers.get("if-none-match").and_then(|v| v.to_str().ok()).map(str::to_string);
                if inm.as_deref() == Some(doc.etag.as_str()) {
                    conditional.fetch_add(1, Ordering::SeqCst);
                    return axum::http::Response::builder()
                        .status(304)
                        .body(axum::body::Body::empty())
                        .unwrap();
                }
                axum::http::Response::builder()
                    .header("etag", doc.etag.clone())
                    .header("content-type", "application/json")
                    .body(axum::body::Body::from(doc.json.clone()))
                    .unwrap()
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// Polls (yielding to the registry's tasks) until `done` holds; panics after 5 s.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_fetched_card_that_fails_validation_is_not_used() {
    let gate = Arc::new(tokio::sync::Semaphore::new(100));
    let base = card_server("Library Agent", Arc::default(), Arc::default(), gate).await;
    let reg = registry(&base);
    assert!(register(&reg, &base).await.ok);
    until("the fetch", || reg.lock()["tutor"].refreshes == 1).await;
    assert_eq!(reg.status("tutor"), Some(Status::InvalidCard));
    assert!(reg.lock()["tutor"].card_error.as_deref().unwrap_or("").contains("name"));
    assert!(reg.handle("tutor").is_err(), "no work goes to an unverified card");
}

#[tokio::test]
async fn refreshes_are_conditional_and_coalesce() {
    let (arrived, conditional) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let base = card_server("Tutor Agent", arrived.clone(), conditional.clone(), gate.clone()).await;
    let reg = registry(&base);
    let refreshes = || reg.lock()["tutor"].refreshes;
    assert!(register(&reg, &base).await.ok);
    gate.add_permits(1);
    until("the first fetch", || refreshes() == 1).await;
    assert_eq!(reg.status("tutor"), Some(Status::Ready));

    // a second fetch is held at the server; five more requests meanwhile
    reg.request_refresh("tutor");
    until("the second fetch to arrive", || arrived.load(Ordering::SeqCst) == 2).await;
    for _ in 0..5 {
        reg.request_refresh("tutor");
    }
    gate.add_permits(10);
    until("the coalesced fetch", || refreshes() == 3).await;
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    assert_eq!(arrived.load(Ordering::SeqCst), 3, "five overlapping requests became one more fetch");
    assert_eq!(conditional.load(Ordering::SeqCst), 2, "re-fetches send If-None-Match and get 304");
    assert_eq!(reg.status("tutor"), Some(Status::Ready), "a 304 keeps the card");
}

#[tokio::test]
async fn the_mode_is_what_the_registration_said_and_unknown_without_it() {
    let base = "http://127.0.0.1:9";
    let reg = registry(base);
    let mode = |reg: &Registry| reg.describe()[0].mode.clone();
    assert!(mode(&reg).is_none(), "nothing registered: unknown");
    assert!(register(&reg, base).await.ok);
    assert!(mode(&reg).is_none(), "an older agent that does not say: unknown, never guessed");
    let with = |m: &str| Register { mode: Some(m.into()), ..registration(base, "i", &tutor_key()) };
    let key = tutor_key();
    assert!(send(&reg, &key, Control::Register(with("fixed"))).await.ok);
    assert_eq!(mode(&reg).as_deref(), Some("fixed"));
    for bad in ["", "Fixed", "a b", &"x".repeat(33)] {
        let ack = send(&reg, &key, Control::Register(with(bad))).await;
        assert_eq!(ack.code.as_deref(), Some(ack_codes::INVALID_CONTROL), "{bad:?}");
    }
    assert_eq!(mode(&reg).as_deref(), Some("fixed"), "a refused registration changes nothing");
    let model = |reg: &Registry| reg.describe()[0].model.clone();
    assert!(model(&reg).is_none(), "no model said: unknown");
    let live = Register { model: Some("claude-haiku-5-5".into()), ..with("live") };
    assert!(send(&reg, &key, Control::Register(live)).await.ok);
    assert_eq!((mode(&reg).as_deref(), model(&reg).as_deref()), (Some("live"), Some("claude-haiku-5-5")));
    let bad = Register { model: Some("Claude Haiku".into()), ..with("live") };
    assert_eq!(
        send(&reg, &key, Control::Register(bad)).await.code.as_deref(),
        Some(ack_codes::INVALID_CONTROL)
    );
}

#[tokio::test]
async fn only_the_pinned_key_speaks_for_an_identity_and_an_instance_id_is_no_credential() {
    let base = "http://127.0.0.1:9";
    let reg = registry(base);
    let (tutor, intruder) = (tutor_key(), AgentKey::from_seed([66; 32]));
    let ack = register(&reg, base).await;
    assert!(ack.ok);
    assert_eq!(ack.hub_key, Some(AgentKey::from_seed([0; 32]).public()), "the hub gives its key");
    let code = |ack: Ack| ack.code.unwrap_or_default();
    // the live instance's id, another key: every control message is refused
    let forged = Register { enabled: false, ..registration(base, "i", &intruder) };
    assert_eq!(code(send(&reg, &intruder, Control::Register(forged.clone())).await), "key_mismatch");
    // claiming the pinned key without holding it: signed by another key
    let claimed = Register { public_key: tutor.public(), ..forged };
    assert_eq!(code(send(&reg, &intruder, Control::Register(claimed)).await), "key_mismatch");
    assert_eq!(code(send(&reg, &intruder, Control::Heartbeat(beat("i"))).await), "key_mismatch");
    assert_eq!(code(send(&reg, &intruder, Control::Deregister(beat("i"))).await), "key_mismatch");
    let notice = CardChanged {
        identity: "tutor".into(),
        instance_id: "i".into(),
        notice_id: "n".into(),
        revision: None,
    };
    assert_eq!(code(send(&reg, &intruder, Control::CardChanged(notice)).await), "key_mismatch");
    assert_eq!(reg.describe()[0].instance_id.as_deref(), Some("i"));
    assert_ne!(reg.status("tutor"), Some(Status::Disabled), "the forged disable changed nothing");
    // unsigned: refused
    let mut bare = Control::Heartbeat(beat("i")).to_message(&tutor);
    if let a2a::wire::PartContent::Data(d) = &mut bare.parts[0].content {
        d.as_object_mut().unwrap().remove("proof");
    }
    let unsigned = hublink::parse_control(&bare).unwrap().unwrap();
    assert_eq!(code(reg.control(&unsigned).await), "bad_signature");
    // the same signed heartbeat twice: the second is a replay
    let once = hublink::parse_control(&Control::Heartbeat(beat("i")).to_message(&tutor)).unwrap().unwrap();
    assert!(reg.control(&once).await.ok);
    assert_eq!(code(reg.control(&once).await), "replayed");
    // the real key signs out
    assert!(send(&reg, &tutor, Control::Deregister(beat("i"))).await.ok);
    assert_eq!(reg.status("tutor"), Some(Status::Disconnected));
}

#[tokio::test]
async fn a_new_instance_that_proves_the_key_replaces_a_live_one_at_once() {
    let base = "http://127.0.0.1:9";
    let reg = registry(base);
    let tutor = tutor_key();
    assert!(register(&reg, base).await.ok);
    // a restart: a new instance id, the same key, while the old one's heartbeat is fresh
    let ack = send(&reg, &tutor, Control::Register(registration(base, "j", &tutor))).await;
    assert!(ack.ok, "{ack:?}");
    assert_eq!(reg.describe()[0].instance_id.as_deref(), Some("j"));
    let old = send(&reg, &tutor, Control::Heartbeat(beat("i"))).await;
    assert_eq!(old.code.as_deref(), Some(ack_codes::NOT_REGISTERED), "the old instance is gone");
}
