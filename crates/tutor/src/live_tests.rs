//! The live Tutor against the fake Messages API over real HTTP (`llm::fake::FakeServer`),
//! through the real client: the requests it sends, history, the ledger, busy, the scope
//! layers and every provider error. No paid call, no network.

use std::time::Duration;

use llm::fake::{FakeReply, FakeRule, FakeServer, Script, When};
use llm::{Anthropic, AnthropicConfig, ApiKey, Model};
use serde_json::{Value, json};
use skills::Settings;

use super::*;

const KEY: &str = "sk-ant-tutor-live-test-key-3f9c1e";
const ANSWER: &str = "The derivative of x^2 is 2x, by the power rule.";

fn rule(system: &str, reply: FakeReply) -> FakeRule {
    FakeRule { when: When { system_contains: Some(system.into()), ..When::default() }, reply }
}

/// Scope check in scope, the answer, the answer check within scope; `answer` may delay.
fn script(scope: Value, answer: FakeReply, check: &str) -> Script {
    Script {
        rules: vec![
            rule("You classify", FakeReply::json(scope)),
            rule("You check a draft", FakeReply::json(json!({"verdict": check}))),
            rule("You are the Tutor Agent", answer),
        ],
        ..Script::default()
    }
}

fn in_scope() -> Value {
    json!({"decision": "in_scope", "skill_id": "calculus-tutoring", "clarifying_question": ""})
}

fn happy() -> Script {
    script(in_scope(), FakeReply::text(ANSWER), "within_scope")
}

fn slow(ms: u64) -> Script {
    script(in_scope(), FakeReply { delay_ms: Some(ms), ..FakeReply::text(ANSWER) }, "within_scope")
}

fn settings() -> Settings {
    let card = crate::agent_card("http://127.0.0.1:1");
    Settings::new(card, crate::default_skills(), crate::default_skills(), crate::RULES).unwrap()
}

fn tutor(fake: &FakeServer, key: Option<&str>) -> Arc<LiveTutor> {
    let key = key.map(|k| ApiKey::new(k).unwrap());
    let client = Anthropic::new(AnthropicConfig::new(fake.url(), key)).unwrap();
    Arc::new(LiveTutor::new(LiveConfig {
        llm: Arc::new(client),
        model: Model::default(),
        log_content: false,
    }))
}

fn ask(context: &str, request: &str, question: &str) -> Ask {
    Ask {
        context_id: context.into(),
        new_context: false,
        request_id: request.into(),
        question: question.into(),
    }
}

fn bodies(fake: &FakeServer) -> Vec<Value> {
    fake.requests().into_iter().map(|r| r["body"].clone()).collect()
}

fn no_key_anywhere(fake: &FakeServer, answers: &[&LiveAnswer]) {
    assert!(!json!(fake.requests()).to_string().contains(KEY));
    for a in answers {
        assert!(!a.text.contains(KEY) && !json!(a.metadata).to_string().contains(KEY), "{a:?}");
    }
}

#[tokio::test]
async fn the_exact_requests_and_the_reply_metadata() {
    let fake = FakeServer::start(happy()).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let a = t.ask(ask("c1", "r1", "what is the derivative of x^2?"), settings()).await;
    assert_eq!((a.outcome, a.text.as_str()), ("answered", ANSWER));
    let seen = fake.requests();
    assert_eq!(seen.len(), 3, "scope check, answer, answer check");
    for r in &seen {
        assert_eq!(r["path"], "/v1/messages");
        assert_eq!(r["key_sent"], true, "the key goes in its header");
        let body = &r["body"];
        assert_eq!(body["model"], "claude-haiku-5-5");
        assert_eq!(body["output_config"]["effort"], "low");
        for sampling in ["temperature", "top_p", "top_k"] {
            assert!(body.get(sampling).is_none(), "{sampling} sent");
        }
    }
    let (scope, answer, check) = (&seen[0]["body"], &seen[1]["body"], &seen[2]["body"]);
    assert_eq!(scope["max_tokens"], CHECK_TOKENS);
    assert_eq!(scope["output_config"]["format"]["type"], "json_schema");
    let schema = &scope["output_config"]["format"]["schema"];
    assert_eq!(
        schema["properties"]["decision"]["enum"],
        json!(["in_scope", "out_of_scope", "needs_clarification"])
    );
    assert_eq!(schema["properties"]["skill_id"]["enum"], json!(["calculus-tutoring", ""]));
    assert_eq!(answer["max_tokens"], ANSWER_TOKENS);
    assert!(answer["output_config"].get("format").is_none(), "the answer is text");
    assert!(answer["system"].as_str().unwrap().starts_with(SYSTEM_PROMPT));
    assert!(
        answer["system"].as_str().unwrap().contains("standalone physics"),
        "the scope is in the instructions"
    );
    assert_eq!(answer["messages"], json!([{"role": "user", "content": "what is the derivative of x^2?"}]));
    assert_eq!(
        check["output_config"]["format"]["schema"]["properties"]["verdict"]["enum"],
        json!(["within_scope", "strays_outside_scope"])
    );
    assert!(check["messages"][0]["content"].as_str().unwrap().contains(ANSWER), "the draft is checked");
    // metadata: mode, model, latency, usage, the provider's request id
    let m = &a.metadata;
    assert_eq!((m["mode"].as_str(), m["model"].as_str()), (Some("live"), Some("claude-haiku-5-5")));
    assert!(m["latencyMs"].is_u64());
    assert!(
        m["usage"]["inputTokens"].as_u64().unwrap() > 0 && m["usage"]["outputTokens"].as_u64().unwrap() > 0
    );
    assert_eq!(m["requestId"], seen[2]["request_id"]);
    assert_eq!(m["modelCalls"].as_array().unwrap().len(), 3);
    no_key_anywhere(&fake, &[&a]);
}

