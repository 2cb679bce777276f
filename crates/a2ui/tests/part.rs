//! A2UI over A2A 1.0: the data part both ways, the client capabilities, the card extension.

use std::collections::HashMap;

use a2a::wire::{AgentExtension, Part};
use a2ui::part::{
    CLIENT_CAPABILITIES_KEY, MIME_TYPE_KEY, PartError, agent_extension, client_capabilities, client_metadata,
    client_supports, data_part, extension_requested, is_a2ui_part, read_part, read_parts,
};
use a2ui::{BASIC_CATALOG_ID, EXTENSION_URI, MEDIA_TYPE, validate_client_capabilities};
use serde_json::{Value, json};

fn messages() -> Vec<Value> {
    vec![
        json!({"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":BASIC_CATALOG_ID}}),
        json!({"version":"v0.9","deleteSurface":{"surfaceId":"s"}}),
    ]
}

#[test]
fn a_data_part_round_trips_through_json_with_both_media_type_spellings() {
    let part = data_part(messages());
    let wire = serde_json::to_value(&part).unwrap();
    assert_eq!(wire["mediaType"], MEDIA_TYPE);
    assert_eq!(wire["metadata"][MIME_TYPE_KEY], MEDIA_TYPE);
    assert_eq!(wire["data"], Value::Array(messages()));
    let back: Part = serde_json::from_value(wire).unwrap();
    assert_eq!(read_part(&back), Some(Ok(messages())));
}

#[test]
fn either_spelling_alone_is_read() {
    let a2a_1_0: Part = serde_json::from_value(json!({"data": messages(), "mediaType": MEDIA_TYPE})).unwrap();
    let extension_v0_3: Part =
        serde_json::from_value(json!({"data": messages(), "metadata": {"mimeType": MEDIA_TYPE}})).unwrap();
    for part in [&a2a_1_0, &extension_v0_3] {
        assert!(is_a2ui_part(part));
        assert_eq!(read_part(part), Some(Ok(messages())));
    }
    // one message object per part, as the extension's examples send it
    let single: Part =
        serde_json::from_value(json!({"data": messages()[0], "metadata": {"mimeType": MEDIA_TYPE}})).unwrap();
    assert_eq!(read_parts(&[single, a2a_1_0]).unwrap().len(), 3);
}

#[test]
fn other_parts_are_not_a2ui_and_bad_a2ui_parts_are_errors() {
    let plain = Part::data(Value::Array(messages()));
    assert_eq!(read_part(&plain), None);
    assert_eq!(read_part(&Part::text("hi")), None);
    assert_eq!(read_parts(&[plain, Part::text("hi")]), Ok(vec![]));
    let text = Part::text("{}").with_media_type(MEDIA_TYPE);
    assert_eq!(read_part(&text), Some(Err(PartError::NotData)));
    let numbers = Part::data(json!([1, 2])).with_media_type(MEDIA_TYPE);
    assert_eq!(read_part(&numbers).unwrap().unwrap_err().code(), "a2ui_part_not_messages");
    let other = Part::data(json!([])).with_media_type("application/json");
    assert!(!is_a2ui_part(&other));
}

#[test]
fn the_client_capabilities_match_the_official_schema() {
    let metadata = client_metadata();
    let capabilities = &metadata[CLIENT_CAPABILITIES_KEY];
    assert_eq!(validate_client_capabilities(capabilities), Ok(()));
    assert_eq!(capabilities, &json!({"v0.9": {"supportedCatalogIds": [BASIC_CATALOG_ID]}}));
    assert!(validate_client_capabilities(&json!({"v0.9": {}})).is_err());
    assert!(validate_client_capabilities(&json!({"v0.8": {"supportedCatalogIds": []}})).is_err());

    assert!(client_supports(Some(&metadata), BASIC_CATALOG_ID));
    assert!(!client_supports(Some(&metadata), "https://example.com/catalog.json"));
    assert!(!client_supports(None, BASIC_CATALOG_ID));
    let other = HashMap::from([(CLIENT_CAPABILITIES_KEY.to_string(), client_capabilities(&[]))]);
    assert!(!client_supports(Some(&other), BASIC_CATALOG_ID));
}

#[test]
fn the_card_extension_names_the_uri_and_catalogs() {
    let ext = agent_extension(&[BASIC_CATALOG_ID]);
    let wire = serde_json::to_value(&ext).unwrap();
    assert_eq!(wire["uri"], EXTENSION_URI);
    assert_eq!(wire["params"]["supportedCatalogIds"], json!([BASIC_CATALOG_ID]));
    assert_eq!(wire["required"], false);
    let back: AgentExtension = serde_json::from_value(wire).unwrap();
    assert_eq!(back, ext);
    assert!(extension_requested(&[EXTENSION_URI.to_string()]));
    assert!(!extension_requested(&["https://a2ui.org/a2a-extension/a2ui/v0.8".to_string()]));
}
