//! Ledger tests: answers and duplicates, a reopen, the log under sustained load.

use super::*;
use serde_json::json;

fn answer(id: &str) -> Stored {
    Stored {
        recheck: None,
        message_id: id.into(),
        context_id: "ctx".into(),
        parts: vec![],
        metadata: Default::default(),
    }
}

#[tokio::test]
async fn duplicates_wait_for_the_first_answer() {
    let l = Ledger::new(2);
    let key = ("ctx".to_string(), "r1".to_string(), 7);
    let alias = ("assigned".to_string(), "r1".to_string(), 7);
    let Ok(Begin::New(pending)) = l.begin(key.clone(), Some(alias.clone())).await else {
        panic!("first is new")
    };
    let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else { panic!("second is a duplicate") };
    assert!(matches!(l.begin(alias.clone(), None).await, Ok(Begin::Existing(_))), "the alias finds it too");
    let waiter = tokio::spawn(wait(rx));
    l.finish(&key, Some(&alias), &pending, &answer("m"), false).await;
    assert_eq!(waiter.await.unwrap().unwrap().message_id, "m");
    assert!(matches!(l.begin(alias, None).await, Ok(Begin::New(_))), "not kept: forgotten");
    assert!(matches!(l.begin(key, None).await, Ok(Begin::New(_))));
    l.begin(("a".into(), "1".into(), 0), None).await.unwrap();
    l.begin(("a".into(), "2".into(), 0), None).await.unwrap();
    assert_eq!(l.len(), 2, "bounded");
}

#[test]
fn the_question_hash_is_fixed_across_builds() {
    // stored on disk: a change here would make every stored request look new
    assert_eq!(
        question_hash("How do I find the derivative of x^2?"),
        question_hash("How do I find the derivative of x^2?")
    );
    assert_eq!(question_hash(""), 0xe3b0c44298fc1c14);
    assert_ne!(question_hash("a"), question_hash("b"));
}

