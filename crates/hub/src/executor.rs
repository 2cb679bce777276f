//! The Hub's A2A executor: control messages go to the registry (handled by code, never
//! routed); chat messages go through the ledger, an open clarifying question (see
//! `clarify`), the router and its validation, and at most one forward.

use std::sync::{Arc, Mutex};

use a2a::RpcError;
use a2a::client::ClientError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use a2a::wire::{Message, Part, PartContent, Role, SendMessageResponse, new_context_id, new_message_id};
use hublink::{Control, ack_codes, ack_reply, parse_control};
use serde::Serialize;
use serde_json::{Map, Value, json};
use telemetry::Data;

use crate::Emit;
use crate::clarify::{self, Clarifications, Pending};
use crate::config::Config;
use crate::forms::{self, Client, Forms};
use crate::ledger::{self, Begin, Key, Ledger, Loaded, Stored, question_hash, wait};
use crate::registry::{Registry, SpecialistView, Status};
use crate::router::{Decision, Outcome, Router, best_skill, validate};
use bounded::BoundedMap;

/// Longest question accepted, in characters.
pub const MAX_QUESTION: usize = 4_000;
/// Conversations remembered for their specialist contexts; the oldest are forgotten first.
const CONTEXTS_CAPACITY: usize = 4_096;

pub struct HubExecutor {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    registry: Arc<Registry>,
    router: Router,
    ledger: Ledger,
    /// (Student context, specialist) → the Hub's own context with that specialist.
    contexts: Mutex<BoundedMap<(String, String), String>>,
    /// Student conversation → the clarifying question waiting for its answer.
    clarifications: Clarifications,
    /// Student conversation → the specialist and skill its last routed question went to.
    last_routes: Mutex<BoundedMap<String, (String, String)>>,
    /// Student conversation → the specialist (and skill) that asked "continue or replace"
    /// and awaits the answer (`hublink::AWAITS_KEY`); taken by the next message.
    awaiting_choice: Mutex<BoundedMap<String, (String, String)>>,
    /// Form references and actions (docs/forms.md).
    forms: Forms,
    emit: Emit,
}

impl HubExecutor {
    /// `ledger`: the request ledger read from the Hub's store `store` (see
    /// [`crate::open_store`]), which also keeps its form references.
    pub(crate) fn new(
        config: Config,
        registry: Arc<Registry>,
        emit: Emit,
        ledger: Loaded,
        store: store::Store,
    ) -> Result<Self, store::StoreError> {
        let trained = emit.clone();
        let router = Router::new(config.router, &config).on_train(move |t| {
            let report = Trained {
                targets: t.model.targets().len(),
                skills: t.model.skill_count(),
                temperature: t.model.temperature(),
                micros: t.took.as_micros() as u64,
            };
            tracing::info!(skills = report.skills, micros = report.micros, "router trained");
            trained.send("router_trained", Data::new(&report));
        });
        let trains = config.router.trains();
        if trains {
            // trained at startup, from the configured capabilities until cards arrive
            router.model(&registry.view());
        }
        let forms = Forms::new(store, config.form_ttl, config.forward_timeout, emit.clone());
        let inner = Arc::new(Inner {
            forms,
            config,
            registry,
            router,
            ledger: Ledger::durable(crate::LEDGER_CAPACITY, ledger)?,
            contexts: Mutex::new(BoundedMap::new(CONTEXTS_CAPACITY)),
            clarifications: Clarifications::new(),
            last_routes: Mutex::new(BoundedMap::new(CONTEXTS_CAPACITY)),
            awaiting_choice: Mutex::new(BoundedMap::new(CONTEXTS_CAPACITY)),
            emit,
        });
        if trains {
            tokio::spawn(retrain_on_changes(Arc::downgrade(&inner)));
        }
        Ok(Self { inner })
    }
}

