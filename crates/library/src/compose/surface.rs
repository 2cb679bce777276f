//! The rules again, over the compiled A2UI (what would be sent): at most
//! [`MAX_BYTES`] of JSON, the official v0.9 schema, the Student's allowlist under
//! [`POLICY`] (the basic catalog, only the compiler's components and `required`, no
//! `functionCall`, no theme); a `root`, every reference resolving, no cycle, at most
//! [`MAX_COMPONENTS`] components nested at most [`MAX_DEPTH`] deep; buttons sending only
//! `renew_loan` ({loanId, returnDate} for a renewable loan of the borrower, the date bound
//! to that loan's picker), `follow_up` ({request}) or `cancel_form`, each with its
//! `formVersion`; every date picker bound to a renewable loan's return date and bounded
//! exactly by the service's range; a preselected date inside it; a follow-up asking to
//! renew only a renewable loan; in every text, label and request no Markdown and no
//! unknown date; in catalog mode, where every word is the composer's, no loan fact in them
//! (`words`) and every text bound to a fact the data model has. Paths are JSON Pointers
//! into the list of messages (`/1/updateComponents/components/4/min`).

use std::collections::{HashMap, HashSet};

use a2ui::{BASIC_CATALOG_ID, Policy, RefusalCode, check_payload, validate_server_messages};
use forms::templates::FORM_VERSION_KEY;
use jiff::civil::Date;
use serde_json::{Map, Value};
use vocab::loans::ComposeCheck as C;
use vocab::loans::operation::{FOLLOW_UP, LOAN_ID, RENEW_LOAN, REQUEST, RETURN_DATE};

use super::blocks::Facts;
use super::check::{
    CheckError, check_text, known_dates, offers_ineligible, offers_refused, said_by_student, unsaid,
};
use super::compile::{LOAN_FACTS, fact_path, return_date_field};
use super::words::Said;

mod walk;
use crate::loans::LoanFacts;
use walk::{calls, loan_shown, references, stray_bindings};

/// The most components a screen may have.
pub const MAX_COMPONENTS: usize = 80;
/// The deepest a screen may nest (the root is 1).
pub const MAX_DEPTH: usize = 10;
/// The most bytes a screen's messages may take, serialized.
pub const MAX_BYTES: usize = 48 * 1024;
/// The components the compiler draws.
pub const COMPONENTS: &[&str] = &["Column", "Row", "Card", "Divider", "Text", "Button", "DateTimeInput"];
/// What a composed loan screen may use, for the Student's allowlist.
pub const POLICY: Policy = Policy {
    components: COMPONENTS,
    functions: &["required"],
    max_bytes: MAX_BYTES,
    catalog_id: BASIC_CATALOG_ID,
};

/// Every rule over the compiled `messages` (empty: they may be sent).
pub fn check_surface(messages: &[Value], facts: &Facts<'_>) -> Vec<CheckError> {
    check_surface_under(&POLICY, false, messages, facts)
}

/// [`check_surface`] under `policy`; `catalog`: the messages were composed from the
/// catalog itself (catalog mode), so the rules no compiler could break are checked too —
/// no other input supplies a return date or a loan, and every string a component shows
/// passes the text rules.
pub fn check_surface_under(
    policy: &Policy,
    catalog: bool,
    messages: &[Value],
    facts: &Facts<'_>,
) -> Vec<CheckError> {
    let mut out = Vec::new();
    let bytes = serde_json::to_vec(messages).map_or(usize::MAX, |b| b.len());
    if bytes > MAX_BYTES {
        out.push(CheckError::new(C::TooLarge, "", format!("the surface is over {MAX_BYTES} bytes")));
        return out;
    }
    if let Err(e) = validate_server_messages(messages) {
        for issue in e.issues {
            let message = format!("the official schema refuses it ({})", issue.keyword);
            out.push(CheckError::new(C::SchemaInvalid, issue.path, message));
        }
    }
    if let Err(r) = check_payload(policy, messages)
        && r.kind() != RefusalCode::SchemaInvalid
    {
        out.push(CheckError::new(C::NotAllowed, "", format!("{}: {}", r.code(), r.reason())));
    }
    let known = known_dates(facts);
    let mut ctx = Ctx { facts, known: &known, out, catalog, labels: HashMap::new() };
    for (i, message) in messages.iter().enumerate() {
        if let Some(components) = message.pointer("/updateComponents/components").and_then(Value::as_array) {
            ctx.components(&format!("/{i}/updateComponents/components"), components);
        }
        if let Some(dates) = message.pointer(&format!("/updateDataModel/value/{RETURN_DATE}")) {
            ctx.data_dates(&format!("/{i}/updateDataModel/value/{RETURN_DATE}"), dates);
        }
    }
    ctx.out
}

