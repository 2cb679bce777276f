//! The Library as a specialist: identity, default skills, validation rules, executor.

use std::sync::{Arc, Mutex};

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use a2a::wire::AgentCard;
use bounded::BoundedMap;
use forms::rooms::SlotKey;
use serde_json::json;
use skills::{Rules, Settings, Skill, SkillSet};
use specialist::forms::{FormHost, Front, skill_enabled};
use telemetry::Telemetry;

mod loans;

use crate::booking;
use crate::clock::Clock;

use crate::extract::{Answer, Context, SkillText, answer, render};
use crate::live::LiveConfig;
use crate::loans::Loans;
use crate::renewal;

/// How the Library composes a loan screen (`LIBRARY_UI`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ComposeMode {
    /// Campus's loan blocks, compiled to A2UI (the default).
    #[default]
    Blocks,
    /// A2UI components from 15 of the basic catalog's 18.
    Catalog,
}

impl ComposeMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ComposeMode::Blocks => "blocks",
            ComposeMode::Catalog => "catalog",
        }
    }

    /// Reads `LIBRARY_UI` (default `blocks`).
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<ComposeMode, conf::ConfError> {
        let choices = [ComposeMode::Blocks, ComposeMode::Catalog].map(|m| (m.as_str(), m));
        conf::env_choice("LIBRARY_UI", env, &choices, ComposeMode::default())
    }
}
/// The workflows the Library's forms belong to.
const HOSTED: [forms::Workflow; 2] = [booking::WORKFLOWS[0], renewal::WORKFLOWS[0]];

/// The Library's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41242;
/// Registry identity.
pub const IDENTITY: &str = vocab::agents::LIBRARY;
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
            "book room A for tomorrow 2pm, 2 hours, 4 people",
            "I want to reserve a group study room for Friday",
            "can I book room C thrusday for 3 hours, there's 6 of us",
            "reserv a study room pls",
            "need a room for my group of 5 on monday afternoon",
            "Hi, I'd like to reserve Room B on March 14 from 10 to 12 for a group of three.",
            "grab us a room for our projet meeting next wednesday, 90 min, 4 ppl",
            "book a study room",
            "can you hold room A for me saturday morning, just me and a friend",
            "we need somewhere to practice our presentation tomorrow, 5 of us, 1 hour, can you book it",
            "resrve room b for tmrw 3pm pls",
            "bookin a groop room for 4 ppl tuesday",
            "calc study group needs a room thursday 6-8pm, 7 people",
            "make a reservation for room C on the 22nd, two hours, group of 8",
            "can I get a study room right now for an hour? just 2 of us",
            "quiero reservar una sala de estudio para el viernes, somos 4",
            "reservar sala A manana a las 10, 2 horas, 3 personas",
            "room B book kar do kal 4 baje ke liye, 5 log hai",
            "group study room reserve karna hai sunday ko, 2 ghante ke liye",
            "pa-reserve po ng study room sa Huwebes, 6 kami, 2 hours",
            "pwede mag-book ng room C bukas ng hapon?",
            "đặt phòng học nhóm B cho 4 người vào thứ năm, 2 tiếng",
            "cho em dat phong A ngay mai luc 9h sang",
            "group project due monday, we need a room sunday afternoon for 3 hrs, 4 of us",
            "set up a booking: room A, dec 5, 1pm, 2 hrs, 3 people",
            "is room C free friday at noon? if yes book it for us, we're 6",
            "need to book somewhere for my tutoring group to meet, 3 people wednesday evening",
            "Please book a group study room for two hours tomorrow for five students.",
            "can i reserve a room for next week already? tuesday 1-3, 4 of us",
            "sign us up for a study room after class today, 3 people, one hour",
            "Put me down for room B tomorrow from 2 to 4, there's four of us",
            "Can you lock in room A for my group of 6 this Friday from 1 to 3?",
            "I need a spot for 5 people next Monday 10 to 12 — room C if it's free",
            "Grab us room C on the 14th, 3 people, 90 minutes starting at 4pm",
            "We have a group project meeting Thursday at 6 — can I get room A for 4 of us until 8?",
            "Sign my team up for one of the group spaces on Wednesday at 9am, we'll need it till 11, we're 5",
            "Save room B for me and two classmates the day after tomorrow, 3 to 5pm",
            "Quiero apartar la sala B para el jueves de 4 a 6, somos 4 personas",
            "Kal shaam 5 se 7 baje tak room A chahiye, hum 6 log hain, kar do please",
            "Cho em giữ phòng C sáng thứ Bảy từ 9 đến 11 giờ, nhóm em 4 người ạ",
            "can i get room b for tmrw 1-3, 3 of us, need it for presentaton practice",
            "Our group has a case study to finish by Monday and needs somewhere to meet Sunday 2 to 5 — any of the rooms, 4 people",
        ]
        .map(String::from)
        .to_vec(),
        enabled: true,
        allowed_scope: Vec::new(),
        excluded: vec!["bookings outside the demo's rooms A, B and C".into()],
        answer_content: [
            "Rooms A (up to 4 people), B (up to 6) and C (up to 10) can be booked here with a form.",
            "Book a room as far as 14 days ahead, for 1 or 2 whole hours between 09:00 and 21:00 Pacific Time.",
            "Bookings are held for 15 minutes if you are late; after that the room is released to walk-ins.",
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
    /// `LIBRARY_CLOCK` or the real clock: the answerer's days and the booking form's.
    clock: Clock,
    /// The loan service over the same store and clock.
    loans: Loans,
    /// How loan screens are composed (`LIBRARY_UI`).
    ui: ComposeMode,
    /// What each conversation's last question asked (mock mode), for a follow-up ("and
    /// for laptops?").
    asked: Arc<Mutex<BoundedMap<String, Vec<String>>>>,
}

