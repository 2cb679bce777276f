//! The live Library's loan answers through the real Hub, with the fake Messages API
//! scripted as the model: a composition the checks refuse goes back with its errors (an
//! invented date repaired into a screen; a renew choice on a held loan, then the reason
//! said in the model's own words, repaired into its card, which says why); one that never
//! passes is said in words by rule, never a prewritten
//! screen; a provider failure ends the attempts after one call; the screen that passed is
//! renewed on like the offline one. The key reaches nothing the Library emits.

use a2a::client::A2aClient;
use serde_json::{Value, json};
use student::{Reply, Student};
use testkit::{Proc, TempDir, University, feed_events, rt};

const CANARY: &str = "sk-ant-LOANCANARY-71b0c2";
const CLOCK: &str = "2026-12-24T10:00:00-08:00";

fn script(fake: &Proc, replies: Value) {
    testkit::script_fake_replies(&fake.url, replies);
}

fn requests(fake: &Proc) -> Vec<Value> {
    testkit::fake_requests(&fake.url)
}

fn composed(c: Value) -> Value {
    json!({"json": c, "input_tokens": 1200, "output_tokens": 150})
}

fn notice(text: &str) -> Value {
    json!({"type": "notice", "text": text})
}

fn renew_screen(loan: &str) -> Value {
    json!({"decision": "screen", "title": "Your loan", "blocks": [
        notice("Choose a new return date and press Renew."),
        {"type": "loanCard", "loanId": loan, "renew": true},
        {"type": "returnDatePicker", "loanId": loan, "label": "New return date", "initial": null},
    ]})
}

/// The Library's last `reply_published` event's data (its details among them).
fn last_published(library: &str) -> Value {
    let events = feed_events(library);
    // the agent's details are flattened into the event's data
    events.into_iter().rfind(|e| e["kind"] == "reply_published").expect("a published reply")["data"].clone()
}

/// The fake Messages API, and the Hub, the Tutor and a live Library using it under the
/// fixed clock, composing in `ui` mode; the folder of its (absent) env file.
fn live_university(ui: &str) -> (Proc, University, TempDir) {
    let fake = Proc::start(&["fake-anthropic"], &[]);
    let dir = TempDir::new();
    let none = dir.path().join("no.env");
    let u = University::start(
        &[],
        &[
            ("LIBRARY_CLOCK", CLOCK),
            ("LIBRARY_MODE", "live"),
            ("LIBRARY_UI", ui),
            ("ANTHROPIC_BASE_URL", fake.url.as_str()),
            ("ANTHROPIC_API_KEY", CANARY),
            ("LIBRARY_ENV_FILE", none.to_str().unwrap()),
        ],
    );
    u.wait_ready();
    (fake, u, dir)
}

