//! The official schemas and the Student's allowlist over real payloads: the PROTOCOLS.md
//! example, official examples (fixtures copied from `@a2ui/web_core` 0.11.0), and one
//! payload per unsafe shape, each refused with its own code.

use a2ui::{
    ActionRule, BASIC_CATALOG_ID, Policy, RefusalCode, SchemaIssue, check_action, check_payload,
    check_update, validate_server_message, validate_server_messages,
};
use serde_json::{Value, json};

const SURFACE: &str = "enroll-form";

/// The example of PROTOCOLS.md ("A2UI v0.9"), as the notes give it.
fn example() -> Vec<Value> {
    serde_json::from_value(json!([
        {"version":"v0.9","createSurface":{"surfaceId":"enroll-form","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","sendDataModel":false}},
        {"version":"v0.9","updateComponents":{"surfaceId":"enroll-form","components":[
            {"id":"root","component":"Column","children":["title","name_field","submit_btn"]},
            {"id":"title","component":"Text","text":"Enroll in a course","variant":"h2"},
            {"id":"name_field","component":"TextField","label":"Name","value":{"path":"/form/name"},"checks":[
                {"condition":{"call":"required","args":{"value":{"path":"/form/name"}}},"message":"Name is required"}]},
            {"id":"submit_label","component":"Text","text":"Submit"},
            {"id":"submit_btn","component":"Button","child":"submit_label","variant":"primary",
             "action":{"event":{"name":"submit_enrollment","context":{"name":{"path":"/form/name"},"course":"CS101"}}}}]}},
        {"version":"v0.9","updateDataModel":{"surfaceId":"enroll-form","path":"/form","value":{"name":"Ada"}}}
    ]))
    .unwrap()
}

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["messages"].as_array().unwrap().clone()
}

/// The components array of the example's updateComponents message.
fn components(payload: &mut [Value]) -> &mut Vec<Value> {
    payload[1]["updateComponents"]["components"].as_array_mut().unwrap()
}

fn button(payload: &mut [Value]) -> &mut Value {
    components(payload).iter_mut().find(|c| c["id"] == "submit_btn").unwrap()
}

fn refused(payload: &[Value]) -> RefusalCode {
    let refusal = check_payload(&Policy::fixed_forms(), payload).expect_err("payload should be refused");
    assert!(refusal.reason().starts_with(|c: char| c.is_lowercase() || c == '/'), "{refusal}");
    assert!(!refusal.reason().ends_with('.'), "{refusal}");
    refusal.kind()
}

#[test]
fn the_protocols_example_validates_and_passes_the_allowlist() {
    let payload = example();
    assert_eq!(validate_server_messages(&payload), Ok(()));
    let info = check_payload(&Policy::fixed_forms(), &payload).unwrap();
    assert_eq!(info.surface_id, SURFACE);
    assert_eq!(info.catalog_id, BASIC_CATALOG_ID);
    assert!(!info.send_data_model);
    assert_eq!(info.update.actions, vec!["submit_enrollment".to_string()]);
    assert!(!info.update.deleted);
}

#[test]
fn official_examples_validate_and_the_allowlist_judges_them() {
    for name in ["00_simple-login-form.json", "09_login-form.json", "32_advanced-form-validator.json"] {
        assert_eq!(validate_server_messages(&fixture(name)), Ok(()), "{name}");
    }
    // only fixed-form components and functions (and, email, length, required)
    assert!(check_payload(&Policy::fixed_forms(), &fixture("09_login-form.json")).is_ok());
    assert!(check_payload(&Policy::fixed_forms(), &fixture("00_simple-login-form.json")).is_ok());
    // a formatString, in a component before its CheckBox
    assert_eq!(refused(&fixture("32_advanced-form-validator.json")), RefusalCode::FunctionNotAllowed);
}

