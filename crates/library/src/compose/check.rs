//! The semantic rules over a [`Composition`] (before it is compiled): every loan id the
//! borrower's, a renew choice and a date picker only for a renewable loan and only
//! together, a follow-up that asks to renew only a renewable loan, a preselected date
//! inside the service's range, and in every text no Markdown, no date that is neither in
//! the loan data nor in the student's words, and in the composer's own words no loan fact
//! at all (`words`: the facts are drawn by code). Each failure
//! is a [`CheckError`]: a stable code (`vocab::loans::ComposeCheck`) and a JSON Pointer
//! into the composition, fit to be fed back to a model for repair. The text rules are
//! shared with the checks of the compiled surface (`surface`).

use std::collections::HashSet;

use forms::read::{DateWords, dates_named};
use jiff::civil::Date;
use vocab::loans::ComposeCheck;

use super::blocks::{Block, Composition, Facts};
use super::words::{Said, stated_facts};

/// One broken rule: its code, where (a JSON Pointer into the composition or the compiled
/// messages) and what, in lowercase words without values from the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message} (at {path})", code.as_str())]
pub struct CheckError {
    pub code: ComposeCheck,
    pub path: String,
    pub message: String,
}

impl CheckError {
    pub fn new(code: ComposeCheck, path: impl Into<String>, message: impl Into<String>) -> Self {
        CheckError { code, path: path.into(), message: message.into() }
    }

    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }
}

/// The dates a text may state: each loan's due date and permitted range's ends, today,
/// and every date the student's words name.
pub(super) fn known_dates(facts: &Facts<'_>) -> HashSet<Date> {
    let mut known: HashSet<Date> = facts.loans.iter().map(|l| l.due).collect();
    for l in facts.loans {
        if let Ok(range) = l.renewable {
            known.extend([range.first, range.last]);
        }
    }
    known.insert(facts.today);
    known.extend(dates_named(facts.question, facts.today, DateWords::All).into_iter().flatten());
    known
}

/// What Markdown `text` has, if any: emphasis, code, a link, a heading or a list line.
pub(super) fn markdown(text: &str) -> Option<&'static str> {
    if text.contains("**") || text.contains("__") {
        return Some("emphasis");
    }
    if text.contains('`') {
        return Some("code");
    }
    if let Some(open) = text.find('[')
        && text[open..].contains("](")
    {
        return Some("a link");
    }
    for line in text.lines().map(str::trim_start) {
        if line.starts_with("# ") || line.starts_with("##") {
            return Some("a heading");
        }
        if line.starts_with("- ") || line.starts_with("* ") {
            return Some("a list");
        }
    }
    None
}

/// The text rules: not empty, no Markdown, only known dates, and, as `said`, no loan fact
/// in a composer's own words ([`super::words`]).
pub(super) fn check_text(
    text: &str,
    path: &str,
    said: Said,
    facts: &Facts<'_>,
    known: &HashSet<Date>,
    out: &mut Vec<CheckError>,
) {
    let today = facts.today;
    if text.trim().is_empty() {
        out.push(CheckError::new(ComposeCheck::Empty, path, "the text is empty"));
        return;
    }
    if let Some(what) = markdown(text) {
        let message = format!("the text has markdown ({what}); write plain text");
        out.push(CheckError::new(ComposeCheck::Markdown, path, message));
    }
    for date in dates_named(text, today, DateWords::Calendar) {
        let message = match date {
            Some(d) if known.contains(&d) => continue,
            Some(d) => format!("{d} is neither in the loan data nor in the student's words"),
            None => "the text names a day that does not exist".to_string(),
        };
        out.push(CheckError::new(ComposeCheck::InventedDate, path, message));
    }
    for message in stated_facts(text, facts, known, said) {
        out.push(CheckError::new(ComposeCheck::StatedFact, path, message));
    }
}

