//! The official A2UI v0.9 JSON Schemas (vendored under `schemas/v0_9/`, see SOURCE.md),
//! compiled once with `jsonschema` (draft 2020-12, formats checked, no network: every
//! `$ref` resolves from the registry built here).

use std::fmt;
use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Registry, Resource, ValidationError, Validator};
use serde_json::Value;

const SERVER_TO_CLIENT: &str = include_str!("../schemas/v0_9/server_to_client.json");
const CLIENT_TO_SERVER: &str = include_str!("../schemas/v0_9/client_to_server.json");
const COMMON_TYPES: &str = include_str!("../schemas/v0_9/common_types.json");
const CLIENT_CAPABILITIES: &str = include_str!("../schemas/v0_9/client_capabilities.json");
const BASIC_CATALOG: &str = include_str!("../schemas/v0_9/catalogs/basic/catalog.json");

const BASE: &str = "https://a2ui.org/specification/v0_9/";
/// `server_to_client.json` and `common_types.json` refer to `catalog.json#/$defs/…`
/// relative to their own `$id`: that address must name the basic catalog too.
const CATALOG_ALIAS: &str = "https://a2ui.org/specification/v0_9/catalog.json";

/// How many (path, keyword) pairs a [`SchemaError`] keeps.
pub const MAX_ISSUES: usize = 8;
/// Longest instance path a [`SchemaError`] keeps (longer ones are cut, marked with `…`).
const MAX_PATH_CHARS: usize = 160;

/// One place where a message breaks the schema: its JSON Pointer and the keyword that
/// failed. Never the value found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    /// JSON Pointer into the checked instance (`""` is the whole of it).
    pub path: String,
    /// The schema keyword that failed (`const`, `required`, `additionalProperties`, …).
    pub keyword: String,
}

/// A message (or a list of them) that the official schema refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// Up to [`MAX_ISSUES`] issues, most specific first per failure.
    pub issues: Vec<SchemaIssue>,
    /// How many issues there were before the list was cut.
    pub total: usize,
}

impl SchemaError {
    /// The stable code callers report.
    pub fn code(&self) -> &'static str {
        "a2ui_schema_invalid"
    }

    fn prefixed(mut self, prefix: &str) -> Self {
        for issue in &mut self.issues {
            issue.path = clip(&format!("{prefix}{}", issue.path));
        }
        self
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a2ui message does not match the v0.9 schema:")?;
        for (i, issue) in self.issues.iter().enumerate() {
            let sep = if i == 0 { " " } else { "; " };
            let path = if issue.path.is_empty() { "(root)" } else { &issue.path };
            write!(f, "{sep}{path} ({})", issue.keyword)?;
        }
        if self.total > self.issues.len() {
            write!(f, "; {} more", self.total - self.issues.len())?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaError {}

struct Schemas {
    server: Validator,
    client: Validator,
    capabilities: Validator,
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("vendored a2ui schema is valid json")
}

fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let catalog = parse(BASIC_CATALOG);
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(format!("{BASE}common_types.json"), Resource::from_contents(parse(COMMON_TYPES)))
            .and_then(|r| {
                r.add(format!("{BASE}catalogs/basic/catalog.json"), Resource::from_contents(catalog.clone()))
            })
            .and_then(|r| r.add(CATALOG_ALIAS, Resource::from_contents(catalog)))
            .and_then(|r| r.prepare())
            .expect("vendored a2ui schemas form a registry");
        let build = |text: &str| {
            jsonschema::draft202012::options()
                .with_registry(&registry)
                .should_validate_formats(true)
                .build(&parse(text))
                .expect("vendored a2ui schema compiles")
        };
        Schemas {
            server: build(SERVER_TO_CLIENT),
            client: build(CLIENT_TO_SERVER),
            capabilities: build(CLIENT_CAPABILITIES),
        }
    })
}

/// The official basic catalog (v0.9) as vendored: its components, functions and `$defs`,
/// and `common_types.json` whose `$defs` the components refer to.
pub fn basic_catalog() -> (&'static Value, &'static Value) {
    static CATALOG: std::sync::OnceLock<(Value, Value)> = std::sync::OnceLock::new();
    let (catalog, common) = CATALOG.get_or_init(|| (parse(BASIC_CATALOG), parse(COMMON_TYPES)));
    (catalog, common)
}

/// Checks one server→client message (`createSurface`, `updateComponents`,
/// `updateDataModel` or `deleteSurface`) against `server_to_client.json` and the basic
/// catalog.
pub fn validate_server_message(message: &Value) -> Result<(), SchemaError> {
    check(&schemas().server, message)
}

/// Checks a list of server→client messages; issue paths start with the message's index
/// (`/2/updateComponents/…`).
pub fn validate_server_messages(messages: &[Value]) -> Result<(), SchemaError> {
    let mut all = SchemaError { issues: Vec::new(), total: 0 };
    for (i, message) in messages.iter().enumerate() {
        if let Err(e) = validate_server_message(message) {
            all.total += e.total;
            let room = MAX_ISSUES.saturating_sub(all.issues.len());
            all.issues.extend(e.prefixed(&format!("/{i}")).issues.into_iter().take(room));
        }
    }
    if all.total == 0 { Ok(()) } else { Err(all) }
}

