//! Recorded live-router decisions, so `campus eval-router --mode live|hybrid` runs with no
//! model call (CI): [`Recorder`] wraps a model and keeps each question's structured
//! answer (or error code); [`Replay`] answers the same questions from a file of them.
//!
//! The file is JSON lines: a first line `{"note": …}` saying where the decisions came
//! from, then one `{"text", "model", "reply"}` (the model's structured answer, checked
//! against the router's schema again on replay) or `{"text", "model", "error"}` (a
//! stable code) per question.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use llm::{Call, Completion, ErrorCode, Llm, LlmError, Request, Schema, StopReason, Usage};
use serde_json::{Value, json};

/// The header of a fixture recorded from the stand-in.
pub(crate) const STAND_IN_NOTE: &str = "NOT A REAL MODEL'S OUTPUT: recorded from the deterministic stand-in \
(hub::stand_in: the mock keyword heuristic behind the model seam, model \"mock\") with campus eval-router \
--record --stand-in; figures replayed from it are the stand-in's, not a model's. Record a real model's \
decisions the same way without --stand-in.";

/// The largest decisions file read.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One recorded answer.
#[derive(Debug, Clone)]
enum Recorded {
    Reply { text: String, usage: Usage, model: String },
    Error(ErrorCode),
}

/// Answers router calls from recorded decisions, by question.
pub(crate) struct Replay {
    answers: HashMap<String, Recorded>,
}

impl Replay {
    pub(crate) fn read(path: &Path) -> anyhow::Result<Replay> {
        let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        if meta.len() > MAX_FILE_BYTES {
            bail!("{} is larger than {} MiB", path.display(), MAX_FILE_BYTES / 1024 / 1024);
        }
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut answers = HashMap::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = || format!("{} line {}", path.display(), i + 1);
            let v: Value = serde_json::from_str(line).with_context(|| format!("{}: not JSON", at()))?;
            if i == 0 && v.get("note").is_some() {
                continue;
            }
            let question = v["text"].as_str().with_context(|| format!("{}: no text", at()))?;
            let model = v["model"].as_str().unwrap_or("recorded").to_string();
            let recorded = match (&v["reply"], v["error"].as_str()) {
                (Value::Object(_), None) => Recorded::Reply {
                    text: v["reply"].to_string(),
                    usage: Usage {
                        input_tokens: v["usage"]["inputTokens"].as_u64().unwrap_or(0),
                        output_tokens: v["usage"]["outputTokens"].as_u64().unwrap_or(0),
                    },
                    model,
                },
                (Value::Null, Some(code)) => Recorded::Error(
                    ErrorCode::ALL
                        .into_iter()
                        .find(|c| c.as_str() == code)
                        .with_context(|| format!("{}: {code:?} is not an error code", at()))?,
                ),
                _ => bail!("{}: needs a reply object or an error code", at()),
            };
            answers.insert(question.to_string(), recorded);
        }
        Ok(Replay { answers })
    }
}

impl Llm for Replay {
    fn label(&self) -> &'static str {
        "replay"
    }

    fn complete<'a>(&'a self, req: &'a Request, _schema: Option<&'a Schema>) -> Call<'a, Completion> {
        let found = hub::question_of(req).and_then(|q| self.answers.get(&q));
        let done = match found {
            Some(Recorded::Reply { text, usage, model }) => Ok(Completion {
                text: Some(text.clone()),
                stop_reason: StopReason::EndTurn,
                usage: *usage,
                request_id: None,
                model: model.clone(),
                latency: Duration::ZERO,
            }),
            Some(Recorded::Error(code)) => Err(LlmError::new(*code)),
            // not recorded: counted as a failed call (the classifier decides), never a guess
            None => Err(LlmError::new(ErrorCode::RequestRejected)),
        };
        Box::pin(async move { done })
    }
}

/// Passes calls to a model and keeps what it answered, by question.
pub(crate) struct Recorder {
    inner: Arc<dyn Llm>,
    lines: Mutex<Vec<(String, Value)>>,
}

impl Recorder {
    pub(crate) fn new(inner: Arc<dyn Llm>) -> Self {
        Self { inner, lines: Mutex::new(Vec::new()) }
    }

    /// Writes the decisions under a `note` header and returns them as a replay.
    pub(crate) fn write(&self, path: &Path, note: &str) -> anyhow::Result<Replay> {
        let lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        let mut out = json!({"note": note}).to_string();
        for (_, line) in lines.iter() {
            out.push('\n');
            out.push_str(&line.to_string());
        }
        out.push('\n');
        std::fs::write(path, out).with_context(|| format!("cannot write {}", path.display()))?;
        drop(lines);
        Replay::read(path)
    }
}

impl Llm for Recorder {
    fn label(&self) -> &'static str {
        self.inner.label()
    }

    fn complete<'a>(&'a self, req: &'a Request, schema: Option<&'a Schema>) -> Call<'a, Completion> {
        Box::pin(async move {
            let done = self.inner.complete(req, schema).await;
            let question = hub::question_of(req).unwrap_or_default();
            let line = match &done {
                Ok(c) => {
                    let reply = c.text.as_deref().and_then(|t| serde_json::from_str::<Value>(t).ok());
                    match reply.filter(|r| c.stop_reason == StopReason::EndTurn && r.is_object()) {
                        Some(reply) => json!({"text": question, "model": c.model, "reply": reply,
                            "usage": c.usage.report()}),
                        None => {
                            json!({"text": question, "model": c.model, "error": ErrorCode::InvalidOutput.as_str()})
                        }
                    }
                }
                Err(e) => json!({"text": question, "error": e.code.as_str()}),
            };
            self.lines.lock().unwrap_or_else(|p| p.into_inner()).push((question, line));
            done
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_decisions_replay_and_unrecorded_questions_fail() {
        let dir = std::env::temp_dir().join(format!("campus-decisions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.jsonl");
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let config = hub::Config::from_env(&|_| None).unwrap();
        let view = crate::eval::observe::default_view(&config);
        let recorder = Arc::new(Recorder::new(Arc::new(hub::stand_in())));
        let live =
            hub::Router::new(hub::RouterParts::of(hub::RouterMode::Live, &config)).with_llm(recorder.clone());
        let q = "when are the library opening hours?";
        let first = rt.block_on(live.decide_live(q, &view, true));
        let replay = recorder.write(&path, STAND_IN_NOTE).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().next().unwrap().contains("NOT A REAL MODEL'S OUTPUT"));
        let replayed =
            hub::Router::new(hub::RouterParts::of(hub::RouterMode::Live, &config)).with_llm(Arc::new(replay));
        let again = rt.block_on(replayed.decide_live(q, &view, true));
        assert_eq!(again.decision, first.decision);
        assert!(again.call.unwrap().error.is_none());
        let missing = rt.block_on(replayed.decide_live("something never recorded", &view, true));
        assert_eq!(missing.call.and_then(|c| c.error).map(|e| e.code), Some(ErrorCode::RequestRejected));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
