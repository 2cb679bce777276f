//! Part 1 with real processes: `campus tutor` and `campus student` talk over A2A, the
//! exchange is traceable by id in both logs, and every failure is one clear line.

use std::io::{Read, Write};

use testkit::{Proc, field, run};

#[test]
fn student_asks_tutor_and_ids_trace_across_both_logs() {
    let tutor = Proc::start(&["tutor"], &[]);
    let question = "Hello Tutor Agent. Can you help me with calculus?";
    let (ok, out, err) = run(&["student", "--verbose", question], &[("TUTOR_URL", &tutor.url)]);
    assert!(ok, "student failed: {err}");
    // the default question gets the offline tutor's offer (TUTOR_MODE=mock is the default)
    assert!(
        out.starts_with("Tutor Agent: Offline tutor (no model): Yes, I can help with calculus."),
        "{out}"
    );
    let sent = out.lines().find(|l| l.starts_with("sent ")).expect("sent line");
    let reply = out.lines().find(|l| l.starts_with("reply ")).expect("reply line");
    let sent_id = field(sent, "messageId").unwrap();
    let reply_id = field(reply, "messageId").unwrap();
    assert_eq!(field(sent, "contextId"), Some("(new)"), "the question started a new conversation");
    let context = field(reply, "contextId").unwrap();
    assert_ne!(sent_id, reply_id);

    // the Tutor logged the same ids: one line for the message, one for the reply
    let received = tutor.wait_for_log(|l| l.contains("received message") && l.contains(sent_id));
    assert_eq!(field(&received, "context_id"), Some(context));
    let published = tutor.wait_for_log(|l| l.contains("publishing reply") && l.contains(reply_id));
    assert_eq!(field(&published, "context_id"), Some(context));
    assert_eq!(field(&published, "in_reply_to"), Some(sent_id));
    // and so did the Student
    assert!(err.contains(sent_id) && err.contains(reply_id), "{err}");
}

#[test]
fn student_passes_its_question() {
    let tutor = Proc::start(&["tutor"], &[]);
    let (ok, _, err) = run(&["student", "What is a limit?"], &[("TUTOR_URL", &tutor.url)]);
    assert!(ok, "{err}");
}

fn one_error_line(err: &str) -> &str {
    let lines: Vec<&str> = err.lines().filter(|l| !l.contains(" INFO ")).collect();
    assert_eq!(lines.len(), 1, "expected one line, got: {err}");
    assert!(!err.contains("panicked") && !err.contains("Backtrace"), "{err}");
    lines[0]
}

#[test]
fn student_reports_a_tutor_that_is_down() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    drop(l);
    let (ok, out, err) = run(&["student", "hello"], &[("TUTOR_URL", &url)]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    let line = one_error_line(&err);
    assert!(
        line.starts_with("error: ") && line.contains("connection refused") && line.contains(&url),
        "{line}"
    );
}

#[test]
fn student_reports_a_timeout() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", silent.local_addr().unwrap());
    let holder = std::thread::spawn(move || {
        // accept and hold the connection without answering
        let (sock, _) = silent.accept().unwrap();
        let mut buf = [0u8; 1024];
        let mut sock = sock;
        let _ = sock.read(&mut buf);
        std::thread::park_timeout(std::time::Duration::from_secs(5));
    });
    let (ok, _, err) = run(&["student", "hello"], &[("TUTOR_URL", &url), ("STUDENT_TIMEOUT_MS", "300")]);
    assert!(!ok);
    let line = one_error_line(&err);
    assert!(line.contains("no answer") && line.contains(&url), "{line}");
    holder.thread().unpark();
}

#[test]
fn student_reports_a_bad_card() {
    let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", server.local_addr().unwrap());
    std::thread::spawn(move || {
        let (mut sock, _) = server.accept().unwrap();
        let mut buf = [0u8; 4096];
        let _ = sock.read(&mut buf);
        let body = "{\"name\": 42}";
        let _ = write!(
            sock,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    let (ok, _, err) = run(&["student", "hello"], &[("TUTOR_URL", &url)]);
    assert!(!ok);
    let line = one_error_line(&err);
    assert!(line.contains("bad agent card") && line.contains(&url), "{line}");
}

#[test]
fn tutor_refuses_a_bad_port() {
    let (ok, _, err) = run(&["tutor"], &[("PORT", "eighty")]);
    assert!(!ok);
    assert!(err.contains("PORT") && err.contains("eighty"), "{err}");
}

#[test]
fn tutor_refuses_a_taken_port() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (ok, _, err) = run(&["tutor"], &[("PORT", &port)]);
    assert!(!ok);
    assert!(err.contains("could not bind"), "{err}");
}

#[tokio::test]
async fn tutor_wears_the_local_guard() {
    let tutor = Proc::start(&["tutor"], &[]);
    let card_url = format!("{}/.well-known/agent-card.json", tutor.url);
    let http = reqwest::Client::new();
    // DNS rebinding: a foreign Host name on our port
    let resp = http.get(&card_url).header("host", "attacker.example").send().await.unwrap();
    assert_eq!(resp.status(), 403);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["error"]["code"], "host_not_allowed");
    // a cross-site POST
    let resp = testkit::rpc::post(&http, &tutor.url)
        .header("origin", "http://evil.example")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["error"]["code"], "origin_not_allowed");
    // the same requests from a local program pass
    let resp = http.get(&card_url).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let card: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(card["name"], "Tutor Agent");
    assert_eq!(card["skills"][0]["id"], "calculus-tutoring");
    assert_eq!(card["supportedInterfaces"][0]["url"], format!("{}/a2a/jsonrpc", tutor.url));
}
