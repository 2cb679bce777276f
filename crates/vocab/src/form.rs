//! Forms over A2A (docs/forms.md): the `campusForm` metadata that describes a form, its
//! states, the keys and media types around it.

use a2a_lf::TaskState;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The metadata key of a form's description, both ways (specialist → Hub → Student).
pub const CAMPUS_FORM_KEY: &str = "campusForm";
/// The message metadata key of the student id the Student sends and the Hub passes on.
pub const STUDENT_ID_KEY: &str = "studentId";
/// The student id when a message names none (the demo has no sign-in).
pub const ANONYMOUS_STUDENT: &str = "anonymous";
/// The metadata key of the Hub's form reference on a Student's action.
pub const FORM_REF_KEY: &str = "formRef";
/// The metadata key of a specialist's own form id on a forwarded action.
pub const FORM_ID_KEY: &str = "formId";
/// The media type of a rejection's field errors.
pub const FORM_ERRORS_MEDIA_TYPE: &str = "application/vnd.campus.form-errors+json";
/// The media type of an accepted form's receipt.
pub const FORM_RECEIPT_MEDIA_TYPE: &str = "application/vnd.campus.form-receipt+json";

/// The stable codes a press on a form is refused with, by the Hub or by the specialist
/// that opened the form (the `ErrorInfo.reason` of the refusal); the page words each.
/// The workflow of a screen an agent composed per answer (the Library's loan screens):
/// checked with the Student's wider policy for generated surfaces.
pub const LOAN_RENEWAL_WORKFLOW: &str = "loan-renewal";

pub mod refusal {
    /// No such form (the Hub has no reference, or the specialist no form).
    pub const FORM_UNKNOWN: &str = "form_unknown";
    /// Submitted, cancelled or replaced by a newer form.
    pub const FORM_CLOSED: &str = "form_closed";
    /// The Hub's reference is past its age.
    pub const FORM_EXPIRED: &str = "form_expired";
    /// Another student's or another conversation's form.
    pub const FORM_NOT_YOURS: &str = "form_not_yours";
    /// No button of the form's current screen sends this action.
    pub const ACTION_NOT_ALLOWED: &str = "action_not_allowed";
    /// The screen pressed on is not the form's current one.
    pub const FORM_STALE: &str = "form_stale";
    /// The workflow is turned off in the specialist's settings.
    pub const WORKFLOW_DISABLED: &str = "workflow_disabled";
    /// The operation id was used for another action.
    pub const OPERATION_REUSED: &str = "operation_reused";
    pub const OPERATION_ID_INVALID: &str = "operation_id_invalid";
    /// A booking's time that the form never offered.
    pub const SLOT_UNKNOWN: &str = "slot_unknown";
}

/// A form's state as `campusForm.state` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormState {
    Open,
    /// Field errors; the form stays open.
    Rejected,
    Submitted,
    Cancelled,
}

impl FormState {
    pub const ALL: [FormState; 4] =
        [FormState::Open, FormState::Rejected, FormState::Submitted, FormState::Cancelled];

    pub fn parse(s: &str) -> Option<FormState> {
        FormState::ALL.into_iter().find(|f| f.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FormState::Open => "open",
            FormState::Rejected => "rejected",
            FormState::Submitted => "submitted",
            FormState::Cancelled => "cancelled",
        }
    }

    /// Submitted or cancelled: nothing more can be done with it.
    pub fn finished(self) -> bool {
        matches!(self, FormState::Submitted | FormState::Cancelled)
    }

    /// The A2A state of a task holding a form in this state.
    pub fn task_state(self) -> TaskState {
        match self {
            FormState::Open | FormState::Rejected => TaskState::InputRequired,
            FormState::Submitted => TaskState::Completed,
            FormState::Cancelled => TaskState::Canceled,
        }
    }

    /// What a task's state says of its form, when its `campusForm` names none.
    pub fn of_task(state: &TaskState) -> Option<FormState> {
        match state {
            TaskState::InputRequired => Some(FormState::Open),
            TaskState::Completed => Some(FormState::Submitted),
            TaskState::Canceled => Some(FormState::Cancelled),
            _ => None,
        }
    }
}

/// The Hub's `campusForm` for the Student: its own reference, never the specialist's
/// form id, task or URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CampusForm {
    pub form_ref: String,
    pub workflow: String,
    pub version: u32,
    pub state: FormState,
}

/// A specialist's `campusForm` for the Hub: its own form id (the Hub keeps it and gives
/// the Student a reference instead, [`CampusForm`]). Read field by field: a field that is
/// missing or of the wrong type is `None`, the others still read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecialistCampusForm {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub form_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub workflow: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub state: Option<FormState>,
}

impl SpecialistCampusForm {
    /// A `campusForm` value, when it is an object.
    pub fn read(value: &Value) -> Option<SpecialistCampusForm> {
        value.is_object().then(|| SpecialistCampusForm::deserialize(value).ok()).flatten()
    }
}

/// A field that reads as `T`, else `None`.
fn lenient<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

impl CampusForm {
    /// The `campusForm` in `metadata`, when it is one.
    pub fn read(metadata: &serde_json::Map<String, Value>) -> Option<CampusForm> {
        serde_json::from_value(metadata.get(CAMPUS_FORM_KEY)?.clone()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_specialists_form_description_reads_what_it_can() {
        let whole = SpecialistCampusForm {
            form_id: Some("form-1".into()),
            workflow: Some("tutoring-request".into()),
            version: Some(2),
            state: Some(FormState::Open),
        };
        let v = serde_json::to_value(&whole).unwrap();
        assert_eq!(
            v,
            json!({"formId": "form-1", "workflow": "tutoring-request", "version": 2, "state": "open"})
        );
        assert_eq!(SpecialistCampusForm::read(&v), Some(whole));
        let partly =
            SpecialistCampusForm::read(&json!({"formId": "f", "version": "two", "state": "gone"})).unwrap();
        assert_eq!(partly, SpecialistCampusForm { form_id: Some("f".into()), ..Default::default() });
        assert_eq!(SpecialistCampusForm::read(&json!("form-1")), None);
    }

    #[test]
    fn states_read_and_write_as_the_wire_names_them() {
        for s in FormState::ALL {
            assert_eq!(FormState::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), json!(s.as_str()));
        }
        assert_eq!(FormState::parse("Open"), None);
        assert!(FormState::Submitted.finished() && !FormState::Rejected.finished());
        assert_eq!(FormState::of_task(&FormState::Rejected.task_state()), Some(FormState::Open));
    }

    #[test]
    fn a_campus_form_is_read_from_metadata_only_when_whole() {
        let form =
            CampusForm { form_ref: "hf-1".into(), workflow: "w".into(), version: 2, state: FormState::Open };
        let mut m = serde_json::Map::new();
        m.insert(CAMPUS_FORM_KEY.into(), serde_json::to_value(&form).unwrap());
        assert_eq!(
            m[CAMPUS_FORM_KEY],
            json!({"formRef": "hf-1", "workflow": "w", "version": 2, "state": "open"})
        );
        assert_eq!(CampusForm::read(&m), Some(form));
        m.insert(CAMPUS_FORM_KEY.into(), json!({"formRef": "hf-1", "state": "open"}));
        assert_eq!(CampusForm::read(&m), None);
    }
}
