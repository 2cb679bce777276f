//! One's own loans through the real Hub and Library, offline, under a fixed
//! `LIBRARY_CLOCK`: the demo student's loans with the loan service's dates, never another
//! borrower's; and no loan data for anyone the Hub did not vouch for — a direct A2A call
//! naming a student, one with a forged, a replayed or a stale signature, an anonymous
//! asker through the Hub.
//! A client that shows forms gets the loans as a screen the Library composed and checked,
//! and renews on it: once, only what the screen offered, in the service's range; the
//! screen is one canvas drawn anew in place, and a conversation the student began anew
//! (not one merely new) starts the demo loans again.

use a2a::client::A2aClient;
use library::loans::NOT_VOUCHED;
use serde_json::{Value, json};
use student::Student;
use testkit::{University, rt};

/// Thursday 24 December 2026, 10:00 in the demo's time zone: the day the sample is made.
const CLOCK: &str = "2026-12-24T10:00:00-08:00";

/// Titles of the demo student's loans, and the one of another borrower.
const OWN: [&str; 6] = [
    "Calculus in Motion",
    "Statistics for the Curious",
    "Marketing Basics",
    "Organic Chemistry Step by Step",
    "Marketing Research Methods",
    "Physics for Engineers",
];
const THEIRS: &str = "Lighthouses";

#[test]
fn through_the_hub_the_demo_student_gets_their_loans_with_the_services_dates() {
    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    rt().block_on(async {
        // a client that shows no forms gets the loans in words
        let me = Student::new(A2aClient::default(), u.hub_url.clone()).text_only();
        let due = me.ask("when are my books due?").await.expect("ask");
        let by = due.attribution.as_ref().and_then(|a| a["id"].as_str()).unwrap_or_default().to_string();
        let text = &due.reply_text;
        assert_eq!(by, "library", "{text}");
        assert!(text.starts_with("Offline Library (no model)"), "{text}");
        for title in OWN {
            assert!(text.contains(title), "{title} in {text}");
        }
        for fact in [
            "Calculus in Motion (Ines Okafor, loan ln-calculus): due 2027-01-02 (Saturday). Renewable (0 of 2 renewals used): a new return date from 2027-01-03 to 2027-01-23.",
            "due 2026-12-29 (Tuesday). Not renewable: another borrower has placed a hold on it.",
            "Not renewable: it has been renewed 2 times",
            "Not renewable: it is a course-reserve copy.",
        ] {
            assert!(text.contains(fact), "{fact:?} in {text}");
        }
        assert!(!text.contains(THEIRS), "another borrower's loan: {text}");
        // the same overview for the other ways of asking; a rules question still gets the rules
        let renew = me.ask("which of my books can I renew?").await.expect("ask");
        assert!(renew.reply_text.contains("3 of them renewable now"), "{}", renew.reply_text);
        // asked to renew one by name: that loan in words, and where renewing happens
        let one = me.ask("can I renew my calculus book?").await.expect("ask");
        let text = &one.reply_text;
        assert!(text.contains("Calculus in Motion (Ines Okafor, loan ln-calculus): due 2027-01-02"), "{text}");
        assert!(text.contains("The loan is renewable now.") && !text.contains("Physics"), "{text}");
        assert!(text.ends_with(library::loans::RENEW_ON_THE_PAGE), "{text}");
        let rules = me.ask("how many times can I renew a book?").await.expect("ask");
        assert!(rules.reply_text.contains("up to 2 times"), "{}", rules.reply_text);
        assert!(!rules.reply_text.contains("Calculus in Motion"), "{}", rules.reply_text);
        // an anonymous asker: the Hub vouches for no one, so no loans
        let anonymous =
            Student::with_student_id(A2aClient::default(), u.hub_url.clone(), vocab::form::ANONYMOUS_STUDENT);
        // one that shows forms gets no screen either: the loan service knows no one
        let theirs = anonymous.ask("when are my books due?").await.expect("ask");
        assert!(matches!(theirs.reply, student::Reply::Answer), "{:?}", theirs.reply);
        assert_eq!(theirs.reply_text, NOT_VOUCHED);
        let anonymous = anonymous.text_only();
        let theirs = anonymous.ask("when are my books due?").await.expect("ask");
        assert_eq!(theirs.reply_text, NOT_VOUCHED);
    });
}

