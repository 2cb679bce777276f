//! The Library as a specialist: identity, default skills, validation rules, executor.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use a2a::wire::AgentCard;
use forms::rooms::SlotKey;
use serde_json::json;
use skills::{Rules, Settings, Skill, SkillSet};
use specialist::forms::{Chat, FormHost, Outcome, skill_enabled};
use telemetry::Telemetry;

use crate::booking;
use crate::live::LiveConfig;

use crate::extract::{Answer, SkillText, answer, render};

/// The Library's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41242;
/// Registry identity.
pub const IDENTITY: &str = "library";
/// An enabled Library skill must have answer content: it answers only from it.
pub const RULES: Rules = Rules { require_content: true };

/// The card for a Library reachable at `base_url`, without skills.
pub fn agent_card(base_url: &str) -> AgentCard {
    specialist::forms::hosting_forms(specialist::identity_card(
        "Library Agent",
        "Answers questions about the library from its saved information: hours, borrowing, study rooms, printing.",
        base_url,
    ))
}

/// The built-in skill set, from the fixtures.
pub fn default_skill_set() -> SkillSet {
    SkillSet {
        skills: crate::default_skills()
            .into_iter()
            .map(|d| Skill {
                id: d.id,
                name: d.name,
                description: d.description,
                tags: d.tags,
                examples: d.examples,
                enabled: true,
                allowed_scope: Vec::new(),
                excluded: vec!["transactions (renewals, bookings, payments)".into(), "computed dates".into()],
                answer_content: d.content,
            })
            .chain([booking_skill()])
            .collect(),
    }
}

/// The study-room-booking workflow as a skill: disabled, it is neither offered nor accepted.
fn booking_skill() -> Skill {
    Skill {
        id: booking::WORKFLOW.into(),
        name: "Study room booking".into(),
        description: "Books a group study room (demo bookings) through a form: date, room, duration and group size, then a free time, a review and a confirmation.".into(),
        tags: ["book a room", "reserve a room", "room booking", "room free"].map(String::from).to_vec(),
        examples: [
            "Book room C for my project group on Friday",
            "Reserve a study room for 3 of us tomorrow at 4pm",
            "Is room A free next Tuesday for two hours?",
            "I want to book a group room for six people this afternoon",
            "Hold a study room for my team on the 9th",
            "Can you book us a room for an hour after lunch?",
        ]
        .map(String::from)
        .to_vec(),
        enabled: true,
        allowed_scope: Vec::new(),
        excluded: vec!["bookings outside the demo's rooms A, B and C".into()],
        answer_content: [
            "Rooms A (up to 4 people), B (up to 6) and C (up to 10) can be booked here with a form.",
            "Book a room as far as 14 days ahead, for 1 or 2 whole hours between 09:00 and 21:00 Pacific Time.",
            "These are demo bookings.",
        ]
        .join("\n"),
    }
}

/// The Library: in mock mode a labelled, deterministic line extractor; in live mode a
/// model whose answers code checks ([`crate::live`]).
#[derive(Clone)]
pub struct Library {
    settings: Settings,
    telemetry: Telemetry,
    host: FormHost,
    key: Arc<SlotKey>,
    live: Option<Arc<LiveConfig>>,
}

impl Library {
    /// The Library over its store: the form host (its chat read by the model in live mode,
    /// else the heuristic), and the slot key kept in the store.
    pub fn new(
        settings: Settings,
        telemetry: Telemetry,
        store: store::Store,
        live: Option<LiveConfig>,
    ) -> Self {
        let env = |k: &str| std::env::var(k).ok();
        // opened before the ready line; a store that cannot keep the key cannot book either
        let secret = store
            .secret(booking::SLOT_KEY_SECRET, specialist::random_secret)
            .unwrap_or_else(|e| panic!("the library's slot key: {e}"));
        let key = Arc::new(SlotKey::new(&secret));
        let decider: Arc<dyn forms::intent::Decide> = match &live {
            Some(l) => Arc::new(forms::intent::Live { llm: l.llm.clone(), model: l.model }),
            None => forms::intent::heuristic(),
        };
        let host = FormHost::new(store, decider, &env);
        Self { settings, telemetry, host, key, live: live.map(Arc::new) }
    }

