//! `campus smoke-live` and `campus eval-live`: the paid checks, opt-in.
//!
//! Each prints its plan first (the steps, the model, each call's output cap and the
//! worst-case cost from `llm::MODELS`), then stops, sending nothing, unless its budget
//! variable (`LIVE_SMOKE_MAX_USD`, `LIVE_EVAL_MAX_USD`) covers the worst case. With the
//! budget it starts the agents as child processes in live mode (as `campus demo` does),
//! asks through the A2A client as the Student and prints each step's result. Both follow
//! `ANTHROPIC_BASE_URL` (so they run against `campus fake-anthropic`) and never print the key.

use std::time::{Duration, Instant};

use anyhow::bail;
use llm::{Model, Usage};
use serde_json::Value;
use vocab::meta::{CallReport, ReplyMeta, ReplyOutcome, TokenUsage};

use crate::bench::agents::{ChildAgent, data_dir, free_port, wait_registered};

/// The input bound of one call, in tokens. The largest prompt any planned call can send is
/// a system prompt with its skill list and JSON Schema (under 8,000 characters), the
/// Tutor's history cap (`tutor::live::HISTORY_CHARS`, 12,000 characters) and the question
/// (at most 2,000 characters): under 22,000 characters, and a token is at least two
/// characters of this text, so 11,000 tokens bounds it.
const INPUT_BOUND_TOKENS: u64 = 11_000;

/// One model call a step may make: who makes it, what for, its output cap.
#[derive(Clone, Copy)]
struct Call(&'static str, &'static str, u32);

/// The Hub's live router: one call per question.
const ROUTE: Call = Call("hub", "route", hub::ROUTER_MAX_TOKENS);
/// The live Tutor, at most: the form-intent check (its one workflow), the scope check, the
/// answer, the answer check, and the answer check again when its settings changed while
/// it answered.
const TUTOR: [Call; 5] = [
    Call("tutor", "form_intent", forms::intent::INTENT_MAX_TOKENS),
    Call("tutor", "scope_check", tutor::live::CHECK_TOKENS),
    Call("tutor", "tutor_answer", tutor::live::ANSWER_TOKENS),
    Call("tutor", "answer_check", tutor::live::CHECK_TOKENS),
    Call("tutor", "answer_check (again)", tutor::live::CHECK_TOKENS),
];

/// One step of a plan: what it does and the calls it may make.
struct Step {
    what: String,
    calls: Vec<Call>,
}

/// A question through the Hub: the router, then (at worst) the Tutor.
fn routed(what: String) -> Step {
    Step { what, calls: std::iter::once(ROUTE).chain(TUTOR).collect() }
}

/// The models check: `GET /v1/models/{id}`, not billed.
fn models_step(model: Model) -> Step {
    Step { what: format!("models API: GET /v1/models/{} (not billed)", model.id()), calls: vec![] }
}

/// The worst case of one call: its output cap and the input bound, priced by the table.
fn call_cost(model: Model, call: Call) -> f64 {
    model.cost_usd(Usage { input_tokens: INPUT_BOUND_TOKENS, output_tokens: u64::from(call.2) })
}

/// Prints the plan and returns its worst-case cost in US dollars.
fn print_plan(name: &str, model: Model, base_url: &str, steps: &[Step]) -> f64 {
    println!("campus {name}: plan (model {}, provider {base_url})", model.id());
    let mut total = 0.0;
    let mut calls = 0;
    for (i, step) in steps.iter().enumerate() {
        println!("  {}. {}", i + 1, step.what);
        for &call in &step.calls {
            let cost = call_cost(model, call);
            total += cost;
            calls += 1;
            println!("       {:<6} {:<21} max_tokens {:>4}  at most ${cost:.5}", call.0, call.1, call.2);
        }
    }
    println!(
        "worst case: {calls} model calls, each at its max_tokens and at {INPUT_BOUND_TOKENS} input tokens \
         (the bound: system prompt and schema under 8,000 characters, history at most 12,000, the question \
         at most 2,000; at least 2 characters a token), priced from llm's table (${} / ${} per million \
         input / output tokens): ${total:.4}",
        model.spec().input_usd_per_mtok,
        model.spec().output_usd_per_mtok,
    );
    total
}

