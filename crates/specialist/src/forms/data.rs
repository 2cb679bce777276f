//! The form's data model among its stored values, and field errors as a reply carries them.

use serde_json::{Map, Value, json};

/// The key of a form's stored values that holds its data model (what `/form` holds on the
/// page) as the agent last sent it or a press carried it, so "continue" re-sends it as it
/// stands. An agent may keep its own keys beside it.
pub const DATA_KEY: &str = "form";

/// The key of a composed screen's buttons among a form's stored values: `[[component id,
/// action name], …]` as that screen drew them. A form holding it takes a press only from
/// one of these; any other from its workflow's fixed table ([`super::Buttons`]).
pub const BUTTONS_KEY: &str = "buttons";

/// The buttons a composed screen drew (`None`: a fixed form).
pub fn drawn_buttons(values: &Value) -> Option<Vec<(String, String)>> {
    serde_json::from_value(values.get(BUTTONS_KEY)?.clone()).ok()
}

/// A form's stored values holding only `data` (what an offer stores).
pub fn data_values(data: Value) -> Value {
    json!({ DATA_KEY: data })
}

/// The data model a form's stored values hold (`None` for a form stored without one).
pub fn data_of(values: &Value) -> Option<&Map<String, Value>> {
    values.get(DATA_KEY)?.as_object().filter(|d| !d.is_empty())
}

/// The stored data model with the values a press carried laid over it.
pub fn pressed(values: &Value, carried: &Map<String, Value>) -> Map<String, Value> {
    let mut data = data_of(values).cloned().unwrap_or_default();
    data.extend(carried.iter().map(|(k, v)| (k.clone(), v.clone())));
    data
}

/// `values` with its data model replaced by `data` (the agent's other keys kept).
pub fn with_data(values: &Value, data: Map<String, Value>) -> Value {
    let mut values = values.as_object().cloned().unwrap_or_default();
    values.insert(DATA_KEY.into(), Value::Object(data));
    Value::Object(values)
}

/// A field error as the reply's errors list carries it.
pub fn field_errors(errors: &[forms::FieldError]) -> Vec<Value> {
    errors.iter().map(|e| json!({"field": e.field, "code": e.code, "message": e.message})).collect()
}
