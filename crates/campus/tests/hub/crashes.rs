//! kill -9 of each agent in the middle of its writes, then a restart on the same data
//! folder: `PRAGMA integrity_check` passes on the file the kill left, nothing acknowledged
//! is lost, nothing is done twice, and what was in flight ends in a true state.
//! The Tutor and the Library are killed while their skill settings are being saved one
//! revision after another (through the Hub's settings proxy); the Hub while questions
//! are being answered and recorded in its ledger.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use testkit::{FAST, Proc, TempDir, University, http_json, poll, received, rt, settings};

/// The file the agent `agent` keeps in `dir`, checked as the kill left it.
fn intact(dir: &TempDir, agent: &str) {
    let store =
        store::Store::open(&store::file_for(dir.path(), agent)).expect("the store opens after the kill");
    assert_eq!(store.integrity_check().unwrap(), "ok", "{agent}'s file after kill -9");
}

/// Saves the specialist's settings revision after revision until `stop`; the last
/// revision acknowledged with 200.
fn saving(
    hub_url: String,
    id: &'static str,
    skills: Value,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut base = 1u64;
        let url = format!("{hub_url}/dev/agents/{id}/settings");
        while !stop.load(Ordering::SeqCst) {
            let mut skills = skills.clone();
            skills[0]["description"] = json!(format!("revision {}", base + 1));
            let (status, v) = http_json("PUT", &url, Some(json!({"baseRevision": base, "skills": skills})));
            if status != 200 {
                break; // the agent is gone
            }
            base = v["revision"].as_u64().expect("a saved revision");
        }
        base
    })
}

/// kill -9 of `id` after `writes` acknowledged saves, integrity, restart, and the revision
/// it comes back with.
fn kill_specialist_mid_write(id: &'static str) {
    let data = TempDir::new();
    let with_data = [("CAMPUS_DATA_DIR", data.as_str())];
    let mut u = if id == "tutor" {
        University::start_with(&[], &with_data, &[])
    } else {
        University::start_with(&[], &[], &with_data)
    };
    u.wait_ready();
    let skills = settings(&u, id)["skills"].clone();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = saving(u.hub_url.clone(), id, skills, stop.clone());
    poll(30, "twenty revisions saved", || (settings(&u, id)["revision"].as_u64() >= Some(21)).then_some(()));
    let proc = if id == "tutor" { &mut u.tutor } else { &mut u.library };
    let pid = proc.pid().to_string();
    assert!(std::process::Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    poll(5, "the agent gone", || (!proc.is_running()).then_some(()));
    stop.store(true, Ordering::SeqCst);
    let acknowledged = writer.join().unwrap();
    intact(&data, id);

    let url = if id == "tutor" { u.tutor_url.clone() } else { u.library_url.clone() };
    let port = url.rsplit(':').next().unwrap().to_string();
    let hub_url = u.hub_url.clone();
    *proc = Proc::start(
        &[id],
        &[("CAMPUS_DATA_DIR", data.as_str()), ("PORT", &port), ("HUB_URL", &hub_url), FAST[0]],
    );
    u.wait_status(id, "ready");
    let back = settings(&u, id);
    let revision = back["revision"].as_u64().unwrap();
    // every acknowledged save is there; the one in flight at the kill may have committed
    // without its answer, never more
    assert!(
        (acknowledged..=acknowledged + 1).contains(&revision),
        "{id} came back at revision {revision}, {acknowledged} acknowledged"
    );
    assert_eq!(back["skills"][0]["description"], json!(format!("revision {revision}")));
    // the writer retrying its last unacknowledged save is refused, not applied twice
    if revision > acknowledged {
        let (status, v) = http_json(
            "PUT",
            &format!("{}/dev/agents/{id}/settings", u.hub_url),
            Some(json!({"baseRevision": acknowledged, "skills": back["skills"]})),
        );
        assert_eq!((status, v["error"]["code"].as_str()), (409, Some("stale_revision")), "{v}");
    }
}

#[test]
fn the_tutor_killed_mid_write_comes_back_intact_with_every_acknowledged_save() {
    kill_specialist_mid_write("tutor");
}

#[test]
fn the_library_killed_mid_write_comes_back_intact_with_every_acknowledged_save() {
    kill_specialist_mid_write("library");
}

/// A question the students saw answered: request id, question, conversation, reply text.
type Answered = (String, String, String, String);

#[test]
fn the_hub_killed_mid_load_comes_back_intact_and_answers_each_question_once() {
    const ASKERS: usize = 6;
    let data = TempDir::new();
    let mut u = University::start(&[("CAMPUS_DATA_DIR", data.as_str())], &[]);
    u.wait_ready();
    // askers put questions through the Hub, each with its own request id, until it dies
    let answered: Arc<Mutex<Vec<Answered>>> = Arc::default();
    let sent = Arc::new(AtomicU64::new(0));
    let askers: Vec<_> = (0..ASKERS)
        .map(|a| {
            let (hub_url, answered, sent) = (u.hub_url.clone(), answered.clone(), sent.clone());
            std::thread::spawn(move || {
                let rt = rt();
                for n in 0.. {
                    let request = format!("r-{a}-{n}");
                    let question = format!("What is the derivative of x^{}?", n % 7 + 2);
                    sent.fetch_add(1, Ordering::SeqCst);
                    let me = student::Student::new(a2a::client::A2aClient::default(), &hub_url);
                    let Ok(ex) = rt.block_on(me.ask_with_request_id(&question, &request)) else { break };
                    if ex.outcome.as_deref() == Some("route") {
                        answered.lock().unwrap().push((request, question, ex.context_id, ex.reply_text));
                    }
                }
            })
        })
        .collect();
    poll(30, "forty questions answered", || (answered.lock().unwrap().len() >= 40).then_some(()));
    drop(u.hub.take()); // SIGKILL mid-load
    for a in askers {
        a.join().unwrap();
    }
    intact(&data, "hub");
    let before = answered.lock().unwrap().clone();
    let work_before = received(&u.tutor);
    assert!(
        work_before >= before.len(),
        "the tutor answered {work_before}, the students saw {}",
        before.len()
    );

    u.start_hub();
    u.wait_ready();
    // every answer the students saw is the Hub's record: the same words, no new work
    for (request, question, context, text) in &before {
        let me = student::Student::new(a2a::client::A2aClient::default(), &u.hub_url);
        me.set_conversation(Some(context.clone()));
        let again =
            rt().block_on(me.ask_with_request_id(question, request)).expect("the restarted hub answers");
        assert_eq!((again.outcome.as_deref(), &again.reply_text), (Some("route"), text), "{request}");
    }
    assert_eq!(received(&u.tutor), work_before, "nothing was done twice");
    let asked = sent.load(Ordering::SeqCst);
    assert!(asked > before.len() as u64, "some question was in flight at the kill");
}
