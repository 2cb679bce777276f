//! What a composer's words claim about the loans they name, checked against the loan
//! service's facts (`mismatched_fact`): a sentence may not give a loan another loan's date
//! (written out or said as a day: "tomorrow", "on Saturday"), call a loan renewable that is
//! not or the other way round (clause by clause, for every loan a clause names), or state
//! a count the data does not give (a count of overdue, held, renewable … loans is that
//! count). Read sentence by sentence; a loan is named by its title (without a parenthesis
//! such as "(course reserve)"), its id, or its title's distinctive words ("the chemistry
//! book"). English wording: a claim in other words passes here, and the facts on a screen
//! come from the blocks, never from the words.

use std::collections::HashSet;

use super::blocks::Facts;
use crate::loans::{LoanFacts, MAX_RENEWALS, RANGE_DAYS};
use forms::read::books::words;
use forms::read::{DateWords, dates_named};
use jiff::civil::Date;

/// Words that make a clause say a loan can (or, negated, cannot) be renewed: "renewable",
/// "eligible", or a form of "renew" or "extend" beside one of [`ABLE`].
const ELIGIBLE: [&str; 2] = ["renewable", "eligible"];
const ABLE: [&str; 6] = ["can", "able", "possible", "may", "allowed", "could"];
/// Words that negate such a clause.
const NEGATED: [&str; 15] = [
    "not",
    "cannot",
    "can't",
    "no longer",
    "unable",
    "ineligible",
    "isn't",
    "won't",
    "never",
    "impossible",
    "no renewals",
    "aren't",
    "none",
    "nothing",
    "no",
];

/// What a counted noun counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    Loans,
    Renewals,
    Days,
    Weeks,
}

fn counted(word: &str) -> Option<Counted> {
    Some(match word {
        "loan" | "loans" | "book" | "books" | "item" | "items" | "title" | "titles" => Counted::Loans,
        "renewal" | "renewals" | "time" | "times" => Counted::Renewals,
        "day" | "days" => Counted::Days,
        "week" | "weeks" => Counted::Weeks,
        _ => return None,
    })
}

