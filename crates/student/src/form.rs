//! Forms on the Student's side (docs/forms.md): what a reply is (an answer, a form, or a
//! form payload the allowlist refused), every A2UI payload checked by
//! `a2ui::Policy::fixed_forms()` before anything may draw it, and what an action came to.

use std::collections::HashMap;

use a2ui::{Policy, Refusal};
use serde::Deserialize;
use serde_json::Value;
use vocab::form::{CAMPUS_FORM_KEY, FORM_ERRORS_MEDIA_TYPE, FORM_RECEIPT_MEDIA_TYPE, FORM_REF_KEY};
use vocab::{CampusForm, FormState, ReplyOutcome};

/// The extensions every message activates: A2UI v0.9.
pub(crate) fn extensions() -> Vec<String> {
    vec![a2ui::EXTENSION_URI.to_string()]
}

/// What a reply is.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Text only (in the exchange's `reply_text`).
    Answer,
    /// A form or a form's next step; its A2UI messages passed the allowlist.
    Form(FormReply),
    /// A form payload the allowlist refused: nothing of it may be drawn.
    Refused(FormRefusal),
}

/// A form payload refused by the allowlist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormRefusal {
    pub form_ref: Option<String>,
    /// `a2ui_…` (see `a2ui::RefusalCode`).
    pub code: String,
    /// Where (JSON Pointers), never a value.
    pub reason: String,
}

/// One field error of a rejected form.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct FieldError {
    pub field: String,
    pub code: String,
    #[serde(default)]
    pub message: String,
}

/// A form as the Hub relayed it.
#[derive(Debug, Clone, PartialEq)]
pub struct FormReply {
    /// The Hub's `hf-…` reference: what an action names.
    pub form_ref: String,
    pub workflow: String,
    pub version: u32,
    pub state: FormState,
    /// The A2UI messages, checked by the allowlist (first payload or update).
    pub messages: Vec<Value>,
    /// A rejected form's field errors.
    pub errors: Vec<FieldError>,
    /// A submitted form's receipt.
    pub receipt: Option<Value>,
    /// The reply's text parts (what the agent said with the form, the receipt in words).
    pub text: String,
}

/// Reads a reply's parts and metadata (not yet checked: see [`check`]).
pub(crate) fn read(parts: &[a2a::wire::Part], metadata: Option<&HashMap<String, Value>>) -> Reply {
    let Some(campus) = metadata.and_then(|m| m.get(CAMPUS_FORM_KEY)).filter(|c| c.is_object()) else {
        return Reply::Answer;
    };
    // the reference, if any, names what a refusal is about
    let named =
        campus.get(FORM_REF_KEY).and_then(Value::as_str).filter(|r| !r.is_empty()).map(str::to_string);
    let refused = |code: &str, reason: &str| {
        Reply::Refused(FormRefusal { form_ref: named.clone(), code: code.into(), reason: reason.into() })
    };
    let campus = match CampusForm::deserialize(campus) {
        Ok(form) if !form.form_ref.is_empty() => form,
        Ok(_) => return refused("form_invalid", "campusForm has no formRef"),
        Err(e) => return refused("form_invalid", &format!("campusForm does not read ({e})")),
    };
    let messages = match a2ui::part::read_parts(parts) {
        Ok(m) => m,
        Err(e) => return refused(e.code(), &e.to_string()),
    };
    let data_of = |media: &str| {
        parts.iter().find(|p| p.media_type.as_deref() == Some(media)).and_then(|p| match &p.content {
            a2a::wire::PartContent::Data(d) => Some(d.clone()),
            _ => None,
        })
    };
    let errors = data_of(FORM_ERRORS_MEDIA_TYPE)
        .and_then(|d| d.get("errors").cloned())
        .and_then(|e| serde_json::from_value(e).ok())
        .unwrap_or_default();
    Reply::Form(FormReply {
        form_ref: campus.form_ref,
        workflow: campus.workflow,
        version: campus.version,
        state: campus.state,
        messages,
        errors,
        receipt: data_of(FORM_RECEIPT_MEDIA_TYPE),
        text: parts.iter().filter_map(|p| p.as_text()).collect::<Vec<_>>().join("\n"),
    })
}

/// The form open in a conversation: its reference and surface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenForm {
    form_ref: String,
    surface_id: String,
}