#[test]
fn a_wrong_version_is_a_schema_error_naming_the_version() {
    let mut payload = example();
    payload[1]["version"] = json!("v0.8");
    let err = validate_server_message(&payload[1]).unwrap_err();
    assert_eq!(err.issues, vec![SchemaIssue { path: "/version".into(), keyword: "const".into() }]);
    let err = validate_server_messages(&payload).unwrap_err();
    assert_eq!(err.issues, vec![SchemaIssue { path: "/1/version".into(), keyword: "const".into() }]);
    assert_eq!(refused(&payload), RefusalCode::SchemaInvalid);
    let refusal = check_payload(&Policy::fixed_forms(), &payload).unwrap_err();
    assert_eq!(refusal.code(), "a2ui_schema_invalid");
    assert!(refusal.reason().contains("/1/version (const)"), "{refusal}");

    payload[1]["version"] = json!("v0.9");
    payload[1].as_object_mut().unwrap().remove("version");
    let err = validate_server_message(&payload[1]).unwrap_err();
    assert!(err.issues.iter().any(|i| i.path.is_empty() && i.keyword == "required"), "{err}");
}

#[test]
fn schema_errors_reach_into_components_without_values() {
    let mut payload = example();
    components(&mut payload)[1]["variant"] = json!("shouting-value");
    let err = validate_server_messages(&payload).unwrap_err();
    assert!(
        err.issues
            .iter()
            .any(|i| i.path == "/1/updateComponents/components/1/variant" && i.keyword == "enum"),
        "{err}"
    );
    assert!(!err.to_string().contains("shouting-value"));
}

#[test]
fn a_function_call_action_is_refused() {
    let mut payload = example();
    button(&mut payload)["action"] =
        json!({"functionCall": {"call": "openUrl", "args": {"url": "https://example.com/"}}});
    assert_eq!(validate_server_messages(&payload), Ok(()), "the schema itself allows it");
    assert_eq!(refused(&payload), RefusalCode::FunctionCall);
    let refusal = check_payload(&Policy::fixed_forms(), &payload).unwrap_err();
    assert_eq!(refusal.code(), "a2ui_function_call");
    assert!(!refusal.reason().contains("example.com"), "{refusal}");
}

#[test]
fn open_url_is_refused_wherever_it_is_called() {
    let mut payload = example();
    components(&mut payload)[2]["checks"][0]["condition"] =
        json!({"call": "openUrl", "args": {"url": "https://example.com/"}, "returnType": "void"});
    assert_eq!(refused(&payload), RefusalCode::FunctionNotAllowed);

    // even under a policy that lists it
    const WITH_OPEN_URL: &[&str] = &["required", "openUrl"];
    let lax = Policy { functions: WITH_OPEN_URL, ..Policy::fixed_forms() };
    assert_eq!(check_payload(&lax, &payload).unwrap_err().code(), "a2ui_function_not_allowed");
}

#[test]
fn an_action_with_more_than_an_event_is_refused() {
    let mut payload = example();
    button(&mut payload)["action"]["openUrl"] = json!("https://example.com/");
    assert_eq!(refused(&payload), RefusalCode::ActionNotEvent);
    button(&mut payload)["action"] = json!({});
    assert_eq!(refused(&payload), RefusalCode::ActionNotEvent);
    button(&mut payload)["action"] = json!({"event": "submit"});
    assert_eq!(refused(&payload), RefusalCode::ActionNotEvent);
}

#[test]
fn an_unknown_or_unlisted_component_is_refused() {
    let mut payload = example();
    components(&mut payload)
        .push(json!({"id": "frame", "component": "Iframe", "src": "https://example.com/"}));
    assert_eq!(refused(&payload), RefusalCode::ComponentNotAllowed);
    assert!(validate_server_messages(&payload).is_err(), "not in the catalog either");

    let mut payload = example();
    components(&mut payload)
        .push(json!({"id": "pic", "component": "Image", "url": "https://example.com/x.png"}));
    assert_eq!(validate_server_messages(&payload), Ok(()));
    assert_eq!(refused(&payload), RefusalCode::ComponentNotAllowed);
}

