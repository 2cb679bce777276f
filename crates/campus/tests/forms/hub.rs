//! Forms through the real Hub (docs/forms.md): a scripted A2A specialist, started in this
//! test and registered with the Hub over the Hub link as the Tutor, offers a form and
//! answers actions, counting what reaches it; the Student talks only to the Hub.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a::RpcError;
use a2a::client::A2aClient;
use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext, TaskStore};
use a2a::wire::{AgentSkill, Part, TaskState};
use serde_json::{Value, json};
use student::{ActionOutcome, FormReply, Reply as StudentReply, Student};
use testkit::{Proc, TempDir, free_port, http_json, poll};

const WORKFLOW: &str = "tutoring-request";

type Meta = HashMap<String, Value>;
/// A forwarded action as received: (context, referenceTaskIds, metadata).
type Forwarded = (String, Vec<String>, Meta);
/// A recorded reply: (state, parts, metadata).
type Recorded = (TaskState, Vec<Part>, Value);

/// What the scripted specialist saw and did.
#[derive(Default)]
struct Seen {
    /// Form actions that reached it.
    actions: AtomicUsize,
    /// Actions whose effect ran (a repeated operation id is answered from its record).
    effects: AtomicUsize,
    /// Delay the next action by this many ms (then 0).
    delay_ms: AtomicU64,
    forms: AtomicUsize,
    /// The first chat message's extensions and metadata.
    chat: Mutex<Option<(Vec<String>, Meta)>>,
    /// Per action: (context, referenceTaskIds, metadata).
    forwarded: Mutex<Vec<Forwarded>>,
    /// Operation id → recorded reply (the specialist's own dedupe).
    done: Mutex<HashMap<String, Recorded>>,
}

struct Scripted(Arc<Seen>);

fn surface(form_id: &str, version: u32) -> Vec<Value> {
    let button = |id: &str, name: &str| {
        json!({"id": id, "component": "Button", "child": format!("{id}-label"),
               "action": {"event": {"name": name, "context": {"formVersion": version}}}})
    };
    let label =
        |id: &str, text: &str| json!({"id": format!("{id}-label"), "component": "Text", "text": text});
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": form_id, "catalogId": a2ui::BASIC_CATALOG_ID}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": form_id, "components": [
            {"id": "root", "component": "Column", "children": ["title", "submit", "next"]},
            {"id": "title", "component": "Text", "text": "Tutoring request"},
            button("submit", "submit_tutoring_request"), label("submit", "Submit"),
            button("next", "next"), label("next", "Next"),
        ]}}),
    ]
}

fn campus(form_id: &str, version: u32, state: &str) -> HashMap<String, Value> {
    HashMap::from([(
        "campusForm".to_string(),
        json!({"formId": form_id, "workflow": WORKFLOW, "version": version, "state": state}),
    )])
}

impl AgentExecutor for Scripted {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let seen = &self.0;
        let meta = ctx.message.metadata.clone().unwrap_or_default();
        let Some(action) = a2ui::part::read_parts(&ctx.message.parts).ok().filter(|m| !m.is_empty()) else {
            seen.chat.lock().unwrap().get_or_insert((ctx.extensions.clone(), meta));
            let form_id = format!("form-{}", seen.forms.fetch_add(1, Ordering::SeqCst) + 1);
            let parts =
                vec![Part::text("A tutoring request form."), a2ui::part::data_part(surface(&form_id, 1))];
            return Ok(Reply::Task {
                message_id: a2a::wire::new_message_id(),
                state: TaskState::InputRequired,
                parts,
                artifacts: vec![],
                metadata: Some(campus(&form_id, 1, "open")),
            });
        };
        // on its own task, as a real handler's effect: the Hub giving up (closing the
        // connection) must not cancel it half way
        tokio::spawn(act(self.0.clone(), ctx, meta, action)).await.unwrap()
    }
}

