//! The script: what the fake answers (queued replies, rules, a default), the models it
//! serves and the key it accepts, read from JSON that refuses unknown fields; and how a
//! rule's `when` is matched against a request.
//!
//! Subtle: with `field`, `contains` looks only at the string at that JSON pointer in the
//! last user message read as JSON; a message that is not JSON, or has no string there,
//! matches no rule with a `field` (even with `contains` unset).

use std::path::Path;

use conf::ConfError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Longest scripted delay.
const MAX_DELAY_MS: u64 = 600_000;

/// What the fake answers. Unknown fields are refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Used once each, in order, before any rule.
    #[serde(default)]
    pub replies: Vec<FakeReply>,
    /// Tried in order once `replies` is used up.
    #[serde(default)]
    pub rules: Vec<FakeRule>,
    /// When nothing else answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<FakeReply>,
    /// The model ids served (default: every model Campus accepts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<Vec<String>>,
    /// The only key accepted (default: any non-empty key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accept_key: Option<String>,
}

/// One scripted answer. Nothing set: the built-in reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeReply {
    /// The text block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A structured answer: sent as the text block's JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// `end_turn` unless set (`refusal`, `max_tokens`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// A thinking block with this text before the text block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    /// An error reply with this status (400–599) in the provider's shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Wait this long before answering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

impl FakeReply {
    pub fn text(text: impl Into<String>) -> Self {
        Self { text: Some(text.into()), ..Self::default() }
    }

    pub fn json(value: Value) -> Self {
        Self { json: Some(value), ..Self::default() }
    }

    pub fn status(status: u16) -> Self {
        Self { status: Some(status), ..Self::default() }
    }

    pub fn stop(stop_reason: &str, text: &str) -> Self {
        Self { stop_reason: Some(stop_reason.into()), text: Some(text.into()), ..Self::default() }
    }
}

/// A reply for the requests that match `when`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeRule {
    pub when: When,
    pub reply: FakeReply,
}

/// Every condition set must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The last user message contains this (any case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<String>,
    /// A JSON pointer (`/question`): `contains` then looks only at the string there in
    /// the last user message read as JSON (not JSON, or no string there: no match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The system prompt contains this (any case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_contains: Option<String>,
    /// The request asks (true) or does not ask (false) for JSON-schema output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

const STOP_REASONS: [&str; 7] = [
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
];

impl Script {
    /// What is wrong with the script, as `<field>: <problem>`.
    pub fn check(&self) -> Result<(), String> {
        let replies = self.replies.iter().enumerate().map(|(i, r)| (format!("replies[{i}]"), r));
        let rules = self.rules.iter().enumerate().map(|(i, r)| (format!("rules[{i}].reply"), &r.reply));
        for (at, reply) in replies.chain(rules).chain(self.default.iter().map(|r| ("default".to_string(), r)))
        {
            if reply.status.is_some_and(|s| !(400..=599).contains(&s)) {
                return Err(format!("{at}.status: must be an error status from 400 to 599"));
            }
            if reply.delay_ms.is_some_and(|d| d > MAX_DELAY_MS) {
                return Err(format!("{at}.delay_ms: must be at most {MAX_DELAY_MS}"));
            }
            if reply.stop_reason.as_deref().is_some_and(|s| !STOP_REASONS.contains(&s)) {
                return Err(format!("{at}.stop_reason: must be one of {}", STOP_REASONS.join(", ")));
            }
        }
        if self.accept_key.as_deref().is_some_and(|k| k.trim().is_empty()) {
            return Err("accept_key: must not be empty".into());
        }
        Ok(())
    }
}

/// Reads and checks a script file (JSON).
pub fn load_script(path: &Path) -> Result<Script, ConfError> {
    let source = format!("--script {}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| {
        ConfError::new(
            &source,
            "",
            format!("the file cannot be read: {}", e.kind().to_string().to_lowercase()),
        )
    })?;
    let script: Script = conf::parse(&source, &text)?;
    script.check().map_err(|p| ConfError::new(&source, "", p))?;
    Ok(script)
}

/// The text of the last user message (string content or its text blocks).
pub(super) fn last_user_text(req: &Value) -> String {
    let messages = req["messages"].as_array().map(Vec::as_slice).unwrap_or_default();
    let Some(last) = messages.iter().rev().find(|m| m["role"] == "user") else { return String::new() };
    match &last["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join(""),
        _ => String::new(),
    }
}

pub(super) fn matches(when: &When, req: &Value) -> bool {
    let has = |hay: &str, needle: &str| hay.to_lowercase().contains(&needle.to_lowercase());
    let text = last_user_text(req);
    let looked_at = match when.field.as_deref() {
        None => Some(text),
        Some(pointer) => serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.pointer(pointer).and_then(Value::as_str).map(str::to_owned)),
    };
    looked_at.is_some_and(|t| when.contains.as_deref().is_none_or(|c| has(&t, c)))
        && when.system_contains.as_deref().is_none_or(|c| has(req["system"].as_str().unwrap_or(""), c))
        && when.structured.is_none_or(|s| s == req.pointer("/output_config/format").is_some())
        && when.model.as_deref().is_none_or(|m| req["model"] == m)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::fake::req;

    #[test]
    fn rules_match_on_what_they_name() {
        let r = req(json!({"system": "You are the Tutor"}));
        let when =
            When { contains: Some("HI".into()), system_contains: Some("tutor".into()), ..When::default() };
        assert!(matches(&when, &r));
        assert!(!matches(&When { structured: Some(true), ..When::default() }, &r));
        assert!(!matches(&When { model: Some("claude-opus-5-5".into()), ..When::default() }, &r));
        let data =
            json!({"messages": [{"role": "user", "content": r#"{"question":"a room","services":"tutor"}"#}]});
        let at = |field: &str, contains: &str| When {
            field: Some(field.into()),
            contains: Some(contains.into()),
            ..When::default()
        };
        assert!(matches(&at("/question", "ROOM"), &req(data.clone())));
        assert!(!matches(&at("/question", "tutor"), &req(data.clone())), "only the field is read");
        assert!(!matches(&at("/missing", ""), &req(data)), "no string there: no match");
        assert!(!matches(&at("/question", ""), &r), "not json: no match");
    }

    #[test]
    fn scripts_are_checked() {
        let bad = Script { replies: vec![FakeReply::status(200)], ..Script::default() };
        assert_eq!(bad.check().unwrap_err(), "replies[0].status: must be an error status from 400 to 599");
        let bad = Script { default: Some(FakeReply::stop("done", "")), ..Script::default() };
        assert!(bad.check().unwrap_err().starts_with("default.stop_reason"));
        let e = conf::parse::<Script>("s", r#"{"replies": [{"txt": "x"}]}"#).unwrap_err();
        assert_eq!(e.field, "replies[0].txt");
        assert!(e.problem.starts_with("unknown field `txt`"), "{e}");
    }
}
