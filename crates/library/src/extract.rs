//! Mock-mode answering: choose one enabled skill, then copy the lines of its saved content
//! that answer the question. Deterministic, no model; nothing is computed or rephrased
//! except one server-written sentence naming the day a date question resolved to.
//!
//! **Words** go through [`crate::words`] (folding, book the noun vs booking, a lexicon of
//! synonyms and Spanish/French/German/Hindi-Hinglish key words, stop words, stemming), and
//! an unknown word is read as the known one a typo away ([`crate::rank`]). What a question
//! asks is read whole by [`crate::question`]: whether the library has a title is the
//! catalogue, and a follow-up ("and for laptops?") keeps the last question's key terms
//! ([`Context::last`]). A line that states an amount of money is a price line.
//!
//! **Choosing the skill.** When the Hub chose a skill ([`Context::hub_skill`], read only
//! from a forward the Hub signed) and that skill is among the given ones with content, it
//! is the skill — unless the Library's own scores tie the Hub's skill with another and the
//! question is nothing but the two skills' names or tags ("printing hours?": Printing and
//! Library hours), when the Library asks between the two. Otherwise the Library picks on
//! its own by skill evidence ([`crate::rank`]: name/tags, description, content, examples
//! as a fallback);
//! the top two really tied ask which one is meant (those two only) — unless only one of
//! them has lines that answer (it answers), or neither has (not saved); no evidence at
//! all is [`Answer::NotCovered`]. A skill without content lines never takes part.
//!
//! **A day** ([`crate::days`]: today, tomorrow, a holiday, the weekend, "this Saturday", a
//! weekday said alone — "on Friday", "el viernes" — in five languages) in a skill whose
//! lines are kept by weekday gives that day's line — the holiday line on a public holiday —
//! after a sentence naming the day; a weekday said as a habit ("on Fridays", "every
//! Friday") is no date and gets the weekly line.
//!
//! **A better line elsewhere** (`better_elsewhere`). The chosen skill answers unless a line
//! of another enabled skill answers the whole question and no line of the chosen skill
//! does — key-term coverage, not scores: that line has the question's words of the
//! chosen topic (name, tags, description), every other term of the question that any
//! enabled line has, and one that no line of the chosen skill has. "What floor is the
//! quiet room on" in Study rooms: the floors line of Finding items has "room", "floor" and
//! "quiet"; "can I borrow a book from another university?" in Borrowing: the interlibrary
//! line has the item and "interlibrary"; "can I place a hold on a book?" in Finding items:
//! "Place a hold …" in Borrowing. The Hub's pick is the topic a question is read in, not a
//! wall: a question with nothing of the chosen skill (no term in its topic or lines) moves
//! when every word of it is in some saved line and the new one is key ("where are the
//! physics books?" in Borrowing: the floors line; "can I renew a book?" in Study rooms:
//! the renewal line; "how do I pay?" in Borrowing stays there, not saved); one that shares
//! only the topic's words with the chosen skill's lines moves for a key term ("how do I
//! cancel a booking?" in Study room booking) or, when every word of it is in the topic or
//! some line, for a term at most two lines have ("where can I study quietly?" in Study
//! rooms: the quiet floor; "add money to my print account" in Printing stays). A line that
//! adds a term but lacks one the question has is not better ("two library books …
//! friday" in Borrowing is not the Friday line). A question with nothing of the chosen
//! topic that names another skill's (by its name or tags) is read in that skill where one
//! of its lines has the rest ("how much is a photocopy?" in Borrowing: the copying prices,
//! not the fines, which are a price too).
//!
//! **Choosing the lines.** *Selectors* are the question's terms found in the chosen skill's
//! content, but for its name's words (naming the topic selects nothing within it) — unless
//! the other selectors find no line of their own. Then, in order:
//! 1. a *key* term ([`crate::words`]: lost, fine, renew, price, limit, …) that neither the
//!    content nor the topic (name, tags, description) of this or any other skill has means
//!    the saved information does not answer it: [`Answer::NotSaved`] ("I lost a library
//!    book" in Borrowing; "how many books can I borrow at once?": a limit, which no line
//!    states) — unless another key term of the question is in the content: then that
//!    part is answered and the reply says the rest is not saved ("what is the fine for
//!    returning a book late?": the fines line). A key term another skill is about is that
//!    skill's part of a mixed question ("print my notes early, when do you open Monday?" in
//!    Library hours);
//! 2. no selectors: the question names the topic ("library hours", "printing prices"):
//!    every line — or, when no term of it is the skill's topic either, [`Answer::NotSaved`].
//!    A term no line of the skill has (nor its topic, nor another skill's) is a detail the
//!    saved information does not state: a topic saved as one answer (a schedule, lines by
//!    weekday, or a single line) is still that answer, all of it, said to be all that is
//!    saved ("library hours over the winter break?");
//!    other skills' lines are separate facts, none about it: not saved ("can I print from
//!    my phone?", "are the study rooms soundproof?");
//! 3. the lines are ranked by BM25 over the selectors. The best line must have a selector
//!    that at most [`MAX_SHARE`] of all lines have (a match on a term most lines share
//!    answers nothing), and a line is kept when it scores at least [`RELATIVE_SCORE`] of
//!    the best and no other line has all its selectors plus one at least as rare (in as
//!    few lines or fewer) as its own rarest (a line matching only an alternative — "item"
//!    for "book" — counts only with a selector of its own): "double-sided" keeps the double-sided price lines and drops the single-sided ones
//!    that share only "sided"; "renew my loan" keeps both renewal lines, since "loan" (in
//!    half the lines) is too common to push one out; "Monday and Tuesday" keeps both.
//!    When one of the lines tied at the best is about nothing else, a line that also has
//!    a key term the question does not is dropped if it is tied at the best too ("reserve
//!    a book that is checked out": the hold line, not the renewal line that mentions
//!    holds) or has no key term of the question ("and for laptops?" alone: the loan
//!    period, not the fines); a line about the question's own key matter stays ("renew my
//!    loan": the renewal line that mentions a hold). Lines found only by the topic's own words
//!    (name, tags, description) where the question names something else no line has: more
//!    lines than such words are not an answer ("can I borrow a calculator?": not saved).
//!
//! Lines are copied verbatim (trailing whitespace trimmed), in content order, without
//! duplicates.

