//! The Library's answers about the asker's own loans: which questions are, the words for
//! a client without forms, and a composed screen (either mode, offline or live) with the
//! generated-UI inspector's record of how it was composed and checked.

use std::sync::Arc;

use a2a::RpcError;
use a2a::server::{Reply, RequestContext};
use serde_json::{Map, Value, json};
use specialist::forms::FormHost;

use super::{ComposeMode, IDENTITY, Library};
use crate::compose::live::LiveComposer;
use crate::compose::{
    self, Composed, Facts, MAX_REPAIRS, Step, Target, Written, catalog, compose_checked, compose_offline,
    live, mock, unrepaired_text,
};
use crate::loans::{LoanFacts, NOT_VOUCHED, OFFLINE_LABEL, RENEW_ON_THE_PAGE, about_own_loans, overview};
use crate::renewal;

/// A live composition's running state: the conversation with the model, its calls, and
/// the provider failure that ended it, if one did.
struct LiveState {
    conversation: Vec<llm::Message>,
    meter: specialist::live::Meter,
    failed: Option<llm::LlmError>,
}

impl Library {
    /// A question about the asker's own loans ("when are my books due?", or one asking to
    /// renew a loan it names by title): `None` when it is none. The loan service's facts
    /// for the student the Hub vouched for on this very forward and no one else, opened
    /// once: a screen for a client that draws one, words for any other.
    pub(super) async fn loan_question(&self, ctx: &RequestContext) -> Result<Option<Reply>, RpcError> {
        let question = ctx.text();
        let own = about_own_loans(&question);
        if !own && !mock::asks_to_renew(&question) {
            return Ok(None);
        }
        let caller = specialist::caller();
        let Some(student) = caller.student().map(str::to_string) else {
            if !own {
                return Ok(None);
            }
            let text = NOT_VOUCHED.to_string();
            let reply = Reply::text(text.clone());
            let details = json!({ "loans": null, "caller": caller.as_str(), "mode": self.mode() });
            specialist::log_reply(&self.telemetry, ctx, &reply, "not_vouched", &text, &details);
            return Ok(Some(reply));
        };
        // only the Hub's signed forward (the caller is the Hub) says the student began anew
        let begun_anew = ctx
            .message
            .metadata
            .as_ref()
            .and_then(|m| m.get(vocab::meta::BEGUN_ANEW_KEY))
            .is_some_and(|v| v == &Value::Bool(true))
            .then(|| ctx.context_id.clone());
        let loans = self.loans.clone();
        let list = self.host.store().run(move |_| loans.open(&student, begun_anew.as_deref())).await;
        let list = match list {
            Ok(list) => list,
            // a renewal question the service cannot read for goes on as a question
            Err(_) if !own => return Ok(None),
            Err(e) => return Err(specialist::forms::store_failed(&e)),
        };
        if !own && !mock::asks_to_renew_one_of(&list, &question) {
            return Ok(None);
        }
        if FormHost::client_renders(ctx) && !list.is_empty() {
            return self.answer_with_screen(ctx, &list).await.map(Some);
        }
        // words: the loans the question names (all when none), and where to renew
        let named: Vec<LoanFacts> = mock::named_in(&list, &question).into_iter().cloned().collect();
        let shown = if named.is_empty() { &list[..] } else { &named[..] };
        let mut text = overview(shown, self.clock.now().date(), self.live.is_some());
        if mock::asks_to_renew(&question) && shown.iter().any(|l| l.renewable.is_ok()) {
            text.push_str(RENEW_ON_THE_PAGE);
        }
        let reply = Reply::text(text.clone());
        let details = json!({ "loans": list.len(), "caller": caller.as_str(), "mode": self.mode() });
        specialist::log_reply(&self.telemetry, ctx, &reply, "answered", &text, &details);
        Ok(Some(reply))
    }

    /// A loan question answered with a composition through the compiler and every check
    /// ([`crate::compose`]), by the model in live mode and by the offline rules otherwise:
    /// words, one question, or a screen opened as the conversation's loan form (replacing
    /// the open one); what no composition passes is said in words, by rule. The feed gets
    /// the screen's structure (its words redacted), each attempt's errors, the repairs and
    /// the facts it rests on.
    async fn answer_with_screen(&self, ctx: &RequestContext, list: &[LoanFacts]) -> Result<Reply, RpcError> {
        match self.ui {
            ComposeMode::Blocks => self.answer_composed(ctx, list, &live::BLOCKS, compose_offline).await,
            ComposeMode::Catalog => {
                let offline = |facts: &Facts<'_>| catalog::from_blocks(&compose_offline(facts), facts);
                self.answer_composed(ctx, list, &live::CATALOG, offline).await
            }
        }
    }

