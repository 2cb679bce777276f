//! The study-room booking: times found and applied in place, reviewed and confirmed; a
//! time taken meanwhile is rejected with the error and fresh times.

use serde_json::json;

use super::*;

#[test]
fn the_booking_form_finds_times_in_place_reviews_and_confirms() {
    browser_test("browser: booking form", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, BOOKING).await;
        let drawn = in_form(
            &c,
            "window.__surface = f.querySelector('a2ui-surface'); window.__size = pick('input[type=number]'); \
             return {date: pick('input[type=date]')?.value, size: window.__size?.value, \
             options: [...r.querySelectorAll('label.a2ui-option-label')].map(l => l.textContent.trim()), \
             buttons: [...r.querySelectorAll('button')].map(b => b.textContent.trim())};",
        )
        .await;
        assert_eq!(drawn["size"], "4", "prefilled from the question: {drawn}");
        assert_eq!(
            drawn["buttons"],
            json!(["Find times", "Cancel"]),
            "the first screen can be cancelled: {drawn}"
        );
        assert!(drawn["date"].as_str().is_some_and(|d| d.len() == 10), "prefilled date: {drawn}");
        assert!(
            drawn["options"].as_array().unwrap().iter().any(|o| o == "Room B (up to 6 people)"),
            "{drawn}"
        );
        no_violations(&c, "the booking form").await;
        let runs_before = runs_posted(&c).await.len();

        find_times_in_b(&c).await;
        // applied in place: the same surface and the same elements, the choices kept
        let kept = in_form(
            &c,
            "return {surface: window.__surface === f.querySelector('a2ui-surface'), size: window.__size.isConnected, \
             room: pick('input[type=radio][value=B]').checked, hour: pick('input[type=radio][value=\"1\"]').checked};",
        )
        .await;
        assert_eq!(kept, json!({"surface": true, "size": true, "room": true, "hour": true}));
        let runs = runs_posted(&c).await;
        assert_eq!(runs.len(), runs_before + 1);
        let find = the_action(&runs[runs_before], &form_ref);
        assert_eq!(find["context"]["room"], json!(["B"]), "{find}");
        // the press is the strip's current run, with steps of its own: the Hub checked the
        // form and passed the press to the Library, which answered
        let press_run = runs[runs_before]["runId"].as_str().expect("the press's run id").to_string();
        let steps = hops_settled(&c, &press_run).await;
        assert!(steps.iter().all(|s| s == "done"), "every step of the press reported: {steps:?}");
        let strip = js(
            &c,
            "return {title: document.getElementById('hops-title').textContent,              names: [...document.querySelectorAll('#hops .hop-name')].map(n => n.textContent)};",
        )
        .await;
        assert_eq!(strip["title"], "This form press's path", "{strip}");
        let names = strip["names"].as_array().unwrap();
        assert_eq!(
            (names[2].as_str(), names[3].as_str()),
            (Some("Hub checked the form"), Some("Hub forwarded to Library")),
            "{strip}"
        );
        screenshot(&c, "form-booking-times").await;
        no_violations(&c, "the booking form with its times").await;

        review_first_time(&c).await;
        screenshot(&c, "form-booking-review").await;
        no_violations(&c, "the booking's review").await;
        click_button(&c, "Confirm demo booking").await;
        wait_state(&c, &form_ref, "submitted").await;
        let runs = runs_posted(&c).await;
        assert_eq!(runs.len(), runs_before + 3, "find, review, confirm: one run each");
        for run in &runs[runs_before..] {
            the_action(run, &form_ref);
        }
        let (text, surface) = receipt(&c, &form_ref).await;
        assert!(text.contains("bk-") && text.contains("Room") && text.contains('B'), "the receipt: {text}");
        assert!(!surface, "the receipt replaced the form");
        screenshot(&c, "form-booking-receipt").await;
        // the receipt's words are the Library's, not an anonymous notice
        until(
            &c,
            "the receipt's line said by the Library",
            "const w = [...document.querySelectorAll('#chat-log .msg .who')].pop()?.textContent || ''; return w.includes('Library') && w.includes('bk-') === false;",
        )
        .await;
        c.close().await.unwrap();
    });
}

/// Chooses room B for 1 hour and presses "Find times"; waits for the free times.
pub(super) async fn find_times_in_b(c: &Client) {
    in_form(c, "pick('input[type=radio][value=B]').click(); pick('input[type=radio][value=\"1\"]').click();")
        .await;
    click_button(c, "Find times").await;
    until(
        c,
        "the free times",
        &format!("{SURF} return r.querySelector('input[type=radio][value^=\"s-\"]') ? true : null;"),
    )
    .await;
}

/// Chooses the first free time and presses "Review booking"; waits for the review.
pub(super) async fn review_first_time(c: &Client) {
    in_form(c, "pick('input[type=radio][value^=\"s-\"]').click();").await;
    click_button(c, "Review booking").await;
    until(c, "the review screen", &format!("{SURF} return r?.textContent.includes('Review your booking');"))
        .await;
}

