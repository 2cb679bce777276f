//! The kinds of event on the hosted Student's own feed (the UI server's
//! `/telemetry/events`), and their payloads: ids, outcomes and codes, never a question.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

super::kinds! {
    /// What the Student did, as the event's `kind` names it.
    StudentEventKind {
        /// A question sent to the Hub ([`Asked`]).
        RequestSent = "request_sent",
        /// The Hub's answer arrived ([`Answered`]).
        ReplyReceived = "reply_received",
        /// The question failed before an answer ([`Failed`]).
        RequestFailed = "request_failed",
        /// A form action sent to the Hub ([`Pressed`]).
        ActionSent = "action_sent",
        /// What came of it ([`Pressed`] with its `state`).
        ActionResult = "action_result",
    }
}

/// `request_sent`: the question's request id and the page's thread and run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Asked<'a> {
    pub request_id: Cow<'a, str>,
    pub thread_id: Cow<'a, str>,
    pub run_id: Cow<'a, str>,
}

/// `reply_received`: what the reply said of itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answered<'a> {
    pub request_id: Cow<'a, str>,
    pub message_id: Cow<'a, str>,
    /// `outcome`, as the reply gave it (a word this crate may not know is kept as it came).
    pub outcome: Option<Cow<'a, str>>,
    /// `servedBy.id`.
    pub served_by: Option<Cow<'a, str>>,
}

/// `request_failed`: why (`timeout`, `hub_unreachable`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failed<'a> {
    pub request_id: Cow<'a, str>,
    pub code: Cow<'a, str>,
}

/// `action_sent` (with the page's thread and run) and `action_result` (with the form's
/// `state` after it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pressed<'a> {
    pub form_ref: Cow<'a, str>,
    pub operation_id: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Cow<'a, str>>,
}
