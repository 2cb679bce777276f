//! The University Hub: the only agent the Student talks to.
//!
//! - A public Agent Card whose skills are the university's capabilities (from
//!   configuration), never specialists' names, cards or URLs.
//! - A private [`Registry`] of allowlisted specialists: registration, heartbeats,
//!   sign-out and card-change notices arrive as typed A2A data parts (see `hublink`).
//! - Routing (a classifier trained from the cards, a labelled mock heuristic, or direct), validated by code against the
//!   registry; forwarding as a new A2A message per hop in a Hub↔specialist context kept
//!   per conversation and specialist; a ledger that answers repeated request ids, kept in
//!   the Hub's own store (`<CAMPUS_DATA_DIR>/hub.sqlite3`, see [`open_store`]) so a
//!   repeated request id is answered from it across a restart too.
//! - Telemetry: its own feed plus its specialists' feeds relayed (redacted unless
//!   `HUB_TELEMETRY_SHOW_CONTENT=1`). The Hub logs no message text.
//! - Localhost-only developer endpoints (`/dev/…`).

mod answer;
mod ask;
mod asker;
mod clarify;
mod config;
mod courtesy;
mod decide;
mod decision;
mod dev;
mod error;
mod events;
mod executor;
mod forms;
mod forward;
mod intake;
mod ledger;
mod memory;
mod out_of_scope;
mod plan;
mod recheck;
mod registry;
mod route;
#[cfg(test)]
mod testing;
mod view;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a::client::A2aClient;
use a2a::server::{A2aServer, CardCell};
use a2a::wire::{AgentProvider, AgentSkill};

use telemetry::{Data, Telemetry};
use tokio::net::TcpListener;
use tokio::sync::watch;
use vocab::HubEventKind;

pub use config::{Capability, Config, DEFAULT_HYBRID_THRESHOLD, DEFAULT_PORT, RouterMode, SpecialistConf};
pub use decision::{Decision, Outcome, Scored, validate};
pub use error::{FormRefusal, HubError};
pub use events::Emit;
pub use executor::HubExecutor;
pub use intake::MAX_QUESTION;
pub use registry::{CardOutcome, CardProblem, Registry, validate_card};
pub use route::live::{question_of, stand_in};
pub use route::mock::best_skill;
pub use route::{Decided, ModelCall, Router, RouterParts, hybrid_sends, training};
pub use view::{SkillIndex, SpecialistView, Status, index, skill_texts, words};

/// The live router's output cap per question (for cost estimates).
pub const ROUTER_MAX_TOKENS: u32 = route::live::MAX_TOKENS;

/// The Hub's public card for a Hub reachable at `base_url`.
pub fn public_card(config: &Config, base_url: &str) -> a2a::wire::AgentCard {
    let mut card = a2a::basic_card(
        &config.name,
        "The university's front desk: ask anything; it routes your question to the right service.",
        base_url,
    );
    card.version = env!("CARGO_PKG_VERSION").into();
    // What the Hub accepts, honestly: questions as text, and the specialists' control
    // messages (typed data parts), which the A2A layer would otherwise refuse (-32005).
    // Form actions are A2UI data parts (docs/forms.md).
    card.default_input_modes = ["text/plain", a2ui::MEDIA_TYPE]
        .into_iter()
        .chain(hublink::CONTROL_TYPES)
        .map(String::from)
        .collect();
    card.capabilities.extensions = Some(vec![a2ui::part::agent_extension(&[a2ui::BASIC_CATALOG_ID])]);
    card.skills = config
        .specialists
        .iter()
        .map(|s| AgentSkill {
            id: s.capability.id.clone(),
            name: s.capability.name.clone(),
            description: s.capability.description.clone(),
            tags: s.capability.tags.clone(),
            examples: (!s.capability.examples.is_empty()).then(|| s.capability.examples.clone()),
            // Questions are text; the control types below are not anyone's question.
            input_modes: Some(vec!["text/plain".into()]),
            output_modes: None,
            security_requirements: None,
        })
        .collect();
    card.provider = Some(AgentProvider { organization: config.name.clone(), url: base_url.into() });
    card
}

/// The Hub's store, opened with [`open_store`] before the Hub serves.
pub struct HubStore {
    /// The Hub's data file, for its durable records (form references, …).
    pub store: store::Store,
    ledger: ledger::Loaded,
    /// The Hub's own key (`<data dir>/hub.key`).
    key: Arc<keys::AgentKey>,
    /// The specialists' keys pinned in the store.
    pins: registry::Pins,
    /// What the Hub remembered of its conversations when it stopped.
    conversations: Vec<(String, String, i64)>,
}

/// Why the Hub's store or key could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Key(#[from] keys::KeyError),
}

/// How many answers the ledger keeps (requests and their aliases), in memory and on disk.
const LEDGER_CAPACITY: usize = 4_096;

/// Opens `<data dir>/hub.sqlite3` (creating it on first start; an unreadable file or one
/// from a newer build is refused, never replaced) and reads the request ledger from it.
/// Call before the ready line. Commits survive a killed process (`synchronous = NORMAL`:
/// one write per question must not cost an fsync each; see ARCHITECTURE.md).
pub async fn open_store(config: &Config) -> Result<HubStore, OpenError> {
    let store =
        store::Store::open_agent_with(&config.data_dir, "hub", store::Durability::ProcessKill).await?;
    let served_by = config.served_by_hub();
    let reading = store.clone();
    let ledger = store.run(move |_| ledger::load(reading, LEDGER_CAPACITY, &served_by)).await?;
    let key = Arc::new(keys::AgentKey::load_or_create(&config.data_dir, "hub")?);
    let pins = registry::Pins::load(store.clone()).await?;
    let conversations = store.run(|s| s.load_conversations(memory::CONVERSATIONS)).await?;
    Ok(HubStore { store, ledger, key, pins, conversations })
}