/// Checks one client→server message (`{"version","action"}` or `{"version","error"}`)
/// against `client_to_server.json`; the action's `timestamp` must be an RFC 3339 date-time.
pub fn validate_client_message(message: &Value) -> Result<(), SchemaError> {
    check(&schemas().client, message)
}

/// Checks an `a2uiClientCapabilities` object against `client_capabilities.json`.
pub fn validate_client_capabilities(capabilities: &Value) -> Result<(), SchemaError> {
    check(&schemas().capabilities, capabilities)
}

fn check(validator: &Validator, instance: &Value) -> Result<(), SchemaError> {
    if validator.is_valid(instance) {
        return Ok(());
    }
    let mut issues = Vec::new();
    for error in validator.iter_errors(instance) {
        most_specific(&error, &mut issues);
    }
    let total = issues.len().max(1);
    issues.truncate(MAX_ISSUES);
    Err(SchemaError { issues, total })
}

/// A failed `oneOf`/`anyOf` says little by itself ("matched none"): report instead the
/// failures of the branch the author most likely meant, and so on down. That branch is
/// not plainly another shape (a `type` failed where the `oneOf` is, or a `const` there or
/// one level in: the schemas tell branches apart by `version`, `component`, `call`), else
/// reached deepest into the instance, else failed fewest times; the earlier branch wins a
/// full tie. So `{"version":"v0.8","createSurface":…}` reports `/version (const)`, not that
/// it is not an `updateComponents` either, and a TextField's bad check is reported inside
/// the check, not as "not a Text".
fn most_specific(error: &ValidationError<'_>, out: &mut Vec<SchemaIssue>) {
    let branches = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            Some(context)
        }
        _ => None,
    };
    let here = depth(error.instance_path().as_str());
    let best = branches.and_then(|branches| {
        let key = |errors: &Vec<ValidationError<'static>>| {
            let other_shape = errors.iter().any(|e| {
                let (keyword, at) = (e.kind().keyword(), depth(e.instance_path().as_str()));
                (keyword == "type" && at == here) || (keyword == "const" && at <= here + 1)
            });
            let deepest = errors.iter().map(|e| depth(e.instance_path().as_str())).max().unwrap_or(0);
            (!other_shape, deepest, std::cmp::Reverse(errors.len()))
        };
        branches.iter().filter(|b| !b.is_empty()).rev().max_by_key(|b| key(b))
    });
    match best {
        Some(branch) => branch.iter().for_each(|e| most_specific(e, out)),
        None => out.push(SchemaIssue {
            path: clip(error.instance_path().as_str()),
            keyword: error.kind().keyword().to_string(),
        }),
    }
}

fn depth(pointer: &str) -> usize {
    pointer.matches('/').count()
}

/// Keeps a path short and printable: object keys in it come from the instance.
fn clip(path: &str) -> String {
    let mut out: String =
        path.chars().take(MAX_PATH_CHARS).map(|c| if c.is_control() { '?' } else { c }).collect();
    if path.chars().count() > MAX_PATH_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_vendored_schema_compiles() {
        let s = schemas();
        assert!(
            s.client.is_valid(
                &json!({"version": "v0.9", "error": {"code": "X", "surfaceId": "s", "message": "m"}})
            )
        );
        assert!(!s.server.is_valid(&json!({})));
        assert!(s.capabilities.is_valid(&json!({"v0.9": {"supportedCatalogIds": []}})));
    }

    #[test]
    fn a_wrong_version_names_the_version_not_the_other_message_kinds() {
        let msg = json!({"version": "v0.8", "createSurface": {"surfaceId": "s", "catalogId": "c"}});
        let err = validate_server_message(&msg).unwrap_err();
        assert_eq!(err.issues, vec![SchemaIssue { path: "/version".into(), keyword: "const".into() }]);
        assert_eq!(err.code(), "a2ui_schema_invalid");
    }

    #[test]
    fn issues_never_carry_values() {
        let msg = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "theme": {"primaryColor": "secret-value"}}});
        let err = validate_server_message(&msg).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("/createSurface/theme/primaryColor (pattern)"), "{text}");
        assert!(!text.contains("secret-value"), "{text}");
    }

    #[test]
    fn formats_are_checked() {
        let mut action = json!({"version": "v0.9", "action": {"name": "a", "surfaceId": "s",
            "sourceComponentId": "b", "timestamp": "2026-11-29T20:46:43.153Z", "context": {}}});
        assert_eq!(validate_client_message(&action), Ok(()));
        action["action"]["timestamp"] = json!("yesterday");
        let err = validate_client_message(&action).unwrap_err();
        assert!(err.issues.iter().any(|i| i.path == "/action/timestamp" && i.keyword == "format"), "{err}");
    }

    #[test]
    fn long_and_control_paths_are_clipped() {
        let long = format!("/{}", "k\n".repeat(200));
        let c = clip(&long);
        assert!(c.ends_with('…') && !c.contains('\n'));
        assert_eq!(c.chars().count(), MAX_PATH_CHARS + 1);
    }
}
