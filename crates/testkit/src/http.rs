//! Blocking HTTP for the process tests: JSON calls, a fake model server's script and
//! records, an agent's telemetry feed, and the runtime they block on.

use std::time::Duration;

use serde_json::Value;

/// A blocking HTTP call with a JSON body: (status, JSON answer or Null).
pub fn http_json(method: &str, url: &str, body: Option<serde_json::Value>) -> (u16, serde_json::Value) {
    send_json(method, url, body, None)
}

fn send_json(
    method: &str,
    url: &str,
    body: Option<serde_json::Value>,
    header: Option<(&str, String)>,
) -> (u16, serde_json::Value) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let client = reqwest::Client::new();
        let mut req = client.request(method.parse().unwrap(), url);
        if let Some((name, value)) = header {
            req = req.header(name, value);
        }
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b.to_string());
        }
        match req.send().await {
            Ok(r) => {
                let status = r.status().as_u16();
                (status, r.json().await.unwrap_or(serde_json::Value::Null))
            }
            Err(_) => (0, serde_json::Value::Null),
        }
    })
}

/// The key a test signs with when it plays the Hub for a specialist started without one:
/// give the specialist `HUB_PUBLIC_KEY` = [`test_hub_public_key`].
pub fn test_hub_key() -> keys::AgentKey {
    keys::AgentKey::from_seed([0x4b; 32])
}

/// `HUB_PUBLIC_KEY` for a specialist whose Hub is the test ([`as_hub`]).
pub fn test_hub_public_key() -> String {
    test_hub_key().public().to_string()
}

/// A settings change to the specialist `audience` at `base` + `path`, signed as the Hub's
/// developer proxy signs it (with [`test_hub_key`]).
pub fn as_hub(
    method: &str,
    base: &str,
    audience: &str,
    path: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    let signature =
        hublink::sign_request(&test_hub_key(), audience, method, path, body.to_string().as_bytes());
    send_json(
        method,
        &format!("{base}{path}"),
        Some(body),
        Some((vocab::meta::HUB_SIGNATURE_HEADER, signature)),
    )
}

/// Replaces the script of a fake model server (`campus fake-anthropic` at `fake`).
pub fn put_fake_script(fake: &str, script: serde_json::Value) {
    let (status, answer) = http_json("PUT", &format!("{fake}/_fake/script"), Some(script));
    assert_eq!(status, 204, "the fake refused the script: {answer}");
}

/// Scripts a fake model server's next `replies` (used once each, in order) and forgets the
/// requests it recorded, so [`fake_requests`] shows only what follows.
pub fn script_fake_replies(fake: &str, replies: serde_json::Value) {
    put_fake_script(fake, serde_json::json!({ "replies": replies }));
    let (status, _) = http_json("DELETE", &format!("{fake}/_fake/requests"), None);
    assert!(status < 300, "the fake kept its requests");
}

/// The requests a fake model server recorded since they were last forgotten, oldest first.
pub fn fake_requests(fake: &str) -> Vec<serde_json::Value> {
    fake_recorded(fake).0
}

/// The requests a fake model server recorded, oldest first, and how many it received.
pub fn fake_recorded(fake: &str) -> (Vec<serde_json::Value>, u64) {
    let (status, v) = http_json("GET", &format!("{fake}/_fake/requests"), None);
    assert_eq!(status, 200, "{v}");
    (v["requests"].as_array().cloned().unwrap_or_default(), v["total"].as_u64().unwrap_or(0))
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// An agent's telemetry feed as it stands (the history is replayed first; live heartbeats
/// keep the stream busy, so read for a bounded time rather than until it goes quiet).
pub fn feed_snapshot(base_url: &str) -> Option<String> {
    rt().block_on(async {
        let mut resp = reqwest::get(format!("{base_url}/telemetry/events")).await.ok()?;
        let mut text = String::new();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(500);
        while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, resp.chunk()).await {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
        Some(text)
    })
}

/// The events in a feed snapshot.
pub fn feed_events(base_url: &str) -> Vec<Value> {
    feed_snapshot(base_url)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}
