//! `web/vocab.js` is generated from the Rust that owns each name, so the page never
//! carries a hand copy of a step, a state, an outcome, a status, an agent id, a channel or
//! a notice code: this test fails when the committed file differs from what the types say.
//! After changing one of them: `CAMPUS_WRITE_VOCAB=1 cargo test -p ui --test page_vocab`.

use std::path::PathBuf;

use serde_json::{Value, json};

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> Value {
    json!(all.iter().map(|t| name(*t)).collect::<Vec<_>>())
}

/// `hub_forwarded` → `hubForwarded`.
fn camel(id: &str) -> String {
    let mut parts = id.split('_');
    let first = parts.next().unwrap_or_default().to_string();
    parts.fold(first, |mut out, p| {
        let mut c = p.chars();
        if let Some(h) = c.next() {
            out.extend(h.to_uppercase());
            out.push_str(c.as_str());
        }
        out
    })
}

fn render() -> String {
    let constants = [
        (
            "STEP_IDS",
            "The steps of a question's path strip, in order (crates/ui/src/hops.rs).",
            json!(ui::hops::STEPS.iter().map(|s| s.0).collect::<Vec<_>>()),
        ),
        (
            "STEP",
            "Each step's id by name (the same ids as STEP_IDS).",
            json!(
                ui::hops::STEPS.iter().map(|s| (camel(s.0), json!(s.0))).collect::<serde_json::Map<_, _>>()
            ),
        ),
        (
            "OUTCOMES",
            "A reply's `outcome` (vocab::ReplyOutcome).",
            names(&vocab::ReplyOutcome::ALL, vocab::ReplyOutcome::as_str),
        ),
        (
            "FORM_STATES",
            "`campusForm.state` (vocab::FormState).",
            names(&vocab::FormState::ALL, vocab::FormState::as_str),
        ),
        (
            "FORM_VIEW",
            "Where a form is as the page shows it, by name (ui::forms::ViewState).",
            json!(
                ui::forms::ViewState::ALL
                    .iter()
                    .map(|s| (camel(s.name()), json!(s.name())))
                    .collect::<serde_json::Map<_, _>>()
            ),
        ),
        (
            "STATUSES",
            "A specialist's status in the Hub's registry (vocab::registry::Status).",
            names(&vocab::registry::Status::ALL, vocab::registry::Status::as_str),
        ),
        (
            "HUB_EVENTS",
            "The kinds of event on the Hub's feed (vocab::HubEventKind).",
            names(vocab::HubEventKind::ALL, vocab::HubEventKind::as_str),
        ),
        (
            "AGENTS",
            "The agents' ids, as telemetry, `servedBy` and the registry carry them (vocab::agents).",
            json!(
                vocab::agents::ALL
                    .iter()
                    .map(|id| (id.to_string(), json!(id)))
                    .collect::<serde_json::Map<_, _>>()
            ),
        ),
        (
            "SPECIALISTS",
            "The specialists drawn before the Hub reports its registry, in order (vocab::agents).",
            json!(vocab::agents::SPECIALISTS),
        ),
        (
            "CANCEL_ACTION",
            "The action name of every form's Cancel button (forms::action::CANCEL_FORM).",
            json!(forms::action::CANCEL_FORM),
        ),
        (
            "FOLLOW_UP_ACTION",
            "The action name of a composed screen's follow-up button: its question is asked as a new one, no form action (forms::action::FOLLOW_UP).",
            json!(forms::action::FOLLOW_UP),
        ),
        (
            "WORKFLOW_AGENT",
            "Each form workflow's specialist (forms::Workflow::agent).",
            json!(
                forms::Workflow::ALL
                    .iter()
                    .map(|w| (w.id().to_string(), json!(w.agent())))
                    .collect::<serde_json::Map<_, _>>()
            ),
        ),
        (
            "CHANNELS",
            "The stream's channels (crates/ui/src/stream.rs, monitor.rs) and the notices' lane.",
            json!({"student": ui::stream::STUDENT_CHANNEL, "monitor": ui::monitor::CHANNEL, "noticesThread": ui::notices::THREAD}),
        ),
        (
            "NOTICES",
            "The codes of the server's notices (crates/ui/src/notices.rs).",
            json!({"hubUnreachable": ui::notices::HUB_UNREACHABLE, "hubReachable": ui::notices::HUB_REACHABLE,
                "conversationStarted": ui::notices::CONVERSATION_STARTED,
                "historyTruncated": ui::stream::HISTORY_TRUNCATED}),
        ),
        (
            "FORWARD_FAILURES",
            "Why a forward brought no answer: a hop's reason (vocab::events::ForwardFailure).",
            {
                use vocab::events::ForwardFailure::*;
                json!({"unreachable": Unreachable.as_str(), "error": Error.as_str(), "outcomeUnknown": OutcomeUnknown.as_str()})
            },
        ),
        (
            "FORM_REFUSALS",
            "The codes a press on a form is refused with, by the Hub or its specialist (vocab::form::refusal).",
            {
                use vocab::form::refusal::*;
                json!({"formUnknown": FORM_UNKNOWN, "formClosed": FORM_CLOSED, "formExpired": FORM_EXPIRED,
                    "formNotYours": FORM_NOT_YOURS, "actionNotAllowed": ACTION_NOT_ALLOWED, "formStale": FORM_STALE,
                    "workflowDisabled": WORKFLOW_DISABLED, "operationReused": OPERATION_REUSED,
                    "operationIdInvalid": OPERATION_ID_INVALID, "slotUnknown": SLOT_UNKNOWN})
            },
        ),
        ("RUN_ERRORS", "The codes a run ends with in RUN_ERROR (ui::error::run_codes).", {
            use ui::error::run_codes::*;
            json!({"timeout": TIMEOUT, "hubError": HUB_ERROR, "hubUnavailable": HUB_UNAVAILABLE,
                    "outcomeUnknown": OUTCOME_UNKNOWN, "runInProgress": RUN_IN_PROGRESS})
        }),
    ];
    let mut out = String::from(
        "// Generated from the Rust types by crates/ui/tests/page_vocab.rs: do not edit by hand.\n\
         // After a change there: CAMPUS_WRITE_VOCAB=1 cargo test -p ui --test page_vocab\n",
    );
    for (name, doc, value) in constants {
        out.push_str(&format!("/** {doc} */\nexport const {name} = Object.freeze({value});\n"));
    }
    out
}

#[test]
fn the_pages_vocabulary_is_the_one_the_types_say() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/vocab.js");
    let want = render();
    if std::env::var_os("CAMPUS_WRITE_VOCAB").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "web/vocab.js is stale: run CAMPUS_WRITE_VOCAB=1 cargo test -p ui --test page_vocab\n--- committed\n{have}\n--- from the types\n{want}"
    );
}
