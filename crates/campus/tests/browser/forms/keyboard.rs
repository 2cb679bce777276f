//! Both workflows completed by keyboard alone.

use fantoccini::key::Key;
use serde_json::json;

use super::*;

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
