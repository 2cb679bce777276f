//! The Student's allowlist: what an agent's A2UI payload may contain before the browser
//! sees it, and what a client action may say before it goes back to the agent.
//!
//! [`check_payload`] takes a form's first payload, [`check_update`] each later payload for
//! the same open surface, [`check_action`] an action from the page. Every check refuses
//! with a [`Refusal`]: a stable code and a reason that names positions (JSON Pointers),
//! never values. The first problem found is the one reported, in this order: size, then
//! message by message the surface rules (createSurface first and only once, one surface
//! id, nothing after deleteSurface, the catalog, no theme) and per component its type,
//! `functionCall`, the action's shape and every `call`; last the official schema.
//! The policy's own rules run before the schema so that a shape the schema would refuse
//! too (an unknown component, a function outside the catalog) gets its specific code.

use std::fmt;
use std::io;

use serde_json::{Map, Value};

use crate::schema::{SchemaError, validate_client_message, validate_server_messages};
use crate::{BASIC_CATALOG_ID, Kind, message_kind};

/// Components of the fixed forms (the basic catalog's names).
pub const FIXED_FORM_COMPONENTS: &[&str] =
    &["Column", "Row", "Card", "Divider", "Text", "TextField", "Button", "ChoicePicker", "DateTimeInput"];
/// Functions of the fixed forms (the basic catalog's names).
pub const FIXED_FORM_FUNCTIONS: &[&str] =
    &["required", "regex", "length", "numeric", "email", "and", "or", "not"];
/// Components a generated surface may use: 15 of the basic catalog's 18 (no Image, Video
/// or AudioPlayer: they load addresses).
pub const GENERATED_COMPONENTS: &[&str] = &[
    "Text",
    "Icon",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Modal",
    "Divider",
    "Button",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
];
/// Functions a generated surface may call: the catalog's own but `openUrl` (refused in any
/// policy).
pub const GENERATED_FUNCTIONS: &[&str] = &[
    "required",
    "regex",
    "length",
    "numeric",
    "email",
    "formatString",
    "formatNumber",
    "formatCurrency",
    "formatDate",
    "pluralize",
    "and",
    "or",
    "not",
];
/// The most bytes one payload (the serialized list of messages) or one action may take.
pub const MAX_PAYLOAD_BYTES: usize = 64 * 1024;

/// Functions refused whatever a policy lists: they act outside the surface.
const NEVER_FUNCTIONS: &[&str] = &["openUrl"];

/// What an agent's A2UI may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Component types allowed (`"component"` of every component).
    pub components: &'static [&'static str],
    /// Function names allowed wherever a `call` appears (`openUrl` never is).
    pub functions: &'static [&'static str],
    /// Size cap of a payload's serialized JSON, and of an action's.
    pub max_bytes: usize,
    /// The one catalog a surface may use.
    pub catalog_id: &'static str,
}

impl Policy {
    /// The policy for a surface an agent composed per answer (the Library's loan screens):
    /// the wider set of [`GENERATED_COMPONENTS`], at most 48 KB.
    pub const fn generated() -> Self {
        Policy {
            components: GENERATED_COMPONENTS,
            functions: GENERATED_FUNCTIONS,
            max_bytes: 48 * 1024,
            catalog_id: BASIC_CATALOG_ID,
        }
    }

    /// The policy for Campus's fixed forms (tutoring request, study-room booking).
    pub const fn fixed_forms() -> Self {
        Policy {
            components: FIXED_FORM_COMPONENTS,
            functions: FIXED_FORM_FUNCTIONS,
            max_bytes: MAX_PAYLOAD_BYTES,
            catalog_id: BASIC_CATALOG_ID,
        }
    }
}

/// Why a payload or an action was refused. Codes are stable; see [`Refusal::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalCode {
    /// A payload with no message.
    Empty,
    /// Over [`Policy::max_bytes`].
    TooLarge,
    /// The official schema refuses a message.
    SchemaInvalid,
    /// A first payload that does not start with `createSurface`.
    CreateNotFirst,
    /// A second `createSurface` (in a first payload, or any in an update).
    SecondSurface,
    /// A message for another surface.
    WrongSurface,
    /// A message after the surface's `deleteSurface`.
    AfterDelete,
    /// A catalog other than the policy's.
    CatalogNotAllowed,
    /// A surface theme (its `iconUrl` would make the page fetch an address).
    ThemeNotAllowed,
    /// A component type the policy does not list.
    ComponentNotAllowed,
    /// A `call` of a function the policy does not list.
    FunctionNotAllowed,
    /// A `functionCall` anywhere.
    FunctionCall,
    /// An action that is not exactly `{"event": …}`.
    ActionNotEvent,
    /// A client message that is not an action (an `error` report).
    NotAnAction,
    /// An action name the form does not accept.
    ActionNotAllowed,
    /// An action context key the action does not accept.
    ContextKeyNotAllowed,
}