async fn act(
    seen: Arc<Seen>,
    ctx: RequestContext,
    meta: HashMap<String, Value>,
    action: Vec<Value>,
) -> Result<Reply, RpcError> {
    {
        seen.actions.fetch_add(1, Ordering::SeqCst);
        seen.forwarded.lock().unwrap().push((
            ctx.context_id.clone(),
            ctx.message.reference_task_ids.clone().unwrap_or_default(),
            meta.clone(),
        ));
        let delay = seen.delay_ms.swap(0, Ordering::SeqCst);
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        let op = meta["operationId"].as_str().unwrap_or_default().to_string();
        let form_id = meta["formId"].as_str().unwrap_or_default().to_string();
        if let Some((state, parts, m)) = seen.done.lock().unwrap().get(&op).cloned() {
            let metadata = Some(serde_json::from_value(m).unwrap());
            return Ok(Reply::Task {
                message_id: a2a::wire::new_message_id(),
                state,
                parts,
                artifacts: vec![],
                metadata,
            });
        }
        let name = action[0]["action"]["name"].as_str().unwrap_or_default().to_string();
        let (state, parts, metadata) = match name.as_str() {
            "stale" => {
                return Err(RpcError::refusal("message.parts[0]", "form_stale", "the form has changed"));
            }
            "next" => {
                let update = surface(&form_id, 2).split_off(1);
                (TaskState::InputRequired, vec![a2ui::part::data_part(update)], campus(&form_id, 2, "open"))
            }
            "submit_tutoring_request" => {
                let receipt =
                    Part::data(json!({"requestId": "tr-1", "status": "Received — awaiting scheduling"}))
                        .with_media_type("application/vnd.campus.form-receipt+json");
                let delete = json!({"version": "v0.9", "deleteSurface": {"surfaceId": form_id}});
                (
                    TaskState::Completed,
                    vec![Part::text("Received."), receipt, a2ui::part::data_part(vec![delete])],
                    campus(&form_id, 2, "submitted"),
                )
            }
            _ => {
                let errors = Part::data(json!({"errors": [{"field": "email", "code": "invalid_email", "message": "not an email"}]}))
                    .with_media_type("application/vnd.campus.form-errors+json");
                (
                    TaskState::InputRequired,
                    vec![Part::text("Please fix the email."), errors],
                    campus(&form_id, 1, "rejected"),
                )
            }
        };
        seen.effects.fetch_add(1, Ordering::SeqCst);
        seen.done.lock().unwrap().insert(op, (state.clone(), parts.clone(), json!(metadata)));
        Ok(Reply::Task {
            message_id: a2a::wire::new_message_id(),
            state,
            parts,
            artifacts: vec![],
            metadata: Some(metadata),
        })
    }
}

/// The scripted Tutor, served and linked to the Hub on `rt`.
struct Specialist {
    url: String,
    seen: Arc<Seen>,
    tasks: Arc<TaskStore>,
}

fn start_specialist(rt: &tokio::runtime::Runtime, port: u16, hub_url: &str) -> Specialist {
    let url = format!("http://127.0.0.1:{port}");
    let mut card = a2a::basic_card("Tutor Agent", "A scripted tutor that offers a form.", &url);
    card.default_input_modes = vec!["text/plain".into(), a2ui::MEDIA_TYPE.into()];
    card.capabilities.extensions = Some(vec![a2ui::part::agent_extension(&[a2ui::BASIC_CATALOG_ID])]);
    card.skills = vec![AgentSkill {
        id: WORKFLOW.into(),
        name: "Tutoring request".into(),
        description: "Ask for a tutoring session.".into(),
        tags: vec!["tutoring".into()],
        examples: None,
        input_modes: None,
        output_modes: None,
        security_requirements: None,
    }];
    let seen = Arc::new(Seen::default());
    // the scripted Tutor has a key of its own, like every agent: its card and its control
    // messages are signed with it
    let key = Arc::new(keys::AgentKey::from_seed([0x70; 32]));
    let signer: a2a::CardSigner = Arc::new(keys::card_signer(key.clone()));
    // it trusts the Hub as every specialist does, and signs its replies to the Hub's forwards
    let trust = rt.block_on(hublink::HubTrust::open("tutor", key.clone(), None, None)).unwrap();
    let executor = specialist::Checked::new(Scripted(seen.clone()), trust.clone());
    let server = A2aServer::new(executor, CardCell::new(a2a::CardDoc::signed(card, Some(&signer))));
    let tasks = server.tasks().clone();
    let app = server.router();
    let listener = rt.block_on(tokio::net::TcpListener::bind(("127.0.0.1", port))).unwrap();
    rt.spawn(async move { axum::serve(listener, app).await });
    let link = hublink::LinkConfig {
        hub_url: hub_url.into(),
        identity: "tutor".into(),
        endpoint: url.clone(),
        card_url: format!("{url}{}", a2a::CARD_PATH),
        enabled: true,
        mode: None,
        model: None,
        heartbeat_interval: Duration::from_millis(100),
        key,
        trust: Some(trust),
    };
    let (_changes, rx) = tokio::sync::watch::channel(0u64);
    rt.spawn(async move {
        let _keep = _changes;
        hublink::run_link(link, A2aClient::default(), rx, Arc::new(|_, _| {}), std::future::pending()).await
    });
    Specialist { url, seen, tasks }
}

