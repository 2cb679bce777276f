//! The specialist's side: register (retrying until the Hub answers), heartbeat, register
//! again when the Hub forgot us, send a card-change notice on every settings save, and
//! sign out on shutdown.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use a2a::client::{A2aClient, AgentHandle, ClientError};
use a2a::wire::new_message_id;
use serde_json::Value;
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until, timeout};
use vocab::events::specialist::{
    HeartbeatSent, LinkRegistered, NoticeSent, RegistrationRefused, SpecialistEventKind,
};

use crate::messages::{Ack, CardChanged, Control, Heartbeat, Register, ack_codes, parse_ack};
use crate::trust::HubTrust;

/// Where the Hub is and who we are.
#[derive(Debug, Clone)]
pub struct LinkConfig {
    pub hub_url: String,
    pub identity: String,
    /// Our own base URL, as the Hub's allowlist has it.
    pub endpoint: String,
    pub card_url: String,
    /// `SPECIALIST_ENABLED=0` registers as disabled.
    pub enabled: bool,
    /// How this agent answers (`mock`, `fixed`, …), sent with every registration.
    pub mode: Option<String>,
    /// The model it asks, when one answers (see [`crate::Register::model`]).
    pub model: Option<String>,
    pub heartbeat_interval: Duration,
    /// The agent's own key: every control message is signed with it.
    pub key: Arc<keys::AgentKey>,
    /// Where the Hub's key is pinned when a registration is accepted.
    pub trust: Option<Arc<HubTrust>>,
}

/// Receives the link's events (for the agent's telemetry feed).
pub type LinkEvents = Arc<dyn Fn(SpecialistEventKind, Value) + Send + Sync>;

struct Link {
    cfg: LinkConfig,
    client: A2aClient,
    instance_id: String,
    hub: Option<AgentHandle>,
    events: LinkEvents,
    /// The code of the last refused registration: a refusal is logged as a warning once,
    /// then quietly while the Hub keeps giving the same answer.
    refused: Option<String>,
}

/// What one control call came to.
enum Outcome {
    Acked(Ack),
    Unreachable(String),
}

impl Link {
    async fn send(&mut self, control: &Control) -> Outcome {
        if self.hub.is_none() {
            match self.client.connect(&self.cfg.hub_url).await {
                Ok(h) => self.hub = Some(h),
                Err(e) => return Outcome::Unreachable(e.to_string()),
            }
        }
        let hub = self.hub.as_ref().expect("connected above");
        match hub.send_message(control.to_message(&self.cfg.key), &[]).await {
            Ok(resp) => match parse_ack(&resp) {
                Some(ack) => Outcome::Acked(ack),
                None => Outcome::Unreachable("the hub's answer carried no ack".into()),
            },
            Err(e) => {
                // Re-read the Hub's card next time: it may have restarted elsewhere.
                if !matches!(e, ClientError::Rpc { .. }) {
                    self.hub = None;
                }
                Outcome::Unreachable(e.to_string())
            }
        }
    }

    fn emit(&self, kind: SpecialistEventKind, data: &impl serde::Serialize) {
        (self.events)(kind, serde_json::to_value(data).unwrap_or_default());
    }

    fn heartbeat(&self) -> Heartbeat {
        Heartbeat { identity: self.cfg.identity.clone(), instance_id: self.instance_id.clone() }
    }

    async fn register(&mut self) -> Result<Duration, Duration> {
        let interval = self.cfg.heartbeat_interval;
        let control = Control::Register(Register {
            identity: self.cfg.identity.clone(),
            instance_id: self.instance_id.clone(),
            endpoint: self.cfg.endpoint.clone(),
            card_url: self.cfg.card_url.clone(),
            enabled: self.cfg.enabled,
            public_key: self.cfg.key.public(),
            mode: self.cfg.mode.clone(),
            model: self.cfg.model.clone(),
        });
        match self.send(&control).await {
            Outcome::Acked(ack) if ack.ok => {
                self.refused = None;
                if let (Some(trust), Some(hub_key)) = (&self.cfg.trust, ack.hub_key) {
                    trust.offer(hub_key).await;
                }
                tracing::info!(identity = %self.cfg.identity, instance_id = %self.instance_id, "registered with the hub");
                let registered = LinkRegistered {
                    instance_id: self.instance_id.as_str().into(),
                    enabled: self.cfg.enabled,
                };
                self.emit(SpecialistEventKind::Registered, &registered);
                Ok(ack
                    .heartbeat_interval_ms
                    .map(Duration::from_millis)
                    .unwrap_or(interval)
                    .max(Duration::from_millis(50)))
            }
            Outcome::Acked(ack) => {
                let code = ack.code.unwrap_or_default();
                if self.refused.as_deref() == Some(code.as_str()) {
                    tracing::debug!(identity = %self.cfg.identity, code = %code, "the hub refused registration again");
                } else if code == ack_codes::ENDPOINT_MISMATCH {
                    tracing::warn!(
                        identity = %self.cfg.identity,
                        endpoint = %self.cfg.endpoint,
                        code = %code,
                        "the hub expects this agent at another address (start it on the port the hub \
                         was given, or give the hub this address); retrying quietly"
                    );
                } else {
                    tracing::warn!(identity = %self.cfg.identity, code = %code, "the hub refused registration; retrying quietly");
                }
                self.refused = Some(code.clone());
                self.emit(
                    SpecialistEventKind::RegistrationRefused,
                    &RegistrationRefused { code: code.as_str().into() },
                );
                Err(interval)
            }
            Outcome::Unreachable(reason) => {
                tracing::debug!(reason = %reason, "hub not reachable yet");
                Err((interval / 4).max(Duration::from_millis(100)))
            }
        }
    }
}

