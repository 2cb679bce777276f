//! Every server of ours, as a real process, against clients that would hold it: a request
//! head that never ends is closed after the head timeout while others are served, a
//! connection past the cap is refused `503 too_many_connections`, each logged; a second
//! `Host` header and a malformed chunked body are `400`. Small limits come from the
//! environment (`CAMPUS_HEAD_TIMEOUT_MS`, `CAMPUS_MAX_CONNECTIONS`).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use testkit::Proc;

const HEAD_TIMEOUT_MS: u64 = 500;
const CAP: usize = 3;

/// Each server: its command, and a path it answers with a GET.
const SERVERS: [(&str, &str); 5] = [
    ("hub", "/.well-known/agent-card.json"),
    ("tutor", "/.well-known/agent-card.json"),
    ("library", "/.well-known/agent-card.json"),
    ("ui", "/"),
    ("fake-anthropic", "/v1/models"),
];

fn addr(p: &Proc) -> String {
    p.url.trim_start_matches("http://").trim_end_matches('/').to_string()
}

fn connect(p: &Proc) -> TcpStream {
    let s = TcpStream::connect(addr(p)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s
}

/// Writes `req` on a new connection and reads until the server closes: (status line, all).
fn exchange(p: &Proc, req: &str) -> (String, String) {
    let mut s = connect(p);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    (text.lines().next().unwrap_or_default().to_string(), text)
}

fn get(p: &Proc, path: &str) -> String {
    exchange(p, &format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", addr(p))).0
}

#[test]
fn no_server_can_be_held_open_by_slow_or_many_clients() {
    let head = HEAD_TIMEOUT_MS.to_string();
    let cap = CAP.to_string();
    for (command, path) in SERVERS {
        let env = [("CAMPUS_HEAD_TIMEOUT_MS", head.as_str()), ("CAMPUS_MAX_CONNECTIONS", cap.as_str())];
        let p = Proc::start(&[command], &env);
        let host = addr(&p);

        // a head that never ends: closed in its time, while a whole request is served
        let mut slow = connect(&p);
        let began = Instant::now();
        slow.write_all(format!("POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: appl").as_bytes()).unwrap();
        assert!(get(&p, path).starts_with("HTTP/1.1 "), "{command}: not served beside a slow client");
        let mut rest = Vec::new();
        let closed = slow.read_to_end(&mut rest);
        assert!(closed.is_ok(), "{command}: a half-sent request was still open after 5 s");
        assert!(began.elapsed() >= Duration::from_millis(HEAD_TIMEOUT_MS - 50), "{command}: closed early");
        p.wait_for_log(|l| l.contains("request head did not arrive in time"));

        // past the cap: refused, and said in the log; each held connection had an answer
        let held: Vec<TcpStream> = (0..CAP)
            .map(|_| {
                let mut s = connect(&p);
                s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes()).unwrap();
                let mut buf = [0u8; 64];
                let n = s.read(&mut buf).unwrap();
                assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 "), "{command}: no answer");
                s
            })
            .collect();
        let (status, text) = exchange(&p, &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"));
        assert_eq!(status, "HTTP/1.1 503 Service Unavailable", "{command}: {text}");
        assert!(text.contains("too_many_connections"), "{command}: {text}");
        p.wait_for_log(|l| l.contains("refused connections past the cap"));
        drop(held);

        // RFC 9112: two Host headers, or a chunked body that is not chunked, are 400
        let deadline = Instant::now() + Duration::from_secs(5);
        let two_hosts =
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let status = loop {
            // the held connections' places free as the server sees them close
            let (status, _) = exchange(&p, &two_hosts);
            if !status.contains("503") || Instant::now() > deadline {
                break status;
            }
        };
        assert_eq!(status, "HTTP/1.1 400 Bad Request", "{command}: two Host headers");
        let chunked = format!(
            "POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\
             Connection: close\r\n\r\nnot-hex\r\n{{}}\r\n0\r\n\r\n"
        );
        let (status, text) = exchange(&p, &chunked);
        assert_eq!(status, "HTTP/1.1 400 Bad Request", "{command}: malformed chunked body: {text}");
        assert!(!text.contains("limit"), "{command}: not a size error: {text}");
    }
}
