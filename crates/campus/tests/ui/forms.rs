//! A form through `campus ui` and the real Hub, Tutor and Library: a question that gets a
//! form streams it as an `ACTIVITY_SNAPSHOT` (`a2ui-surface`); a press (a run whose
//! `forwardedProps` carry the action) ends submitted with the receipt; a forged formRef is
//! refused with a code and nothing reaches the Hub.

use std::collections::HashMap;

use serde_json::{Value, json};
use testkit::forms::{TUTORING_QUESTION, components, prefill, press, surface_id};
use testkit::ui::{Frame, ask, post, read_stream, run_ended, start_ui};
use testkit::{University, feed_events};

const THREAD: &str = "t-forms";

/// The form snapshots of `THREAD` in `frames`, in order.
fn snapshots(frames: &[Frame]) -> Vec<Value> {
    frames
        .iter()
        .filter(|f| f.is_student(THREAD) && f.kind() == "ACTIVITY_SNAPSHOT")
        .filter(|f| f.event()["activityType"] == "a2ui-surface")
        .map(|f| f.event().clone())
        .collect()
}

/// The frames of the whole stream (replayed from its start) once run `run` has ended.
fn until_ended(ui: &str, run: &str) -> Vec<Frame> {
    let frames = read_stream(ui, None, None, 20, |f| run_ended(f, THREAD, run));
    assert!(run_ended(&frames, THREAD, run), "run {run} ended");
    frames
}

/// How many presses the Hub's feed says reached it.
fn hub_actions(hub: &str) -> usize {
    feed_events(hub).iter().filter(|e| e["agent"] == "hub" && e["kind"] == "form_action_received").count()
}

fn run_with(run: &str, props: Value) -> Value {
    let mut input = testkit::ui::input(THREAD, run, "");
    input["messages"] = json!([]);
    input["forwardedProps"] = props;
    input
}

#[test]
fn a_form_streams_as_a_snapshot_a_press_gets_the_receipt_and_a_forged_ref_sends_nothing() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    let runs = format!("{}/api/ag-ui/runs", ui.url);

    let (status, answer) = ask(&ui.url, THREAD, "r-ask", TUTORING_QUESTION);
    assert_eq!(status, 202, "{answer}");
    let frames = until_ended(&ui.url, "r-ask");
    let snaps = snapshots(&frames);
    let open = snaps.last().expect("a form snapshot");
    let content = &open["content"];
    let form_ref = content["formRef"].as_str().unwrap().to_string();
    assert!(form_ref.starts_with("hf-"), "the Hub's reference: {content}");
    assert_eq!(open["messageId"], format!("form-{form_ref}"));
    assert_eq!(open["replace"], true);
    assert_eq!(content["workflow"], "tutoring-request");
    assert_eq!(content["state"], "editing");
    let messages: Vec<Value> = content["messages"].as_array().unwrap().clone();
    assert_eq!(content["seqs"].as_array().map(Vec::len), Some(messages.len()), "one number per message");
    assert!(messages[0].get("createSurface").is_some(), "{content}");
    a2ui::validate_server_messages(&messages).unwrap_or_else(|e| panic!("not valid A2UI: {e:?}"));
    let surface = surface_id(&messages);
    assert_eq!(content["surfaceId"], surface.as_str());
    let mut screen = HashMap::new();
    components(&messages, &mut screen);
    let mut values = prefill(&messages);
    assert_eq!(values["period"], json!(["afternoon"]), "prefilled from the question");
    values["name"] = json!("Alex Student");
    values["email"] = json!("alex@example.edu");
    values["topic"] = json!("the chain rule");
    values["notes"] = json!("");
    let action = press(&surface, &screen, "submit_tutoring_request", &values);
    let message = json!({"version": "v0.9", "action": action});
    a2ui::validate_client_message(&message).expect("a schema-valid action");
    let hub_before = hub_actions(&u.hub_url);

    // a forged formRef: refused before anything is sent
    let forged = run_with(
        "r-forged",
        json!({"a2uiAction": message, "formRef": "hf-forged", "operationId": "op-forged"}),
    );
    let (status, answer) = post(&runs, &forged);
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["error"]["code"], "form_unknown", "{answer}");
    // an action for another surface: refused by the allowlist, with its code
    let mut other = message.clone();
    other["action"]["surfaceId"] = json!("another-surface");
    let (status, answer) = post(
        &runs,
        &run_with("r-other", json!({"a2uiAction": other, "formRef": form_ref, "operationId": "op-other"})),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"]["code"].as_str().is_some_and(|c| c.starts_with("a2ui_")), "{answer}");

    // the press: one run, submitted, the receipt in the last snapshot
    let (status, answer) = post(
        &runs,
        &run_with("r-press", json!({"a2uiAction": message, "formRef": form_ref, "operationId": "op-1"})),
    );
    assert_eq!(status, 202, "{answer}");
    let frames = until_ended(&ui.url, "r-press");
    let states: Vec<String> = snapshots(&frames)
        .iter()
        .filter(|s| s["content"]["formRef"] == form_ref.as_str())
        .map(|s| s["content"]["state"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(states.last().map(String::as_str), Some("submitted"), "{states:?}");
    assert!(states.iter().any(|s| s == "submitting"), "{states:?}");
    let done =
        snapshots(&frames).into_iter().rev().find(|s| s["content"]["formRef"] == form_ref.as_str()).unwrap();
    let receipt = &done["content"]["receipt"];
    assert!(receipt["requestId"].as_str().is_some_and(|id| id.starts_with("tr-")), "{receipt}");
    assert_eq!(receipt["topic"], "the chain rule", "{receipt}");
    assert_eq!(hub_actions(&u.hub_url), hub_before + 1, "only the real press reached the Hub");
    let finished = frames
        .iter()
        .filter(|f| f.is_student(THREAD) && f.kind() == "RUN_FINISHED")
        .find(|f| f.event()["runId"] == "r-press")
        .expect("the press's run finished");
    assert_eq!(finished.event()["result"]["outcome"], "submitted");
    // the press has a path strip of its own, each step as the agents reported it: the Hub
    // checked the form, the Tutor that opened it answered, the Student got the receipt
    let hops = testkit::ui::hops(&frames, THREAD, "r-press");
    let states = testkit::ui::hop_states(&hops);
    assert!(states.iter().all(|s| s.ends_with("=done")), "every step of the press was reported: {states:?}");
    assert_eq!(hops[2]["reason"], "form_checked", "{hops:?}");
    assert_eq!(
        (hops[3]["to"].as_str(), hops[5]["from"].as_str()),
        (Some("tutor"), Some("tutor")),
        "{hops:?}"
    );
    let record = frames
        .iter()
        .filter(|f| f.is_student(THREAD) && f.kind() == "STATE_SNAPSHOT")
        .find_map(|f| f.event()["snapshot"]["runs"].get("r-press").cloned())
        .expect("the press's run record");
    assert_eq!((record["kind"].as_str(), record["operationId"].as_str()), (Some("press"), Some("op-1")));
    assert_eq!(record["action"], "submit_tutoring_request");

    // the closed form takes nothing more, and nothing more is sent
    let (status, answer) = post(
        &runs,
        &run_with("r-late", json!({"a2uiAction": message, "formRef": form_ref, "operationId": "op-2"})),
    );
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("form_closed")), "{answer}");
    assert_eq!(hub_actions(&u.hub_url), hub_before + 1);
}
