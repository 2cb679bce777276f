//! The Library's loan screen in the real browser: composed and checked by the Library,
//! drawn by the official renderer; a follow-up button asks its question as the student's
//! and brings that loan's screen in place of the first, on the same canvas; a return date typed in the chat
//! fills its picker; Renew renews once, the receipt after the loan service confirmed, and
//! the same press again is refused.

use serde_json::json;

use super::*;

#[test]
fn a_loan_is_renewed_on_its_screen_with_the_date_typed_in_the_chat_once() {
    browser_test("browser: a loan renewed on its screen", async |d, campus| {
        let (c, overview) = form_page(d, campus, "when are my books due?").await;
        let drawn = in_form(
            &c,
            "return {text: r.textContent, buttons: [...r.querySelectorAll('button')].map(b => b.textContent.trim())};",
        )
        .await;
        let text = drawn["text"].as_str().unwrap();
        for title in ["Calculus in Motion", "Organic Chemistry Step by Step", "Physics for Engineers"] {
            assert!(text.contains(title), "{title}: {drawn}");
        }
        assert!(text.contains("Offline Library (no model)"), "labelled as the offline Library's: {drawn}");
        assert!(!text.contains("Lighthouses"), "another borrower's loan: {drawn}");
        let buttons = drawn["buttons"].as_array().unwrap();
        assert!(
            buttons.iter().any(|b| b == "Renew Calculus in Motion") && buttons.last().unwrap() == "Close",
            "{drawn}"
        );
        no_violations(&c, "the loan overview").await;
        screenshot_form(&c, &overview, "loans-overview").await;

        // a follow-up button asks its question as the student's own: the answer is drawn in
        // place, on the same canvas (the same form, its next version)
        let pressed = runs_posted(&c).await.len();
        click_button(&c, "Renew Calculus in Motion").await;
        let one = until(
            &c,
            "the calculus loan's screen in place",
            &format!("{SURF} return f.dataset.formRef === '{overview}' && r?.querySelector('input[type=date]') ? f.dataset.formRef : null;"),
        )
        .await
        .as_str()
        .unwrap()
        .to_string();
        assert_eq!(in_form(&c, "return f.dataset.formState;").await, "editing", "open, drawn anew");
        let asked = &runs_posted(&c).await[pressed];
        assert_eq!(asked["forwardedProps"]["a2uiAction"]["action"]["name"], "follow_up", "{asked}");
        let said = js(
            &c,
            "return [...document.querySelectorAll('#chat-log .msg.role-user')].map(m => m.textContent).pop();",
        )
        .await;
        assert!(
            said.as_str().unwrap().contains("Renew Calculus in Motion"),
            "the question is the student's: {said}"
        );
        // the renderer draws no min or max on its date input: the screen says the range in
        // words, and the Library refuses a date outside it
        let range = in_form(
            &c,
            "const m = r.textContent.match(/new return date from (\\d{4}-\\d\\d-\\d\\d) to (\\d{4}-\\d\\d-\\d\\d)/); return m ? [m[1], m[2]] : null;",
        )
        .await;
        let (min, max) = (range[0].as_str().unwrap().to_string(), range[1].as_str().unwrap().to_string());
        assert!(max > min, "the loan service's range, said on the screen: {range}");
        no_violations(&c, "the loan's renewal screen").await;

        // outside the range: the chat fills nothing and says why
        let run = ask(&c, "until 2099-01-01").await;
        let note = replies_of(&c, &run, 1).await[0]["text"].as_str().unwrap().to_string();
        assert!(note.contains(&format!("Not filled: new return date — 2099-01-01 is outside the dates this loan can be renewed to ({min} to {max})")), "{note}");
        // a date out of range picked on the screen itself (the renderer draws no bounds) is
        // refused by the Library; the screen stays usable, by the chat and by its picker
        let far = "2099-01-01";
        in_form(
            &c,
            &format!("const i = r.querySelector('input[type=date]'); i.value = '{far}'; \
                      i.dispatchEvent(new Event('input', {{bubbles: true}})); i.dispatchEvent(new Event('change', {{bubbles: true}})); return true;"),
        )
        .await;
        click_button(&c, "Renew").await;
        until(&c, "the renewal refused", &format!("{SURF} return f.dataset.formState === 'rejected' || (f.textContent.includes('out_of_range') || f.textContent.includes('outside')) ? true : null;")).await;
        let drawn = in_form(&c, "return f.textContent;").await;
        assert!(!drawn.as_str().unwrap().contains("could not be drawn"), "{drawn}");
        // inside: the picker is filled, nothing is sent
        let run = ask(&c, &format!("until {max} please")).await;
        let note = replies_of(&c, &run, 1).await[0]["text"].as_str().unwrap().to_string();
        assert!(note.starts_with(&format!("Filled in the form: new return date ({max}).")), "{note}");
        until(
            &c,
            "the date filled in",
            &format!("{SURF} return r.querySelector('input[type=date]').value === '{max}';"),
        )
        .await;
        let state = in_form(&c, "return f.dataset.formState;").await;
        assert_eq!(state, "rejected", "not renewed by typing: still the refusal's state");

        click_button(&c, "Renew").await;
        wait_state(&c, &one, "submitted").await;
        let (shown, surface_left) = receipt(&c, &one).await;
        assert!(shown.contains("New due date") && shown.contains(&max), "{shown}");
        assert!(shown.contains("Renewals used1 of 2"), "{shown}");
        assert!(!surface_left, "the screen is gone once renewed");
        screenshot_form(&c, &one, "loans-renewed").await;

        // the same press again (a second click, a replayed request) renews nothing more
        let renew = runs_posted(&c)
            .await
            .into_iter()
            .rfind(|r| r["forwardedProps"]["a2uiAction"]["action"]["name"] == "renew_loan");
        let mut again = renew.expect("the renew press was posted");
        again["runId"] = json!("run-again-1");
        again["forwardedProps"]["operationId"] = json!("op-again-1");
        let status = js(
            &c,
            &format!(
                "return fetch('/api/ag-ui/runs', {{method: 'POST', headers: {{'content-type': 'application/json'}}, body: JSON.stringify({again})}}) \
                 .then(r => r.json().then(j => [r.status, j.error?.code]));"
            ),
        )
        .await;
        assert_eq!(status, json!([409, "form_closed"]), "a renewed loan's screen takes no second press");

        // the generated-UI inspector: each composed answer, its checks and its facts
        goto_tab(&c, "Agent activity", "/activity").await;
        let shown = until(
            &c,
            "the inspector's records",
            "const r = [...document.querySelectorAll('.inspection')]; return r.length >= 2 ? r.map(d => ({open: d.open, \
             summary: d.querySelector('summary').textContent, structure: d.querySelector('pre')?.textContent || '', \
             attempts: [...d.querySelectorAll('.inspection-attempts li')].map(l => l.textContent), \
             facts: d.querySelectorAll('.inspection-facts tbody tr').length})) : null;",
        )
        .await;
        let newest = &shown[0];
        assert_eq!(newest["open"], true, "the newest is open: {shown}");
        assert!(
            newest["summary"].as_str().unwrap().contains("Library · screen passed, 0 repairs"),
            "{newest}"
        );
        assert_eq!(newest["attempts"], json!(["Attempt 1: passed every check"]), "{newest}");
        assert_eq!(newest["facts"], 6, "every loan's facts, no other borrower's: {newest}");
        let structure = newest["structure"].as_str().unwrap();
        assert!(
            structure.contains("\"DateTimeInput\"") && structure.contains(&format!("\"max\": \"{max}\"")),
            "{structure}"
        );
        assert!(!structure.contains("Calculus in Motion"), "the words are redacted: {structure}");
        assert!(structure.contains("chars redacted]"), "{structure}");
        screenshot(&c, "loans-inspector").await;
        no_violations(&c, "the generated-UI inspector").await;

        // a page opened afresh keeps the renewal; "New conversation" starts the demo loans again
        let renewals = "const t = r.textContent; const i = t.indexOf('Calculus in Motion'); \
             const m = i < 0 ? null : t.slice(i).match(/\\((\\d) of 2 renewals used\\)/); return m ? m[1] : null;";
        open(&c, &campus.url("/")).await;
        ask_for_form(&c, "when are my books due?").await;
        assert_eq!(in_form(&c, renewals).await, "1", "a reloaded page is no new conversation");
        js(&c, "document.getElementById('new-conversation').click();").await;
        until(
            &c,
            "a new, empty conversation",
            "return document.querySelectorAll('#chat-log .msg').length === 0;",
        )
        .await;
        ask_for_form(&c, "when are my books due?").await;
        assert_eq!(in_form(&c, renewals).await, "0", "the demo loans as they began");
        // on the overview (no date to choose) a renewal asked with its date is no filling:
        // the Library hears it and draws that loan's screen with the date chosen
        ask(&c, &format!("renew my calculus book until {max}")).await;
        until(
            &c,
            "the calculus screen with the date asked for",
            &format!("{SURF} return r?.querySelector('input[type=date]')?.value === '{max}' ? true : null;"),
        )
        .await;
    });
}
