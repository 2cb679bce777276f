//! An action on a form: checked in the contract's order, then the workflow's handler once,
//! its effect, the form's change and the operation's result in one transaction.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use a2a::RpcError;
use a2a::server::RequestContext;
use serde_json::{Value, json};
use store::forms::{Form, FormChange, StoredState as StoreState};
use store::operations::{Once, fingerprint};
use store::{StoreError, Tx};
use vocab::form::FORM_ID_KEY;
use vocab::meta::OPERATION_ID_KEY;

use super::contract::{
    Action, Buttons, HandlerError, Outcome, Step, checked, code, is_operation_id, refuse, reused,
    store_failed, stored_outcome, stored_state,
};
use super::data::{drawn_buttons, pressed, with_data};
use super::host::FormHost;

impl FormHost {
    /// Checks an action in the order the contract lists and runs `handler` once for it.
    /// `workflows` are the workflows this agent hosts, `enabled` says whether one is enabled
    /// now, `buttons` which buttons a screen has.
    pub async fn act<H>(
        &self,
        ctx: &RequestContext,
        workflows: &[forms::Workflow],
        enabled: impl Fn(&str) -> bool,
        buttons: Buttons,
        handler: H,
    ) -> Result<Outcome, RpcError>
    where
        H: Fn(&Tx<'_>, &Action, bool) -> Result<Step, HandlerError> + Send + Sync + 'static,
    {
        let meta = ctx.message.metadata.as_ref();
        let text = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).map(str::to_string);
        let Some(form_id) = text(FORM_ID_KEY).filter(|f| (1..=256).contains(&f.len())) else {
            return Err(refuse("message.metadata.formId", code::FORM_UNKNOWN, "no such form"));
        };
        let Some(operation_id) = text(OPERATION_ID_KEY).filter(|o| is_operation_id(o)) else {
            return Err(refuse(
                "message.metadata.operationId",
                code::OPERATION_ID_INVALID,
                "an operation id is 1-128 characters of A-Za-z0-9_-",
            ));
        };
        let id = form_id.clone();
        let form = self.store.run(move |s| s.form(&id)).await.map_err(|e| store_failed(&e))?;
        let Some(form) = form.filter(|f| f.context_id == ctx.context_id) else {
            return Err(refuse(
                "message.metadata.formId",
                code::FORM_UNKNOWN,
                "no such form in this conversation",
            ));
        };
        let Some(workflow) = forms::Workflow::from_id(&form.workflow).filter(|w| workflows.contains(w))
        else {
            return Err(refuse("message.metadata.formId", code::FORM_UNKNOWN, "no such form"));
        };
        let messages = match a2ui::part::read_parts(&ctx.message.parts) {
            Ok(m) => m,
            Err(e) => return Err(refuse("message.parts", code::ACTION_NOT_ALLOWED, &e.to_string())),
        };
        let [message] = messages.as_slice() else {
            return Err(refuse("message.parts", code::ACTION_NOT_ALLOWED, "send exactly one action"));
        };
        let action = message.get("action").cloned().unwrap_or(Value::Null);
        let print = fingerprint(&json!({
            "name": action.get("name"), "surfaceId": action.get("surfaceId"),
            "sourceComponentId": action.get("sourceComponentId"), "context": action.get("context"),
        }));
        let scope = format!("form/{}", form.form_id);
        let (sc, op, fp) = (scope.clone(), operation_id.clone(), print.clone());
        let recorded =
            self.store.run(move |s| s.recorded(&sc, &op, &fp)).await.map_err(|e| store_failed(&e))?;
        match recorded {
            Some(Once::Replayed(result)) => return stored_outcome(result),
            Some(_) => return Err(reused()),
            None => {}
        }
        if form.state == StoreState::Superseded {
            let message = "this form was replaced by a newer one in this conversation";
            return Err(refuse("message.metadata.formId", code::FORM_CLOSED, message));
        }
        if form.state != StoreState::Open {
            return Err(refuse("message.metadata.formId", code::FORM_CLOSED, "this form is closed"));
        }
        let mut allowed: Vec<&str> = workflow.fields().to_vec();
        allowed.push(forms::templates::FORM_VERSION_KEY);
        let rules: Vec<a2ui::ActionRule<'_>> =
            workflow.actions().iter().map(|name| a2ui::ActionRule { name, context: &allowed }).collect();
        let checked_action = a2ui::check_action(&a2ui::Policy::fixed_forms(), &form.form_id, &rules, message)
            .map_err(|r| refuse("message.parts", code::ACTION_NOT_ALLOWED, r.reason()))?;
        let (source, name) = (checked_action.source_component_id.as_str(), checked_action.name.as_str());
        let from_button = match drawn_buttons(&form.values) {
            Some(drawn) => drawn.iter().any(|(id, n)| id == source && n == name),
            None => buttons(&form.workflow, &form.screen).iter().any(|(id, n)| *id == source && *n == name),
        };
        if !from_button {
            return Err(refuse(
                "message.parts",
                code::ACTION_NOT_ALLOWED,
                "no button of the form's current screen sends this action",
            ));
        }
        let mut values = checked_action.context;
        let drawn = values.remove(forms::templates::FORM_VERSION_KEY).and_then(|v| v.as_u64());
        if drawn != Some(u64::from(form.version)) {
            return Err(refuse("message.parts", code::FORM_STALE, "this screen of the form is out of date"));
        }
        if !enabled(&form.workflow) {
            return Err(refuse(
                "message.metadata.formId",
                code::WORKFLOW_DISABLED,
                "this workflow is turned off in the agent's settings",
            ));
        }
        if form.task_id.is_empty() {
            self.note_task(ctx, &form).await;
        }
        let action = Action {
            next_version: form.version + 1,
            form,
            name: checked_action.name,
            values,
            student_id: FormHost::student_id(),
        };
        let handler = Arc::new(handler);
        // the test switch waits inside the work, which runs on whether or not the caller waits
        let late = self.delay.1.swap(false, Ordering::SeqCst).then_some(self.delay.0);
        let run = |redo: bool| {
            let (store, action, handler) = (self.store.clone(), action.clone(), handler.clone());
            let (scope, op, fp) = (scope.clone(), operation_id.clone(), print.clone());
            tokio::task::spawn_blocking(move || {
                if let Some(wait) = late.filter(|_| !redo) {
                    std::thread::sleep(wait);
                }
                store.once(&scope, &op, &fp, |tx| {
                    let step = handler(tx, &action, redo)?;
                    commit(tx, &action, step)
                })
            })
        };
        let mut done = run(false).await.map_err(|_| RpcError::internal())?;
        if matches!(done, Err(HandlerError::Redo)) {
            done = run(true).await.map_err(|_| RpcError::internal())?;
        }
        match done {
            Ok(Once::Done(v) | Once::Replayed(v)) => stored_outcome(v),
            Ok(Once::Reused) => Err(reused()),
            Err(HandlerError::Store(StoreError::Conflict { .. })) => {
                Err(refuse("message.parts", code::FORM_STALE, "the form changed meanwhile"))
            }
            Err(HandlerError::Schema(e)) => {
                tracing::error!("a form screen failed the a2ui schema, not sent: {e}");
                Err(RpcError::internal())
            }
            Err(HandlerError::Store(e)) => Err(store_failed(&e)),
            Err(HandlerError::Redo) => {
                tracing::error!("a form handler asked to run again twice");
                Err(RpcError::internal())
            }
        }
    }