/// Applies the allowlist to a form reply: a payload starting with `createSurface` is a
/// new form (`check_payload`; it replaces the open one), anything else an update of the
/// open form's surface (`check_update`); a payload that deletes the surface closes it.
/// A refused payload becomes [`Reply::Refused`] and the open form is left as it was.
pub(crate) fn check(reply: Reply, open: &mut Option<OpenForm>) -> Reply {
    let Reply::Form(form) = reply else { return reply };
    if form.messages.is_empty() {
        if form.state.finished() {
            *open = None;
        }
        return Reply::Form(form);
    }
    // a surface composed per answer may use the wider generated set; fixed forms the small one
    let policy = if form.workflow == vocab::form::LOAN_RENEWAL_WORKFLOW {
        Policy::generated()
    } else {
        Policy::fixed_forms()
    };
    let creates =
        form.messages.first().and_then(a2ui::message_kind).map(|(k, _)| k) == Some(a2ui::Kind::CreateSurface);
    let refused = |r: Refusal, form: &FormReply| {
        Reply::Refused(FormRefusal {
            form_ref: Some(form.form_ref.clone()),
            code: r.code().into(),
            reason: r.reason().into(),
        })
    };
    let deleted = if creates {
        match a2ui::check_payload(&policy, &form.messages) {
            Ok(surface) => {
                *open = Some(OpenForm { form_ref: form.form_ref.clone(), surface_id: surface.surface_id });
                surface.update.deleted
            }
            Err(r) => return refused(r, &form),
        }
    } else {
        // an update for a form this Student has not seen open names no surface it may touch
        let surface = open.as_ref().filter(|o| o.form_ref == form.form_ref).map(|o| o.surface_id.clone());
        // a finished form's deleteSurface, replayed after it closed here (a retry): harmless
        let deletes_only = form
            .messages
            .iter()
            .all(|m| a2ui::message_kind(m).is_some_and(|(k, _)| k == a2ui::Kind::DeleteSurface));
        let surface = surface.or_else(|| {
            let id = form.messages[0].get("deleteSurface")?.get("surfaceId")?.as_str()?;
            deletes_only.then(|| id.to_string())
        });
        let Some(surface) = surface else {
            let r = "the update is for a form that is not open here";
            return Reply::Refused(FormRefusal {
                form_ref: Some(form.form_ref.clone()),
                code: a2ui::RefusalCode::WrongSurface.as_str().into(),
                reason: r.into(),
            });
        };
        match a2ui::check_update(&policy, &surface, &form.messages) {
            Ok(update) => update.deleted,
            Err(r) => return refused(r, &form),
        }
    };
    if deleted || form.state.finished() {
        *open = None;
    }
    Reply::Form(form)
}

/// The open form's surface for `form_ref`, if this Student holds it open.
pub(crate) fn surface_of<'a>(open: &'a Option<OpenForm>, form_ref: &str) -> Option<&'a str> {
    open.as_ref().filter(|o| o.form_ref == form_ref).map(|o| o.surface_id.as_str())
}

/// What an action came to.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionOutcome {
    /// Nothing reached the service that opened the form (the Hub was not reached, or
    /// it could not reach that service): keep the draft, the same press may be sent again.
    NotDelivered {
        reason: String,
    },
    /// Sent, but no confirmation came (a timeout, a broken connection, or the Hub's
    /// `outcome_unknown`): offer only a reconcile, the same action with the same operation id.
    Uncertain {
        reason: String,
    },
    /// The next screen of the form (its update passed the allowlist).
    Updated(FormReply),
    /// Field errors; the form stays open.
    Rejected(FormReply),
    /// Done: the receipt.
    Submitted(FormReply),
    Cancelled(FormReply),
    /// Refused with a stable code (`form_closed`, `operation_reused`, `form_stale`, an
    /// `a2ui_…` code for a payload or an action the allowlist refused, …).
    Refused {
        code: String,
        message: String,
    },
}

