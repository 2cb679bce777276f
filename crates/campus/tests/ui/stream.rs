//! `campus ui` over real HTTP with a real Hub, Tutor and Library: questions as AG-UI runs
//! (normal, unsupported, failed with the Hub down, interleaved across conversations), the
//! one stream resumed from the last event id at run boundaries, a restart (new boot),
//! events from before the browser subscribed, 409 on a second question, no resend on a
//! reconnect. Every connection's frames pass the AG-UI order rules per lane.

use serde_json::Value;
use testkit::ui::{Frame, ask, hop_states, hops, read_stream, run_ended, start_ui, statuses, verify_lanes};
use testkit::{University, feed_events, free_port, poll};

fn student_kinds(frames: &[Frame], thread: &str) -> Vec<String> {
    frames.iter().filter(|f| f.is_student(thread)).map(|f| f.kind().to_string()).collect()
}

/// Kinds the Student recorded on its own feed.
fn student_events(ui: &str, kind: &str) -> usize {
    feed_events(ui).iter().filter(|e| e["kind"] == kind).count()
}

#[test]
fn questions_are_ag_ui_runs_with_honest_states_and_the_hop_strip() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    // asked before any browser subscribed: the first connection still gets the whole run
    let (code, body) = ask(&ui.url, "t1", "r1", "what is the derivative of x^2");
    assert_eq!((code, &body["runId"]), (202, &Value::from("r1")), "{body}");
    let registered =
        |f: &Frame| f.kind() == "ACTIVITY_SNAPSHOT" && f.event()["content"]["kind"] == "registered";
    let forwarded = |f: &Frame| {
        f.kind() == "CUSTOM"
            && f.event()["value"]["pulses"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["link"] == "hub-tutor" && p["category"] == "question" && p["phase"] == "sent")
    };
    let frames = read_stream(&ui.url, None, None, 15, |f| {
        run_ended(f, "t1", "r1") && f.iter().any(registered) && f.iter().any(forwarded)
    });
    verify_lanes(&frames);
    // the hello opens the stream; kept frames carry <boot>:<seq> ids
    assert_eq!((frames[0].json["notice"].as_str(), frames[0].id.as_deref()), (Some("hello"), None));
    let boot = frames[0].json["boot"].as_str().unwrap().to_string();
    assert!(
        frames.iter().filter(|f| f.is_student("t1")).all(|f| f
            .id
            .as_ref()
            .unwrap()
            .starts_with(&format!("{boot}:")))
    );
    let kinds = student_kinds(&frames, "t1");
    assert_eq!(
        kinds[..5],
        ["RUN_STARTED", "STATE_SNAPSHOT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]
    );
    assert_eq!(
        kinds[kinds.len() - 4..],
        ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]
    );
    let mine: Vec<&Frame> = frames.iter().filter(|f| f.is_student("t1")).collect();
    assert_eq!(mine[2].event()["role"], "user");
    assert_eq!(mine[3].event()["delta"], "what is the derivative of x^2");
    assert_eq!(mine[mine.len() - 4].event()["role"], "assistant");
    assert!(mine[mine.len() - 3].event()["delta"].as_str().unwrap().contains("2x"));
    let result = &mine.last().unwrap().event()["result"];
    assert_eq!(
        (&result["servedBy"]["id"], &result["outcome"]),
        (&Value::from("tutor"), &Value::from("route")),
        "{result}"
    );
    // sending → waiting (the Hub reported receipt) → completed, never backwards
    assert_eq!(statuses(&frames, "t1", "r1"), ["sending", "waiting", "completed"]);
    let strip = hop_states(&hops(&frames, "t1", "r1"));
    assert_eq!(
        strip,
        [
            "student_sent=done",
            "hub_received=done",
            "hub_decided=done",
            "hub_forwarded=done",
            "specialist_received=done",
            "specialist_replied=done",
            "hub_got_answer=done",
            "hub_replied=done",
            "student_received=done",
        ]
    );
    let strip = hops(&frames, "t1", "r1");
    assert_eq!((strip[3]["to"].as_str(), strip[4]["from"].as_str()), (Some("tutor"), Some("tutor")));
    // registrations happened before the browser subscribed: their console entries are kept
    let consoles: Vec<&Frame> = frames.iter().filter(|f| f.kind() == "ACTIVITY_SNAPSHOT").collect();
    assert!(consoles.iter().any(|f| f.event()["content"]["kind"] == "registered"), "{consoles:?}");
    // the topology has the question's pulses; no line between the Student and a specialist
    let pulses: Vec<&Value> = frames
        .iter()
        .filter(|f| f.kind() == "CUSTOM")
        .flat_map(|f| f.event()["value"]["pulses"].as_array().unwrap())
        .collect();
    assert!(
        pulses
            .iter()
            .any(|p| p["link"] == "hub-tutor" && p["category"] == "question" && p["phase"] == "sent")
    );
    assert!(
        pulses.iter().all(|p| p["link"] == "student-hub" || p["link"].as_str().unwrap().starts_with("hub-"))
    );
    // the monitor status came from the Hub's registry
    let status = frames.iter().find(|f| f.channel() == "monitor" && f.kind() == "STATE_SNAPSHOT").unwrap();
    assert_eq!(status.event()["snapshot"]["agents"]["tutor"]["status"], "ready", "{}", status.json);

    // an unsupported question: the Hub answers itself, the specialist's steps are skipped
    let last = frames.iter().rev().find_map(|f| f.id.clone()).unwrap();
    assert_eq!(ask(&ui.url, "t1", "r2", "can you fix my kitchen sink?").0, 202);
    let more = read_stream(&ui.url, Some(&last), None, 15, |f| run_ended(f, "t1", "r2"));
    verify_lanes(&more);
    assert!(
        student_kinds(&more, "t1").iter().filter(|k| *k == "RUN_STARTED").count() == 1,
        "r1 is not sent again"
    );
    let strip = hops(&more, "t1", "r2");
    let states = hop_states(&strip);
    assert_eq!(
        states[3..7],
        [
            "hub_forwarded=skipped",
            "specialist_received=skipped",
            "specialist_replied=skipped",
            "hub_got_answer=skipped"
        ]
    );
    assert!(strip[3]["reason"].as_str().unwrap().contains("unsupported"), "{strip:?}");
    let end = more.iter().rev().find(|f| f.is_student("t1")).unwrap();
    assert_eq!(end.event()["result"]["outcome"], "unsupported");
    assert_eq!(statuses(&more, "t1", "r2").last().map(String::as_str), Some("completed"));
}

