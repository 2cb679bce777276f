//! Forms in the page, in a real browser: the official A2UI renderer (`<a2ui-surface>`)
//! draws the Tutor's and the Library's forms inside the conversation; typing sends
//! nothing; the renderer's own checks hold a press back; Submit posts one schema-valid
//! action and the receipt replaces the form; the booking's times apply in place; both
//! workflows by keyboard alone; a press with no confirmation in time offers only "Check
//! status" (the same operation); a press that cannot be delivered keeps the draft; a chat
//! message fills the open form and sends nothing but a question in it. Screenshots go to
//! target/screenshots/form-*.png.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use serde_json::json;

use super::*;

const TUTORING: &str = testkit::forms::TUTORING_QUESTION;
const BOOKING: &str = "I want to reserve a group study room for 4 people tomorrow";

/// Script prelude: `f`, the last form in the chat, and `r`, its surface's shadow root.
const SURF: &str = "const f = [...document.querySelectorAll('#chat-log [data-form-id]')].pop(); \
                    const r = f?.querySelector('a2ui-surface')?.shadowRoot;";

/// Wraps the page's fetch so the test sees every run it POSTs (their bodies).
async fn record_runs(c: &Client) {
    js(
        c,
        "if (!window.__runs) { window.__runs = []; const f = window.fetch; \
         window.fetch = (u, o) => { if (String(u).includes('/api/ag-ui/runs')) window.__runs.push(JSON.parse(o.body)); return f(u, o); }; }",
    )
    .await;
}

async fn runs_posted(c: &Client) -> Vec<Value> {
    js(c, "return window.__runs;").await.as_array().cloned().unwrap_or_default()
}

/// Asks `question` and waits until the renderer drew the form it brought; its formRef.
async fn ask_for_form(c: &Client, question: &str) -> String {
    ask(c, question).await;
    until(
        c,
        "the form drawn by the renderer",
        &format!("{SURF} return r && r.querySelector('button') && f.dataset.formState === 'editing' ? f.dataset.formRef : null;"),
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// A new window on the conversation, recording the runs it posts, with the form that
/// `question` brought drawn; the window and the form's formRef.
async fn form_page(d: &Driver, campus: &Campus, question: &str) -> (Client, String) {
    let c = d.session(true).await;
    open(&c, &campus.url("/")).await;
    record_runs(&c).await;
    let form_ref = ask_for_form(&c, question).await;
    (c, form_ref)
}

/// Runs `body` with `f`, `r` and `pick(css, i)` (the i-th match inside the surface).
async fn in_form(c: &Client, body: &str) -> Value {
    js(c, &format!("{SURF} const pick = (css, i = 0) => r.querySelectorAll(css)[i]; {body}")).await
}

/// Clicks the surface's button that reads `text`.
async fn click_button(c: &Client, text: &str) {
    let found = in_form(
        c,
        &format!(
            "const b = [...r.querySelectorAll('button')].find(b => b.textContent.trim() === {text:?}); if (!b) return false; b.click(); return true;"
        ),
    )
    .await;
    assert_eq!(found, Value::Bool(true), "no button {text:?}");
}

/// Types `text` as real key presses into whatever has focus.
async fn type_keys(c: &Client, text: &str) {
    let mut keys = KeyActions::new("keyboard".into());
    for ch in text.chars() {
        keys = keys.then(KeyAction::Down { value: ch }).then(KeyAction::Up { value: ch });
    }
    c.perform_actions(keys).await.expect("type");
}

async fn key(c: &Client, k: Key) {
    type_keys(c, &char::from(k).to_string()).await;
}

async fn shift_tab(c: &Client) {
    let (shift, tab) = (char::from(Key::Shift), char::from(Key::Tab));
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: shift })
        .then(KeyAction::Down { value: tab })
        .then(KeyAction::Up { value: tab })
        .then(KeyAction::Up { value: shift });
    c.perform_actions(keys).await.expect("shift+tab");
}

