//! Chat beside an open form: a message fills it and sends nothing but the question in it;
//! "continue" keeps what was prefilled and typed.

use fantoccini::key::Key;

use super::booking::{find_times_in_b, review_first_time};
use super::*;

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

/// Times listed, then the chat changes the room: the times were for the earlier room, so
/// the form takes them away and says to find times again; found again they are the new
/// room's. Under review the chat changes nothing (the note says how), so the review never
/// contradicts it. A new conversation shows none of this conversation's form or receipt.
#[test]
fn a_room_changed_in_the_chat_while_times_show_takes_them_away_and_a_new_conversation_starts_clean() {
    browser_test("browser: booking changed from the chat", async |d, campus| {
        let (c, form_ref) = form_page(d, campus, BOOKING).await;
        find_times_in_b(&c).await;
        let run = ask(&c, "make it room C").await;
        let note = &replies_of(&c, &run, 1).await[0];
        assert!(note["text"].as_str().unwrap().contains("room (C)"), "{note}");
        let shown = until(
            &c,
            "the times taken away",
            &format!(
                "{SURF} const v = {{times: r.querySelectorAll('input[type=radio][value^=\"s-\"]').length, \
                 changed: r.textContent.includes('Your choices changed in the chat: press Find times'), \
                 buttons: [...r.querySelectorAll('button')].map(b => b.textContent.trim())}}; return v.changed ? v : null;"
            ),
        )
        .await;
        assert_eq!(shown["times"], 0, "no time of room B is offered: {shown}");
        assert!(!shown["buttons"].as_array().unwrap().iter().any(|b| b == "Review booking"), "{shown}");
        assert_eq!(in_form(&c, "return pick('input[type=radio][value=C]').checked;").await, true);
        screenshot(&c, "form-room-changed-from-chat").await;

        // found again: room C's times
        click_button(&c, "Find times").await;
        until(
            &c,
            "room C's times",
            &format!("{SURF} return r.querySelector('input[type=radio][value^=\"s-\"]') ? true : null;"),
        )
        .await;
        review_first_time(&c).await;
        // under review the chat fills nothing, and says how to change it
        let run = ask(&c, "actually make it room A").await;
        let note = replies_of(&c, &run, 1).await[0]["text"].as_str().unwrap().to_string();
        assert!(
            note.contains("Not filled: room — the booking is at its review step; press Back to edit"),
            "{note}"
        );
        let summary = in_form(&c, "return r.textContent;").await;
        assert!(
            summary.as_str().unwrap().contains("Room C ·"),
            "the review says what the form holds: {summary}"
        );
        click_button(&c, "Confirm demo booking").await;
        wait_state(&c, &form_ref, "submitted").await;
        let (text, _) = receipt(&c, &form_ref).await;
        assert!(text.contains("RoomC"), "room C was booked: {text}");

        // a new conversation: nothing of the last one, its receipt included
        js(&c, "document.getElementById('new-conversation').click();").await;
        until(
            &c,
            "an empty conversation",
            "return document.querySelectorAll('#chat-log .msg').length === 0 ? true : null;",
        )
        .await;
        // a window opened now shows the new conversation too, not the last one's receipt
        let seen = js(&c, "return Number(document.body.dataset.lastEventId.split(':')[1]);").await;
        let late = d.session(false).await;
        open(&late, &campus.url("/conversation")).await;
        until(
            &late,
            "the history replayed up to what the first window saw",
            &format!("return Number((document.body.dataset.lastEventId || ':0').split(':')[1]) >= {seen} ? true : null;"),
        )
        .await;
        let shown = js(&late, "return document.getElementById('chat-log').textContent;").await;
        assert!(!shown.as_str().unwrap().contains("bk-"), "no old receipt in a new window: {shown}");
        assert_eq!(
            js(&late, "return document.querySelectorAll('#chat-log .msg').length;").await,
            0,
            "the new window shows the new, empty conversation"
        );
        late.close().await.unwrap();
        let run = ask(&c, "When is the library open on Sunday?").await;
        reply(&c, &run).await;
        let log = js(&c, "return document.getElementById('chat-log').textContent;").await;
        let log = log.as_str().unwrap();
        assert!(!log.contains("bk-") && !log.contains("Study room booking"), "no old receipt: {log}");
        c.close().await.unwrap();
    });
}