#[tokio::test]
async fn history_follows_a_conversation_and_never_crosses_to_another() {
    let fake = FakeServer::start(happy()).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let s = settings();
    t.ask(ask("a", "r1", "derivative of x^2?"), s.clone()).await;
    t.ask(ask("b", "r2", "what is a limit?"), s.clone()).await;
    t.ask(ask("a", "r3", "another example"), s.clone()).await;
    let answers: Vec<Value> =
        bodies(&fake).into_iter().filter(|b| b["max_tokens"] == ANSWER_TOKENS).collect();
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[1]["messages"], json!([{"role": "user", "content": "what is a limit?"}]));
    assert_eq!(
        answers[2]["messages"],
        json!([{"role": "user", "content": "derivative of x^2?"}, {"role": "assistant", "content": ANSWER},
               {"role": "user", "content": "another example"}])
    );
    // the scope check sees the earlier turns as data, for follow-ups
    let scope = &bodies(&fake)[6];
    assert!(scope["messages"][0]["content"].as_str().unwrap().contains("derivative of x^2?"));
    assert!(!scope["messages"][0]["content"].as_str().unwrap().contains("limit"));
}

#[tokio::test]
async fn history_is_bounded_by_messages_and_characters() {
    let fake = FakeServer::start(happy()).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let s = settings();
    for i in 0..7 {
        t.ask(ask("a", &format!("r{i}"), &format!("question {i} {}", "x".repeat(1_900))), s.clone()).await;
    }
    let last = bodies(&fake).into_iter().rfind(|b| b["max_tokens"] == ANSWER_TOKENS).unwrap();
    let messages = last["messages"].as_array().unwrap();
    let earlier = &messages[..messages.len() - 1];
    assert!(earlier.len() <= HISTORY_MESSAGES, "{}", earlier.len());
    let chars: usize = earlier.iter().map(|m| m["content"].as_str().unwrap().chars().count()).sum();
    assert!(chars <= HISTORY_CHARS, "{chars}");
    assert_eq!(earlier[0]["role"], "user", "the history starts with a question");
    assert!(earlier.len() >= 2, "the recent exchanges are kept");
}

#[tokio::test]
async fn a_repeated_request_gets_the_same_answer_with_no_second_call() {
    let fake = FakeServer::start(happy()).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let first = t.ask(ask("a", "r1", "derivative of x^2?"), settings()).await;
    let again = t.ask(ask("a", "r1", "derivative of x^2?"), settings()).await;
    assert_eq!(first, again);
    assert_eq!(fake.total(), 3);
    // a first question (no conversation named) repeated: matched by its request id alone
    let mut new = ask("ctx-made-up-1", "r9", "what is a limit?");
    new.new_context = true;
    let one = t.ask(new.clone(), settings()).await;
    new.context_id = "ctx-made-up-2".into();
    let two = t.ask(new, settings()).await;
    assert_eq!((one.context_id.as_str(), two.context_id.as_str()), ("ctx-made-up-1", "ctx-made-up-1"));
    assert_eq!(fake.total(), 6);
}