    /// Notes the task the form travels in (the one the Hub refers to), once.
    async fn note_task(&self, ctx: &RequestContext, form: &Form) {
        let referred = || ctx.message.reference_task_ids.as_ref().and_then(|ids| ids.first().cloned());
        if let Some(task) = ctx.task.as_ref().map(|t| t.id.clone()).or_else(referred) {
            let id = form.form_id.clone();
            if let Err(e) = self.store.run(move |s| s.set_form_task(&id, &task)).await {
                tracing::warn!(code = e.code(), "could not note a form's task");
            }
        }
    }
}

/// Writes the form's change and returns the outcome to record (its A2UI schema-checked).
fn commit(tx: &Tx<'_>, action: &Action, step: Step) -> Result<Value, HandlerError> {
    checked(&step.a2ui).map_err(|_| HandlerError::Schema("see the log".into()))?;
    let form = &action.form;
    let version = if step.a2ui.is_empty() { form.version } else { action.next_version };
    // a step that says nothing of the values keeps them, with what the press carried
    let values =
        step.values.unwrap_or_else(|| with_data(&form.values, pressed(&form.values, &action.values)));
    let change = FormChange {
        version,
        state: stored_state(step.state),
        screen: step.screen.unwrap_or_else(|| form.screen.clone()),
        values,
    };
    // a step that changes nothing still takes the form's version: a racing operation fails
    tx.update_form(&form.form_id, form.version, &change)?;
    let outcome = Outcome {
        form_id: form.form_id.clone(),
        workflow: form.workflow.clone(),
        version,
        state: step.state,
        text: step.text,
        a2ui: step.a2ui,
        errors: step.errors,
        receipt: step.receipt,
    };
    serde_json::to_value(&outcome).map_err(|e| HandlerError::Schema(e.to_string()))
}