/// What sending a card-change notice came to.
enum Notified {
    Delivered,
    /// The Hub no longer knows this instance: register again (which fetches the card).
    NotRegistered,
    /// The Hub refused it for good.
    Rejected,
    /// No answer: send the same notice again once the Hub answers a heartbeat.
    Pending(CardChanged),
}

impl Link {
    /// Sends one card-change notice (3 s at most). A retry keeps the notice id, so a Hub
    /// that did get the first one answers `duplicate_notice` and refreshes only once.
    async fn notify(&mut self, notice: CardChanged, attempt: u32) -> Notified {
        let revision = notice.revision;
        let control = Control::CardChanged(notice.clone());
        let (notified, outcome) = match timeout(NOTICE_TIMEOUT, self.send(&control)).await {
            Ok(Outcome::Acked(ack)) if ack.ok => (Notified::Delivered, "delivered".to_string()),
            Ok(Outcome::Acked(ack)) => {
                let code = ack.code.unwrap_or_default();
                let notified = if code == ack_codes::NOT_REGISTERED {
                    Notified::NotRegistered
                } else {
                    Notified::Rejected
                };
                (notified, format!("rejected: {code}"))
            }
            Ok(Outcome::Unreachable(_)) | Err(_) => (Notified::Pending(notice), "pending".to_string()),
        };
        tracing::info!(revision, attempt, outcome = %outcome, "card change notice sent");
        let sent = NoticeSent { revision, attempt, outcome: outcome.into() };
        self.emit(SpecialistEventKind::CardChangeNotice, &sent);
        notified
    }
}

/// How long one card-change notice may take.
const NOTICE_TIMEOUT: Duration = Duration::from_secs(3);

/// Runs the link until `shutdown` completes, then signs out (one attempt, 1 s).
///
/// A card-change notice the Hub did not answer is sent again after each heartbeat the Hub
/// answers, until it is acknowledged, refused, or replaced by a newer change; registering
/// again makes it moot (the Hub fetches the card on registration).
pub async fn run_link(
    cfg: LinkConfig,
    client: A2aClient,
    mut card_changes: watch::Receiver<u64>,
    events: LinkEvents,
    shutdown: impl Future<Output = ()>,
) {
    let mut link = Link { cfg, client, instance_id: new_message_id(), hub: None, events, refused: None };
    let mut registered = false;
    let mut interval = link.cfg.heartbeat_interval;
    let mut next = Instant::now();
    card_changes.borrow_and_update();
    let mut changes_open = true;
    // an unanswered card-change notice and how many times it was sent
    let mut pending: Option<(CardChanged, u32)> = None;
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            _ = sleep_until(next) => {
                if !registered {
                    match link.register().await {
                        Ok(every) => {
                            registered = true;
                            pending = None; // the Hub fetches the card on registration
                            interval = every;
                            next = Instant::now() + interval;
                        }
                        Err(wait) => next = Instant::now() + wait,
                    }
                    continue;
                }
                let hb = Control::Heartbeat(link.heartbeat());
                match link.send(&hb).await {
                    Outcome::Acked(ack) if ack.ok => {
                        link.emit(SpecialistEventKind::HeartbeatSent, &HeartbeatSent {});
                        next = Instant::now() + interval;
                        if let Some((notice, sent)) = pending.take() {
                            match link.notify(notice, sent + 1).await {
                                Notified::Pending(notice) => pending = Some((notice, sent + 1)),
                                Notified::NotRegistered => { registered = false; next = Instant::now(); }
                                Notified::Delivered | Notified::Rejected => {}
                            }
                        }
                    }
                    Outcome::Acked(ack) if ack.code.as_deref() == Some(ack_codes::NOT_REGISTERED) => {
                        tracing::info!("the hub does not know this instance; registering again");
                        registered = false;
                        next = Instant::now();
                    }
                    Outcome::Acked(_) | Outcome::Unreachable(_) => next = Instant::now() + interval,
                }
            }
            changed = card_changes.changed(), if changes_open => {
                if changed.is_err() {
                    changes_open = false; // the settings are gone: no more notices to send
                    continue;
                }
                let revision = *card_changes.borrow_and_update();
                pending = None; // a newer change replaces an unanswered notice
                if !registered {
                    continue; // registering fetches the current card anyway
                }
                let notice = CardChanged {
                    identity: link.cfg.identity.clone(),
                    instance_id: link.instance_id.clone(),
                    notice_id: new_message_id(),
                    revision: Some(revision),
                };
                match link.notify(notice, 1).await {
                    Notified::Pending(notice) => pending = Some((notice, 1)),
                    Notified::NotRegistered => { registered = false; next = Instant::now(); }
                    Notified::Delivered | Notified::Rejected => {}
                }
            }
        }
    }
    if registered {
        let bye = Control::Deregister(link.heartbeat());
        let signed_out =
            matches!(timeout(Duration::from_secs(1), link.send(&bye)).await, Ok(Outcome::Acked(a)) if a.ok);
        tracing::info!(signed_out, "signed out from the hub");
    }
}
