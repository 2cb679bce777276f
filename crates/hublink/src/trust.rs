//! The specialist's trust in its Hub: the Hub's key, pinned the first time a registration
//! is accepted (or configured, `HUB_PUBLIC_KEY`), and the check of what the Hub
//! authenticates when it forwards — so a specialist can tell a forward from the Hub from
//! any other caller. The Hub's side is [`sign_forward`]. Forwards and their replies are
//! authenticated with the key the two share ([`keys::SharedKey`]: computed by each from
//! its own key and the other's public key, never sent), a settings change with the Hub's
//! own signature.

use std::sync::{Arc, Mutex, RwLock};

use a2a::server::Reply;
use a2a::wire::{Message, Part, SendMessageResponse};
use keys::{AgentKey, Proof, PublicKey, Replay, SharedKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use vocab::meta::{HUB_SIGNATURE_KEY, SPECIALIST_SIGNATURE_KEY};

/// The purpose a forward's signature is made for.
const FORWARD: &str = "forward";
/// The purpose of the Hub's signature on a request to a specialist's own API.
const REQUEST: &str = "request";
/// The purpose of a specialist's signature on its reply to a forward.
const REPLY: &str = "reply";
/// The identity the Hub's key is pinned under in a specialist's store.
pub const HUB_IDENTITY: &str = "hub";

/// What the Hub signs on a forward, beside the proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ForwardClaims {
    /// The specialist it is for: a forward to the Tutor is not one to the Library.
    audience: String,
    /// [`keys::digest`] of the message without this signature and without its context
    /// id (the receiving A2A layer fills one in when none was named; it is `context`).
    digest: String,
    /// The conversation the Hub named, if it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    /// The student the Hub vouches for, when it knows one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    student: Option<String>,
}

/// Claims and the proof over them, side by side: `hubSignature` in a forward's metadata
/// (`Sealed<ForwardClaims>`), `specialistSignature` in a reply's (`Sealed<ReplyClaims>`),
/// the `campus-hub-signature` header (`Sealed<RequestClaims>`, base64url).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Sealed<C> {
    #[serde(flatten)]
    claims: C,
    proof: Proof,
}

fn digest(message: &Message) -> String {
    let mut value = serde_json::to_value(message).unwrap_or(Value::Null);
    value.as_object_mut().map(|m| m.remove("contextId"));
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove(HUB_SIGNATURE_KEY);
        if meta.is_empty() {
            value.as_object_mut().map(|m| m.remove("metadata"));
        }
    }
    keys::digest(&value)
}

/// Signs `message` as the Hub's forward to `audience`, vouching for `student` when given;
/// returns the signature's nonce, which the specialist's reply must name
/// ([`check_reply`]). Sign last: any later change to the message breaks the signature.
pub fn sign_forward(key: &SharedKey, audience: &str, student: Option<&str>, message: &mut Message) -> String {
    sign_forward_at(key, audience, student, message, keys::now_ms())
}

/// [`sign_forward`] as if signed at `issued_at_ms` (a test makes an old one with it).
pub fn sign_forward_at(
    key: &SharedKey,
    audience: &str,
    student: Option<&str>,
    message: &mut Message,
    issued_at_ms: u64,
) -> String {
    let claims = ForwardClaims {
        audience: audience.into(),
        digest: digest(message),
        context: message.context_id.clone(),
        student: student.map(Into::into),
    };
    let proof = key.seal_at(FORWARD, &claims, issued_at_ms);
    let nonce = proof.nonce.clone();
    let signature = serde_json::to_value(Sealed { claims, proof }).unwrap_or_default();
    message.metadata.get_or_insert_with(Default::default).insert(HUB_SIGNATURE_KEY.into(), signature);
    nonce
}

/// What a specialist signs on its reply to a forward.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReplyClaims {
    /// The nonce of the forward this answers: a reply is no answer to another one.
    in_reply_to: String,
    /// [`keys::digest`] of the reply's parts: its message's (or task status message's)
    /// parts, then the parts of the artifacts it added.
    digest: String,
    /// How many artifacts this reply added (a task's artifacts accumulate; these are its last).
    artifacts: usize,
}

fn parts_digest<'a>(parts: impl Iterator<Item = &'a Part>) -> String {
    let parts: Vec<&Part> = parts.collect();
    keys::digest(&serde_json::to_value(parts).unwrap_or(Value::Null))
}

