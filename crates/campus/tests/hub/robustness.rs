//! Robustness: 10,000 random and mutated JSON-RPC bodies thrown at a running Tutor
//! process. Every answer must be a well-formed JSON-RPC result or error, the process
//! must never panic, and a normal request must still succeed afterwards.
//!
//! The generator is seeded (`ROBUSTNESS_SEED` overrides), so a failure can be replayed.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Map, Value, json};
use testkit::Proc;

const BODIES: usize = 10_000;
const WORKERS: usize = 8;

/// A seeded generator (reproducible runs) with the few draws the generators below use.
struct Rng(StdRng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.random()
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const METHODS: [&str; 12] = [
    "SendMessage",
    "GetTask",
    "ListTasks",
    "CancelTask",
    "SendStreamingMessage",
    "SubscribeToTask",
    "GetExtendedAgentCard",
    "CreateTaskPushNotificationConfig",
    "message/send",
    "tasks/get",
    "",
    "sendmessage",
];

fn random_string(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => String::new(),
        1 => "x".repeat(rng.below(200_000)),
        2 => (0..rng.below(40)).map(|_| char::from_u32(rng.below(0xD7FF) as u32).unwrap_or('?')).collect(),
        3 => rng
            .pick(&["ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED", "TASK_STATE_COMPLETED", "\u{0000}", "🦀"])
            .to_string(),
        _ => format!("id-{}", rng.next()),
    }
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => match rng.below(4) {
            0 => json!(rng.next() as i64),
            1 => json!(-(rng.below(1000) as i64)),
            2 => json!((rng.next() as f64) / 3.0),
            _ => json!(u64::MAX),
        },
        3 | 4 => Value::String(random_string(rng)),
        5 => Value::Array((0..rng.below(5)).map(|_| random_value(rng, depth - 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(5) {
                let key = rng
                    .pick(&[
                        "message",
                        "parts",
                        "text",
                        "data",
                        "id",
                        "role",
                        "messageId",
                        "taskId",
                        "contextId",
                        "pageSize",
                        "historyLength",
                        "status",
                        "pageToken",
                        "raw",
                        "url",
                        "k",
                    ])
                    .to_string();
                m.insert(key, random_value(rng, depth - 1));
            }
            Value::Object(m)
        }
    }
}

fn valid_request(rng: &mut Rng) -> Value {
    let id = if rng.chance(50) { json!(rng.below(1_000_000)) } else { json!(format!("r{}", rng.next())) };
    let params = match rng.below(4) {
        0 | 1 => json!({"message": {"messageId": format!("m{}", rng.next()), "role": "ROLE_USER",
            "parts": [{"text": "Can you help me with calculus?", "mediaType": "text/plain"}, {"data": {"k": [1, 2]}}],
            "contextId": "ctx-fuzz"}, "configuration": {"historyLength": 2}}),
        2 => json!({"id": format!("t{}", rng.next()), "historyLength": 1}),
        _ => json!({"contextId": "ctx-fuzz", "pageSize": 10, "status": "TASK_STATE_WORKING"}),
    };
    let method = match rng.below(4) {
        0 | 1 => "SendMessage",
        2 => *rng.pick(&["GetTask", "CancelTask"]),
        _ => "ListTasks",
    };
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Replaces, deletes or adds one node somewhere in `v`.
fn mutate(rng: &mut Rng, v: &mut Value, depth: usize) {
    match v {
        Value::Object(m) if !m.is_empty() && depth < 6 && rng.chance(70) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            match rng.below(4) {
                0 => {
                    m.remove(&key);
                }
                1 => {
                    m.insert(key, random_value(rng, 3));
                }
                _ => mutate(rng, m.get_mut(&key).unwrap(), depth + 1),
            }
        }
        Value::Array(a) if !a.is_empty() && depth < 6 && rng.chance(70) => {
            let i = rng.below(a.len());
            mutate(rng, &mut a[i], depth + 1);
        }
        _ => *v = random_value(rng, 3),
    }
}

fn deep(rng: &mut Rng) -> String {
    let n = 50 + rng.below(20_000);
    match rng.below(3) {
        0 => format!("{}{}", "[".repeat(n), "]".repeat(n)),
        1 => format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{}1{}}}",
            "{\"a\":".repeat(n),
            "}".repeat(n)
        ),
        _ => format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{{\"message\":{{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{{\"data\":{}0{}}}]}}}}}}",
            "[".repeat(n.min(120)),
            "]".repeat(n.min(120))
        ),
    }
}