/// Whether a follow-up (its `label` and `request`) offers what the loan service would
/// refuse: a loan that cannot be renewed named other than in a question about it ("Renew
/// Physics", "Get more time on Physics": offers; "Why can't I renew Physics?" asks), a
/// renewal that names no loan ("Renew my loans"), or a label naming another loan than
/// its request.
pub(super) fn offers_refused(label: &str, request: &str, facts: &Facts<'_>) -> bool {
    use super::mock::{asks_to_renew, named_in};
    const ASKING: &[&str] = &[
        "why", "how", "can", "could", "may", "when", "what", "is", "will", "would", "should", "do", "does",
        "por", "pourquoi", "warum", "kyun", "kya",
    ];
    // a question starts as one (a label "Renew Physics?" still offers it); a request may
    // also just end with "?"
    let starts_asking =
        |t: &str| forms::read::books::words(t).first().is_some_and(|w| ASKING.contains(&w.as_str()));
    let asking = |t: &str| t.trim_end().ends_with('?') || starts_asking(t);
    let (of_label, of_request) = (named_in(facts.loans, label), named_in(facts.loans, request));
    // a label naming one loan and a request another
    if !of_label.is_empty()
        && !of_request.is_empty()
        && of_label.iter().any(|l| !of_request.iter().any(|r| r.id == l.id))
    {
        return true;
    }
    let mut named = of_label;
    named.extend(of_request);
    if named.is_empty() {
        let offered = (asks_to_renew(label) && !starts_asking(label)) || !asking(request);
        return (asks_to_renew(label) || asks_to_renew(request)) && offered;
    }
    // a loan that cannot be renewed only in a question, label and request both ("Why can't
    // I renew …?"); one that can, never said not to ("Why can't I renew Calculus?")
    let questions = starts_asking(label) && starts_asking(request);
    let denies = |t: &str| {
        let ws = forms::read::books::words(t);
        asks_to_renew(t)
            && ws.iter().any(|w| {
                matches!(w.as_str(), "not" | "cannot" | "can't" | "no" | "never") || w.ends_with("n't")
            })
    };
    named.iter().any(|l| match l.renewable {
        Err(_) => !questions,
        Ok(_) => denies(label) || denies(request),
    })
}

/// [`offers_refused`]'s error.
pub(super) fn offers_ineligible(path: String) -> CheckError {
    let message = "this follow-up offers what the loan service would refuse: a loan that cannot be renewed may only be asked about, a renewal names its loan, and the label names the loan its request does";
    CheckError::new(ComposeCheck::NotRenewable, path, message)
}

/// Whether the student's words name `date`: the only date a picker may start at.
pub(super) fn said_by_student(date: Date, facts: &Facts<'_>) -> bool {
    dates_named(facts.question, facts.today, DateWords::All).contains(&Some(date))
}

/// A preselected date the student did not say.
pub(super) fn unsaid(path: String) -> CheckError {
    let message = "a picker starts at a date the student said, or empty";
    CheckError::new(ComposeCheck::InventedDate, path, message)
}

/// The rules over a words answer or a question (either mode): its words are the
/// composer's, and every loan it is about (or asks between) the borrower's.
pub(super) fn check_answer(
    field: &str,
    text: &str,
    loan_ids: &[String],
    facts: &Facts<'_>,
    known: &HashSet<Date>,
) -> Vec<CheckError> {
    let mut out = Vec::new();
    check_text(text, &format!("/{field}"), Said::Composer, facts, known, &mut out);
    for (i, id) in loan_ids.iter().enumerate() {
        if facts.loan(id).is_none() {
            let message = "no loan of the borrower has this id";
            out.push(CheckError::new(ComposeCheck::UnknownLoan, format!("/loanIds/{i}"), message));
        }
    }
    out
}

/// Every rule over `composition` (empty: it may be compiled).
pub fn check_composition(composition: &Composition, facts: &Facts<'_>) -> Vec<CheckError> {
    let known = known_dates(facts);
    let mut out = Vec::new();
    let text = |t: &str, path: &str, said: Said, out: &mut Vec<CheckError>| {
        check_text(t, path, said, facts, &known, out)
    };
    match composition {
        Composition::Answer { text, loan_ids } => {
            out.extend(check_answer("text", text, loan_ids, facts, &known))
        }
        Composition::Ask { question, loan_ids } => {
            out.extend(check_answer("question", question, loan_ids, facts, &known))
        }
        Composition::Screen { title, blocks } => {
            text(title, "/title", Said::Title, &mut out);
            if blocks.is_empty() {
                out.push(CheckError::new(
                    ComposeCheck::Empty,
                    "/blocks",
                    "a screen needs at least one block",
                ));
            }
            for (i, block) in blocks.iter().enumerate() {
                check_block(block, &format!("/blocks/{i}"), facts, &mut out, &text);
            }
            check_pairs(blocks, &mut out);
        }
    }
    out
}

