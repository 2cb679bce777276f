//! The form host on its own: a real store in a temporary folder, the tutoring workflow's
//! ids with a tiny handler (a topic is required; submitting records a request).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use a2a::RpcError;
use a2a::server::{Reply, RequestContext};
use a2a::wire::{Message, Role, TaskState};
use forms::action::{CANCEL_FORM, SUBMIT_TUTORING_REQUEST};
use serde_json::{Value, json};
use store::forms::StoredState as StoreState;
use store::{Store, Tx};
use vocab::FormState;

use super::{Action, FormHost, HandlerError, Outcome, Step, code, data_values};

const WORKFLOW: forms::Workflow = forms::Workflow::Tutoring;
const SCREEN: &str = "form";
const CONTEXT: &str = "ctx-1";
const STUDENT: &str = "s-1";

/// A temporary folder, removed when dropped.
struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn host() -> (FormHost, Dir) {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("specialist-forms-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&dir.join("tutor.sqlite3")).unwrap();
    (FormHost::new(store, forms::intent::heuristic(), &|_| None), Dir(dir))
}

fn button(id: &str, name: &str, version: u32) -> [Value; 2] {
    let label = format!("{id}-label");
    [
        json!({"id": label, "component": "Text", "text": name}),
        json!({"id": id, "component": "Button", "child": label,
               "action": {"event": {"name": name, "context": {"formVersion": version}}}}),
    ]
}

/// The form's one screen: a title, send and cancel.
fn screen(surface: &str, version: u32) -> Vec<Value> {
    let mut components = vec![
        json!({"id": "root", "component": "Column", "children": ["title", "submit_btn", "cancel_btn"]}),
        json!({"id": "title", "component": "Text", "text": "Request a tutor"}),
    ];
    components.extend(button("submit_btn", SUBMIT_TUTORING_REQUEST, version));
    components.extend(button("cancel_btn", CANCEL_FORM, version));
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": a2ui::BASIC_CATALOG_ID}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": components}}),
    ]
}

fn buttons(_workflow: &str, screen: &str) -> &'static [(&'static str, &'static str)] {
    match screen {
        SCREEN => &[("submit_btn", SUBMIT_TUTORING_REQUEST), ("cancel_btn", CANCEL_FORM)],
        _ => &[],
    }
}