/// Retrains the router on a blocking thread each time the registry's skills change;
/// questions meanwhile read the previous model (validated against the current registry).
async fn retrain_on_changes(inner: std::sync::Weak<Inner>) {
    let Some(mut changes) = inner.upgrade().map(|i| i.registry.skills_changes()) else { return };
    while changes.changed().await.is_ok() {
        let Some(strong) = inner.upgrade() else { return };
        let view = strong.registry.view();
        if let Err(err) = tokio::task::spawn_blocking(move || strong.router.retrain(&view)).await {
            tracing::warn!(error = %err, "router retraining failed; the previous model serves");
        }
    }
}

impl AgentExecutor for HubExecutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        if let Some(control) = parse_control(&ctx.message) {
            let ack = match control {
                Ok(c) => self.inner.control(&c),
                Err(reason) => hublink::Ack::refused(ack_codes::INVALID_CONTROL, reason),
            };
            return Ok(ack_reply(&ack));
        }
        let client = Client::of(&ctx.message, &ctx.extensions)?;
        if let Some(action) = forms::parse_action(&ctx.message) {
            let inner = &self.inner;
            return inner
                .forms
                .act(&inner.registry, &inner.served_by_hub(), &ctx.context_id, &client, action?)
                .await;
        }
        let text = ctx.text();
        if text.trim().is_empty() {
            // Every part passed the layer's media-type check (-32005), so only text is left.
            return Err(RpcError::invalid_params("message.parts", "the question is empty"));
        }
        let text_chars = text.chars().count();
        if text_chars > MAX_QUESTION {
            return Err(RpcError::invalid_params(
                "message.parts",
                format!("a question is at most {MAX_QUESTION} characters"),
            ));
        }
        let request_id = ctx
            .metadata
            .as_ref()
            .and_then(|m| m.get("requestId"))
            .or_else(|| ctx.message.metadata.as_ref().and_then(|m| m.get("requestId")))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty() && s.len() <= 256)
            .unwrap_or(&ctx.message.message_id)
            .to_string();
        // Scoped by the conversation the client named. A first question names none (the
        // layer assigns one), so its retry is matched by request id alone.
        let scope = if ctx.new_context { String::new() } else { ctx.context_id.clone() };
        let asked = question_hash(&text);
        let key: Key = (scope, request_id.clone(), asked);
        let alias: Option<Key> = ctx.new_context.then(|| (ctx.context_id.clone(), request_id.clone(), asked));
        let received = Received {
            message_id: &ctx.message.message_id,
            context_id: &ctx.context_id,
            request_id: &request_id,
            text_chars,
        };
        self.inner.emit.send("message_received", Data::new(&received));
        let begun = self.inner.ledger.begin(key.clone(), alias.clone()).await.map_err(|e| {
            tracing::error!(code = e.code(), error = %e, "the ledger could not record a request; it is refused");
            RpcError::internal()
        })?;
        let stored = match begun {
            Begin::Existing(rx) => {
                tracing::info!(request_id = %request_id, context_id = %ctx.context_id, "repeated request answered from the ledger");
                let ids = Ids { request_id: &request_id, context_id: &ctx.context_id };
                self.inner.emit.send("duplicate_request", Data::new(&ids));
                wait(rx).await.ok_or_else(RpcError::internal)?
            }
            Begin::New(pending) => {
                // the work and its ledger record on their own task: a caller that stops
                // waiting (a timeout) leaves the answer to be stored for its retry
                let inner = self.inner.clone();
                let (student_ctx, rid) = (ctx.context_id.clone(), request_id.clone());
                let work = tokio::spawn(async move {
                    // a panic in the work forgets the request (a retry decides again)
                    // rather than leave waiters a sender that is gone for good
                    let guard = Unfinished { inner: inner.clone(), key, alias, pending: Some(pending) };
                    let (mut stored, keep) = inner.answer(&student_ctx, &rid, &text, &client).await;
                    stored.context_id = student_ctx;
                    guard.finish(&stored, keep).await;
                    stored
                });
                work.await.map_err(|_| RpcError::internal())?
            }
        };
        let published = Published {
            message_id: &stored.message_id,
            context_id: &ctx.context_id,
            request_id: &request_id,
            served_by: stored.metadata.get("servedBy").and_then(|s| s.get("id")),
            outcome: stored.metadata.get("outcome"),
        };
        self.inner.emit.send("reply_published", Data::new(&published));
        // a form is the Hub's own task; a retry answered in another conversation than the
        // request's (a first question's) is a message, which may name its conversation
        if let Some(state) = forms::stored_state(&stored.metadata)
            && stored.context_id == ctx.context_id
        {
            return Ok(forms::task_reply(state, stored.parts, stored.metadata));
        }
        Ok(Reply::Message {
            message_id: stored.message_id,
            parts: stored.parts,
            metadata: Some(stored.metadata.into_iter().collect()),
            context_id: Some(stored.context_id),
        })
    }
}