struct Setup {
    rt: tokio::runtime::Runtime,
    hub: Option<Proc>,
    hub_url: String,
    hub_port: u16,
    data: TempDir,
    env: Vec<(String, String)>,
    tutor: Specialist,
}

impl Setup {
    fn start(env: &[(&str, &str)]) -> Setup {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let (hub_port, tutor_port) = (free_port(), free_port());
        let hub_url = format!("http://127.0.0.1:{hub_port}");
        let tutor = start_specialist(&rt, tutor_port, &hub_url);
        let mut env: Vec<(String, String)> =
            env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        env.extend(
            [("ROUTER_MODE", "direct"), ("TUTOR_URL", tutor.url.as_str())]
                .into_iter()
                .chain(testkit::FAST)
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        let mut s = Setup { rt, hub: None, hub_url, hub_port, data: TempDir::new(), env, tutor };
        s.start_hub();
        s
    }

    fn start_hub(&mut self) {
        let port = self.hub_port.to_string();
        let mut env: Vec<(&str, &str)> = vec![("PORT", &port), ("CAMPUS_DATA_DIR", self.data.as_str())];
        env.extend(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        self.hub = Some(Proc::start(&["hub"], &env));
        let url = format!("{}/dev/registry", self.hub_url);
        poll(15, "the scripted tutor to be ready", || {
            let reg = http_json("GET", &url, None).1;
            let ready =
                reg["specialists"].as_array()?.iter().any(|s| s["id"] == "tutor" && s["status"] == "ready");
            ready.then_some(())
        });
    }

    fn student(&self) -> Student {
        Student::new(A2aClient::default(), &self.hub_url)
    }

    fn form(&self, student: &Student, text: &str) -> FormReply {
        let ex = self.rt.block_on(student.ask(text)).expect("ask");
        assert_eq!(ex.task.as_ref().map(|t| t.1.as_str()), Some("TASK_STATE_INPUT_REQUIRED"), "{ex:?}");
        assert_eq!(ex.outcome.as_deref(), Some("form"));
        match ex.reply {
            StudentReply::Form(f) => f,
            other => panic!("not a form: {other:?}"),
        }
    }

    fn act(&self, student: &Student, form_ref: &str, op: &str, name: &str) -> ActionOutcome {
        let action = json!({"name": name, "surfaceId": format!("form-{}", self.form_number(form_ref)),
            "sourceComponentId": "submit", "timestamp": "2026-03-02T10:00:00Z", "context": {"formVersion": 1}});
        self.rt.block_on(student.act(form_ref, op, action))
    }

    /// The scripted form behind a reference, from what the Hub forwarded for it (the
    /// tests open form-1, form-2 … in order and remember which reference is which).
    fn form_number(&self, form_ref: &str) -> usize {
        FORMS.with(|f| f.borrow().iter().position(|r| r == form_ref).map_or(0, |i| i + 1))
    }

    fn actions(&self) -> usize {
        self.tutor.seen.actions.load(Ordering::SeqCst)
    }
}

thread_local! {
    /// References in the order the scripted specialist opened their forms.
    static FORMS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn remember(f: &FormReply) -> String {
    FORMS.with(|forms| forms.borrow_mut().push(f.form_ref.clone()));
    f.form_ref.clone()
}

fn refused(outcome: ActionOutcome) -> String {
    match outcome {
        ActionOutcome::Refused { code, .. } => code,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_form_is_referenced_by_the_hub_checked_on_every_action_and_forwarded_once() {
    let s = Setup::start(&[]);
    let (_, card) = http_json("GET", &format!("{}/.well-known/agent-card.json", s.hub_url), None);
    assert!(card["defaultInputModes"].as_array().unwrap().contains(&json!(a2ui::MEDIA_TYPE)), "{card}");
    assert_eq!(card["capabilities"]["extensions"][0]["uri"], a2ui::EXTENSION_URI);
    assert_eq!(card["capabilities"]["extensions"][0]["required"], false);

    let student = s.student();
    let form = s.form(&student, "I'd like a tutor for limits");
    let first = remember(&form);
    assert!(first.starts_with("hf-"), "{first}");
    assert_eq!((form.workflow.as_str(), form.version, form.messages.len()), (WORKFLOW, 1, 2));
    {
        let chat = s.tutor.seen.chat.lock().unwrap();
        let (extensions, meta) = chat.as_ref().expect("the question reached the tutor");
        assert_eq!(extensions, &vec![a2ui::EXTENSION_URI.to_string()], "the header is passed on");
        assert!(a2ui::part::client_supports(Some(meta), a2ui::BASIC_CATALOG_ID), "{meta:?}");
        assert_eq!(meta["studentId"], student::DEMO_STUDENT_ID);
    }

    // the Hub's checks: nothing reaches the specialist
    assert_eq!(refused(s.act(&student, "hf-forged", "op-0", "next")), "form_unknown");
    let other_conversation = s.student();
    assert_eq!(refused(s.act(&other_conversation, &first, "op-0", "next")), "form_not_yours");
    let other_student = Student::with_student_id(A2aClient::default(), &s.hub_url, "someone-else");
    other_student.set_conversation(student.conversation());
    assert_eq!(refused(s.act(&other_student, &first, "op-0", "next")), "form_not_yours");
    assert_eq!(s.actions(), 0);

    // forwarded once; an identical retry is answered from the Hub's record
    let ActionOutcome::Updated(next) = s.act(&student, &first, "op-1", "next") else { panic!("next screen") };
    assert_eq!((next.version, next.form_ref.as_str()), (2, first.as_str()));
    assert_eq!(s.actions(), 1);
    {
        let forwarded = s.tutor.seen.forwarded.lock().unwrap();
        let (context, refs, meta) = &forwarded[0];
        let task = s.tutor.tasks.get(&refs[0]).expect("the form's task is referenced");
        assert_eq!(&task.context_id, context, "in the context the form was opened in");
        assert_eq!((meta["formId"].as_str(), meta["operationId"].as_str()), (Some("form-1"), Some("op-1")));
        assert!(meta["hubOperationId"].is_string());
    }
    assert!(matches!(s.act(&student, &first, "op-1", "next"), ActionOutcome::Updated(f) if f.version == 2));
    assert_eq!(s.actions(), 1, "the retry was not forwarded");
    assert_eq!(refused(s.act(&student, &first, "op-1", "cancel_form")), "operation_reused");
    assert_eq!(s.actions(), 1);

    // the specialist's refusal is relayed with its code; field errors are a rejection
    assert_eq!(refused(s.act(&student, &first, "op-2", "stale")), "form_stale");
    let ActionOutcome::Rejected(rejected) = s.act(&student, &first, "op-3", "check_email") else { panic!() };
    assert_eq!(rejected.errors[0].code, "invalid_email");

    // a new form supersedes the conversation's open one
    let second = remember(&s.form(&student, "actually, a tutor for derivatives"));
    assert_ne!(second, first);
    assert_eq!(refused(s.act(&student, &first, "op-4", "next")), "form_closed");
    let before = s.actions();
    let ActionOutcome::Submitted(done) = s.act(&student, &second, "op-5", "submit_tutoring_request") else {
        panic!("submitted")
    };
    assert_eq!(done.receipt.as_ref().unwrap()["requestId"], "tr-1");
    assert_eq!(s.actions(), before + 1);
    // the retry of a submit finds its receipt though the form is closed; nothing else passes
    assert!(matches!(
        s.act(&student, &second, "op-5", "submit_tutoring_request"),
        ActionOutcome::Submitted(_)
    ));
    assert_eq!(refused(s.act(&student, &second, "op-6", "next")), "form_closed");
    assert_eq!(s.actions(), before + 1);
    assert_eq!(s.tutor.seen.effects.load(Ordering::SeqCst), 3);

    let events = testkit::feed_events(&s.hub_url);
    for kind in [
        "form_relayed",
        "form_action_forwarded",
        "form_action_refused",
        "form_action_replayed",
        "form_action_result",
    ] {
        assert!(events.iter().any(|e| e["kind"] == kind), "no {kind} event");
    }
}

#[test]
fn identical_actions_in_flight_at_once_are_forwarded_once() {
    let s = Setup::start(&[]);
    let student = s.student();
    let form = remember(&s.form(&student, "a tutor for limits, please"));
    // the first to arrive is held at the specialist a while: the others come meanwhile
    s.tutor.seen.delay_ms.store(400, Ordering::SeqCst);
    let action = json!({"name": "next", "surfaceId": format!("form-{}", s.form_number(&form)),
        "sourceComponentId": "submit", "timestamp": "2026-03-02T10:00:00Z", "context": {"formVersion": 1}});
    let outcomes = s.rt.block_on(async {
        let presses = (0..20).map(|_| student.act(&form, "op-same", action.clone()));
        futures_util::future::join_all(presses).await
    });
    for outcome in &outcomes {
        assert!(matches!(outcome, ActionOutcome::Updated(f) if f.version == 2), "{outcome:?}");
    }
    assert_eq!(s.actions(), 1, "twenty identical actions at once reached the specialist once");
    let events = testkit::feed_events(&s.hub_url);
    let count = |kind: &str| events.iter().filter(|e| e["kind"] == kind).count();
    assert_eq!((count("form_action_forwarded"), count("form_action_replayed")), (1, 19));
}

#[test]
fn no_answer_in_time_is_uncertain_then_reconciled_and_records_survive_a_hub_kill() {
    let mut s = Setup::start(&[("HUB_FORWARD_TIMEOUT_MS", "700")]);
    let student = s.student();
    let form = remember(&s.form(&student, "a tutor please"));
    let bystander = s.student();
    let open = remember(&s.form(&bystander, "a tutor for series"));

    s.tutor.seen.delay_ms.store(1_500, Ordering::SeqCst);
    let outcome = s.act(&student, &form, "op-slow", "submit_tutoring_request");
    assert!(
        matches!(&outcome, ActionOutcome::Uncertain { reason } if reason == "outcome_unknown"),
        "{outcome:?}"
    );
    poll(10, "the slow action's effect", || (s.tutor.seen.effects.load(Ordering::SeqCst) == 1).then_some(()));
    // the reconcile: the same operation, forwarded again; the specialist answers from its record
    let ActionOutcome::Submitted(done) = s.act(&student, &form, "op-slow", "submit_tutoring_request") else {
        panic!("reconciled")
    };
    assert!(done.receipt.is_some());
    assert_eq!((s.actions(), s.tutor.seen.effects.load(Ordering::SeqCst)), (2, 1));

    s.hub.take().unwrap().kill();
    s.start_hub();
    // the operation's result and the references survived
    assert!(matches!(
        s.act(&student, &form, "op-slow", "submit_tutoring_request"),
        ActionOutcome::Submitted(_)
    ));
    assert_eq!(s.actions(), 2, "answered from the hub's record");
    assert_eq!(refused(s.act(&student, &form, "op-late", "next")), "form_closed");
    assert!(matches!(s.act(&bystander, &open, "op-b", "next"), ActionOutcome::Updated(_)));
    assert_eq!(s.actions(), 3);
}

#[test]
fn an_expired_reference_is_refused() {
    let s = Setup::start(&[("HUB_FORM_TTL_MS", "300")]);
    let student = s.student();
    let form = remember(&s.form(&student, "a tutor please"));
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(refused(s.act(&student, &form, "op-1", "next")), "form_expired");
    assert_eq!(s.actions(), 0);
}
