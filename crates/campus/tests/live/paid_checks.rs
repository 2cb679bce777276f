//! `campus smoke-live` and `campus eval-live` against a real `campus fake-anthropic`
//! (the demo script), no network: without a budget, or with one too small, each prints
//! its plan and worst-case cost, exits non-zero and the fake records nothing; with enough
//! budget each runs its steps and the fake records exactly the calls planned; the key
//! never appears in the output.

use serde_json::Value;
use testkit::{Proc, http_json, run};

const KEY: &str = "sk-ant-paid-canary-5c0ffee1";

fn recorded(fake: &Proc) -> Vec<Value> {
    testkit::fake_recorded(&fake.url).0
}

fn forget(fake: &Proc) {
    let (code, _) = http_json("DELETE", &format!("{}/_fake/requests", fake.url), None);
    assert!((200..300).contains(&code), "{code}");
}

/// `campus <cmd>` against the fake with the canary key and `extra`; (ok, stdout + stderr).
fn check(fake: &Proc, cmd: &str, extra: &[(&str, &str)]) -> (bool, String) {
    let mut env = vec![("ANTHROPIC_BASE_URL", fake.url.as_str()), ("ANTHROPIC_API_KEY", KEY)];
    env.extend_from_slice(extra);
    let (ok, out, err) = run(&[cmd], &env);
    let all = format!("{out}\n{err}");
    assert!(!all.contains(KEY), "the key was printed: {all}");
    (ok, all)
}

fn posts(requests: &[Value], max_tokens: u64) -> usize {
    requests
        .iter()
        .filter(|r| r["path"] == "/v1/messages" && r["body"]["max_tokens"].as_u64() == Some(max_tokens))
        .count()
}

#[test]
fn without_enough_budget_nothing_is_sent_and_with_it_every_step_runs() {
    let fake = Proc::start(&["fake-anthropic", "--demo-script"], &[]);
    for (cmd, var) in [("smoke-live", "LIVE_SMOKE_MAX_USD"), ("eval-live", "LIVE_EVAL_MAX_USD")] {
        for budget in [None, Some("0.001"), Some("not money")] {
            let extra: Vec<(&str, &str)> = budget.map(|b| vec![(var, b)]).unwrap_or_default();
            let (ok, out) = check(&fake, cmd, &extra);
            assert!(!ok, "{cmd} with {budget:?} must stop: {out}");
            assert!(out.contains("plan (model claude-haiku-5-5"), "{out}");
            assert!(out.contains("worst case:") && out.contains("max_tokens  800"), "{out}");
            assert!(out.contains(var) && out.contains("nothing was sent"), "{out}");
            assert!(recorded(&fake).is_empty(), "{cmd} with {budget:?} sent a request");
        }
        // a budget but no key: the plan, then a clear stop, nothing sent
        let (ok, out, err) =
            run(&[cmd], &[("ANTHROPIC_BASE_URL", fake.url.as_str()), ("ANTHROPIC_API_KEY", ""), (var, "5")]);
        assert!(!ok && err.contains("ANTHROPIC_API_KEY is not set"), "{out}{err}");
        assert!(recorded(&fake).is_empty());
    }

    // smoke: the models check, then two questions of a router call and four Tutor calls
    // each (form intent, scope check, answer, answer check)
    let (ok, out) = check(&fake, "smoke-live", &[("LIVE_SMOKE_MAX_USD", "0.05")]);
    assert!(ok, "{out}");
    for line in ["1. ok: model claude-haiku-5-5 exists", "2. ok: outcome route, served by tutor", "3. ok:"] {
        assert!(out.contains(line), "{line}: {out}");
    }
    assert!(out.contains("request id req_fake") && out.contains("every step succeeded (3/3)"), "{out}");
    let seen = recorded(&fake);
    assert_eq!(seen.len(), 11, "{seen:#?}");
    assert_eq!(seen[0]["path"], "/v1/models/claude-haiku-5-5");
    assert_eq!((posts(&seen, 300), posts(&seen, 800), posts(&seen, 400)), (2, 2, 6));
    assert!(!serde_json::to_string(&seen).unwrap().contains(KEY));
    forget(&fake);

    // eval: the models check; 4 routing cases (4 router calls, the one routed to the Tutor
    // adds 4 Tutor calls, the Library answers in mock mode); 4 scope cases at the Tutor,
    // which the demo script finds in scope (4 calls each)
    let (ok, out) = check(&fake, "eval-live", &[("LIVE_EVAL_MAX_USD", "0.1")]);
    assert!(ok, "{out}");
    assert!(out.contains("served by library") && out.contains("outcome clarify"), "{out}");
    assert!(out.contains("WRONG: scope in_scope (expected out_of_scope)"), "the fake says in scope: {out}");
    assert!(out.contains("accuracy: 6/8 (75%)"), "{out}");
    let seen = recorded(&fake);
    assert_eq!(seen.len(), 1 + 4 + 4 + 16, "{seen:#?}");
    assert_eq!((posts(&seen, 300), posts(&seen, 800)), (4, 5));
}
