//! A press on a form, before the Student sends it: what `forwardedProps` carries
//! ([`read_press`]) and the checks against the conversation's form
//! ([`FormView::check_action`]): it is this conversation's and takes actions now, the
//! action passes the workflow's allowlist, and the values pass the form's own rules.

use a2ui::{ActionRule, Policy};
use axum::http::StatusCode;
use forms::Workflow;
use serde::Deserialize;
use serde_json::Value;

use vocab::form::refusal::{FORM_CLOSED, FORM_UNKNOWN};

use crate::error::ApiError;
use crate::forms::{FORM_VERSION, FormView, ViewState};

impl FormView {
    /// Checks a press before anything is sent: the form is this conversation's and takes
    /// actions now (409 `form_closed`, `action_in_progress`, `reconcile_only`), the action
    /// passes the allowlist for this workflow (400 with its `a2ui_…` code) and the values
    /// the form's own rules can check (400 `invalid_value`). Returns the action object.
    pub fn check_action(&self, press: &Press, today: jiff::civil::Date) -> Result<Value, ApiError> {
        let conflict = |code, message: &str| ApiError::new(StatusCode::CONFLICT, code, message);
        if press.form_ref != self.form_ref {
            return Err(match self.earlier(&press.form_ref) {
                Some(true) => {
                    conflict(FORM_CLOSED, "this form was replaced by a newer one; use the one shown")
                }
                Some(false) => conflict(FORM_CLOSED, "this form is closed"),
                None => conflict(FORM_UNKNOWN, "this conversation has no such form open"),
            });
        }
        match self.state {
            s if s.closed() => return Err(conflict("form_closed", "this form is closed")),
            ViewState::Submitting => {
                return Err(conflict("action_in_progress", "this form's last press has no answer yet"));
            }
            _ => {}
        }
        let workflow = Workflow::from_id(&self.workflow)
            .ok_or_else(|| conflict("form_unknown", "this form's workflow is not known here"))?;
        let mut keys: Vec<&str> = workflow.fields().to_vec();
        keys.push(FORM_VERSION);
        let rules: Vec<ActionRule<'_>> =
            workflow.actions().iter().map(|name| ActionRule { name, context: &keys }).collect();
        let checked = a2ui::check_action(&Policy::fixed_forms(), &self.surface_id, &rules, &press.message)
            .map_err(|r| {
                let mut e = ApiError::new(StatusCode::BAD_REQUEST, r.code(), r.reason().to_string());
                e.field = Some("forwardedProps.a2uiAction".into());
                e
            })?;
        self.drawn_button(&checked)?;
        if self.state == ViewState::ConfirmationPending {
            let same = self.operation_id.as_deref() == Some(press.operation_id.as_str())
                && self.pending.as_ref().is_some_and(|p| same_action(p, &press.message["action"]));
            if !same {
                return Err(conflict(
                    "reconcile_only",
                    "this form awaits a confirmation: only the same action with the same operationId may be sent",
                ));
            }
        }
        for (field, value) in checked.context.iter().filter(|(k, _)| k.as_str() != FORM_VERSION) {
            // a slot id is the agent's to check; the rest are the form's own rules
            if field == "slot" && value.as_array().is_some_and(|a| a.is_empty()) {
                continue;
            }
            if let Err(e) = forms::rules::check_value_with(workflow, field, value, today, &checked.context) {
                let mut err = ApiError::new(StatusCode::BAD_REQUEST, "invalid_value", e.message);
                err.field = Some(format!("forwardedProps.a2uiAction.action.context.{field}"));
                return Err(err);
            }
        }
        Ok(press.message["action"].clone())
    }
}

impl FormView {
    /// The press came from a button this form's screen draws, sending this action, with
    /// the button's own literal values (a loan's id, a follow-up's question, the version):
    /// 400 `a2ui_button_not_drawn` otherwise.
    fn drawn_button(&self, action: &a2ui::ClientAction) -> Result<(), ApiError> {
        let refused = |message: &str| {
            let mut e = ApiError::new(StatusCode::BAD_REQUEST, "a2ui_button_not_drawn", message);
            e.field = Some("forwardedProps.a2uiAction.action.sourceComponentId".into());
            e
        };
        let drawn = self.drawn_components();
        let Some(button) = drawn.get(&action.source_component_id).filter(|c| {
            c.get("component").and_then(Value::as_str) == Some("Button")
                && c.pointer("/action/event/name").and_then(Value::as_str) == Some(action.name.as_str())
        }) else {
            return Err(refused("no button of this form's screen sends this action"));
        };
        let literals = button.pointer("/action/event/context").and_then(Value::as_object);
        for (key, value) in literals.into_iter().flatten().filter(|(_, v)| v.get("path").is_none()) {
            if action.context.get(key) != Some(value) {
                return Err(refused(&format!("the action's {key} is not the button's")));
            }
        }
        Ok(())
    }
}

