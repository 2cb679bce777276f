//! Blocks → A2UI v0.9 server messages: `createSurface` (basic catalog), one
//! `updateComponents`, one `updateDataModel` of `/form`. The only place a loan screen
//! names a component (Column, Card, Row, Text, Button, DateTimeInput — the fixed forms'
//! own set, built with `forms::templates`), and every fact on it (title, author, due
//! date, renewable or why not, a picker's min and max) is the loan service's, never the
//! block's. Ids are the block's index (`b2`, `b2_date`), so the same blocks give the
//! same messages.
//!
//! A loan card with `renew` holds its loan's date picker (bound to
//! `/form/returnDate/<loanId>`) and a Renew button (`renew_loan` with the literal
//! `loanId` and `returnDate` bound to the picker); a follow-up button sends `follow_up`
//! with its literal `request`; a screen with any button ends with Close (`cancel_form`).
//! Every button carries the form version it was drawn with.
//!
//! A screen says a loan's facts in literal texts ([`FactsAs::Literal`], blocks mode) or in
//! texts bound to the data model's `/form/loans/<loanId>/<fact>` ([`FactsAs::Bound`], the
//! offline catalog mode: a catalog screen's words are all checked as a composer's, and
//! its facts are the service's data, [`loan_data`]).

use forms::templates::{
    button_with, create_surface, date_input_at, path, text, update_components, update_data_model,
};
use serde_json::{Map, Value, json};
use vocab::loans::operation::{FOLLOW_UP, LOAN_ID, RENEW_LOAN, REQUEST, RETURN_DATE};

use super::blocks::{Block, Facts, Order};
use crate::loans::{LoanFacts, day, status};

/// The data model's key (under `/form`) of the loans' facts a bound text shows.
pub const LOANS: &str = "loans";
/// The facts of a loan a text may be bound to (`/form/loans/<loanId>/<fact>`).
pub const LOAN_FACTS: [&str; 5] = ["title", "byline", "due", "status", "line"];

/// How a compiled screen says a loan's facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactsAs {
    /// In literal texts.
    Literal,
    /// In texts bound to `/form/loans/<loanId>/<fact>`.
    Bound,
}

/// A loan's facts as its texts say them, by [`LOAN_FACTS`] name.
fn fact_strings(loan: &LoanFacts) -> [(&'static str, String); 5] {
    let due = format!("Due {}.", day(loan.due));
    [
        ("title", loan.title.clone()),
        ("byline", format!("{} · loan {}", loan.author, loan.id)),
        ("line", format!("{due} {}", status(loan))),
        ("due", due),
        ("status", status(loan)),
    ]
}

/// The loans' facts for the data model at `/form/loans`, by loan id and fact.
pub fn loan_data(loans: &[LoanFacts]) -> Value {
    let by_id = loans.iter().map(|l| {
        let facts = Map::from_iter(fact_strings(l).map(|(k, v)| (k.to_string(), json!(v))));
        (l.id.clone(), Value::Object(facts))
    });
    Value::Object(Map::from_iter(by_id))
}

/// A JSON Pointer token for `key`.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The path a text showing `fact` of `loan_id` is bound to.
pub fn fact_path(loan_id: &str, fact: &str) -> String {
    format!("/form/{LOANS}/{}/{fact}", token(loan_id))
}

/// The data model's field of a loan's new return date (under `/form`).
pub fn return_date_field(loan_id: &str) -> String {
    format!("{RETURN_DATE}/{}", token(loan_id))
}

/// A compiled screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    pub surface_id: String,
    /// createSurface, updateComponents, updateDataModel.
    pub messages: Vec<Value>,
    /// (component id, operation) of every button: what a press may come from.
    pub buttons: Vec<(String, String)>,
    /// (loan id, version) of every loan offered for renewal: what a renewal names.
    pub renewing: Vec<(String, i64)>,
}

struct Out {
    components: Vec<Value>,
    buttons: Vec<(String, String)>,
    version: u32,
    facts_as: FactsAs,
}

impl Out {
    /// A text saying `fact` of `loan`, literal or bound.
    fn fact(&mut self, id: &str, loan: &LoanFacts, fact: &str, variant: &str) {
        let said = match self.facts_as {
            FactsAs::Literal => {
                let strings = fact_strings(loan);
                json!(strings.iter().find(|(k, _)| *k == fact).map(|(_, v)| v.clone()).unwrap_or_default())
            }
            FactsAs::Bound => json!({"path": fact_path(&loan.id, fact)}),
        };
        self.components.push(json!({"id": id, "component": "Text", "text": said, "variant": variant}));
    }

    fn button(&mut self, id: &str, label: &str, variant: &str, name: &str, context: Map<String, Value>) {
        self.components.extend(button_with(id, label, variant, name, context, self.version));
        self.buttons.push((id.to_string(), name.to_string()));
    }
}

/// The messages of a screen titled `title` with `blocks` (checked: a block naming an
/// unknown loan is left out) for `surface_id`, drawn as form `version`, its facts literal.
pub fn compile(title: &str, blocks: &[Block], facts: &Facts<'_>, surface_id: &str, version: u32) -> Surface {
    compile_as(title, blocks, facts, surface_id, version, FactsAs::Literal)
}