/// Stops unless `var` holds an amount in US dollars that covers `worst`.
fn gate(var: &str, worst: f64, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    let Some(raw) = env(var) else {
        bail!(
            "{var} is not set: nothing was sent; set it to at least {worst:.4} (US dollars) to run these paid calls"
        );
    };
    let budget = raw.trim().parse::<f64>().ok().filter(|b| b.is_finite() && *b >= 0.0);
    let Some(budget) = budget else {
        bail!("{var}: {raw:?} is not an amount in US dollars: nothing was sent");
    };
    if budget < worst {
        bail!("{var}={budget} does not cover the worst case ${worst:.4}: nothing was sent");
    }
    println!("budget {var}={budget} covers the worst case: running");
    Ok(())
}

/// What both checks read before anything is sent.
struct Live {
    model: Model,
    base_url: String,
    key: Option<llm::ApiKey>,
}

fn live_settings(env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Live> {
    let model = llm::choose_model("LIVE_MODEL", None, env)?;
    let base_url = llm::base_url_from_env(env)?;
    let key = llm::load_key(llm::DEFAULT_KEY_VAR, env, std::path::Path::new(".env"))?;
    Ok(Live { model, base_url, key })
}

/// Step 1: the configured model exists for this key.
async fn check_model(live: &Live) -> bool {
    let client = llm::Anthropic::new(llm::AnthropicConfig::new(live.base_url.clone(), live.key.clone()));
    let started = Instant::now();
    let result = match client {
        Ok(c) => c.model_info(live.model).await,
        Err(e) => Err(e),
    };
    let ms = started.elapsed().as_millis();
    match result {
        Ok(info) => {
            println!("  1. ok: model {} exists ({} ms)", info.id, ms);
            true
        }
        Err(e) => {
            let id = e.request_id.as_deref().unwrap_or("-");
            println!("  1. FAILED: models API {} ({ms} ms, request id {id})", e.code.as_str());
            false
        }
    }
}

/// The agents, each a child process in live mode against `live`'s provider and model.
struct Agents {
    hub: ChildAgent,
    tutor: ChildAgent,
    _library: ChildAgent,
    _professor: ChildAgent,
}

async fn start_agents(live: &Live) -> anyhow::Result<Agents> {
    let (hub_port, tutor_port, library_port, professor_port) =
        (free_port()?, free_port()?, free_port()?, free_port()?);
    let url = |p: u16| format!("http://127.0.0.1:{p}");
    let model = live.model.id().to_string();
    let common = |port: u16, mode: (&'static str, &'static str), model_var: &'static str| {
        vec![
            ("PORT", port.to_string()),
            ("HUB_URL", url(hub_port)),
            ("ANTHROPIC_BASE_URL", live.base_url.clone()),
            (mode.0, mode.1.to_string()),
            (model_var, model.clone()),
        ]
    };
    let mut hub_env = common(hub_port, ("ROUTER_MODE", "live"), "HUB_MODEL");
    hub_env.push(("TUTOR_URL", url(tutor_port)));
    hub_env.push(("LIBRARY_URL", url(library_port)));
    hub_env.push(("PROFESSOR_URL", url(professor_port)));
    let hub = ChildAgent::start("hub", "warn", &hub_env).await?;
    let tutor =
        ChildAgent::start("tutor", "warn", &common(tutor_port, ("TUTOR_MODE", "live"), "TUTOR_MODEL"))
            .await?;
    // the Library answers from its own content (mock): no question here is for it at a cost
    let library = ChildAgent::start(
        "library",
        "warn",
        &common(library_port, ("LIBRARY_MODE", "mock"), "LIBRARY_MODEL"),
    )
    .await?;
    // the Professor too, from its course pack (mock): the checks ask it nothing
    let professor = ChildAgent::start(
        "professor",
        "warn",
        &common(professor_port, ("PROFESSOR_MODE", "mock"), "PROFESSOR_MODEL"),
    )
    .await?;
    if !wait_registered(hub_port).await {
        bail!("the hub did not see the tutor, the library and the professor register within 10 s");
    }
    Ok(Agents { hub, tutor, _library: library, _professor: professor })
}

fn student(url: &str) -> student::Student {
    let client = a2a::client::A2aClient::new(a2a::client::ClientConfig {
        timeout: Duration::from_secs(120),
        ..Default::default()
    });
    student::Student::new(client, url).text_only()
}

fn meta<'a>(e: &'a student::Exchange, pointer: &str) -> Option<&'a Value> {
    let path = pointer.strip_prefix('/')?;
    let (key, rest) = path.split_once('/').map_or((path, None), |(k, r)| (k, Some(r)));
    let v = e.metadata.as_ref()?.get(key)?;
    match rest {
        None => Some(v),
        Some(r) => v.pointer(&format!("/{r}")),
    }
}