/// Two actions are the same press when all but their `timestamp` agree.
fn same_action(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("timestamp");
        }
        v
    };
    strip(a) == strip(b)
}

/// A press, as `forwardedProps` carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Press {
    pub form_ref: String,
    pub operation_id: String,
    /// `{"version":"v0.9","action":{…}}`.
    pub message: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Forwarded {
    a2ui_action: Value,
    form_ref: String,
    operation_id: String,
}

/// Reads `forwardedProps` when it carries a press (`a2uiAction`); `Ok(None)` otherwise.
pub fn read_press(forwarded: Option<&Value>) -> Result<Option<Press>, ApiError> {
    let Some(forwarded) = forwarded.filter(|f| f.get("a2uiAction").is_some()) else { return Ok(None) };
    let f: Forwarded = serde_path_to_error::deserialize(forwarded).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { "forwardedProps".to_string() } else { format!("forwardedProps.{path}") };
        ApiError::invalid(field, "a press is {a2uiAction, formRef, operationId} and nothing else")
    })?;
    let id_ok = |id: &str, max: usize| {
        (1..=max).contains(&id.len())
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if !id_ok(&f.operation_id, 128) {
        return Err(ApiError::invalid(
            "forwardedProps.operationId",
            "1 to 128 characters of A-Z, a-z, 0-9, _ and -",
        ));
    }
    if !id_ok(&f.form_ref, 128) {
        return Err(ApiError::invalid(
            "forwardedProps.formRef",
            "1 to 128 characters of A-Z, a-z, 0-9, _ and -",
        ));
    }
    if !f.a2ui_action.is_object() || f.a2ui_action.get("action").is_none() {
        return Err(ApiError::invalid(
            "forwardedProps.a2uiAction",
            "an A2UI client message {version, action}",
        ));
    }
    Ok(Some(Press { form_ref: f.form_ref, operation_id: f.operation_id, message: f.a2ui_action }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::tests::{first, form, noon};
    use serde_json::json;
    use vocab::FormState as FormStatus;

    fn press(action: Value, op: &str) -> Press {
        Press {
            form_ref: "hf-1".into(),
            operation_id: op.into(),
            message: json!({"version": "v0.9", "action": action}),
        }
    }

    fn action(name: &str, context: Value) -> Value {
        json!({"name": name, "surfaceId": "s-1", "sourceComponentId": "find_btn",
            "timestamp": "2025-11-19T20:00:00.000Z", "context": context})
    }

    #[test]
    fn a_press_is_checked_before_anything_is_sent() {
        let today = noon().date();
        let mut view = FormView::open(&form(first(), FormStatus::Open, 1)).unwrap();
        let good = action(
            "find_times",
            json!({"date": "2025-11-20", "room": ["A"], "duration": ["1"], "groupSize": "3", "formVersion": 1}),
        );
        assert!(view.check_action(&press(good.clone(), "op-1"), today).is_ok());
        let code = |r: Result<Value, ApiError>| r.unwrap_err().code;
        assert_eq!(
            code(view.check_action(&press(action("submit_tutoring_request", json!({})), "o"), today)),
            "a2ui_action_not_allowed"
        );
        assert_eq!(
            code(view.check_action(&press(action("find_times", json!({"secret": 1})), "o"), today)),
            "a2ui_context_key_not_allowed"
        );
        let big = action(
            "find_times",
            json!({"date": "2025-11-20", "room": ["A"], "duration": ["1"], "groupSize": "9", "formVersion": 1}),
        );
        let e = view.check_action(&press(big, "o"), today).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_value", Some("forwardedProps.a2uiAction.action.context.groupSize"))
        );
        let mut other = press(good.clone(), "o");
        other.form_ref = "hf-2".into();
        assert_eq!(code(view.check_action(&other, today)), "form_unknown");
        // a newer form in its place: a press on this one is closed, in words that say why
        let mut newer = form(first(), FormStatus::Open, 1);
        newer.form_ref = "hf-2".into();
        let mut newer = FormView::open(&newer).unwrap();
        view.hand_over(&mut newer);
        let e = newer.check_action(&press(good.clone(), "o"), today).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            ("form_closed", "this form was replaced by a newer one; use the one shown")
        );
        let mut third = form(first(), FormStatus::Open, 1);
        third.form_ref = "hf-3".into();
        let mut third = FormView::open(&third).unwrap();
        newer.state = crate::forms::ViewState::Submitted;
        newer.hand_over(&mut third);
        let mut on_closed = press(good.clone(), "o");
        on_closed.form_ref = "hf-2".into();
        let e = third.check_action(&on_closed, today).unwrap_err();
        assert_eq!((e.code, e.message.as_str()), ("form_closed", "this form is closed"));
        assert_eq!(third.earlier("hf-1"), Some(true), "remembered down the line");

        view.submitting("op-1");
        assert_eq!(code(view.check_action(&press(good.clone(), "op-2"), today)), "action_in_progress");
        view.uncertain(good.clone(), "no answer in time");
        assert_eq!(code(view.check_action(&press(good.clone(), "op-2"), today)), "reconcile_only");
        let mut later = good.clone();
        later["timestamp"] = json!("2025-11-19T20:05:00.000Z");
        assert!(view.check_action(&press(later, "op-1"), today).is_ok(), "a reconcile: same action, same id");
        view.supersede();
        assert_eq!(code(view.check_action(&press(good, "op-1"), today)), "form_closed");
    }

    #[test]
    fn a_press_must_come_from_a_drawn_button_with_its_own_literal_values() {
        use crate::forms::tests::loan_form;
        let today = noon().date();
        let view = FormView::open(&loan_form(&["ln-1"])).unwrap();
        let renew = |source: &str, loan: &str| {
            json!({"name": "renew_loan", "surfaceId": "s-1", "sourceComponentId": source,
                "timestamp": "2025-11-19T20:00:00.000Z",
                "context": {"loanId": loan, "returnDate": "2025-12-01", "formVersion": 1}})
        };
        assert!(view.check_action(&press(renew("ln-1_renew", "ln-1"), "o"), today).is_ok());
        let refused = |action: Value| view.check_action(&press(action, "o"), today).unwrap_err();
        // a button the screen never drew, or one that sends another action
        assert_eq!(refused(renew("ln-9_renew", "ln-1")).code, "a2ui_button_not_drawn");
        assert_eq!(refused(renew("close", "ln-1")).code, "a2ui_button_not_drawn");
        // the drawn button with a loan it does not name
        let e = refused(renew("ln-1_renew", "ln-2"));
        assert_eq!(
            (e.code, e.message.as_str()),
            ("a2ui_button_not_drawn", "the action's loanId is not the button's")
        );
        // a follow-up's question is the button's own
        let ask = |request: &str| {
            json!({"name": "follow_up", "surfaceId": "s-1", "sourceComponentId": "more",
                "timestamp": "2025-11-19T20:00:00.000Z", "context": {"request": request, "formVersion": 1}})
        };
        assert!(view.check_action(&press(ask("Renew Calculus in Motion"), "o"), today).is_ok());
        assert_eq!(refused(ask("Renew every book forever")).code, "a2ui_button_not_drawn");
        // a return date that is no date is the form's own rule
        let mut bad = renew("ln-1_renew", "ln-1");
        bad["context"]["returnDate"] = json!("soon");
        assert_eq!(refused(bad).code, "invalid_value");
    }

    #[test]
    fn press_shapes_are_read_strictly() {
        assert_eq!(read_press(None).unwrap(), None);
        assert_eq!(read_press(Some(&json!({}))).unwrap(), None);
        let ok = json!({"a2uiAction": {"version": "v0.9", "action": {}}, "formRef": "hf-1", "operationId": "op-1"});
        assert!(read_press(Some(&ok)).unwrap().is_some());
        let mut extra = ok.clone();
        extra["x"] = json!(1);
        assert_eq!(read_press(Some(&extra)).unwrap_err().code, "invalid_input");
        let mut bad = ok.clone();
        bad["operationId"] = json!("a b");
        assert_eq!(read_press(Some(&bad)).unwrap_err().field.as_deref(), Some("forwardedProps.operationId"));
    }
}