/// A request begun in the ledger whose work has not finished: dropped unfinished (the
/// work panicked), it is forgotten.
struct Unfinished {
    inner: Arc<Inner>,
    key: Key,
    alias: Option<Key>,
    pending: Option<ledger::Pending>,
}

impl Unfinished {
    async fn finish(mut self, stored: &Stored, keep: bool) {
        if let Some(pending) = self.pending.take() {
            self.inner.ledger.finish(&self.key, self.alias.as_ref(), &pending, stored, keep).await;
        }
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Some(pending) = self.pending.take() {
            self.inner.ledger.forget(&self.key, self.alias.as_ref(), &pending);
        }
    }
}

// The Hub's per-question telemetry events, serialized straight to JSON text.

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Received<'a> {
    message_id: &'a str,
    context_id: &'a str,
    request_id: &'a str,
    text_chars: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Ids<'a> {
    request_id: &'a str,
    context_id: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Routed<'a> {
    request_id: &'a str,
    context_id: &'a str,
    decision: &'a Outcome,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Forwarded<'a> {
    request_id: &'a str,
    specialist: &'a str,
    operation_id: &'a str,
    message_id: &'a str,
    context_id: &'a str,
    skill: &'a str,
}

/// `specialist_replied` and `forward_failed` (with a reason, and an error's code).
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Operation<'a> {
    request_id: &'a str,
    specialist: &'a str,
    operation_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<i32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Published<'a> {
    message_id: &'a str,
    context_id: &'a str,
    request_id: &'a str,
    served_by: Option<&'a Value>,
    outcome: Option<&'a Value>,
}

/// A classifier training, as reported.
#[derive(Serialize)]
struct Trained {
    targets: usize,
    skills: usize,
    temperature: f32,
    micros: u64,
}

fn text_part(text: impl Into<String>) -> Part {
    Part::text(text).with_media_type("text/plain")
}

impl Inner {
    fn control(&self, c: &Control) -> hublink::Ack {
        match c {
            Control::Register(r) => self.registry.register(r),
            Control::Heartbeat(h) => self.registry.heartbeat(h),
            Control::Deregister(h) => self.registry.deregister(h),
            Control::CardChanged(n) => self.registry.card_changed(n),
        }
    }

    fn served_by_hub(&self) -> Value {
        self.config.served_by_hub()
    }

    fn hub_reply(&self, request_id: &str, outcome: &Outcome, text: String) -> Stored {
        let mut metadata = Map::new();
        metadata.insert("servedBy".into(), self.served_by_hub());
        metadata.insert("outcome".into(), json!(outcome.kind()));
        metadata.insert("requestId".into(), json!(request_id));
        Stored {
            message_id: new_message_id(),
            context_id: String::new(),
            parts: vec![text_part(text)],
            metadata,
        }
    }

