//! What a specialist's answer says of its form: a task whose status message (or the
//! task) carries `campusForm` metadata, read without trusting more than it must.

use a2a::wire::SendMessageResponse;
use vocab::FormState;
use vocab::form::{CAMPUS_FORM_KEY, SpecialistCampusForm};

use crate::asker::is_id;

/// What a specialist's task says of its form.
#[derive(Debug, Clone)]
pub(crate) struct SpecialistForm {
    pub(crate) task_id: String,
    pub(crate) context_id: String,
    pub(crate) form_id: Option<String>,
    pub(crate) workflow: Option<String>,
    pub(crate) version: Option<u32>,
    /// `campusForm.state`, else what the task's state means.
    pub(crate) state: Option<FormState>,
    /// Whether the status message carries an A2UI part.
    pub(crate) has_a2ui: bool,
}

impl SpecialistForm {
    /// A form a chat message opened: an A2UI part and a complete, open `campusForm`.
    pub(crate) fn opened(&self) -> Option<(&str, &str, u32)> {
        match (&self.form_id, &self.workflow, self.version, self.state) {
            (Some(id), Some(w), Some(v), Some(FormState::Open)) if self.has_a2ui => Some((id, w, v)),
            _ => None,
        }
    }
}

/// The form a specialist's answer describes; `None` for a message.
pub(crate) fn read(resp: &SendMessageResponse) -> Option<SpecialistForm> {
    let SendMessageResponse::Task(task) = resp else { return None };
    let status_message = task.status.message.as_ref();
    let campus = status_message
        .and_then(|m| m.metadata.as_ref())
        .and_then(|m| m.get(CAMPUS_FORM_KEY))
        .or_else(|| task.metadata.as_ref().and_then(|m| m.get(CAMPUS_FORM_KEY)))
        .and_then(SpecialistCampusForm::read)
        .unwrap_or_default();
    let by_task = FormState::of_task(&task.status.state);
    Some(SpecialistForm {
        task_id: task.id.clone(),
        context_id: task.context_id.clone(),
        form_id: campus.form_id.filter(|id| !id.is_empty() && id.len() <= 256),
        workflow: campus.workflow.filter(|w| is_id(w, 64)),
        version: campus.version,
        state: campus.state.or(by_task),
        has_a2ui: status_message.is_some_and(|m| m.parts.iter().any(a2ui::part::is_a2ui_part)),
    })
}