/// The text of a direct `SendMessage` reply.
fn reply_text(v: &Value) -> String {
    v["result"]["message"]["parts"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a message: {v}"))
        .to_string()
}

#[test]
fn a_caller_the_hub_did_not_vouch_for_gets_no_loan_data() {
    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    let ask = |metadata: Value| {
        let message = json!({"messageId": format!("m-{}", rand::random::<u64>()), "role": "ROLE_USER",
            "contextId": "ctx-direct", "parts": [{"text": "when are my books due?"}], "metadata": metadata});
        reply_text(&testkit::rpc::send_message(&u.library_url, message, None))
    };
    // the student id the demo Student sends, and no signature
    let direct = ask(json!({"studentId": student::DEMO_STUDENT_ID}));
    // a signature someone made up, vouching for that student
    let forged = ask(json!({"studentId": student::DEMO_STUDENT_ID, "hubSignature": {
        "audience": "library", "digest": "x", "student": student::DEMO_STUDENT_ID,
        "proof": {"kid": "shared", "issuedAtMs": keys::now_ms(), "nonce": "n", "signature": "AAAA"}}}));
    // forwards signed with the Hub's very key (read from its data folder, as only the Hub
    // could): fresh and first seen, the student's loans; the same again, or one signed
    // longer ago than the freshness window, no one
    let hub_key = keys::AgentKey::load_or_create(u.hub_data_dir(), "hub").expect("the hub's key");
    let library = u.library.data_dir().expect("its own data folder");
    let library_key = keys::AgentKey::load_or_create(library, "library").expect("the library's key");
    let shared = hub_key.shared_with(&library_key.public()).expect("the key they share");
    let signed = |issued_at_ms: u64| {
        let message = json!({"messageId": format!("m-{}", rand::random::<u64>()), "role": "ROLE_USER",
            "contextId": "ctx-signed", "parts": [{"text": "when are my books due?"}]});
        let mut message: a2a::wire::Message = serde_json::from_value(message).expect("a message");
        let student = Some(student::DEMO_STUDENT_ID);
        hublink::sign_forward_at(&shared, "library", student, &mut message, issued_at_ms);
        serde_json::to_value(message).expect("serializes")
    };
    let send = |message: Value| reply_text(&testkit::rpc::send_message(&u.library_url, message, None));
    let fresh = signed(keys::now_ms());
    let vouched = send(fresh.clone());
    assert!(vouched.contains("Calculus in Motion") && !vouched.contains(THEIRS), "{vouched}");
    let replayed = send(fresh);
    let stale = send(signed(keys::now_ms() - 10 * 60 * 1000));
    for text in [direct, forged, replayed, stale] {
        assert_eq!(text, NOT_VOUCHED);
        for title in OWN.iter().chain([&THEIRS]) {
            assert!(!text.contains(title), "{text}");
        }
    }
}

/// Every Text component's words on a screen, in order.
fn words_on(messages: &[Value]) -> Vec<String> {
    let mut screen = std::collections::HashMap::new();
    testkit::forms::components(messages, &mut screen);
    let mut texts: Vec<(String, String)> = screen
        .iter()
        .filter(|(_, c)| c["component"] == "Text")
        .map(|(id, c)| (id.clone(), c["text"].as_str().unwrap_or_default().to_string()))
        .collect();
    texts.sort();
    texts.into_iter().map(|(_, t)| t).collect()
}

fn screen_of(exchange: &student::Exchange) -> student::FormReply {
    match &exchange.reply {
        student::Reply::Form(f) => f.clone(),
        other => panic!("a loan screen, got {other:?}: {}", exchange.reply_text),
    }
}

#[test]
fn a_loan_screen_is_one_canvas_that_renews_once_only_what_it_offered() {
    use std::collections::HashMap;
    use student::ActionOutcome;
    use testkit::forms::{components, press, surface_id};

    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    let act = |me: &Student, form: &str, op: &str, action: Value| rt().block_on(me.act(form, op, action));
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    // the overview: a screen with every loan and the service's facts, no one else's
    let overview = screen_of(&rt().block_on(me.ask("when are my books due?")).expect("ask"));
    assert_eq!(overview.workflow, "loan-renewal");
    assert!(overview.text.starts_with("Offline Library (no model)"), "{}", overview.text);
    let words = words_on(&overview.messages).join("\n");
    for title in OWN {
        assert!(words.contains(title), "{title} in {words}");
    }
    assert!(words.contains("Due 2027-01-02 (Saturday). Renewable (0 of 2 renewals used)"), "{words}");
    assert!(words.contains("Not renewable: another borrower has placed a hold on it."), "{words}");
    assert!(!words.contains(THEIRS), "{words}");

    // a follow-up button's question goes to the Library that drew the screen, whatever its
    // words ("calculus" alone would be the Tutor's)
    let follow =
        rt().block_on(me.send_follow_up("Renew Calculus in Motion", "rq-follow", &overview.form_ref));
    let follow = follow.expect("ask");
    let by = follow.attribution.as_ref().and_then(|a| a["id"].as_str()).unwrap_or_default().to_string();
    assert_eq!(by, "library", "{}", follow.reply_text);
    let calculus = screen_of(&follow);
    assert!(words_on(&calculus.messages).iter().any(|w| w == "Calculus in Motion"));
    // one canvas: the answer drew the same form anew in place, at its next version
    assert_eq!(
        (calculus.form_ref.as_str(), calculus.version),
        (overview.form_ref.as_str(), overview.version + 1)
    );
    assert_eq!(surface_id(&calculus.messages), surface_id(&overview.messages));
    // asking to renew one loan draws that loan's screen in its place, the date said preselected
    let asked = rt().block_on(me.ask("can I renew my calculus book until 2027-01-10?")).expect("ask");
    let one = screen_of(&asked);
    assert_eq!((one.form_ref.as_str(), one.version), (overview.form_ref.as_str(), calculus.version + 1));
    let mut screen = HashMap::new();
    components(&one.messages, &mut screen);
    let picker = screen.values().find(|c| c["component"] == "DateTimeInput").expect("a date picker");
    assert_eq!((picker["min"].as_str(), picker["max"].as_str()), (Some("2027-01-03"), Some("2027-01-23")));
    assert_eq!(testkit::forms::prefill(&one.messages)["returnDate"]["ln-calculus"], "2027-01-10");
    let surface = surface_id(&one.messages);
    let date = |d: &str| json!({"returnDate/ln-calculus": d});

    // the screens drawn before take nothing: their buttons carry an earlier version
    let mut old = HashMap::new();
    components(&overview.messages, &mut old);
    let close = press(&surface_id(&overview.messages), &old, "cancel_form", &json!({}));
    let out = act(&me, &overview.form_ref, "op-old", close);
    assert!(matches!(&out, ActionOutcome::Refused { code, .. } if code == "form_stale"), "{out:?}");

    // a button this screen never drew is refused, whatever it names
    let mut forged = press(&surface, &screen, "renew_loan", &date("2027-01-10"));
    forged["sourceComponentId"] = json!("b9_renew");
    let out = act(&me, &one.form_ref, "op-forged", forged);
    assert!(matches!(&out, ActionOutcome::Refused { code, .. } if code == "action_not_allowed"), "{out:?}");
    // a loan the screen did not offer, through its own Renew button
    let mut other = press(&surface, &screen, "renew_loan", &date("2027-01-10"));
    other["context"]["loanId"] = json!("ln-statistics");
    let out = act(&me, &one.form_ref, "op-other", other);
    let ActionOutcome::Rejected(r) = out else { panic!("rejected: {out:?}") };
    assert_eq!(r.errors[0].code, "loan_not_offered", "{:?}", r.errors);
    // outside the range: the service refuses, nothing changes
    let out = act(&me, &one.form_ref, "op-far", press(&surface, &screen, "renew_loan", &date("2027-02-10")));
    let ActionOutcome::Rejected(r) = out else { panic!("rejected: {out:?}") };
    assert_eq!(r.errors[0].code, "out_of_range", "{:?}", r.errors);

    // in range: renewed; the receipt is the service's; the same press again is the same
    let renew = press(&surface, &screen, "renew_loan", &date("2027-01-10"));
    let out = act(&me, &one.form_ref, "op-renew", renew.clone());
    let ActionOutcome::Submitted(done) = out else { panic!("renewed: {out:?}") };
    let receipt = done.receipt.clone().expect("a receipt");
    assert_eq!(receipt["newDueDate"], "2027-01-10");
    assert_eq!(receipt["renewalsUsed"], "1 of 2");
    assert_eq!(done.text, "Renewed: Calculus in Motion is now due 2027-01-10 (Sunday).");
    let again = act(&me, &one.form_ref, "op-renew", renew.clone());
    let ActionOutcome::Submitted(same) = again else { panic!("the stored result: {again:?}") };
    assert_eq!(same.receipt, Some(receipt));
    let twice = act(&me, &one.form_ref, "op-renew-2", renew);
    assert!(matches!(&twice, ActionOutcome::Refused { code, .. } if code == "form_closed"), "{twice:?}");
    // naming a form that is no longer open is no follow-up: the router decides
    let closed = rt().block_on(me.send_follow_up("what is a derivative?", "rq-closed", &one.form_ref));
    let by = closed.expect("ask").attribution.and_then(|a| a["id"].as_str().map(str::to_string));
    assert_eq!(by.as_deref(), Some("tutor"), "the closed screen routes nothing");
    // the loan service says so from now on: a new screen (the last one closed)
    let after = screen_of(&rt().block_on(me.ask("when are my books due?")).expect("ask"));
    assert_ne!(after.form_ref, one.form_ref, "a closed screen is not drawn again");
    let words = words_on(&after.messages).join("\n");
    assert!(words.contains("Due 2027-01-10 (Sunday). Renewable (1 of 2 renewals used)"), "{words}");
    // a one-off question from the command line is a conversation new to the Library, but
    // not one the student began anew: the renewal stands
    let cli = Student::new(A2aClient::default(), u.hub_url.clone()).text_only();
    let said = rt().block_on(cli.ask("when are my books due?")).expect("ask").reply_text;
    assert!(said.contains("due 2027-01-10 (Sunday). Renewable (1 of 2 renewals used)"), "{said}");
    // "New conversation": the demo's loans start again
    me.new_conversation();
    let fresh = screen_of(&rt().block_on(me.ask("when are my books due?")).expect("ask"));
    let words = words_on(&fresh.messages).join("\n");
    assert!(words.contains("Due 2027-01-02 (Saturday). Renewable (0 of 2 renewals used)"), "{words}");
    // and only once: the same conversation goes on with what it does
    let renew = |s: &student::FormReply| {
        let mut screen = HashMap::new();
        components(&s.messages, &mut screen);
        press(&surface_id(&s.messages), &screen, "renew_loan", &date("2027-01-04"))
    };
    let one = screen_of(&rt().block_on(me.ask("renew my calculus book")).expect("ask"));
    let out = act(&me, &one.form_ref, "op-anew", renew(&one));
    assert!(matches!(out, ActionOutcome::Submitted(_)), "{out:?}");
    let said = rt().block_on(me.ask("when are my books due?")).expect("ask");
    let words = words_on(&screen_of(&said).messages).join("\n");
    assert!(words.contains("Due 2027-01-04 (Monday). Renewable (1 of 2 renewals used)"), "{words}");
}

#[test]
fn a_hold_placed_behind_an_open_screen_makes_its_renewal_stale() {
    use std::collections::HashMap;
    use student::ActionOutcome;
    use testkit::forms::{components, press, surface_id};

    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    let one = screen_of(&rt().block_on(me.ask("renew my statistics book")).expect("ask"));
    let mut screen = HashMap::new();
    components(&one.messages, &mut screen);
    // another borrower places a hold, in the Library's own file, while the screen is open
    let file = store::file_for(u.library.data_dir().expect("its own data folder"), "library");
    assert!(
        store::Store::open(&file)
            .expect("the library's store")
            .place_hold("ln-statistics")
            .unwrap()
            .is_some()
    );
    let values = json!({"returnDate/ln-statistics": "2027-01-12"});
    let out = rt().block_on(me.act(
        &one.form_ref,
        "op-1",
        press(&surface_id(&one.messages), &screen, "renew_loan", &values),
    ));
    let ActionOutcome::Rejected(r) = out else { panic!("refused as stale: {out:?}") };
    assert_eq!(r.errors[0].code, "stale_version", "{:?}", r.errors);
    // asked again, the screen says why and offers no renewal
    let again = screen_of(&rt().block_on(me.ask("renew my statistics book")).expect("ask"));
    let words = words_on(&again.messages).join("\n");
    assert!(words.contains("another borrower has placed a hold on it"), "{words}");
    let mut screen = HashMap::new();
    components(&again.messages, &mut screen);
    assert!(!screen.values().any(|c| c["component"] == "DateTimeInput"), "no picker for a held loan");
}

#[test]
fn in_catalog_mode_the_same_loan_screens_pass_the_catalog_checks_and_renew() {
    use std::collections::HashMap;
    use student::ActionOutcome;
    use testkit::forms::{components, press, surface_id};

    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK), ("LIBRARY_UI", "catalog")]);
    u.wait_ready();
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    let one = screen_of(&rt().block_on(me.ask("renew my calculus book")).expect("ask"));
    let mut screen = HashMap::new();
    components(&one.messages, &mut screen);
    let picker = screen.values().find(|c| c["component"] == "DateTimeInput").expect("a date picker");
    assert_eq!((picker["min"].as_str(), picker["max"].as_str()), (Some("2027-01-03"), Some("2027-01-23")));
    let renew = press(
        &surface_id(&one.messages),
        &screen,
        "renew_loan",
        &json!({"returnDate/ln-calculus": "2027-01-05"}),
    );
    let out = rt().block_on(me.act(&one.form_ref, "op-cat", renew));
    let ActionOutcome::Submitted(done) = out else { panic!("renewed: {out:?}") };
    assert_eq!(done.receipt.unwrap()["newDueDate"], "2027-01-05");
    // the inspector says which mode composed it
    let events = testkit::feed_events(&u.library_url);
    let published = events.iter().filter(|e| e["kind"] == "reply_published");
    let inspector =
        published.filter_map(|e| e["data"].get("inspector")).next_back().expect("an inspector record");
    assert_eq!((&inspector["mode"], &inspector["composer"]), (&json!("catalog"), &json!("offline")));
}