/// [`compile`], the loans' facts said as `facts_as` (bound: the data model has them).
pub fn compile_as(
    title: &str,
    blocks: &[Block],
    facts: &Facts<'_>,
    surface_id: &str,
    version: u32,
    facts_as: FactsAs,
) -> Surface {
    let mut out =
        Out { components: vec![text("title", title, "h3")], buttons: Vec::new(), version, facts_as };
    let mut children = vec![json!("title")];
    let mut dates = Map::new();
    let mut renewing = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let id = format!("b{i}");
        let drawn = match block {
            Block::Notice { text: t } => {
                out.components.push(text(&id, t, "body"));
                true
            }
            Block::LoanList { loan_ids, order } => loan_list(&mut out, &id, loan_ids, *order, facts),
            Block::LoanCard { loan_id, renew } => {
                let Some(loan) = facts.loan(loan_id) else { continue };
                let picker = blocks.iter().find_map(|b| match b {
                    Block::ReturnDatePicker { loan_id: l, label, initial } if l == loan_id => {
                        Some((label.as_str(), *initial))
                    }
                    _ => None,
                });
                let picker = picker.filter(|_| *renew);
                if let (Some((_, initial)), Ok(_)) = (picker, loan.renewable) {
                    let value = initial.map(|d| d.to_string()).unwrap_or_default();
                    dates.insert(loan.id.clone(), json!(value));
                    renewing.push((loan.id.clone(), loan.version));
                }
                loan_card(&mut out, &id, loan, picker.map(|p| p.0));
                true
            }
            // drawn in its loan's card
            Block::ReturnDatePicker { .. } => false,
            Block::FollowUps { buttons } => {
                let mut row = Vec::new();
                for (j, b) in buttons.iter().enumerate() {
                    let button = format!("{id}_{j}");
                    let context = Map::from_iter([(REQUEST.to_string(), json!(b.request))]);
                    out.button(&button, &b.label, "default", FOLLOW_UP, context);
                    row.push(button);
                }
                out.components.push(json!({"id": id, "component": "Row", "children": row}));
                true
            }
        };
        if drawn {
            children.push(json!(id));
        }
    }
    if !out.buttons.is_empty() {
        out.button("close", "Close", "default", forms::action::CANCEL_FORM, Map::new());
        children.push(json!("close"));
    }
    out.components.insert(0, json!({"id": "root", "component": "Column", "children": children}));
    let mut data = if dates.is_empty() { json!({}) } else { json!({ RETURN_DATE: dates }) };
    if facts_as == FactsAs::Bound {
        data[LOANS] = loan_data(facts.loans);
    }
    Surface {
        surface_id: surface_id.to_string(),
        messages: vec![
            create_surface(surface_id),
            update_components(surface_id, out.components),
            update_data_model(surface_id, "/form", data),
        ],
        buttons: out.buttons,
        renewing,
    }
}

/// A small card per loan: the title and one line (due, renewable or why not).
fn loan_list(out: &mut Out, id: &str, loan_ids: &[String], order: Option<Order>, facts: &Facts<'_>) -> bool {
    let mut loans: Vec<&LoanFacts> = loan_ids.iter().filter_map(|l| facts.loan(l)).collect();
    if order != Some(Order::AsGiven) {
        loans.sort_by_key(|l| l.due);
    }
    let mut cards = Vec::new();
    for (j, loan) in loans.iter().enumerate() {
        let card = format!("{id}_{j}");
        out.components.extend([
            json!({"id": card, "component": "Card", "child": format!("{card}_col")}),
            json!({"id": format!("{card}_col"), "component": "Column",
                "children": [format!("{card}_title"), format!("{card}_line")]}),
        ]);
        out.fact(&format!("{card}_title"), loan, "title", "h4");
        out.fact(&format!("{card}_line"), loan, "line", "body");
        cards.push(card);
    }
    out.components.push(json!({"id": id, "component": "Column", "children": cards}));
    !loans.is_empty()
}

/// One loan in full; with `picker` (its label) and a renewable loan, its date picker and
/// a Renew button.
fn loan_card(out: &mut Out, id: &str, loan: &LoanFacts, picker: Option<&str>) {
    let col = format!("{id}_col");
    let mut children =
        vec![format!("{id}_title"), format!("{id}_by"), format!("{id}_due"), format!("{id}_status")];
    out.components.push(json!({"id": id, "component": "Card", "child": col}));
    out.fact(&format!("{id}_title"), loan, "title", "h4");
    out.fact(&format!("{id}_by"), loan, "byline", "caption");
    out.fact(&format!("{id}_due"), loan, "due", "body");
    out.fact(&format!("{id}_status"), loan, "status", "body");
    if let (Some(label), Ok(range)) = (picker, loan.renewable) {
        let field = return_date_field(&loan.id);
        let (date, renew) = (format!("{id}_date"), format!("{id}_renew"));
        out.components.push(date_input_at(
            &date,
            &field,
            label,
            range.first,
            range.last,
            "Choose a new return date",
        ));
        let context =
            Map::from_iter([(LOAN_ID.to_string(), json!(loan.id)), (RETURN_DATE.to_string(), path(&field))]);
        out.button(&renew, "Renew", "primary", RENEW_LOAN, context);
        children.extend([date, renew]);
    }
    out.components.push(json!({"id": col, "component": "Column", "children": children}));
}
