//! Catalog mode (`LIBRARY_UI=catalog`, the reference's design): the composer writes A2UI
//! components itself, from 15 of the basic catalog's 18 (no Image, Video or AudioPlayer:
//! they load addresses; no `openUrl`), and a data model. Its output shape is forced by a
//! schema built at start from the official catalog ([`schema`]): each allowed component
//! a closed object with the catalog's own property names, so they cannot drift. Code wraps
//! the components in a surface (createSurface, updateComponents, updateDataModel of
//! `/form`, with the loans' facts at `/form/loans/<loanId>/<fact>` for texts to bind: a
//! composer's own words state none) and puts the form version into every button
//! ([`wrap`]); then every rule of
//! the blocks mode's compiled surface holds here too (`surface::check_surface_under` with
//! [`POLICY`]), plus what only a free composer could break: no other input supplying a
//! return date or a loan, and every string a component shows through the text rules.
//!
//! Offline, the composer is the blocks mode's rules compiled ([`from_blocks`]): the same
//! screens, through this mode's checks.

use std::sync::OnceLock;

use a2ui::Policy;
use forms::templates::{FORM_VERSION_KEY, create_surface, update_components, update_data_model};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use vocab::loans::ComposeCheck;
use vocab::loans::operation::{LOAN_ID, RENEW_LOAN, RETURN_DATE};

use super::blocks::{Composition, Facts};
use super::check::{CheckError, check_answer, check_text, known_dates};
use super::compile::{FactsAs, LOANS, Surface, compile_as, loan_data};
use super::repair::{Composed, Target, Written, answered, asked};
use super::surface::{MAX_BYTES, check_surface_under};
use super::words::Said;

/// The components a catalog-mode composer may use: the Student's set for generated
/// surfaces (`a2ui::GENERATED_COMPONENTS`).
pub const COMPONENTS: &[&str] = a2ui::GENERATED_COMPONENTS;
/// The catalog's components it may not use: they load addresses.
pub const NOT_OFFERED: &[&str] = &["Image", "Video", "AudioPlayer"];
/// What a catalog-mode screen may use: the Student's policy for generated surfaces.
pub const POLICY: Policy = Policy { max_bytes: MAX_BYTES, ..Policy::generated() };

/// What a catalog-mode composer writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "camelCase", deny_unknown_fields)]
pub enum CatalogComposition {
    /// Words, and the loans they are about (their facts in lines by rule).
    Answer {
        text: String,
        #[serde(default, rename = "loanIds")]
        loan_ids: Vec<String>,
    },
    /// One question, and the loans it asks between (their titles listed by rule).
    Ask {
        question: String,
        #[serde(default, rename = "loanIds")]
        loan_ids: Vec<String>,
    },
    /// A title (for the chat) and the surface's components (one has the id `root`) and
    /// data model (`/form`).
    Screen { title: String, components: Vec<Value>, data: Map<String, Value> },
}

/// The properties a component of the official catalog has, by its own definition and
/// the common ones it refers to.
fn properties(definition: &Value, common: &Value, catalog: &Value) -> Vec<String> {
    let mut names = Vec::new();
    let mut add = |schema: &Value| {
        for name in schema.get("properties").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k)
        {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    };
    for part in definition.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        match part.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let (doc, name) = match r.split_once("#/$defs/") {
                    Some(("", name)) => (catalog, name),
                    Some((_, name)) => (common, name),
                    None => continue,
                };
                if let Some(d) = doc.pointer(&format!("/$defs/{name}")) {
                    add(d);
                }
            }
            None => add(part),
        }
    }
    names
}

/// The catalog's required properties of a component (beyond `id`).
fn required(definition: &Value) -> Vec<Value> {
    let parts = definition.get("allOf").and_then(Value::as_array).into_iter().flatten();
    let mut out: Vec<Value> = vec![json!("id")];
    for r in parts.filter_map(|p| p.get("required")?.as_array()).flatten() {
        if !out.contains(r) {
            out.push(r.clone());
        }
    }
    out
}

/// The schema of a catalog-mode composition, built once from the official basic catalog:
/// every allowed component a closed object of the catalog's property names, `component`
/// its name; the values' shapes are the official schema's, checked in code after wrapping
/// (the provider's structured output takes no `$ref` into another document).
pub fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let (catalog, common) = a2ui::basic_catalog();
        let components: Vec<Value> = COMPONENTS
            .iter()
            .filter_map(|name| {
                let definition = catalog.pointer(&format!("/components/{name}"))?;
                let mut props = Map::new();
                for p in properties(definition, common, catalog) {
                    props.insert(p, json!({}));
                }
                props.insert("id".into(), json!({"type": "string"}));
                props.insert("component".into(), json!({"type": "string", "enum": [name]}));
                Some(json!({"type": "object", "additionalProperties": false, "properties": props,
                            "required": required(definition)}))
            })
            .collect();
        let object = |props: Value| {
            let required: Vec<Value> =
                props.as_object().map(|p| p.keys().map(|k| json!(k)).collect()).unwrap_or_default();
            json!({"type": "object", "additionalProperties": false, "properties": props, "required": required})
        };
        json!({"anyOf": [
            object(json!({"decision": {"type": "string", "enum": ["answer"]}, "text": {"type": "string"},
                          "loanIds": {"type": "array", "items": {"type": "string"}}})),
            object(json!({"decision": {"type": "string", "enum": ["ask"]}, "question": {"type": "string"},
                          "loanIds": {"type": "array", "items": {"type": "string"}}})),
            object(json!({
                "decision": {"type": "string", "enum": ["screen"]},
                "title": {"type": "string"},
                "components": {"type": "array", "items": {"anyOf": components}},
                "data": {"description": "the surface's data model at /form, e.g. {\"returnDate\": {\"<loanId>\": \"\"}}"},
            })),
        ]})
    })
}

