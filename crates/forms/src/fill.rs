//! Filling an open form from what the student types in the chat: each sentence is read
//! ([`crate::read`]); a value the form's own rules take is filled, one they refuse is not
//! (with why), and the sentences nothing was read from (or that ask something) are what
//! still goes on as a question. Knows no agent and no page, and sends nothing; the caller
//! gives the workflow, the text and `now`.

use serde_json::{Map, Value};

use crate::Workflow;

/// What a chat message filled in an open form, and what it did not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filling {
    /// (field, the data model's value) for each value the form's rules took.
    pub filled: Vec<(String, Value)>,
    /// (field, why not) for each value read that the form would not take.
    pub not_filled: Vec<(String, String)>,
    /// The sentences nothing was read from: what still goes to the Hub.
    pub rest: String,
}

impl Filling {
    /// The note for the student: what was filled, what not and why; `None` when nothing was read.
    pub fn note(&self) -> Option<String> {
        if self.filled.is_empty() && self.not_filled.is_empty() {
            return None;
        }
        let mut note = String::new();
        if !self.filled.is_empty() {
            let shown: Vec<String> =
                self.filled.iter().map(|(f, v)| format!("{} ({})", label(f), shown_value(v))).collect();
            note.push_str(&format!("Filled in the form: {}.", shown.join(", ")));
        }
        for (field, why) in &self.not_filled {
            if !note.is_empty() {
                note.push(' ');
            }
            note.push_str(&format!("Not filled: {} — {}.", label(field), why.trim_end_matches('.')));
        }
        if self.rest.is_empty() {
            note.push_str(" Nothing was sent; check the form and press its button when ready.");
        } else {
            // the rest of the message does go out: only the form stays here
            note.push_str(" The form was not sent (the rest of your message was); check it and press its button when ready.");
        }
        Some(note)
    }
}

fn label(field: &str) -> &str {
    match field {
        "groupSize" => "group size",
        "date" => "date",
        f if f == vocab::loans::operation::RETURN_DATE || f.starts_with("returnDate/") => "new return date",
        other => other,
    }
}

fn shown_value(v: &Value) -> String {
    match v {
        Value::Array(a) => a.iter().map(shown_value).collect::<Vec<_>>().join(", "),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Splits a message into sentences (at `.`, `?`, `!` followed by a space or the end), so
/// an email's dots stay inside their sentence.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'?' | b'!') && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()) {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out.into_iter().map(str::trim).filter(|s| !s.is_empty()).collect()
}

/// The candidate values a reading gives `workflow`'s fields, as its data model holds them.
fn candidates(workflow: Workflow, r: &crate::Reading) -> Vec<(&'static str, Value)> {
    let mv =
        |field: &'static str, text: String| (field, crate::templates::model_value(workflow, field, &text));
    let mut out = Vec::new();
    match workflow {
        Workflow::Tutoring => {
            if let Some(n) = &r.name {
                out.push(mv("name", n.clone()));
            }
            if let Some(e) = &r.email {
                out.push(mv("email", e.clone()));
            }
            if let Some(d) = &r.date {
                out.push(mv("date", d.date.to_string()));
            }
            let period = r.period.or_else(|| r.time.map(|t| crate::Period::of_hour(t.hour())));
            if let Some(p) = period {
                out.push(mv("period", p.as_str().to_string()));
            }
        }
        Workflow::Booking => {
            if let Some(d) = &r.date {
                out.push(mv("date", d.date.to_string()));
            }
            if let Some(c) = r.room {
                out.push(mv("room", c.to_string()));
            }
            if let Some(h) = r.duration_hours {
                out.push(mv("duration", h.to_string()));
            }
            if let Some(g) = r.group_size {
                out.push(mv("groupSize", g.to_string()));
            }
        }
        // the new return date of the loan the screen offers (the page checks its range)
        Workflow::LoanRenewal => {
            if let Some(d) = &r.date {
                out.push(mv(vocab::loans::operation::RETURN_DATE, d.date.to_string()));
            }
        }
    }
    out
}

/// Reads a typed message for the open form: each sentence by [`crate::read`]; a value the
/// form's own rules take is filled, one they refuse is not (with why), and the sentences
/// nothing was read from are what still goes to the Hub. Sends nothing.
pub fn fill_from_chat(workflow: Workflow, text: &str, now: &jiff::ZonedDateTime) -> Filling {
    let today = now.date();
    let mut filling = Filling::default();
    let mut rest = Vec::new();
    let mut form = Map::new();
    for sentence in sentences(text).into_iter().flat_map(split_question) {
        if asks_something(sentence) {
            // "what are the opening hours on Sunday?" asks the university; its Sunday is
            // no answer to the form
            rest.push(sentence);
            continue;
        }
        let reading = crate::read(sentence, now);
        let found = candidates(workflow, &reading);
        if found.is_empty() {
            let noted: Vec<&crate::read::Note> =
                reading.notes.iter().filter(|n| workflow.fields().contains(&n.field)).collect();
            if noted.is_empty() {
                rest.push(sentence);
            }
            for n in noted {
                filling.not_filled.push((n.field.to_string(), n.reason.clone()));
            }
            continue;
        }
        for (field, value) in found {
            match crate::rules::check_value_with(workflow, field, &value, today, &form) {
                Ok(()) => {
                    form.insert(field.to_string(), value.clone());
                    filling.filled.retain(|(f, _)| f != field);
                    filling.filled.push((field.to_string(), value));
                }
                Err(e) => filling.not_filled.push((field.to_string(), e.message)),
            }
        }
    }
    filling.rest = rest.join(" ");
    filling
}

/// A sentence that ends by asking something after a pause (`,`, `;`, a dash):
/// "book it for tomorrow — also what is a derivative?" is the words for the form, then the
/// question, which goes out as it is. Any other sentence is one piece.
pub fn split_question(sentence: &str) -> Vec<&str> {
    if asks_something(sentence) || !sentence.ends_with('?') {
        return vec![sentence];
    }
    let chars: Vec<(usize, char)> = sentence.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let spaced = |j: usize| chars.get(j).is_some_and(|(_, c)| c.is_whitespace());
        // a hyphen is a pause only with a space either side: "2025-11-20" is one date
        let pause =
            matches!(c, ',' | ';' | '—' | '–') || (c == '-' && i > 0 && spaced(i - 1) && spaced(i + 1));
        if !pause {
            continue;
        }
        let (head, tail) = (sentence[..at].trim(), sentence[at + c.len_utf8()..].trim());
        if !head.is_empty() && asks_something(tail) {
            return vec![head, tail];
        }
    }
    vec![sentence]
}

/// A sentence that asks a question (a question mark after a question word, perhaps after
/// "also", "and", …): it goes to the university as it is, and fills nothing.
pub fn asks_something(sentence: &str) -> bool {
    const ASKING: &[&str] = &[
        "what", "what's", "whats", "when", "where", "which", "who", "why", "how", "is", "are", "can",
        "could", "do", "does", "will", "should",
    ];
    const LEADING: &[&str] = &["also", "and", "but", "plus", "oh", "btw", "so", "anyway"];
    let first = sentence
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase())
        .find(|w| !LEADING.contains(&w.as_str()))
        .unwrap_or_default();
    sentence.trim_end().ends_with('?') && ASKING.contains(&first.as_str())
}
