//! Registry tests: card validation, and refreshes against a real card server.

use super::*;
use crate::config::Capability;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A registry for one specialist at `base`, with events going nowhere.
fn registry(base: &str) -> Arc<Registry> {
    let emit = Emit::none();
    Registry::new(&[conf(base)], Duration::from_secs(3), Duration::from_secs(10), A2aClient::default(), emit)
}

fn register(reg: &Registry, base: &str) -> Ack {
    reg.register(&Register {
        identity: "tutor".into(),
        instance_id: "i".into(),
        endpoint: base.into(),
        card_url: format!("{base}/.well-known/agent-card.json"),
        enabled: true,
        mode: None,
        model: None,
    })
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
    let doc = a2a::CardDoc::new(a2a::basic_card(name, "d", &base));
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
    assert!(register(&reg, &base).ok);
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
    assert!(register(&reg, &base).ok);
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
    assert!(register(&reg, base).ok);
    assert!(mode(&reg).is_none(), "an older agent that does not say: unknown, never guessed");
    let with = |m: &str| Register {
        identity: "tutor".into(),
        instance_id: "i".into(),
        endpoint: base.into(),
        card_url: format!("{base}/.well-known/agent-card.json"),
        enabled: true,
        mode: Some(m.into()),
        model: None,
    };
    assert!(reg.register(&with("fixed")).ok);
    assert_eq!(mode(&reg).as_deref(), Some("fixed"));
    for bad in ["", "Fixed", "a b", &"x".repeat(33)] {
        let ack = reg.register(&with(bad));
        assert_eq!(ack.code.as_deref(), Some(ack_codes::INVALID_CONTROL), "{bad:?}");
    }
    assert_eq!(mode(&reg).as_deref(), Some("fixed"), "a refused registration changes nothing");
    let model = |reg: &Registry| reg.describe()[0].model.clone();
    assert!(model(&reg).is_none(), "no model said: unknown");
    let live = Register { model: Some("claude-haiku-5-5".into()), ..with("live") };
    assert!(reg.register(&live).ok);
    assert_eq!((mode(&reg).as_deref(), model(&reg).as_deref()), (Some("live"), Some("claude-haiku-5-5")));
    let bad = Register { model: Some("Claude Haiku".into()), ..with("live") };
    assert_eq!(reg.register(&bad).code.as_deref(), Some(ack_codes::INVALID_CONTROL));
}