/// Signs `reply` as this specialist's answer to the forward whose nonce is `in_reply_to`.
pub fn sign_reply(key: &SharedKey, in_reply_to: &str, reply: &mut Reply) {
    let (parts, artifacts, metadata): (Vec<&Part>, usize, _) = match reply {
        Reply::Message { parts, metadata, .. } => (parts.iter().collect(), 0, metadata),
        Reply::Task { parts, artifacts, metadata, .. } => {
            let all = parts.iter().chain(artifacts.iter().flat_map(|a| a.parts.iter())).collect();
            (all, artifacts.len(), metadata)
        }
    };
    let claims =
        ReplyClaims { in_reply_to: in_reply_to.into(), digest: parts_digest(parts.into_iter()), artifacts };
    let proof = key.seal(REPLY, &claims);
    let signature = serde_json::to_value(Sealed { claims, proof }).unwrap_or_default();
    metadata.get_or_insert_with(Default::default).insert(SPECIALIST_SIGNATURE_KEY.into(), signature);
}

/// Checks that `response` is the reply of the specialist the Hub shares `key` with to the
/// forward whose nonce is `forward`: authenticated, fresh, over exactly what the Hub will
/// relay.
pub fn check_reply(
    key: &SharedKey,
    forward: &str,
    response: &SendMessageResponse,
) -> Result<(), &'static str> {
    let (metadata, own, artifacts) = match response {
        SendMessageResponse::Message(m) => {
            (m.metadata.as_ref(), m.parts.iter().collect::<Vec<_>>(), Vec::new())
        }
        SendMessageResponse::Task(t) => {
            let own = t.status.message.iter().flat_map(|m| m.parts.iter()).collect();
            (t.metadata.as_ref(), own, t.artifacts.iter().flatten().collect::<Vec<_>>())
        }
    };
    let signature = metadata.and_then(|m| m.get(SPECIALIST_SIGNATURE_KEY)).ok_or("unsigned_reply")?;
    let signed: Sealed<ReplyClaims> =
        serde_json::from_value(signature.clone()).map_err(|_| "bad_signature")?;
    let c = &signed.claims;
    let added =
        artifacts.len().checked_sub(c.artifacts).map(|from| &artifacts[from..]).ok_or("bad_signature")?;
    let parts = own.into_iter().chain(added.iter().flat_map(|a| a.parts.iter()));
    if c.in_reply_to != forward || c.digest != parts_digest(parts) {
        return Err("bad_signature");
    }
    key.check(REPLY, c, &signed.proof, keys::now_ms()).map_err(|e| e.code())
}

/// What the Hub signs on a request to a specialist's own API (`campus-hub-signature`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestClaims {
    audience: String,
    method: String,
    /// The path and query as sent.
    path: String,
    /// [`keys::digest_bytes`] of the body as sent.
    body: String,
}

/// The `campus-hub-signature` header value for the Hub's `method` request of `path` with
/// `body` to `audience`.
pub fn sign_request(key: &AgentKey, audience: &str, method: &str, path: &str, body: &[u8]) -> String {
    let claims = RequestClaims {
        audience: audience.into(),
        method: method.to_ascii_uppercase(),
        path: path.into(),
        body: keys::digest_bytes(body),
    };
    let proof = Proof::seal(key, REQUEST, &claims);
    keys::b64(&serde_json::to_vec(&Sealed { claims, proof }).unwrap_or_default())
}

/// Who sent a message, as far as a specialist can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// The Hub, by its pinned key; `student` is the one it vouches for, `forward` the
    /// signature's nonce (what the reply names, [`sign_reply`]).
    Hub { student: Option<String>, forward: String },
    /// Anyone: no valid Hub signature (`reason` is a stable code: `unsigned`,
    /// `no_hub_key`, `wrong_audience`, `bad_signature`, `stale_signature`, `replayed`,
    /// `key_mismatch`).
    Unverified { reason: &'static str },
}

impl Caller {
    /// `hub` or `unverified`, for logs and telemetry.
    pub fn as_str(&self) -> &'static str {
        match self {
            Caller::Hub { .. } => "hub",
            Caller::Unverified { .. } => "unverified",
        }
    }

    /// The student the Hub vouches for; never one a message merely claims.
    pub fn student(&self) -> Option<&str> {
        match self {
            Caller::Hub { student, .. } => student.as_deref(),
            Caller::Unverified { .. } => None,
        }
    }
}