/// `model …, tokens in/out, latency, request id` of a call's report, never any text.
fn call_line(call: Option<&CallReport>) -> String {
    let Some(c) = call else { return "no model call reported".into() };
    let tokens = |n: fn(&TokenUsage) -> u64| c.usage.as_ref().map_or("-".into(), |u| n(u).to_string());
    format!(
        "model {}, tokens {}/{} in/out, {} ms, request id {}",
        c.model,
        tokens(|u| u.input_tokens),
        tokens(|u| u.output_tokens),
        c.latency_ms,
        c.request_id.as_deref().unwrap_or("-"),
    )
}

/// A specialist's own live-mode metadata read as a call report (`model`, `latencyMs`,
/// `usage`, `requestId` at its top level).
fn specialist_call(e: &student::Exchange) -> Option<CallReport> {
    let map = e.metadata.as_ref()?;
    serde_json::from_value(Value::Object(map.clone().into_iter().collect())).ok()
}

/// One question through the Hub; whether it was routed to `want` (`tutor`, `library`) and
/// answered (or, with `want` `clarify`, asked back), printed as line `n`.
async fn routed_step(me: &student::Student, n: usize, question: &str, want: &str) -> bool {
    let started = Instant::now();
    let asked = me.ask(question).await;
    let ms = started.elapsed().as_millis();
    let e = match asked {
        Ok(e) => e,
        Err(e) => {
            println!("  {n}. FAILED: the hub did not answer ({e}; {ms} ms)");
            return false;
        }
    };
    let hub: Option<ReplyMeta> =
        e.metadata.as_ref().and_then(|m| ReplyMeta::read(&m.clone().into_iter().collect()));
    let outcome = hub.as_ref().map(|m| m.outcome);
    let served = hub.as_ref().map_or("-", |m| m.served_by.id.as_str());
    let call = hub.as_ref().and_then(|m| m.router.as_ref()).and_then(|r| r.call.as_ref());
    let router_error = call.and_then(|c| c.error.as_ref()).map(|e| e.code.as_str());
    let ok = router_error.is_none()
        && !e.reply_text.trim().is_empty()
        && match want {
            "clarify" => outcome == Some(ReplyOutcome::Clarify),
            agent => outcome == Some(ReplyOutcome::Route) && served == agent,
        };
    println!(
        "  {n}. {}: outcome {}, served by {served}, {ms} ms end to end; router: {}{}",
        if ok { "ok" } else { "FAILED" },
        outcome.map_or("-", ReplyOutcome::as_str),
        call_line(call),
        router_error.map(|c| format!(", error {c}")).unwrap_or_default(),
    );
    ok
}

fn finish(name: &str, passed: usize, total: usize) -> anyhow::Result<()> {
    let _ = std::fs::remove_dir_all(data_dir());
    if passed == total {
        println!("campus {name}: every step succeeded ({passed}/{total})");
        Ok(())
    } else {
        bail!("campus {name}: {} of {total} steps failed", total - passed)
    }
}

const SMOKE_QUESTION: &str = "What is the derivative of x^2?";
const SMOKE_FOLLOW_UP: &str = "And the derivative of x^3, by the same rule?";

/// `campus smoke-live`.
pub async fn smoke(env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    let live = live_settings(env)?;
    let steps = [
        models_step(live.model),
        routed(format!("question {SMOKE_QUESTION:?}: Student -> Hub (live router) -> Tutor (live)")),
        routed(format!("follow-up {SMOKE_FOLLOW_UP:?} in the same conversation: Student -> Hub -> Tutor")),
    ];
    let worst = print_plan("smoke-live", live.model, &live.base_url, &steps);
    gate("LIVE_SMOKE_MAX_USD", worst, env)?;
    require_key(&live)?;
    let mut passed = usize::from(check_model(&live).await);
    if passed == 0 {
        return finish("smoke-live", 0, steps.len());
    }
    let agents = start_agents(&live).await?;
    let me = student(&agents.hub.url);
    passed += usize::from(routed_step(&me, 2, SMOKE_QUESTION, "tutor").await);
    passed += usize::from(routed_step(&me, 3, SMOKE_FOLLOW_UP, "tutor").await);
    drop(agents);
    finish("smoke-live", passed, steps.len())
}

fn require_key(live: &Live) -> anyhow::Result<()> {
    if live.key.is_none() {
        bail!("{} is not set (export it or put it in .env): nothing was sent", llm::DEFAULT_KEY_VAR);
    }
    Ok(())
}

