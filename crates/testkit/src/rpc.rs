//! Raw A2A 1.0 JSON-RPC, as a client that is not ours would send it: the body, the POST
//! with its headers, and blocking calls on top.

use serde_json::{Value, json};

use crate::http::rt;

/// The A2A version header every call carries.
pub const A2A_VERSION: &str = "1.0";

/// A JSON-RPC 2.0 request body (`id` 1).
pub fn body(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
}

/// `POST {base_url}/a2a/jsonrpc` with `content-type: application/json` and
/// `A2A-Version: 1.0`; the caller adds the body (and any other header).
pub fn post(http: &reqwest::Client, base_url: &str) -> reqwest::RequestBuilder {
    http.post(format!("{base_url}/a2a/jsonrpc"))
        .header("content-type", "application/json")
        .header("a2a-version", A2A_VERSION)
}

/// A raw A2A 1.0 JSON-RPC call (`A2A-Version: 1.0`) to the agent at `base_url`.
pub fn rpc(base_url: &str, method: &str, params: Value) -> Value {
    let body = body(method, params);
    rt().block_on(async {
        let resp = post(&reqwest::Client::new(), base_url).body(body.to_string()).send().await.unwrap();
        resp.json::<Value>().await.unwrap()
    })
}

/// A blocking `SendMessage` of `message`; with `extension`, the call also asks for it in
/// `A2A-Extensions` (the A2UI extension, for a client that renders forms).
pub fn send_message(base_url: &str, message: Value, extension: Option<&str>) -> Value {
    let body = body("SendMessage", json!({"message": message}));
    rt().block_on(async {
        let mut req = post(&reqwest::Client::new(), base_url);
        if let Some(ext) = extension {
            req = req.header("a2a-extensions", ext);
        }
        req.body(body.to_string()).send().await.unwrap().json::<Value>().await.unwrap()
    })
}
