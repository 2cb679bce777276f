//! The JSON Schema of a structured call: checked once when built (only what the API
//! accepts), then used to check every reply in code.

use std::fmt;

use serde_json::Value;

/// Keywords the provider's structured output does not support (numeric and length
/// constraints): check them in code after the call instead.
const UNSUPPORTED: [&str; 10] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "maxProperties",
];

/// A structured call's output schema, compiled (draft 2020-12).
pub struct Schema {
    value: Value,
    validator: jsonschema::Validator,
}

impl Schema {
    /// Builds a schema; `Err` names what the provider would refuse (a numeric or length
    /// keyword, an object without `additionalProperties: false`) or why it does not compile.
    pub fn new(value: Value) -> Result<Schema, String> {
        if let Some(problem) = unsupported_keyword(&value) {
            return Err(problem);
        }
        let validator =
            jsonschema::draft202012::new(&value).map_err(|e| format!("the schema does not compile: {e}"))?;
        Ok(Schema { value, validator })
    }

    pub fn value(&self) -> &Value {
        &self.value
    }

    /// Whether `instance` is in the schema's shape.
    pub fn accepts(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Schema").field(&self.value).finish()
    }
}

/// What in `schema` the provider's structured output refuses, as `<pointer>: <problem>`;
/// `None` when nothing. Used by [`Schema::new`] and by the fake API on every request.
pub fn unsupported_keyword(schema: &Value) -> Option<String> {
    walk(schema, String::new())
}

fn walk(schema: &Value, at: String) -> Option<String> {
    let Value::Object(map) = schema else { return None };
    if let Some(k) = UNSUPPORTED.iter().find(|k| map.contains_key(**k)) {
        return Some(format!(
            "{}: {k} is not supported in structured output; check it in code",
            pointer(&at)
        ));
    }
    let is_object = map
        .get("type")
        .is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&"object".into())))
        || map.contains_key("properties");
    if is_object && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Some(format!("{}: an object must set additionalProperties to false", pointer(&at)));
    }
    for key in ["properties", "$defs", "definitions"] {
        if let Some(Value::Object(children)) = map.get(key) {
            for (name, child) in children {
                if let Some(p) = walk(child, format!("{at}/{key}/{}", escape(name))) {
                    return Some(p);
                }
            }
        }
    }
    for key in ["anyOf", "allOf", "oneOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get(key) {
            for (i, child) in children.iter().enumerate() {
                if let Some(p) = walk(child, format!("{at}/{key}/{i}")) {
                    return Some(p);
                }
            }
        }
    }
    for key in ["items", "not", "if", "then", "else", "additionalProperties"] {
        if let Some(child @ Value::Object(_)) = map.get(key)
            && let Some(p) = walk(child, format!("{at}/{key}"))
        {
            return Some(p);
        }
    }
    None
}

fn pointer(at: &str) -> &str {
    if at.is_empty() { "the schema" } else { at }
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict() -> Value {
        json!({
            "type": "object",
            "properties": {
                "verdict": {"type": "string", "enum": ["in_scope", "out_of_scope"]},
                "lines": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["verdict", "lines"],
            "additionalProperties": false
        })
    }

    #[test]
    fn a_supported_schema_checks_replies() {
        let s = Schema::new(verdict()).unwrap();
        assert!(s.accepts(&json!({"verdict": "in_scope", "lines": []})));
        assert!(!s.accepts(&json!({"verdict": "maybe", "lines": []})));
        assert!(!s.accepts(&json!({"verdict": "in_scope", "lines": [], "extra": 1})));
    }

    #[test]
    fn what_the_provider_refuses_is_refused_here() {
        let mut s = verdict();
        s["properties"]["lines"]["maxItems"] = json!(3);
        assert_eq!(
            Schema::new(s).unwrap_err(),
            "/properties/lines: maxItems is not supported in structured output; check it in code"
        );
        let mut s = verdict();
        s["properties"]["verdict"]["maxLength"] = json!(3);
        assert!(unsupported_keyword(&s).unwrap().starts_with("/properties/verdict: maxLength"));
        let mut s = verdict();
        s.as_object_mut().unwrap().remove("additionalProperties");
        assert_eq!(
            unsupported_keyword(&s).unwrap(),
            "the schema: an object must set additionalProperties to false"
        );
        let nested = json!({"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": "array", "items": {"type": "object", "properties": {}}}}});
        assert_eq!(
            unsupported_keyword(&nested).unwrap(),
            "/properties/a/items: an object must set additionalProperties to false"
        );
        // a property may be called "minimum": only keywords count
        let named = json!({"type": "object", "additionalProperties": false,
            "properties": {"minimum": {"type": "number"}}});
        assert_eq!(unsupported_keyword(&named), None);
    }
}