    fn mode(&self) -> &'static str {
        if self.live.is_some() { Mode::Live.as_str() } else { Mode::Mock.as_str() }
    }

    fn publish(&self, ctx: &RequestContext, outcome: &Outcome) -> Reply {
        let reply = outcome.reply();
        let details = json!({"formId": outcome.form_id, "workflow": outcome.workflow,
                             "version": outcome.version, "mode": self.mode()});
        let state = serde_json::to_value(outcome.state).ok();
        let state = state.as_ref().and_then(|s| s.as_str()).unwrap_or("form");
        specialist::log_reply(
            &self.telemetry,
            ctx,
            &reply,
            &format!("form_{state}"),
            &outcome.text,
            &details,
        );
        reply
    }

    async fn act(&self, ctx: &RequestContext) -> Result<Reply, RpcError> {
        let settings = self.settings.clone();
        let enabled = move |w: &str| skill_enabled(&settings.policy(), w);
        let key = self.key.clone();
        let handler = move |tx: &store::Tx<'_>, a: &specialist::forms::Action, redo: bool| {
            booking::handle(&key, tx, a, redo)
        };
        let outcome = self.host.act(ctx, &booking::WORKFLOWS, enabled, booking::buttons, handler).await?;
        Ok(self.publish(ctx, &outcome))
    }

    /// A chat message that may get the form, a clarifying question or a decline; `Err`
    /// when it is a question to answer, with the decision's model call if one was made.
    async fn maybe_form(&self, ctx: &RequestContext) -> Result<Reply, Option<llm::Reply<()>>> {
        let policy = self.settings.policy();
        let read = self.host.read_chat(ctx, forms::Workflow::Booking, &policy, &booking::TEXTS).await;
        let meta = read.metadata();
        let say = |text: &str, outcome: &str| {
            let reply = specialist::live::with_metadata(specialist::forms::chat_reply(text), meta.clone());
            specialist::log_reply(&self.telemetry, ctx, &reply, outcome, text, &meta);
            reply
        };
        let choice = match read.chat {
            Chat::Question => return Err(read.call),
            Chat::Say(text, outcome) => return Ok(say(text, outcome)),
            Chat::Failed(e) => {
                return Ok(say(&specialist::live::error_text("The Library", &e), "model_error"));
            }
            Chat::Offer(choice) => choice,
        };
        Ok(match booking::offer(&self.host, &self.key, ctx, choice).await {
            Ok(outcome) => specialist::live::with_metadata(self.publish(ctx, &outcome), meta),
            Err(text) => say(&text, "form_asked_continue"),
        })
    }

    /// A question in live mode: the model's answer, released only as [`crate::live`] says.
    async fn answer_live(
        &self,
        ctx: &RequestContext,
        live: &LiveConfig,
        intent: Option<llm::Reply<()>>,
    ) -> Reply {
        let mut meter = specialist::live::Meter::new(live.model);
        if let Some(call) = &intent {
            meter.ok(forms::intent::PURPOSE, call);
        }
        let a = live.answer(&ctx.text(), &self.settings, meter).await;
        let reply = specialist::live::with_metadata(Reply::text(a.text.clone()), a.metadata.clone());
        specialist::log_reply(&self.telemetry, ctx, &reply, a.outcome, &a.text, &a.metadata);
        reply
    }
}

impl AgentExecutor for Library {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let question = ctx.text();
        specialist::log_received(&self.telemetry, &ctx);
        if FormHost::is_action(&ctx) {
            return self.act(&ctx).await;
        }
        let intent = match self.maybe_form(&ctx).await {
            Ok(reply) => return Ok(reply),
            Err(intent) => intent,
        };
        if let Some(live) = &self.live {
            return Ok(self.answer_live(&ctx, live, intent).await);
        }
        // The policy is read once: the whole answer comes from one configuration revision.
        let policy = self.settings.policy();
        let texts = skill_texts(&policy.skills);
        let decided = answer(&question, &texts);
        let text = render(&decided, &texts);
        let (outcome, skill) = match &decided {
            Answer::Lines { skill_id, .. } => ("answered", Some(skill_id.clone())),
            Answer::Which { .. } => ("asked_which", None),
            Answer::NotCovered => ("not_covered", None),
        };
        let reply = Reply::text(text.clone());
        let details = json!({"skill": skill, "revision": policy.revision, "mode": self.mode()});
        specialist::log_reply(&self.telemetry, &ctx, &reply, outcome, &text, &details);
        Ok(reply)
    }
}

/// What the answerer reads of `skills`: those with answer content.
fn skill_texts(skills: &[skills::PolicySkill]) -> Vec<SkillText<'_>> {
    skills
        .iter()
        .filter(|s| !s.answer_content.trim().is_empty())
        .map(|s| SkillText {
            id: &s.id,
            name: &s.name,
            description: &s.description,
            tags: &s.tags,
            content: &s.answer_content,
        })
        .collect()
}

/// How the Library answers chat (`LIBRARY_MODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A labelled, deterministic line extractor; the heuristic reads form intent.
    #[default]
    Mock,
    /// A model whose answers code checks ([`crate::live`]); the model reads form intent.
    Live,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Mock => "mock",
            Mode::Live => "live",
        }
    }

    /// Reads `LIBRARY_MODE` (default `mock`).
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Mode, conf::ConfError> {
        match env("LIBRARY_MODE").as_deref().map(str::trim) {
            None | Some("") | Some("mock") => Ok(Mode::Mock),
            Some("live") => Ok(Mode::Live),
            Some(_) => Err(conf::ConfError::new("LIBRARY_MODE", "", "must be mock or live")),
        }
    }
}

/// The Library, ready for [`specialist::serve`]: live when `live` is given, else mock.
pub fn agent(
    live: Option<LiveConfig>,
) -> specialist::Agent<Library, impl FnOnce(Settings, Telemetry, store::Store) -> Library> {
    let mode = if live.is_some() { Mode::Live } else { Mode::Mock };
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: mode.as_str(),
        model: live.as_ref().map(|l| l.model.id()),
        default_skills: default_skill_set(),
        rules: RULES,
        executor: move |settings, telemetry, store| Library::new(settings, telemetry, store, live),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answer, answer};

    /// A rules question about booking is answered from the booking skill's own lines, not
    /// asked back ("Do you mean Study rooms or Study room booking?").
    #[test]
    fn a_booking_rules_question_is_answered_by_the_booking_skill() {
        let policy = skills::Policy::from_set(&default_skill_set(), 1);
        let texts = skill_texts(&policy.skills);
        let Answer::Lines { skill_id, lines } = answer("how far ahead can I book a study room?", &texts)
        else {
            panic!("an answer")
        };
        assert_eq!(skill_id, booking::WORKFLOW);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("14 days ahead"), "{lines:?}");
    }
}