    /// [`Library::answer_with_screen`] in one composition mode: `mode` for the model,
    /// `offline` the rules without one.
    async fn answer_composed<W>(
        &self,
        ctx: &RequestContext,
        list: &[LoanFacts],
        mode: &'static live::Mode<W>,
        offline: impl Fn(&Facts<'_>) -> W,
    ) -> Result<Reply, RpcError>
    where
        W: Written + Send + 'static,
    {
        let question = ctx.text();
        let today = self.clock.now().date();
        let facts = Facts { loans: list, question: &question, today };
        let target = Target { surface_id: "pending", version: 1 };
        let (checked, live) = match &self.live {
            None => {
                let offline = |_| std::future::ready(Step::Composed(offline(&facts)));
                (compose_checked(&facts, target, offline, MAX_REPAIRS).await, None)
            }
            Some(live) => {
                let composer = LiveComposer { llm: live.llm.clone(), model: live.model };
                let state = Arc::new(tokio::sync::Mutex::new(LiveState {
                    conversation: composer.first(&facts),
                    meter: specialist::live::Meter::new(live.model),
                    failed: None,
                }));
                let attempt = |errors: Vec<_>| {
                    let (composer, state) = (composer.clone(), state.clone());
                    async move {
                        let mut s = state.lock().await;
                        let a = composer.attempt(mode, &mut s.conversation, &errors).await;
                        match &a.call {
                            Ok(reply) => s.meter.ok(compose::live::PURPOSE, reply),
                            Err(e) => {
                                s.meter.failed(compose::live::PURPOSE, e);
                                s.failed = Some(e.clone()).filter(|_| matches!(a.step, Step::Stop));
                            }
                        }
                        a.step
                    }
                };
                let checked = compose_checked(&facts, target, attempt, MAX_REPAIRS).await;
                let s = state.lock().await;
                (checked, Some((s.meter.clone(), s.failed.clone())))
            }
        };
        let composer = if live.is_some() { "live" } else { "offline" };
        let mut details = json!({
            "loans": list.len(), "caller": specialist::caller().as_str(), "mode": self.mode(),
            "inspector": inspector(composer, self.ui, &checked, list),
        });
        let mut metadata = Map::new();
        if let Some((meter, failed)) = &live {
            metadata = match failed {
                Some(e) => specialist::live::error_metadata(meter, e),
                None => meter.metadata(),
            };
        }
        let (text, outcome) = match checked.outcome {
            Ok((written, Composed::Screen(drawn))) => {
                let title = written.title().unwrap_or("Your loans").to_string();
                let held = renewal::Held::of_surface(&drawn);
                let text = match live {
                    None => format!("{OFFLINE_LABEL}: {title}."),
                    Some(_) => format!("{title}."),
                };
                // one canvas: the conversation's open loan screen is drawn anew in place (its
                // earlier buttons are stale from now on); none open, a new one
                let open = self.host.open_form_of(&ctx.context_id, renewal::WORKFLOW).await?;
                let outcome = match open {
                    Some(form) => {
                        let build = |form: &store::forms::Form, version: u32| {
                            written.draw(&facts, &form.form_id, version).unwrap_or_default()
                        };
                        self.host.redraw(form, renewal::SCREEN, held.value(), text, build).await?
                    }
                    None => {
                        let build = |id: &str| written.draw(&facts, id, 1).unwrap_or_default();
                        let (workflow, screen) = (renewal::WORKFLOW, renewal::SCREEN);
                        self.host.offer(&ctx.context_id, workflow, screen, held.value(), text, build).await?
                    }
                };
                let surface = json!({"surfaceId": outcome.form_id, "revision": outcome.version,
                                     "agent": IDENTITY, "formId": outcome.form_id});
                details["inspector"]["surface"] = surface;
                let structure = Value::Array(a2ui::inspect::structure(&outcome.a2ui));
                // a string, so the Hub's relay keeps its shape; its words are redacted
                details["inspector"]["structure"] = json!(structure.to_string());
                // the words too, under a content key: the feed and the Hub's relay redact it
                // unless HUB_TELEMETRY_SHOW_CONTENT=1
                details["inspector"]["content"] = json!(Value::Array(outcome.a2ui.clone()).to_string());
                let extra = details.as_object().cloned().unwrap_or_default();
                let reply = self.host.publish_with(&self.front(), ctx, &outcome, extra);
                return Ok(specialist::live::with_metadata(reply, metadata));
            }
            Ok((_, Composed::Answer(text))) => (text, "answered"),
            Ok((_, Composed::Ask(question))) => (question, "asked_which"),
            Err(errors) => {
                let codes: Vec<&str> = errors.iter().map(|e| e.code()).collect();
                tracing::warn!(?codes, "no loan composition passed the checks; answered in words");
                match live.as_ref().and_then(|(_, failed)| failed.as_ref()) {
                    // the model could not be asked: the facts in words, by rule
                    Some(_) => (crate::loans::overview(list, today, true), "model_error"),
                    None => (unrepaired_text(list, today), "not_composed"),
                }
            }
        };
        let reply = specialist::live::with_metadata(Reply::text(text.clone()), metadata);
        specialist::log_reply(&self.telemetry, ctx, &reply, outcome, &text, &details);
        Ok(reply)
    }
}

/// The generated-UI inspector's record of one loan answer: who composed it, the catalog
/// and version, each attempt's errors (code, path, our words), the repairs, the decision
/// that passed and the loan service's facts it rests on (ids, dates, versions; no title).
fn inspector<W: Written>(
    composer: &str,
    ui: ComposeMode,
    checked: &crate::compose::Checked<W>,
    loans: &[LoanFacts],
) -> Value {
    let attempts: Vec<Value> = checked
        .attempts
        .iter()
        .enumerate()
        .map(|(i, errors)| {
            let errors: Vec<Value> = errors
                .iter()
                .map(|e| json!({"code": e.code(), "path": e.path, "message": e.message}))
                .collect();
            json!({"attempt": i + 1, "passed": errors.is_empty(), "errors": errors})
        })
        .collect();
    let decision = match &checked.outcome {
        Ok((written, _)) => written.decision(),
        Err(_) => "none passed",
    };
    json!({
        "composer": composer, "mode": ui.as_str(), "catalog": a2ui::BASIC_CATALOG_ID, "version": a2ui::VERSION,
        "attempts": attempts, "repairs": checked.repairs(), "decision": decision,
        "facts": crate::loans::facts_for_inspector(loans),
    })
}