/// The outcome an action's reply stands for.
pub(crate) fn outcome_of(outcome: Option<&str>, reply: Reply, text: &str) -> ActionOutcome {
    match (outcome.and_then(ReplyOutcome::parse), reply) {
        (Some(ReplyOutcome::OutcomeUnknown), _) => {
            ActionOutcome::Uncertain { reason: ReplyOutcome::OutcomeUnknown.as_str().into() }
        }
        (Some(ReplyOutcome::Unavailable), _) => {
            ActionOutcome::NotDelivered { reason: ReplyOutcome::Unavailable.as_str().into() }
        }
        (_, Reply::Refused(r)) => ActionOutcome::Refused { code: r.code, message: r.reason },
        (_, Reply::Form(f)) => match f.state {
            FormState::Open => ActionOutcome::Updated(f),
            FormState::Rejected => ActionOutcome::Rejected(f),
            FormState::Submitted => ActionOutcome::Submitted(f),
            FormState::Cancelled => ActionOutcome::Cancelled(f),
        },
        (_, Reply::Answer) => ActionOutcome::Uncertain {
            reason: format!(
                "the reply was not a form ({}): {}",
                outcome.unwrap_or("no outcome"),
                text.chars().take(200).collect::<String>()
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a::wire::Part;
    use serde_json::json;

    const CATALOG: &str = a2ui::BASIC_CATALOG_ID;

    fn create(surface: &str) -> Value {
        json!({"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": CATALOG}})
    }

    fn components(surface: &str, extra: Value) -> Value {
        json!({"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": [
            {"id": "root", "component": "Column", "children": ["title", "submit"]},
            {"id": "title", "component": "Text", "text": "Book a room"},
            {"id": "submit-label", "component": "Text", "text": "Submit"},
            {"id": "submit", "component": "Button", "child": "submit-label",
             "action": {"event": {"name": "submit_x", "context": {"formVersion": 1}}}},
            extra
        ]}})
    }

    fn meta(state: &str) -> HashMap<String, Value> {
        HashMap::from([(
            CAMPUS_FORM_KEY.to_string(),
            json!({"formRef": "hf-1", "workflow": "study-room-booking", "version": 1, "state": state}),
        )])
    }

    fn reply(messages: Vec<Value>, state: &str) -> Reply {
        read(&[Part::text("a form"), a2ui::part::data_part(messages)], Some(&meta(state)))
    }

    fn divider() -> Value {
        json!({"id": "line", "component": "Divider"})
    }

    #[test]
    fn a_composed_screen_may_use_the_generated_set_and_a_fixed_form_only_its_own() {
        let slider = json!({"id": "line", "component": "Slider", "max": 5, "value": {"path": "/form/n"}});
        let with = |workflow: &str| {
            let meta = HashMap::from([(
                CAMPUS_FORM_KEY.to_string(),
                json!({"formRef": "hf-1", "workflow": workflow, "version": 1, "state": "open"}),
            )]);
            let messages = vec![create("form-1"), components("form-1", slider.clone())];
            check(read(&[Part::text("a form"), a2ui::part::data_part(messages)], Some(&meta)), &mut None)
        };
        assert!(matches!(with(vocab::form::LOAN_RENEWAL_WORKFLOW), Reply::Form(_)), "a loan screen");
        let fixed = with("study-room-booking");
        assert!(matches!(&fixed, Reply::Refused(r) if r.code == "a2ui_component_not_allowed"), "{fixed:?}");
        // what loads an address is refused either way
        let image = json!({"id": "line", "component": "Image", "url": "https://example.com/x.png"});
        let meta = HashMap::from([(
            CAMPUS_FORM_KEY.to_string(),
            json!({"formRef": "hf-1", "workflow": "loan-renewal", "version": 1, "state": "open"}),
        )]);
        let messages = vec![create("form-1"), components("form-1", image)];
        let refused =
            check(read(&[Part::text("a form"), a2ui::part::data_part(messages)], Some(&meta)), &mut None);
        assert!(matches!(refused, Reply::Refused(_)), "{refused:?}");
    }

    #[test]
    fn a_form_that_passes_the_allowlist_opens_and_its_updates_are_checked_against_its_surface() {
        let mut open = None;
        let first = check(reply(vec![create("form-1"), components("form-1", divider())], "open"), &mut open);
        let Reply::Form(f) = &first else { panic!("a form: {first:?}") };
        assert_eq!(
            (f.form_ref.as_str(), f.version, f.state, f.messages.len()),
            ("hf-1", 1, FormState::Open, 2)
        );
        assert_eq!(surface_of(&open, "hf-1"), Some("form-1"));

        let update = check(reply(vec![components("form-1", divider())], "open"), &mut open);
        assert!(matches!(update, Reply::Form(_)), "{update:?}");
        let elsewhere = check(reply(vec![components("form-2", divider())], "open"), &mut open);
        assert!(matches!(&elsewhere, Reply::Refused(r) if r.code == "a2ui_wrong_surface"), "{elsewhere:?}");
        let second = check(reply(vec![create("form-1")], "open"), &mut None);
        assert!(matches!(second, Reply::Form(_)), "a new form's first payload");

        let done = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "form-1"}});
        let submitted = check(reply(vec![done], "submitted"), &mut open);
        assert!(matches!(&submitted, Reply::Form(f) if f.state == FormState::Submitted));
        assert_eq!(open, None, "the surface is gone");
        let again = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "form-1"}});
        let replayed = check(reply(vec![again], "submitted"), &mut open);
        assert!(matches!(replayed, Reply::Form(_)), "a retry's deleteSurface, once closed: {replayed:?}");
        let late = check(reply(vec![components("form-1", divider())], "open"), &mut open);
        assert!(
            matches!(&late, Reply::Refused(r) if r.code == "a2ui_wrong_surface"),
            "nothing open: {late:?}"
        );
    }

    #[test]
    fn each_unsafe_payload_is_refused_with_its_code_and_nothing_is_drawable() {
        let cases = [
            (
                vec![
                    create("form-1"),
                    components("form-1", json!({"id": "v", "component": "Video", "url": "x"})),
                ],
                "a2ui_component_not_allowed",
            ),
            (vec![create("form-1"), create("form-2")], "a2ui_second_surface"),
            (vec![components("form-1", divider())], "a2ui_wrong_surface"),
            (
                vec![
                    json!({"version": "v0.9", "createSurface": {"surfaceId": "form-1", "catalogId": "https://example.com/c.json"}}),
                ],
                "a2ui_catalog_not_allowed",
            ),
            (
                vec![
                    create("form-1"),
                    components(
                        "form-1",
                        json!({"id": "b", "component": "Button", "child": "title",
                    "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com"}}}}),
                    ),
                ],
                "a2ui_function_call",
            ),
            (
                vec![
                    create("form-1"),
                    components("form-1", json!({"id": "t", "component": "Text", "text": "x".repeat(70_000)})),
                ],
                "a2ui_too_large",
            ),
        ];
        for (messages, code) in cases {
            let mut open = None;
            let checked = check(reply(messages, "open"), &mut open);
            match checked {
                Reply::Refused(r) => assert_eq!(r.code, code, "{}", r.reason),
                other => panic!("{code}: not refused: {other:?}"),
            }
            assert_eq!(open, None, "{code}: nothing opened");
        }
    }

    #[test]
    fn errors_and_receipts_are_read_and_outcomes_say_what_happened() {
        let errors =
            Part::data(json!({"errors": [{"field": "date", "code": "invalid_date", "message": "no"}]}))
                .with_media_type(FORM_ERRORS_MEDIA_TYPE);
        let rejected = read(&[Part::text("fix it"), errors], Some(&meta("rejected")));
        let Reply::Form(f) = &rejected else { panic!() };
        assert_eq!(
            f.errors,
            vec![FieldError { field: "date".into(), code: "invalid_date".into(), message: "no".into() }]
        );
        assert!(matches!(outcome_of(Some("form"), rejected, ""), ActionOutcome::Rejected(_)));
        let receipt = Part::data(json!({"bookingId": "bk-1"})).with_media_type(FORM_RECEIPT_MEDIA_TYPE);
        let submitted = read(&[receipt], Some(&meta("submitted")));
        let Reply::Form(f) = &submitted else { panic!() };
        assert_eq!(f.receipt, Some(json!({"bookingId": "bk-1"})));
        assert!(matches!(outcome_of(Some("form"), submitted, ""), ActionOutcome::Submitted(_)));
        assert!(matches!(
            outcome_of(Some("outcome_unknown"), read(&[], Some(&meta("open"))), ""),
            ActionOutcome::Uncertain { .. }
        ));
        assert!(matches!(
            outcome_of(Some("unavailable"), Reply::Answer, ""),
            ActionOutcome::NotDelivered { .. }
        ));
        assert_eq!(read(&[Part::text("hi")], None), Reply::Answer);
    }
}