/// How many forwards' nonces a specialist remembers (the freshness window's worth at
/// well over a thousand forwards a second).
const REMEMBERED: usize = 65_536;

/// A specialist's trust in the Hub's key.
#[derive(Debug)]
pub struct HubTrust {
    identity: String,
    /// This agent's own key (what it shares with the Hub is made from it).
    own: Arc<AgentKey>,
    configured: Option<PublicKey>,
    pinned: RwLock<Option<(PublicKey, Arc<SharedKey>)>>,
    store: Option<store::Store>,
    replay: Mutex<Replay>,
    /// The last different key a Hub offered (warned about once).
    refused: Mutex<Option<PublicKey>>,
}

impl HubTrust {
    /// `identity`'s trust, with `own` its key: the configured Hub key when given, else the
    /// one pinned in `store`.
    pub async fn open(
        identity: &str,
        own: Arc<AgentKey>,
        configured: Option<PublicKey>,
        store: Option<store::Store>,
    ) -> Result<Arc<Self>, store::StoreError> {
        let pinned = match (&configured, &store) {
            (Some(k), _) => Some(*k),
            (None, Some(s)) => s
                .run(|s| s.pinned_keys())
                .await?
                .into_iter()
                .find(|(id, _)| id == HUB_IDENTITY)
                .and_then(|(_, k)| PublicKey::parse(&k)),
            (None, None) => None,
        };
        let pinned = pinned.and_then(|k| Some((k, Arc::new(own.shared_with(&k)?))));
        Ok(Arc::new(Self {
            identity: identity.into(),
            own,
            configured,
            pinned: RwLock::new(pinned),
            store,
            replay: Mutex::new(Replay::new(REMEMBERED)),
            refused: Mutex::new(None),
        }))
    }

    /// The Hub's key as pinned now.
    pub fn key(&self) -> Option<PublicKey> {
        self.pinned.read().unwrap_or_else(|p| p.into_inner()).as_ref().map(|(k, _)| *k)
    }

    /// The key this agent shares with the pinned Hub (forwards and replies).
    pub fn shared(&self) -> Option<Arc<SharedKey>> {
        self.pinned.read().unwrap_or_else(|p| p.into_inner()).as_ref().map(|(_, s)| s.clone())
    }

    /// A key the Hub gave with an accepted registration: pinned when none is (written to
    /// the store first), ignored with one warning when another one is.
    pub async fn offer(&self, key: PublicKey) {
        match self.key() {
            Some(pinned) if pinned == key => return,
            Some(_) => {
                let mut refused = self.refused.lock().unwrap_or_else(|p| p.into_inner());
                if *refused != Some(key) {
                    *refused = Some(key);
                    let how = if self.configured.is_some() {
                        "HUB_PUBLIC_KEY names another key"
                    } else {
                        "another key is pinned (if the hub's key was replaced on purpose, stop this agent and run `campus forget-key hub` with its data folder)"
                    };
                    tracing::warn!(offered_kid = %key.kid(), "the hub's key is not the one this agent trusts; its forwards are not trusted: {how}");
                }
                return;
            }
            None => {}
        }
        let pinned = match &self.store {
            Some(store) => {
                let text = key.to_string();
                match store.run(move |s| s.pin_key(HUB_IDENTITY, &text)).await {
                    Ok(p) => PublicKey::parse(&p),
                    Err(e) => {
                        tracing::warn!(error = %e, "could not pin the hub's key; trusting it until the next start");
                        Some(key)
                    }
                }
            }
            None => Some(key),
        };
        tracing::info!(kid = %key.kid(), "pinned the hub's key");
        let pinned = pinned.and_then(|k| Some((k, Arc::new(self.own.shared_with(&k)?))));
        *self.pinned.write().unwrap_or_else(|p| p.into_inner()) = pinned;
    }