/// The eval's routing cases: a question and where the Hub should send it (`clarify`: ask back).
const ROUTING: [(&str, &str); 4] = [
    ("How do I differentiate sin(x) * x^2?", "tutor"),
    ("When does the library open on Sunday?", "library"),
    ("Can I renew a book I borrowed last week?", "library"),
    ("Hello, I have a question.", "clarify"),
];

/// The eval's scope cases, asked of the Tutor directly: the scope decision expected.
const SCOPE: [(&str, &str); 4] = [
    ("How do I integrate x * e^x by parts?", "in_scope"),
    ("What is the limit of sin(x)/x as x goes to 0?", "in_scope"),
    ("Can you write my history essay about the French revolution?", "out_of_scope"),
    ("What about the other one?", "needs_clarification"),
];

/// The Tutor's scope decision from its reply: `scope` when it did not answer, `in_scope`
/// when it answered, `error <code>` on a model error.
fn scope_of(e: &student::Exchange) -> String {
    if let Some(code) = meta(e, "/tutorError/code").and_then(Value::as_str) {
        return format!("error {code}");
    }
    meta(e, "/scope").and_then(Value::as_str).unwrap_or("in_scope").to_string()
}

/// `campus eval-live`.
pub async fn eval(env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    let live = live_settings(env)?;
    let mut steps = vec![models_step(live.model)];
    for (q, want) in ROUTING {
        steps
            .push(routed(format!("routing {q:?} -> {want} (through the Hub; a Tutor route adds its calls)")));
    }
    for (q, want) in SCOPE {
        steps.push(Step {
            what: format!("scope {q:?} -> {want} (the Tutor directly)"),
            calls: TUTOR.to_vec(),
        });
    }
    let worst = print_plan("eval-live", live.model, &live.base_url, &steps);
    gate("LIVE_EVAL_MAX_USD", worst, env)?;
    require_key(&live)?;
    if !check_model(&live).await {
        return finish("eval-live", 0, 1);
    }
    let agents = start_agents(&live).await?;
    let mut right = 0;
    let mut errors = 0;
    for (i, (q, want)) in ROUTING.iter().enumerate() {
        // each case in its own conversation
        let me = student(&agents.hub.url);
        right += usize::from(routed_step(&me, i + 2, q, want).await);
    }
    for (i, (q, want)) in SCOPE.iter().enumerate() {
        let n = i + 2 + ROUTING.len();
        let started = Instant::now();
        let asked = student(&agents.tutor.url).ask(q).await;
        let ms = started.elapsed().as_millis();
        match asked {
            Ok(e) => {
                let got = scope_of(&e);
                errors += usize::from(got.starts_with("error"));
                let ok = got == *want;
                right += usize::from(ok);
                println!(
                    "  {n}. {}: scope {got} (expected {want}), {ms} ms; tutor: {}",
                    if ok { "ok" } else { "WRONG" },
                    call_line(specialist_call(&e).as_ref()),
                );
            }
            Err(e) => {
                errors += 1;
                println!("  {n}. FAILED: the tutor did not answer ({e}; {ms} ms)");
            }
        }
    }
    drop(agents);
    let total = ROUTING.len() + SCOPE.len();
    println!("accuracy: {right}/{total} ({:.0}%)", 100.0 * right as f64 / total as f64);
    let _ = std::fs::remove_dir_all(data_dir());
    if errors > 0 {
        bail!("campus eval-live: {errors} case(s) got no answer from the tutor");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_case_uses_the_caps_and_the_input_bound() {
        let haiku = llm::DEFAULT_MODEL;
        // 1 router call (300) + 5 tutor calls (400 + 400 + 800 + 400 + 400), each 11,000 in
        let step = routed("q".into());
        let total: f64 = step.calls.iter().map(|&c| call_cost(haiku, c)).sum();
        let expected = (6.0 * 11_000.0 * 0.10 + 2_700.0 * 0.50) / 1_000_000.0;
        assert!((total - expected).abs() < 1e-12, "{total} vs {expected}");
        assert_eq!(models_step(haiku).calls.len(), 0, "the models check is not billed");
    }

    #[test]
    fn the_gate() {
        let with = |v: &'static str| move |k: &str| (k == "B").then(|| v.to_string());
        assert!(gate("B", 0.01, &|_| None).unwrap_err().to_string().contains("B is not set"));
        assert!(gate("B", 0.01, &with("0.005")).unwrap_err().to_string().contains("does not cover"));
        assert!(gate("B", 0.01, &with("lots")).unwrap_err().to_string().contains("not an amount"));
        assert!(gate("B", 0.01, &with("NaN")).is_err());
        assert!(gate("B", 0.01, &with("0.01")).is_ok());
    }
}