/// What a restart sees: answers kept, a request interrupted mid-way answered as
/// outcome unknown (in the conversation its alias names), forgotten ones gone.
#[tokio::test]
async fn answers_survive_a_reopen_and_an_interrupted_request_is_never_new_again() {
    let dir = std::env::temp_dir().join(format!("campus-hub-ledger-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let served_by = vocab::ServedBy::hub("Hub");
    let open = || {
        let store = Store::open(&store::file_for(&dir, "hub")).unwrap();
        Ledger::durable(16, load(store, 16, &served_by).unwrap()).unwrap()
    };
    let answered = (String::new(), "r1".to_string(), 1);
    let answered_alias = ("ctx-1".to_string(), "r1".to_string(), 1);
    let cut = (String::new(), "r2".to_string(), 2);
    let cut_alias = ("ctx-2".to_string(), "r2".to_string(), 2);
    let dropped = ("ctx-1".to_string(), "r3".to_string(), 3);
    {
        let l = open();
        let Begin::New(pending) = l.begin(answered.clone(), Some(answered_alias.clone())).await.unwrap()
        else {
            panic!("new")
        };
        l.finish(&answered, Some(&answered_alias), &pending, &answer("m1"), true).await;
        let Begin::New(_cut) = l.begin(cut.clone(), Some(cut_alias.clone())).await.unwrap() else { panic!() };
        let Begin::New(pending) = l.begin(dropped.clone(), None).await.unwrap() else { panic!() };
        l.finish(&dropped, None, &pending, &answer("m3"), false).await;
        // the writer drains its queue before the ledger is gone
        l.begin(("x".into(), "sync".into(), 0), None).await.unwrap();
    }
    let l = open();
    for key in [&answered, &answered_alias] {
        let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else { panic!("kept: {key:?}") };
        assert_eq!(wait(rx).await.unwrap().message_id, "m1");
    }
    let mut ids = vec![];
    for key in [&cut, &cut_alias] {
        let Ok(Begin::Existing(rx)) = l.begin(key.clone(), None).await else { panic!("kept: {key:?}") };
        let s = wait(rx).await.unwrap();
        assert_eq!(s.metadata["outcome"], "outcome_unknown");
        assert_eq!(s.context_id, "ctx-2", "in the conversation the hub assigned");
        ids.push(s.message_id);
    }
    assert_eq!(ids[0], ids[1], "one answer for the key and its alias");
    assert!(matches!(l.begin(dropped, None).await, Ok(Begin::New(_))), "forgotten");
    drop(l);
    // the settled answer is stored: the same message id after another restart
    let l = open();
    let Ok(Begin::Existing(rx)) = l.begin(cut, None).await else { panic!() };
    assert_eq!(wait(rx).await.unwrap().message_id, ids[0]);
    drop(l);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How long the load test writes: minutes of sustained load, as an operator's soak
/// would, and long enough for the log to be emptied many times over at this
/// machine's rate (a checkpoint every few seconds in a debug build).
const LOAD_FOR: std::time::Duration = std::time::Duration::from_secs(120);

/// Questions begun and answered through the ledger as fast as it commits them (64 at
/// a time, on the async thread as in the Hub) for [`LOAD_FOR`]: all along, the
/// `-wal` file (looked at every few milliseconds from another thread) never passes
/// the store's cap and is emptied again and again, and the table on disk stays
/// pruned to the ledger's capacity and an eighth; afterwards the file is intact and
/// a reopened ledger answers the newest questions from disk.
#[tokio::test]
async fn under_sustained_load_the_log_stays_under_its_cap_and_the_newest_answers_survive() {
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
    use std::time::{Duration, Instant};

    const KEEP: usize = crate::LEDGER_CAPACITY;
    let dir = std::env::temp_dir().join(format!("campus-hub-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = store::file_for(&dir, "hub");
    let wal = dir.join("hub.sqlite3-wal");
    let open = || {
        let store = Store::open_with(&path, store::Durability::ProcessKill).unwrap();
        Arc::new(Ledger::durable(KEEP, load(store, KEEP, &vocab::ServedBy::hub("Hub")).unwrap()).unwrap())
    };
    let ledger = open();
    // what a tutor's answer through the Hub looks like, about 1 KB of JSON
    let answer_for = |n: i64| Stored {
        recheck: None,
        message_id: format!("msg-{n}"),
        context_id: format!("ctx-{}", n % 997),
        parts: vec![Part::text(format!("{n}: {}", "a derivative measures a rate of change. ".repeat(12)))],
        metadata: serde_json::from_value(json!({
            "servedBy": {"id": "hub", "name": "Hub"}, "route": {"agent": "tutor", "skill": "calculus",
            "confidence": 0.93}, "requestId": format!("r{n}"), "outcome": "answered"}))
        .unwrap(),
    };

    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (stop, wal, path) = (stop.clone(), wal.clone(), path.clone());
        std::thread::spawn(move || {
            let reader = Store::open(&path).unwrap();
            let (mut largest, mut emptied, mut last, mut most_rows, mut looks) = (0u64, 0, 0u64, 0, 0);
            let mut rows_at = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                let now = std::fs::metadata(&wal).map_or(0, |m| m.len());
                assert!(
                    now <= store::checkpoint::LOG_LIMIT,
                    "the log reached {now} bytes (cap {})",
                    store::checkpoint::LOG_LIMIT
                );
                largest = largest.max(now);
                emptied += usize::from(last >= store::checkpoint::CHECKPOINT_AT && now < last / 2);
                last = now;
                looks += 1;
                if rows_at.elapsed() > Duration::from_millis(250) {
                    rows_at = Instant::now();
                    let rows = reader.load_ledger(usize::MAX >> 1).unwrap().len();
                    assert!(rows <= KEEP + KEEP / 8, "{rows} rows on disk");
                    most_rows = most_rows.max(rows);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            (largest, emptied, most_rows, looks)
        })
    };

    let next = Arc::new(AtomicI64::new(0));
    let started = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for _ in 0..64 {
        let (ledger, next) = (ledger.clone(), next.clone());
        clients.spawn(async move {
            while started.elapsed() < LOAD_FOR {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let key = (String::new(), format!("r{n}"), n as u64);
                let Begin::New(pending) = ledger.begin(key.clone(), None).await.unwrap() else {
                    panic!("r{n} is new")
                };
                ledger.finish(&key, None, &pending, &answer_for(n), true).await;
            }
        });
    }
    while let Some(done) = clients.join_next().await {
        done.unwrap();
    }
    let elapsed = started.elapsed();
    let asked = next.load(Ordering::Relaxed);
    drop(ledger);
    stop.store(true, Ordering::Relaxed);
    let (largest, emptied, most_rows, looks) = watcher.join().unwrap();
    let largest_mb = largest as f64 / 1e6;
    println!(
        "{asked} questions in {elapsed:.1?} ({:.0}/s); the log at most {largest_mb:.1} MB in {looks} looks, \
         emptied {emptied} times; at most {most_rows} rows on disk",
        asked as f64 / elapsed.as_secs_f64()
    );
    assert!(emptied >= 3, "the log was emptied {emptied} times (largest {largest} bytes)");

    let store = Store::open(&path).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let rows = store.load_ledger(KEEP).unwrap();
    assert_eq!(rows.len(), KEEP);
    for (row, n) in rows.iter().zip(asked - KEEP as i64..) {
        assert_eq!((row.seq, row.key.1.as_str()), (n + 1, format!("r{n}").as_str()), "the newest, no gap");
        let stored: Stored = serde_json::from_str(row.answer.as_deref().unwrap()).unwrap();
        assert_eq!(stored.message_id, format!("msg-{n}"));
    }
    drop(store);
    let ledger = open();
    for n in asked - 64..asked {
        let Ok(Begin::Existing(rx)) = ledger.begin((String::new(), format!("r{n}"), n as u64), None).await
        else {
            panic!("r{n} is answered from disk")
        };
        assert_eq!(wait(rx).await.unwrap().message_id, format!("msg-{n}"));
    }
    drop(ledger);
    let _ = std::fs::remove_dir_all(&dir);
}
