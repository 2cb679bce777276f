//! The Library as a specialist: identity, default skills, validation rules, executor.

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use a2a::wire::AgentCard;
use serde_json::json;
use skills::{Rules, Settings, Skill, SkillSet};
use telemetry::Telemetry;

use crate::extract::{Answer, SkillText, answer, render};

/// The Library's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41242;
/// Registry identity.
pub const IDENTITY: &str = "library";
/// An enabled Library skill must have answer content: it answers only from it.
pub const RULES: Rules = Rules { require_content: true };

/// The card for a Library reachable at `base_url`, without skills.
pub fn agent_card(base_url: &str) -> AgentCard {
    specialist::identity_card(
        "Library Agent",
        "Answers questions about the library from its saved information: hours, borrowing, study rooms, printing.",
        base_url,
    )
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
            .collect(),
    }
}

/// The Library in mock mode (a labelled, deterministic line extractor).
#[derive(Clone)]
pub struct Library {
    settings: Settings,
    telemetry: Telemetry,
}

impl Library {
    pub fn new(settings: Settings, telemetry: Telemetry) -> Self {
        Self { settings, telemetry }
    }
}

impl AgentExecutor for Library {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        let question = ctx.text();
        specialist::log_received(&self.telemetry, &ctx);
        // The policy is read once: the whole answer comes from one configuration revision.
        let policy = self.settings.policy();
        let texts: Vec<SkillText<'_>> = policy
            .skills
            .iter()
            .filter(|s| !s.answer_content.trim().is_empty())
            .map(|s| SkillText {
                id: &s.id,
                name: &s.name,
                description: &s.description,
                tags: &s.tags,
                content: &s.answer_content,
            })
            .collect();
        let decided = answer(&question, &texts);
        let text = render(&decided, &texts);
        let (outcome, skill) = match &decided {
            Answer::Lines { skill_id, .. } => ("answered", Some(skill_id.clone())),
            Answer::Which { .. } => ("asked_which", None),
            Answer::NotCovered => ("not_covered", None),
        };
        let reply = Reply::text(text.clone());
        let details = json!({"skill": skill, "revision": policy.revision, "mode": MODE});
        specialist::log_reply(&self.telemetry, &ctx, &reply, outcome, &text, &details);
        Ok(reply)
    }
}

/// How the Library answers: mock only (a labelled, deterministic line extractor).
pub(crate) const MODE: &str = "mock";

/// The Library, ready for [`specialist::serve`].
pub fn agent() -> specialist::Agent<Library, fn(Settings, Telemetry) -> Library> {
    specialist::Agent {
        identity: IDENTITY,
        card: agent_card,
        mode: MODE,
        default_skills: default_skill_set(),
        rules: RULES,
        executor: Library::new,
    }
}