    fn hub_context(&self, student_ctx: &str, specialist: &str) -> String {
        let mut guard = self.contexts.lock().unwrap_or_else(|p| p.into_inner());
        let key = (student_ctx.to_string(), specialist.to_string());
        if let Some(c) = guard.get(&key) {
            return c.clone();
        }
        let c = new_context_id();
        guard.insert(key, c.clone());
        c
    }

    fn display_name(&self, specialist: &str) -> String {
        self.config
            .specialist(specialist)
            .map(|s| s.capability.name.clone())
            .unwrap_or_else(|| specialist.to_string())
    }

    /// One router proposal for `text`: the embed router on a blocking thread (a
    /// transformer pass must not hold up the runtime's workers, which carry heartbeats),
    /// the live and hybrid routers with at most one model call per question (after a
    /// failed call, the classifier decides the rest), the others inline.
    async fn route(
        self: &Arc<Self>,
        text: &str,
        view: &[SpecialistView],
        calls: &mut Vec<crate::live::ModelCall>,
    ) -> Decision {
        match self.router.mode() {
            crate::RouterMode::Embed => {
                let (me, text, view) = (self.clone(), text.to_string(), view.to_vec());
                tokio::task::spawn_blocking(move || me.router.decide(&text, &view)).await.unwrap_or_else(
                    |e| {
                        tracing::error!(error = %e, "embed router failed; asking the student to say more");
                        Decision::Clarify { options: Vec::new(), question: None }
                    },
                )
            }
            mode if mode.calls_model() => {
                let allow = calls.iter().all(|c| c.error.is_none());
                let decided = self.router.decide_live(text, view, allow).await;
                calls.extend(decided.call);
                decided.decision
            }
            _ => self.router.decide(text, view),
        }
    }

    /// The decision for `text`, read as the answer to the conversation's open clarifying
    /// question when there is one, and the question to forward if it is a route.
    async fn decide(
        self: &Arc<Self>,
        student_ctx: &str,
        open: Option<&Pending>,
        text: &str,
        view: &[SpecialistView],
        calls: &mut Vec<crate::live::ModelCall>,
    ) -> (Decision, String) {
        let Some(pending) = open else {
            let decision = self.route(text, view, calls).await;
            return (self.follow_up(student_ctx, text, decision), text.to_string());
        };
        // After "Could you say a little more?" (the first words placed nothing), an answer
        // that places itself ("when is the library open?") is the question; after "Do you
        // mean A or B?", an answer is read together with the question it clarifies.
        if !pending.tie {
            let alone = self.route(text, view, calls).await;
            if matches!(alone, Decision::Route { .. }) {
                return (alone, text.to_string());
            }
        }
        if let Some(id) = clarify::named(text, &pending.options, &self.config) {
            let skill = view.iter().find(|s| s.id == id).and_then(|s| best_skill(&pending.question, s));
            let decision = Decision::Route {
                specialist: id.to_string(),
                skill: skill.unwrap_or_default(),
                reason: format!("the student chose {id} when asked which service they meant"),
            };
            return (decision, pending.question.clone());
        }
        let together = format!("{}\n{text}", pending.question);
        if together.chars().count() > MAX_QUESTION {
            return (self.route(text, view, calls).await, text.to_string());
        }
        (self.route(&together, view, calls).await, together)
    }

    /// A question the router places nowhere that reads as a follow-up ("what about at
    /// x=2?", "and from 1 to 2?", "is that right?"), in a conversation whose last question
    /// was routed, is proposed to that same specialist (still validated: if it is
    /// unavailable now, that is said). Anything else the router placed nowhere ("hi", "can
    /// you fix my sink?") stays the Hub's to answer; a placed question or a choice between
    /// services is left as decided.
    fn follow_up(&self, student_ctx: &str, text: &str, decision: Decision) -> Decision {
        let placed_nowhere = match &decision {
            Decision::Unsupported { .. } => true,
            Decision::Clarify { options, .. } => options.is_empty(),
            Decision::Route { .. } => false,
        };
        if !placed_nowhere || !clarify::reads_as_follow_up(text) {
            return decision;
        }
        let last =
            self.last_routes.lock().unwrap_or_else(|p| p.into_inner()).get(&student_ctx.to_string()).cloned();
        match last {
            Some((specialist, skill)) => Decision::Route {
                reason: format!("a follow-up: this conversation's last question went to {specialist}"),
                specialist,
                skill,
            },
            None => decision,
        }
    }