impl RefusalCode {
    /// The snake_case code callers report.
    pub const fn as_str(self) -> &'static str {
        match self {
            RefusalCode::Empty => "a2ui_empty",
            RefusalCode::TooLarge => "a2ui_too_large",
            RefusalCode::SchemaInvalid => "a2ui_schema_invalid",
            RefusalCode::CreateNotFirst => "a2ui_create_not_first",
            RefusalCode::SecondSurface => "a2ui_second_surface",
            RefusalCode::WrongSurface => "a2ui_wrong_surface",
            RefusalCode::AfterDelete => "a2ui_after_delete",
            RefusalCode::CatalogNotAllowed => "a2ui_catalog_not_allowed",
            RefusalCode::ThemeNotAllowed => "a2ui_theme_not_allowed",
            RefusalCode::ComponentNotAllowed => "a2ui_component_not_allowed",
            RefusalCode::FunctionNotAllowed => "a2ui_function_not_allowed",
            RefusalCode::FunctionCall => "a2ui_function_call",
            RefusalCode::ActionNotEvent => "a2ui_action_not_event",
            RefusalCode::NotAnAction => "a2ui_not_an_action",
            RefusalCode::ActionNotAllowed => "a2ui_action_not_allowed",
            RefusalCode::ContextKeyNotAllowed => "a2ui_context_key_not_allowed",
        }
    }
}

/// A refused payload or action: a stable code and a lowercase reason without values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    code: RefusalCode,
    reason: String,
}

impl Refusal {
    fn new(code: RefusalCode, reason: impl Into<String>) -> Self {
        Refusal { code, reason: reason.into() }
    }

    /// The stable snake_case code (`a2ui_too_large`, `a2ui_function_call`, …).
    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }

    /// The code as a value to match on.
    pub fn kind(&self) -> RefusalCode {
        self.code
    }

    /// What was wrong and where (JSON Pointers into the payload), never a value from it.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.reason)
    }
}

impl std::error::Error for Refusal {}

impl From<SchemaError> for Refusal {
    fn from(e: SchemaError) -> Self {
        Refusal::new(RefusalCode::SchemaInvalid, e.to_string())
    }
}

/// What a first payload opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurfaceInfo {
    /// The one surface's id.
    pub surface_id: String,
    /// Its catalog (the policy's).
    pub catalog_id: String,
    /// Whether the agent asked for the data model with every message (`sendDataModel`).
    pub send_data_model: bool,
    /// The payload's updates and whether it also deleted the surface.
    pub update: UpdateInfo,
}

/// What a payload's messages for an open surface did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdateInfo {
    /// Event names of the Buttons the payload drew (sorted, once each).
    pub actions: Vec<String>,
    /// Whether the payload ends with the surface's `deleteSurface`.
    pub deleted: bool,
}

/// Checks a form's first payload: `createSurface` first and only there, every message for
/// that surface, the policy's catalog, components and functions, every action exactly
/// `{"event": …}`, the size cap, and the official schema.
pub fn check_payload(policy: &Policy, messages: &[Value]) -> Result<SurfaceInfo, Refusal> {
    check_size(policy, messages, "payload")?;
    let Some(first) = messages.first() else {
        return Err(Refusal::new(RefusalCode::Empty, "the payload has no message"));
    };
    let create = match message_kind(first) {
        Some((Kind::CreateSurface, body)) => body,
        _ => {
            let code = RefusalCode::CreateNotFirst;
            return Err(Refusal::new(code, "the first message is not createSurface"));
        }
    };
    let Some(surface_id) = create.get("surfaceId").and_then(Value::as_str) else {
        let refusal = validate_server_messages(&messages[..1]).err().map(Refusal::from);
        return Err(
            refusal.unwrap_or_else(|| Refusal::new(RefusalCode::SchemaInvalid, "/0 has no surface id"))
        );
    };
    if let Some(catalog) = create.get("catalogId").and_then(Value::as_str)
        && catalog != policy.catalog_id
    {
        return Err(Refusal::new(
            RefusalCode::CatalogNotAllowed,
            "/0/createSurface/catalogId names another catalog",
        ));
    }
    if create.contains_key("theme") {
        return Err(Refusal::new(RefusalCode::ThemeNotAllowed, "/0/createSurface/theme is not allowed"));
    }
    let update = check_messages(policy, surface_id, messages, 1)?;
    validate_server_messages(messages)?;
    Ok(SurfaceInfo {
        surface_id: surface_id.to_string(),
        catalog_id: policy.catalog_id.to_string(),
        send_data_model: create.get("sendDataModel").and_then(Value::as_bool).unwrap_or(false),
        update,
    })
}

