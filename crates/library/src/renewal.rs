//! The loan-renewal workflow: a loan screen composed for one answer ([`crate::compose`]),
//! opened as the conversation's form, and what a press on it comes to. A new loan screen
//! in the conversation replaces the open one (the form host supersedes it: a press on the
//! old one is refused, `form_closed`).
//!
//! - The form holds what its screen drew: its buttons (a press is taken only from one of
//!   them, `specialist::forms::BUTTONS_KEY`) and the loans it offered for renewal with the
//!   version each was shown at.
//! - `renew_loan {loanId, returnDate}`: only a loan this screen offered, renewed by the
//!   loan service in the press's own transaction (ownership, that version, eligibility and
//!   the range checked again there); the receipt is the service's confirmation, and the
//!   form is then closed, so a second press renews nothing. A refusal changes nothing and
//!   says why, with the service's code.
//! - `cancel_form`: closed, nothing renewed.
//! - `follow_up {request}`: a question the Student asks as the student's own (the page
//!   does); a client that sends it here is told to ask it.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use specialist::forms::{Action, HandlerError, Step};
use store::Tx;
use vocab::FormState;
use vocab::loans::operation::{LOAN_ID, RETURN_DATE};
use vocab::loans::{NotRenewable, RenewRefusal};

use crate::compose::Surface;
use crate::loans::{RenewError, Renewal, day, renew_within, why_not};

/// The workflow's id.
pub const WORKFLOW: &str = forms::Workflow::LoanRenewal.id();
/// The workflows a loan screen's press may belong to.
pub const WORKFLOWS: [forms::Workflow; 1] = [forms::Workflow::LoanRenewal];
/// The one screen a loan form has (a new answer is a new form).
pub const SCREEN: &str = "loans";
/// The screen of a closed loan form.
const DONE: &str = "done";

/// What the Library holds of a loan screen.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Held {
    /// (component id, action name) of every button drawn.
    #[serde(default)]
    pub buttons: Vec<(String, String)>,
    /// (loan id, version shown) of every loan offered for renewal.
    #[serde(default)]
    pub renewing: Vec<(String, i64)>,
    /// The form's data model as sent (`specialist::forms::DATA_KEY`).
    #[serde(default)]
    pub form: Map<String, Value>,
}

impl Held {
    /// What a compiled screen holds: its buttons, the loans it offers and its data model.
    pub fn of_surface(surface: &Surface) -> Held {
        let form = surface
            .messages
            .iter()
            .find_map(|m| m.pointer("/updateDataModel/value")?.as_object().cloned())
            .unwrap_or_default();
        Held { buttons: surface.buttons.clone(), renewing: surface.renewing.clone(), form }
    }

    fn of(values: &Value) -> Held {
        serde_json::from_value(values.clone()).unwrap_or_default()
    }

    pub fn value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn rejected(text: String, field: &str, code: &str, message: &str) -> Step {
    let mut step = Step::text(FormState::Rejected, text);
    step.errors = vec![json!({"field": field, "code": code, "message": message})];
    step
}

/// What a refusal says, with the field it is about.
fn refusal_words(code: RenewRefusal, reason: Option<NotRenewable>) -> (&'static str, String) {
    match code {
        RenewRefusal::OutOfRange => (RETURN_DATE, "that date is outside the permitted range for this loan".into()),
        RenewRefusal::StaleVersion => (
            LOAN_ID,
            "this loan changed since the screen was drawn (a renewal or a hold): ask about your loans again to see it as it is now".into(),
        ),
        RenewRefusal::NotEligible => (
            LOAN_ID,
            format!("this loan cannot be renewed now: {}", reason.map_or("it is not eligible".into(), why_not)),
        ),
        RenewRefusal::NotYours | RenewRefusal::UnknownLoan => {
            (LOAN_ID, "the loan service has no such loan of yours".into())
        }
        RenewRefusal::OperationReused => (LOAN_ID, "this press was already used for another renewal".into()),
    }
}

/// A press on a loan screen (runs once per operation, inside its transaction), on `today`.
pub fn handle(today: Date, tx: &Tx<'_>, a: &Action) -> Result<Step, HandlerError> {
    let closed = |state: FormState, text: String| {
        let mut step = Step::text(state, text);
        step.a2ui = vec![forms::templates::delete_surface(&a.form.form_id)];
        step.screen = Some(DONE.into());
        step
    };
    match a.name.as_str() {
        forms::action::RENEW_LOAN => {
            let held = Held::of(&a.form.values);
            let loan_id = a.values.get(LOAN_ID).and_then(Value::as_str).unwrap_or_default();
            let Some(version) = held.renewing.iter().find(|(id, _)| id == loan_id).map(|(_, v)| *v) else {
                let message = "this screen did not offer that loan for renewal";
                return Ok(rejected("Nothing was renewed.".into(), LOAN_ID, "loan_not_offered", message));
            };
            let date = a.values.get(RETURN_DATE).and_then(Value::as_str).unwrap_or_default().trim();
            let Ok(return_date) = date.parse::<Date>() else {
                let message = "choose a new return date (YYYY-MM-DD)";
                return Ok(rejected("Nothing was renewed.".into(), RETURN_DATE, "invalid_date", message));
            };
            // the press's own operation record makes this happen once: no second id here
            let renewal =
                Renewal { borrower: &a.student_id, loan_id, return_date, version, operation_id: "" };
            match renew_within(tx, today, &renewal) {
                Ok(done) => {
                    let text = format!("Renewed: {} is now due {}.", done.title, day(done.due));
                    let mut step = closed(FormState::Submitted, text);
                    step.receipt = Some(json!({
                        "loanId": done.loan_id,
                        "title": done.title,
                        "newDueDate": done.due.to_string(),
                        "renewalsUsed": format!("{} of {}", done.renewals_used, crate::loans::MAX_RENEWALS),
                        "note": "Demo loan",
                    }));
                    Ok(step)
                }
                Err(RenewError::Refused { code, reason }) => {
                    let (field, message) = refusal_words(code, reason);
                    Ok(rejected(format!("Nothing was renewed: {message}."), field, code.as_str(), &message))
                }
                Err(RenewError::Store(e)) => Err(HandlerError::Store(e)),
            }
        }
        forms::action::FOLLOW_UP => {
            let request = a.values.get(vocab::loans::operation::REQUEST).and_then(Value::as_str);
            let text = format!("Ask it as a question: {}", request.unwrap_or_default());
            Ok(Step::text(FormState::Open, text))
        }
        _ => Ok(closed(FormState::Cancelled, "Closed: nothing was renewed.".into())),
    }
}