fn check_block(
    block: &Block,
    at: &str,
    facts: &Facts<'_>,
    out: &mut Vec<CheckError>,
    text: &impl Fn(&str, &str, Said, &mut Vec<CheckError>),
) {
    let loan = |id: &str, path: String, out: &mut Vec<CheckError>| {
        let found = facts.loan(id);
        if found.is_none() {
            out.push(CheckError::new(ComposeCheck::UnknownLoan, path, "no loan of the borrower has this id"));
        }
        found
    };
    match block {
        Block::Notice { text: t } => text(t, &format!("{at}/text"), Said::Composer, out),
        Block::LoanList { loan_ids, .. } => {
            if loan_ids.is_empty() {
                out.push(CheckError::new(
                    ComposeCheck::Empty,
                    format!("{at}/loanIds"),
                    "the list names no loan",
                ));
            }
            let mut seen = HashSet::new();
            for (j, id) in loan_ids.iter().enumerate() {
                let path = format!("{at}/loanIds/{j}");
                if loan(id, path.clone(), out).is_some() && !seen.insert(id) {
                    out.push(CheckError::new(
                        ComposeCheck::DuplicateLoan,
                        path,
                        "the list names this loan twice",
                    ));
                }
            }
        }
        Block::LoanCard { loan_id, renew } => {
            let found = loan(loan_id, format!("{at}/loanId"), out);
            if let Some(l) = found
                && *renew
                && l.renewable.is_err()
            {
                let message = "this loan cannot be renewed: no renew choice";
                out.push(CheckError::new(ComposeCheck::NotRenewable, format!("{at}/renew"), message));
            }
        }
        Block::ReturnDatePicker { loan_id, label, initial } => {
            text(label, &format!("{at}/label"), Said::Composer, out);
            let Some(l) = loan(loan_id, format!("{at}/loanId"), out) else { return };
            match (&l.renewable, initial) {
                (Err(_), _) => {
                    let message = "this loan cannot be renewed: no date picker";
                    out.push(CheckError::new(ComposeCheck::NotRenewable, format!("{at}/loanId"), message));
                }
                (Ok(range), Some(d)) if !range.contains(*d) => {
                    let message = format!("the first date must be from {} to {}", range.first, range.last);
                    out.push(CheckError::new(
                        ComposeCheck::InitialOutOfRange,
                        format!("{at}/initial"),
                        message,
                    ));
                }
                (Ok(_), Some(d)) if !said_by_student(*d, facts) => out.push(unsaid(format!("{at}/initial"))),
                (Ok(_), Some(_)) => {}
                (Ok(_), None) => {}
            }
        }
        Block::FollowUps { buttons } => {
            if buttons.is_empty() {
                out.push(CheckError::new(
                    ComposeCheck::Empty,
                    format!("{at}/buttons"),
                    "no follow-up button",
                ));
            }
            for (j, b) in buttons.iter().enumerate() {
                text(&b.label, &format!("{at}/buttons/{j}/label"), Said::Label, out);
                text(&b.request, &format!("{at}/buttons/{j}/request"), Said::Request, out);
                if offers_refused(&b.label, &b.request, facts) {
                    out.push(offers_ineligible(format!("{at}/buttons/{j}/request")));
                }
            }
        }
    }
}

/// A card with `renew` and a picker come together, once per loan.
fn check_pairs(blocks: &[Block], out: &mut Vec<CheckError>) {
    let mut cards: Vec<(&str, bool)> = Vec::new();
    let mut pickers: Vec<&str> = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let (id, list) = match block {
            Block::LoanCard { loan_id, renew } => {
                cards.push((loan_id.as_str(), *renew));
                (loan_id, cards.iter().map(|c| c.0).collect::<Vec<_>>())
            }
            Block::ReturnDatePicker { loan_id, .. } => {
                pickers.push(loan_id.as_str());
                (loan_id, pickers.clone())
            }
            _ => continue,
        };
        if list.iter().filter(|x| **x == id.as_str()).count() > 1 {
            let message = "a loan has at most one card and one date picker";
            out.push(CheckError::new(ComposeCheck::DuplicateLoan, format!("/blocks/{i}/loanId"), message));
        }
    }
    for (i, block) in blocks.iter().enumerate() {
        match block {
            Block::LoanCard { loan_id, renew: true } if !pickers.contains(&loan_id.as_str()) => {
                let message = "a renew choice needs a returnDatePicker for its loan";
                out.push(CheckError::new(
                    ComposeCheck::RenewWithoutPicker,
                    format!("/blocks/{i}/renew"),
                    message,
                ));
            }
            Block::ReturnDatePicker { loan_id, .. } if !cards.contains(&(loan_id.as_str(), true)) => {
                let message = "a date picker needs a loanCard with renew for its loan";
                out.push(CheckError::new(
                    ComposeCheck::PickerWithoutRenew,
                    format!("/blocks/{i}/loanId"),
                    message,
                ));
            }
            _ => {}
        }
    }
}