#[test]
fn a_renewal_happens_once_across_a_library_restart_and_the_inspector_shows_words_only_when_asked() {
    use std::collections::HashMap;
    use student::ActionOutcome;
    use testkit::forms::{components, press, surface_id};

    let data = testkit::TempDir::new();
    let show = [("HUB_TELEMETRY_SHOW_CONTENT", "1")];
    let library_env = [("LIBRARY_CLOCK", CLOCK), ("CAMPUS_DATA_DIR", data.as_str()), show[0]];
    let mut u = University::start(&show, &library_env);
    u.wait_ready();
    let me = Student::new(A2aClient::default(), u.hub_url.clone());
    let one = screen_of(&rt().block_on(me.ask("renew my calculus book")).expect("ask"));
    // started to show content, the inspector has the surface's words too
    let events = testkit::feed_events(&u.hub_url);
    let relayed = events.iter().rev().find_map(|e| e["data"].get("inspector")).expect("relayed by the hub");
    let words = relayed["content"].as_str().expect("the whole surface");
    assert!(words.contains("Calculus in Motion") && words.contains("DateTimeInput"), "{words}");
    let mut screen = HashMap::new();
    components(&one.messages, &mut screen);
    let renew = press(
        &surface_id(&one.messages),
        &screen,
        "renew_loan",
        &json!({"returnDate/ln-calculus": "2027-01-08"}),
    );
    let first = rt().block_on(me.act(&one.form_ref, "op-restart", renew.clone()));
    let ActionOutcome::Submitted(done) = first else { panic!("renewed: {first:?}") };
    // the Library killed and started again on its own file: the same press renews nothing more
    u.restart_library(&data, &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    let again = rt().block_on(me.act(&one.form_ref, "op-restart", renew));
    let ActionOutcome::Submitted(same) = again else { panic!("the stored result: {again:?}") };
    assert_eq!(same.receipt, done.receipt);
    let after = screen_of(&rt().block_on(me.ask("when are my books due?")).expect("ask"));
    let words = words_on(&after.messages).join("\n");
    assert!(
        words.contains("Due 2027-01-08 (Friday). Renewable (1 of 2 renewals used)"),
        "renewed once: {words}"
    );
}
