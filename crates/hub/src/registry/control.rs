//! The specialists' control messages: register, heartbeat, sign-out and card-change
//! notices, each signed by the specialist's own key. An instance id is no credential:
//! the Hub acts on a control message only when its signature is by the key the identity
//! is known by (configured, or pinned the first time it registered), fresh, and not seen
//! before. A new instance that proves that key replaces the one before it at once.

use std::time::Instant;

use hublink::{Ack, CardChanged, Control, Heartbeat, Register, Signed, ack_codes};
use keys::{ProofError, PublicKey};
use vocab::HubEventKind;
use vocab::events::{CardNotice, Registered, Subject};

use super::card::same_url;
use super::{Instance, Registry};

fn refused(e: ProofError) -> Ack {
    Ack::refused(e.code(), e.to_string())
}

/// Why [`Registry::check`] refused: no key known yet, or the proof.
enum Unchecked {
    NoKey,
    Proof(ProofError),
}

impl Unchecked {
    fn ack(self) -> Ack {
        match self {
            Unchecked::NoKey => Ack::refused(ack_codes::NOT_REGISTERED, "register first"),
            Unchecked::Proof(e) => refused(e),
        }
    }
}

impl Registry {
    /// Acts on one control message.
    pub async fn control(&self, signed: &Signed) -> Ack {
        match &signed.control {
            Control::Register(r) => self.register(signed, r).await,
            Control::Heartbeat(h) => self.heartbeat(signed, h),
            Control::Deregister(h) => self.deregister(signed, h),
            Control::CardChanged(c) => self.card_changed(signed, c),
        }
    }

    /// Checks `signed` against `identity`'s pinned key and takes its nonce.
    fn check(&self, identity: &str, signed: &Signed, key: Option<PublicKey>) -> Result<(), Unchecked> {
        let key = key.ok_or(Unchecked::NoKey)?;
        let proof = signed.check(&key, keys::now_ms()).map_err(Unchecked::Proof)?;
        self.proofs.lock().unwrap_or_else(|p| p.into_inner()).take(identity, proof).map_err(Unchecked::Proof)
    }

    async fn register(&self, signed: &Signed, r: &Register) -> Ack {
        let pinned = {
            let entries = self.lock();
            let Some(entry) = entries.get(&r.identity) else {
                return Ack::refused(
                    ack_codes::NOT_ALLOWLISTED,
                    "this identity is not on the hub's allowlist",
                );
            };
            let card_url = entry.conf.card_url();
            if !same_url(&r.endpoint, &entry.conf.endpoint) || !same_url(&r.card_url, &card_url) {
                return Ack::refused(
                    ack_codes::ENDPOINT_MISMATCH,
                    "the endpoint is not the one configured for this identity",
                );
            }
            for (field, value) in [("mode", &r.mode), ("model", &r.model)] {
                if value.as_deref().is_some_and(|m| !hublink::valid_mode(m)) {
                    return Ack::refused(
                        ack_codes::INVALID_CONTROL,
                        format!(
                            "{field} must be 1 to {} characters of a-z, 0-9, _ and -",
                            hublink::MAX_MODE_CHARS
                        ),
                    );
                }
            }
            entry.key
        };
        // the offered key must sign this registration, and be the pinned one if any
        if let Some(p) = pinned.filter(|p| *p != r.public_key) {
            tracing::warn!(identity = %r.identity, pinned_kid = %p.kid(), offered_kid = %r.public_key.kid(), "refused a registration signed with another key than the pinned one");
            return refused(ProofError::WrongKey);
        }
        if let Err(e) = self.check(&r.identity, signed, Some(r.public_key)) {
            return e.ack();
        }
        if pinned.is_none() {
            match self.pins.pin(&r.identity, r.public_key).await {
                Ok(key) if key == r.public_key => {
                    tracing::info!(identity = %r.identity, kid = %key.kid(), "pinned a specialist's key on first use");
                }
                Ok(_) => return refused(ProofError::WrongKey),
                Err(e) => {
                    tracing::warn!(identity = %r.identity, error = %e, "could not pin a specialist's key");
                    return Ack::refused(
                        ack_codes::INVALID_CONTROL,
                        "the hub could not record this agent's key",
                    );
                }
            }
        }
        let mut entries = self.lock();
        let Some(entry) = entries.get_mut(&r.identity) else {
            return Ack::refused(ack_codes::NOT_ALLOWLISTED, "this identity is not on the hub's allowlist");
        };
        // another registration with another key won the pin meanwhile
        if entry.key.is_some_and(|k| k != r.public_key) {
            return refused(ProofError::WrongKey);
        }
        if entry.key != Some(r.public_key) || entry.shared.is_none() {
            entry.shared = self.key.shared_with(&r.public_key).map(std::sync::Arc::new);
        }
        entry.key = Some(r.public_key);
        if let Some(before) = entry.instance.as_ref().filter(|i| i.id != r.instance_id) {
            tracing::info!(identity = %r.identity, replaced = %before.id, "a new instance proved the key; it replaces the one before it");
        }
        entry.instance = Some(Instance {
            id: r.instance_id.clone(),
            enabled: r.enabled,
            mode: r.mode.clone(),
            model: r.model.clone(),
            last_seen: Instant::now(),
        });
        entry.unreachable = false;
        entry.refresh.notify_one();
        drop(entries);
        tracing::info!(identity = %r.identity, instance_id = %r.instance_id, enabled = r.enabled, "specialist registered");
        self.emit.report(
            HubEventKind::Registered,
            &Registered {
                specialist: r.identity.as_str().into(),
                instance_id: r.instance_id.as_str().into(),
                enabled: r.enabled,
                mode: r.mode.as_deref().map(Into::into),
            },
        );
        let mut ack = Ack::ok("registered");
        ack.heartbeat_interval_ms = Some(self.interval.as_millis() as u64);
        ack.hub_key = Some(self.key.public());
        ack
    }

