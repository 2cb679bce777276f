//! The offline composer (no model): the same loan screens by rule, through the same
//! compiler and checks, every one labelled as the offline Library's.
//!
//! - The loans a question names are those with the most of their title's words in it
//!   ("the calculus book" → Calculus in Motion); two or more: one question asking which,
//!   the loans listed after it by rule.
//! - One loan named and asked to renew (renew, extend, keep, longer): its card with a date
//!   picker, preselected with a date the student said when it is in the range (a notice
//!   says when it is not); not renewable: its card, which says why, and no renew choice;
//!   not asked to renew: its card and a follow-up to renew it when it can be.
//! - No loan named: every loan, soonest due first, and a follow-up to renew each of the
//!   first three renewable ones.
//!
//! Its own words state no loan fact, like a model's (`words`): the cards say them.

use forms::read::{DateWords, dates_named};

use super::blocks::{Block, Composition, Facts, FollowUp, Order};
use crate::loans::{LoanFacts, OFFLINE_LABEL};
use crate::words::split;

/// Words that ask to renew.
const RENEW: &[&str] = &[
    "renew",
    "renewal",
    "renewed",
    "renewing",
    "renewable",
    "extend",
    "keep",
    "longer",
    "renovar",
    "prolonger",
    "verlangern",
];
/// The notice over one loan's card.
const AS_THE_SERVICE_HAS_IT: &str = "from the loan service.";
/// Follow-ups offered under the list.
const MAX_FOLLOW_UPS: usize = 3;

/// The loans `words` name best (none when no title word is in them): by their titles'
/// distinctive words (`forms::read::books`, as the page reads a date's loan).
fn named<'a>(loans: &'a [LoanFacts], words: &[String]) -> Vec<&'a LoanFacts> {
    let score = |l: &LoanFacts| forms::read::books::title_score(&l.title, words);
    let best = loans.iter().map(score).max().unwrap_or(0);
    if best == 0 {
        return Vec::new();
    }
    loans.iter().filter(|l| score(l) == best).collect()
}

/// Whether `question` asks to renew one of `loans` it names by title ("can I renew my
/// calculus book?", "Renew Calculus in Motion"): a loan question even without "my loans"
/// (a rules question names no title: "how do I renew a book?").
pub fn asks_to_renew_one_of(loans: &[LoanFacts], question: &str) -> bool {
    let words = split(question);
    words.iter().any(|w| RENEW.contains(&w.as_str())) && !named(loans, &words).is_empty()
}

/// The loans `question` names by title (none when it names none).
pub fn named_in<'a>(loans: &'a [LoanFacts], question: &str) -> Vec<&'a LoanFacts> {
    named(loans, &split(question))
}

/// Whether `question` has a word that asks to renew.
pub fn asks_to_renew(question: &str) -> bool {
    split(question).iter().any(|w| RENEW.contains(&w.as_str()))
}

fn notice(text: String) -> Block {
    Block::Notice { text: format!("{OFFLINE_LABEL}: {text}") }
}

fn renew_request(l: &LoanFacts) -> FollowUp {
    FollowUp { label: format!("Renew {}", l.title), request: format!("Renew {}", l.title) }
}

/// The composition for the question in `facts`.
pub fn compose(facts: &Facts<'_>) -> Composition {
    if facts.loans.is_empty() {
        let text = format!("{OFFLINE_LABEL}: what the loan service has for you.");
        return Composition::Answer { text, loan_ids: Vec::new() };
    }
    let words = split(facts.question);
    let renew = words.iter().any(|w| RENEW.contains(&w.as_str()));
    match named(facts.loans, &words).as_slice() {
        [] => overview(facts),
        [one] => one_loan(facts, one, renew),
        many => {
            let question = format!("{OFFLINE_LABEL}: which one do you mean?");
            Composition::Ask { question, loan_ids: many.iter().map(|l| l.id.clone()).collect() }
        }
    }
}

fn overview(facts: &Facts<'_>) -> Composition {
    let mut loans: Vec<&LoanFacts> = facts.loans.iter().collect();
    loans.sort_by_key(|l| l.due);
    let mut blocks = vec![
        notice(AS_THE_SERVICE_HAS_IT.to_string()),
        Block::LoanList {
            loan_ids: loans.iter().map(|l| l.id.clone()).collect(),
            order: Some(Order::DueDate),
        },
    ];
    let buttons: Vec<FollowUp> =
        loans.iter().filter(|l| l.renewable.is_ok()).take(MAX_FOLLOW_UPS).map(|l| renew_request(l)).collect();
    if !buttons.is_empty() {
        blocks.push(Block::FollowUps { buttons });
    }
    Composition::Screen { title: "Your loans".into(), blocks }
}

fn one_loan(facts: &Facts<'_>, loan: &LoanFacts, renew: bool) -> Composition {
    let card = |renew: bool| Block::LoanCard { loan_id: loan.id.clone(), renew };
    let title = "Your loan".to_string();
    let blocks = match (&loan.renewable, renew) {
        (Err(_), _) => vec![notice(AS_THE_SERVICE_HAS_IT.to_string()), card(false)],
        (Ok(range), true) => {
            let said = dates_named(facts.question, facts.today, DateWords::All).into_iter().flatten().next();
            let initial = said.filter(|d| range.contains(*d));
            let text = match said {
                Some(d) if initial.is_none() => format!(
                    "the date you asked for, {d}, is outside the range on the card: choose a new return date and press Renew."
                ),
                _ => "choose a new return date and press Renew.".to_string(),
            };
            let picker = Block::ReturnDatePicker {
                loan_id: loan.id.clone(),
                label: "New return date".into(),
                initial,
            };
            vec![notice(text), card(true), picker]
        }
        (Ok(_), false) => vec![
            notice(AS_THE_SERVICE_HAS_IT.to_string()),
            card(false),
            Block::FollowUps { buttons: vec![renew_request(loan)] },
        ],
    };
    Composition::Screen { title, blocks }
}