#[test]
fn runs_of_two_conversations_interleave_on_separate_lanes() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    let questions = [("a", "what is the derivative of x^3"), ("b", "When is the library open on Monday?")];
    let handles: Vec<_> = questions
        .iter()
        .map(|(t, q)| {
            let (url, t, q) = (ui.url.clone(), t.to_string(), q.to_string());
            std::thread::spawn(move || ask(&url, &t, &format!("{t}-1"), &q))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap().0, 202);
    }
    let frames =
        read_stream(&ui.url, None, None, 15, |f| run_ended(f, "a", "a-1") && run_ended(f, "b", "b-1"));
    verify_lanes(&frames);
    for (t, served) in [("a", "tutor"), ("b", "library")] {
        let end = frames.iter().rev().find(|f| f.is_student(t)).unwrap();
        assert_eq!(end.event()["result"]["servedBy"]["id"], served, "{}", end.json);
    }
}

#[test]
fn a_second_question_while_one_runs_is_refused_and_a_retry_sends_nothing() {
    // a Hub that accepts connections and never answers: the run stays in flight
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hub = format!("http://{}", silent.local_addr().unwrap());
    let ui = start_ui(&hub, &[("STUDENT_TIMEOUT_MS", "3000")]);
    assert_eq!(ask(&ui.url, "t", "r1", "what is a limit?").0, 202);
    let (code, body) = ask(&ui.url, "t", "r2", "and a derivative?");
    assert_eq!((code, &body["error"]["code"]), (409, &Value::from("run_in_progress")), "{body}");
    // the same run again is answered as before, nothing is sent twice
    assert_eq!(ask(&ui.url, "t", "r1", "what is a limit?").0, 200);
    let (code, body) = ask(&ui.url, "other", "r1", "what is a limit?");
    assert_eq!((code, &body["error"]["code"]), (409, &Value::from("run_id_in_use")), "{body}");
    // another conversation may ask meanwhile
    assert_eq!(ask(&ui.url, "u", "u1", "hello?").0, 202);
    let frames = read_stream(&ui.url, None, None, 15, |f| run_ended(f, "t", "r1"));
    verify_lanes(&frames);
    let end = frames.iter().rev().find(|f| f.is_student("t")).unwrap();
    assert_eq!((end.kind(), &end.event()["code"]), ("RUN_ERROR", &Value::from("timeout")), "{}", end.json);
    assert_eq!(statuses(&frames, "t", "r1").last().map(String::as_str), Some("unknown"));
    assert_eq!(student_events(&ui.url, "request_sent"), 2, "r1 once, u1 once");
    // after the end, the conversation takes a new question
    assert_eq!(ask(&ui.url, "t", "r3", "again?").0, 202);
    drop(silent);
}