use std::collections::BTreeSet;

use jiff::ZonedDateTime as Zoned;

use crate::days::{self, Days};
pub use crate::rank::SkillText;
use crate::rank::{Index, Line, Profile, hits, line_counts};
pub use crate::reply::{ASK_THE_DESK, Answer, NOT_ALL_SAVED, NOT_COVERED, render};
use crate::reply::{display_name, either};
use crate::words::{english_weekday, is_key};

/// A term in more than this share of all lines cannot make an answer on its own.
pub const MAX_SHARE: f64 = 0.5;
/// A kept line scores at least this share of the best line.
pub const RELATIVE_SCORE: f64 = 0.5;

/// What a question is asked with besides the skills.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    /// Now, in the demo time zone (the Library's clock).
    pub now: Zoned,
    /// The skill the Hub chose, from a forward the Hub signed; `None` for a direct caller.
    pub hub_skill: Option<&'a str>,
    /// The terms the conversation's last question asked ([`asked`]), for a follow-up.
    pub last: Option<&'a [String]>,
}

/// Answers `question` from `skills`, the enabled skills only (the caller filters).
pub fn answer(question: &str, skills: &[SkillText<'_>], context: &Context<'_>) -> Answer {
    let index = Index::new(skills);
    let days = days::asked(question, &context.now);
    let asked = crate::question::asked(&index, question, context.last);
    // a day is evidence for the skill kept by weekday
    let mut evidence = asked.clone();
    for day in days.iter().flat_map(|d| &d.days) {
        evidence.push(english_weekday(day.date.weekday()).to_string());
        if day.holiday.is_some() {
            evidence.push("holiday".into());
        }
    }
    let own = choose(&index, &evidence);
    let hub = context.hub_skill.and_then(|id| index.profile(id));
    let chosen = match (hub, own) {
        (Some(h), Chosen::Tie(tied)) if only_topics(h, &tied, &asked) => return which(&tied),
        (Some(p), _) => p,
        (None, Chosen::One(p)) => p,
        (None, Chosen::Tie(tied)) => return settle(&index, &tied, days.as_ref(), &asked),
        (None, Chosen::None) => return Answer::NotCovered,
    };
    answer_from(&index, chosen, days.as_ref(), &asked)
}

/// The terms `question` asks of `skills` after the conversation's `last` ones: what
/// [`answer`] reads, and what a conversation keeps for its next question.
pub fn asked(question: &str, skills: &[SkillText<'_>], last: Option<&[String]>) -> Vec<String> {
    crate::question::asked(&Index::new(skills), question, last)
}

/// The answer from the chosen skill: the lines of the day asked, else [`select`]'s.
fn answer_from(index: &Index<'_>, chosen: &Profile<'_>, days: Option<&Days>, asked: &[String]) -> Answer {
    if let Some(days) = days
        && let Some(lines) = day_lines(chosen, days)
    {
        let lead = Some(days.lead.clone());
        return Answer::Lines { skill_id: chosen.skill.id.to_string(), lines, lead, partial: false };
    }
    select(index, better_elsewhere(index, chosen, asked).unwrap_or(chosen), asked)
}

/// The enabled skill with a line that answers the whole question where no line of
/// `chosen` does: the Hub's pick is the topic the question is read in, not a wall around
/// it. The line has every term of the question that is `chosen`'s topic, every other term
/// of the question that any enabled line has (or an alternative: "book" in "an item"), and
/// one that no line of `chosen` has — when the question and `chosen`'s lines share nothing
/// but the topic's words, a key term, or a term of a *whole* question (each word in the
/// topic or some saved line) that at most two lines have ("where can I study quietly?" in
/// Study rooms: the quiet floor; "how do I cancel a booking?" in Study room booking:
/// "Cancel a booking online …"; "add money to my print account" in Printing is not "The
/// due date is printed … in your library account": "money" is in no line). A question
/// with nothing of `chosen` at all (no term in its topic or lines) moves only when it is
/// whole and the new term is key: "where are the physics books?" in Borrowing is the
/// floors line (a subject is key), "can I renew a book?" in Study rooms the renewal line,
/// but "how do I pay?" in Borrowing stays there, not saved (paying for prints is not
/// paying a fine). "What floor is the quiet
/// room on" in Study rooms: the floors line of Finding items has "room", "floor" and
/// "quiet"; "can I place a hold on a book?" in Finding items: "Place a hold …" in
/// Borrowing has "place", "hold" and "item".
fn better_elsewhere<'i, 'a>(
    index: &'i Index<'a>,
    chosen: &Profile<'a>,
    asked: &[String],
) -> Option<&'i Profile<'a>> {
    let in_lines = |p: &Profile<'_>, t: &String| p.lines.iter().any(|l| hits(&l.set, t));
    let words: Vec<&String> = asked.iter().filter(|t| !crate::words::is_number(t)).collect();
    let (topic, rest): (Vec<&String>, Vec<&String>) = words.iter().partition(|t| chosen.is_topic(t));
    let shared = rest.iter().any(|t| in_lines(chosen, t));
    // a term is answerable where some line has it, or, in a question with nothing of the
    // chosen topic, where another skill is named by it ("how much is a photocopy?" in
    // Borrowing names Printing, whose lines have the prices)
    let names = |p: &Profile<'_>, t: &String| p.name.contains(t) || p.tags.contains(t);
    let named_elsewhere = |p: &Profile<'_>, t: &String| {
        topic.is_empty()
            && p.skill.id != chosen.skill.id
            && names(p, t)
            && !chosen.is_topic(t)
            && !in_lines(chosen, t)
    };
    let answerable: Vec<&String> = rest
        .into_iter()
        .filter(|t| index.profiles.iter().any(|p| in_lines(p, t) || named_elsewhere(p, t)))
        .collect();
    // every word of the question is the chosen topic's or in some saved line
    let whole = topic.len() + answerable.len() == words.len();
    // with nothing of `chosen` at all, only a whole question with a key term moves
    if topic.is_empty() && !shared && !whole {
        return None;
    }
    // with only the topic's words in common, a key term moves the question, or a term of a
    // whole question that at most two saved lines have ("study quietly": the quiet floor)
    let specific =
        |t: &String| crate::words::is_key(t) || (whole && !topic.is_empty() && index.lines_with(t) <= 2);
    let new = |line: &Line<'_>, t: &&String| {
        line.set.contains(*t) && !in_lines(chosen, t) && (shared || specific(t))
    };
    let answers = |p: &Profile<'_>, line: &Line<'_>| {
        topic.iter().all(|t| line.set.contains(*t))
            && answerable.iter().all(|t| hits(&line.set, t) || named_elsewhere(p, t))
            && answerable.iter().any(|t| new(line, t) || named_elsewhere(p, t))
    };
    index
        .profiles
        .iter()
        .filter(|p| p.skill.id != chosen.skill.id)
        .find(|p| p.lines.iter().any(|l| answers(p, l)))
}