/// Conversations whose last question's terms are kept.
pub(crate) const CONVERSATIONS: usize = 4_096;

impl Library {
    /// The Library over its store: the form host (its chat read by the model in live mode,
    /// else the heuristic), the slot key kept in the store, and the clock (`LIBRARY_CLOCK`,
    /// read once here; a value that is no RFC 3339 instant stops the agent).
    pub fn new(
        settings: Settings,
        telemetry: Telemetry,
        store: store::Store,
        live: Option<LiveConfig>,
        ui: ComposeMode,
    ) -> Self {
        let env = |k: &str| std::env::var(k).ok();
        let clock = Clock::from_env(&env).unwrap_or_else(|e| panic!("the library's clock: {e}"));
        // opened before the ready line; a store that cannot keep the key cannot book either
        let secret = store
            .secret(booking::SLOT_KEY_SECRET, specialist::random_secret)
            .unwrap_or_else(|e| panic!("the library's slot key: {e}"));
        let key = Arc::new(SlotKey::new(&secret));
        let decider: Arc<dyn forms::intent::Decide> = match &live {
            Some(l) => Arc::new(forms::intent::Live { llm: l.llm.clone(), model: l.model }),
            None => forms::intent::heuristic(),
        };
        let loans = Loans::new(store.clone(), clock);
        // the output schemas are built at start (catalog mode's from the official catalog),
        // not on the first loan question
        match (ui, live.is_some()) {
            (ComposeMode::Catalog, true) => _ = (crate::compose::live::CATALOG.schema)(),
            (ComposeMode::Catalog, false) => _ = crate::compose::catalog::schema(),
            (ComposeMode::Blocks, true) => _ = (crate::compose::live::BLOCKS.schema)(),
            (ComposeMode::Blocks, false) => {}
        }
        let host = FormHost::new(store, decider, &env);
        let asked = Arc::new(Mutex::new(BoundedMap::new(CONVERSATIONS)));
        Self { settings, telemetry, host, key, live: live.map(Arc::new), clock, loans, ui, asked }
    }

    fn mode(&self) -> &'static str {
        if self.live.is_some() { Mode::Live.as_str() } else { Mode::Mock.as_str() }
    }

    /// The form front: the Library's feed, workflow, words and mode.
    fn front(&self) -> Front<'_> {
        Front {
            telemetry: &self.telemetry,
            workflow: forms::Workflow::Booking,
            texts: &booking::TEXTS,
            who: "The Library",
            mode: self.mode(),
        }
    }

    async fn act(&self, ctx: &RequestContext) -> Result<Reply, RpcError> {
        let settings = self.settings.clone();
        // a loan screen is the loan service's, not a skill's: it is on whenever loans are
        let enabled = move |w: &str| w == renewal::WORKFLOW || skill_enabled(&settings.policy(), w);
        let (key, clock) = (self.key.clone(), self.clock);
        let handler = move |tx: &store::Tx<'_>, a: &specialist::forms::Action, redo: bool| {
            if a.form.workflow == renewal::WORKFLOW {
                return renewal::handle(clock.now().date(), tx, a);
            }
            booking::handle(clock, &key, tx, a, redo)
        };
        // booking's table has no loan screen: a loan form's buttons are the ones it holds
        let outcome = self.host.act(ctx, &HOSTED, enabled, booking::buttons, handler).await?;
        Ok(self.host.publish(&self.front(), ctx, &outcome))
    }

    /// A chat message that may get the form, a clarifying question or a decline; `Err`
    /// when it is a question to answer, with the decision's model call if one was made.
    async fn maybe_form(&self, ctx: &RequestContext) -> Result<Reply, Option<llm::Reply<()>>> {
        let policy = self.settings.policy();
        let offer = |choice| booking::offer(self.clock, &self.host, &self.key, ctx, choice);
        self.host.answer_chat(&self.front(), ctx, &policy, offer).await
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
        let a = crate::live::answer(live, &ctx.text(), &self.settings, meter).await;
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
        // the student's own loans: every fact is the loan service's, in either mode
        if let Some(reply) = self.loan_question(&ctx).await? {
            return Ok(reply);
        }
        let intent = match self.maybe_form(&ctx).await {
            Ok(reply) => return Ok(reply),
            Err(intent) => intent,
        };
        if let Some(live) = &self.live {
            return Ok(self.answer_live(&ctx, live, intent).await);
        }
        // The policy is read once: the whole answer comes from one configuration revision.
        let snapshot = self.settings.current();
        let policy = &snapshot.policy;
        let texts = skill_texts(&policy.skills, &snapshot.set);
        let hub_skill = hub_skill(&ctx);
        let last = self.asked.lock().unwrap_or_else(|p| p.into_inner()).get(&ctx.context_id).cloned();
        let context =
            Context { now: self.clock.now(), hub_skill: hub_skill.as_deref(), last: last.as_deref() };
        let decided = answer(&question, &texts, &context);
        // what a library question asked is kept for the next one in this conversation
        if !matches!(decided, Answer::NotCovered) {
            let asked = crate::extract::asked(&question, &texts, last.as_deref());
            self.asked.lock().unwrap_or_else(|p| p.into_inner()).insert(ctx.context_id.clone(), asked);
        }
        let text = render(&decided, &texts);
        let (outcome, skill) = match &decided {
            Answer::Lines { skill_id, .. } => ("answered", Some(skill_id.clone())),
            Answer::Which { .. } => ("asked_which", None),
            Answer::NotCovered => ("not_covered", None),
            Answer::NotSaved { skill_id } => ("not_covered", Some(skill_id.clone())),
        };
        let reply = Reply::text(text.clone());
        let details = json!({
            "skill": skill,
            "hubSkill": hub_skill,
            "revision": policy.revision,
            "mode": self.mode(),
        });
        specialist::log_reply(&self.telemetry, &ctx, &reply, outcome, &text, &details);
        Ok(reply)
    }
}