    /// Decides and, for a route, forwards once. Returns the answer and whether the
    /// ledger should keep it (false when nothing was dispatched, so a retry may decide again).
    async fn answer(
        self: &Arc<Self>,
        student_ctx: &str,
        request_id: &str,
        text: &str,
        client: &Client,
    ) -> (Stored, bool) {
        let view = self.registry.view();
        if self.router.mode().trains() && !self.router.is_current(&view) {
            // the skills changed and the retraining has not finished: wait for it (on a
            // blocking thread), so no question is decided by a model of older skills
            let (me, v) = (self.clone(), view.clone());
            if let Err(err) = tokio::task::spawn_blocking(move || me.router.retrain(&v)).await {
                tracing::warn!(error = %err, "router retraining failed; the previous model serves");
            }
        }
        let open = self.clarifications.take(student_ctx);
        let awaited =
            self.awaiting_choice.lock().unwrap_or_else(|p| p.into_inner()).take(&student_ctx.to_string());
        let mut calls = Vec::new();
        let (decision, question) = if let Some((specialist, skill)) =
            awaited.clone().filter(|_| hublink::OpenFormChoice::read(text).is_some())
        {
            // the answer to a specialist's "continue or replace": back to the one that asked
            let reason = format!("the student answered {specialist}'s question about its open form");
            (Decision::Route { specialist, skill, reason }, text.to_string())
        } else {
            self.decide(student_ctx, open.as_ref(), text, &view, &mut calls).await
        };
        let outcome = validate(decision, &view);
        tracing::info!(request_id = %request_id, context_id = %student_ctx, outcome = outcome.kind(), "routing decision");
        let routed = Routed { request_id, context_id: student_ctx, decision: &outcome };
        self.emit.send("routed", Data::new(&routed));
        let (mut stored, keep) = self.act(student_ctx, request_id, &question, &outcome, &view, client).await;
        if self.router.mode().calls_model() {
            stored.metadata.insert("router".into(), self.router_metadata(&calls));
        }
        if let Outcome::Route { specialist, skill, .. } = &outcome {
            let mut last = self.last_routes.lock().unwrap_or_else(|p| p.into_inner());
            let key = student_ctx.to_string();
            // on the request path: write only what changed
            if last.get(&key).is_none_or(|(s, k)| s != specialist || k != skill) {
                last.insert(key, (specialist.clone(), skill.clone()));
            }
        }
        if !keep && let Some(p) = open {
            // Nothing was dispatched: a retry of this answer may still answer the question.
            self.clarifications.remember(student_ctx, p);
        }
        if !keep && let Some(a) = awaited {
            self.await_choice(student_ctx, a);
        }
        (stored, keep)
    }

    /// `router` of a reply in `live` and `hybrid` modes: the mode, how many model calls
    /// this question made, and the last one's model, latency, tokens, request id and error
    /// code (never the key or any text).
    fn router_metadata(&self, calls: &[crate::live::ModelCall]) -> Value {
        let mut v = json!({
            "mode": self.router.mode().as_str(),
            "model": self.router.model_id(),
            "modelCalls": calls.len(),
        });
        if let Some(last) = calls.last() {
            v["call"] = last.to_json();
        }
        v
    }

    fn await_choice(&self, student_ctx: &str, from: (String, String)) {
        self.awaiting_choice.lock().unwrap_or_else(|p| p.into_inner()).insert(student_ctx.to_string(), from);
    }