/// One body and whether to send the right headers.
fn body(rng: &mut Rng) -> (Vec<u8>, bool) {
    let good_headers = rng.chance(90);
    let bytes = match rng.below(10) {
        0 => (0..rng.below(300)).map(|_| rng.next() as u8).collect(),
        1 => random_value(rng, 4).to_string().into_bytes(),
        2 => {
            let mut v = valid_request(rng);
            v["method"] = json!(rng.pick(&METHODS));
            v.to_string().into_bytes()
        }
        3 => {
            let s = valid_request(rng).to_string();
            s.as_bytes()[..rng.below(s.len())].to_vec()
        }
        4 => {
            let mut b = valid_request(rng).to_string().into_bytes();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            b
        }
        5 => deep(rng).into_bytes(),
        6 if rng.chance(10) => vec![b' '; 1024 * 1024 + 1 + rng.below(1000)],
        7 => json!([valid_request(rng), valid_request(rng)]).to_string().into_bytes(),
        _ => {
            let mut v = valid_request(rng);
            for _ in 0..1 + rng.below(3) {
                mutate(rng, &mut v, 0);
            }
            v.to_string().into_bytes()
        }
    };
    (bytes, good_headers)
}

/// A well-formed JSON-RPC 2.0 response: object, version, id, exactly one of result/error.
fn check_response(status: u16, text: &str) -> Result<(), String> {
    if status != 200 && status != 413 {
        return Err(format!("http status {status}"));
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not json ({e}): {text:.200}"))?;
    let obj = v.as_object().ok_or("not an object")?;
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(format!("jsonrpc is not 2.0: {text:.200}"));
    }
    match obj.get("id") {
        Some(Value::Null | Value::String(_) | Value::Number(_)) => {}
        _ => return Err(format!("bad or missing id: {text:.200}")),
    }
    match (obj.get("result"), obj.get("error")) {
        (Some(Value::Object(_)), None) => Ok(()),
        (None, Some(Value::Object(e))) => {
            let code_ok = e.get("code").and_then(Value::as_i64).is_some();
            let msg_ok = e.get("message").is_some_and(Value::is_string);
            if code_ok && msg_ok { Ok(()) } else { Err(format!("malformed error: {text:.200}")) }
        }
        _ => Err(format!("needs exactly one of result and error: {text:.200}")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_hostile_bodies() {
    let seed: u64 =
        std::env::var("ROBUSTNESS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_CA4B_u64);
    let mut tutor = Proc::start(&["tutor"], &[("RUST_LOG", "warn")]);
    let endpoint = format!("{}/a2a/jsonrpc", tutor.url);
    let http = reqwest::Client::new();
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for w in 0..WORKERS {
        let (http, base, endpoint, next) = (http.clone(), tutor.url.clone(), endpoint.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            let mut rng =
                Rng(StdRng::seed_from_u64(seed ^ (w as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            let mut failures = Vec::new();
            let mut errors = 0usize;
            while next.fetch_add(1, Ordering::Relaxed) < BODIES {
                let (bytes, good) = body(&mut rng);
                let mut req =
                    if good { testkit::rpc::post(&http, &base) } else { http.post(&endpoint) }.body(bytes);
                if !good && rng.chance(50) {
                    req = req.header(
                        "content-type",
                        *rng.pick(&["text/plain", "application/xml", "application/json"]),
                    );
                }
                let resp = req.send().await.map_err(|e| format!("transport: {e}"));
                let outcome = match resp {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        let text = r.text().await.unwrap_or_default();
                        if text.contains("\"error\"") {
                            errors += 1;
                        }
                        check_response(status, &text)
                    }
                    Err(e) => Err(e),
                };
                if let Err(e) = outcome {
                    failures.push(e);
                }
            }
            (failures, errors)
        }));
    }
    let mut failures = Vec::new();
    let mut errors = 0;
    for w in workers {
        let (f, e) = w.await.unwrap();
        failures.extend(f);
        errors += e;
    }
    assert!(
        failures.is_empty(),
        "{} bad answers (seed {seed:#x}), first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    assert!(errors > BODIES / 2, "most hostile bodies should be refused, only {errors} were");
    assert!(tutor.is_running(), "the tutor died");
    assert!(!tutor.stderr().iter().any(|l| l.contains("panicked")), "{:?}", tutor.stderr());

    // a normal request still works
    let message = json!({"messageId": "after", "role": "ROLE_USER", "parts": [{"text": "still there?"}]});
    let resp = testkit::rpc::post(&http, &tutor.url)
        .body(testkit::rpc::body("SendMessage", json!({"message": message})).to_string())
        .send()
        .await
        .unwrap();
    let v: Value = resp.json().await.unwrap();
    // (the offline tutor, the default mode, read every well-formed body's text too)
    let text = v["result"]["message"]["parts"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with(tutor::LABEL), "{v}");
}