fn number(word: &str) -> Option<i64> {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    if (1..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    match word {
        "no" | "none" => return Some(0),
        "once" => return Some(1),
        "twice" => return Some(2),
        _ => {}
    }
    WORDS.iter().position(|w| *w == word).map(|i| i as i64)
}

/// The sentences of `text` (`forms::fill::sentences`), split again at `;` and line ends.
fn sentences(text: &str) -> Vec<&str> {
    forms::fill::sentences(text)
        .into_iter()
        .flat_map(|s| s.split([';', '\n']))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// A loan's title as a sentence names it: lowercase, without a parenthesis.
fn title_core(l: &LoanFacts) -> String {
    let t = l.title.split('(').next().unwrap_or(&l.title);
    t.trim().to_lowercase()
}

/// Words that speak of every loan at once ("all your books are due …").
const EVERY: [&str; 9] = [
    "all your",
    "all of your",
    "every book",
    "every loan",
    "each of your",
    "everything",
    "all of them",
    "all the books",
    "all books",
];

/// The loans `sentence` (lowercase) names — by its whole title, its id, or the way people
/// call it ("the chemistry book": its title's distinctive words, as the offline composer
/// reads a question) — and whether it speaks of every one at once.
fn named<'a>(sentence: &str, loans: &'a [LoanFacts]) -> (Vec<&'a LoanFacts>, bool) {
    if speaks_of_every(sentence) {
        return (loans.iter().collect(), true);
    }
    let mut named: Vec<&LoanFacts> = loans
        .iter()
        .filter(|l| {
            let core = title_core(l);
            (!core.is_empty() && sentence.contains(&core)) || sentence.contains(&l.id.to_lowercase())
        })
        .collect();
    if named.is_empty() {
        named = super::mock::named_in(loans, sentence);
    }
    (named, false)
}

/// Whether a sentence (lowercase) speaks of every loan at once: "all your books", "your
/// loans", "all six books", "… are all due", "none of them", "nothing you have out",
/// "any of your books".
fn speaks_of_every(sentence: &str) -> bool {
    if EVERY.iter().any(|w| sentence.contains(w)) {
        return true;
    }
    let ws = words(sentence);
    let loan_word = |w: &str| matches!(w, "books" | "loans" | "items" | "titles");
    ws.iter().enumerate().any(|(i, w)| {
        let next = |k: usize| ws.get(i + k).map(String::as_str).unwrap_or_default();
        match w.as_str() {
            // "your books", "your loans"
            // ("three of your books" counts some of them: the count says how many)
            "your" => loan_word(next(1)) && !(i > 0 && ws[i - 1] == "of"),
            // "all six books", "all the books", "are all due"
            "all" => loan_word(next(1)) || loan_word(next(2)) || (i > 0 && ws[i - 1] == "are"),
            "none" | "nothing" | "anything" | "any" | "every" | "each" => true,
            _ => false,
        }
    })
}

/// Words that state a limit rather than a loan's count ("up to 2 times", "1 of 2").
const LIMIT: [&str; 5] = ["up to", "at most", "maximum", "limit", "no more than"];

/// The counts of loans the data gives: all, renewable, not, by each reason, and those
/// whose title has one of `words`.
fn loan_counts(loans: &[LoanFacts], words: &[String]) -> HashSet<i64> {
    let n = |f: &dyn Fn(&LoanFacts) -> bool| loans.iter().filter(|l| f(l)).count() as i64;
    let mut counts: HashSet<i64> = HashSet::from([1, loans.len() as i64]);
    counts.insert(n(&|l| l.renewable.is_ok()));
    counts.insert(n(&|l| l.renewable.is_err()));
    for reason in vocab::loans::NotRenewable::ALL {
        counts.insert(n(&|l| l.renewable.err() == Some(reason)));
    }
    for w in words.iter().filter(|w| w.len() >= 4) {
        counts.insert(n(&|l| l.title.to_lowercase().contains(w.as_str())));
    }
    counts
}

/// The clauses of a sentence (lowercase): split at ", but", "but", "while", "whereas",
/// "although" and ":".
fn clauses(sentence: &str) -> Vec<&str> {
    let mut parts = vec![sentence];
    for cut in [" but ", " while ", " whereas ", " although ", ": ", ", and "] {
        parts = parts.into_iter().flat_map(|p| p.split(cut)).collect();
    }
    parts
}

/// What a clause (lowercase) says of renewing: `Some(true)` can, `Some(false)` cannot,
/// `None` nothing (a past renewal — "was renewed 2 times" — is no claim).
fn says_renewable(clause: &str) -> Option<bool> {
    let ws = words(clause);
    let has = |w: &str| ws.iter().any(|x| x == w);
    let renewing = ws.iter().any(|w| w.starts_with("renew") || w.starts_with("extend"));
    // what was done is history, not eligibility ("it has been renewed 2 times")
    if ["been renewed", "was renewed", "were renewed", "renewed it"].iter().any(|h| clause.contains(h)) {
        return None;
    }
    let modal = ABLE.iter().chain(&["cannot", "can't", "unable", "won't"]).any(|w| has(w));
    // "renew the chemistry book by pressing Renew": an offer to renew says it can be
    let offered = ws.first().is_some_and(|w| w == "renew" || w == "extend");
    let claim = ELIGIBLE.iter().any(|w| clause.contains(w)) || (renewing && (modal || offered));
    if !claim {
        return None;
    }
    let negated =
        NEGATED.iter().any(|n| if n.contains(' ') || n.contains('\'') { clause.contains(n) } else { has(n) });
    Some(!negated)
}

/// The days a sentence names: the written dates, or else its day words ("tomorrow",
/// "Saturday", "in 3 days").
fn dates_in(sentence: &str, today: Date) -> Vec<Date> {
    let written = dates_named(sentence, today, DateWords::Calendar);
    let named = if written.is_empty() { dates_named(sentence, today, DateWords::All) } else { written };
    named.into_iter().flatten().collect()
}

/// What a count of loans in a sentence (lowercase) counts, when it says: overdue, on
/// hold, a course reserve, at the renewal limit, (not) renewable.
#[allow(clippy::type_complexity)]
fn category(sentence: &str) -> Option<fn(&LoanFacts, Date) -> bool> {
    use vocab::loans::NotRenewable as R;
    if sentence.contains("overdue") || sentence.contains("late") {
        return Some(|l, today| l.due < today);
    }
    if sentence.contains("hold") {
        return Some(|l, _| l.renewable.err() == Some(R::Hold));
    }
    if sentence.contains("reserve") {
        return Some(|l, _| l.renewable.err() == Some(R::CourseReserve));
    }
    if sentence.contains("limit") {
        return Some(|l, _| l.renewable.err() == Some(R::LimitReached));
    }
    match says_renewable(sentence) {
        Some(true) => Some(|l, _| l.renewable.is_ok()),
        Some(false) => Some(|l, _| l.renewable.is_err()),
        None => None,
    }
}

/// What one text claims that the loan data does not say (see the module), each in words
/// for a `mismatched_fact` error; `known` the dates any text may state.
pub(super) fn check_claims(text: &str, facts: &Facts<'_>, known: &HashSet<Date>) -> Vec<String> {
    let mut wrong = Vec::new();
    let asked: HashSet<i64> = words(facts.question).iter().filter_map(|w| number(w)).collect();
    for sentence in sentences(text) {
        let lower = sentence.to_lowercase();
        let (loans, every) = named(&lower, facts.loans);
        if !loans.is_empty() {
            // a date beside a loan is one of that loan's (or today's, or the student's); said
            // of every loan, one of each one's
            let dates_of = |l: &LoanFacts| {
                let mut d = vec![l.due];
                if let Ok(r) = l.renewable {
                    d.extend([r.first, r.last]);
                }
                d
            };
            let theirs: HashSet<Date> = match every {
                false => loans.iter().flat_map(|l| dates_of(l)).collect(),
                true => {
                    let each: Vec<HashSet<Date>> =
                        loans.iter().map(|l| dates_of(l).into_iter().collect()).collect();
                    let first = each.first().cloned().unwrap_or_default();
                    first.into_iter().filter(|d| each.iter().all(|e| e.contains(d))).collect()
                }
            };
            // (a written date the data does not have at all is `invented_date`'s)
            let written = !dates_named(sentence, facts.today, DateWords::Calendar).is_empty();
            for date in dates_in(sentence, facts.today) {
                let own_or_asked = theirs.contains(&date)
                    || date == facts.today
                    || dates_named(facts.question, facts.today, DateWords::All).contains(&Some(date));
                if !own_or_asked && (known.contains(&date) || !written) {
                    wrong.push(format!("{date} is not a date of the loan this sentence names"));
                }
            }
        } else {
            // a day said in words ("tomorrow", "on Saturday") is checked like a written one
            let written = dates_named(sentence, facts.today, DateWords::Calendar);
            if written.is_empty() {
                for date in dates_in(sentence, facts.today) {
                    if !known.contains(&date) {
                        wrong.push(format!("{date} is neither in the loan data nor in the student's words"));
                    }
                }
            }
        }
        // eligibility, clause by clause: what a clause says of renewing holds for every loan
        // it names (a clause naming none speaks of the one before it: "…, but it can be")
        let mut before: Vec<&LoanFacts> = Vec::new();
        for clause in clauses(&lower) {
            let (mut of, _) = named(clause, facts.loans);
            if of.is_empty() {
                of = before.clone();
            }
            before = of.clone();
            // "X is overdue" (or "not overdue") of the loans the clause names
            if clause.contains("overdue") {
                let late = !NEGATED.iter().any(|n| words(clause).iter().any(|w| w == n));
                if of.iter().any(|l| (l.due < facts.today) != late) {
                    wrong.push(
                        "the sentence says a loan is overdue that is not, or the other way round".into(),
                    );
                }
            }
            let Some(renewable) = says_renewable(clause) else { continue };
            // "only the calculus book can be renewed": no other loan can
            let only = words(clause).iter().any(|w| w == "only" || w == "just");
            let others = facts.loans.iter().any(|l| l.renewable.is_ok() && !of.iter().any(|o| o.id == l.id));
            if only && renewable && others {
                wrong.push("the sentence says only some loans can be renewed, but others can too".into());
            }
            if of.iter().any(|l| l.renewable.is_ok() != renewable) {
                let message = match renewable {
                    true => "the sentence says a loan that cannot be renewed can be",
                    false => "the sentence says a renewable loan cannot be renewed",
                };
                wrong.push(message.into());
            }
        }
        // counts: a number before what it counts (within two words); beside a named loan,
        // that loan's own (a limit said as one — "up to 2", "1 of 2" — is the rule's)
        let limit = LIMIT.iter().any(|w| lower.contains(w));
        let until = |d: Date| i64::from((d - facts.today).get_days());
        let days_of = |l: &LoanFacts| {
            let mut d = vec![until(l.due)];
            if let Ok(r) = l.renewable {
                d.push(until(r.last));
            }
            d
        };
        // a count is of what its own part of the sentence speaks of
        for part in lower.split(',').flat_map(clauses) {
            let ws = words(part);
            for (i, w) in ws.iter().enumerate() {
                // "in a week", "a day": one
                let a = matches!(w.as_str(), "a" | "an")
                    && ws.get(i + 1).is_some_and(|x| matches!(x.as_str(), "day" | "week"));
                let Some(n) = number(w).or(a.then_some(1)) else { continue };
                // "renewed twice", "renewed once"
                let times = matches!(w.as_str(), "once" | "twice") && i > 0 && ws[i - 1].starts_with("renew");
                let noun = ws.iter().skip(i + 1).take(3).find_map(|w| counted(w));
                let Some(kind) = noun.or(times.then_some(Counted::Renewals)) else { continue };
                if asked.contains(&n) {
                    continue;
                }
                let of = i > 0 && ws[i - 1] == "of";
                let max = i64::from(MAX_RENEWALS);
                let ok = match kind {
                    Counted::Loans => match category(part) {
                        Some(pick) => n == facts.loans.iter().filter(|l| pick(l, facts.today)).count() as i64,
                        None => loan_counts(facts.loans, &ws).contains(&n),
                    },
                    Counted::Renewals if loans.is_empty() => (0..=max).contains(&n),
                    Counted::Renewals => {
                        // "2 renewals left" counts what is left, "renewed 2 times" what was used
                        let left =
                            ["left", "remaining", "more", "still"].iter().any(|w| ws.iter().any(|x| x == w));
                        (n == max && (limit || of))
                            || loans.iter().any(|l| {
                                let used = i64::from(l.renewals_used);
                                n == if left { max - used } else { used }
                            })
                    }
                    Counted::Days if loans.is_empty() => {
                        [1, 7, 14, RANGE_DAYS, 28].contains(&n)
                            || facts.loans.iter().any(|l| days_of(l).contains(&n))
                    }
                    Counted::Days => n == RANGE_DAYS || loans.iter().any(|l| days_of(l).contains(&n)),
                    Counted::Weeks if loans.is_empty() => (1..=4).contains(&n),
                    Counted::Weeks => {
                        n * 7 == RANGE_DAYS
                            || loans.iter().any(|l| days_of(l).iter().any(|d| (d - n * 7).abs() <= 1))
                    }
                };
                if !ok {
                    let what = match kind {
                        Counted::Loans => "loans",
                        Counted::Renewals => "renewals",
                        Counted::Days => "days",
                        Counted::Weeks => "weeks",
                    };
                    wrong.push(format!("a number of {what} that the loan data does not give"));
                }
            }
        }
    }
    wrong
}