/// Submit needs a topic and records a request; cancel cancels. Counts its runs.
fn handler(
    runs: Arc<AtomicUsize>,
) -> impl Fn(&Tx<'_>, &Action, bool) -> Result<Step, HandlerError> + Send + Sync + 'static {
    move |tx, action, _redo| {
        runs.fetch_add(1, Ordering::SeqCst);
        if action.name == CANCEL_FORM {
            return Ok(Step::text(FormState::Cancelled, "Cancelled: nothing was sent."));
        }
        let topic = action.values.get("topic").and_then(Value::as_str).unwrap_or_default();
        if topic.is_empty() {
            let mut step = Step::text(FormState::Rejected, "Some fields need fixing.");
            step.errors = vec![json!({"field": "topic", "code": "required", "message": "Say what about."})];
            return Ok(step);
        }
        let values = Value::Object(action.values.clone());
        let stored = tx.insert_tutoring_request(&action.student_id, &action.form.context_id, &values)?;
        let mut step = Step::text(FormState::Submitted, "Received.");
        step.receipt = Some(json!({"requestId": stored.id}));
        Ok(step)
    }
}

async fn offer(host: &FormHost) -> Outcome {
    let values = data_values(json!({"topic": ""}));
    host.offer(CONTEXT, WORKFLOW.id(), SCREEN, values, "Here is the form.".into(), |id| screen(id, 1))
        .await
        .unwrap()
}

/// A press of `button` (sending `name`) on the screen drawn at `version`.
fn press(
    form_id: &str,
    operation_id: &str,
    button: &str,
    name: &str,
    version: u32,
    topic: &str,
) -> RequestContext {
    let action = json!({"version": "v0.9", "action": {
        "name": name, "surfaceId": form_id, "sourceComponentId": button,
        "timestamp": "2026-01-05T10:00:00Z", "context": {"formVersion": version, "topic": topic}}});
    let metadata = HashMap::from([
        ("formId".to_string(), json!(form_id)),
        ("operationId".to_string(), json!(operation_id)),
        ("studentId".to_string(), json!(STUDENT)),
    ]);
    let message = Message {
        message_id: a2a::wire::new_message_id(),
        context_id: Some(CONTEXT.into()),
        task_id: None,
        role: Role::User,
        parts: vec![a2ui::part::data_part(vec![action])],
        metadata: Some(metadata),
        extensions: None,
        reference_task_ids: None,
    };
    RequestContext {
        message,
        context_id: CONTEXT.into(),
        new_context: false,
        task: None,
        extensions: vec![a2ui::EXTENSION_URI.to_string()],
        metadata: None,
    }
}

fn submit(form_id: &str, operation_id: &str, version: u32, topic: &str) -> RequestContext {
    press(form_id, operation_id, "submit_btn", SUBMIT_TUTORING_REQUEST, version, topic)
}

fn cancel(form_id: &str, operation_id: &str, version: u32) -> RequestContext {
    press(form_id, operation_id, "cancel_btn", CANCEL_FORM, version, "")
}

/// A press as the Hub forwards it: its signature vouches for `STUDENT`.
async fn act(host: &FormHost, ctx: &RequestContext, runs: &Arc<AtomicUsize>) -> Result<Outcome, RpcError> {
    let hub = hublink::Caller::Hub { student: Some(STUDENT.into()), forward: "f".into() };
    crate::CALLER.scope(hub, host.act(ctx, &[WORKFLOW], |_| true, buttons, handler(runs.clone()))).await
}

fn refused(result: Result<Outcome, RpcError>) -> String {
    let e = result.expect_err("a refusal");
    e.refusal.clone().unwrap_or_else(|| panic!("a refusal with a code, not {e:?}"))
}

fn stored_state(host: &FormHost, form_id: &str) -> StoreState {
    host.store().form(form_id).unwrap().unwrap().state
}

#[tokio::test]
async fn an_offer_opens_a_form_at_version_one_as_an_input_required_task() {
    let (host, _dir) = host();
    let outcome = offer(&host).await;
    assert_eq!(
        (outcome.state, outcome.version, outcome.workflow.as_str()),
        (FormState::Open, 1, WORKFLOW.id())
    );
    let open = host.open_form_of(CONTEXT, WORKFLOW.id()).await.unwrap().expect("an open form");
    assert_eq!(
        (open.form_id.as_str(), open.state, open.version),
        (outcome.form_id.as_str(), StoreState::Open, 1)
    );
    let Reply::Task { state, metadata, parts, .. } = outcome.reply() else { panic!("a task") };
    assert_eq!(state, TaskState::InputRequired);
    assert_eq!(
        metadata.unwrap()[vocab::form::CAMPUS_FORM_KEY],
        json!({"formId": outcome.form_id, "workflow": WORKFLOW.id(), "version": 1, "state": "open"})
    );
    assert!(parts.iter().any(a2ui::part::is_a2ui_part));
}

#[tokio::test]
async fn an_accepted_submit_is_recorded_once_and_its_retry_gets_the_stored_answer() {
    let (host, _dir) = host();
    let form = offer(&host).await.form_id;
    let runs = Arc::new(AtomicUsize::new(0));
    let first = act(&host, &submit(&form, "op-1", 1, "limits"), &runs).await.unwrap();
    assert_eq!((first.state, first.text.as_str()), (FormState::Submitted, "Received."));
    assert!(first.receipt.is_some());
    assert_eq!(stored_state(&host, &form), StoreState::Submitted);
    let requests = || host.store().tutoring_requests_of(STUDENT, 10).unwrap().len();
    assert_eq!((runs.load(Ordering::SeqCst), requests()), (1, 1));
    // a student id the message merely claims counts for nothing: only the Hub's vouching
    let claimed = submit(&offer(&host).await.form_id, "op-claimed", 1, "limits");
    let elsewhere = Arc::new(AtomicUsize::new(0));
    host.act(&claimed, &[WORKFLOW], |_| true, buttons, handler(elsewhere)).await.unwrap();
    assert_eq!(host.store().tutoring_requests_of(vocab::form::ANONYMOUS_STUDENT, 10).unwrap().len(), 1);
    assert_eq!(requests(), 1, "not recorded as the student it claims to be");

    // the same press again (a retry): the stored answer, no second run, no second request
    let again = act(&host, &submit(&form, "op-1", 1, "limits"), &runs).await.unwrap();
    assert_eq!(again, first);
    assert_eq!((runs.load(Ordering::SeqCst), requests()), (1, 1));

    // the same operation id for another action, or other values: refused
    assert_eq!(refused(act(&host, &cancel(&form, "op-1", 1), &runs).await), code::OPERATION_REUSED);
    let other = submit(&form, "op-1", 1, "series");
    assert_eq!(refused(act(&host, &other, &runs).await), code::OPERATION_REUSED);
    // a new operation on the submitted form: closed
    assert_eq!(refused(act(&host, &cancel(&form, "op-2", 1), &runs).await), code::FORM_CLOSED);
    assert_eq!((runs.load(Ordering::SeqCst), requests()), (1, 1));
}

#[tokio::test]
async fn a_stale_screen_is_refused_and_a_rejection_keeps_the_form_open() {
    let (host, _dir) = host();
    let form = offer(&host).await.form_id;
    let runs = Arc::new(AtomicUsize::new(0));
    for drawn in [0, 2] {
        let stale = submit(&form, &format!("op-stale-{drawn}"), drawn, "limits");
        assert_eq!(refused(act(&host, &stale, &runs).await), code::FORM_STALE);
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0, "a refused action runs no handler");

    let rejected = act(&host, &submit(&form, "op-1", 1, ""), &runs).await.unwrap();
    assert_eq!((rejected.state, rejected.version, rejected.errors.len()), (FormState::Rejected, 1, 1));
    assert_eq!(stored_state(&host, &form), StoreState::Open);
    let Reply::Task { state, parts, .. } = rejected.reply() else { panic!("a task") };
    assert_eq!(state, TaskState::InputRequired);
    assert!(parts.iter().any(|p| p.media_type.as_deref() == Some(vocab::form::FORM_ERRORS_MEDIA_TYPE)));
    // fixed on the same screen (no new screen was drawn: still version 1)
    let sent = act(&host, &submit(&form, "op-2", 1, "limits"), &runs).await.unwrap();
    assert_eq!(sent.state, FormState::Submitted);
}

#[tokio::test]
async fn a_cancel_closes_the_form_and_nothing_more_can_be_done_with_it() {
    let (host, _dir) = host();
    let form = offer(&host).await.form_id;
    let runs = Arc::new(AtomicUsize::new(0));
    let cancelled = act(&host, &cancel(&form, "op-1", 1), &runs).await.unwrap();
    assert_eq!(cancelled.state, FormState::Cancelled);
    let Reply::Task { state, .. } = cancelled.reply() else { panic!("a task") };
    assert_eq!(state, TaskState::Canceled);
    assert_eq!(stored_state(&host, &form), StoreState::Cancelled);
    assert_eq!(host.open_form_of(CONTEXT, WORKFLOW.id()).await.unwrap(), None);
    assert_eq!(refused(act(&host, &submit(&form, "op-2", 1, "limits"), &runs).await), code::FORM_CLOSED);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_action_is_checked_before_any_handler_runs() {
    let (host, _dir) = host();
    let form = offer(&host).await.form_id;
    let runs = Arc::new(AtomicUsize::new(0));
    assert_eq!(refused(act(&host, &submit("fm-none", "op-1", 1, "x"), &runs).await), code::FORM_UNKNOWN);
    assert_eq!(refused(act(&host, &submit(&form, "op 1", 1, "x"), &runs).await), code::OPERATION_ID_INVALID);
    // a known action from a button the screen does not have
    let stray = press(&form, "op-2", "cancel_btn", SUBMIT_TUTORING_REQUEST, 1, "x");
    assert_eq!(refused(act(&host, &stray, &runs).await), code::ACTION_NOT_ALLOWED);
    let pressed = submit(&form, "op-3", 1, "x");
    let off = host.act(&pressed, &[WORKFLOW], |_| false, buttons, handler(runs.clone()));
    assert_eq!(refused(off.await), code::WORKFLOW_DISABLED);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_eq!(stored_state(&host, &form), StoreState::Open);
}
