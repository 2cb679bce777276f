//! What a form's drawn list shows, read back: its components (the buttons a press must
//! come from), and the date pickers a loan screen's return date typed in the chat goes to.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::FormView;

/// A date picker a loan screen draws: its path under `/form`, its bounds and the title
/// drawn beside it ("" when none).
struct Picker {
    path: String,
    min: String,
    max: String,
    title: String,
}

impl FormView {
    /// The components the drawn list leaves, each as its last definition says (by id).
    pub(crate) fn drawn_components(&self) -> HashMap<String, Value> {
        let mut drawn = HashMap::new();
        for m in &self.messages {
            if m.get("deleteSurface").is_some() {
                drawn.clear();
            }
            let components = m.pointer("/updateComponents/components").and_then(Value::as_array);
            for c in components.into_iter().flatten() {
                if let Some(id) = c.get("id").and_then(Value::as_str) {
                    drawn.insert(id.to_string(), c.clone());
                }
            }
        }
        drawn
    }

    /// What a press (`action`: `{sourceComponentId, context, …}`) sent from the data model,
    /// by where it lives under `/form` (`returnDate/ln-1` for a loan's picker, `room` for a
    /// booking's): each value the pressed button's context binds with a path, so a rejected
    /// press can put back what the student had chosen exactly where it was. Literal values
    /// (a loan id) are the button's, not the model's: none of them.
    pub(crate) fn bound_values(&self, action: &Value) -> Map<String, Value> {
        let mut out = Map::new();
        let source = action.get("sourceComponentId").and_then(Value::as_str).unwrap_or_default();
        let drawn = self.drawn_components();
        let bindings =
            drawn.get(source).and_then(|b| b.pointer("/action/event/context")).and_then(Value::as_object);
        let sent = action.get("context").and_then(Value::as_object);
        for (key, binding) in bindings.into_iter().flatten() {
            let path = binding.get("path").and_then(Value::as_str).and_then(|p| p.strip_prefix("/form/"));
            if let (Some(path), Some(value)) = (path, sent.and_then(|c| c.get(key))) {
                out.insert(path.to_string(), value.clone());
            }
        }
        out
    }

    /// The date pickers drawn for `field` of one item each (bound under `/form/<field>/`),
    /// with the title drawn beside each, by path.
    fn pickers_under(&self, field: &str) -> Vec<Picker> {
        let prefix = format!("/form/{field}/");
        let drawn = self.drawn_components();
        let mut pickers: Vec<Picker> = drawn
            .iter()
            .filter(|(_, c)| c.get("component").and_then(Value::as_str) == Some("DateTimeInput"))
            .filter_map(|(id, c)| {
                let path = c.pointer("/value/path")?.as_str()?;
                path.starts_with(&prefix).then_some(())?;
                let bound = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                Some(Picker {
                    path: path.trim_start_matches("/form/").to_string(),
                    min: bound("min"),
                    max: bound("max"),
                    title: self.title_beside(&drawn, id),
                })
            })
            .collect();
        pickers.sort_by(|a, b| a.path.cmp(&b.path));
        pickers
    }

    /// The title drawn with each component: the first heading (`h4`, else any Text) among
    /// the children of the column holding it, by the component's id, as it shows; "" when
    /// none.
    fn title_beside(&self, drawn: &HashMap<String, Value>, id: &str) -> String {
        let parent = drawn.values().find(|c| {
            c.get("children").and_then(Value::as_array).is_some_and(|ch| ch.iter().any(|x| x == id))
        });
        let children = parent.and_then(|p| p.get("children")).and_then(Value::as_array);
        let texts: Vec<&Value> = children
            .into_iter()
            .flatten()
            .filter_map(|x| drawn.get(x.as_str()?))
            .filter(|c| c.get("component").and_then(Value::as_str) == Some("Text"))
            .collect();
        let heading = texts.iter().find(|t| t.get("variant").and_then(Value::as_str) == Some("h4"));
        heading.or(texts.first()).and_then(|t| t.get("text")).map(|t| self.shown(t)).unwrap_or_default()
    }

    /// What a text shows: itself, or the data model's string it is bound to (a catalog
    /// screen's loan title at `/form/loans/<loanId>/title`).
    fn shown(&self, text: &Value) -> String {
        if let Some(t) = text.as_str() {
            return t.to_string();
        }
        let bound = text.get("path").and_then(Value::as_str).and_then(|p| p.strip_prefix("/form/"));
        let Some((field, rest)) = bound.map(|b| b.split_once('/').unwrap_or((b, ""))) else {
            return String::new();
        };
        let value = self.drawn_value(field);
        let at = if rest.is_empty() { Some(&value) } else { value.pointer(&format!("/{rest}")) };
        at.and_then(Value::as_str).unwrap_or_default().to_string()
    }

    /// A loan screen's new return date typed in the chat (`question`) goes to the date
    /// picker of the loan it is for (`/form/returnDate/<loanId>`), inside that picker's
    /// bounds (the loan service's range): the one whose title the words name ("until
    /// friday for the calculus book"), or the only one when they name no book. A date for
    /// a book the screen has no picker for ("renew my statistics book until …" on the
    /// calculus screen, or on a screen with no picker) is no filling at all: the whole
    /// message goes to the Library as a question. Several pickers and no book named, or a
    /// date outside: not filled, and the note says why. Other forms' values are left as read.
    pub fn place_dates(&self, filling: &mut forms::fill::Filling, question: &str) {
        use forms::read::books::{book_names, title_score, words};
        use vocab::loans::operation::RETURN_DATE;
        if self.workflow != forms::Workflow::LoanRenewal.id() {
            return;
        }
        let pickers = self.pickers_under(RETURN_DATE);
        let said = words(question);
        let aimed: Vec<&Picker> = pickers.iter().filter(|p| title_score(&p.title, &said) > 0).collect();
        // a book named that no picker's title has: the date is for another loan
        let other_book = aimed.is_empty() && !book_names(question).is_empty();
        for (field, value) in std::mem::take(&mut filling.filled) {
            if field != RETURN_DATE {
                filling.filled.push((field, value));
                continue;
            }
            let target = match (aimed.as_slice(), pickers.as_slice()) {
                ([one], _) => Ok(*one),
                ([], _) if other_book => Err(None),
                ([], []) => Err(None),
                ([], [only]) => Ok(only),
                _ => Err(Some(
                    "this screen offers more than one loan: name the book, or choose the date on the form",
                )),
            };
            let why = match target {
                Ok(Picker { path, min, max, .. }) => {
                    let date = value.as_str().unwrap_or_default();
                    // ISO dates compare as text
                    if !min.is_empty() && date >= min.as_str() && date <= max.as_str() {
                        filling.filled.push((path.clone(), value));
                        continue;
                    }
                    format!("{date} is outside the dates this loan can be renewed to ({min} to {max})")
                }
                Err(Some(why)) => why.to_string(),
                // not this screen's to fill: the Library hears the whole message
                Err(None) => {
                    filling.rest = question.to_string();
                    continue;
                }
            };
            filling.not_filled.push((field, why));
        }
    }
}
