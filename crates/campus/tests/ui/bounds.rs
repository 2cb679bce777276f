//! `campus ui`'s bounds over real processes: a small history (`UI_HISTORY_FRAMES`) marks a
//! resume from an evicted id `history_truncated` and still starts each lane at a run
//! boundary; a subscriber that stops reading is disconnected while the server stays
//! responsive and its memory bounded; a bad `UI_HISTORY_FRAMES` is refused at start.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use testkit::ui::{Frame, ask, read_stream, start_ui, verify_lanes};
use testkit::{University, http_json, poll, run};

/// The UI server's last kept seq (`/api/ui/health`).
fn last_seq(ui: &str) -> u64 {
    http_json("GET", &format!("{ui}/api/ui/health"), None).1["lastSeq"].as_u64().expect("health answers")
}

/// Asks unsupported questions (the Hub answers them itself) from 8 workers, each in a new
/// conversation, until the stream has kept `frames` more frames. A 429 (64 runs in flight)
/// is waited out.
fn flood(ui: &str, tag: &str, frames: u64) {
    let goal = last_seq(ui) + frames;
    std::thread::scope(|s| {
        for w in 0..8 {
            s.spawn(move || {
                let mut i = 0;
                while last_seq(ui) < goal {
                    i += 1;
                    let id = format!("{tag}{w}-{i}");
                    let (code, body) = ask(ui, &id, &id, "can you fix my kitchen sink?");
                    match code {
                        202 => {}
                        429 => std::thread::sleep(Duration::from_millis(5)),
                        _ => panic!("{code}: {body}"),
                    }
                }
            });
        }
    });
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a number")
}

#[test]
fn a_small_history_marks_an_evicted_resume_and_still_starts_each_lane_at_a_run() {
    let u = University::start(&[], &[]);
    let ui = start_ui(&u.hub_url, &[("UI_HISTORY_FRAMES", "40")]);
    let first = read_stream(&ui.url, None, None, 5, |f| f.iter().any(|f| f.id.is_some()));
    let early = first.iter().find_map(|f| f.id.clone()).expect("a kept frame");
    flood(&ui.url, "h", 200);
    let frames = read_stream(&ui.url, Some(&early), None, 3, |_| false);
    assert_eq!(frames[0].json["notice"], "hello");
    assert_eq!(
        (frames[1].json["notice"].as_str(), frames[1].json["reason"].as_str()),
        (Some("history_truncated"), Some("evicted")),
        "{:?}",
        frames[1].json
    );
    // each lane opens with a RUN_STARTED (a fresh verifier per lane accepts it), and no
    // more is sent than the history holds, plus what came live meanwhile
    verify_lanes(&frames);
    let kept: Vec<&Frame> = frames.iter().filter(|f| f.id.is_some()).collect();
    assert!(!kept.is_empty());
    let mut seen = std::collections::HashSet::new();
    for f in &kept {
        let lane = format!("{}/{}", f.channel(), f.thread());
        if seen.insert(lane.clone()) {
            assert_eq!(f.kind(), "RUN_STARTED", "lane {lane} starts at a run boundary: {}", f.json);
        }
    }
    // a first connection is never marked: it asked for nothing that is gone
    let fresh = read_stream(&ui.url, None, None, 2, |_| false);
    assert!(fresh.iter().all(|f| f.json["notice"] != "history_truncated"));
    verify_lanes(&fresh);
}

#[test]
fn a_bad_history_size_is_refused_at_start() {
    for bad in ["0", "lots"] {
        let (ok, _, err) = run(&["ui"], &[("UI_HISTORY_FRAMES", bad)]);
        assert!(!ok, "{bad}");
        assert!(err.contains("UI_HISTORY_FRAMES") && err.contains("16 to 100000"), "{bad}: {err}");
    }
}

#[test]
fn a_subscriber_that_stops_reading_is_disconnected_and_memory_stays_bounded() {
    let u = University::start(&[], &[]);
    let ui = start_ui(&u.hub_url, &[]);
    flood(&ui.url, "w", 300); // warm: the history fills, allocations settle
    let before = rss_kib(ui.pid());
    // a subscriber that reads its response head and then nothing more
    let addr = ui.url.trim_start_matches("http://").to_string();
    // with a small receive buffer, so its socket holds little of what it does not read
    let mut slow: TcpStream = testkit::rt().block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
        let stream = stream.into_std().unwrap();
        stream.set_nonblocking(false).unwrap();
        stream
    });
    write!(slow, "GET /api/ui/stream HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    let mut head = [0u8; 1024];
    let n = slow.read(&mut head).unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    let from = last_seq(&ui.url);
    // far more than its socket buffers and the live buffer (1,024 frames) hold
    flood(&ui.url, "s", 20_000);
    let emitted = last_seq(&ui.url) - from;
    // the server still answers, and did not keep what the stuck subscriber did not read
    assert!(last_seq(&ui.url) > from);
    let after = rss_kib(ui.pid());
    assert!(after < before + 20 * 1024, "rss grew from {before} KiB to {after} KiB");
    // the subscriber reads again: it gets what was in flight, then its response ends
    slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut body = Vec::new();
    let mut buf = [0u8; 65536];
    let ended = loop {
        match slow.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => {
                body.extend_from_slice(&buf[..n]);
                if body.ends_with(b"\r\n0\r\n\r\n") {
                    break true; // the chunked body's end: disconnected from the stream
                }
            }
            Err(_) => break false,
        }
    };
    assert!(ended, "the lagging subscriber's response ended");
    let text = String::from_utf8_lossy(&body);
    let got = text.matches("\nid: ").count() as u64;
    assert!(got < emitted, "cut off, not buffered: got {got} of {emitted} kept frames");
    // it resumes from its last id and gets the rest from run boundaries
    let last_id = text.rsplit("\nid: ").next().and_then(|s| s.lines().next()).map(str::to_owned);
    let again = read_stream(&ui.url, last_id.as_deref(), None, 3, |_| false);
    verify_lanes(&again);
    poll(5, "the health endpoint", || (last_seq(&ui.url) > 0).then_some(()));
    eprintln!(
        "rss {before} KiB -> {after} KiB; slow subscriber got {got} of {emitted} frames, {} bytes",
        body.len()
    );
}
