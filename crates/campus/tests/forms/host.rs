//! The form host on the real Tutor and Library, talked to straight over A2A (JSON-RPC over
//! HTTP, as the Hub would): offers, refusals with their codes, exactly-once submissions,
//! the double-booking race, and records surviving SIGKILL and a restart.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use testkit::{Proc, TempDir};

const A2UI_EXT: &str = "https://a2ui.org/a2a-extension/a2ui/v0.9";
const BASIC: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

static N: AtomicU64 = AtomicU64::new(0);

fn id(prefix: &str) -> String {
    format!("{prefix}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// One JSON-RPC SendMessage with optional A2UI extension header.
fn send(url: &str, message: Value, ext: bool) -> Value {
    testkit::rpc::send_message(url, message, ext.then_some(A2UI_EXT))
}

/// A chat message in `ctx`, from a client that renders A2UI (or not).
fn chat(url: &str, ctx: &str, text: &str, renders: bool) -> Value {
    let mut m = json!({"messageId": id("m"), "role": "ROLE_USER", "contextId": ctx, "parts": [{"text": text}],
                       "metadata": {"studentId": "student-1"}});
    if renders {
        m["metadata"]["a2uiClientCapabilities"] = json!({"v0.9": {"supportedCatalogIds": [BASIC]}});
    }
    send(url, m, renders)
}

/// An action on `form` pressed on `button` with `context`, as operation `op`.
fn act(url: &str, ctx: &str, form: &str, op: &str, name: &str, button: &str, context: Value) -> Value {
    let action = json!([{"version": "v0.9", "action": {"name": name, "surfaceId": form,
        "sourceComponentId": button, "timestamp": "2026-11-30T10:00:00Z", "context": context}}]);
    let m = json!({"messageId": id("m"), "role": "ROLE_USER", "contextId": ctx,
        "parts": [{"data": action, "mediaType": "application/a2ui+json"}],
        "metadata": {"formId": form, "operationId": op, "studentId": "student-1"}});
    send(url, m, true)
}

fn task(v: &Value) -> &Value {
    v["result"].get("task").unwrap_or_else(|| panic!("a task: {v}"))
}

fn reason(v: &Value) -> String {
    let data = v["error"]["data"].as_array().unwrap_or_else(|| panic!("an error: {v}"));
    data.last().unwrap()["reason"].as_str().unwrap().to_string()
}

fn form_of(v: &Value) -> (String, u64, String) {
    let f = &task(v)["metadata"]["campusForm"];
    (
        f["formId"].as_str().unwrap().into(),
        f["version"].as_u64().unwrap(),
        f["state"].as_str().unwrap().into(),
    )
}

fn part<'a>(v: &'a Value, media: &str) -> Option<&'a Value> {
    task(v)["status"]["message"]["parts"]
        .as_array()?
        .iter()
        .find(|p| p["mediaType"] == media)
        .map(|p| &p["data"])
}

fn a2ui(v: &Value) -> Vec<Value> {
    part(v, "application/a2ui+json").and_then(Value::as_array).cloned().unwrap_or_default()
}

fn text(v: &Value) -> String {
    if let Some(parts) = v["result"]["message"]["parts"].as_array() {
        return parts.iter().filter_map(|p| p["text"].as_str()).collect();
    }
    task(v)["status"]["message"]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect()
}

/// A weekday at least 2 days ahead, in the demo's time zone (YYYY-MM-DD).
fn weekday_ahead() -> String {
    let tz = jiff::tz::TimeZone::get("America/Los_Angeles").unwrap();
    let mut d =
        jiff::Timestamp::now().to_zoned_datetime(tz).date().checked_add(jiff::Span::new().days(2)).unwrap();
    while matches!(d.weekday(), jiff::civil::Weekday::Saturday | jiff::civil::Weekday::Sunday) {
        d = d.tomorrow().unwrap();
    }
    d.to_string()
}

fn tutoring_values(date: &str, topic: &str) -> Value {
    json!({"name": "Alex Kim", "email": "alex@example.edu", "date": date, "period": ["afternoon"],
           "topic": topic, "notes": "", "formVersion": 1})
}