/// The time labels (`HH:MM–HH:MM`) the open booking form offers now.
async fn time_labels(c: &Client) -> Vec<String> {
    let v = in_form(
        c,
        "return [...r.querySelectorAll('label.a2ui-option-label')].map(l => l.textContent.trim()).filter(t => /^\\d\\d:\\d\\d–/.test(t));",
    )
    .await;
    v.as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect()
}

/// Another student books `label` (room B, 1 hour, the date BOOKING names) through the Hub,
/// from their own conversation, as the page's student reviews it.
async fn book_first_elsewhere(hub_url: &str, label: &str) {
    use student::{ActionOutcome, Reply, Student};
    use testkit::forms::{components, prefill, press, surface_id};
    let other = Student::with_student_id(a2a::client::A2aClient::default(), hub_url, "other-student");
    let asked = other.ask(BOOKING).await.expect("the hub answers");
    let Reply::Form(f) = asked.reply else { panic!("a form: {}", asked.reply_text) };
    let surface = surface_id(&f.messages);
    let mut screen = std::collections::HashMap::new();
    components(&f.messages, &mut screen);
    let mut values = prefill(&f.messages);
    values["room"] = json!(["B"]);
    values["duration"] = json!(["1"]);
    let find = press(&surface, &screen, "find_times", &values);
    let ActionOutcome::Updated(times) = other.act(&f.form_ref, "other-find", find).await else {
        panic!("times")
    };
    components(&times.messages, &mut screen);
    let picker = screen.values().find(|c| c["id"] == "slot_field").expect("a slot picker");
    let option = picker["options"].as_array().unwrap().iter().find(|o| o["label"] == label);
    values["slot"] = json!([option.unwrap_or_else(|| panic!("{label} offered: {picker}"))["value"]]);
    for (name, op) in [("review_booking", "other-review"), ("confirm_booking", "other-confirm")] {
        let out = other.act(&f.form_ref, op, press(&surface, &screen, name, &values)).await;
        match out {
            ActionOutcome::Updated(next) => components(&next.messages, &mut screen),
            ActionOutcome::Submitted(_) => {}
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// A time taken by someone else while this student reviews it: Confirm is rejected, the
/// page shows the agent's field error and the refreshed times, and the form stays open.
#[test]
fn a_confirmation_of_a_time_taken_meanwhile_is_rejected_with_the_error_and_fresh_times() {
    browser_test("browser: booking rejected", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, BOOKING).await;
        find_times_in_b(&c).await;
        let before = time_labels(&c).await;
        let first = before.first().expect("free times").clone();
        review_first_time(&c).await;

        book_first_elsewhere(&campus.u.hub_url, &first).await;
        click_button(&c, "Confirm demo booking").await;
        wait_state(&c, &form_ref, "rejected").await;
        let error = js(
            &c,
            &format!(
                "const f = document.querySelector('[data-form-ref=\"{form_ref}\"]'); const e = f.querySelector('ul.form-errors'); \
                 return {{hidden: e.hidden, slot: [...e.querySelectorAll('li[data-field=slot]')].map(l => l.textContent)}};"
            ),
        )
        .await;
        assert_eq!(error["hidden"], false, "{error}");
        // and said next to the buttons that were pressed, in a polite live region: the
        // element right after the surface that holds them
        let said = js(
            &c,
            &format!(
                "const f = document.querySelector('[data-form-ref=\"{form_ref}\"]'); const p = f.querySelector('p.form-problem'); \
                 return {{text: p.textContent, live: p.getAttribute('aria-live'), afterButtons: p.previousElementSibling === f.querySelector('.form-host')}};"
            ),
        )
        .await;
        assert!(said["text"].as_str().unwrap().contains("no longer free"), "{said}");
        assert_eq!(
            (said["live"].as_str(), said["afterButtons"].as_bool()),
            (Some("polite"), Some(true)),
            "{said}"
        );
        let slot_errors = error["slot"].as_array().unwrap();
        assert!(
            slot_errors.len() == 1 && slot_errors[0].as_str().unwrap().contains("no longer free"),
            "the agent's field error: {error}"
        );
        let after = until(
            &c,
            "the refreshed times",
            &format!("{SURF} return r.querySelector('input[type=radio][value^=\"s-\"]') && !r.textContent.includes('Review your booking');"),
        )
        .await;
        assert_eq!(after, Value::Bool(true));
        let now_offered = time_labels(&c).await;
        assert!(!now_offered.contains(&first), "{first} is gone: {now_offered:?}");
        assert!(!now_offered.is_empty(), "other times are still free");
        let open = offered(&c, &form_ref).await;
        assert!(
            open["surfaceButtons"].as_array().unwrap().iter().any(|b| b == "Review booking"),
            "the form is still open to choose again: {open}"
        );
        assert!(receipt(&c, &form_ref).await.1, "no receipt: the form is still there");
        screenshot(&c, "form-booking-rejected").await;
        c.close().await.unwrap();
    });
}
