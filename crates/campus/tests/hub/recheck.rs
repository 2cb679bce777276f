//! A question whose outcome was unknown, asked again with the same request id: the Hub
//! asks the specialist what became of it by the forward's operation id. A stored answer
//! comes back, one it never finished is reported as not answered, and the work is never
//! done twice — after a Hub timeout, a Hub killed mid-forward, and a Tutor killed
//! mid-question.

use testkit::{TempDir, University, ask_as, poll, received, rt};

const QUESTION: &str = "How do I find the derivative of x^2?";

/// Asks again until the outcome is no longer unknown; the exchange that settled it.
fn until_settled(hub_url: &str, context: &str, request_id: &str) -> student::Exchange {
    poll(20, "the outcome settled", || {
        let ex = ask_as(hub_url, Some(context), request_id, QUESTION);
        (ex.outcome.as_deref() != Some("outcome_unknown")).then_some(ex)
    })
}

#[test]
fn after_a_hub_timeout_a_retry_gets_the_tutors_answer_and_the_work_ran_once() {
    let u = University::start_with(
        &[("HUB_FORWARD_TIMEOUT_MS", "400")],
        &[("CAMPUS_TEST_DELAY_FIRST_QUESTION_MS", "1500")],
        &[],
    );
    u.wait_ready();
    let first = ask_as(&u.hub_url, None, "r-timeout", QUESTION);
    assert_eq!(first.outcome.as_deref(), Some("outcome_unknown"), "{first:?} {:?}", u.tutor.stderr());
    assert!(first.reply_text.contains("Check for the answer"), "{}", first.reply_text);
    let settled = until_settled(&u.hub_url, &first.context_id, "r-timeout");
    assert_eq!((settled.outcome.as_deref(), settled.served_by_id()), (Some("route"), Some("tutor")));
    assert!(
        settled.reply_text.contains("2x") || settled.reply_text.contains("2*x"),
        "{}",
        settled.reply_text
    );
    // settled for good: the next retry is answered from the ledger, the same answer
    let again = ask_as(&u.hub_url, Some(&first.context_id), "r-timeout", QUESTION);
    assert_eq!(again.reply_text, settled.reply_text);
    assert_eq!(received(&u.tutor), 1, "the tutor did the work once");
}

#[test]
fn after_the_hub_is_killed_mid_forward_a_retry_asks_and_gets_the_answer() {
    let mut u = University::start_with(&[], &[("CAMPUS_TEST_DELAY_FIRST_QUESTION_MS", "2500")], &[]);
    u.wait_ready();
    // the router trained on every card (before that it knows only the configured
    // capabilities' few words, and may ask this question back)
    poll(15, "the router trained on the cards", || {
        testkit::feed_events(&u.hub_url)
            .iter()
            .any(|e| e["kind"] == "router_trained" && e["data"]["skills"] == 11)
            .then_some(())
    });
    let hub_url = u.hub_url.clone();
    let asking = std::thread::spawn(move || {
        let me = student::Student::new(a2a::client::A2aClient::default(), &hub_url);
        rt().block_on(me.ask_with_request_id(QUESTION, "r-killed")).map(|e| e.context_id)
    });
    // the Tutor has the question (and holds it 2.5 s) before the Hub dies: the Hub's own
    // "forwarding" line comes before the message is on its way
    u.hub().wait_for_log(|l| l.contains("forwarding"));
    u.tutor.wait_for_log(|l| l.contains("working on an operation"));
    drop(u.hub.take()); // SIGKILL mid-forward
    let first = asking.join().unwrap();
    assert!(first.is_err(), "the first attempt got no answer: {first:?}");
    u.start_hub();
    u.wait_ready();
    // a first question: its conversation is the one the Hub assigned, found under the
    // request id alone
    let settled = poll(20, "the outcome settled", || {
        let ex = ask_as(&u.hub_url, None, "r-killed", QUESTION);
        (ex.outcome.as_deref() != Some("outcome_unknown")).then_some(ex)
    });
    assert_eq!((settled.outcome.as_deref(), settled.served_by_id()), (Some("route"), Some("tutor")));
    assert_eq!(received(&u.tutor), 1, "the tutor did the work once");
}

#[test]
fn a_question_the_tutor_never_finished_is_reported_not_answered_and_can_be_asked_anew() {
    let data = TempDir::new();
    let mut u = University::start_with(
        &[("HUB_FORWARD_TIMEOUT_MS", "400")],
        &[("CAMPUS_DATA_DIR", data.as_str()), ("CAMPUS_TEST_DELAY_FIRST_QUESTION_MS", "5000")],
        &[],
    );
    u.wait_ready();
    let first = ask_as(&u.hub_url, None, "r-lost", QUESTION);
    assert_eq!(first.outcome.as_deref(), Some("outcome_unknown"));
    // the Tutor dies mid-question and comes back
    u.restart_tutor(&data, &[], || {});
    poll(15, "the new tutor ready", || (u.status("tutor") == "ready").then_some(()));
    let settled = until_settled(&u.hub_url, &first.context_id, "r-lost");
    assert_eq!(settled.outcome.as_deref(), Some("failed"), "{settled:?}");
    assert!(settled.reply_text.contains("never finished"), "{}", settled.reply_text);
    assert_eq!(received(&u.tutor), 0, "nothing ran twice: the new tutor did no work");
    // asked anew (a new request id), it is answered
    let anew = ask_as(&u.hub_url, Some(&first.context_id), "r-lost-2", QUESTION);
    assert_eq!((anew.outcome.as_deref(), anew.served_by_id()), (Some("route"), Some("tutor")));
}
