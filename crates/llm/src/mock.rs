//! The offline model: deterministic, labelled (`model: "mock"`, request ids `mock-N`),
//! scripted by rules. Its completions are read by the same code as the live client's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;

use crate::{Call, Completion, ErrorCode, Llm, LlmError, Request, Schema, StopReason, Usage};

/// What the mock answers to one call.
#[derive(Debug, Clone, PartialEq)]
pub enum MockReply {
    /// A text answer (`end_turn`).
    Text(String),
    /// A structured answer (`end_turn`; still checked against the call's schema).
    Json(Value),
    /// `stop_reason: refusal`.
    Refusal,
    /// `stop_reason: max_tokens` with this much text (empty: `truncated_no_text`).
    Truncated(String),
    /// The call fails with this code.
    Fail(ErrorCode),
}

type Rule = Box<dyn Fn(&Request, Option<&Schema>) -> Option<MockReply> + Send + Sync>;
type Fallback = Box<dyn Fn(&Request, Option<&Schema>) -> MockReply + Send + Sync>;

/// A scripted model: the first rule that answers a call decides it, else the fallback.
pub struct Mock {
    rules: Vec<Rule>,
    fallback: Fallback,
    calls: AtomicU64,
}

impl Mock {
    /// A mock that answers every call with `fallback` unless a rule answers first.
    pub fn new(fallback: impl Fn(&Request, Option<&Schema>) -> MockReply + Send + Sync + 'static) -> Self {
        Self { rules: Vec::new(), fallback: Box::new(fallback), calls: AtomicU64::new(0) }
    }

    /// Text calls get `(mock) ` and the last user message back; structured calls fail
    /// with `invalid_output` (script them with [`Mock::rule`] or [`Mock::on`]).
    pub fn echo() -> Self {
        Self::new(|req, schema| match schema {
            Some(_) => MockReply::Fail(ErrorCode::InvalidOutput),
            None => {
                let last = req.messages.iter().rev().find(|m| m.role == crate::Role::User);
                MockReply::Text(format!("(mock) {}", last.map_or("", |m| m.text.as_str())))
            }
        })
    }

    /// Adds a rule, tried in the order added.
    pub fn rule(
        mut self,
        rule: impl Fn(&Request, Option<&Schema>) -> Option<MockReply> + Send + Sync + 'static,
    ) -> Self {
        self.rules.push(Box::new(rule));
        self
    }

    /// Calls whose [`Request::purpose`] is `purpose` get `reply`.
    pub fn on(self, purpose: &'static str, reply: MockReply) -> Self {
        self.rule(move |req, _| (req.purpose == purpose).then(|| reply.clone()))
    }

    /// How many calls were made.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    fn answer(&self, req: &Request, schema: Option<&Schema>) -> Result<Completion, LlmError> {
        let n = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let reply =
            self.rules.iter().find_map(|r| r(req, schema)).unwrap_or_else(|| (self.fallback)(req, schema));
        let request_id = Some(format!("mock-{n}"));
        let (text, stop_reason) = match reply {
            MockReply::Text(t) => (Some(t), StopReason::EndTurn),
            MockReply::Json(v) => (Some(v.to_string()), StopReason::EndTurn),
            MockReply::Refusal => (None, StopReason::Refusal),
            MockReply::Truncated(t) => (Some(t), StopReason::MaxTokens),
            MockReply::Fail(code) => return Err(LlmError { request_id, ..LlmError::new(code) }),
        };
        // a deterministic stand-in for tokens: four characters each
        let input: usize = req.system.len() + req.messages.iter().map(|m| m.text.len()).sum::<usize>();
        let output = text.as_deref().map_or(0, str::len);
        Ok(Completion {
            text,
            stop_reason,
            usage: Usage { input_tokens: input.div_ceil(4) as u64, output_tokens: output.div_ceil(4) as u64 },
            request_id,
            model: "mock".into(),
            latency: Duration::ZERO,
        })
    }
}

impl Llm for Mock {
    fn label(&self) -> &'static str {
        "mock"
    }

    fn complete<'a>(&'a self, req: &'a Request, schema: Option<&'a Schema>) -> Call<'a, Completion> {
        let done = self.answer(req, schema);
        Box::pin(async move { done })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Message, Model};
    use serde_json::json;

    fn req(purpose: &'static str, q: &str) -> Request {
        Request::new(purpose, Model::default(), "system", vec![Message::user(q)], 100)
    }

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }

    #[test]
    fn rules_then_fallback_read_like_the_live_client() {
        let schema = Schema::new(json!({"type": "object", "additionalProperties": false,
            "properties": {"verdict": {"type": "string", "enum": ["in_scope", "out_of_scope"]}},
            "required": ["verdict"]}))
        .unwrap();
        let mock = Mock::echo()
            .on("scope_check", MockReply::Json(json!({"verdict": "in_scope"})))
            .on("bad_shape", MockReply::Json(json!({"verdict": "perhaps"})))
            .on("refuse", MockReply::Refusal)
            .on("cut", MockReply::Truncated(String::new()))
            .on("busy", MockReply::Fail(ErrorCode::RateLimited))
            .rule(|r, _| r.messages[0].text.contains("plumbing").then(|| MockReply::Text("no".into())));
        run(async {
            let r = mock.structured(&req("scope_check", "x"), &schema).await.unwrap();
            assert_eq!(r.content, json!({"verdict": "in_scope"}));
            assert_eq!((r.model.as_str(), r.request_id.as_deref()), ("mock", Some("mock-1")));
            let e = mock.structured(&req("bad_shape", "x"), &schema).await.unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidOutput, "the schema is checked for the mock too");
            assert_eq!(mock.text(&req("refuse", "x")).await.unwrap_err().code, ErrorCode::Refusal);
            assert_eq!(mock.text(&req("cut", "x")).await.unwrap_err().code, ErrorCode::TruncatedNoText);
            let e = mock.text(&req("busy", "x")).await.unwrap_err();
            assert_eq!((e.code, e.request_id.as_deref()), (ErrorCode::RateLimited, Some("mock-5")));
            assert_eq!(mock.text(&req("answer", "fix my plumbing")).await.unwrap().content, "no");
            let r = mock.text(&req("answer", "what is a limit")).await.unwrap();
            assert_eq!(r.content, "(mock) what is a limit");
            assert_eq!(r.usage, Usage { input_tokens: 6, output_tokens: 6 });
            assert_eq!(mock.calls(), 7);
        });
    }
}
