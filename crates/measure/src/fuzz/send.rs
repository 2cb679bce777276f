//! One endpoint's fuzz: each request planned from (seed, endpoint, index) alone, sent a
//! few at a time over real HTTP, each answer checked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{HeaderName, HeaderValue};

use crate::fuzz::bodies::{self, Rng, Shape};
use crate::fuzz::check::{Finding, Secret, check};
use crate::fuzz::system::Endpoint;

/// One request, as planned.
pub(crate) struct Planned {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, Vec<u8>)>,
    pub(crate) body: Vec<u8>,
    /// The local guard must refuse it (a foreign Host, or a foreign Origin on a change).
    pub(crate) must_refuse: bool,
}

const CONTENT_TYPES: &[&str] = &[
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=utf-16",
    "application/jsonx",
    "application/a2a+json",
    "*/*",
    "application/json, text/plain",
    "",
];
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "FUZZ"];
const HEADERS: &[&str] = &[
    "a2a-version",
    "a2a-extensions",
    "accept",
    "last-event-id",
    "if-none-match",
    "if-modified-since",
    "campus-hub-signature",
    "x-api-key",
    "anthropic-version",
    "transfer-encoding",
    "content-encoding",
];

/// The most bytes of a body put in a path or in a query: percent-encoded, each at most
/// three times as many, both together under the 64 KiB a client takes in a URL.
const URL_BYTES: usize = 8 * 1024;

/// Request `index` to `e` on a server at `port`.
pub(crate) fn plan(e: &Endpoint, port: u16, seed: u64, index: usize) -> Planned {
    let mut rng = Rng::for_request(seed, &e.label, index);
    let template: &[u8] =
        if e.templates.is_empty() { b"" } else { rng.pick(e.templates.as_slice()).as_slice() };
    let (shape, generated) = bodies::body(&mut rng, template);
    // a path or a query is at most a few KiB here (a client refuses 64 KiB URLs outright)
    let short = &generated[..generated.len().min(URL_BYTES)];
    let mut headers: Vec<(String, Vec<u8>)> =
        e.headers.iter().map(|(k, v)| (k.to_string(), v.clone().into_bytes())).collect();
    let mut param = e.param.clone().into_bytes();
    if e.path.contains("{}") && rng.chance(300) {
        param = if rng.chance(500) { short.to_vec() } else { bodies::mutate(&mut rng, e.param.as_bytes()) };
    }
    let mut path = e.path.replace("{}", &bodies::percent(&param));
    let mut body = Vec::new();
    if e.templates.is_empty() && shape != Shape::Oversize {
        // a GET's fuzz is its query and its headers, and now and then a body
        match rng.below(4) {
            0 => path = format!("{path}?after={}", bodies::percent(short)),
            1 => headers.push(("last-event-id".into(), bodies::header_value(&generated))),
            2 => headers.push(("if-none-match".into(), bodies::header_value(&generated))),
            _ => body = generated,
        }
    } else {
        body = generated;
    }
    if !body.is_empty() || !e.templates.is_empty() {
        let content_type =
            if rng.chance(50) { rng.pick(CONTENT_TYPES).to_string() } else { "application/json".to_string() };
        if !content_type.is_empty() {
            headers.push(("content-type".into(), content_type.into_bytes()));
        }
    }
    let mut method = e.method.clone();
    if rng.chance(30) {
        method = Method::from_bytes(rng.pick(METHODS).as_bytes()).unwrap_or(method);
    }
    if rng.chance(50) {
        let name = rng.pick(HEADERS).to_string();
        let len = rng.below(300);
        let value = bodies::header_value(&rng.bytes(len));
        headers.push((name, value));
    }
    let safe = matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let host = format!("127.0.0.1:{port}");
    let mut must_refuse = false;
    let mut origin = (!safe).then(|| format!("http://{host}"));
    if rng.chance(30) {
        match rng.below(5) {
            0 => {
                headers.push(("host".into(), format!("evil.example:{port}").into_bytes()));
                must_refuse = true;
            }
            1 => {
                headers.push(("host".into(), b"127.0.0.1:1".to_vec()));
                must_refuse = true;
            }
            2 => {
                headers.push(("host".into(), host.clone().into_bytes()));
                headers.push(("host".into(), host.clone().into_bytes()));
                must_refuse = true;
            }
            3 => {
                origin = Some("http://evil.example".into());
                must_refuse = !safe;
            }
            _ => {
                origin = None;
                headers.push(("sec-fetch-site".into(), b"cross-site".to_vec()));
                must_refuse = !safe;
            }
        }
    }
    if let Some(origin) = origin {
        headers.push(("origin".into(), origin.into_bytes()));
    }
    Planned { method, path, headers, body, must_refuse }
}

