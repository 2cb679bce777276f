//! Accepting a composition: the block rules, then the compiler, then the rules again over
//! the compiled messages ([`accept`]); and the repair loop ([`compose_checked`]): a
//! failing composition is handed back to its composer with its errors, at most
//! [`MAX_REPAIRS`] times; what still fails is the caller's to answer in honest words
//! ([`unrepaired_text`]), never with a prewritten screen.

use jiff::civil::Date;
use serde_json::Value;
use vocab::loans::ComposeCheck;

use super::blocks::{Block, Composition, Facts};
use super::check::{CheckError, check_composition};
use super::compile::{Surface, compile};
use super::surface::check_surface;
use crate::loans::{LoanFacts, labelled};

/// How many times a failing composition is handed back.
pub const MAX_REPAIRS: usize = 2;

/// A composition that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub enum Composed {
    /// Words to send as they are.
    Answer(String),
    /// One question to ask.
    Ask(String),
    /// A screen whose messages passed the checks and the official schema.
    Screen(Surface),
}

/// Where a screen is drawn: its surface and the form version its buttons carry.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub surface_id: &'a str,
    pub version: u32,
}

/// A composer's JSON read as a [`Composition`]; `blocks_invalid` at the place it breaks
/// the shape.
pub fn parse(value: &Value) -> Result<Composition, CheckError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let mut path = String::new();
        for segment in e.path().iter() {
            use serde_path_to_error::Segment;
            match segment {
                Segment::Seq { index } => path.push_str(&format!("/{index}")),
                Segment::Map { key } => {
                    path.push_str(&format!("/{}", key.replace('~', "~0").replace('/', "~1")))
                }
                Segment::Enum { .. } | Segment::Unknown => {}
            }
        }
        // a tagged enum is read whole: find the block that breaks the shape
        let block = value.get("blocks").and_then(Value::as_array).and_then(|blocks| {
            blocks.iter().enumerate().find_map(|(i, b)| {
                serde_json::from_value::<Block>(b.clone())
                    .err()
                    .map(|e| (format!("/blocks/{i}"), e.to_string()))
            })
        });
        let (path, message) = block.unwrap_or_else(|| (path, e.inner().to_string()));
        let message = message.to_lowercase().replace('`', "'");
        CheckError::new(ComposeCheck::BlocksInvalid, path, message)
    })
}

/// Every check of `composition`; a screen is compiled for `target` and checked again.
pub fn accept(
    composition: &Composition,
    facts: &Facts<'_>,
    target: Target<'_>,
) -> Result<Composed, Vec<CheckError>> {
    let errors = check_composition(composition, facts);
    if !errors.is_empty() {
        return Err(errors);
    }
    match composition {
        Composition::Answer { text, loan_ids } => Ok(Composed::Answer(answered(text, loan_ids, facts))),
        Composition::Ask { question, loan_ids } => Ok(Composed::Ask(asked(question, loan_ids, facts))),
        Composition::Screen { title, blocks } => {
            let surface = compile(title, blocks, facts, target.surface_id, target.version);
            let errors = check_surface(&surface.messages, facts);
            if errors.is_empty() { Ok(Composed::Screen(surface)) } else { Err(errors) }
        }
    }
}

/// A words answer as sent: the composer's `text`, then the lines of the loans it names
/// (`loan_ids`, checked), written by rule.
pub(super) fn answered(text: &str, loan_ids: &[String], facts: &Facts<'_>) -> String {
    let mut about: Vec<&LoanFacts> = Vec::new();
    for l in loan_ids.iter().filter_map(|id| facts.loan(id)) {
        if !about.iter().any(|a| a.id == l.id) {
            about.push(l);
        }
    }
    crate::loans::framed(text, &about, !facts.loans.is_empty())
}

/// A question as sent: the composer's `question`, then the titles of the loans it asks
/// between (`loan_ids`, checked), by rule.
pub(super) fn asked(question: &str, loan_ids: &[String], facts: &Facts<'_>) -> String {
    let mut text = question.trim_end().to_string();
    let mut seen: Vec<&str> = Vec::new();
    for l in loan_ids.iter().filter_map(|id| facts.loan(id)) {
        if !seen.contains(&l.id.as_str()) {
            seen.push(&l.id);
            text.push_str(&format!("\n- {}", l.title));
        }
    }
    text
}