/// Whether the question is nothing but the topics of the `tied` skills (the Hub's among
/// them), another's by words the Hub's skill's name and tags do not have: "printing
/// hours?" names Printing and Library hours and nothing else; "book a study room" names
/// Study rooms and Study room booking by the same words, and "how do I add money to my
/// print account" says more: the Hub's choice stands.
fn only_topics(hub: &Profile<'_>, tied: &[&Profile<'_>], asked: &[String]) -> bool {
    let own = Index::named(hub, asked);
    let others: Vec<&&Profile<'_>> = tied.iter().filter(|p| p.skill.id != hub.skill.id).collect();
    let named_by_some =
        |t: &String| own.contains(t) || others.iter().any(|p| Index::named(p, asked).contains(t));
    others.len() < tied.len()
        && !own.is_empty()
        && asked.iter().all(named_by_some)
        && others.iter().any(|p| !Index::named(p, asked).is_subset(&own))
}

enum Chosen<'i, 'a> {
    One(&'i Profile<'a>),
    Tie(Vec<&'i Profile<'a>>),
    None,
}

fn choose<'i, 'a>(index: &'i Index<'a>, asked: &[String]) -> Chosen<'i, 'a> {
    let scores = index.skill_scores(asked);
    let best = scores.iter().copied().fold(0.0, f64::max);
    if best <= 0.0 {
        return Chosen::None;
    }
    let tied: Vec<&Profile<'a>> = index
        .profiles
        .iter()
        .zip(&scores)
        .filter(|&(_, s)| (best - s).abs() <= best * 1e-9)
        .map(|(p, _)| p)
        .take(2)
        .collect();
    match tied.as_slice() {
        [one] => Chosen::One(one),
        _ => Chosen::Tie(tied),
    }
}