/// The focused element, looking through shadow roots: tag, type, its label (the field's
/// label, the option's, or a button's text), whether it is inside a form's surface.
async fn deep_focus(c: &Client) -> Value {
    js(
        c,
        "let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; \
         const label = a.closest('label')?.textContent || (a.tagName === 'BUTTON' ? a.textContent : '') || a.parentElement?.querySelector(':scope > label')?.textContent || a.getAttribute('aria-label') || ''; \
         return {tag: a.tagName.toLowerCase(), type: a.type || '', label: label.trim().replace(/\\s+/g, ' '), inForm: a.getRootNode() !== document, checked: !!a.checked};",
    )
    .await
}

/// Presses Tab (or Shift+Tab) until the focused element's label starts with `label`.
async fn focus_label(c: &Client, label: &str, back: bool) -> Value {
    focus_among(c, &[label], back).await
}

/// Presses Tab (or Shift+Tab) until the focused element's label starts with one of `labels`.
async fn focus_among(c: &Client, labels: &[&str], back: bool) -> Value {
    for _ in 0..60 {
        let f = deep_focus(c).await;
        let now = f["label"].as_str().unwrap_or("");
        if f["inForm"] == Value::Bool(true) && labels.iter().any(|l| now.starts_with(l)) {
            return f;
        }
        if back { shift_tab(c).await } else { key(c, Key::Tab).await }
    }
    let shot =
        screenshot(c, &format!("failed-focus-{}", labels[0].replace(|c: char| !c.is_alphanumeric(), "-")))
            .await;
    panic!("the keyboard never reached {labels:?} (screenshot {})", shot.display())
}

async fn wait_state(c: &Client, form_ref: &str, state: &str) {
    until(
        c,
        &format!("the form {state}"),
        &format!("return document.querySelector('[data-form-ref=\"{form_ref}\"]')?.dataset.formState === '{state}';"),
    )
    .await;
}

/// The receipt shown in place of the form: its text, and whether any surface is left.
async fn receipt(c: &Client, form_ref: &str) -> (String, bool) {
    let v = js(
        c,
        &format!(
            "const f = document.querySelector('[data-form-ref=\"{form_ref}\"]'); const d = f.querySelector('dl.form-receipt'); \
             return [d.hidden ? '' : d.textContent, !!f.querySelector('a2ui-surface')];"
        ),
    )
    .await;
    (v[0].as_str().unwrap().to_string(), v[1].as_bool().unwrap())
}

/// The one action a run carried: its formRef and operation id as sent, and the A2UI
/// client message, checked against the official v0.9 schema.
fn the_action(run: &Value, form_ref: &str) -> Value {
    let props = &run["forwardedProps"];
    assert_eq!(props["formRef"], form_ref, "{run}");
    assert!(props["operationId"].as_str().is_some_and(|s| !s.is_empty()), "{run}");
    let message = &props["a2uiAction"];
    a2ui::validate_client_message(message)
        .unwrap_or_else(|e| panic!("not a valid A2UI client message: {e:?}\n{message}"));
    message["action"].clone()
}