#[test]
fn a_second_surface_is_refused() {
    let mut payload = example();
    let mut second = payload[0].clone();
    second["createSurface"]["surfaceId"] = json!("other");
    payload.push(second);
    assert_eq!(refused(&payload), RefusalCode::SecondSurface);

    // the same id again is a second createSurface too
    let mut payload = example();
    payload.push(payload[0].clone());
    assert_eq!(refused(&payload), RefusalCode::SecondSurface);
}

#[test]
fn create_surface_must_come_first() {
    let mut payload = example();
    payload.swap(0, 1);
    assert_eq!(refused(&payload), RefusalCode::CreateNotFirst);
    let payload = example()[1..].to_vec();
    assert_eq!(refused(&payload), RefusalCode::CreateNotFirst);
    assert_eq!(refused(&[]), RefusalCode::Empty);
}

#[test]
fn a_message_for_another_surface_is_refused() {
    let mut payload = example();
    payload[2]["updateDataModel"]["surfaceId"] = json!("someone-else");
    assert_eq!(refused(&payload), RefusalCode::WrongSurface);
    let refusal = check_payload(&Policy::fixed_forms(), &payload).unwrap_err();
    assert_eq!(refusal.reason(), "/2/updateDataModel/surfaceId names another surface");
}

#[test]
fn an_oversize_payload_is_refused_before_anything_else() {
    let mut payload = example();
    payload[2]["updateDataModel"]["value"]["notes"] = json!("x".repeat(64 * 1024));
    assert_eq!(refused(&payload), RefusalCode::TooLarge);
    let refusal = check_payload(&Policy::fixed_forms(), &payload).unwrap_err();
    assert_eq!(refusal.code(), "a2ui_too_large");

    // just under the cap passes: the cap is on the serialized payload
    let mut payload = example();
    let base = serde_json::to_vec(&payload).unwrap().len() + r#","notes":"""#.len();
    payload[2]["updateDataModel"]["value"]["notes"] = json!("x".repeat(64 * 1024 - base));
    assert_eq!(serde_json::to_vec(&payload).unwrap().len(), 64 * 1024);
    assert!(check_payload(&Policy::fixed_forms(), &payload).is_ok());
}

#[test]
fn another_catalog_or_a_theme_is_refused() {
    let mut payload = example();
    payload[0]["createSurface"]["catalogId"] = json!("https://example.com/catalog.json");
    assert_eq!(refused(&payload), RefusalCode::CatalogNotAllowed);

    let mut payload = example();
    payload[0]["createSurface"]["theme"] = json!({"iconUrl": "https://example.com/track.png"});
    assert_eq!(validate_server_messages(&payload), Ok(()));
    assert_eq!(refused(&payload), RefusalCode::ThemeNotAllowed);
}

#[test]
fn a_function_outside_the_list_nested_inside_and_is_refused() {
    let mut payload = example();
    components(&mut payload)[2]["checks"][0]["condition"] = json!({"call": "and", "args": {"values": [
        {"call": "required", "args": {"value": {"path": "/form/name"}}},
        {"call": "not", "args": {"value": {"call": "formatString", "args": {"value": "${/form/name}"}, "returnType": "boolean"}}}
    ]}});
    // the schema refuses it too (formatString returns a string), and says where
    let err = validate_server_messages(&payload).unwrap_err();
    assert!(
        err.issues[0].path.starts_with("/1/updateComponents/components/2/checks/0/condition/args/values/1/"),
        "{err}"
    );
    assert_eq!(refused(&payload), RefusalCode::FunctionNotAllowed);
    let refusal = check_payload(&Policy::fixed_forms(), &payload).unwrap_err();
    assert!(
        refusal.reason().starts_with("/1/updateComponents/components/2/checks/0/condition/args/values/1/"),
        "{refusal}"
    );

    // and a disallowed call in a Button's context
    let mut payload = example();
    button(&mut payload)["action"]["event"]["context"]["when"] = json!({"call": "formatDate", "args": {"value": "2026-01-01", "format": "yyyy"}, "returnType": "string"});
    assert_eq!(refused(&payload), RefusalCode::FunctionNotAllowed);
}