/// Checks a later payload for the open surface `surface_id`: only `updateComponents`,
/// `updateDataModel` and `deleteSurface` for that surface, under the same rules as
/// [`check_payload`].
pub fn check_update(policy: &Policy, surface_id: &str, messages: &[Value]) -> Result<UpdateInfo, Refusal> {
    check_size(policy, messages, "payload")?;
    if messages.is_empty() {
        return Err(Refusal::new(RefusalCode::Empty, "the payload has no message"));
    }
    let update = check_messages(policy, surface_id, messages, 0)?;
    validate_server_messages(messages)?;
    Ok(update)
}

/// Messages from `start` on, for the surface `surface_id`.
fn check_messages(
    policy: &Policy,
    surface_id: &str,
    messages: &[Value],
    start: usize,
) -> Result<UpdateInfo, Refusal> {
    let mut info = UpdateInfo::default();
    for (i, message) in messages.iter().enumerate().skip(start) {
        // a message of no known kind is left to the schema
        let Some((kind, body)) = message_kind(message) else { continue };
        if info.deleted {
            return Err(Refusal::new(RefusalCode::AfterDelete, format!("/{i} comes after deleteSurface")));
        }
        if kind == Kind::CreateSurface {
            return Err(Refusal::new(RefusalCode::SecondSurface, format!("/{i} creates a second surface")));
        }
        if let Some(id) = body.get("surfaceId").and_then(Value::as_str)
            && id != surface_id
        {
            let key = kind.key();
            return Err(Refusal::new(
                RefusalCode::WrongSurface,
                format!("/{i}/{key}/surfaceId names another surface"),
            ));
        }
        match kind {
            Kind::UpdateComponents => {
                let components =
                    body.get("components").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                for (j, component) in components.iter().enumerate() {
                    let at = format!("/{i}/updateComponents/components/{j}");
                    check_component(policy, component, &at, &mut info.actions)?;
                }
            }
            Kind::DeleteSurface => info.deleted = true,
            Kind::UpdateDataModel | Kind::CreateSurface => {}
        }
    }
    info.actions.sort();
    info.actions.dedup();
    Ok(info)
}

fn check_component(
    policy: &Policy,
    component: &Value,
    at: &str,
    actions: &mut Vec<String>,
) -> Result<(), Refusal> {
    let Some(fields) = component.as_object() else { return Ok(()) };
    if let Some(kind) = fields.get("component").and_then(Value::as_str)
        && !policy.components.contains(&kind)
    {
        return Err(Refusal::new(
            RefusalCode::ComponentNotAllowed,
            format!("{at} is a component type not allowed"),
        ));
    }
    if let Some(path) = find_key(component, "functionCall", at) {
        return Err(Refusal::new(RefusalCode::FunctionCall, format!("{path} is a functionCall")));
    }
    if let Some(action) = fields.get("action") {
        let event = action.as_object().filter(|a| a.len() == 1).and_then(|a| a.get("event"));
        let Some(event) = event.and_then(Value::as_object) else {
            return Err(Refusal::new(
                RefusalCode::ActionNotEvent,
                format!("{at}/action is not exactly an event"),
            ));
        };
        if let Some(name) = event.get("name").and_then(Value::as_str) {
            actions.push(name.to_string());
        }
    }
    check_calls(policy, component, at)
}

