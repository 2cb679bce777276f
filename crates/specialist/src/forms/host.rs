//! The form host over an agent's store: what a message is, who sends it, offering a form
//! and re-sending an open one; a card that hosts forms.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use a2a::RpcError;
use a2a::server::RequestContext;
use serde_json::Value;
use store::forms::{Form, FormChange, StoredState as StoreState};
use store::{Store, StoreError};
use vocab::FormState;
use vocab::form::{ANONYMOUS_STUDENT, FORM_ERRORS_MEDIA_TYPE, FORM_RECEIPT_MEDIA_TYPE};

use super::contract::{Outcome, checked, code, refuse, store_failed};

/// Test-only switch: the first action's work (its transaction) starts this many
/// milliseconds late, so a caller's timeout can produce a real `outcome_unknown`; like any
/// work begun, it finishes even when the caller has gone. Unset (or 0): no wait.
pub const TEST_DELAY_ENV: &str = "CAMPUS_TEST_DELAY_FIRST_ACTION_MS";

/// The form host over an agent's store.
#[derive(Clone)]
pub struct FormHost {
    pub(super) store: Store,
    /// What decides a chat message (answer, clarify, offer, out of scope): the heuristic,
    /// or in live mode the model; chosen at agent startup.
    pub(super) decider: Arc<dyn forms::intent::Decide>,
    /// The test-only delay, until the first action has taken it.
    pub(super) delay: Arc<(Duration, AtomicBool)>,
}

impl FormHost {
    /// A host over `store` whose chat messages `decider` reads; `env` is read once for
    /// the [test delay](TEST_DELAY_ENV).
    pub fn new(
        store: Store,
        decider: Arc<dyn forms::intent::Decide>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> FormHost {
        let ms = env(TEST_DELAY_ENV).and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(0);
        if ms > 0 {
            tracing::warn!(ms, "{TEST_DELAY_ENV} is set: the first form action waits (a test switch)");
        }
        FormHost { store, decider, delay: Arc::new((Duration::from_millis(ms), AtomicBool::new(ms > 0))) }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether a message is a form action (it carries an A2UI part).
    pub fn is_action(ctx: &RequestContext) -> bool {
        ctx.message.parts.iter().any(a2ui::part::is_a2ui_part)
    }

    /// Whether the client asked for A2UI (`A2A-Extensions`) and renders the basic catalog
    /// (`a2uiClientCapabilities` in the message's or the request's metadata).
    pub fn client_renders(ctx: &RequestContext) -> bool {
        a2ui::part::extension_requested(&ctx.extensions)
            && (a2ui::part::client_supports(ctx.message.metadata.as_ref(), a2ui::BASIC_CATALOG_ID)
                || a2ui::part::client_supports(ctx.metadata.as_ref(), a2ui::BASIC_CATALOG_ID))
    }

    /// The student the Hub vouched for in its signed forward ([`crate::caller`]); a
    /// `studentId` the message merely claims counts for nothing: anonymous.
    pub fn student_id() -> String {
        crate::caller().student().unwrap_or(ANONYMOUS_STUDENT).to_string()
    }

    /// How this host's chat messages are decided (`heuristic`, `live`).
    pub fn decider_label(&self) -> &'static str {
        self.decider.label()
    }

    /// The open form of `workflow` in this conversation.
    pub async fn open_form_of(&self, context_id: &str, workflow: &str) -> Result<Option<Form>, RpcError> {
        let (context, workflow) = (context_id.to_string(), workflow.to_string());
        self.store.run(move |s| s.open_form_of(&context, &workflow)).await.map_err(|e| store_failed(&e))
    }

    /// Opens a form (superseding the conversation's open one of this workflow) and answers
    /// with it: `build(form id)` draws version 1. The payload is schema-checked first.
    pub async fn offer(
        &self,
        context_id: &str,
        workflow: &str,
        screen: &str,
        values: Value,
        text: String,
        build: impl FnOnce(&str) -> Vec<Value>,
    ) -> Result<Outcome, RpcError> {
        let (context, wf, sc) = (context_id.to_string(), workflow.to_string(), screen.to_string());
        let (form, _) = self
            .store
            .run(move |s| s.open_form(&wf, &context, &sc, &values))
            .await
            .map_err(|e| store_failed(&e))?;
        let messages = build(&form.form_id);
        checked(&messages)?;
        Ok(Outcome {
            form_id: form.form_id,
            workflow: workflow.to_string(),
            version: form.version,
            state: FormState::Open,
            text,
            a2ui: messages,
            errors: Vec::new(),
            receipt: None,
        })
    }

    /// Re-sends an open form as it stands: `build(form, version)` draws it whole (a
    /// createSurface first) at the next version, on `screen`.
    pub async fn resend(
        &self,
        form: Form,
        screen: &str,
        text: String,
        build: impl FnOnce(&Form, u32) -> Vec<Value>,
    ) -> Result<Outcome, RpcError> {
        let values = form.values.clone();
        self.redraw(form, screen, values, text, build).await
    }

    /// Draws an open form anew in place — the same form and surface, the next version,
    /// holding `values` from now on: `build(form, version)` draws it whole (a
    /// createSurface first). A button of an earlier version is refused as `form_stale`.
    pub async fn redraw(
        &self,
        form: Form,
        screen: &str,
        values: Value,
        text: String,
        build: impl FnOnce(&Form, u32) -> Vec<Value>,
    ) -> Result<Outcome, RpcError> {
        let version = form.version + 1;
        let messages = build(&form, version);
        checked(&messages)?;
        let change = FormChange { version, state: StoreState::Open, screen: screen.to_string(), values };
        let id = form.form_id.clone();
        let from = form.version;
        self.store.run(move |s| s.update_form(&id, from, &change)).await.map_err(|e| match e {
            StoreError::Conflict { .. } => {
                refuse("metadata.formId", code::FORM_STALE, "the form changed meanwhile")
            }
            e => store_failed(&e),
        })?;
        Ok(Outcome {
            form_id: form.form_id,
            workflow: form.workflow,
            version,
            state: FormState::Open,
            text,
            a2ui: messages,
            errors: Vec::new(),
            receipt: None,
        })
    }
}

/// A card that hosts forms: the A2UI extension (not required, the basic catalog) and the
/// media types of actions, screens, errors and receipts in its input and output modes.
pub fn hosting_forms(mut card: a2a::wire::AgentCard) -> a2a::wire::AgentCard {
    let exts = card.capabilities.extensions.get_or_insert_with(Vec::new);
    exts.push(a2ui::part::agent_extension(&[a2ui::BASIC_CATALOG_ID]));
    card.default_input_modes.push(a2ui::MEDIA_TYPE.into());
    for mode in [a2ui::MEDIA_TYPE, FORM_ERRORS_MEDIA_TYPE, FORM_RECEIPT_MEDIA_TYPE] {
        card.default_output_modes.push(mode.into());
    }
    card
}

/// Whether a skill (a workflow's id) is enabled in the current policy.
pub fn skill_enabled(policy: &skills::Policy, id: &str) -> bool {
    policy.skills.iter().any(|s| s.id == id)
}