#[test]
fn the_tutor_offers_its_form_only_to_a_client_that_renders_it_and_takes_a_request_once() {
    let tutor = Proc::start(&["tutor"], &[("HUB_URL", "http://127.0.0.1:9")]);
    let ctx = id("ctx");
    // no capabilities: text saying why
    let plain = chat(&tutor.url, &ctx, "I'd like to book a tutoring session next Monday afternoon", false);
    assert!(text(&plain).contains("can't show forms. Open the Campus page in a browser"), "{plain}");

    let offered = chat(&tutor.url, &ctx, "I'd like to book a tutoring session next Monday afternoon", true);
    assert_eq!(task(&offered)["status"]["state"], "TASK_STATE_INPUT_REQUIRED", "{offered}");
    let (form, version, state) = form_of(&offered);
    assert_eq!((version, state.as_str()), (1, "open"));
    let messages = a2ui(&offered);
    for m in &messages {
        a2ui::validate_server_message(m).unwrap_or_else(|e| panic!("{e}: {m}"));
    }
    assert_eq!(messages[0]["createSurface"]["surfaceId"], form.as_str());
    let model = &messages[2]["updateDataModel"]["value"];
    assert_eq!(model["period"], json!(["afternoon"]), "prefilled from the words");
    assert_eq!((&model["name"], &model["email"]), (&json!(""), &json!("")), "never a name or an email");

    // a second offer in the same conversation asks; "continue" re-sends the same form
    let again = chat(&tutor.url, &ctx, "can I request a tutoring session?", true);
    assert!(text(&again).contains("continue"), "{again}");
    let cont = chat(&tutor.url, &ctx, "continue", true);
    let (same, v2, _) = form_of(&cont);
    assert_eq!((same.as_str(), v2), (form.as_str(), 2));

    // refusals, each with its code
    let date = weekday_ahead();
    let mut values = tutoring_values(&date, "limits");
    values["formVersion"] = json!(2);
    let stale = act(
        &tutor.url,
        &ctx,
        &form,
        "op-stale",
        "submit_tutoring_request",
        "submit_btn",
        tutoring_values(&date, "limits"),
    );
    assert_eq!(reason(&stale), "form_stale", "{stale}");
    let forged =
        act(&tutor.url, &ctx, "fm-forged", "op-x", "submit_tutoring_request", "submit_btn", values.clone());
    assert_eq!(reason(&forged), "form_unknown");
    let elsewhere =
        act(&tutor.url, &id("ctx"), &form, "op-y", "submit_tutoring_request", "submit_btn", values.clone());
    assert_eq!(reason(&elsewhere), "form_unknown", "a form of another context");
    let other_wf =
        act(&tutor.url, &ctx, &form, "op-z", "find_times", "submit_btn", json!({"formVersion": 2}));
    assert_eq!(reason(&other_wf), "action_not_allowed");
    let wrong_button =
        act(&tutor.url, &ctx, &form, "op-w", "submit_tutoring_request", "cancel_btn", values.clone());
    assert_eq!(reason(&wrong_button), "action_not_allowed");

    // rejected: field errors, the form stays open
    let mut bad = values.clone();
    bad["email"] = json!("not an email");
    let rejected = act(&tutor.url, &ctx, &form, "op-bad", "submit_tutoring_request", "submit_btn", bad);
    assert_eq!(form_of(&rejected).2, "rejected", "{rejected}");
    let errors = part(&rejected, "application/vnd.campus.form-errors+json").unwrap();
    assert_eq!(errors["errors"][0]["code"], "invalid_email");

    // accepted once; the same operation again gets the same receipt; other values are refused
    let done = act(&tutor.url, &ctx, &form, "op-ok", "submit_tutoring_request", "submit_btn", values.clone());
    assert_eq!(task(&done)["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    let receipt = part(&done, "application/vnd.campus.form-receipt+json").unwrap().clone();
    assert!(receipt["requestId"].as_str().unwrap().starts_with("tr-"));
    assert_eq!(receipt["status"], "Received — awaiting scheduling");
    assert!(!text(&done).to_lowercase().contains("booked for"), "never booked");
    assert!(a2ui(&done).iter().any(|m| m.get("deleteSurface").is_some()));
    let replay =
        act(&tutor.url, &ctx, &form, "op-ok", "submit_tutoring_request", "submit_btn", values.clone());
    assert_eq!(part(&replay, "application/vnd.campus.form-receipt+json"), Some(&receipt));
    let mut other = values.clone();
    other["topic"] = json!("series");
    let reused = act(&tutor.url, &ctx, &form, "op-ok", "submit_tutoring_request", "submit_btn", other);
    assert_eq!(reason(&reused), "operation_reused");
    let closed = act(&tutor.url, &ctx, &form, "op-after", "submit_tutoring_request", "submit_btn", values);
    assert_eq!(reason(&closed), "form_closed");
}

#[test]
fn a_disabled_workflow_is_not_offered_and_its_actions_are_refused() {
    let hub_key = testkit::test_hub_public_key();
    let tutor = Proc::start(&["tutor"], &[("HUB_URL", "http://127.0.0.1:9"), ("HUB_PUBLIC_KEY", &hub_key)]);
    let ctx = id("ctx");
    let offered = chat(&tutor.url, &ctx, "can I schedule a tutoring appointment?", true);
    let (form, _, _) = form_of(&offered);
    let change = json!({"baseRevision": 1, "enabled": false});
    let path = "/api/settings/skills/tutoring-request";
    // another local program cannot change the settings; the Hub (here the test) can
    let (status, v) = testkit::http_json("PATCH", &format!("{}{path}", tutor.url), Some(change.clone()));
    assert_eq!((status, v["error"]["code"].as_str()), (403, Some("hub_signature_required")), "{v}");
    let (status, v) = testkit::as_hub("PATCH", &tutor.url, "tutor", path, change);
    assert_eq!(status, 200, "{v}");
    let refused =
        act(&tutor.url, &ctx, &form, "op-1", "cancel_form", "cancel_btn", json!({"formVersion": 1}));
    assert_eq!(reason(&refused), "workflow_disabled", "{refused}");
    let text_only = chat(&tutor.url, &id("ctx"), "can I schedule a tutoring appointment?", true);
    assert!(text(&text_only).contains("turned off"), "{text_only}");
}

fn find_times(url: &str, ctx: &str, form: &str, date: &str, room: &str, group: &str) -> Value {
    act(
        url,
        ctx,
        form,
        &id("op"),
        "find_times",
        "find_btn",
        json!({"date": date, "room": [room], "duration": ["1"], "groupSize": group, "formVersion": 1}),
    )
}

/// A booking form found times for room C on `date`; returns (form, the slot id of `hour`).
fn form_with_times(url: &str, ctx: &str, date: &str, hour: &str) -> (String, String) {
    let offered = chat(url, ctx, "I want to reserve a study room", true);
    let (form, _, _) = form_of(&offered);
    let found = find_times(url, ctx, &form, date, "C", "3");
    let update = a2ui(&found);
    let picker = update[0]["updateComponents"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "slot_field")
        .unwrap_or_else(|| panic!("{found}"))
        .clone();
    let slot = picker["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["label"].as_str().unwrap().starts_with(hour))
        .unwrap();
    (form, slot["value"].as_str().unwrap().to_string())
}

fn booking(date: &str, slot: &str, version: u64) -> Value {
    json!({"date": date, "room": ["C"], "duration": ["1"], "groupSize": "3", "slot": [slot], "formVersion": version})
}

#[test]
fn twelve_forms_racing_for_one_slot_make_one_booking_and_records_survive_a_kill() {
    let data = TempDir::new();
    let env = [("HUB_URL", "http://127.0.0.1:9"), ("CAMPUS_DATA_DIR", data.as_str())];
    let library = Proc::start(&["library"], &env);
    let date = weekday_ahead();
    let forms: Vec<(String, String, String)> = (0..12)
        .map(|_| {
            let ctx = id("ctx");
            let (form, slot) = form_with_times(&library.url, &ctx, &date, "12:00");
            (ctx, form, slot)
        })
        .collect();
    // a slot from another form is unknown here
    let stranger = act(
        &library.url,
        &forms[0].0,
        &forms[0].1,
        "op-s",
        "review_booking",
        "review_btn",
        booking(&date, &forms[1].2, 2),
    );
    assert_eq!(
        part(&stranger, "application/vnd.campus.form-errors+json").unwrap()["errors"][0]["code"],
        "slot_unknown"
    );
    // review each (version 2 → 3), then confirm all at once
    for (ctx, form, slot) in &forms {
        let review =
            act(&library.url, ctx, form, &id("op"), "review_booking", "review_btn", booking(&date, slot, 2));
        assert_eq!(form_of(&review).1, 3, "{review}");
    }
    let url = library.url.clone();
    let results: Vec<(String, String, String, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = forms
            .iter()
            .map(|(ctx, form, slot)| {
                let (url, date) = (url.clone(), date.clone());
                s.spawn(move || {
                    let op = format!("confirm-{form}");
                    let v =
                        act(&url, ctx, form, &op, "confirm_booking", "confirm_btn", booking(&date, slot, 3));
                    (ctx.clone(), form.clone(), op, v)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let won: Vec<_> = results.iter().filter(|r| form_of(&r.3).2 == "submitted").collect();
    assert_eq!(won.len(), 1, "{results:?}");
    for r in results.iter().filter(|r| form_of(&r.3).2 != "submitted") {
        assert_eq!(form_of(&r.3).2, "rejected", "{:?}", r.3);
        let errors = part(&r.3, "application/vnd.campus.form-errors+json").unwrap();
        assert_eq!(errors["errors"][0]["code"], "slot_taken");
        let picker = a2ui(&r.3)[0]["updateComponents"]["components"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "slot_field")
            .cloned()
            .unwrap();
        let labels: Vec<&str> =
            picker["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
        assert!(!labels.contains(&"12:00–13:00") && !labels.is_empty(), "{labels:?}");
    }
    let (ctx, form, op, first) = won[0].clone();
    let receipt = part(&first, "application/vnd.campus.form-receipt+json").unwrap().clone();
    assert_eq!((receipt["room"].as_str(), receipt["times"].as_str()), (Some("C"), Some("12:00–13:00")));
    assert_eq!(receipt["note"], "Demo booking");

    // SIGKILL, restart on the same data: the reconcile gets the stored receipt, the slot stays taken
    library.kill();
    let library = Proc::start(&["library"], &env);
    let slot = &forms.iter().find(|f| f.1 == form).unwrap().2;
    let again =
        act(&library.url, &ctx, &form, &op, "confirm_booking", "confirm_btn", booking(&date, slot, 3));
    assert_eq!(part(&again, "application/vnd.campus.form-receipt+json"), Some(&receipt), "{again}");
    let ctx2 = id("ctx");
    let offered = chat(&library.url, &ctx2, "I want to reserve a study room", true);
    let (form2, _, _) = form_of(&offered);
    let found = find_times(&library.url, &ctx2, &form2, &date, "C", "3");
    let labels = a2ui(&found)[0].to_string();
    assert!(!labels.contains("12:00–13:00"), "the booked hour is not offered again");
}

#[test]
fn replacing_an_open_booking_form_supersedes_it() {
    let library = Proc::start(&["library"], &[("HUB_URL", "http://127.0.0.1:9")]);
    let ctx = id("ctx");
    let (first, _, _) = form_of(&chat(&library.url, &ctx, "reserve a study room for tomorrow", true));
    assert!(text(&chat(&library.url, &ctx, "book a room please", true)).contains("replace"));
    let (second, version, _) = form_of(&chat(&library.url, &ctx, "replace", true));
    assert_ne!(first, second);
    assert_eq!(version, 1);
    let old = find_times(&library.url, &ctx, &first, &weekday_ahead(), "A", "2");
    assert_eq!(reason(&old), "form_closed", "{old}");
}