#[tokio::test]
async fn concurrent_duplicates_make_one_call_and_another_question_meanwhile_is_busy() {
    let fake = FakeServer::start(slow(400)).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let (t1, t2) = (t.clone(), t.clone());
    let one = tokio::spawn(async move { t1.ask(ask("a", "r1", "derivative of x^2?"), settings()).await });
    let two = tokio::spawn(async move { t2.ask(ask("a", "r1", "derivative of x^2?"), settings()).await });
    // poll until the first call is out, then ask something else in the conversation
    while fake.total() < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let busy = t.ask(ask("a", "r2", "and x^3?"), settings()).await;
    assert_eq!(busy.outcome, "busy");
    assert_eq!(busy.metadata["tutorError"]["code"], "busy");
    // another conversation is not held up
    let other = t.ask(ask("b", "r3", "what is a limit?"), settings()).await;
    assert_eq!(other.outcome, "answered");
    let (one, two) = (one.await.unwrap(), two.await.unwrap());
    assert_eq!(one, two);
    assert_eq!(one.outcome, "answered");
    assert_eq!(fake.total(), 6, "one question's three calls each; busy cost nothing");
    // free again once answered
    assert_eq!(t.ask(ask("a", "r2", "and x^3?"), settings()).await.outcome, "answered");
}

#[tokio::test]
async fn an_asker_that_stopped_waiting_collects_the_answer_with_the_same_request_id() {
    let fake = FakeServer::start(slow(300)).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let timed_out = tokio::time::timeout(
        Duration::from_millis(50),
        t.ask(ask("a", "r1", "derivative of x^2?"), settings()),
    )
    .await;
    assert!(timed_out.is_err(), "the asker gave up: the outcome is uncertain");
    let collected = t.ask(ask("a", "r1", "derivative of x^2?"), settings()).await;
    assert_eq!((collected.outcome, collected.text.as_str()), ("answered", ANSWER));
    assert_eq!(fake.total(), 3, "the in-flight call was joined, not repeated");
}

#[tokio::test]
async fn out_of_scope_is_refused_without_an_answer_call_and_unclear_gets_a_question() {
    let out = json!({"decision": "out_of_scope", "skill_id": "", "clarifying_question": ""});
    let fake = FakeServer::start(script(out, FakeReply::text("not used"), "within_scope")).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let a = t.ask(ask("a", "r1", "how do I fix my leaking faucet?"), settings()).await;
    assert_eq!(a.outcome, "out_of_scope");
    assert!(a.text.contains("outside what I tutor") && a.text.contains("limits"), "{}", a.text);
    assert_eq!(fake.total(), 1, "no answer call");

    let unclear = json!({"decision": "needs_clarification", "skill_id": "", "clarifying_question": "Do you want the calculus part or the mechanics?"});
    let fake = FakeServer::start(script(unclear, FakeReply::text("not used"), "within_scope")).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let a = t.ask(ask("a", "r1", "differentiate this and explain the mechanics"), settings()).await;
    assert_eq!((a.outcome, a.text.as_str()), ("clarify", "Do you want the calculus part or the mechanics?"));
    assert_eq!(fake.total(), 1);

    // in scope, but naming no enabled skill: code does not take it
    let wrong = json!({"decision": "in_scope", "skill_id": "", "clarifying_question": ""});
    let fake = FakeServer::start(script(wrong, FakeReply::text("not used"), "within_scope")).await.unwrap();
    let a = tutor(&fake, Some(KEY)).ask(ask("a", "r1", "what is a limit?"), settings()).await;
    assert_eq!((a.outcome, fake.total()), ("out_of_scope", 1));
}

