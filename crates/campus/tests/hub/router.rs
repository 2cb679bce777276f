//! The classifier router: its floors on the dev set (`eval/routing-dev.v1.jsonl`, a copy
//! of `../shared/data/routing-dev.v1.jsonl`) through `campus eval-router`, and the real
//! Hub routing with it: trained from the cards, retrained when a card changes.

use std::path::PathBuf;

use serde_json::{Value, json};
use testkit::{University, ask, feed_events, http_json, poll, run, settings};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dev_set() -> String {
    let ours = repo().join("eval/routing-dev.v1.jsonl");
    // the shared folder sits beside the checkout; when it is there, our copy must match it
    let shared = repo().join("../shared/data/routing-dev.v1.jsonl");
    if let Ok(theirs) = std::fs::read(&shared) {
        assert_eq!(std::fs::read(&ours).unwrap(), theirs, "eval/ holds an old copy of the dev set");
    }
    ours.to_string_lossy().into_owned()
}

fn eval(mode: &str) -> Value {
    let set = dev_set();
    let (ok, out, err) = run(&["eval-router", "--set", &set, "--mode", mode, "--json"], &[]);
    assert!(ok, "{err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn the_classifier_meets_its_floors_and_beats_the_mock_on_every_kind() {
    let (c, m) = (eval("classifier"), eval("mock"));
    let acc = c["accuracy"]["rate"].as_f64().unwrap();
    assert!(acc >= 0.90, "action accuracy {acc}");
    let wrong = c["wrongRouteRate"].as_f64().unwrap();
    assert!(wrong <= 0.02, "wrong routes {wrong}");
    assert!(c["ece"].as_f64().is_some_and(|e| e < 0.2), "{}", c["ece"]);
    for (kind, mock) in m["byKind"].as_object().unwrap() {
        let (ours, theirs) = (c["byKind"][kind]["rate"].as_f64().unwrap(), mock["rate"].as_f64().unwrap());
        // where the mock is already perfect, equal is all there is
        assert!(ours > theirs || (theirs == 1.0 && ours == 1.0), "{kind}: classifier {ours}, mock {theirs}");
    }
    assert!(acc > m["accuracy"]["rate"].as_f64().unwrap());
}

/// The hybrid sweep replays the committed live decisions with no model call (no key, no
/// provider address): a row per threshold, none sent to the model at 0 and all at 1, the
/// share sent never falling as the threshold rises.
#[test]
fn the_hybrid_sweep_replays_recorded_decisions_with_no_model() {
    let set = dev_set();
    let replay = repo().join("eval/routing-dev.live-decisions.v1.jsonl");
    let args =
        ["eval-router", "--set", &set, "--mode", "hybrid", "--replay", replay.to_str().unwrap(), "--sweep"];
    let (ok, out, err) =
        run(&args, &[("ANTHROPIC_API_KEY", ""), ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")]);
    assert!(ok, "{err}");
    let rows: Vec<(f64, usize)> = out
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let threshold = cols.first()?.parse::<f64>().ok()?;
            let sent = cols.last()?.trim_matches(|c| c == '(' || c == ')').parse::<usize>().ok()?;
            Some((threshold, sent))
        })
        .collect();
    assert!(rows.len() >= 5, "{out}");
    assert_eq!(rows.first(), Some(&(0.0, 0)), "{out}");
    assert_eq!(rows.last(), Some(&(1.0, 154)), "{out}");
    assert!(rows.windows(2).all(|w| w[0].1 <= w[1].1), "{out}");
}

#[test]
fn eval_router_refuses_a_bad_set_with_one_line() {
    let dir = testkit::TempDir::new();
    std::fs::create_dir_all(dir.path()).unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"text\": \"hi\", \"expected\": \"clarify\"}\nnot json\n").unwrap();
    let (ok, _, err) = run(&["eval-router", "--set", bad.to_str().unwrap()], &[]);
    assert!(!ok);
    assert!(err.contains("line 2: not a labelled item"), "{err}");
}

/// A reader that stops early (`campus eval-router … | head`) ends the report quietly with
/// 141, as a process stopped by SIGPIPE would: no panic, no backtrace.
#[test]
fn eval_router_stops_quietly_when_its_reader_is_gone() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(testkit::bin())
        .args(["eval-router", "--set", &dev_set(), "--mode", "mock"])
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The number of skills the Hub's router last trained on, from its telemetry.
fn trained_skills(hub_url: &str) -> Option<u64> {
    feed_events(hub_url).iter().rev().find(|e| e["kind"] == "router_trained")?["data"]["skills"].as_u64()
}

