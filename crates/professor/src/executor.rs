//! The Professor's executor: the skill policy first (no skill enabled → decline), then
//! the offline pack answer or, in live mode, the model's answer that code checks.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{AgentExecutor, Reply, RequestContext};
use serde_json::json;
use skills::Settings;
use specialist::forms::skill_enabled;
use telemetry::Telemetry;

use crate::live::{Asked, LiveConfig};
use crate::mock::{Enabled, MockProfessor};
use crate::pack::{Lesson, seeded_lessons};
use crate::{COURSE_SKILL, MIX_SKILL, Mode, TOPICS_SKILL};

/// The reply when none of the Professor's skills is enabled (checked on every request,
/// so a direct A2A call that bypasses the Hub gets it too).
pub const DECLINE_REPLY: &str =
    "Sorry, the Marketing 101 Professor is not answering questions right now: no skill is enabled.";

/// The Marketing 101 Professor.
#[derive(Clone)]
pub struct Professor {
    settings: Settings,
    telemetry: Telemetry,
    mock: Arc<MockProfessor>,
    live: Option<Arc<LiveConfig>>,
    /// The lessons posted so far (the seeded three).
    lessons: Arc<Vec<Lesson>>,
}

impl Professor {
    pub fn new(settings: Settings, telemetry: Telemetry, live: Option<LiveConfig>) -> Self {
        Professor {
            settings,
            telemetry,
            mock: Arc::new(MockProfessor::default()),
            live: live.map(Arc::new),
            lessons: Arc::new(seeded_lessons()),
        }
    }

    fn mode(&self) -> Mode {
        if self.live.is_some() { Mode::Live } else { Mode::Mock }
    }
}

impl AgentExecutor for Professor {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        specialist::log_received(&self.telemetry, &ctx);
        let policy = self.settings.policy();
        let enabled = Enabled {
            topics: skill_enabled(&policy, TOPICS_SKILL),
            mix: skill_enabled(&policy, MIX_SKILL),
            course: skill_enabled(&policy, COURSE_SKILL),
        };
        let question = ctx.text();
        let details = |extra: serde_json::Value| {
            let mut d = json!({"revision": policy.revision, "mode": self.mode().as_str()});
            if let (Some(d), serde_json::Value::Object(extra)) = (d.as_object_mut(), extra) {
                d.extend(extra);
            }
            d
        };
        if !enabled.topics && !enabled.mix && !enabled.course {
            let reply = Reply::text(DECLINE_REPLY);
            specialist::log_reply(
                &self.telemetry,
                &ctx,
                &reply,
                "declined",
                DECLINE_REPLY,
                &details(json!({})),
            );
            return Ok(reply);
        }
        let offline = || self.mock.answer(&ctx.context_id, &question, &self.lessons, None, enabled);
        let Some(live) = &self.live else {
            let a = offline();
            let reply = Reply::text(a.text.clone());
            specialist::log_reply(
                &self.telemetry,
                &ctx,
                &reply,
                a.outcome,
                &a.text,
                &details(json!({"lesson": a.lesson})),
            );
            return Ok(reply);
        };
        let reading = crate::read::read(&question, &self.lessons);
        let today = forms::in_demo_tz(jiff::Timestamp::now()).date();
        let asked = Asked {
            question: &question,
            lesson: reading.lesson.and_then(|i| self.lessons.get(i)),
            enabled,
            today,
        };
        let a = crate::live::answer(live, asked, || offline().text).await;
        let reply = specialist::live::with_metadata(Reply::text(a.text.clone()), a.metadata.clone());
        specialist::log_reply(&self.telemetry, &ctx, &reply, a.outcome, &a.text, &a.metadata);
        Ok(reply)
    }
}