#[test]
fn live_loan_answers_are_composed_by_the_model_checked_in_code_and_repaired_or_said_by_rule() {
    let (fake, u, _dir) = live_university("blocks");
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    let ask = |text: &str| rt().block_on(me.ask(text)).expect("the hub answers");

    // an invented date is refused and repaired: the second composition is the screen
    script(
        &fake,
        json!([
            composed(json!({"decision": "screen", "title": "Your loan", "blocks": [
                notice("Calculus in Motion is due 2027-01-04."),
            ]})),
            composed(renew_screen("ln-calculus")),
        ]),
    );
    let first = ask("can I keep the calculus book longer?");
    let Reply::Form(form) = &first.reply else { panic!("a screen: {:?} {}", first.reply, first.reply_text) };
    assert_eq!(form.workflow, "loan-renewal");
    let seen = requests(&fake);
    assert_eq!(seen.len(), 2, "the first composition and one repair");
    let body = &seen[0]["body"];
    assert_eq!(body["output_config"]["format"]["schema"], library::compose::schema());
    assert_eq!(body["max_tokens"], 2000);
    let data = body["messages"][0]["content"].to_string();
    assert!(data.contains("ln-calculus") && data.contains("2027-01-02"), "the loan data is sent: {data}");
    assert!(!data.contains("Lighthouses"), "no other borrower's loan is sent");
    let repair = seen[1]["body"]["messages"].as_array().unwrap();
    assert_eq!(repair.len(), 3, "the question, the model's composition, the errors");
    assert!(repair[2].to_string().contains("invented_date"), "{}", repair[2]);
    // the inspector: who composed it, each attempt, the repairs, the surface, the facts
    let inspector = last_published(&u.library_url)["inspector"].clone();
    assert_eq!((&inspector["composer"], &inspector["repairs"]), (&json!("live"), &json!(1)));
    assert_eq!(inspector["attempts"][0]["errors"][0]["code"], "invented_date", "{inspector}");
    assert_eq!(inspector["attempts"][1]["passed"], true, "{inspector}");
    assert_eq!(inspector["decision"], "screen");
    assert_eq!(inspector["surface"]["revision"], 1);
    let structure = inspector["structure"].as_str().unwrap();
    assert!(
        structure.contains("DateTimeInput") && structure.contains("\"min\":\"2027-01-03\""),
        "{structure}"
    );
    assert!(!structure.contains("Calculus in Motion"), "words redacted: {structure}");
    let words = inspector["content"].as_str().unwrap();
    assert!(
        words.starts_with('[') && words.ends_with("chars redacted]"),
        "the words need HUB_TELEMETRY_SHOW_CONTENT=1: {words}"
    );
    let facts = inspector["facts"].to_string();
    assert!(
        facts.contains("\"loanId\":\"ln-chemistry\"") && facts.contains("\"renewable\":\"hold\""),
        "{facts}"
    );
    assert!(!facts.contains("Organic"), "no titles among the facts: {facts}");
    // the screen is the compiler's: the picker bounded by the service's range
    let mut screen = std::collections::HashMap::new();
    testkit::forms::components(&form.messages, &mut screen);
    let picker = screen.values().find(|c| c["component"] == "DateTimeInput").expect("a picker");
    assert_eq!((picker["min"].as_str(), picker["max"].as_str()), (Some("2027-01-03"), Some("2027-01-23")));
    // and renews like any other, through the loan service
    let surface = testkit::forms::surface_id(&form.messages);
    let press = testkit::forms::press(
        &surface,
        &screen,
        "renew_loan",
        &json!({"returnDate/ln-calculus": "2027-01-20"}),
    );
    let out = rt().block_on(me.act(&form.form_ref, "op-live-1", press));
    let student::ActionOutcome::Submitted(done) = out else { panic!("renewed: {out:?}") };
    assert_eq!(done.receipt.as_ref().unwrap()["newDueDate"], "2027-01-20");

    // a renew choice on a held loan: refused; the reason in the model's own words: refused
    // (true or not, a loan's state is the service's to say); its card: accepted, and the
    // card says why in the service's words
    let because =
        "Organic Chemistry Step by Step cannot be renewed: another borrower has placed a hold on it.";
    script(
        &fake,
        json!([
            composed(renew_screen("ln-chemistry")),
            composed(json!({"decision": "answer", "text": because, "loanIds": []})),
            composed(json!({"decision": "screen", "title": "Your loan", "blocks": [
                notice("From the loan service."),
                {"type": "loanCard", "loanId": "ln-chemistry", "renew": false},
            ]})),
        ]),
    );
    let held = ask("can I renew my chemistry book?");
    let Reply::Form(held_form) = &held.reply else {
        panic!("its card: {:?} {}", held.reply, held.reply_text)
    };
    let mut card = std::collections::HashMap::new();
    testkit::forms::components(&held_form.messages, &mut card);
    let said: Vec<&str> = card.values().filter_map(|c| c["text"].as_str()).collect();
    assert!(said.contains(&"Not renewable: another borrower has placed a hold on it."), "{said:?}");
    assert!(card.values().all(|c| c["component"] != "DateTimeInput"), "no picker for a held loan");
    let attempts = last_published(&u.library_url)["inspector"]["attempts"].clone();
    assert!(attempts[0].to_string().contains("not_renewable"), "{attempts}");
    assert!(attempts[1].to_string().contains("stated_fact"), "{attempts}");
    assert_eq!(attempts[2]["passed"], true, "{attempts}");

    // a words answer: the model's framing, then the loan's facts by rule
    script(
        &fake,
        json!([composed(json!({"decision": "answer", "text": "Here is what the loan service has.",
                               "loanIds": ["ln-calculus"]}))]),
    );
    let framed = ask("when is my calculus book due?");
    assert!(matches!(framed.reply, Reply::Answer), "{:?}", framed.reply);
    let lines: Vec<&str> = framed.reply_text.lines().collect();
    assert_eq!(lines[0], "Here is what the loan service has.", "{}", framed.reply_text);
    // (renewed above: the service's new due date, and the renewal counted)
    let calculus =
        "Calculus in Motion (Ines Okafor, loan ln-calculus): due 2027-01-20 (Wednesday). Renewable (1 of 2";
    assert!(lines[1].starts_with(&format!("- {calculus}")), "{}", framed.reply_text);

    // never passing: the facts in words by rule, saying no screen was drawn
    let bad = composed(json!({"decision": "answer", "text": "**Due** soon."}));
    script(&fake, json!([bad.clone(), bad.clone(), bad]));
    let words = ask("when are my books due?");
    assert!(matches!(words.reply, Reply::Answer), "{:?}", words.reply);
    assert!(
        words.reply_text.starts_with("I could not draw a screen for this that passes the Library's checks"),
        "{}",
        words.reply_text
    );
    assert_eq!(requests(&fake).len(), 3, "the first attempt and two repairs, no more");
    let inspector = last_published(&u.library_url)["inspector"].clone();
    assert_eq!((&inspector["repairs"], &inspector["decision"]), (&json!(2), &json!("none passed")));

    // the provider fails: one call, then the loans in words by rule
    script(&fake, json!([{"status": 529}]));
    let failed = ask("when are my books due?");
    assert!(
        failed.reply_text.starts_with("Library loan service (written by rule; no model wrote this)"),
        "{}",
        failed.reply_text
    );
    assert_eq!(requests(&fake).len(), 1, "no second call after a provider failure");

    // no secret — the API key, the Hub's or the Library's signing key — is in anything the
    // student got (answers, screens, receipts), any feed (the inspector's records among
    // them) or any log line of the Hub, the Tutor or the Library
    let mut secrets = vec![CANARY.to_string()];
    for dir in [u.hub_data_dir(), u.library.data_dir().expect("its own data folder")] {
        secrets.extend(testkit::agent_secrets(dir).into_iter().map(|(_, s)| s));
    }
    assert!(secrets.len() >= 3, "the hub's and the library's keys: {}", secrets.len());
    let got = [
        format!("{first:?}"),
        format!("{done:?}"),
        format!("{held:?}"),
        format!("{framed:?}"),
        format!("{words:?}"),
        format!("{failed:?}"),
    ];
    let feeds = [&u.library_url, &u.hub_url].map(|url| testkit::feed_snapshot(url).unwrap_or_default());
    assert!(
        feeds.iter().all(|f| f.contains("reply_published") || f.contains("inspector")),
        "both feeds read"
    );
    let hub = u.hub.as_ref().expect("the hub runs");
    let logs = [hub.stderr(), u.tutor.stderr(), u.library.stderr()].concat();
    for secret in &secrets {
        assert!(got.iter().all(|g| !g.contains(secret.as_str())), "a secret reached the student");
        assert!(feeds.iter().all(|f| !f.contains(secret.as_str())), "a secret is in a feed");
        assert!(logs.iter().all(|l| !l.contains(secret.as_str())), "a secret is in a log line");
    }
}