struct Ctx<'a> {
    facts: &'a Facts<'a>,
    known: &'a HashSet<Date>,
    out: Vec<CheckError>,
    catalog: bool,
    /// The text of each button's label, by the label's component id (a button's child).
    labels: HashMap<String, String>,
}

/// Keys whose strings are structure, not words a person reads (catalog mode's walk):
/// the inspector's structure keys and these.
const NOT_WORDS: &[&str] = &["returnType", "displayStyle", "value"];

impl Ctx<'_> {
    fn err(&mut self, code: C, path: impl Into<String>, message: impl Into<String>) {
        self.out.push(CheckError::new(code, path, message));
    }

    /// The text rules over a string a component shows: in catalog mode the composer's
    /// words, else the compiler's (the composer's were checked as blocks).
    fn text(&mut self, value: Option<&Value>, path: String) {
        let said = if self.catalog { Said::Composer } else { Said::Service };
        self.text_as(value, path, said);
    }

    fn text_as(&mut self, value: Option<&Value>, path: String, said: Said) {
        if let Some(t) = value.and_then(Value::as_str) {
            check_text(t, &path, said, self.facts, self.known, &mut self.out);
        }
    }

    /// A text bound to the data model shows a loan's fact (`/form/loans/<loanId>/<fact>`)
    /// or a return date being chosen: nothing else a composer wrote.
    fn binding(&mut self, value: Option<&Value>, path: String) {
        let Some(bound) = value.and_then(|v| v.get("path")).and_then(Value::as_str) else { return };
        let fact = self.facts.loans.iter().any(|l| LOAN_FACTS.iter().any(|f| bound == fact_path(&l.id, f)));
        let date = self.bound_loan(value).is_some();
        if !(fact || date) {
            let message =
                "a text may show only a loan's facts (/form/loans/<loanId>/<fact>) or its new return date";
            self.err(C::DanglingReference, path, message);
        }
    }

    fn components(&mut self, at: &str, components: &[Value]) {
        if components.len() > MAX_COMPONENTS {
            let message = format!("{} components; at most {MAX_COMPONENTS}", components.len());
            self.err(C::TooManyComponents, at, message);
        }
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (j, c) in components.iter().enumerate() {
            let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
            if by_id.insert(id, j).is_some() {
                self.err(C::NoRoot, format!("{at}/{j}/id"), "two components have this id");
            }
        }
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); components.len()];
        for (j, c) in components.iter().enumerate() {
            for (id, path) in references(c, &format!("{at}/{j}")) {
                match by_id.get(id.as_str()) {
                    Some(k) => edges[j].push(*k),
                    None => self.err(C::DanglingReference, path, "this names no component"),
                }
            }
        }
        match by_id.get("root") {
            None => self.err(C::NoRoot, at, "no component has the id root"),
            Some(root) => self.shape(at, &edges, *root),
        }
        for c in components.iter().filter(|c| c.get("component").and_then(Value::as_str) == Some("Button")) {
            let child = c.get("child").and_then(Value::as_str);
            let label = child.and_then(|id| by_id.get(id)).and_then(|k| components[*k].get("text"));
            if let (Some(id), Some(label)) = (child, label.and_then(Value::as_str)) {
                self.labels.insert(id.to_string(), label.to_string());
            }
        }
        for (j, c) in components.iter().enumerate() {
            self.component(&format!("{at}/{j}"), c, components);
        }
        // (the compiler draws each loan in a card of its own, its title literal)
        if let Some(root) = by_id.get("root").filter(|_| self.catalog) {
            self.one_loan_each(at, components, &edges, *root);
        }
    }

    /// What a screen shows of loans comes in units — each outermost Card, and the rest of
    /// the screen outside any Card — and a unit shows one loan at most, with its title
    /// beside anything else of it (a status, a date, a picker, a Renew button), so no
    /// loan's facts can be read as another's.
    fn one_loan_each(&mut self, at: &str, components: &[Value], edges: &[Vec<usize>], root: usize) {
        let card = |k: usize| components[k].get("component").and_then(Value::as_str) == Some("Card");
        // each unit's members, walking down from its top (a component is in one unit only)
        let mut units: Vec<(usize, Vec<usize>)> = vec![(root, Vec::new())];
        let mut seen = vec![false; components.len()];
        let mut u = 0;
        while u < units.len() {
            let mut stack = vec![units[u].0];
            while let Some(k) = stack.pop() {
                if std::mem::replace(&mut seen[k], true) {
                    continue;
                }
                units[u].1.push(k);
                for &child in &edges[k] {
                    if card(child) && u == 0 {
                        units.push((child, Vec::new()));
                    } else {
                        stack.push(child);
                    }
                }
            }
            u += 1;
        }
        for (top, members) in units {
            let shown: Vec<(&str, Option<&str>)> =
                members.iter().filter_map(|k| loan_shown(&components[*k])).collect();
            let loans: HashSet<&str> = shown.iter().map(|(l, _)| *l).collect();
            let path = format!("{at}/{top}");
            if loans.len() > 1 {
                let message =
                    "one part of the screen shows what belongs to two loans: each loan in a card of its own";
                self.err(C::StatedFact, path, message);
            } else if let Some(loan) = loans.iter().next()
                && !shown.iter().any(|(l, fact)| l == loan && *fact == Some("title"))
            {
                let message = "a loan's facts or its Renew are shown without its title: bind /form/loans/<loanId>/title beside them";
                self.err(C::StatedFact, path, message);
            }
        }
    }

    /// Cycles anywhere, and the depth below the root.
    fn shape(&mut self, at: &str, edges: &[Vec<usize>], root: usize) {
        // 0 unseen, 1 on the path, 2 done; height: the longest chain down from a node
        let mut state = vec![0u8; edges.len()];
        let mut height = vec![0usize; edges.len()];
        let mut cycle = None;
        for start in 0..edges.len() {
            let mut stack = vec![(start, 0usize)];
            while let Some((node, next)) = stack.pop() {
                if next == 0 {
                    if state[node] != 0 {
                        continue;
                    }
                    state[node] = 1;
                }
                match edges[node].get(next) {
                    Some(&child) => {
                        stack.push((node, next + 1));
                        match state[child] {
                            0 => stack.push((child, 0)),
                            1 => cycle = cycle.or(Some(node)),
                            _ => {}
                        }
                    }
                    None => {
                        state[node] = 2;
                        height[node] = 1 + edges[node].iter().map(|c| height[*c]).max().unwrap_or(0);
                    }
                }
            }
        }
        if let Some(node) = cycle {
            self.err(C::ReferenceCycle, format!("{at}/{node}"), "components contain each other");
        } else if height[root] > MAX_DEPTH {
            let message = format!("nested {} deep; at most {MAX_DEPTH}", height[root]);
            self.err(C::TooDeep, at, message);
        }
    }

    /// The loan a binding to `/form/returnDate/<loanId>` is for.
    fn bound_loan(&self, binding: Option<&Value>) -> Option<&LoanFacts> {
        let p = binding?.get("path")?.as_str()?;
        self.facts.loans.iter().find(|l| p == format!("/form/{}", return_date_field(&l.id)))
    }

    fn component(&mut self, at: &str, c: &Value, all: &[Value]) {
        if self.catalog {
            // a function computes words no rule could read (formatString, formatDate …)
            for (path, call) in calls(c, at) {
                let message = format!("a text or value may not be computed by {call}: only required checks");
                self.err(C::NotAllowed, path, message);
            }
            // the data model is shown only by a Text (its rules: the fact's loan, its card)
            for path in stray_bindings(c, at) {
                let message = "only a Text may show the data model (a loan's fact, in that loan's card): not a label, a title or an option";
                self.err(C::StatedFact, path, message);
            }
        }
        match c.get("component").and_then(Value::as_str).unwrap_or_default() {
            "Text" => {
                let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
                let heading = matches!(c.get("variant").and_then(Value::as_str), Some("h1" | "h2" | "h3"));
                let said = match (self.catalog, self.labels.contains_key(id), heading) {
                    (false, _, _) => Said::Service,
                    (true, true, _) => Said::Label,
                    (true, false, true) => Said::Title,
                    (true, false, false) => Said::Composer,
                };
                self.text_as(c.get("text"), format!("{at}/text"), said);
                if self.catalog {
                    self.binding(c.get("text"), format!("{at}/text"));
                }
            }
            "DateTimeInput" => {
                self.text(c.get("label"), format!("{at}/label"));
                self.picker(at, c);
            }
            "Button" => self.button(at, c, all),
            _ if !self.catalog => {}
            kind => {
                // another input bound where a renewal's values live would supply them
                let bound = c.pointer("/value/path").and_then(Value::as_str).unwrap_or_default();
                let ours = [RETURN_DATE, LOAN_ID].iter().any(|f| bound.starts_with(&format!("/form/{f}")));
                if ours {
                    let message =
                        format!("a {kind} may not supply a renewal's values: only the loan's date picker");
                    self.err(C::OperationInputs, format!("{at}/value"), message);
                }
                // a literal value is shown as it is (a text field's)
                if c.get("value").is_some_and(Value::is_string) {
                    self.text(c.get("value"), format!("{at}/value"));
                }
            }
        }
        // every other string a catalog component carries (an accessibility label, a check's
        // message, a tab's title …) is the composer's words too; what the arms above read
        // (a Text's text, a picker's label and bounds, a button's action) is theirs
        if self.catalog {
            let read: &[&str] = match c.get("component").and_then(Value::as_str).unwrap_or_default() {
                "Text" => &["text"],
                "DateTimeInput" => &["label", "min", "max", "value"],
                "Button" => &["action"],
                _ => &["value"],
            };
            if let Some(map) = c.as_object() {
                for (k, v) in map.iter().filter(|(k, _)| !read.contains(&k.as_str())) {
                    self.words_in(k, v, &format!("{at}/{k}"));
                }
            }
        }
    }

    /// [`Ctx::words`] of one property, unless its key names structure.
    fn words_in(&mut self, key: &str, v: &Value, at: &str) {
        if !NOT_WORDS.contains(&key) && !a2ui::inspect::STRUCTURE_KEYS.contains(&key) {
            self.words(v, at);
        }
    }

    /// Every string a component shows, through the text rules (catalog mode).
    fn words(&mut self, v: &Value, at: &str) {
        match v {
            Value::Object(map) => {
                let words = |k: &str| !NOT_WORDS.contains(&k) && !a2ui::inspect::STRUCTURE_KEYS.contains(&k);
                for (k, v) in map.iter().filter(|(k, _)| words(k)) {
                    self.words(v, &format!("{at}/{k}"));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    self.words(v, &format!("{at}/{i}"));
                }
            }
            Value::String(t) if !t.is_empty() => self.text(Some(v), at.to_string()),
            _ => {}
        }
    }

    fn picker(&mut self, at: &str, c: &Value) {
        let Some(loan) = self.bound_loan(c.get("value")).cloned() else {
            let message = "a date picker must hold a loan's new return date";
            return self.err(C::OperationInputs, format!("{at}/value"), message);
        };
        let Ok(range) = loan.renewable else {
            return self.err(
                C::NotRenewable,
                format!("{at}/value"),
                "this loan cannot be renewed: no date picker",
            );
        };
        if c.get("enableDate").and_then(Value::as_bool) != Some(true) {
            self.err(
                C::PickerRange,
                format!("{at}/enableDate"),
                "a return date picker picks a date: enableDate true",
            );
        }
        for (key, want) in [("min", range.first), ("max", range.last)] {
            if c.get(key).and_then(Value::as_str) != Some(want.to_string().as_str()) {
                let message = format!("{key} must be {want}, the service's range for this loan");
                self.err(C::PickerRange, format!("{at}/{key}"), message);
            }
        }
        if c.get("enableTime").and_then(Value::as_bool) == Some(true) {
            self.err(C::PickerRange, format!("{at}/enableTime"), "a return date is a date, not a time");
        }
    }

    fn button(&mut self, at: &str, c: &Value, all: &[Value]) {
        let event = c.pointer("/action/event");
        let name = event.and_then(|e| e.get("name")).and_then(Value::as_str).unwrap_or_default();
        let empty = Map::new();
        let context = event.and_then(|e| e.get("context")).and_then(Value::as_object).unwrap_or(&empty);
        let at_ctx = format!("{at}/action/event/context");
        let keys: &[&str] = match name {
            RENEW_LOAN => &[LOAN_ID, RETURN_DATE, FORM_VERSION_KEY],
            FOLLOW_UP => &[REQUEST, FORM_VERSION_KEY],
            forms::action::CANCEL_FORM => &[FORM_VERSION_KEY],
            _ => {
                let message = "only renew_loan, follow_up and cancel_form are registered";
                return self.err(C::OperationNotAllowed, format!("{at}/action/event/name"), message);
            }
        };
        let mut got: Vec<&str> = context.keys().map(String::as_str).collect();
        got.sort_unstable();
        let mut want = keys.to_vec();
        want.sort_unstable();
        if got != want || !context.get(FORM_VERSION_KEY).is_some_and(Value::is_u64) {
            let message = format!("{name} takes exactly {}", keys.join(", "));
            return self.err(C::OperationInputs, at_ctx, message);
        }
        match name {
            RENEW_LOAN => self.renew(&at_ctx, context, all),
            FOLLOW_UP => match context.get(REQUEST) {
                Some(Value::String(request)) => {
                    let path = format!("{at_ctx}/{REQUEST}");
                    self.text_as(context.get(REQUEST), path.clone(), Said::Request);
                    let child = c.get("child").and_then(Value::as_str).unwrap_or_default();
                    let label = self.labels.get(child).cloned().unwrap_or_default();
                    if offers_refused(&label, request, self.facts) {
                        self.out.push(offers_ineligible(path));
                    }
                }
                _ => self.err(C::OperationInputs, format!("{at_ctx}/{REQUEST}"), "a request is literal text"),
            },
            _ => {}
        }
    }

    fn renew(&mut self, at: &str, context: &Map<String, Value>, all: &[Value]) {
        let Some(id) = context.get(LOAN_ID).and_then(Value::as_str) else {
            return self.err(C::OperationInputs, format!("{at}/{LOAN_ID}"), "a loan id is a literal");
        };
        let Some(loan) = self.facts.loan(id) else {
            return self.err(
                C::UnknownLoan,
                format!("{at}/{LOAN_ID}"),
                "no loan of the borrower has this id",
            );
        };
        if loan.renewable.is_err() {
            return self.err(
                C::NotRenewable,
                format!("{at}/{LOAN_ID}"),
                "this loan cannot be renewed: no renew choice",
            );
        }
        let bound = self.bound_loan(context.get(RETURN_DATE)).map(|l| l.id.clone());
        let field = format!("/form/{}", return_date_field(id));
        let has_picker = all.iter().any(|c| {
            c.get("component").and_then(Value::as_str) == Some("DateTimeInput")
                && c.pointer("/value/path").and_then(Value::as_str) == Some(field.as_str())
        });
        if bound.as_deref() != Some(id) || !has_picker {
            let message = "the return date must be bound to this loan's date picker";
            self.err(C::OperationInputs, format!("{at}/{RETURN_DATE}"), message);
        }
    }

    /// Preselected return dates: empty, or inside the loan's range and known.
    fn data_dates(&mut self, at: &str, dates: &Value) {
        let Some(dates) = dates.as_object() else { return };
        for (id, value) in dates {
            let path = format!("{at}/{}", id.replace('~', "~0").replace('/', "~1"));
            let Some(text) = value.as_str() else {
                self.err(C::OperationInputs, path, "a return date is a date (YYYY-MM-DD) or empty");
                continue;
            };
            if text.is_empty() {
                continue;
            }
            let range = self.facts.loan(id).and_then(|l| l.renewable.ok());
            match (range, text.parse::<Date>()) {
                (Some(r), Ok(d)) if r.contains(d) => {
                    if !said_by_student(d, self.facts) {
                        self.out.push(unsaid(path));
                    }
                }
                (Some(r), _) => {
                    let message = format!("the first date must be from {} to {}", r.first, r.last);
                    self.err(C::InitialOutOfRange, path, message);
                }
                (None, _) => self.err(C::UnknownLoan, path, "no renewable loan of the borrower has this id"),
            }
        }
    }
}
