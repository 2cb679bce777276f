//! The tutoring form drawn by the official renderer: typing and invalid presses send
//! nothing; Submit sends one schema-valid action and the receipt replaces the form.

use fantoccini::key::Key;
use serde_json::json;

use super::*;

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