    /// Whether a request to this agent's own API carries the Hub's valid, fresh,
    /// first-seen signature (`header`, the `campus-hub-signature` value) over exactly this
    /// method, path and body; the reason's stable code when not.
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        body: &[u8],
        header: Option<&str>,
    ) -> Result<(), &'static str> {
        let header = header.ok_or("unsigned")?;
        let signed: Sealed<RequestClaims> =
            keys::unb64(header).and_then(|b| serde_json::from_slice(&b).ok()).ok_or("bad_signature")?;
        let key = self.key().ok_or("no_hub_key")?;
        let c = &signed.claims;
        if c.audience != self.identity {
            return Err("wrong_audience");
        }
        if !c.method.eq_ignore_ascii_case(method) || c.path != path || c.body != keys::digest_bytes(body) {
            return Err("bad_signature");
        }
        keys::check(&key, REQUEST, c, &signed.proof, keys::now_ms()).map_err(|e| e.code())?;
        self.replay
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take(HUB_IDENTITY, &signed.proof)
            .map_err(|e| e.code())
    }

    /// Who sent `message`: the Hub only with a valid, fresh, first-seen signature for
    /// this agent by the pinned key over this very message.
    pub fn caller(&self, message: &Message) -> Caller {
        let unverified = |reason| Caller::Unverified { reason };
        let Some(signature) = message.metadata.as_ref().and_then(|m| m.get(HUB_SIGNATURE_KEY)) else {
            return unverified("unsigned");
        };
        let Ok(signature) = serde_json::from_value::<Sealed<ForwardClaims>>(signature.clone()) else {
            return unverified("bad_signature");
        };
        let Some(shared) = self.shared() else { return unverified("no_hub_key") };
        if signature.claims.audience != self.identity {
            return unverified("wrong_audience");
        }
        let named = signature.claims.context.as_ref();
        if signature.claims.digest != digest(message)
            || named.is_some_and(|c| message.context_id.as_ref() != Some(c))
        {
            return unverified("bad_signature");
        }
        if let Err(e) = shared.check(FORWARD, &signature.claims, &signature.proof, keys::now_ms()) {
            return unverified(e.code());
        }
        if let Err(e) =
            self.replay.lock().unwrap_or_else(|p| p.into_inner()).take(HUB_IDENTITY, &signature.proof)
        {
            return unverified(e.code());
        }
        Caller::Hub { student: signature.claims.student, forward: signature.proof.nonce }
    }
}

#[cfg(test)]
mod tests {
    use a2a::wire::{Part, Role};

    use super::*;

    /// Each agent's key in the tests, by identity.
    fn own(identity: &str) -> Arc<AgentKey> {
        Arc::new(AgentKey::from_seed([identity.len() as u8 + 10; 32]))
    }

    async fn trust(identity: &str, hub: &AgentKey) -> Arc<HubTrust> {
        let t = HubTrust::open(identity, own(identity), None, None).await.unwrap();
        t.offer(hub.public()).await;
        t
    }

    /// What the Hub shares with `identity`.
    fn shared(hub: &AgentKey, identity: &str) -> SharedKey {
        hub.shared_with(&own(identity).public()).unwrap()
    }

    fn question() -> Message {
        let mut m = Message::new(Role::User, vec![Part::text("when are my books due?")]);
        m.context_id = Some("ctx-1".into());
        m
    }