    fn names(&self, ids: impl IntoIterator<Item = impl AsRef<str>>) -> Vec<String> {
        ids.into_iter().map(|id| self.display_name(id.as_ref())).collect()
    }

    async fn act(
        &self,
        student_ctx: &str,
        request_id: &str,
        text: &str,
        outcome: &Outcome,
        view: &[SpecialistView],
        client: &Client,
    ) -> (Stored, bool) {
        match outcome {
            Outcome::Clarify { options, tie, question: worded } => {
                if !options.is_empty() {
                    let pending = Pending { question: text.to_string(), options: options.clone(), tie: *tie };
                    self.clarifications.remember(student_ctx, pending);
                }
                let question =
                    worded.clone().unwrap_or_else(|| clarify::question(&self.names(options), *tie));
                (self.hub_reply(request_id, outcome, question), true)
            }
            Outcome::Unsupported { .. } => {
                let routable = self.names(view.iter().filter(|s| s.routable()).map(|s| &s.id));
                let all_up = view.iter().all(|s| s.routable());
                (self.hub_reply(request_id, outcome, clarify::unsupported(&routable, all_up)), true)
            }
            Outcome::Unavailable { specialist, status } => {
                let text = format!(
                    "The {} service is unavailable right now ({}). Your question was not sent anywhere else; please try again shortly.",
                    self.display_name(specialist),
                    status_words(*status)
                );
                (self.hub_reply(request_id, outcome, text), false)
            }
            Outcome::Route { specialist, skill, .. } => {
                let to = Target { specialist, skill, outcome };
                self.forward(student_ctx, request_id, to, text, client).await
            }
        }
    }

