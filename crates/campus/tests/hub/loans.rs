//! One's own loans through the real Hub and Library, offline, under a fixed
//! `LIBRARY_CLOCK`: the demo student's loans with the loan service's dates, never another
//! borrower's; and no loan data for anyone the Hub did not vouch for — a direct A2A call
//! naming a student, one with a forged signature, an anonymous asker through the Hub.

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
        let me = Student::new(A2aClient::default(), u.hub_url.clone());
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
        let rules = me.ask("how many times can I renew a book?").await.expect("ask");
        assert!(rules.reply_text.contains("up to 2 times"), "{}", rules.reply_text);
        assert!(!rules.reply_text.contains("Calculus in Motion"), "{}", rules.reply_text);
        // an anonymous asker: the Hub vouches for no one, so no loans
        let anonymous =
            Student::with_student_id(A2aClient::default(), u.hub_url.clone(), vocab::form::ANONYMOUS_STUDENT);
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
    for text in [direct, forged] {
        assert_eq!(text, NOT_VOUCHED);
        for title in OWN.iter().chain([&THEIRS]) {
            assert!(!text.contains(title), "{text}");
        }
    }
}