#[test]
fn updates_stay_on_the_open_surface() {
    let policy = Policy::fixed_forms();
    let example = example();
    let update = vec![example[1].clone(), example[2].clone()];
    let info = check_update(&policy, SURFACE, &update).unwrap();
    assert_eq!(info.actions, vec!["submit_enrollment".to_string()]);
    assert!(!info.deleted);

    let delete = json!({"version": "v0.9", "deleteSurface": {"surfaceId": SURFACE}});
    assert!(check_update(&policy, SURFACE, std::slice::from_ref(&delete)).unwrap().deleted);

    let code = |messages: &[Value]| check_update(&policy, SURFACE, messages).unwrap_err().kind();
    assert_eq!(code(&[example[0].clone()]), RefusalCode::SecondSurface);
    assert_eq!(code(&[delete.clone(), example[2].clone()]), RefusalCode::AfterDelete);
    assert_eq!(code(&[]), RefusalCode::Empty);
    let mut elsewhere = example[2].clone();
    elsewhere["updateDataModel"]["surfaceId"] = json!("other");
    assert_eq!(code(&[elsewhere]), RefusalCode::WrongSurface);
    let mut bad = example[1].clone();
    bad["updateComponents"]["components"][4]["action"] =
        json!({"functionCall": {"call": "required", "args": {"value": "x"}}});
    assert_eq!(code(&[bad]), RefusalCode::FunctionCall);
}

const RULES: &[ActionRule<'static>] = &[
    ActionRule { name: "submit_enrollment", context: &["name", "course"] },
    ActionRule { name: "cancel_form", context: &[] },
];

fn action() -> Value {
    json!({"version":"v0.9","action":{"name":"submit_enrollment","surfaceId":"enroll-form","sourceComponentId":"submit_btn",
        "timestamp":"2026-11-29T20:46:43.153Z","context":{"name":"Ada","course":"CS101"}}})
}

#[test]
fn a_valid_client_action_is_accepted() {
    let got = check_action(&Policy::fixed_forms(), SURFACE, RULES, &action()).unwrap();
    assert_eq!(got.name, "submit_enrollment");
    assert_eq!(got.source_component_id, "submit_btn");
    assert_eq!(got.context["name"], "Ada");
    let mut cancel = action();
    cancel["action"]["name"] = json!("cancel_form");
    cancel["action"]["context"] = json!({});
    assert_eq!(check_action(&Policy::fixed_forms(), SURFACE, RULES, &cancel).unwrap().name, "cancel_form");
}

#[test]
fn invalid_client_actions_are_refused_with_their_codes() {
    let code =
        |message: &Value| check_action(&Policy::fixed_forms(), SURFACE, RULES, message).unwrap_err().code();
    let with = |pointer: &str, value: Value| {
        let mut m = action();
        *m.pointer_mut(pointer).unwrap() = value;
        m
    };
    assert_eq!(code(&with("/action/timestamp", json!("yesterday"))), "a2ui_schema_invalid");
    assert_eq!(code(&with("/version", json!("v0.8"))), "a2ui_schema_invalid");
    assert_eq!(code(&with("/action/surfaceId", json!("other"))), "a2ui_wrong_surface");
    assert_eq!(code(&with("/action/name", json!("delete_everything"))), "a2ui_action_not_allowed");
    assert_eq!(
        code(&with("/action/context", json!({"name": "Ada", "admin": true}))),
        "a2ui_context_key_not_allowed"
    );
    assert_eq!(code(&with("/action/context/name", json!("x".repeat(70_000)))), "a2ui_too_large");
    let error = json!({"version":"v0.9","error":{"code":"VALIDATION_FAILED","surfaceId":SURFACE,"path":"/x","message":"m"}});
    assert_eq!(code(&error), "a2ui_not_an_action");
    let mut missing = action();
    missing["action"].as_object_mut().unwrap().remove("sourceComponentId");
    assert_eq!(code(&missing), "a2ui_schema_invalid");
}
