//! Presses without a confirmation in time (only "Check status", the same operation) and
//! presses that cannot reach the university (not delivered, the draft kept).

use serde_json::json;

use super::*;

/// A press the Hub forwarded and got no confirmation for in time (the Tutor takes 3 s over
/// its first action, the Hub waits 1 s) shows "Confirmation pending" with "Check status"
/// as the only thing to press; nothing is sent again by itself, even once the Tutor has
/// recorded the request; "Check status" sends the same action with the same operation id
/// and shows the Tutor's receipt, and there is still one request.
#[test]
fn a_press_without_a_confirmation_in_time_offers_only_check_status_which_reconciles_the_same_operation() {
    browser_test_in(
        "browser: confirmation pending",
        &[("HUB_FORWARD_TIMEOUT_MS", "1000")],
        &[("CAMPUS_TEST_DELAY_FIRST_ACTION_MS", "3000")],
        async |d, campus| {
            let (c, form_ref) = form_page(d, campus, TUTORING).await;
            fill_tutoring(&c, "the chain rule").await;
            click_button(&c, "Send tutoring request").await;
            wait_state(&c, &form_ref, "confirmation_pending").await;
            let pending = offered(&c, &form_ref).await;
            assert!(pending["status"].as_str().unwrap().starts_with("Confirmation pending"), "{pending}");
            assert_eq!(pending["buttons"], json!(["Check status"]), "only a reconcile is offered: {pending}");
            assert_eq!(
                pending["surfaceButtons"],
                json!([]),
                "the form's own buttons are not shown: {pending}"
            );
            assert_eq!(pending["focusable"], false, "the fields are read-only: {pending}");
            screenshot_form(&c, &form_ref, "form-pending").await;
            no_violations(&c, "a form awaiting its confirmation").await;
            let first = action_runs(&c).await;
            assert_eq!(first.len(), 1, "one press, one run");
            let action = the_action(&first[0], &form_ref);

            // the Tutor finishes and records the request; the page sends nothing by itself
            let tutor = &campus.u.tutor;
            off_runtime(|| {
                testkit::poll(20, "the tutor's record", || {
                    (testkit::tutoring_requests(tutor) == 1).then_some(())
                })
            });
            let still = offered(&c, &form_ref).await;
            assert!(still["status"].as_str().unwrap().starts_with("Confirmation pending"), "{still}");
            assert_eq!(action_runs(&c).await.len(), 1, "nothing retried on its own");

            // "Check status": the same action, the same operation id; the receipt
            find(&c, &format!("[data-form-ref=\"{form_ref}\"] > button"))
                .await
                .click()
                .await
                .expect("press Check status");
            wait_state(&c, &form_ref, "submitted").await;
            let runs = action_runs(&c).await;
            assert_eq!(runs.len(), 2, "one reconcile");
            assert_eq!(runs[1]["forwardedProps"]["operationId"], first[0]["forwardedProps"]["operationId"]);
            let again = the_action(&runs[1], &form_ref);
            assert_eq!((&again["name"], &again["context"]), (&action["name"], &action["context"]));
            let (text, surface) = receipt(&c, &form_ref).await;
            assert!(text.contains("tr-") && text.contains("the chain rule"), "the receipt: {text}");
            assert!(!surface, "the receipt replaced the form");
            screenshot(&c, "form-pending-reconciled").await;
            assert_eq!(
                off_runtime(|| testkit::tutoring_requests(tutor)),
                1,
                "one request, however often asked"
            );
            c.close().await.unwrap();
        },
    );
}

/// A press the UI server cannot deliver (the Hub is down: killed before the press) shows
/// "Not delivered" with the typed values kept and the button to press again; nothing was
/// recorded. With the Hub back (same port, same data folder) the same button delivers,
/// and the Tutor has exactly one request.
#[test]
fn a_press_that_cannot_reach_the_university_is_not_delivered_keeps_the_draft_and_sends_once_the_hub_is_back()
{
    browser_test("browser: not delivered", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, TUTORING).await;
        fill_tutoring(&c, "limits").await;
        let typed = text_values(&c).await;

        off_runtime(|| campus.u.hub.take().expect("the hub").kill());
        click_button(&c, "Send tutoring request").await;
        wait_state(&c, &form_ref, "not_delivered").await;
        let shown = offered(&c, &form_ref).await;
        assert!(shown["status"].as_str().unwrap().starts_with("Not delivered"), "{shown}");
        assert_eq!(shown["buttons"], json!(["Cancel", "Send tutoring request"]), "Submit again: {shown}");
        assert_eq!(shown["focusable"], true, "the fields take changes: {shown}");
        assert_eq!(text_values(&c).await, typed, "the draft is kept");
        screenshot_form(&c, &form_ref, "form-not-delivered").await;
        no_violations(&c, "a form not delivered").await;
        let requests = |campus: &Campus| off_runtime(|| testkit::tutoring_requests(&campus.u.tutor));
        assert_eq!(requests(campus), 0, "nothing reached the Tutor");

        // the Hub comes back on its port with its data; the same button delivers
        off_runtime(|| {
            campus.u.start_hub();
            campus.u.wait_ready();
        });
        click_button(&c, "Send tutoring request").await;
        wait_state(&c, &form_ref, "submitted").await;
        let runs = action_runs(&c).await;
        assert_eq!(runs.len(), 2, "two presses, two runs");
        for run in &runs {
            assert_eq!(the_action(run, &form_ref)["context"]["topic"], "limits");
        }
        let (text, _) = receipt(&c, &form_ref).await;
        assert!(text.contains("tr-") && text.contains("limits"), "the receipt: {text}");
        assert_eq!(requests(campus), 1, "one request recorded");
        c.close().await.unwrap();
    });
}
