//! What one telemetry event means on the monitor: its topology pulse ([`label`]) and its
//! console line ([`summary`]). The Hub's events are read by [`HubEventKind`] and their
//! `vocab::events` payloads; a specialist's relayed events and the Student's own by their
//! own kinds. Only ids, kinds and codes are read, never content.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use vocab::HubEventKind;
use vocab::agents::{HUB, STUDENT};
use vocab::events::specialist::SpecialistEventKind as Specialist;
use vocab::events::student::StudentEventKind as Student;
use vocab::events::{FormEvent, ForwardFailure, Forwarded, Operation, Published, Routed, Subject};

use crate::feed::payload;

/// One labelled movement on the topology.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pulse {
    pub link: String,
    pub from: String,
    pub to: String,
    pub category: &'static str,
    pub phase: &'static str,
    pub sender: String,
    pub ts: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    pub count: u64,
}

/// The link between the Student and the Hub (the only one the Student is on).
pub(crate) const STUDENT_HUB: &str = "student-hub";

/// The ids a pulse carries, as any of the events says them.
#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Trace {
    request_id: Option<String>,
    operation_id: Option<String>,
    code: Option<String>,
}

/// The Hub's event's payload, when it is what its kind says.
fn hub<T: DeserializeOwned>(e: &telemetry::Event) -> Option<T> {
    payload(e)
}

/// What one telemetry event means on the topology, if anything.
pub fn label(e: &telemetry::Event) -> Option<Pulse> {
    let trace: Trace = payload(e).unwrap_or_default();
    let pulse = |link: String, from: &str, to: &str, category, phase, sender: &str| Pulse {
        link,
        from: from.into(),
        to: to.into(),
        category,
        phase,
        sender: sender.into(),
        ts: e.ts,
        trace_id: trace.request_id.clone(),
        operation_id: trace.operation_id.clone().filter(|o| o != "-"),
        count: 1,
    };
    let hub_link = |sp: &str| format!("hub-{sp}");
    let student = |from: &str, to: &str, category, phase, sender: &str| {
        Some(pulse(STUDENT_HUB.into(), from, to, category, phase, sender))
    };
    if let Some(sp) = e.relayed_from.as_deref() {
        let l = hub_link(sp);
        return match Specialist::parse(&e.kind)? {
            Specialist::MessageReceived => Some(pulse(l, HUB, sp, "question", "received", sp)),
            Specialist::ReplyPublished => Some(pulse(l, sp, HUB, "answer", "result", sp)),
            Specialist::Registered => Some(pulse(l, sp, HUB, "registration", "sent", sp)),
            Specialist::RegistrationRefused => Some(pulse(l, sp, HUB, "registration", "failed", sp)),
            Specialist::HeartbeatSent => Some(pulse(l, sp, HUB, "heartbeat", "sent", sp)),
            _ => None,
        };
    }
    match &*e.agent {
        STUDENT => match Student::parse(&e.kind)? {
            Student::RequestSent => student(STUDENT, HUB, "question", "sent", STUDENT),
            Student::ReplyReceived => student(HUB, STUDENT, "answer", "received", STUDENT),
            Student::RequestFailed => {
                let phase = if trace.code.as_deref() == Some("timeout") { "unknown" } else { "failed" };
                student(STUDENT, HUB, "question", phase, STUDENT)
            }
            _ => None,
        },
        HUB => {
            // a pulse on the specialist's link, from `from` to `to` ("hub" or the specialist)
            let on = |sp: &str, toward: bool, category, phase| {
                let (from, to) = if toward { (HUB, sp) } else { (sp, HUB) };
                Some(pulse(hub_link(sp), from, to, category, phase, HUB))
            };
            let form = || hub::<FormEvent>(e);
            match HubEventKind::parse(&e.kind)? {
                HubEventKind::MessageReceived => student(STUDENT, HUB, "question", "received", HUB),
                HubEventKind::Routed => student(STUDENT, HUB, "question", "working", HUB),
                HubEventKind::ReplyPublished => student(HUB, STUDENT, "answer", "sent", HUB),
                HubEventKind::Forwarded => on(&hub::<Forwarded>(e)?.specialist, true, "question", "sent"),
                HubEventKind::SpecialistReplied => {
                    on(&hub::<Operation>(e)?.specialist, false, "answer", "received")
                }
                HubEventKind::ForwardFailed => {
                    let o: Operation = hub(e)?;
                    let unknown = o.reason.as_deref().and_then(ForwardFailure::parse)
                        == Some(ForwardFailure::OutcomeUnknown);
                    on(&o.specialist, true, "question", if unknown { "unknown" } else { "failed" })
                }
                HubEventKind::Registered | HubEventKind::SignedOut => {
                    on(&hub::<Subject>(e)?.specialist, false, "registration", "received")
                }
                HubEventKind::Heartbeat => on(&hub::<Subject>(e)?.specialist, false, "heartbeat", "received"),
                HubEventKind::CardChangeNotice => {
                    on(&hub::<Subject>(e)?.specialist, false, "card", "received")
                }
                HubEventKind::CardFetched => {
                    let s: Subject = hub(e)?;
                    let failed = matches!(s.outcome.as_deref(), Some("invalid" | "failed"));
                    on(&s.specialist, false, "card", if failed { "failed" } else { "result" })
                }
                // forms (docs/forms.md): a form coming back, an action forwarded, its result
                HubEventKind::FormRelayed => on(form()?.specialist.as_deref()?, false, "form", "received"),
                HubEventKind::FormActionReceived => student(STUDENT, HUB, "form", "received", HUB),
                HubEventKind::FormActionRefused | HubEventKind::FormActionReplayed => {
                    let refused = e.kind == HubEventKind::FormActionRefused.as_str();
                    match form()?.specialist {
                        // the specialist refused it
                        Some(sp) if refused => on(&sp, false, "form", "failed"),
                        Some(_) => None,
                        // the Hub refused it itself: it went no further (the reply follows,
                        // `form_action_replied`); a replay is answered by that reply alone
                        None if refused => student(STUDENT, HUB, "form", "failed", HUB),
                        None => None,
                    }
                }
                HubEventKind::FormActionReplied => {
                    let phase = if form()?.code.is_some() { "failed" } else { "sent" };
                    student(HUB, STUDENT, "form", phase, HUB)
                }
                HubEventKind::FormActionForwarded => on(form()?.specialist.as_deref()?, true, "form", "sent"),
                HubEventKind::FormActionResult => on(form()?.specialist.as_deref()?, false, "form", "result"),
                HubEventKind::FormActionUnknown => {
                    on(form()?.specialist.as_deref()?, true, "form", "unknown")
                }
                HubEventKind::DuplicateRequest | HubEventKind::RouterTrained => None,
            }
        }
        _ => None,
    }
}