#[tokio::test]
async fn a_draft_that_strays_is_withheld() {
    let draft = "Newton's second law says F = ma, so the force is 20 N.";
    let fake =
        FakeServer::start(script(in_scope(), FakeReply::text(draft), "strays_outside_scope")).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let a = t.ask(ask("a", "r1", "rate of change of force?"), settings()).await;
    assert_eq!(a.outcome, "withheld");
    assert!(!a.text.contains("Newton"), "the draft never leaves: {}", a.text);
    assert_eq!(a.metadata["withheld"], "answer_check");
    assert_eq!(fake.total(), 3, "no regeneration");
    // nothing withheld reaches the history
    fake.set_script(happy());
    t.ask(ask("a", "r2", "derivative of x^2?"), settings()).await;
    let last = bodies(&fake).into_iter().rfind(|b| b["max_tokens"] == ANSWER_TOKENS).unwrap();
    assert_eq!(last["messages"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn skills_changed_during_the_call_are_checked_again_before_release() {
    // the answer check passes under revision 1 and fails under the revision saved meanwhile
    let mut s = slow(300);
    s.rules.insert(0, rule("(revision 2)", FakeReply::json(json!({"verdict": "strays_outside_scope"}))));
    let fake = FakeServer::start(s).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let settings = settings();
    let (t1, s1) = (t.clone(), settings.clone());
    let asked = tokio::spawn(async move { t1.ask(ask("a", "r1", "derivative of x^2?"), s1).await });
    while fake.total() < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut set = crate::default_skills();
    set.skills[0].excluded.push("derivatives of polynomials".into());
    settings.save(1, set).unwrap();
    let a = asked.await.unwrap();
    assert_eq!((a.outcome, a.text.as_str()), ("withheld", SKILLS_CHANGED_TEXT));
    assert_eq!(a.metadata["withheld"], "skills_changed");
    let purposes: Vec<&str> =
        a.metadata["modelCalls"].as_array().unwrap().iter().map(|c| c["purpose"].as_str().unwrap()).collect();
    assert_eq!(purposes, ["tutor_scope_check", "tutor_answer", "tutor_answer_check", "tutor_release_check"]);

    // the tutoring skill switched off meanwhile: withheld by code, no re-check call
    let fake = FakeServer::start(slow(300)).await.unwrap();
    let t = tutor(&fake, Some(KEY));
    let settings = self::settings();
    let s1 = settings.clone();
    let asked = tokio::spawn(async move { t.ask(ask("a", "r1", "derivative of x^2?"), s1).await });
    while fake.total() < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut set = crate::default_skills();
    set.skills[0].enabled = false;
    settings.save(1, set).unwrap();
    let a = asked.await.unwrap();
    assert_eq!((a.outcome, a.metadata["withheld"].as_str()), ("withheld", Some("skills_changed")));
    assert_eq!(fake.total(), 3);
}

#[tokio::test]
async fn every_provider_error_is_its_code_after_exactly_one_call() {
    let cases = [
        (FakeReply::status(401), "authentication_failed"),
        (FakeReply::status(403), "permission_denied"),
        (FakeReply::status(404), "model_unavailable"),
        (FakeReply::status(429), "rate_limited"),
        (FakeReply::status(500), "provider_unavailable"),
        (FakeReply::status(529), "provider_unavailable"),
        (FakeReply::stop("refusal", ""), "refusal"),
        (FakeReply::stop("max_tokens", ""), "truncated_no_text"),
    ];
    for (reply, code) in cases {
        let fake = FakeServer::start(Script { default: Some(reply), ..Script::default() }).await.unwrap();
        let a = tutor(&fake, Some(KEY)).ask(ask("a", "r1", "what is a limit?"), settings()).await;
        assert_eq!(a.outcome, "model_error", "{code}");
        assert_eq!(a.metadata["tutorError"]["code"], code);
        assert!(a.text.contains(code), "{}", a.text);
        assert_eq!(fake.total(), 1, "{code}: exactly one call");
        no_key_anywhere(&fake, &[&a]);
    }
    // a failing answer call (after a good scope check) is also one call for it
    let fake = FakeServer::start(script(in_scope(), FakeReply::status(529), "within_scope")).await.unwrap();
    let a = tutor(&fake, Some(KEY)).ask(ask("a", "r1", "what is a limit?"), settings()).await;
    assert_eq!((a.metadata["tutorError"]["code"].as_str(), fake.total()), (Some("provider_unavailable"), 2));
    assert_eq!(a.metadata["tutorError"]["requestId"], fake.requests()[1]["request_id"]);
}

#[tokio::test]
async fn no_key_means_no_call_and_a_long_question_is_refused_first() {
    let fake = FakeServer::start(happy()).await.unwrap();
    let a = tutor(&fake, None).ask(ask("a", "r1", "what is a limit?"), settings()).await;
    assert_eq!(a.metadata["tutorError"]["code"], "missing_credentials");
    assert_eq!(fake.total(), 0);
    let t = tutor(&fake, Some(KEY));
    let long = "d".repeat(MAX_QUESTION_CHARS + 1);
    let a = t.ask(ask("a", "r2", &long), settings()).await;
    assert_eq!(
        (a.outcome, a.metadata["tutorError"]["code"].as_str()),
        ("refused", Some("question_too_long"))
    );
    assert_eq!(fake.total(), 0);
    let exactly = "d".repeat(MAX_QUESTION_CHARS);
    assert_ne!(t.ask(ask("a", "r3", &exactly), settings()).await.outcome, "refused");
}