#[test]
fn the_tutoring_form_is_drawn_by_the_renderer_typing_and_invalid_presses_send_nothing_and_submit_gives_the_receipt()
 {
    browser_test("browser: tutoring form", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, TUTORING).await;
        // the official renderer's own elements, inside the surface's shadow root
        let drawn = in_form(
            &c,
            "return {labels: [...r.querySelectorAll('a2ui-basic-textfield > label')].map(l => l.textContent.trim()), \
             period: r.querySelector('input[type=radio]:checked')?.value, \
             buttons: [...r.querySelectorAll('button')].map(b => b.textContent.trim()), \
             afterText: f.previousElementSibling?.textContent.includes('Here is a form')};",
        )
        .await;
        assert_eq!(drawn["labels"], json!(["Your name", "Email", "Topic", "Notes (optional)"]), "{drawn}");
        assert_eq!(drawn["period"], "afternoon", "prefilled from the question: {drawn}");
        assert_eq!(drawn["buttons"], json!(["Cancel", "Send tutoring request"]), "{drawn}");
        assert_eq!(drawn["afterText"], true, "the form follows the words that offer it: {drawn}");
        screenshot(&c, "form-tutoring-drawn").await;
        // each field is named by the label the renderer draws beside it (the page links them)
        let names = in_form(
            &c,
            "return [...r.querySelectorAll('input:not([type=radio]), textarea')].map(i => r.getElementById(i.getAttribute('aria-labelledby'))?.textContent.trim());",
        )
        .await;
        assert_eq!(
            names,
            json!(["Your name", "Email", "Preferred date (a weekday)", "Topic", "Notes (optional)"]),
            "{names}"
        );
        no_violations(&c, "the tutoring form").await;
        let runs_before = runs_posted(&c).await.len();
        let hub_before = hub_received(&campus.u.hub_url).await;

        // an empty form: the renderer's checks show and hold the press back
        click_button(&c, "Send tutoring request").await;
        let errors =
            in_form(&c, "return [...r.querySelectorAll('.error')].map(e => e.textContent.trim());").await;
        for want in ["Enter your name", "Enter your email address", "Say what you would like help with"] {
            assert!(errors.as_array().unwrap().iter().any(|e| e == want), "{want:?} in {errors}");
        }
        let held = in_form(&c, "return f.querySelector('.form-problem').textContent;").await;
        assert_eq!(held, "Not sent: check Email, Name, Topic.");
        let live = in_form(&c, "return f.querySelector('.form-problem').getAttribute('aria-live');").await;
        assert_eq!(live, "polite", "the problem is announced");
        // typing (a bad email first) sends nothing
        in_form(&c, "pick('input[type=text]', 0).focus();").await;
        type_keys(&c, "Alex Student").await;
        in_form(&c, "pick('input[type=text]', 1).focus();").await;
        type_keys(&c, "not-an-email").await;
        until(
            &c,
            "the renderer's email error",
            &format!("{SURF} return [...r.querySelectorAll('.error')].some(e => e.textContent.includes('alex@example.edu'));"),
        )
        .await;
        click_button(&c, "Send tutoring request").await;
        screenshot(&c, "form-tutoring-invalid").await;
        let described = in_form(
            &c,
            "const i = pick('input[type=text]', 1); return [i.getAttribute('aria-invalid'), r.getElementById(i.getAttribute('aria-describedby'))?.textContent.trim()];",
        )
        .await;
        assert_eq!(described[0], "true", "{described}");
        assert!(described[1].as_str().is_some_and(|t| t.contains("alex@example.edu")), "{described}");
        no_violations(&c, "the tutoring form with the renderer's errors").await;
        for _ in 0.."not-an-email".len() {
            key(&c, Key::Backspace).await;
        }
        type_keys(&c, "alex@example.edu").await;
        in_form(&c, "pick('input[type=text]', 2).focus();").await;
        type_keys(&c, "the chain rule").await;
        until(
            &c,
            "no renderer errors left",
            &format!("{SURF} return r.querySelectorAll('.error').length === 0;"),
        )
        .await;
        assert_eq!(runs_posted(&c).await.len(), runs_before, "typing and invalid presses post no run");
        assert_eq!(hub_received(&campus.u.hub_url).await, hub_before, "nothing reached the Hub");
        screenshot(&c, "form-tutoring-filled").await;

        click_button(&c, "Send tutoring request").await;
        wait_state(&c, &form_ref, "submitted").await;
        let runs = runs_posted(&c).await;
        assert_eq!(runs.len(), runs_before + 1, "one press, one run");
        let action = the_action(&runs[runs_before], &form_ref);
        assert_eq!(action["context"]["name"], "Alex Student", "{action}");
        assert_eq!(action["context"]["email"], "alex@example.edu", "{action}");
        assert_eq!(action["context"]["topic"], "the chain rule", "{action}");
        let (text, surface) = receipt(&c, &form_ref).await;
        assert!(text.contains("tr-") && text.contains("the chain rule"), "the receipt: {text}");
        assert!(!surface, "the receipt replaced the form");
        screenshot(&c, "form-tutoring-receipt").await;
        c.close().await.unwrap();
    });
}

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
async fn find_times_in_b(c: &Client) {
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
async fn review_first_time(c: &Client) {
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

#[test]
fn the_tutoring_request_completes_by_keyboard_alone() {
    browser_test("browser: tutoring form by keyboard", async |d, campus| {
        let c = d.session(true).await;
        open(&c, &campus.url("/")).await;
        find(&c, "#question").await.click().await.expect("the composer");

        let tutoring = ask_for_form(&c, TUTORING).await;
        focus_label(&c, "Your name", true).await;
        type_keys(&c, "Alex Student").await;
        focus_label(&c, "Email", false).await;
        type_keys(&c, "alex@example.edu").await;
        focus_label(&c, "Topic", false).await;
        type_keys(&c, "limits").await;
        focus_label(&c, "Send tutoring request", false).await;
        key(&c, Key::Enter).await;
        wait_state(&c, &tutoring, "submitted").await;
        assert!(receipt(&c, &tutoring).await.0.contains("limits"));
        screenshot(&c, "form-keyboard-tutoring").await;
        c.close().await.unwrap();
    });
}

/// Tab into a radio group lands on its checked option, or (none checked) where Chromium
/// chooses — here the group's last option: the arrow keys move and choose within it, as
/// in any radio group. After "Find times" the form is inert while the press travels
/// (the focus drops to the body); the page gives the focus back to the button.
#[test]
fn the_booking_completes_by_keyboard_alone() {
    browser_test("browser: booking form by keyboard", async |d, campus| {
        let c = d.session(true).await;
        open(&c, &campus.url("/")).await;
        find(&c, "#question").await.click().await.expect("the composer");
        let booking = ask_for_form(&c, BOOKING).await;
        // backwards into a group with nothing chosen lands on its last option (Room C)
        focus_label(&c, "Room ", true).await;
        key(&c, Key::Space).await;
        // into the Duration group, then the arrow keys to "1 hour" (choosing it)
        let mut at = focus_among(&c, &["1 hour", "2 hours"], false).await;
        for _ in 0..2 {
            if at["label"] == "1 hour" && at["checked"] == Value::Bool(true) {
                break;
            }
            key(&c, Key::Up).await;
            at = deep_focus(&c).await;
        }
        assert_eq!((&at["label"], &at["checked"]), (&json!("1 hour"), &json!(true)), "{at}");
        focus_label(&c, "Find times", false).await;
        key(&c, Key::Enter).await;
        until(
            &c,
            "the free times",
            &format!("{SURF} return r.querySelector('input[type=radio][value^=\"s-\"]');"),
        )
        .await;
        let chosen =
            in_form(&c, "return [...r.querySelectorAll('input[type=radio]:checked')].map(i => i.value);")
                .await;
        assert_eq!(chosen, json!(["C", "1"]), "the room and the hour chosen by keyboard");
        // the focus came back to the button once the times arrived
        let back = until(
            &c,
            "the focus back on Find times",
            "let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; \
             return a.tagName === 'BUTTON' && a.textContent.trim() === 'Find times';",
        )
        .await;
        assert_eq!(back, Value::Bool(true));
        // the slot group after the button: Tab lands in it; Space chooses that time
        key(&c, Key::Tab).await;
        let slot = deep_focus(&c).await;
        assert_eq!(slot["type"], "radio", "{slot}");
        key(&c, Key::Space).await;
        focus_label(&c, "Review booking", false).await;
        key(&c, Key::Enter).await;
        until(
            &c,
            "the review screen",
            &format!("{SURF} return r?.textContent.includes('Review your booking');"),
        )
        .await;
        focus_label(&c, "Confirm demo booking", false).await;
        key(&c, Key::Enter).await;
        wait_state(&c, &booking, "submitted").await;
        assert!(receipt(&c, &booking).await.0.contains("bk-"));
        screenshot(&c, "form-keyboard-done").await;
        c.close().await.unwrap();
    });
}

/// Types a name, an email and `topic` into the open tutoring form, as keys.
async fn fill_tutoring(c: &Client, topic: &str) {
    for (i, text) in ["Alex Student", "alex@example.edu", topic].into_iter().enumerate() {
        in_form(c, &format!("pick('input[type=text]', {i}).focus();")).await;
        type_keys(c, text).await;
    }
    until(
        c,
        "the typed values in the form",
        &format!("{SURF} return r.querySelectorAll('input[type=text]')[2]?.value === {topic:?};"),
    )
    .await;
}

/// The text fields' values in the open form.
async fn text_values(c: &Client) -> Value {
    in_form(c, "return [...r.querySelectorAll('input[type=text]')].map(i => i.value);").await
}

/// What the form `form_ref` offers now: its status line, the buttons a student can see
/// and press (not hidden, not inside an inert part), the surface's buttons still shown,
/// and whether its fields can take the focus.
async fn offered(c: &Client, form_ref: &str) -> Value {
    js(
        c,
        &format!(
            "const f = document.querySelector('[data-form-ref=\"{form_ref}\"]'); const host = f.querySelector('.form-host'); \
             const r = f.querySelector('a2ui-surface')?.shadowRoot; \
             const shown = (b) => b.getClientRects().length > 0 && !b.disabled; \
             const mine = [...f.querySelectorAll(':scope > button')].filter(b => shown(b) && !b.closest('[inert]')); \
             const surface = r ? [...r.querySelectorAll('button')].filter(shown) : []; \
             const input = r?.querySelector('input[type=text]'); input?.focus(); \
             const text = (b) => b.textContent.trim(); \
             return {{status: f.querySelector('.form-status').textContent, \
                      buttons: [...mine, ...(host.inert ? [] : surface)].map(text), surfaceButtons: surface.map(text), \
                      focusable: !!input && r.activeElement === input}};"
        ),
    )
    .await
}

/// Scrolls the chat so the form (its status line first) is at its top; saves a screenshot.
async fn screenshot_form(c: &Client, form_ref: &str, name: &str) {
    js(
        c,
        &format!(
            "const f = document.querySelector('[data-form-ref=\"{form_ref}\"]'); let box = f.parentElement; \
             while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement; \
             if (box) box.scrollTop += f.getBoundingClientRect().top - box.getBoundingClientRect().top;"
        ),
    )
    .await;
    screenshot(c, name).await;
}

/// The runs this window posted that carried a form's action.
async fn action_runs(c: &Client) -> Vec<Value> {
    runs_posted(c).await.into_iter().filter(|r| r["forwardedProps"].get("a2uiAction").is_some()).collect()
}

/// The Hub's own events of `kind` (its feed, not the relayed ones).
async fn hub_events(hub_url: &str, kind: &'static str) -> Vec<Value> {
    let url = hub_url.to_string();
    blocking(move || {
        feed_events(&url).into_iter().filter(|e| e["agent"] == "hub" && e["kind"] == kind).collect()
    })
    .await
}

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

/// The assistant messages of run `run` once `n` of them have finished: {id, who, text}.
async fn replies_of(c: &Client, run: &str, n: usize) -> Vec<Value> {
    let v = until(
        c,
        &format!("{n} replies"),
        &format!(
            "const m = [...document.querySelectorAll('#chat-log .role-assistant')].filter(m => m.dataset.runId === '{run}'); \
             if (m.length < {n} || m.some(m => m.getAttribute('aria-busy') === 'true' || m.querySelector('.who').textContent === 'Reply')) return null; \
             return m.map(m => ({{id: m.id, who: m.querySelector('.who').textContent, text: m.querySelector('.text').textContent}}));"
        ),
    )
    .await;
    v.as_array().unwrap().clone()
}

/// The booking form's date and group size as drawn.
async fn date_and_size(c: &Client) -> (String, String) {
    let v = in_form(c, "return [pick('input[type=date]').value, pick('input[type=number]').value];").await;
    (v[0].as_str().unwrap().to_string(), v[1].as_str().unwrap().to_string())
}

/// With the booking form open, what the student types in the chat fills its fields (a note
/// says what), never presses its button and reaches no one; a value the form would not
/// take is not filled and the note says why; a question in the same message still goes
/// to the university, and only the question.
#[test]
fn a_chat_message_fills_the_open_form_sends_nothing_and_only_a_question_in_it_goes_out() {
    browser_test("browser: filling a form from the chat", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, BOOKING).await;
        let (tomorrow, size) = date_and_size(&c).await;
        assert_eq!(size, "4", "prefilled from the question");
        let hub = campus.u.hub_url.clone();
        let asked = hub_received(&hub).await;
        let pressed = hub_events(&hub, "form_action_received").await.len();

        let run = ask(&c, "make it Thursday at 3pm for 3 people").await;
        let note = &replies_of(&c, &run, 1).await[0];
        assert!(note["who"].as_str().unwrap().contains("Form filled from your message"), "{note}");
        let text = note["text"].as_str().unwrap();
        assert!(text.starts_with("Filled in the form: date (") && text.contains("group size (3)"), "{text}");
        assert!(text.contains("Nothing was sent"), "{text}");
        let thursday = text.split("date (").nth(1).unwrap().split(')').next().unwrap().to_string();
        until(
            &c,
            "the values filled in",
            &format!("{SURF} return r.querySelector('input[type=date]').value === '{thursday}' && r.querySelector('input[type=number]').value === '3';"),
        )
        .await;
        let weekday = js(&c, &format!("return new Date('{thursday}T12:00:00').getDay();")).await;
        assert_eq!(weekday, 4, "{thursday} is a Thursday");
        assert_eq!(in_form(&c, "return f.dataset.formState;").await, "editing", "not submitted");
        screenshot(&c, "form-filled-from-chat").await;

        // values the form would not take: not filled, and the note says why
        let run = ask(&c, "make it 2024-01-15 for 40 people").await;
        let note = replies_of(&c, &run, 1).await[0]["text"].as_str().unwrap().to_string();
        assert!(note.contains("Not filled: date — choose a date from"), "{note}");
        assert!(note.contains("Not filled: group size — the largest room holds 10 people"), "{note}");
        assert!(!note.contains("Filled in the form"), "{note}");
        assert_eq!(date_and_size(&c).await, (thursday.clone(), "3".to_string()), "the values stay");
        screenshot(&c, "form-not-filled-from-chat").await;
        assert!(action_runs(&c).await.is_empty(), "no press was posted");
        assert_eq!(hub_received(&hub).await, asked, "nothing reached the Hub");

        // a question in the same message: the date filled, only the question goes out
        let question = "also what is a derivative?";
        let run = ask(&c, &format!("book it for tomorrow afternoon — {question}")).await;
        let both = replies_of(&c, &run, 2).await;
        assert!(both[0]["who"].as_str().unwrap().contains("Form filled from your message"), "{both:?}");
        let note = both[0]["text"].as_str().unwrap();
        assert!(note.contains(&format!("date ({tomorrow})")), "{note}");
        assert!(note.contains("The form was not sent (the rest of your message was)"), "{note}");
        assert!(both[1]["who"].as_str().unwrap().contains("Tutor Agent"), "the Tutor answered: {both:?}");
        until(
            &c,
            "tomorrow filled in",
            &format!("{SURF} return r.querySelector('input[type=date]').value === '{tomorrow}';"),
        )
        .await;
        let received = hub_events(&hub, "message_received").await;
        assert_eq!(received.len(), asked + 1, "one question reached the Hub");
        assert_eq!(
            received.last().unwrap()["data"]["textChars"],
            question.chars().count(),
            "the Hub got the question alone"
        );
        let tutor_url = campus.u.tutor_url.clone();
        let at_tutor = blocking(move || {
            feed_events(&tutor_url).into_iter().rfind(|e| e["kind"] == "message_received").unwrap()
        })
        .await;
        assert_eq!(
            at_tutor["data"]["text"],
            format!("[{} chars redacted]", question.chars().count()),
            "the Tutor got the question alone (its feed keeps only the length)"
        );
        assert_eq!(in_form(&c, "return f.dataset.formRef;").await, form_ref.as_str(), "the same form, open");
        assert_eq!(in_form(&c, "return f.dataset.formState;").await, "editing");
        screenshot(&c, "form-filled-and-asked-from-chat").await;
        assert!(action_runs(&c).await.is_empty(), "no press was posted");
        assert_eq!(
            hub_events(&hub, "form_action_received").await.len(),
            pressed,
            "no action reached the Hub"
        );
        c.close().await.unwrap();
    });
}