/// A tie of the Library's own pick: the one answer with lines, when only one skill's
/// lines answer (both tied skills may send the question to the same better line); none
/// does: not saved; else ask which one.
fn settle(index: &Index<'_>, tied: &[&Profile<'_>], days: Option<&Days>, asked: &[String]) -> Answer {
    let mut answers: Vec<Answer> = tied.iter().map(|p| answer_from(index, p, days, asked)).collect();
    answers.dedup();
    let mut with_lines = answers.iter().filter(|a| matches!(a, Answer::Lines { .. }));
    match (with_lines.next(), with_lines.next()) {
        (Some(one), None) => one.clone(),
        (None, _) => answers.into_iter().next().unwrap_or(Answer::NotCovered),
        _ => which(tied),
    }
}

fn which(tied: &[&Profile<'_>]) -> Answer {
    Answer::Which {
        skill_ids: tied.iter().map(|p| p.skill.id.to_string()).collect(),
        question: format!("Do you mean {}?", either(tied.iter().map(|p| display_name(&p.skill)))),
    }
}

/// The lines for the days asked, when the skill keeps lines by weekday: each day's
/// weekday line, or the holiday line on a public holiday.
fn day_lines(profile: &Profile<'_>, days: &Days) -> Option<Vec<String>> {
    let by_day = |term: &str| profile.lines.iter().find(|l| l.set.contains(term));
    let weekly = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
    if !weekly.iter().any(|d| by_day(d).is_some()) {
        return None;
    }
    let mut lines: Vec<String> = Vec::new();
    for day in &days.days {
        let holiday = day.holiday.and_then(|_| by_day("holiday"));
        let line = holiday.or_else(|| by_day(english_weekday(day.date.weekday())))?;
        if !lines.iter().any(|l| l == line.text) {
            lines.push(line.text.to_string());
        }
    }
    Some(lines)
}

fn select(index: &Index<'_>, profile: &Profile<'_>, asked: &[String]) -> Answer {
    let id = profile.skill.id.to_string();
    let not_saved = || Answer::NotSaved { skill_id: id.clone() };
    let in_content = |t: &String| profile.lines.iter().any(|l| hits(&l.set, t));
    let elsewhere =
        |t: &String| index.profiles.iter().any(|p| p.skill.id != profile.skill.id && p.is_topic(t));
    let unanswered = |t: &String| is_key(t) && !in_content(t) && !profile.is_topic(t) && !elsewhere(t);
    let partial = asked.iter().any(unanswered);
    if partial && !asked.iter().any(|t| is_key(t) && in_content(t)) {
        return not_saved();
    }
    // the part of a mixed question the content answers ("the fine for returning late":
    // the fines line, and a word that the rest is not saved)
    let kept: Vec<String>;
    let asked = if partial {
        kept = asked.iter().filter(|t| !unanswered(t)).cloned().collect();
        kept.as_slice()
    } else {
        asked
    };
    let mut selectors: Vec<&String> = asked
        .iter()
        .filter(|t| in_content(t) && !profile.name.contains(*t) && !crate::words::is_number(t))
        .collect();
    // a name word selects too when the others find no line of their own ("request a book"
    // in Finding and requesting items: "book" is only an item there)
    let direct = |sel: &[&String]| profile.lines.iter().any(|l| sel.iter().any(|t| l.set.contains(*t)));
    if !selectors.is_empty() && !direct(&selectors) {
        selectors = asked.iter().filter(|t| in_content(t) && !crate::words::is_number(t)).collect();
    }
    // a term of the question this skill neither has nor is about (nor another skill is: that
    // is that skill's part of a mixed question)
    let unmatched: Vec<&String> = asked
        .iter()
        .filter(|t| !crate::words::is_number(t) && !in_content(t) && !profile.is_topic(t) && !elsewhere(t))
        .collect();
    if selectors.is_empty() {
        // a topic saved as one answer — a schedule (lines by weekday) or a single line — is
        // that answer, said to be all that is saved, when the question names a detail no line
        // has ("library hours over the winter break?", "did someone hand in my umbrella?" in
        // a one-line lost property topic); several separate facts are none of them about such
        // a detail ("can I print from my phone?", "can I print from my laptop?")
        let schedule = profile.lines.iter().any(|l| l.set.iter().any(|t| crate::words::weekday(t).is_some()));
        let one_answer = schedule || profile.lines.len() == 1;
        let detail = !one_answer && !unmatched.is_empty();
        if !asked.iter().any(|t| profile.is_topic(t)) || detail {
            return not_saved();
        }
        let mut seen = BTreeSet::new();
        let lines =
            profile.lines.iter().filter(|l| seen.insert(l.text)).map(|l| l.text.to_string()).collect();
        return Answer::Lines { skill_id: id, lines, lead: None, partial: partial || !unmatched.is_empty() };
    }
    // a line that has none of the selectors themselves, only an alternative ("item" for
    // "book"), is not about the question
    let direct: Vec<bool> =
        profile.lines.iter().map(|l| selectors.iter().any(|t| l.set.contains(*t))).collect();
    let scores: Vec<f64> = index
        .line_scores(profile, &selectors)
        .into_iter()
        .zip(&direct)
        .map(|(s, d)| if *d { s } else { 0.0 })
        .collect();
    let best = scores.iter().copied().fold(0.0, f64::max);
    let top = scores.iter().position(|s| *s == best).unwrap_or(0);
    if best <= 0.0
        || !selectors.iter().any(|t| hits(&profile.lines[top].set, t) && index.share(t) <= MAX_SHARE)
    {
        return not_saved();
    }
    let hit_sets: Vec<BTreeSet<&String>> = profile
        .lines
        .iter()
        .zip(&direct)
        .map(|(l, d)| selectors.iter().copied().filter(|t| *d && hits(&l.set, t)).collect())
        .collect();
    // how many lines each selector is in: the fewer, the more specific
    let counts = line_counts(&hit_sets);
    let rarest = |set: &mut dyn Iterator<Item = &&String>| set.map(|t| counts[*t]).min();
    let distinct: BTreeSet<&BTreeSet<&String>> = hit_sets.iter().filter(|h| !h.is_empty()).collect();
    let outranked = |h: &BTreeSet<&String>| {
        distinct.iter().any(|o| {
            o.len() > h.len() && o.is_superset(h) && rarest(&mut o.difference(h)) <= rarest(&mut h.iter())
        })
    };
    let mut seen = BTreeSet::new();
    let lines: Vec<String> = profile
        .lines
        .iter()
        .zip(&hit_sets)
        .zip(&scores)
        .filter(|((_, h), s)| !h.is_empty() && **s >= best * RELATIVE_SCORE && !outranked(h))
        .filter(|((l, _), _)| seen.insert(l.text))
        .map(|((l, _), _)| l.text.to_string())
        .collect();
    // when one of the lines the question finds best is about nothing else, a line about
    // another key matter is not the answer: one tied at the best ("reserve a book that is
    // checked out": the hold line, not the renewal line that mentions a hold), or one
    // with no key term of the question ("laptops?": the loan period, not the fines) — but
    // a line about the question's own key matter that mentions another stays ("renew my
    // loan": the renewal line that mentions a hold)
    let extra_key = |l: &Line<'_>| l.set.iter().any(|t| is_key(t) && !asked.contains(t));
    let own_key = |l: &Line<'_>| asked.iter().any(|t| is_key(t) && l.set.contains(t));
    let best_lines: Vec<&Line<'_>> = profile
        .lines
        .iter()
        .zip(&scores)
        .filter(|(_, s)| (best - **s).abs() <= best * 1e-9)
        .map(|(l, _)| l)
        .collect();
    let mut lines = lines;
    if best_lines.iter().any(|l| !extra_key(l)) {
        let best = |l: &Line<'_>| best_lines.iter().any(|b| b.text == l.text);
        let off: Vec<&str> = profile
            .lines
            .iter()
            .filter(|l| extra_key(l) && (best(l) || !own_key(l)))
            .map(|l| l.text)
            .collect();
        lines.retain(|l| !off.contains(&l.as_str()));
    }
    // lines found only by the topic's own words, where the question names something else
    // too: more lines than those words are the topic, not an answer ("can I borrow a
    // calculator?": no loan line is about calculators); a line for each word is ("the
    // catalogue and the databases": one line each)
    if !unmatched.is_empty() && selectors.iter().all(|t| profile.is_topic(t)) && lines.len() > selectors.len()
    {
        return not_saved();
    }
    Answer::Lines { skill_id: id, lines, lead: None, partial }
}

#[cfg(test)]
mod table;
#[cfg(test)]
pub(crate) mod tests;
