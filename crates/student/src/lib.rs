//! The Student agent as a library. It talks to one agent — the University Hub, or for
//! Part 1 the Tutor directly — and never calls another agent's code: every exchange is
//! an A2A message.
//!
//! [`Student`] keeps its conversation (the A2A context id the first answer assigned) and
//! the agent's card; after a connection failure it re-reads the card on the next
//! question, so it finds the Hub again when the Hub comes back. [`chat`] is the
//! command-line conversation built on it (local checks, attributed answers, the loop).

pub mod chat;
mod config;
pub mod form;
pub mod own;
mod reply;

use std::sync::{Arc, Mutex};

use a2a::client::{A2aClient, AgentHandle, ClientError};
use a2a::wire::{Message, Part, Role, new_message_id};
use serde_json::{Value, json};
use vocab::form::{FORM_REF_KEY, STUDENT_ID_KEY};
use vocab::meta::{OPERATION_ID_KEY, REQUEST_ID_KEY};

pub use config::Config;
pub(crate) use config::load_file;
pub use form::{ActionOutcome, FieldError, FormReply, Reply};
pub use own::{OwnModel, Step};
use reply::read_reply;

/// Where the Hub is unless `HUB_URL` says otherwise.
pub const DEFAULT_HUB_URL: &str = "http://127.0.0.1:41243";
/// Where the Tutor is (Part 1, with `TUTOR_URL`).
pub const DEFAULT_TUTOR_URL: &str = "http://127.0.0.1:41241";
/// The student id this demo sends (there is no sign-in): the Hub's form references
/// belong to it.
pub const DEMO_STUDENT_ID: &str = vocab::loans::DEMO_STUDENT_ID;

/// One question and its answer, with the ids that trace it through every process's logs.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The name of the agent we asked, from its card.
    pub agent: String,
    /// Who actually answered, as the Hub attributed it (`servedBy.name`); `None` when the
    /// agent gave no attribution.
    pub served_by: Option<String>,
    /// The Hub's whole `servedBy` attribution (`{id, name, capability}`), when given.
    pub attribution: Option<Value>,
    /// The Hub's outcome (`route`, `clarify`, `unsupported`, `unavailable`, …), when given.
    pub outcome: Option<String>,
    /// The JSON-RPC endpoint the card named.
    pub endpoint: String,
    pub sent_message_id: String,
    /// The conversation the question was sent in (`None`: a new one, assigned by the answer).
    pub sent_context_id: Option<String>,
    pub request_id: String,
    /// Empty when a task's answer came only in artifacts.
    pub reply_message_id: String,
    pub context_id: String,
    /// The reply's text parts, joined by newlines.
    pub reply_text: String,
    /// When the agent answered with a task: its id and state (`TASK_STATE_…`).
    pub task: Option<(String, String)>,
    /// An answer, or a form (checked by the allowlist), or a form payload refused.
    pub reply: Reply,
    /// What the Student's own model did before sending (`None`: no own model).
    pub step: Option<Step>,
    /// The reply's metadata (a task's, with its status message's over it), when given.
    pub metadata: Option<std::collections::HashMap<String, Value>>,
}

impl Exchange {
    /// The id of who answered (`servedBy.id`: `tutor`, `hub`, …), when the Hub said.
    pub fn served_by_id(&self) -> Option<&str> {
        self.attribution.as_ref().and_then(vocab::ServedBy::id_of)
    }
}

/// What the Student did with a question: sent it, or answered it itself.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "one per question, returned once and never stored")]
pub enum Asked {
    Sent(Exchange),
    /// The Student's own model answered; nothing was sent.
    Local(LocalReply),
}

/// A reply from the Student's own model (a clarifying question, or "not offered").
#[derive(Debug, Clone)]
pub struct LocalReply {
    pub text: String,
    pub step: Step,
}

impl LocalReply {
    /// The text with its honest label: it came from the Student's own model and nothing
    /// was sent to the university.
    pub fn labelled(&self) -> String {
        let what = if self.step.mode == "mock" { "mock, not a model" } else { self.step.model.as_str() };
        format!("{}\n({} ({what}); nothing was sent to the university.)", self.text, own::LABEL)
    }
}

/// What [`Student::prepare`] decided: the text to send (with the step, whose capability
/// is the hint), or the Student's own reply.
#[derive(Debug)]
pub enum Prepared {
    Send { text: String, step: Option<Step> },
    Local(LocalReply),
}

