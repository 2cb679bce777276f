//! Campus's loan blocks: what a composer (the model, or the offline rules) writes. Strict
//! serde types (`deny_unknown_fields`) and the JSON Schema a model's structured output is
//! held to ([`schema`]); every optional field is there and `null` when unused, as the
//! provider's strict mode wants. No block names an A2UI component: the compiler does.
//!
//! Also the inputs every check and the compiler read ([`Facts`]): the borrower's loans as
//! the service computed them, the student's words and today.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::loans::LoanFacts;

/// What the Library does with a question about the borrower's loans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum Composition {
    /// Answer in words: the composer's framing, then the loans it is about, each one's
    /// facts in a line the Library writes by rule (a composer's words state none).
    Answer {
        text: String,
        #[serde(default)]
        loan_ids: Vec<String>,
    },
    /// Ask the student one question; `loan_ids`: the loans it asks between, listed after
    /// it by rule.
    Ask {
        question: String,
        #[serde(default)]
        loan_ids: Vec<String>,
    },
    /// Answer with a screen: a title and blocks, top to bottom.
    Screen { title: String, blocks: Vec<Block> },
}

/// One block of a screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum Block {
    /// A line of plain text.
    Notice { text: String },
    /// Loans in short (title, due date, renewable or why not), one small card each.
    LoanList { loan_ids: Vec<String>, order: Option<Order> },
    /// One loan in full; `renew`: with a Renew button (its loan needs a picker).
    LoanCard { loan_id: String, renew: bool },
    /// The new return date of a loan shown with `renew`, drawn in its card, bounded by the
    /// service's range; `initial` preselects a date in it.
    ReturnDatePicker { loan_id: String, label: String, initial: Option<Date> },
    /// Buttons that each ask the Library a new question, written out in `request`.
    FollowUps { buttons: Vec<FollowUp> },
}

/// The order of a loan list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Order {
    /// Soonest due first.
    DueDate,
    /// As the block lists them.
    AsGiven,
}

/// A follow-up button: its label and the question it sends as the student's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowUp {
    pub label: String,
    pub request: String,
}

/// What a composition is checked against and compiled from.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The borrower's loans (only theirs), from the loan service.
    pub loans: &'a [LoanFacts],
    /// The student's question, as they wrote it.
    pub question: &'a str,
    /// The Library's today.
    pub today: Date,
}

impl Facts<'_> {
    /// The borrower's loan with this id.
    pub fn loan(&self, id: &str) -> Option<&LoanFacts> {
        self.loans.iter().find(|l| l.id == id)
    }
}

/// A closed object whose every property is required.
fn object(properties: Value) -> Value {
    let required: Vec<Value> =
        properties.as_object().map(|p| p.keys().map(|k| json!(k)).collect()).unwrap_or_default();
    json!({"type": "object", "additionalProperties": false, "properties": properties, "required": required})
}

/// [`object`] with `tag` naming the variant.
fn tagged(tag: &str, name: &str, mut properties: Value) -> Value {
    properties[tag] = json!({"type": "string", "enum": [name]});
    object(properties)
}

fn nullable(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}

/// The JSON Schema of a [`Composition`] (draft 2020-12, every object closed, every field
/// required, no length keywords: counts and sizes are checked in code).
pub fn schema() -> Value {
    let text = json!({"type": "string"});
    let id = json!({"type": "string", "description": "a loanId from the loan data"});
    let block = json!({"anyOf": [
        tagged("type", "notice", json!({"text": text})),
        tagged("type", "loanList", json!({
            "loanIds": {"type": "array", "items": id},
            "order": nullable(json!({"type": "string", "enum": ["dueDate", "asGiven"]})),
        })),
        tagged("type", "loanCard", json!({"loanId": id, "renew": {"type": "boolean"}})),
        tagged("type", "returnDatePicker", json!({
            "loanId": id,
            "label": text,
            "initial": nullable(json!({"type": "string", "format": "date"})),
        })),
        tagged("type", "followUps", json!({"buttons": {"type": "array", "items": object(
            json!({"label": text, "request": text}))}})),
    ]});
    json!({"anyOf": [
        tagged("decision", "answer", json!({"text": text, "loanIds": {"type": "array", "items": id}})),
        tagged("decision", "ask", json!({"question": text, "loanIds": {"type": "array", "items": id}})),
        tagged("decision", "screen", json!({"title": text, "blocks": {"type": "array", "items": block}})),
    ]})
}