/// A composition of either mode, as the repair loop and the Library see it.
pub trait Written: Clone {
    /// Every check; a screen is drawn for `target` and checked again as A2UI.
    fn accept(&self, facts: &Facts<'_>, target: Target<'_>) -> Result<Composed, Vec<CheckError>>;
    /// The messages of a screen that passed, drawn for `surface_id` at `version` (the
    /// same as [`Written::accept`] drew, for the form's own surface); `None` for words.
    fn draw(&self, facts: &Facts<'_>, surface_id: &str, version: u32) -> Option<Vec<Value>>;
    /// A screen's title.
    fn title(&self) -> Option<&str>;
    /// `answer`, `ask` or `screen`.
    fn decision(&self) -> &'static str;
}

impl Written for Composition {
    fn accept(&self, facts: &Facts<'_>, target: Target<'_>) -> Result<Composed, Vec<CheckError>> {
        accept(self, facts, target)
    }

    fn draw(&self, facts: &Facts<'_>, surface_id: &str, version: u32) -> Option<Vec<Value>> {
        match self {
            Composition::Screen { title, blocks } => {
                Some(compile(title, blocks, facts, surface_id, version).messages)
            }
            _ => None,
        }
    }

    fn title(&self) -> Option<&str> {
        match self {
            Composition::Screen { title, .. } => Some(title),
            _ => None,
        }
    }

    fn decision(&self) -> &'static str {
        match self {
            Composition::Answer { .. } => "answer",
            Composition::Ask { .. } => "ask",
            Composition::Screen { .. } => "screen",
        }
    }
}

/// What one composer attempt gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<W = Composition> {
    /// A composition to check.
    Composed(W),
    /// A reply that is no composition, with where and why (a failed attempt).
    Unreadable(CheckError),
    /// The composer cannot go on (its model failed): no more attempts.
    Stop,
}

/// What the repair loop came to: each attempt's errors in order (an accepted attempt's
/// are empty), and the composition accepted with what it came to, or the last errors.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<W = Composition> {
    pub attempts: Vec<Vec<CheckError>>,
    pub outcome: Result<(W, Composed), Vec<CheckError>>,
}

impl<W> Checked<W> {
    /// How many times a failing composition was handed back.
    pub fn repairs(&self) -> usize {
        self.attempts.len().saturating_sub(1)
    }
}

/// Asks `compose` (given the last attempt's errors, none the first time) until a
/// composition passes [`accept`], at most `max_repairs` times after the first; the last
/// attempt's errors when none did. A composer that cannot give a composition says why
/// with its own error (an unreadable reply: [`parse`]'s), which counts as a failed attempt.
/// The composer is async (a model call); one that cannot go on at all (the model could not
/// be reached) returns [`Step::Stop`], and the loop ends there with what it has.
pub async fn compose_checked<W, F, Fut>(
    facts: &Facts<'_>,
    target: Target<'_>,
    mut compose: F,
    max_repairs: usize,
) -> Checked<W>
where
    W: Written,
    F: FnMut(Vec<CheckError>) -> Fut,
    Fut: std::future::Future<Output = Step<W>>,
{
    let mut attempts: Vec<Vec<CheckError>> = Vec::new();
    let mut errors: Vec<CheckError> = Vec::new();
    for _ in 0..=max_repairs {
        let attempt = match compose(errors.clone()).await {
            Step::Composed(c) => Ok(c),
            Step::Unreadable(e) => Err(e),
            Step::Stop => return Checked { attempts, outcome: Err(errors) },
        };
        errors = match attempt {
            Ok(composition) => match composition.accept(facts, target) {
                Ok(done) => {
                    attempts.push(Vec::new());
                    return Checked { attempts, outcome: Ok((composition, done)) };
                }
                Err(errors) => errors,
            },
            Err(e) => vec![e],
        };
        attempts.push(errors.clone());
    }
    Checked { attempts, outcome: Err(errors) }
}

/// The honest reply when no composition passed: the loan service's facts in words, saying
/// that no screen could be drawn.
pub fn unrepaired_text(loans: &[LoanFacts], today: Date) -> String {
    labelled(
        "I could not draw a screen for this that passes the Library's checks, so here it is in words",
        loans,
        today,
    )
}