#[test]
fn the_hub_down_is_a_clear_run_error_and_nothing_is_sent_later() {
    let hub = format!("http://127.0.0.1:{}", free_port());
    let ui = start_ui(&hub, &[]);
    assert_eq!(ask(&ui.url, "t", "r1", "what is the derivative of x^2").0, 202);
    let frames = read_stream(&ui.url, None, None, 10, |f| run_ended(f, "t", "r1"));
    verify_lanes(&frames);
    let end = frames.iter().rev().find(|f| f.is_student("t")).unwrap();
    assert_eq!(
        (end.kind(), &end.event()["code"]),
        ("RUN_ERROR", &Value::from("hub_unavailable")),
        "{}",
        end.json
    );
    assert_eq!(statuses(&frames, "t", "r1"), ["sending", "failed"]);
    let strip = hop_states(&hops(&frames, "t", "r1"));
    assert_eq!(strip[0], "student_sent=done");
    assert!(strip[1..8].iter().all(|s| s.ends_with("=skipped")), "{strip:?}");
    assert_eq!(strip[8], "student_received=failed");
    // the monitor says the Hub is unreachable and the specialists unknown, in words
    let status = poll(10, "a status snapshot", || {
        let f = read_stream(&ui.url, None, None, 3, |f| {
            f.iter().any(|f| f.kind() == "STATE_SNAPSHOT" && f.channel() == "monitor")
        });
        f.into_iter().find(|f| f.kind() == "STATE_SNAPSHOT" && f.channel() == "monitor")
    });
    assert_eq!(status.event()["snapshot"]["hub"]["status"], "unreachable");
    assert_eq!(status.event()["snapshot"]["agents"]["tutor"]["status"], "unknown");
    // reconnecting (with or without an id) replays, never sends: still one attempt
    let last = frames.iter().rev().find_map(|f| f.id.clone()).unwrap();
    let again = read_stream(&ui.url, Some(&last), None, 2, |_| false);
    verify_lanes(&again);
    assert!(again.iter().all(|f| !f.is_student("t")), "nothing after the end of the run");
    read_stream(&ui.url, None, None, 1, |_| false);
    assert_eq!(student_events(&ui.url, "request_sent"), 1);
    assert_eq!(student_events(&ui.url, "request_failed"), 1);
}