/// The running Hub's parts, for tests and the binary.
pub struct Hub {
    pub router: axum::Router,
    pub registry: Arc<Registry>,
    pub telemetry: Telemetry,
}

/// Builds the Hub for a server bound at `addr` over its opened store, with the router
/// `routing` runs on, and starts its relays (they stop when `stop` changes).
pub fn build(
    config: Config,
    routing: RouterParts,
    addr: SocketAddr,
    data: HubStore,
    stop: watch::Receiver<bool>,
) -> Result<Hub, store::StoreError> {
    let base = format!("http://{addr}");
    let telemetry = Telemetry::new("hub");
    let tel = telemetry.clone();
    let emit = Emit::new(move |kind: HubEventKind, data: Data| {
        if kind == HubEventKind::Heartbeat {
            tel.record_transient(kind.as_str(), data);
        } else {
            tel.record(kind.as_str(), data);
        }
    });
    let client =
        A2aClient::new(a2a::client::ClientConfig { timeout: config.forward_timeout, ..Default::default() });
    let signer: a2a::CardSigner = Arc::new(keys::card_signer(data.key.clone()));
    let registry = Registry::new(
        &config.specialists,
        (config.heartbeat_interval, config.heartbeat_expiry),
        client,
        (data.key, data.pins),
        emit.clone(),
    );
    let card = CardCell::new(a2a::CardDoc::signed(public_card(&config, &base), Some(&signer)));
    for spec in &config.specialists {
        spawn_relay(&telemetry, spec, config.show_content, stop.clone());
    }
    let router = Arc::new(router(routing, &registry, &emit));
    if router.mode().trains() {
        tokio::spawn(retrain_on_changes(Arc::downgrade(&router), Arc::downgrade(&registry)));
    }
    let forms = forms::Forms::new(data.store, config.form_ttl, config.forward_timeout, emit.clone());
    let ledger = ledger::Ledger::durable(LEDGER_CAPACITY, data.ledger)?;
    let memory = match ledger.conversation_writer() {
        Some(persist) => memory::Memory::restored(memory::CONVERSATIONS, data.conversations, persist),
        None => memory::Memory::new(memory::CONVERSATIONS),
    };
    let inner = executor::Inner {
        ledger,
        memory,
        forms,
        config: config.clone(),
        registry: registry.clone(),
        router,
        emit,
    };
    let a2a = A2aServer::new(HubExecutor::new(inner), card).router();
    let app = a2a.merge(dev::router(Arc::new(config), registry.clone())).merge(telemetry.router());
    let router = guard::protect(app, guard::LocalPolicy::new(addr));
    Ok(Hub { router, registry, telemetry })
}

/// The Hub's router over `routing`, reporting each training, trained now from the
/// configured capabilities (until cards arrive) and again whenever the skills change.
fn router(routing: RouterParts, registry: &Arc<Registry>, emit: &Emit) -> Router {
    let trained = emit.clone();
    let router = Router::new(routing).on_train(move |t| {
        let report = events::Trained {
            targets: t.model.targets().len(),
            skills: t.model.skill_count(),
            temperature: t.model.temperature(),
            micros: t.took.as_micros() as u64,
        };
        tracing::info!(skills = report.skills, micros = report.micros, "router trained");
        trained.report(HubEventKind::RouterTrained, &report);
    });
    if router.mode().trains() {
        router.model(&registry.view());
    }
    router
}

/// Retrains `router` on a blocking thread each time the registry's skills change;
/// questions meanwhile read the previous model (validated against the current registry).
async fn retrain_on_changes(router: std::sync::Weak<Router>, registry: std::sync::Weak<Registry>) {
    let Some(mut changes) = registry.upgrade().map(|r| r.skills_changes()) else { return };
    while changes.changed().await.is_ok() {
        let (Some(router), Some(registry)) = (router.upgrade(), registry.upgrade()) else { return };
        let view = registry.view();
        if let Err(err) = tokio::task::spawn_blocking(move || router.retrain(&view)).await {
            tracing::warn!(error = %err, "router retraining failed; the previous model serves");
        }
    }
}

fn spawn_relay(
    telemetry: &Telemetry,
    spec: &SpecialistConf,
    show_content: bool,
    mut stop: watch::Receiver<bool>,
) {
    let url = format!("{}/telemetry/events", spec.endpoint.trim_end_matches('/'));
    let (tel, id) = (telemetry.clone(), spec.id.clone());
    let http = reqwest::Client::builder()
        .pool_idle_timeout(a2a::client::POOL_IDLE)
        .no_proxy()
        .build()
        .expect("http client builds with static settings");
    tokio::spawn(async move {
        let on_event = move |event: telemetry::Event| {
            let mut event = if show_content { event } else { telemetry::redact(event) };
            event.relayed_from = Some(id.clone());
            if event.kind == "heartbeat_sent" {
                tel.publish_transient(event);
            } else {
                tel.publish(event);
            }
        };
        let shutdown = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        telemetry::follow(http, url, None, on_event, shutdown).await;
    });
}

/// Serves the Hub on `listener` over its store `data`, its connections within `limits`,
/// until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    routing: RouterParts,
    data: HubStore,
    limits: guard::Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let hub = build(config, routing, addr, data, stop_rx).map_err(std::io::Error::other)?;
    guard::serve(listener, hub.router, limits, async move {
        shutdown.await;
        let _ = stop_tx.send(true);
        hub.telemetry.disconnect_all();
    })
    .await
}