    /// The key the Hub shares with `identity`, once its key is known.
    pub(crate) fn shared_of(&self, identity: &str) -> Option<std::sync::Arc<keys::SharedKey>> {
        self.lock().get(identity).and_then(|e| e.shared.clone())
    }

    /// The pinned key of `identity`, when it is allowlisted and has one.
    pub(crate) fn key_of(&self, identity: &str) -> Option<PublicKey> {
        self.lock().get(identity).and_then(|e| e.key)
    }

    fn heartbeat(&self, signed: &Signed, h: &Heartbeat) -> Ack {
        if let Err(e) = self.check(&h.identity, signed, self.key_of(&h.identity)) {
            return e.ack();
        }
        let mut entries = self.lock();
        match entries.get_mut(&h.identity).and_then(|e| e.instance.as_mut().filter(|i| i.id == h.instance_id))
        {
            Some(inst) => {
                inst.last_seen = Instant::now();
                // A specialist we could not reach but that still checks in: try its card
                // again; a successful fetch makes it reachable.
                if let Some(e) = entries.get(&h.identity).filter(|e| e.unreachable) {
                    e.refresh.notify_one();
                }
                drop(entries);
                self.emit.report(HubEventKind::Heartbeat, &Subject::of(&h.identity));
                Ack::ok("alive")
            }
            None => Ack::refused(ack_codes::NOT_REGISTERED, "register first"),
        }
    }

    fn deregister(&self, signed: &Signed, h: &Heartbeat) -> Ack {
        if let Err(e) = self.check(&h.identity, signed, self.key_of(&h.identity)) {
            return e.ack();
        }
        let mut entries = self.lock();
        let entry = entries.get_mut(&h.identity);
        let Some(entry) = entry.filter(|e| e.instance.as_ref().is_some_and(|i| i.id == h.instance_id)) else {
            return Ack::refused(ack_codes::NOT_REGISTERED, "register first");
        };
        entry.instance = None;
        drop(entries);
        tracing::info!(identity = %h.identity, "specialist signed out");
        self.emit.report(HubEventKind::SignedOut, &Subject::of(&h.identity));
        Ack::ok("signed_out")
    }

    /// A card-change notice: only a hint to re-fetch from the configured URL.
    fn card_changed(&self, signed: &Signed, c: &CardChanged) -> Ack {
        {
            let entries = self.lock();
            let Some(entry) = entries.get(&c.identity) else {
                return Ack::refused(
                    ack_codes::NOT_ALLOWLISTED,
                    "this identity is not on the hub's allowlist",
                );
            };
            if entry.instance.as_ref().is_none_or(|i| i.id != c.instance_id) {
                return Ack::refused(
                    ack_codes::NOT_REGISTERED,
                    "notices are taken only from the registered instance",
                );
            }
        }
        if let Err(e) = self.check(&c.identity, signed, self.key_of(&c.identity)) {
            return e.ack();
        }
        {
            let mut seen = self.notices.lock().unwrap_or_else(|p| p.into_inner());
            let key = format!("{}/{}", c.identity, c.notice_id);
            if seen.get(&key).is_some() {
                return Ack::ok("duplicate_notice");
            }
            seen.insert(key, ());
        }
        let notice =
            CardNotice { specialist: c.identity.as_str().into(), notice_id: c.notice_id.as_str().into() };
        self.emit.report(HubEventKind::CardChangeNotice, &notice);
        self.request_refresh(&c.identity);
        Ack::ok("refresh_scheduled")
    }
}