#[test]
fn a_reconnect_resumes_at_run_boundaries_and_a_restart_is_a_new_boot() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let port = free_port().to_string();
    let ui = start_ui(&u.hub_url, &[("PORT", &port)]);
    assert_eq!(ask(&ui.url, "t", "r1", "what is the derivative of x^2").0, 202);
    let first = read_stream(&ui.url, None, None, 15, |f| run_ended(f, "t", "r1"));
    let mine: Vec<&Frame> = first.iter().filter(|f| f.is_student("t")).collect();
    // resuming from inside the run replays it from its RUN_STARTED, with the same ids
    let inside = mine[3].id.clone().unwrap();
    for (header, query) in [(Some(inside.as_str()), None), (None, Some(inside.as_str()))] {
        let again = read_stream(&ui.url, header, query, 5, |f| run_ended(f, "t", "r1"));
        verify_lanes(&again);
        let ids: Vec<&str> =
            again.iter().filter(|f| f.is_student("t")).map(|f| f.id.as_deref().unwrap()).collect();
        let before: Vec<&str> = mine.iter().map(|f| f.id.as_deref().unwrap()).collect();
        assert_eq!(ids, before, "the run again, from its start, once");
    }
    // resuming after the run's end sends nothing of it; the header wins over the query
    let end_id = mine.last().unwrap().id.clone().unwrap();
    let after_end = read_stream(&ui.url, Some(&end_id), Some(&inside), 2, |_| false);
    verify_lanes(&after_end);
    assert!(after_end.iter().all(|f| !f.is_student("t")));
    assert!(after_end.iter().all(|f| f.json["notice"] != "history_truncated"));
    assert_eq!(student_events(&ui.url, "request_sent"), 1, "reconnects never send");

    // a restart: a new boot; an old id gets the new history, marked
    ui.kill();
    let ui = start_ui(&u.hub_url, &[("PORT", &port)]);
    let frames = read_stream(&ui.url, Some(&end_id), None, 3, |f| f.len() >= 2);
    let boot = frames[0].json["boot"].as_str().unwrap();
    assert!(!end_id.starts_with(&format!("{boot}:")), "a new boot");
    assert_eq!(
        (frames[1].json["notice"].as_str(), frames[1].json["reason"].as_str()),
        (Some("history_truncated"), Some("restarted"))
    );
    verify_lanes(&frames);
    // the new server knows nothing of the old runs and sends nothing for them
    assert_eq!(student_events(&ui.url, "request_sent"), 0);
    let (code, _) = ask(&ui.url, "t", "r1", "what is the derivative of x^2");
    assert_eq!(code, 202, "a new process: the run id is new to it");
}

/// The monitor's status snapshot a new connection gets once `want` holds for it.
fn status_where(ui: &str, want: impl Fn(&Value) -> bool) -> Value {
    poll(15, "a monitor status", || {
        let frames = read_stream(ui, None, None, 2, |f| {
            f.iter().any(|f| f.channel() == "monitor" && f.kind() == "STATE_SNAPSHOT")
        });
        let status = frames.into_iter().find(|f| f.channel() == "monitor" && f.kind() == "STATE_SNAPSHOT")?;
        let snapshot = status.event()["snapshot"].clone();
        want(&snapshot).then_some(snapshot)
    })
}

