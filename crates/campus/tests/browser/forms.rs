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

use super::*;

mod booking;
mod chat;
mod delivery;
mod keyboard;
mod loans;
mod renderer;

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