/// The skill the Hub chose for this question (`hubSkillId`), only from a forward the Hub
/// signed (the signature covers it); a direct caller's claim is not read. Whether it is
/// enabled and has content is the answerer's check (it answers only from the skills given).
fn hub_skill(ctx: &RequestContext) -> Option<String> {
    if !matches!(specialist::caller(), hublink::Caller::Hub { .. }) {
        return None;
    }
    let metadata = ctx.message.metadata.as_ref()?;
    metadata.get(vocab::meta::HUB_SKILL_KEY)?.as_str().map(str::to_string)
}

/// What the answerer reads of `skills` (the policy's, enabled only): those with answer
/// content, the booking workflow's included.
/// Their examples come from the same revision's skill set.
fn skill_texts<'a>(skills: &'a [skills::PolicySkill], set: &'a SkillSet) -> Vec<SkillText<'a>> {
    let examples = |id: &str| set.skills.iter().find(|s| s.id == id).map_or(&[][..], |s| &s.examples[..]);
    skills
        .iter()
        .filter(|s| !s.answer_content.trim().is_empty())
        .map(|s| SkillText {
            id: &s.id,
            name: &s.name,
            description: &s.description,
            tags: &s.tags,
            examples: examples(&s.id),
            content: &s.answer_content,
        })
        .collect()
}

/// How the Library answers chat (`LIBRARY_MODE`): mock, a labelled line extractor; live, a
/// model whose answers code checks ([`crate::live`]).
pub use specialist::live::Mode;

/// The Library, ready for [`specialist::serve`]: live when `live` is given, else mock.
pub fn agent(
    live: Option<LiveConfig>,
    ui: ComposeMode,
) -> specialist::Agent<Library, impl FnOnce(Settings, Telemetry, store::Store) -> Library> {
    let mode = if live.is_some() { Mode::Live } else { Mode::Mock };
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: mode.as_str(),
        model: live.as_ref().map(|l| l.model.id()),
        default_skills: default_skill_set(),
        rules: RULES,
        executor: move |settings, telemetry, store| Library::new(settings, telemetry, store, live, ui),
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
        let set = default_skill_set();
        let policy = skills::Policy::from_set(&set, 1);
        let texts = skill_texts(&policy.skills, &set);
        let context = crate::extract::tests::context(None);
        let Answer::Lines { skill_id, lines, .. } =
            answer("how far ahead can I book a study room?", &texts, &context)
        else {
            panic!("an answer")
        };
        assert_eq!(skill_id, booking::WORKFLOW);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("14 days ahead"), "{lines:?}");
    }

    /// A direct caller's message that claims a skill (no Hub signature checked by the
    /// specialist wrapper) is answered as if it named none: the Library picks on its own.
    #[test]
    fn a_skill_claimed_without_the_hub_s_signature_is_not_read() {
        use a2a::wire::{Message, Part, Role};
        let metadata = std::collections::HashMap::from([(
            vocab::meta::HUB_SKILL_KEY.to_string(),
            serde_json::json!("study-rooms"),
        )]);
        let message = Message {
            message_id: a2a::wire::new_message_id(),
            context_id: Some("c".into()),
            task_id: None,
            role: Role::User,
            parts: vec![Part::text("how many times can I renew a book?")],
            metadata: Some(metadata),
            extensions: None,
            reference_task_ids: None,
        };
        let ctx = RequestContext {
            message,
            context_id: "c".into(),
            new_context: false,
            task: None,
            extensions: Vec::new(),
            metadata: None,
        };
        assert_eq!(specialist::caller().as_str(), "unverified");
        assert_eq!(hub_skill(&ctx), None);
    }
}