/// Asks `again` for the form open here (the agent asks "continue" or "replace"), answers
/// "continue" and waits for the form sent again (a new reference); its formRef. The one
/// it replaces is closed.
async fn continue_form(c: &Client, again: &str, old_ref: &str) -> String {
    let run = ask(c, again).await;
    let asked = &replies_of(c, &run, 1).await[0];
    assert!(asked["text"].as_str().unwrap().contains("\"continue\""), "{asked}");
    ask(c, "continue").await;
    let new_ref = until(
        c,
        "the form sent again, drawn",
        &format!(
            "{SURF} return r && r.querySelector('button') && f.dataset.formState === 'editing' && f.dataset.formRef !== '{old_ref}' ? f.dataset.formRef : null;"
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_string();
    wait_state(c, old_ref, "superseded").await;
    new_ref
}

/// "Continue" keeps the form as it stands: the values the agent prefilled come back, and
/// what the student typed into the replaced form and never sent is carried into it; the
/// form then submits once. Both workflows.
#[test]
fn continue_keeps_the_prefilled_values_and_what_the_student_typed_and_the_form_submits() {
    browser_test("browser: continue keeps the form", async |d, campus| {
        let (c, first) = form_page(d, campus, "I want to reserve a study room for 3 people tomorrow").await;
        let (tomorrow, size) = date_and_size(&c).await;
        assert_eq!(size, "3", "prefilled");
        // typed, not sent: the group size becomes 4
        in_form(&c, "const i = pick('input[type=number]'); i.focus(); i.select?.();").await;
        for _ in 0..3 {
            key(&c, Key::Backspace).await;
        }
        type_keys(&c, "4").await;
        until(&c, "4 typed", &format!("{SURF} return r.querySelector('input[type=number]').value === '4';"))
            .await;
        let kept = continue_form(&c, "can I book a study room?", &first).await;
        assert_eq!(date_and_size(&c).await, (tomorrow.clone(), "4".to_string()), "typed 4, prefilled date");
        screenshot(&c, "form-continued").await;
        let runs_before = action_runs(&c).await.len();
        find_times_in_b(&c).await;
        let runs = action_runs(&c).await;
        let find = the_action(&runs[runs_before], &kept);
        assert_eq!(find["context"]["groupSize"], "4", "{find}");
        assert_eq!(find["context"]["date"], tomorrow.as_str(), "{find}");
        review_first_time(&c).await;
        click_button(&c, "Confirm demo booking").await;
        wait_state(&c, &kept, "submitted").await;
        let (text, _) = receipt(&c, &kept).await;
        assert!(text.contains("bk-") && text.contains("People4"), "one booking, for 4: {text}");
        assert_eq!(action_runs(&c).await.len(), runs_before + 3, "find, review, confirm: one run each");

        // the tutoring form: a topic typed, then "continue"
        let first = ask_for_form(&c, TUTORING).await;
        let prefilled = in_form(&c, "return pick('input[type=date]').value;").await;
        assert!(prefilled.as_str().is_some_and(|d| d.len() == 10), "a prefilled date: {prefilled}");
        in_form(&c, "pick('input[type=text]', 2).focus();").await;
        type_keys(&c, "limits").await;
        until(
            &c,
            "the topic typed",
            &format!("{SURF} return r.querySelectorAll('input[type=text]')[2].value === 'limits';"),
        )
        .await;
        let kept = continue_form(&c, TUTORING, &first).await;
        assert_eq!(text_values(&c).await[2], "limits", "the typed topic is kept");
        assert_eq!(
            in_form(&c, "return pick('input[type=date]').value;").await,
            prefilled,
            "the prefilled date"
        );
        for (i, text) in ["Alex Student", "alex@example.edu"].into_iter().enumerate() {
            in_form(&c, &format!("pick('input[type=text]', {i}).focus();")).await;
            type_keys(&c, text).await;
        }
        click_button(&c, "Send tutoring request").await;
        wait_state(&c, &kept, "submitted").await;
        let (text, _) = receipt(&c, &kept).await;
        assert!(text.contains("tr-") || text.contains("Request"), "the receipt: {text}");
        assert!(text.contains("limits"), "the typed topic was sent: {text}");
        c.close().await.unwrap();
    });
}