    #[tokio::test]
    async fn a_signed_forward_is_the_hubs_once_and_only_for_its_audience() {
        let hub = AgentKey::from_seed([1; 32]);
        let library = trust("library", &hub).await;
        let to_library = shared(&hub, "library");
        let mut m = question();
        let nonce = sign_forward(&to_library, "library", Some("alex"), &mut m);
        assert_eq!(library.caller(&m), Caller::Hub { student: Some("alex".into()), forward: nonce });
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "replayed" }, "a replay is anyone's");
        // a forward for the Library, shown to the Tutor: neither its key nor its audience
        let tutor = trust("tutor", &hub).await;
        let mut m = question();
        sign_forward(&shared(&hub, "tutor"), "library", Some("alex"), &mut m);
        assert_eq!(tutor.caller(&m), Caller::Unverified { reason: "wrong_audience" });
        // the Hub named no conversation and the receiving layer filled one in: still the Hub's
        let mut m = question();
        m.context_id = None;
        let nonce = sign_forward(&to_library, "library", None, &mut m);
        m.context_id = Some("made-by-the-layer".into());
        assert_eq!(library.caller(&m), Caller::Hub { student: None, forward: nonce });
    }

    #[tokio::test]
    async fn a_forward_taken_before_a_restart_is_not_taken_again_after_it() {
        let hub = AgentKey::from_seed([1; 32]);
        let to_library = shared(&hub, "library");
        let before = trust("library", &hub).await;
        let mut m = question();
        let nonce = sign_forward(&to_library, "library", Some("alex"), &mut m);
        assert_eq!(before.caller(&m), Caller::Hub { student: Some("alex".into()), forward: nonce });
        // the Library starts again (its memory of nonces is new) while the forward is fresh
        let signed = keys::now_ms();
        while keys::now_ms() == signed {
            std::hint::spin_loop();
        }
        let after = trust("library", &hub).await;
        assert_eq!(after.caller(&m), Caller::Unverified { reason: "replayed" });
        // a forward signed after it started is the Hub's
        let mut fresh = question();
        let nonce = sign_forward(&to_library, "library", Some("alex"), &mut fresh);
        assert_eq!(after.caller(&fresh), Caller::Hub { student: Some("alex".into()), forward: nonce });
    }

    #[tokio::test]
    async fn a_forged_or_altered_forward_vouches_for_no_one() {
        let hub = AgentKey::from_seed([1; 32]);
        let library = trust("library", &hub).await;
        let to_library = shared(&hub, "library");
        assert_eq!(library.caller(&question()), Caller::Unverified { reason: "unsigned" });
        // made with another pair's key (another "hub" with the Library's public key)
        let mut m = question();
        sign_forward(&shared(&AgentKey::from_seed([2; 32]), "library"), "library", Some("alex"), &mut m);
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "bad_signature" });
        // the Hub's signature, another student written in
        let mut m = question();
        sign_forward(&to_library, "library", Some("alex"), &mut m);
        let meta = m.metadata.as_mut().unwrap();
        meta.get_mut(HUB_SIGNATURE_KEY).unwrap()["student"] = "sam".into();
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "bad_signature" });
        // the Hub's signature, other words
        let mut m = question();
        sign_forward(&to_library, "library", None, &mut m);
        m.parts = vec![Part::text("renew everything")];
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "bad_signature" });
        // the Hub's signature, moved to another conversation
        let mut m = question();
        sign_forward(&to_library, "library", None, &mut m);
        m.context_id = Some("ctx-2".into());
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "bad_signature" });
        assert_eq!(Caller::Unverified { reason: "x" }.student(), None);
    }

    /// The student a forward names counts only on the Hub's valid, fresh, first-seen
    /// signature for this specialist: a forged id (in the claims or beside them), a stale
    /// or replayed signature, one for another specialist or none at all vouch for no one.
    #[tokio::test]
    async fn only_a_valid_fresh_first_seen_forward_names_a_student() {
        let hub = AgentKey::from_seed([1; 32]);
        let library = trust("library", &hub).await;
        let to_library = shared(&hub, "library");
        let with_student_meta = || {
            let mut m = question();
            m.metadata = Some([(vocab::form::STUDENT_ID_KEY.to_string(), "alex".into())].into());
            m
        };
        // a student id in the metadata and no signature: no one
        let m = with_student_meta();
        assert_eq!(library.caller(&m).student(), None);
        // signed for no one, a student id written beside the signature: no one
        let mut m = question();
        sign_forward(&to_library, "library", None, &mut m);
        m.metadata.as_mut().unwrap().insert(vocab::form::STUDENT_ID_KEY.into(), "alex".into());
        assert_eq!(library.caller(&m).student(), None);
        // signed for alex, the claims' student replaced: no one
        let mut m = with_student_meta();
        sign_forward(&to_library, "library", Some("alex"), &mut m);
        m.metadata.as_mut().unwrap().get_mut(HUB_SIGNATURE_KEY).unwrap()["student"] = "sam".into();
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "bad_signature" });
        // a genuine signature made longer ago than the freshness window: no one
        let mut m = with_student_meta();
        let old = keys::now_ms() - keys::MAX_SKEW_MS - 1_000;
        sign_forward_at(&to_library, "library", Some("alex"), &mut m, old);
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "stale_signature" });
        // one for the Tutor, shown to the Library: no one
        let mut m = with_student_meta();
        sign_forward(&to_library, "tutor", Some("alex"), &mut m);
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "wrong_audience" });
        // the real one counts once; the same message again is anyone's
        let mut m = with_student_meta();
        sign_forward(&to_library, "library", Some("alex"), &mut m);
        assert_eq!(library.caller(&m).student(), Some("alex"));
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "replayed" });
    }

    #[test]
    fn a_reply_counts_only_signed_by_the_specialist_for_that_forward_over_what_is_relayed() {
        let (hub, library) = (AgentKey::from_seed([1; 32]), AgentKey::from_seed([3; 32]));
        let (at_library, at_hub) =
            (library.shared_with(&hub.public()).unwrap(), hub.shared_with(&library.public()).unwrap());
        let mut reply = Reply::text("Open 8-22 on Mondays.");
        sign_reply(&at_library, "n-1", &mut reply);
        let Reply::Message { message_id, parts, metadata, .. } = reply else { unreachable!() };
        let mut m = Message::new(a2a::wire::Role::Agent, parts);
        m.message_id = message_id;
        m.metadata = metadata;
        let resp = SendMessageResponse::Message(m.clone());
        assert_eq!(check_reply(&at_hub, "n-1", &resp), Ok(()));
        assert_eq!(check_reply(&at_hub, "n-2", &resp), Err("bad_signature"), "another forward's");
        let with_another = hub.shared_with(&AgentKey::from_seed([4; 32]).public()).unwrap();
        assert_eq!(check_reply(&with_another, "n-1", &resp), Err("bad_signature"), "another agent's");
        let mut altered = m.clone();
        altered.parts = vec![Part::text("Closed for good.")];
        assert_eq!(check_reply(&at_hub, "n-1", &SendMessageResponse::Message(altered)), Err("bad_signature"));
        let mut bare = m;
        bare.metadata = None;
        assert_eq!(check_reply(&at_hub, "n-1", &SendMessageResponse::Message(bare)), Err("unsigned_reply"));
    }

    #[tokio::test]
    async fn a_signed_request_is_the_hubs_once_for_exactly_what_it_signed() {
        let hub = AgentKey::from_seed([1; 32]);
        let tutor = trust("tutor", &hub).await;
        let body = br#"{"baseRevision":1,"enabled":false}"#;
        let path = "/api/settings/skills/calculus";
        let header = sign_request(&hub, "tutor", "patch", path, body);
        assert_eq!(tutor.check_request("PATCH", path, body, Some(&header)), Ok(()));
        assert_eq!(tutor.check_request("PATCH", path, body, Some(&header)), Err("replayed"));
        let fresh = || sign_request(&hub, "tutor", "PATCH", path, body);
        assert_eq!(tutor.check_request("PATCH", path, b"{}", Some(&fresh())), Err("bad_signature"));
        assert_eq!(tutor.check_request("PUT", path, body, Some(&fresh())), Err("bad_signature"));
        assert_eq!(tutor.check_request("PATCH", "/api/settings", body, Some(&fresh())), Err("bad_signature"));
        assert_eq!(tutor.check_request("PATCH", path, body, None), Err("unsigned"));
        assert_eq!(tutor.check_request("PATCH", path, body, Some("not base64")), Err("bad_signature"));
        let other = sign_request(&AgentKey::from_seed([2; 32]), "tutor", "PATCH", path, body);
        assert_eq!(tutor.check_request("PATCH", path, body, Some(&other)), Err("key_mismatch"));
        let library = sign_request(&hub, "library", "PATCH", path, body);
        assert_eq!(tutor.check_request("PATCH", path, body, Some(&library)), Err("wrong_audience"));
    }

    #[tokio::test]
    async fn the_first_hub_key_is_pinned_and_another_is_not_trusted() {
        let hub = AgentKey::from_seed([1; 32]);
        let library = HubTrust::open("library", own("library"), None, None).await.unwrap();
        let mut m = question();
        sign_forward(&shared(&hub, "library"), "library", None, &mut m);
        assert_eq!(library.caller(&m), Caller::Unverified { reason: "no_hub_key" });
        library.offer(hub.public()).await;
        library.offer(AgentKey::from_seed([2; 32]).public()).await;
        assert_eq!(library.key(), Some(hub.public()));
        let configured = HubTrust::open("library", own("library"), Some(hub.public()), None).await.unwrap();
        configured.offer(AgentKey::from_seed([2; 32]).public()).await;
        assert_eq!(configured.key(), Some(hub.public()));
    }
}