    async fn forward(
        &self,
        student_ctx: &str,
        request_id: &str,
        to: Target<'_>,
        text: &str,
        client: &Client,
    ) -> (Stored, bool) {
        let Target { specialist, skill, outcome } = to;
        let handle = match self.registry.handle(specialist) {
            Ok(h) => h,
            Err(status) => {
                let o = Outcome::Unavailable { specialist: specialist.into(), status };
                let text = format!(
                    "The {} service is unavailable right now ({}).",
                    self.display_name(specialist),
                    status_words(status)
                );
                return (self.hub_reply(request_id, &o, text), false);
            }
        };
        let operation_id = new_message_id();
        let hub_ctx = self.hub_context(student_ctx, specialist);
        let mut message = Message::new(Role::User, vec![text_part(text)]);
        message.context_id = Some(hub_ctx.clone());
        let mut forward_meta: std::collections::HashMap<String, Value> =
            [("hubOperationId".to_string(), json!(operation_id))].into_iter().collect();
        client.describe(&mut forward_meta);
        message.metadata = Some(forward_meta);
        let sent_id = message.message_id.clone();
        tracing::info!(specialist, operation_id = %operation_id, message_id = %sent_id, context_id = %hub_ctx, "forwarding");
        let forwarded = Forwarded {
            request_id,
            specialist,
            operation_id: &operation_id,
            message_id: &sent_id,
            context_id: &hub_ctx,
            skill,
        };
        self.emit.send("forwarded", Data::new(&forwarded));
        let result = tokio::time::timeout(
            self.config.forward_timeout,
            handle.send_message(message, &client.extensions()),
        )
        .await;
        let name = self.display_name(specialist);
        let mut metadata = Map::new();
        metadata.insert(
            "servedBy".into(),
            json!({"id": specialist, "name": handle.card.name, "capability": name}),
        );
        metadata.insert("outcome".into(), json!(outcome.kind()));
        metadata.insert("skillId".into(), json!(skill));
        metadata.insert("requestId".into(), json!(request_id));
        let failure = |kind: &str, text: String, metadata: &mut Map<String, Value>| {
            metadata.insert("outcome".into(), json!(kind));
            metadata.insert("servedBy".into(), self.served_by_hub());
            Stored {
                message_id: new_message_id(),
                context_id: String::new(),
                parts: vec![text_part(text)],
                metadata: metadata.clone(),
            }
        };
        let operation =
            Operation { request_id, specialist, operation_id: &operation_id, reason: None, code: None };
        match result {
            Ok(Ok(resp)) => {
                self.registry.mark_reachable(specialist, true);
                let form = forms::read_specialist(&resp);
                if let SendMessageResponse::Message(m) = &resp
                    && hublink::awaits_form_choice(m.metadata.as_ref())
                {
                    self.await_choice(student_ctx, (specialist.to_string(), skill.to_string()));
                }
                let parts = reply_parts(resp);
                self.emit.send("specialist_replied", Data::new(&operation));
                if parts.is_empty() {
                    let text = format!("The {name} service answered without any content.");
                    return (failure("invalid_answer", text, &mut metadata), true);
                }
                if let Some(form) = form.filter(|f| f.opened().is_some())
                    && let Some(campus) =
                        self.forms.open(client, student_ctx, specialist, request_id, &form).await
                {
                    metadata.insert("outcome".into(), json!("form"));
                    metadata.insert(forms::CAMPUS_FORM_KEY.into(), campus);
                }
                (Stored { message_id: new_message_id(), context_id: String::new(), parts, metadata }, true)
            }
            Ok(Err(ClientError::Refused { .. } | ClientError::Connect { .. })) => {
                self.registry.mark_reachable(specialist, false);
                let op = Operation { reason: Some("unreachable"), ..operation };
                self.emit.send("forward_failed", Data::new(&op));
                let text = format!(
                    "The {name} service is unavailable right now (unreachable). Your question was not sent anywhere else."
                );
                (failure("unavailable", text, &mut metadata), false)
            }
            Ok(Err(ClientError::Rpc { code, .. })) => {
                let op = Operation { reason: Some("error"), code: Some(code), ..operation };
                self.emit.send("forward_failed", Data::new(&op));
                let text = format!("The {name} service could not answer that request (error {code}).");
                (failure("failed", text, &mut metadata), true)
            }
            Ok(Err(_)) | Err(_) => {
                let op = Operation { reason: Some("outcome_unknown"), ..operation };
                self.emit.send("forward_failed", Data::new(&op));
                let text = format!(
                    "The {name} service did not answer properly in time, so I can't tell whether it handled your request."
                );
                (failure("outcome_unknown", text, &mut metadata), true)
            }
        }
    }
}

fn status_words(status: Status) -> &'static str {
    match status {
        Status::Ready => "ready",
        Status::Stale => "it stopped checking in",
        Status::Unreachable => "unreachable",
        Status::Disconnected => "not connected",
        Status::Disabled => "disabled",
        Status::InvalidCard => "its agent card could not be verified",
    }
}

/// Where a question goes.
#[derive(Clone, Copy)]
struct Target<'a> {
    specialist: &'a str,
    skill: &'a str,
    outcome: &'a Outcome,
}

/// The content of a specialist's answer: a message's parts, or a task's status message
/// and artifacts. The Hub link's control media types never pass through (a form's
/// errors and receipt, `application/vnd.campus.form-…`, do).
pub(crate) fn reply_parts(resp: SendMessageResponse) -> Vec<Part> {
    let parts = match resp {
        SendMessageResponse::Message(m) => m.parts,
        SendMessageResponse::Task(t) => {
            let mut parts = t.status.message.map(|m| m.parts).unwrap_or_default();
            parts.extend(t.artifacts.unwrap_or_default().into_iter().flat_map(|a| a.parts));
            parts
        }
    };
    parts
        .into_iter()
        .filter(|p| {
            !p.media_type.as_deref().is_some_and(|m| hublink::CONTROL_TYPES.contains(&m) || m == hublink::ACK)
        })
        .filter(|p| !matches!(&p.content, PartContent::Text(t) if t.is_empty()))
        .collect()
}