/// The surface of a catalog-mode screen for `surface_id` at `version`: the components as
/// written, each button's event given the form version, the data model at `/form`; its
/// buttons, and the loans its renew buttons name that the borrower has (with their
/// versions).
pub fn wrap(
    components: &[Value],
    data: &Map<String, Value>,
    facts: &Facts<'_>,
    surface_id: &str,
    version: u32,
) -> Surface {
    let mut drawn = components.to_vec();
    let mut buttons = Vec::new();
    let mut renewing = Vec::new();
    for c in &mut drawn {
        if c.get("component").and_then(Value::as_str) != Some("Button") {
            continue;
        }
        let id = c.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        let Some(event) = c.pointer_mut("/action/event").and_then(Value::as_object_mut) else { continue };
        let name = event.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let context = event.entry("context").or_insert_with(|| json!({}));
        if let Some(context) = context.as_object_mut() {
            context.insert(FORM_VERSION_KEY.into(), json!(version));
            if name == RENEW_LOAN
                && let Some(loan) = context.get(LOAN_ID).and_then(Value::as_str).and_then(|l| facts.loan(l))
                && !renewing.iter().any(|(l, _)| *l == loan.id)
            {
                renewing.push((loan.id.clone(), loan.version));
            }
        }
        buttons.push((id, name));
    }
    // the loans' facts a text may show are the service's, whatever the composer wrote
    let mut data = data.clone();
    data.insert(LOANS.into(), loan_data(facts.loans));
    Surface {
        surface_id: surface_id.to_string(),
        messages: vec![
            create_surface(surface_id),
            update_components(surface_id, drawn),
            update_data_model(surface_id, "/form", Value::Object(data)),
        ],
        buttons,
        renewing,
    }
}

/// The offline composer's answer in catalog mode: the blocks mode's rules, compiled, as
/// the components and data a catalog composer would write.
pub fn from_blocks(composition: &Composition, facts: &Facts<'_>) -> CatalogComposition {
    match composition {
        Composition::Answer { text, loan_ids } => {
            CatalogComposition::Answer { text: text.clone(), loan_ids: loan_ids.clone() }
        }
        Composition::Ask { question, loan_ids } => {
            CatalogComposition::Ask { question: question.clone(), loan_ids: loan_ids.clone() }
        }
        Composition::Screen { title, blocks } => {
            let s = compile_as(title, blocks, facts, "offline", 1, FactsAs::Bound);
            let components = s.messages[1].pointer("/updateComponents/components").and_then(Value::as_array);
            let mut data =
                s.messages[2].pointer("/updateDataModel/value").and_then(Value::as_object).cloned();
            // what a composer writes: the return dates (code adds the loans' facts)
            if let Some(d) = data.as_mut() {
                d.remove(LOANS);
            }
            CatalogComposition::Screen {
                title: title.clone(),
                components: components.cloned().unwrap_or_default(),
                data: data.unwrap_or_default(),
            }
        }
    }
}

impl Written for CatalogComposition {
    fn accept(&self, facts: &Facts<'_>, target: Target<'_>) -> Result<Composed, Vec<CheckError>> {
        let known = known_dates(facts);
        let mut errors = Vec::new();
        match self {
            CatalogComposition::Answer { text, loan_ids } => {
                let errors = check_answer("text", text, loan_ids, facts, &known);
                if errors.is_empty() {
                    Ok(Composed::Answer(answered(text, loan_ids, facts)))
                } else {
                    Err(errors)
                }
            }
            CatalogComposition::Ask { question, loan_ids } => {
                let errors = check_answer("question", question, loan_ids, facts, &known);
                if errors.is_empty() {
                    Ok(Composed::Ask(asked(question, loan_ids, facts)))
                } else {
                    Err(errors)
                }
            }
            CatalogComposition::Screen { title, components, data } => {
                check_text(title, "/title", Said::Title, facts, &known, &mut errors);
                for key in data.keys().filter(|k| k.as_str() != RETURN_DATE) {
                    let message = "the data model holds only returnDate: the loans' facts at /form/loans are the loan service's";
                    errors.push(CheckError::new(
                        ComposeCheck::OperationInputs,
                        format!("/data/{key}"),
                        message,
                    ));
                }
                let surface = wrap(components, data, facts, target.surface_id, target.version);
                errors.extend(check_surface_under(&POLICY, true, &surface.messages, facts));
                if errors.is_empty() { Ok(Composed::Screen(surface)) } else { Err(errors) }
            }
        }
    }

    fn draw(&self, facts: &Facts<'_>, surface_id: &str, version: u32) -> Option<Vec<Value>> {
        match self {
            CatalogComposition::Screen { components, data, .. } => {
                Some(wrap(components, data, facts, surface_id, version).messages)
            }
            _ => None,
        }
    }

    fn title(&self) -> Option<&str> {
        match self {
            CatalogComposition::Screen { title, .. } => Some(title),
            _ => None,
        }
    }

    fn decision(&self) -> &'static str {
        match self {
            CatalogComposition::Answer { .. } => "answer",
            CatalogComposition::Ask { .. } => "ask",
            CatalogComposition::Screen { .. } => "screen",
        }
    }
}

/// A catalog-mode composer's JSON read as a [`CatalogComposition`]; `blocks_invalid` at
/// the place it breaks the shape.
pub fn parse(value: &Value) -> Result<CatalogComposition, CheckError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string().to_lowercase().replace('`', "'");
        CheckError::new(ComposeCheck::BlocksInvalid, format!("/{}", path.replace('.', "/")), message)
    })
}
