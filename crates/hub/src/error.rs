//! The Hub's refusals and failures, each with a stable code. A refusal is said to the
//! caller as it is (the field it is about, and for forms a code in `ErrorInfo.reason`); a
//! failure of the Hub's own is logged with its code and answered as an internal error,
//! so no detail of it reaches the caller.

use a2a::RpcError;
use store::form_refs::FormRefProblem;
use vocab::form::refusal;

const PARTS: &str = "message.parts";
const PART: &str = "message.parts[0]";
const FORM_REF: &str = "message.metadata.formRef";
const OPERATION_ID: &str = "message.metadata.operationId";

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("the question is empty")]
    QuestionEmpty,
    #[error("a question is at most {max} characters")]
    QuestionTooLong { max: usize },
    #[error("must be 1-64 characters of A-Za-z0-9_-")]
    StudentId,
    #[error("must be true when given")]
    BegunAnew,
    #[error("an action message has exactly one part, the application/a2ui+json action")]
    ActionParts,
    /// The action part fails A2UI's rules (`a2ui_*` codes).
    #[error("{message}")]
    Action { code: String, message: String },
    #[error("the form reference is required")]
    FormRefMissing,
    #[error("must be 1-128 characters of A-Za-z0-9_-")]
    OperationIdInvalid,
    #[error("{}", .0.message())]
    Form(FormRefusal),
    /// The specialist that opened the form refused the action with a code of its own.
    #[error("{message}")]
    SpecialistRefused { code: String, message: String },
    #[error("the hub's store failed: {0}")]
    Store(#[source] store::StoreError),
    #[error("the ledger could not record a request: {0}")]
    Ledger(#[source] store::StoreError),
    #[error("a recorded answer could not be read: {0}")]
    Record(#[source] serde_json::Error),
    #[error("the work on a request stopped before it answered")]
    Work,
}

/// Why the Hub refuses an action on one of its form references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormRefusal {
    Unknown,
    /// Not this student's or conversation's, expired, closed or superseded.
    Ref(FormRefProblem),
    OperationReused,
    WrongSurface,
}

impl FormRefusal {
    pub fn code(self) -> &'static str {
        match self {
            FormRefusal::Unknown => refusal::FORM_UNKNOWN,
            // a superseded form is closed to its student: one code for both
            FormRefusal::Ref(FormRefProblem::Superseded) => refusal::FORM_CLOSED,
            FormRefusal::Ref(problem) => problem.code(),
            FormRefusal::OperationReused => refusal::OPERATION_REUSED,
            FormRefusal::WrongSurface => "a2ui_wrong_surface",
        }
    }

    fn field(self) -> &'static str {
        match self {
            FormRefusal::OperationReused => OPERATION_ID,
            FormRefusal::WrongSurface => PART,
            _ => FORM_REF,
        }
    }

    fn message(self) -> String {
        match self {
            FormRefusal::Unknown => "no such form".into(),
            FormRefusal::Ref(problem) => problem.to_string(),
            FormRefusal::OperationReused => "this operation id was used for another action".into(),
            FormRefusal::WrongSurface => "/action/surfaceId names another surface".into(),
        }
    }
}

impl HubError {
    /// The stable code: the refusal's on the wire, or the failure's in the log.
    pub fn code(&self) -> &str {
        match self {
            HubError::QuestionEmpty => "question_empty",
            HubError::QuestionTooLong { .. } => "question_too_long",
            HubError::StudentId => "student_id_invalid",
            HubError::BegunAnew => "begun_anew_invalid",
            HubError::ActionParts => "action_parts",
            HubError::Action { code, .. } | HubError::SpecialistRefused { code, .. } => code,
            HubError::FormRefMissing => "form_ref_missing",
            HubError::OperationIdInvalid => "operation_id_invalid",
            HubError::Form(refusal) => refusal.code(),
            HubError::Store(_) => "store_failed",
            HubError::Ledger(_) => "ledger_failed",
            HubError::Record(_) => "record_unreadable",
            HubError::Work => "work_stopped",
        }
    }
}

impl From<HubError> for RpcError {
    fn from(e: HubError) -> RpcError {
        let message = e.to_string();
        match &e {
            HubError::QuestionEmpty | HubError::QuestionTooLong { .. } | HubError::ActionParts => {
                RpcError::invalid_params(PARTS, message)
            }
            HubError::StudentId => RpcError::invalid_params("message.metadata.studentId", message),
            HubError::BegunAnew => {
                RpcError::invalid_params("message.metadata.conversationBegunAnew", message)
            }
            HubError::FormRefMissing => RpcError::invalid_params(FORM_REF, message),
            HubError::OperationIdInvalid => RpcError::invalid_params(OPERATION_ID, message),
            HubError::Action { code, .. } => RpcError::refusal(PART, code.clone(), message),
            HubError::SpecialistRefused { code, .. } => RpcError::refusal(PART, code.clone(), message),
            HubError::Form(refusal) => RpcError::refusal(refusal.field(), refusal.code(), message),
            HubError::Store(_) | HubError::Ledger(_) | HubError::Record(_) | HubError::Work => {
                tracing::error!(code = e.code(), error = %e, "the hub failed on a request; it is answered as an internal error");
                RpcError::internal()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_their_field_and_code_and_failures_say_nothing() {
        let e: RpcError = HubError::QuestionTooLong { max: 4000 }.into();
        assert_eq!((e.code, e.field.as_deref()), (-32602, Some(PARTS)));
        assert!(e.message.contains("at most 4000 characters"), "{}", e.message);
        let e: RpcError = HubError::Form(FormRefusal::OperationReused).into();
        assert_eq!((e.reason(), e.field.as_deref()), ("operation_reused", Some(OPERATION_ID)));
        let e: RpcError = HubError::Form(FormRefusal::Ref(FormRefProblem::Superseded)).into();
        assert_eq!((e.reason(), e.field.as_deref()), ("form_closed", Some(FORM_REF)));
        assert!(e.message.contains("replaced by a newer one"), "{}", e.message);
        let failure = HubError::Record(serde_json::from_str::<u8>("x").unwrap_err());
        assert_eq!(failure.code(), "record_unreadable");
        let e: RpcError = failure.into();
        assert_eq!((e.code, e.message.as_str(), e.field), (-32603, "internal error", None));
    }
}