/// Waits until the Hub sees `revision` of the library's card and its router has trained
/// on `skills` skills, with no question asked (training happens off the request path).
fn wait_retrained(u: &University, revision: u64, skills: u64) {
    poll(10, "the hub to see the new card", || {
        (u.specialist("library")["cardRevision"] == revision).then_some(())
    });
    poll(10, "the router to retrain", || (trained_skills(&u.hub_url) == Some(skills)).then_some(()));
}

/// The skill the Hub last routed to, from its telemetry.
fn last_routed_skill(hub_url: &str) -> Option<String> {
    feed_events(hub_url)
        .iter()
        .rev()
        .find(|e| e["kind"] == "routed")
        .and_then(|e| e["data"]["decision"]["skill"].as_str().map(String::from))
}

#[test]
fn the_hub_routes_with_the_classifier_and_retrains_when_a_card_changes() {
    let u = University::start(&[("ROUTER_MODE", "classifier")], &[]);
    u.wait_ready();
    // trained from every card (2 tutor skills, 6 library skills, 3 professor skills) with
    // no question asked
    poll(10, "the router to train from the cards", || {
        feed_events(&u.hub_url)
            .iter()
            .any(|e| e["kind"] == "router_trained" && e["data"]["skills"] == 11)
            .then_some(())
    });
    for (question, outcome, who) in [
        ("how fast is x^3 growing at x = 2", "route", "Tutor"),
        ("my books will be late, can I keep them longer?", "route", "Library"),
        ("No, not printing; what's the chain rule?", "route", "Tutor"),
        ("I have a question", "clarify", "Campus"),
        ("my shower is leaking, who fixes that?", "unsupported", "Campus"),
    ] {
        let ex = ask(&u.hub_url, question);
        assert_eq!(ex.outcome.as_deref(), Some(outcome), "{question}: {}", ex.reply_text);
        assert!(ex.served_by.as_deref().unwrap_or("").contains(who), "{question}: {:?}", ex.served_by);
    }
    assert!(feed_events(&u.hub_url).iter().any(|e| e["kind"] == "router_trained"));

    // a new skill becomes routable once its card is seen
    let lost = "Did someone hand in the umbrella I left behind?";
    assert_ne!(ask(&u.hub_url, lost).outcome.as_deref(), Some("route"));
    let mut skills = settings(&u, "library")["skills"].clone();
    skills.as_array_mut().unwrap().push(json!({
        "id": "lost-property",
        "name": "Lost property",
        "description": "Things left behind in the library and how to get them back.",
        "tags": ["lost property", "lost and found", "left behind"],
        "examples": [
            "I left my scarf on a desk yesterday, has it been found?",
            "Where is the lost and found box?",
            "Did someone hand in a phone charger?",
            "I forgot my water bottle in a study room, who has it now?",
            "Has anyone turned in a blue notebook from the third floor?",
            "left my jacket on the quiet floor, is it at the desk?",
            "How long do you keep things people leave behind?",
            "Perdí mis audífonos en el segundo piso"
        ],
        "answerContent": "Lost property is kept at the service desk for 30 days."
    }));
    let (status, v) = http_json(
        "PUT",
        &format!("{}/dev/agents/library/settings", u.hub_url),
        Some(json!({"baseRevision": 1, "skills": skills})),
    );
    assert_eq!(status, 200, "{v}");
    wait_retrained(&u, 2, 12);
    let ex = ask(&u.hub_url, lost);
    assert_eq!(ex.outcome.as_deref(), Some("route"), "{}", ex.reply_text);
    assert!(ex.reply_text.contains("service desk for 30 days"), "{}", ex.reply_text);
    assert_eq!(last_routed_skill(&u.hub_url).as_deref(), Some("lost-property"));

    // a disabled skill is never predicted, and nothing else on the card speaks for it:
    // its questions are not sent to the Library at all
    let printing = "How much does colour printing cost?";
    let ex = ask(&u.hub_url, printing);
    assert_eq!(ex.outcome.as_deref(), Some("route"), "{}", ex.reply_text);
    assert_eq!(last_routed_skill(&u.hub_url).as_deref(), Some("printing"));
    let toggle = |revision: u64, enabled: bool| {
        let (status, v) = http_json(
            "PATCH",
            &format!("{}/dev/agents/library/settings/skills/printing", u.hub_url),
            Some(json!({"baseRevision": revision, "enabled": enabled})),
        );
        assert_eq!(status, 200, "{v}");
        wait_retrained(&u, revision + 1, if enabled { 12 } else { 11 });
    };
    toggle(2, false);
    // (what a price question is sent to instead is the router's judgement: declined, asked
    // back, or the Professor's pricing; never the Library)
    for q in [printing, "how much for colour prnting per page", "Can I pay for copies with cash?"] {
        let ex = ask(&u.hub_url, q);
        let outcome = ex.outcome.as_deref().unwrap_or("");
        let elsewhere = outcome == "route" && ex.served_by.as_deref().unwrap_or("").contains("Professor");
        assert!(
            outcome == "unsupported" || outcome == "clarify" || elsewhere,
            "{q}: {outcome}: {}",
            ex.reply_text
        );
        assert!(!ex.served_by.as_deref().unwrap_or("").contains("Library"), "{q}: {:?}", ex.served_by);
    }
    toggle(3, true);
    let ex = ask(&u.hub_url, printing);
    assert_eq!(ex.outcome.as_deref(), Some("route"), "{}", ex.reply_text);
    assert!(ex.served_by.as_deref().unwrap_or("").contains("Library"), "{:?}", ex.served_by);
    assert_eq!(last_routed_skill(&u.hub_url).as_deref(), Some("printing"));
}