/// A Student talking to the agent at `url`.
pub struct Student {
    client: A2aClient,
    url: String,
    student_id: String,
    agent: Mutex<Option<AgentHandle>>,
    conversation: Mutex<Option<String>>,
    /// The conversation's open form, whose updates are checked against its surface.
    open_form: Mutex<Option<form::OpenForm>>,
    /// Whether this client draws A2UI forms (and says so with every message).
    renders_forms: bool,
    /// The Student's own model (`STUDENT_MODE`), if any.
    own: Option<Arc<OwnModel>>,
    /// The question its clarifying question asked about, until the student answers.
    clarifying: Mutex<Option<String>>,
    /// The student began this conversation anew ([`Student::new_conversation`]): every
    /// message of it says so (`conversationBegunAnew`).
    begun_anew: std::sync::atomic::AtomicBool,
}

impl Student {
    pub fn new(client: A2aClient, url: impl Into<String>) -> Self {
        Self::with_student_id(client, url, DEMO_STUDENT_ID)
    }

    /// A Student that names itself `student_id` to the Hub.
    pub fn with_student_id(client: A2aClient, url: impl Into<String>, student_id: impl Into<String>) -> Self {
        Self {
            client,
            url: url.into(),
            student_id: student_id.into(),
            agent: Mutex::new(None),
            conversation: Mutex::new(None),
            open_form: Mutex::new(None),
            renders_forms: true,
            own: None,
            clarifying: Mutex::new(None),
            begun_anew: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// A Student with its own model (`None`: questions go on as they are).
    pub fn with_own_model(mut self, own: Option<Arc<OwnModel>>) -> Self {
        self.own = own;
        self
    }

    /// A Student that cannot draw forms (the command line): it never claims A2UI, so an
    /// agent answers in text instead of sending a form nobody could fill in.
    pub fn text_only(mut self) -> Self {
        self.renders_forms = false;
        self
    }

    /// Continues the conversation `context_id` (as if its first answer had assigned it).
    pub fn set_conversation(&self, context_id: Option<String>) {
        self.begun_anew.store(false, std::sync::atomic::Ordering::Relaxed);
        *self.conversation.lock().unwrap_or_else(|p| p.into_inner()) = context_id;
        *self.open_form.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.clarifying.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// The base URL of the agent this Student asks.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The conversation id, once the first answer assigned one.
    pub fn conversation(&self) -> Option<String> {
        self.conversation.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Starts a new conversation with the next question, begun anew by the student: its
    /// messages say so, and the demo's loans start again in it (`conversationBegunAnew`).
    pub fn new_conversation(&self) {
        self.set_conversation(None);
        self.begun_anew.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The metadata every message carries: who asks, what the client renders.
    fn metadata(&self) -> std::collections::HashMap<String, Value> {
        let mut metadata =
            if self.renders_forms { a2ui::part::client_metadata() } else { Default::default() };
        metadata.insert(STUDENT_ID_KEY.into(), json!(self.student_id));
        if self.begun_anew.load(std::sync::atomic::Ordering::Relaxed) {
            metadata.insert(vocab::meta::BEGUN_ANEW_KEY.into(), json!(true));
        }
        metadata
    }

    /// The extensions every message activates: A2UI when this client draws forms.
    fn extensions(&self) -> Vec<String> {
        if self.renders_forms { form::extensions() } else { Vec::new() }
    }

    async fn agent(&self) -> Result<AgentHandle, ClientError> {
        if let Some(h) = self.agent.lock().unwrap_or_else(|p| p.into_inner()).clone() {
            return Ok(h);
        }
        let h = self.client.connect(&self.url).await?;
        *self.agent.lock().unwrap_or_else(|p| p.into_inner()) = Some(h.clone());
        Ok(h)
    }

    /// Asks `text` in the current conversation with a fresh request id.
    pub async fn ask(&self, text: &str) -> Result<Exchange, ClientError> {
        self.ask_with_request_id(text, &new_message_id()).await
    }

    /// Asks with a given request id: repeating one asks the Hub for the same answer again
    /// (a retry), not a second time.
    pub async fn ask_with_request_id(&self, text: &str, request_id: &str) -> Result<Exchange, ClientError> {
        self.send_question(text, request_id, None).await
    }

    /// The Student's own model step, then the question: [`Student::prepare`], then
    /// [`Student::send_question`] unless the Student answered itself.
    pub async fn ask_own(&self, text: &str) -> Result<Asked, ClientError> {
        match self.prepare(text).await? {
            Prepared::Local(reply) => Ok(Asked::Local(reply)),
            Prepared::Send { text, step } => {
                Ok(Asked::Sent(self.send_question(&text, &new_message_id(), step).await?))
            }
        }
    }

    /// The Student's own model step (`STUDENT_MODE`) for `text`: without an own model the
    /// text goes on as it is. After a clarifying question, `text` is the student's answer
    /// and goes on after the question it answers; the step may not clarify again. Reads
    /// the Hub's public card (its skills are the capabilities the model may name).
    pub async fn prepare(&self, text: &str) -> Result<Prepared, ClientError> {
        let Some(own) = &self.own else { return Ok(Prepared::Send { text: text.into(), step: None }) };
        let agent = self.agent().await?;
        let asked_about = self.clarifying.lock().unwrap_or_else(|p| p.into_inner()).take();
        let (text, may_clarify) = match asked_about {
            Some(q) => {
                let both = format!("{q}\n{text}");
                let fits = both.chars().count() <= chat::MAX_QUESTION_CHARS;
                (if fits { both } else { text.to_string() }, false)
            }
            None => (text.to_string(), true),
        };
        let (decision, step) = own.decide(&text, &agent.card.skills, may_clarify).await;
        Ok(match decision {
            own::Decision::Send => Prepared::Send { text, step: Some(step) },
            own::Decision::Clarify(question) => {
                *self.clarifying.lock().unwrap_or_else(|p| p.into_inner()) = Some(text);
                Prepared::Local(LocalReply { text: question, step })
            }
            own::Decision::NotOffered(reply) => Prepared::Local(LocalReply { text: reply, step }),
        })
    }

    /// Sends `text` with `request_id`; the step's capability, if any, goes with it as a
    /// hint (`metadata.studentHint: {capability, mode}`), which the Hub may use or ignore.
    pub async fn send_question(
        &self,
        text: &str,
        request_id: &str,
        step: Option<Step>,
    ) -> Result<Exchange, ClientError> {
        self.send(text, request_id, step, None).await
    }

    /// Sends the question a follow-up button of the form `form_ref` asks (its words, as
    /// the student's): the Hub takes it to the specialist whose form it is
    /// (`metadata.followUpOf`).
    pub async fn send_follow_up(
        &self,
        text: &str,
        request_id: &str,
        form_ref: &str,
    ) -> Result<Exchange, ClientError> {
        self.send(text, request_id, None, Some(form_ref)).await
    }

    async fn send(
        &self,
        text: &str,
        request_id: &str,
        step: Option<Step>,
        follow_up_of: Option<&str>,
    ) -> Result<Exchange, ClientError> {
        let agent = self.agent().await?;
        let context_id = self.conversation();
        let message = Message {
            message_id: new_message_id(),
            context_id: context_id.clone(),
            task_id: None,
            role: Role::User,
            parts: vec![Part::text(text).with_media_type("text/plain")],
            metadata: Some({
                let mut m = self.metadata();
                m.insert(REQUEST_ID_KEY.into(), json!(request_id));
                if let Some(step) = &step
                    && let Some(capability) = &step.capability
                {
                    let hint =
                        vocab::meta::StudentHint { capability: capability.clone(), mode: step.mode.into() };
                    m.insert(vocab::meta::STUDENT_HINT_KEY.into(), json!(hint));
                }
                if let Some(form_ref) = follow_up_of {
                    m.insert(vocab::meta::FOLLOW_UP_OF_KEY.into(), json!(form_ref));
                }
                m
            }),
            extensions: None,
            reference_task_ids: None,
        };
        let sent_message_id = message.message_id.clone();
        tracing::info!(message_id = %sent_message_id, request_id, context_id = context_id.as_deref().unwrap_or("(new)"), agent = %agent.card.name, "sending message");
        let response = match agent.send_message(message, &self.extensions()).await {
            Ok(r) => r,
            Err(e) => {
                if !matches!(e, ClientError::Rpc { .. }) {
                    // Re-read the card next time: the agent may have restarted.
                    *self.agent.lock().unwrap_or_else(|p| p.into_inner()) = None;
                }
                return Err(e);
            }
        };
        let mut exchange = read_reply(&agent, response, sent_message_id, request_id.to_string())?;
        exchange.sent_context_id = context_id;
        exchange.step = step;
        self.take_reply(&mut exchange);
        Ok(exchange)
    }

    /// Presses a form's button: sends `action` (the A2UI action object: `name`,
    /// `surfaceId`, `sourceComponentId`, `timestamp`, `context`) on the form `form_ref` with
    /// `operation_id` (made once per press; a retry or reconcile sends the same id with the
    /// same action). Checked here first: the client schema, and the surface of the form
    /// when this Student holds it open (`a2ui_…` refusals; nothing is sent). Never retries.
    pub async fn act(&self, form_ref: &str, operation_id: &str, action: Value) -> ActionOutcome {
        let message = json!({"version": a2ui::VERSION, "action": action});
        if let Err(e) = a2ui::validate_client_message(&message) {
            return ActionOutcome::Refused { code: "a2ui_schema_invalid".into(), message: e.to_string() };
        }
        let surface = {
            let open = self.open_form.lock().unwrap_or_else(|p| p.into_inner());
            form::surface_of(&open, form_ref).map(str::to_string)
        };
        if let Some(surface) = surface
            && message["action"]["surfaceId"].as_str() != Some(surface.as_str())
        {
            let code = a2ui::RefusalCode::WrongSurface.as_str().into();
            return ActionOutcome::Refused {
                code,
                message: "/action/surfaceId names another surface".into(),
            };
        }
        let agent = match self.agent().await {
            Ok(a) => a,
            Err(e) => return ActionOutcome::NotDelivered { reason: e.to_string() },
        };
        let mut metadata = self.metadata();
        metadata.insert(FORM_REF_KEY.into(), json!(form_ref));
        metadata.insert(OPERATION_ID_KEY.into(), json!(operation_id));
        let message = Message {
            message_id: new_message_id(),
            context_id: self.conversation(),
            task_id: None,
            role: Role::User,
            parts: vec![a2ui::part::data_part(vec![message])],
            metadata: Some(metadata),
            extensions: None,
            reference_task_ids: None,
        };
        let sent_message_id = message.message_id.clone();
        tracing::info!(message_id = %sent_message_id, operation_id, "sending a form action");
        let response = match agent.send_message(message, &self.extensions()).await {
            Ok(r) => r,
            Err(ClientError::Rpc { code, message, reason }) => {
                let code = reason.unwrap_or_else(|| format!("error_{code}"));
                return ActionOutcome::Refused { code, message };
            }
            Err(e) => {
                *self.agent.lock().unwrap_or_else(|p| p.into_inner()) = None;
                return if e.nothing_sent() {
                    ActionOutcome::NotDelivered { reason: e.to_string() }
                } else {
                    ActionOutcome::Uncertain { reason: e.to_string() }
                };
            }
        };
        match read_reply(&agent, response, sent_message_id, operation_id.to_string()) {
            Ok(mut exchange) => {
                self.take_reply(&mut exchange);
                form::outcome_of(exchange.outcome.as_deref(), exchange.reply, &exchange.reply_text)
            }
            Err(e) => ActionOutcome::Uncertain { reason: e.to_string() },
        }
    }

    /// Keeps the conversation the reply names and checks a form it carries against the
    /// open one.
    fn take_reply(&self, exchange: &mut Exchange) {
        let mut conversation = self.conversation.lock().unwrap_or_else(|p| p.into_inner());
        let mut open = self.open_form.lock().unwrap_or_else(|p| p.into_inner());
        if conversation.as_deref() != Some(exchange.context_id.as_str()) {
            *open = None;
        }
        *conversation = Some(exchange.context_id.clone());
        let reply = std::mem::replace(&mut exchange.reply, Reply::Answer);
        exchange.reply = form::check(reply, &mut open);
    }
}

/// One question to the agent at `base_url`, continuing `context_id` when given.
pub async fn ask(
    client: &A2aClient,
    base_url: &str,
    text: &str,
    context_id: Option<String>,
) -> Result<Exchange, ClientError> {
    let student = Student::new(client.clone(), base_url);
    student.set_conversation(context_id);
    student.ask(text).await
}