/// Whether an event is a heartbeat (never kept: live-only pulses, no console entry).
pub(crate) fn is_heartbeat(e: &telemetry::Event) -> bool {
    e.kind == HubEventKind::Heartbeat.as_str() || e.kind == Specialist::HeartbeatSent.as_str()
}

/// The agent a console entry is under: the specialist of a relayed event, else its own.
pub(crate) fn console_agent(e: &telemetry::Event) -> &str {
    e.relayed_from.as_deref().unwrap_or(&e.agent)
}

/// A short line for a console entry, in words, from ids and kinds only (never content).
pub(crate) fn summary(e: &telemetry::Event, data: &Value) -> String {
    let s = |k: &str| data.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
    let or = |v: Option<&str>| v.unwrap_or("?").to_string();
    let hub_kind = HubEventKind::parse(&e.kind).filter(|_| e.relayed_from.is_none());
    let form = || hub::<FormEvent>(e).unwrap_or_default();
    let subject = || hub::<Subject>(e).map(|s| s.specialist.into_owned()).unwrap_or_else(|| "?".into());
    let operation = || hub::<Operation>(e);
    let Some(kind) = hub_kind else {
        return match (Student::parse(&e.kind), Specialist::parse(&e.kind)) {
            (Some(Student::RequestSent), _) => "sent a question to the hub".into(),
            (Some(Student::ReplyReceived), _) => format!("got the answer ({})", s(vocab::meta::OUTCOME_KEY)),
            (Some(Student::RequestFailed), _) => format!("the question failed ({})", s("code")),
            (_, Some(Specialist::MessageReceived)) => "received a question".into(),
            (_, Some(Specialist::ReplyPublished)) => format!("replied ({})", s(vocab::meta::OUTCOME_KEY)),
            (_, Some(Specialist::Registered)) => "registered with the hub".into(),
            _ => e.kind.replace('_', " "),
        };
    };
    match kind {
        HubEventKind::MessageReceived => "received a question".into(),
        HubEventKind::Routed => {
            let kind = hub::<Routed>(e).map(|r| r.decision.kind());
            format!("decided: {}", or(kind))
        }
        HubEventKind::Forwarded => {
            format!("forwarded to {}", or(hub::<Forwarded>(e).as_ref().map(|f| f.specialist.as_ref())))
        }
        HubEventKind::SpecialistReplied => {
            format!("{} answered", or(operation().as_ref().map(|o| o.specialist.as_ref())))
        }
        HubEventKind::ForwardFailed => {
            let o = operation();
            let specialist = or(o.as_ref().map(|o| o.specialist.as_ref()));
            format!("forward to {specialist} failed ({})", or(o.as_ref().and_then(|o| o.reason.as_deref())))
        }
        HubEventKind::ReplyPublished => {
            let outcome = hub::<Published>(e).and_then(|p| p.outcome).map(|o| o.as_str());
            format!("replied ({})", or(outcome))
        }
        HubEventKind::Registered => format!("registered {}", subject()),
        HubEventKind::SignedOut => format!("{} signed out", subject()),
        HubEventKind::CardFetched => {
            let s = hub::<Subject>(e);
            let outcome = s.as_ref().and_then(|s| s.outcome.as_deref());
            format!("fetched the card of {} ({})", or(s.as_ref().map(|s| s.specialist.as_ref())), or(outcome))
        }
        HubEventKind::FormRelayed => {
            let f = form();
            format!("relayed a {} form from {}", or(f.workflow.as_deref()), or(f.specialist.as_deref()))
        }
        HubEventKind::FormActionReceived => "received a form action".into(),
        HubEventKind::FormActionForwarded => {
            format!("forwarded a form action to {}", or(form().specialist.as_deref()))
        }
        HubEventKind::FormActionRefused => {
            format!("refused a form action ({})", or(form().code.as_deref()))
        }
        HubEventKind::FormActionReplayed => "answered a repeated form action from its record".into(),
        HubEventKind::FormActionResult => {
            let f = form();
            let state = f.state.map(|s| s.as_str());
            format!("{} answered a form action ({})", or(f.specialist.as_deref()), or(state))
        }
        HubEventKind::FormActionUnknown => {
            format!("no answer from {} in time (outcome unknown)", or(form().specialist.as_deref()))
        }
        HubEventKind::FormActionReplied => match form().code {
            Some(code) => format!("replied to a form action: refused ({code})"),
            None => "replied to a form action".into(),
        },
        other => other.as_str().replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hub_event(kind: HubEventKind, data: Value) -> telemetry::Event {
        telemetry::Event {
            id: "b:1".into(),
            ts: 10,
            agent: "hub".into(),
            kind: kind.as_str().into(),
            data: data.into(),
            relayed_from: None,
        }
    }

    #[test]
    fn console_lines_read_the_hubs_payloads() {
        use HubEventKind::*;
        let form = |more: Value| {
            let mut v = json!({"contextId": "c", "formRef": "hf-1", "specialist": "library"});
            v.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
            v
        };
        // (kind, payload as the Hub writes it, the console's line)
        let table = [
            (
                Routed,
                json!({"requestId": "r", "contextId": "c", "decision": {"kind": "clarify", "options": [], "tie": false}}),
                "decided: clarify",
            ),
            (
                ForwardFailed,
                json!({"requestId": "r", "specialist": "tutor", "operationId": "o", "reason": "unreachable"}),
                "forward to tutor failed (unreachable)",
            ),
            (
                ReplyPublished,
                json!({"messageId": "m", "contextId": "c", "requestId": "r", "servedBy": "hub", "outcome": "unsupported"}),
                "replied (unsupported)",
            ),
            (
                Registered,
                json!({"specialist": "tutor", "instanceId": "i", "enabled": true, "mode": null}),
                "registered tutor",
            ),
            (
                CardFetched,
                json!({"specialist": "tutor", "outcome": "not_modified", "revision": 2, "etag": null}),
                "fetched the card of tutor (not_modified)",
            ),
            (
                FormRelayed,
                form(json!({"workflow": "study-room-booking"})),
                "relayed a study-room-booking form from library",
            ),
            (
                FormActionResult,
                form(json!({"state": "submitted"})),
                "library answered a form action (submitted)",
            ),
            (FormActionRefused, form(json!({"code": "form_closed"})), "refused a form action (form_closed)"),
            (DuplicateRequest, json!({"requestId": "r", "contextId": "c"}), "duplicate request"),
        ];
        for (kind, data, line) in table {
            let e = hub_event(kind, data.clone());
            assert_eq!(summary(&e, &data), line, "{kind:?}");
        }
        // a card refused is a failed pulse on the specialist's link; a good one a result
        let card = |outcome| hub_event(CardFetched, json!({"specialist": "tutor", "outcome": outcome}));
        assert_eq!(label(&card("invalid")).unwrap().phase, "failed");
        assert_eq!(label(&card("updated")).unwrap().phase, "result");
        assert!(is_heartbeat(&hub_event(Heartbeat, json!({"specialist": "tutor"}))));
    }
}