/// The pointer of the first object key `key` inside `value` (depth first).
fn find_key(value: &Value, key: &str, at: &str) -> Option<String> {
    match value {
        Value::Object(map) => {
            if map.contains_key(key) {
                return Some(at.to_string());
            }
            map.iter().find_map(|(k, v)| find_key(v, key, &format!("{at}/{}", escape(k))))
        }
        Value::Array(items) => {
            items.iter().enumerate().find_map(|(i, v)| find_key(v, key, &format!("{at}/{i}")))
        }
        _ => None,
    }
}

/// Every object with a `call` (checks, bound values, action context, nested `args`) must
/// name an allowed function.
fn check_calls(policy: &Policy, value: &Value, at: &str) -> Result<(), Refusal> {
    match value {
        Value::Object(map) => {
            if let Some(call) = map.get("call") {
                let allowed = call
                    .as_str()
                    .is_some_and(|name| policy.functions.contains(&name) && !NEVER_FUNCTIONS.contains(&name));
                // a `call` that is not a string is the schema's to refuse
                if call.is_string() && !allowed {
                    let reason = format!("{at} calls a function not allowed");
                    return Err(Refusal::new(RefusalCode::FunctionNotAllowed, reason));
                }
            }
            map.iter().try_for_each(|(k, v)| check_calls(policy, v, &format!("{at}/{}", escape(k))))
        }
        Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, v)| check_calls(policy, v, &format!("{at}/{i}")))
        }
        _ => Ok(()),
    }
}

/// A JSON Pointer segment for an object key; the key comes from the payload, so it is
/// cut short and kept printable.
fn escape(key: &str) -> String {
    key.chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect::<String>()
        .replace('~', "~0")
        .replace('/', "~1")
}

fn check_size<T: serde::Serialize + ?Sized>(policy: &Policy, value: &T, what: &str) -> Result<(), Refusal> {
    struct Counter {
        bytes: usize,
        max: usize,
    }
    impl io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.bytes += buf.len();
            if self.bytes > self.max { Err(io::Error::other("over the cap")) } else { Ok(buf.len()) }
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { bytes: 0, max: policy.max_bytes };
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => Ok(()),
        Err(_) => {
            let reason = format!("the {what} is over {} bytes", policy.max_bytes);
            Err(Refusal::new(RefusalCode::TooLarge, reason))
        }
    }
}

/// An action one form accepts: its event name and the context keys it may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionRule<'a> {
    /// `action.event.name` as the form's Button declares it.
    pub name: &'a str,
    /// Keys the action's `context` may have (a subset may be present).
    pub context: &'a [&'a str],
}

/// A checked action from the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientAction {
    /// The event name (one of the rules').
    pub name: String,
    /// The surface it came from (the expected one).
    pub surface_id: String,
    /// The component that fired it.
    pub source_component_id: String,
    /// When the page says it happened (RFC 3339, schema-checked).
    pub timestamp: String,
    /// The resolved context: only keys its rule allows.
    pub context: Map<String, Value>,
}

/// Checks a client→server message `{"version":"v0.9","action":{…}}`: within the size cap,
/// schema-valid, an action (not an error report), for `surface_id`, named by one of
/// `rules`, with context keys that rule allows.
pub fn check_action(
    policy: &Policy,
    surface_id: &str,
    rules: &[ActionRule<'_>],
    message: &Value,
) -> Result<ClientAction, Refusal> {
    check_size(policy, message, "action")?;
    validate_client_message(message)?;
    let Some(action) = message.get("action").and_then(Value::as_object) else {
        return Err(Refusal::new(RefusalCode::NotAnAction, "the message is not an action"));
    };
    let text = |key: &str| action.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
    if text("surfaceId") != surface_id {
        return Err(Refusal::new(RefusalCode::WrongSurface, "/action/surfaceId names another surface"));
    }
    let name = text("name");
    let Some(rule) = rules.iter().find(|r| r.name == name) else {
        return Err(Refusal::new(
            RefusalCode::ActionNotAllowed,
            "/action/name is not an action of this form",
        ));
    };
    let context = action.get("context").and_then(Value::as_object).cloned().unwrap_or_default();
    if context.keys().any(|k| !rule.context.contains(&k.as_str())) {
        let reason = "/action/context has a key this action does not take";
        return Err(Refusal::new(RefusalCode::ContextKeyNotAllowed, reason));
    }
    Ok(ClientAction {
        name,
        surface_id: surface_id.to_string(),
        source_component_id: text("sourceComponentId"),
        timestamp: text("timestamp"),
        context,
    })
}