#[test]
fn each_agents_mode_is_what_the_agent_said() {
    let u = University::start(&[("ROUTER_MODE", "mock")], &[]);
    u.wait_ready();
    // the Hub says its router's mode, each specialist its own in its registration
    let reg = u.registry();
    assert_eq!(reg["hub"]["mode"], "mock", "{reg}");
    assert_eq!(
        (u.specialist("tutor")["mode"].as_str(), u.specialist("library")["mode"].as_str()),
        (Some("mock"), Some("mock"))
    );
    let ui = start_ui(&u.hub_url, &[]);
    let snapshot = status_where(&ui.url, |s| s["agents"]["tutor"]["status"] == "ready");
    let modes: Vec<&Value> =
        ["student", "hub", "tutor", "library"].iter().map(|a| &snapshot["agents"][a]["mode"]).collect();
    assert_eq!(
        modes,
        [&Value::from("no model"), &Value::from("mock"), &Value::from("mock"), &Value::from("mock")]
    );
    // the Hub's public name, which the page puts before each service's name
    assert_eq!(snapshot["hub"]["name"], "Campus University (fictional demo)", "{snapshot}");
    // the Hub gone: nothing says the modes any more, so they are unknown, not remembered
    let mut u = u;
    u.hub.take().unwrap().kill();
    let snapshot = status_where(&ui.url, |s| s["hub"]["status"] == "unreachable");
    for agent in ["hub", "tutor", "library"] {
        assert!(snapshot["agents"][agent]["mode"].is_null(), "{agent}: {snapshot}");
    }
    assert_eq!(snapshot["agents"]["student"]["mode"], "no model");
    assert!(snapshot["hub"]["name"].is_null(), "{snapshot}");
}

/// The server's notices on the `student` channel, in order: (code, frame id).
fn notices(frames: &[Frame]) -> Vec<(String, Option<String>)> {
    frames
        .iter()
        .filter(|f| f.is_student("notices") && f.kind() == "CUSTOM")
        .map(|f| {
            assert_eq!(f.event()["name"], "campus.notice", "{}", f.json);
            (f.event()["value"]["code"].as_str().unwrap().to_string(), f.id.clone())
        })
        .collect()
}

#[test]
fn the_hub_going_away_and_coming_back_are_notices_nobody_asked_for() {
    let mut u = University::start(&[], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    status_where(&ui.url, |s| s["hub"]["status"] == "ready");
    // read until the notice's run has ended
    let has = |code: &'static str| {
        move |f: &[Frame]| f.iter().any(|f| f.is_student("notices") && f.event()["result"]["notice"] == code)
    };
    // reachable from the start: nothing to say
    let quiet = read_stream(&ui.url, None, None, 2, |_| false);
    assert!(notices(&quiet).is_empty(), "{:?}", notices(&quiet));
    let last = quiet.iter().rev().find_map(|f| f.id.clone());
    u.hub.take().unwrap().kill();
    let down = read_stream(&ui.url, last.as_deref(), None, 15, has("hub_unreachable"));
    verify_lanes(&down);
    assert_eq!(notices(&down).len(), 1, "{:?}", notices(&down));
    // a short complete run of its own lane, kept (it has an id) and so replayed
    let lane: Vec<&str> = down.iter().filter(|f| f.is_student("notices")).map(Frame::kind).collect();
    assert_eq!(lane, ["RUN_STARTED", "CUSTOM", "RUN_FINISHED"]);
    let end = down.iter().rfind(|f| f.is_student("notices")).unwrap();
    assert_eq!(end.event()["result"]["notice"], "hub_unreachable");
    assert!(notices(&down)[0].1.is_some(), "kept in the history");
    u.start_hub();
    let up = read_stream(&ui.url, None, None, 15, has("hub_reachable"));
    verify_lanes(&up);
    let codes: Vec<String> = notices(&up).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["hub_unreachable", "hub_reachable"], "a first connection gets both, in order");
    // a question still works afterwards, on its own lane
    u.wait_ready();
    assert_eq!(ask(&ui.url, "t", "r1", "what is the derivative of x^2").0, 202);
    let after = read_stream(&ui.url, None, None, 15, |f| run_ended(f, "t", "r1"));
    verify_lanes(&after);
}

