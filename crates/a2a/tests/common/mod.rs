//! Raw JSON-RPC calls to a test server, and reading the errors they get.

#![allow(dead_code)] // each test file uses its own share

use serde_json::{Value, json};

pub(crate) async fn raw(
    base: &str,
    body: impl Into<reqwest::Body>,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let mut req = reqwest::Client::new().post(format!("{base}/a2a/jsonrpc")).body(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let value = resp.json().await.unwrap_or(Value::Null);
    (status, value)
}

pub(crate) const JSON: (&str, &str) = ("content-type", "application/json");
pub(crate) const V1: (&str, &str) = ("a2a-version", "1.0");

pub(crate) async fn rpc(base: &str, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    raw(base, body, &[JSON, V1]).await.1
}

pub(crate) fn code(v: &Value) -> i64 {
    v["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error: {v}"))
}

pub(crate) fn reason(v: &Value) -> &str {
    v["error"]["data"].as_array().and_then(|d| d.last()).and_then(|i| i["reason"].as_str()).unwrap_or("")
}
