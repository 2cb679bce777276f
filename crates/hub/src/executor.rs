//! The Hub's A2A executor: the request path as a pipeline of plain stages. intake (what
//! a message is) → ledger (a repeated request is answered from it) → memory (read once)
//! → decide (the proposal) → validate (only a registered, enabled choice) → plan (forward,
//! or the Hub's own words) → ask (one forward) → answer (the stored reply) → memory
//! (written once). Control messages go to the registry, form actions to `forms`. Each
//! stage takes data and returns data; this file only composes them.

use std::borrow::Cow;
use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use hublink::{Signed, ack_codes, ack_reply};
use vocab::events::{FormEvent, Ids, Published, Received};
use vocab::{CampusForm, HubEventKind};

use crate::config::Config;
use crate::decision::{Decision, Outcome, validate};
use crate::error::HubError;
use crate::events::{Emit, Routed};
use crate::forms::{Forms, task_reply};
use crate::intake::{Incoming, Question};
use crate::ledger::{self, Begin, Key, Ledger, Stored, wait};
use crate::memory::{After, Memory, Target};
use crate::plan::Plan;
use crate::registry::Registry;
use crate::route::Router;
use crate::route::mock::best_skill;
use crate::view::SpecialistView;
use crate::{answer, ask, decide, intake, plan, recheck};

pub struct HubExecutor {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) config: Config,
    pub(crate) registry: Arc<Registry>,
    pub(crate) router: Arc<Router>,
    pub(crate) ledger: Ledger,
    pub(crate) memory: Memory,
    pub(crate) forms: Forms,
    pub(crate) emit: Emit,
}

impl HubExecutor {
    pub(crate) fn new(inner: Inner) -> Self {
        Self { inner: Arc::new(inner) }
    }
}

impl AgentExecutor for HubExecutor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let inner = &self.inner;
        let question = match intake::read(&ctx)? {
            Incoming::Control(control) => return Ok(ack_reply(&inner.control(control).await)),
            Incoming::Action { asker, action } => {
                let hub = inner.config.served_by_hub();
                let (form_ref, operation_id) = (action.form_ref.clone(), action.operation_id.clone());
                let result = inner.forms.act(&inner.registry, &hub, &ctx.context_id, &asker, action).await;
                // the press's last step: the Hub's reply, an answer or a refusal, goes back
                let replied = FormEvent {
                    context_id: Cow::Borrowed(&ctx.context_id),
                    form_ref: Cow::Borrowed(&form_ref),
                    operation_id: Some(Cow::Borrowed(&operation_id)),
                    code: result.as_ref().err().map(|e| Cow::Borrowed(e.code())),
                    ..Default::default()
                };
                inner.emit.report(HubEventKind::FormActionReplied, &replied);
                return Ok(result?);
            }
            Incoming::Question(q) => q,
        };
        let received = Received {
            message_id: Cow::Borrowed(&question.message_id),
            context_id: Cow::Borrowed(&question.conversation),
            request_id: Cow::Borrowed(&question.request_id),
            text_chars: question.chars,
        };
        inner.emit.report(HubEventKind::MessageReceived, &received);
        let begun = inner
            .ledger
            .begin(question.key.clone(), question.alias.clone())
            .await
            .map_err(HubError::Ledger)?;
        let stored = match begun {
            Begin::Existing(rx) => {
                tracing::info!(request_id = %question.request_id, context_id = %ctx.context_id, "repeated request answered from the ledger");
                let ids = Ids {
                    request_id: Cow::Borrowed(&question.request_id),
                    context_id: Cow::Borrowed(&ctx.context_id),
                };
                inner.emit.report(HubEventKind::DuplicateRequest, &ids);
                let stored = wait(rx).await.ok_or(HubError::Work)?;
                let hub = ask::Ask::new(&inner.config, &inner.registry, &inner.forms, &inner.emit);
                recheck::settle(&hub, &inner.ledger, &question, stored).await
            }
            Begin::New(pending) => {
                // the work and its ledger record on their own task: a caller that stops
                // waiting (a timeout) leaves the answer to be stored for its retry; a
                // panic in the work forgets the request (a retry decides again)
                let (inner, q) = (inner.clone(), question.clone());
                let work = tokio::spawn(async move {
                    let guard = Unfinished {
                        inner: inner.clone(),
                        key: q.key.clone(),
                        alias: q.alias.clone(),
                        pending: Some(pending),
                    };
                    let (mut stored, settled) = inner.answer(&q).await;
                    stored.context_id = q.conversation.clone();
                    guard.finish(&stored, settled).await;
                    stored
                });
                work.await.map_err(|_| HubError::Work)?
            }
        };
        let (served_by, outcome) = answer::served_by_and_outcome(&stored);
        let published = Published {
            message_id: Cow::Borrowed(&stored.message_id),
            context_id: Cow::Borrowed(&ctx.context_id),
            request_id: Cow::Borrowed(&question.request_id),
            served_by: served_by.map(Cow::Borrowed),
            outcome,
        };
        inner.emit.report(HubEventKind::ReplyPublished, &published);
        // a form is the Hub's own task; a retry answered in another conversation than the
        // request's (a first question's) is a message, which may name its conversation
        if let Some(form) = CampusForm::read(&stored.metadata)
            && stored.context_id == ctx.context_id
        {
            return Ok(task_reply(form.state, stored.parts, stored.metadata));
        }
        let Stored { message_id, context_id, parts, metadata, .. } = stored;
        Ok(Reply::Message {
            message_id,
            parts,
            metadata: Some(metadata.into_iter().collect()),
            context_id: Some(context_id),
        })
    }
}