#[test]
fn a_routed_question_whose_specialist_is_unreachable_shows_what_was_not_taken() {
    // a long expiry: the Hub still counts the stopped Tutor as ready, so it forwards and fails
    let u = University::start(&[("HEARTBEAT_EXPIRY_MS", "60000")], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    u.tutor.kill();
    assert_eq!(ask(&ui.url, "t", "r1", "what is the derivative of x^2").0, 202);
    let frames = read_stream(&ui.url, None, None, 15, |f| run_ended(f, "t", "r1"));
    verify_lanes(&frames);
    let end = frames.iter().rev().find(|f| f.is_student("t")).unwrap();
    assert_eq!(end.event()["result"]["outcome"], "unavailable", "{}", end.json);
    assert_eq!(statuses(&frames, "t", "r1").last().map(String::as_str), Some("completed"));
    let strip = hops(&frames, "t", "r1");
    assert_eq!(
        hop_states(&strip),
        [
            "student_sent=done",
            "hub_received=done",
            "hub_decided=done",
            "hub_forwarded=done",
            "specialist_received=skipped",
            "specialist_replied=skipped",
            "hub_got_answer=failed",
            "hub_replied=done",
            "student_received=done",
        ],
        "nothing is unknown: every step is accounted for"
    );
    assert!(strip[4]["reason"].as_str().unwrap().contains("tutor could not be reached"), "{strip:?}");
    assert_eq!(strip[6]["reason"], "tutor unreachable");
    assert!(strip[6]["at"].is_i64(), "the failure has its time");
}

#[test]
fn a_hub_that_dies_after_receiving_the_question_leaves_the_outcome_unknown() {
    let mut u = University::start(&[], &[]);
    u.wait_ready();
    let ui = start_ui(&u.hub_url, &[]);
    // the router trained on every card (2 Tutor skills, 6 Library skills, 3 Professor
    // skills): the question is routed
    poll(15, "the router trained on the cards", || {
        feed_events(&u.hub_url)
            .iter()
            .any(|e| e["kind"] == "router_trained" && e["data"]["skills"] == 11)
            .then_some(())
    });
    // the Tutor holds the question: the Hub has received and forwarded it, no answer yet
    let tutor = u.tutor.pid().to_string();
    let signal =
        |sig: &str| std::process::Command::new("kill").args([sig, &tutor]).status().unwrap().success();
    assert!(signal("-STOP"));
    assert_eq!(ask(&ui.url, "t", "r1", "what is the derivative of x^2").0, 202);
    let forwarded = |f: &[Frame]| {
        statuses(f, "t", "r1").iter().any(|s| s == "waiting")
            && hop_states(&hops(f, "t", "r1")).iter().any(|s| s == "hub_forwarded=done")
    };
    let before = read_stream(&ui.url, None, None, 15, forwarded);
    assert!(
        forwarded(&before),
        "the run never reached waiting with the question forwarded: {:?} {:?}",
        statuses(&before, "t", "r1"),
        hop_states(&hops(&before, "t", "r1"))
    );
    u.hub.take().unwrap().kill();
    let frames = read_stream(&ui.url, None, None, 15, |f| run_ended(f, "t", "r1"));
    assert!(signal("-CONT"));
    verify_lanes(&frames);
    let end = frames.iter().rfind(|f| f.is_student("t")).unwrap();
    assert_eq!(
        (end.kind(), &end.event()["code"]),
        ("RUN_ERROR", &Value::from("outcome_unknown")),
        "{}",
        end.json
    );
    assert_eq!(statuses(&frames, "t", "r1"), ["sending", "waiting", "unknown"]);
    let strip = hop_states(&hops(&frames, "t", "r1"));
    assert_eq!(
        strip,
        [
            "student_sent=done",
            "hub_received=done",
            "hub_decided=done",
            "hub_forwarded=done",
            "specialist_received=unknown",
            "specialist_replied=unknown",
            "hub_got_answer=unknown",
            "hub_replied=unknown",
            "student_received=unknown",
        ]
    );
    let hops = hops(&frames, "t", "r1");
    assert!(
        hops.iter().all(|h| !h["reason"].as_str().unwrap_or("").contains("nothing was sent")),
        "{hops:?}"
    );
    assert_eq!(student_events(&ui.url, "request_sent"), 1);
}