/// Without the `embed` feature the embed router is refused with a line saying how to get it.
#[cfg(not(feature = "embed"))]
#[test]
fn the_embed_router_needs_its_feature() {
    let set = dev_set();
    let (ok, _, err) = run(&["eval-router", "--set", &set, "--mode", "embed"], &[]);
    assert!(!ok);
    assert!(err.contains("ROUTER_MODE") && err.contains("--features embed"), "{err}");
}

/// The model's folder, when it is there: `EMBED_MODEL_DIR` as the Hub reads it, else where
/// `scripts/fetch-minilm.sh` leaves it.
#[cfg(feature = "embed")]
fn minilm() -> Option<String> {
    let dir = std::env::var_os("EMBED_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("models/all-MiniLM-L6-v2"));
    if dir.join("model.safetensors").is_file() {
        Some(dir.to_string_lossy().into_owned())
    } else {
        println!("skipped: no model in {} (run scripts/fetch-minilm.sh)", dir.display());
        None
    }
}

#[cfg(feature = "embed")]
#[test]
fn the_embed_router_names_the_fetch_script_when_its_model_is_missing() {
    let set = dev_set();
    let env = [("EMBED_MODEL_DIR", "/nonexistent/minilm")];
    let (ok, _, err) = run(&["eval-router", "--set", &set, "--mode", "embed"], &env);
    assert!(!ok);
    assert!(err.contains("scripts/fetch-minilm.sh"), "{err}");
}

#[cfg(feature = "embed")]
#[test]
fn the_hub_routes_with_the_embed_router() {
    let Some(dir) = minilm() else { return };
    let u = University::start(&[("ROUTER_MODE", "embed"), ("EMBED_MODEL_DIR", &dir)], &[]);
    u.wait_ready();
    for (question, outcome, who) in [
        ("what is the derivative of x^3?", "route", "Tutor"),
        ("when does the library open on saturday?", "route", "Library"),
        ("I have a question", "clarify", "Campus"),
    ] {
        let ex = ask(&u.hub_url, question);
        assert_eq!(ex.outcome.as_deref(), Some(outcome), "{question}: {}", ex.reply_text);
        assert!(ex.served_by.as_deref().unwrap_or("").contains(who), "{question}: {:?}", ex.served_by);
    }
}

/// The embed router's figures on the dev set stay where they were measured
/// (docs/router.md: 89.6% action accuracy, 8 wrong routes of 154, with the blind-written
/// examples).
#[cfg(feature = "embed")]
#[test]
fn the_embed_router_holds_its_figures_on_the_dev_set() {
    let Some(dir) = minilm() else { return };
    let set = dev_set();
    let (ok, out, err) =
        run(&["eval-router", "--set", &set, "--mode", "embed", "--json"], &[("EMBED_MODEL_DIR", &dir)]);
    assert!(ok, "{err}");
    let f: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(f["mode"], "embed");
    let acc = f["accuracy"]["rate"].as_f64().unwrap();
    assert!(acc >= 0.89, "action accuracy {acc}");
    let wrong = f["wrongRouteRate"].as_f64().unwrap();
    assert!(wrong <= 0.055, "wrong routes {wrong}");
}