impl Inner {
    async fn control(&self, control: Result<Signed, hublink::ControlError>) -> hublink::Ack {
        match control {
            Ok(signed) => self.registry.control(&signed).await,
            Err(e) => hublink::Ack::refused(ack_codes::INVALID_CONTROL, e.to_string()),
        }
    }

    /// A follow-up button's question goes to the specialist whose open form drew it (still
    /// validated like any route); `None` when no form of the asker's here is named.
    async fn follow_up(&self, q: &Question, view: &[SpecialistView]) -> Option<decide::Proposal> {
        let form_ref = q.follow_up_of.as_deref()?;
        let specialist = self.forms.specialist_of(form_ref, &q.asker.student_id, &q.conversation).await?;
        let skill = view.iter().find(|s| s.id == specialist).and_then(|s| best_skill(&q.text, s));
        let reason = format!("a follow-up button on {specialist}'s open form");
        Some(decide::Proposal {
            decision: Decision::Route { specialist, skill: skill.unwrap_or_default(), reason },
            question: q.text.clone(),
            calls: Vec::new(),
        })
    }

    /// Decides and, for a route, forwards once. Returns the answer and whether it stands
    /// (false when nothing was sent anywhere, so a retry may decide again).
    async fn answer(self: &Arc<Self>, q: &Question) -> (Stored, bool) {
        let view = self.registry.view();
        self.router.catch_up(&view).await;
        let turn = self.memory.begin(&q.conversation);
        let proposal = match self.follow_up(q, &view).await {
            Some(proposal) => proposal,
            None => decide::propose(&turn, &q.text, &view, &self.router, &self.config).await,
        };
        let outcome = validate(proposal.decision, &view);
        tracing::info!(request_id = %q.request_id, context_id = %q.conversation, outcome = outcome.kind(), "routing decision");
        let routed = Routed { request_id: &q.request_id, context_id: &q.conversation, decision: &outcome };
        self.emit.report(HubEventKind::Routed, &routed);
        let mut after = After::default();
        if let Outcome::Route { specialist, skill, .. } = &outcome {
            after.route = Some(Target { specialist: specialist.clone(), skill: skill.clone() });
        }
        let stored = match plan::plan(&outcome, &proposal.question, &view, &self.config) {
            Plan::Say(said) => {
                after.settled = said.settled;
                after.clarifying = said.clarifying.clone();
                answer::said(&q.request_id, &self.config.served_by_hub(), &said)
            }
            Plan::Forward(to) => {
                let hub = ask::Ask::new(&self.config, &self.registry, &self.forms, &self.emit);
                let (stored, kept) = ask::forward(&hub, q, &turn, &to, &proposal.question).await;
                after.took(kept);
                stored
            }
        };
        let settled = after.settled;
        self.memory.end(&q.conversation, turn, after);
        (answer::with_router(stored, &self.router, &proposal.calls), settled)
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
    async fn finish(mut self, stored: &Stored, settled: bool) {
        if let Some(pending) = self.pending.take() {
            self.inner.ledger.finish(&self.key, self.alias.as_ref(), &pending, stored, settled).await;
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