/// A catalog-mode screen for the calculus loan, as a model would write it; `extra`
/// components join the root.
fn catalog_screen(extra: &[Value]) -> Value {
    let mut children = vec![json!("card")];
    children.extend(extra.iter().map(|c| c["id"].clone()));
    let mut components = vec![
        json!({"id": "root", "component": "Column", "children": children}),
        json!({"id": "t", "component": "Text", "text": {"path": "/form/loans/ln-calculus/title"}}),
        json!({"id": "card", "component": "Card", "child": "col"}),
        json!({"id": "col", "component": "Column", "children": ["t", "d", "r"]}),
        json!({"id": "d", "component": "DateTimeInput", "label": "New return date",
               "value": {"path": "/form/returnDate/ln-calculus"}, "enableDate": true, "enableTime": false,
               "min": "2027-01-03", "max": "2027-01-23"}),
        json!({"id": "r_label", "component": "Text", "text": "Renew"}),
        json!({"id": "r", "component": "Button", "child": "r_label", "action": {"event": {"name": "renew_loan",
               "context": {"loanId": "ln-calculus", "returnDate": {"path": "/form/returnDate/ln-calculus"}}}}}),
    ];
    components.extend(extra.iter().cloned());
    json!({"decision": "screen", "title": "Your loan", "components": components,
           "data": {"returnDate": {"ln-calculus": ""}}})
}

