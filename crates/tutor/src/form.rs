//! The tutoring-request workflow on the Tutor: offered when `forms::intent` says so (the
//! skill enabled, the client renders A2UI), prefilled only from the student's scheduling
//! words, submitted through the form host: validated by `forms::rules`, stored as a
//! tutoring request with its receipt in one transaction, or rejected with field errors.

use a2a::server::RequestContext;
use forms::templates::{delete_surface, tutoring_data, tutoring_screen};
use forms::{Workflow, action, rules};
use serde_json::{Value, json};
use specialist::forms::{
    Action, FormHost, HandlerError, OpenFormChoice, Outcome, Step, data_of, data_values, field_errors,
};
use store::Tx;
use vocab::FormState;

/// The workflow's id, also its skill's id.
pub const WORKFLOW: &str = "tutoring-request";
/// The form's one screen.
const SCREEN: &str = "form";
/// What the offer says.
pub const OFFER_TEXT: &str =
    "Here is a form to request a tutoring session. Fill it in and send it; a tutor confirms a time later.";
/// Why no form when the client cannot draw one.
pub const NO_RENDERER_TEXT: &str = "I can take a tutoring request with a form, but the app you are asking from can't show forms. Open the Campus page in a browser (the address `campus demo` prints) and ask there to fill it in.";
/// Why no form when the skill is off.
pub const DISABLED_TEXT: &str = "Tutoring requests are turned off in the Tutor's settings right now.";
/// What the Tutor says for each chat outcome that is neither its answer nor its form.
pub const TEXTS: specialist::forms::ChatTexts = specialist::forms::ChatTexts {
    clarify: "What would you like: help with a calculus question (for example \"explain the chain rule\"), or a session with a human tutor (for example \"I'd like to meet a tutor on Thursday afternoon\")?",
    out_of_scope: "Sorry, that is not something the Tutor does: it explains calculus and takes requests for sessions with a human tutor. Study rooms are booked with the Library.",
    disabled: DISABLED_TEXT,
    no_renderer: NO_RENDERER_TEXT,
};

/// The buttons of each screen.
pub fn buttons(_workflow: &str, screen: &str) -> &'static [(&'static str, &'static str)] {
    match screen {
        SCREEN => &[("submit_btn", action::SUBMIT_TUTORING_REQUEST), ("cancel_btn", action::CANCEL_FORM)],
        _ => &[],
    }
}

fn today() -> jiff::civil::Date {
    forms::in_demo_tz(jiff::Timestamp::now()).date()
}

/// A chat message that asks for the form: offer it, re-send the open one, or ask
/// whether to continue or replace it.
pub async fn offer(
    host: &FormHost,
    ctx: &RequestContext,
    choice: Option<OpenFormChoice>,
) -> Result<Outcome, String> {
    let open = host.open_form_of(&ctx.context_id, WORKFLOW).await.map_err(|e| e.message)?;
    match (open, choice) {
        (Some(form), Some(OpenFormChoice::Continue)) => host
            .resend(form, SCREEN, OFFER_TEXT.into(), |form, version| {
                // as it stands: the values it was sent with, or pressed since
                let data = match data_of(&form.values) {
                    Some(data) => Value::Object(data.clone()),
                    None => tutoring_data(&forms::Prefill::default(), today()).0,
                };
                tutoring_screen(&form.form_id, &data, today(), version)
            })
            .await
            .map_err(|e| e.message),
        (Some(_), None) => Err(specialist::forms::CONTINUE_OR_REPLACE.to_string()),
        _ => {
            let prefill = forms::read(&ctx.text(), &forms::in_demo_tz(jiff::Timestamp::now())).prefill();
            let (data, _) = tutoring_data(&prefill, today());
            let values = data_values(data.clone());
            host.offer(&ctx.context_id, WORKFLOW, SCREEN, values, OFFER_TEXT.into(), |id| {
                tutoring_screen(id, &data, today(), 1)
            })
            .await
            .map_err(|e| e.message)
        }
    }
}

/// The workflow's handler (runs once per operation, inside its transaction).
pub fn handle(tx: &Tx<'_>, action: &Action, _redo: bool) -> Result<Step, HandlerError> {
    let surface = &action.form.form_id;
    match action.name.as_str() {
        action::SUBMIT_TUTORING_REQUEST => match rules::validate_tutoring(&action.values, today()) {
            Err(errors) => {
                let mut step = Step::text(
                    FormState::Rejected,
                    "Some fields need fixing before the request can be sent.",
                );
                step.errors = field_errors(&errors);
                Ok(step)
            }
            Ok(request) => {
                let values =
                    serde_json::to_value(&request).map_err(|e| HandlerError::Schema(e.to_string()))?;
                let stored =
                    tx.insert_tutoring_request(&action.student_id, &action.form.context_id, &values)?;
                let receipt = json!({
                    "requestId": stored.id,
                    "topic": request.topic,
                    "preferredDate": request.date.to_string(),
                    "preferredPeriod": request.period.as_str(),
                    "timezone": forms::TIMEZONE,
                    "status": "Received — awaiting scheduling",
                });
                let text = format!(
                    "Received — awaiting scheduling. Request {} for {} on {} ({}). A tutor will confirm a time; nothing is booked yet.",
                    stored.id,
                    request.topic,
                    request.date,
                    request.period.as_str()
                );
                let mut step = Step::text(FormState::Submitted, text);
                step.receipt = Some(receipt);
                step.a2ui = vec![delete_surface(surface)];
                step.screen = Some("done".into());
                Ok(step)
            }
        },
        _ => Ok(cancelled(surface)),
    }
}

/// The form closed at the student's request.
pub fn cancelled(surface: &str) -> Step {
    let mut step = Step::text(FormState::Cancelled, "Cancelled: nothing was sent.");
    step.a2ui = vec![delete_surface(surface)];
    step.screen = Some("done".into());
    step
}

/// The workflows the Tutor hosts.
pub const WORKFLOWS: [Workflow; 1] = [Workflow::Tutoring];