/// What one endpoint's fuzz saw.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) sent: usize,
    /// Answers by class: 2xx (and 1xx, 3xx), 4xx, 5xx.
    pub(crate) ok: usize,
    pub(crate) client_errors: usize,
    pub(crate) server_errors: usize,
    pub(crate) transport_errors: usize,
    pub(crate) findings: usize,
    /// The first few findings: (index, what, the reproducer's body head).
    pub(crate) examples: Vec<(usize, String, Vec<u8>)>,
}

/// Findings kept per endpoint for the report.
const EXAMPLES: usize = 5;

/// Sends `bodies` planned requests to `e` at `base` (`port`), `in_flight` at a time.
pub(crate) async fn fuzz_endpoint(
    http: &reqwest::Client,
    e: &Arc<Endpoint>,
    (base, port): (&str, u16),
    (seed, bodies, in_flight): (u64, usize, usize),
    secrets: &Arc<Vec<Secret>>,
) -> Tally {
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..in_flight {
        let (http, e, next, tally, secrets) =
            (http.clone(), e.clone(), next.clone(), tally.clone(), secrets.clone());
        let base = base.to_string();
        workers.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= bodies {
                    break;
                }
                let planned = plan(&e, port, seed, index);
                let answer = send(&http, &base, &planned, e.stream).await;
                let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
                t.sent += 1;
                let Some((status, text)) = answer else {
                    t.transport_errors += 1;
                    continue;
                };
                match status {
                    500.. => t.server_errors += 1,
                    400..=499 => t.client_errors += 1,
                    _ => t.ok += 1,
                }
                let mut request = planned.body.clone();
                request.extend_from_slice(planned.path.as_bytes());
                planned.headers.iter().for_each(|(_, v)| request.extend_from_slice(v));
                let found = check(status, &text, &request, planned.must_refuse, e.allowed_5xx, &secrets);
                if !found.is_empty() {
                    t.findings += 1;
                    if t.examples.len() < EXAMPLES {
                        let what = found.iter().map(Finding::to_string).collect::<Vec<_>>().join(", ");
                        let head = planned.body.iter().copied().take(200).collect();
                        t.examples.push((
                            index,
                            format!("{} {}: {what}", planned.method, planned.path),
                            head,
                        ));
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    std::mem::take(&mut *tally.lock().unwrap_or_else(|p| p.into_inner()))
}

/// How long a stream is read after its last chunk before the answer counts as read.
const STREAM_QUIET: Duration = Duration::from_millis(25);
/// How much of a stream is read at most.
const STREAM_BYTES: usize = 16 * 1024;

/// Sends one planned request: its status and its headers and body as bytes (`None`:
/// no answer, a transport error).
async fn send(http: &reqwest::Client, base: &str, p: &Planned, stream: bool) -> Option<(u16, Vec<u8>)> {
    let mut req = http.request(p.method.clone(), format!("{base}{}", p.path));
    let mut headers = reqwest::header::HeaderMap::new();
    for (name, value) in &p.headers {
        if let (Ok(n), Ok(v)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_bytes(value)) {
            headers.append(n, v);
        }
    }
    req = req.headers(headers);
    if !p.body.is_empty() {
        req = req.body(p.body.clone());
    }
    let mut resp = req.send().await.ok()?;
    let status = resp.status().as_u16();
    let mut text = Vec::new();
    for (name, value) in resp.headers() {
        text.extend_from_slice(name.as_str().as_bytes());
        text.extend_from_slice(b": ");
        text.extend_from_slice(value.as_bytes());
        text.push(b'\n');
    }
    if stream {
        while text.len() < STREAM_BYTES {
            match tokio::time::timeout(STREAM_QUIET, resp.chunk()).await {
                Ok(Ok(Some(chunk))) => text.extend_from_slice(&chunk),
                Ok(Err(_)) => return None,
                _ => break,
            }
        }
    } else {
        text.extend_from_slice(&resp.bytes().await.ok()?);
    }
    Some((status, text))
}