#[test]
fn in_catalog_mode_the_model_writes_catalog_components_that_code_checks_and_wraps() {
    let (fake, u, _dir) = live_university("catalog");
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    // an image loads an address: not even in the schema's shape; then a text field
    // supplying the return date, which only code can refuse; then a screen that passes
    let image = json!({"id": "img", "component": "Image", "url": "https://example.com/cover.png"});
    let field = json!({"id": "tf", "component": "TextField", "label": "Or type a date",
                       "value": {"path": "/form/returnDate/ln-calculus"}});
    script(
        &fake,
        json!([
            composed(catalog_screen(&[image])),
            composed(catalog_screen(&[field])),
            composed(catalog_screen(&[])),
        ]),
    );
    let asked = rt().block_on(me.ask("can I keep the calculus book longer?")).expect("the hub answers");
    let Reply::Form(form) = &asked.reply else { panic!("a screen: {:?} {}", asked.reply, asked.reply_text) };
    let seen = requests(&fake);
    assert_eq!(seen.len(), 3, "the first composition and two repairs");
    assert_eq!(seen[0]["body"]["output_config"]["format"]["schema"], *library::compose::catalog::schema());
    assert!(seen[1]["body"]["messages"][2].to_string().contains("blocks_invalid"), "{}", seen[1]["body"]);
    assert!(seen[2]["body"]["messages"][4].to_string().contains("operation_inputs"), "{}", seen[2]["body"]);
    let inspector = last_published(&u.library_url)["inspector"].clone();
    assert_eq!((&inspector["mode"], &inspector["repairs"]), (&json!("catalog"), &json!(2)));
    // code put the form version into the button, and the screen renews like any other
    let mut screen = std::collections::HashMap::new();
    testkit::forms::components(&form.messages, &mut screen);
    assert_eq!(screen["r"]["action"]["event"]["context"]["formVersion"], 1);
    let surface = testkit::forms::surface_id(&form.messages);
    let press = testkit::forms::press(
        &surface,
        &screen,
        "renew_loan",
        &json!({"returnDate/ln-calculus": "2027-01-09"}),
    );
    let out = rt().block_on(me.act(&form.form_ref, "op-cat-1", press));
    let student::ActionOutcome::Submitted(done) = out else { panic!("renewed: {out:?}") };
    assert_eq!(done.receipt.unwrap()["newDueDate"], "2027-01-09");
}
