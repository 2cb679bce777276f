//! What a composer's own words may say of the loans: nothing (`stated_fact`). Every
//! date, count and eligibility a loan answer shows is the service's, put there by code — a
//! loan card or list the compiler draws, a text bound to `/form/loans/<loanId>/…` in
//! catalog mode, the lines a words answer or a question gets by rule for the loans it
//! names in `loanIds` — so a composer's title, notice, question or answer frames them and
//! says nothing of any loan:
//!
//! - it names no loan and points at none: no title, no title's own words ("the chemistry
//!   book"), no id, no "book", "loan", "copy", "it", "them" (a title may say "Your
//!   loans"; "the loan service" is the service's name);
//! - no date, written or said as a day, a month or a span ("tomorrow", "on Christmas", "in
//!   a fortnight", "until January"), unless the student's own words named it;
//! - no number the student did not say; no word of a loan's state (renewable, renewed,
//!   overdue, late, a hold, a reserve, a limit, a fine, blocked, waiting, more time …) in
//!   the five languages of the campus; no word of how many ("none", "all", "everything");
//! - "renew" only as "press Renew".
//!
//! A button's label may name a loan and say renew (what it offers is checked like the
//! button: `check::offers_refused`); the rules on state, time, numbers and counts hold
//! for it too. The rule refuses far more than false claims; a refused text is repaired
//! with the reason, and the compiler's cards say the facts in their place.

use std::collections::HashSet;

use forms::read::books::words;
use forms::read::{DateWords, dates_named};
use jiff::civil::Date;

use super::blocks::Facts;

/// Whose words a text is, for the rules it must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    /// A composer's own words: every rule of the module.
    Composer,
    /// A screen's title: a composer's words that may call the loans "your loans".
    Title,
    /// A button's label: the composer's words, and "renew" as the button's verb.
    Label,
    /// The question a follow-up sends as the student's: a request, not a claim (no
    /// Markdown, no invented date; what it asks to renew is checked like a button).
    Request,
    /// The service's words drawn by code (the compiler's cards), or a preselected date
    /// checked against the range: no Markdown, no invented date.
    Service,
}

/// Beginnings of words that speak of a loan's state, folded (lowercase, no accents).
const STATE_STEMS: &[&str] = &[
    "renewa",
    "renewe",
    "renewi",
    "renews",
    "renov",
    "renouvel",
    "prolong",
    "verlang",
    "eligib",
    "ineligib",
    "elegib",
    "overdue",
    "uberfall",
    "block",
    "wait",
    "chance",
    "standing",
    "urgent",
    "request",
    "vencid",
    "retard",
    "reserv",
    "vorgemerkt",
    "vormerk",
    "limit",
    "grenze",
    "maxim",
    "expir",
    "extend",
    "extens",
    "recall",
    "multa",
    "amende",
    "gebuhr",
    "bloque",
    "gesperrt",
];

/// Whole words that speak of a loan's state, folded.
const STATE_WORDS: &[&str] = &[
    "late",
    "hold",
    "holds",
    "held",
    "fine",
    "fines",
    "fee",
    "fees",
    "owe",
    "owed",
    "longer",
    "keep",
    "kept",
    "lost",
    "returned",
    "overdue",
    "still",
    "already",
    "anymore",
    "retenu",
    "tarde",
    "spat",
    "ausgeliehen",
    "vence",
    "vencer",
    "echeance",
];

/// The verbs of renewing a follow-up's label may use (its request is checked).
const RENEW_VERBS: &[&str] = &["renov", "renouvel", "prolong", "verlang", "extend"];

/// Words of a time or a span: a due date said without a date.
const TIME: &[&str] = &[
    "soon",
    "eve",
    "easter",
    "hanukkah",
    "chanukah",
    "thanksgiving",
    "diwali",
    "holi",
    "eid",
    "halloween",
    "ramadan",
    "passover",
    "navidad",
    "nochevieja",
    "pascua",
    "noel",
    "paques",
    "weihnachten",
    "ostern",
    "silvester",
    "thirtieth",
    "primero",
    "premier",
    "ersten",
    "later",
    "fortnight",
    "weekend",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "day",
    "days",
    "tonight",
    "christmas",
    "holiday",
    "holidays",
    "until",
    "till",
    "deadline",
    "semana",
    "mes",
    "ano",
    "semaine",
    "mois",
    "annee",
    "woche",
    "monat",
    "jahr",
    "hafte",
    "mahina",
    "saal",
];

/// Words that point at a loan, and nouns a loan is called by.
const POINTERS: &[&str] =
    &["it", "its", "them", "they", "their", "this", "that", "these", "those", "ihn", "ise"];
const LOAN_NAMES: &[&str] = &[
    "book",
    "books",
    "loan",
    "loans",
    "copy",
    "copies",
    "item",
    "items",
    "title",
    "titles",
    "textbook",
    "textbooks",
    "libro",
    "libros",
    "prestamo",
    "prestamos",
    "livre",
    "livres",
    "emprunt",
    "emprunts",
    "buch",
    "bucher",
    "ausleihe",
    "ausleihen",
    "kitab",
    "kitaab",
    "kitabein",
    "kitaben",
];

/// Words that put loans in an order ("due first", "before", "sorted"): the list's order
/// is the compiler's.
const ORDER: &[&str] = &[
    "first", "last", "before", "after", "earlier", "earliest", "latest", "soonest", "sorted", "order",
    "ordered", "next", "previous", "primero", "ultimo", "antes", "despues", "premier", "dernier", "avant",
    "apres", "zuerst", "zuletzt", "vor", "nach", "pehle", "baad",
];

/// Words that say how many loans a claim covers.
const QUANTITY: &[&str] = &[
    "none",
    "nothing",
    "both",
    "every",
    "each",
    "all",
    "only",
    "any",
    "anything",
    "several",
    "many",
    "few",
    "most",
    "either",
    "everything",
    "everyone",
    "no",
    "not",
    "never",
    "nobody",
    "rien",
    "nada",
    "nichts",
    "nahi",
    "nahin",
    "neither",
    "ninguno",
    "ninguna",
    "todos",
    "todas",
    "aucun",
    "aucune",
    "tous",
    "toutes",
    "keine",
    "keiner",
    "alle",
    "nur",
    "solo",
    "seulement",
];

/// Nouns a loan is called by, after which "no" is a count ("no books").
const LOAN_NOUNS: &[&str] =
    &["loan", "loans", "book", "books", "item", "items", "title", "titles", "renewal", "renewals"];

/// Number words (English and the campus's other languages, "one"/"un"/"ein" left out:
/// they are articles as often as numbers).
const NUMBERS: &[&str] = &[
    "zero", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "twenty", "once", "twice", "thrice", "dozen", "half", "couple", "single", "dos", "tres", "cuatro",
    "cinco", "deux", "trois", "quatre", "cinq", "zwei", "drei", "vier", "funf", "doppelt",
];

/// Verbs before "Renew" that point at a button ("press Renew").
const POINTING: &[&str] = &["press", "select", "click", "tap", "choose", "use", "pick", "hit"];

/// What `text` states that only the loan service may (each a reason in words for a
/// `stated_fact` error), read as `said`; `known` the dates of the loan data, the
/// student's words and today (a written date outside them is `invented_date`'s).
pub(super) fn stated_facts(text: &str, facts: &Facts<'_>, known: &HashSet<Date>, said: Said) -> Vec<String> {
    if matches!(said, Said::Request | Said::Service) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let asked_dates: HashSet<Date> =
        dates_named(facts.question, facts.today, DateWords::All).into_iter().flatten().collect();
    let written: HashSet<Date> =
        dates_named(text, facts.today, DateWords::Calendar).into_iter().flatten().collect();
    let stated = dates_named(text, facts.today, DateWords::All)
        .into_iter()
        .flatten()
        .any(|d| !asked_dates.contains(&d) && (known.contains(&d) || !written.contains(&d)));
    if stated {
        out.push(
            "the words state a date; a loan's dates are drawn from the loan data (show its loanCard or loanList)"
                .to_string(),
        );
    }
    // the offline composer's label ("… (no model)") and the service's name are no claims
    let read = names_removed(&text.replace(crate::loans::OFFLINE_LABEL, ""), facts);
    // "year's" is "year"; "30th" a number
    let ws: Vec<String> = words(&without_dates(&read).replace("loan service", "service"))
        .into_iter()
        .map(|w| w.strip_suffix("'s").map(str::to_string).unwrap_or(w))
        .map(|w| match w.find(|c: char| !c.is_ascii_digit()) {
            Some(0) | None => w,
            Some(i) => w[..i].to_string(),
        })
        .collect();
    let asked: HashSet<String> = words(facts.question).into_iter().collect();
    let number = |w: &String| {
        let digits = !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
        (digits || NUMBERS.contains(&w.as_str())) && !asked.contains(w)
    };
    if ws.iter().any(number) {
        out.push("the words state a number; counts come from the loan data, drawn by code".to_string());
    }
    if let Some(w) = ws.iter().find(|w| ORDER.contains(&w.as_str())) {
        out.push(format!("the words put loans in an order ('{w}'); the list's order is the compiler's"));
    }
    if said == Said::Label {
        if let Some(w) = ws.iter().find(|w| POINTERS.contains(&w.as_str())) {
            out.push(format!("a label points at a loan ('{w}'); it names the loan it asks about"));
        }
    } else {
        let named = names(text, facts);
        let pointer = ws.iter().find(|w| {
            POINTERS.contains(&w.as_str()) || (said == Said::Composer && LOAN_NAMES.contains(&w.as_str()))
        });
        if let Some(what) = named.or(pointer.cloned()) {
            out.push(format!(
                "the words name or point at a loan ('{what}'); a loan is shown by its loanCard or loanList, or named in loanIds, never in words"
            ));
        }
    }
    let more_time = ws.windows(2).any(|p| p[0] == "more" && p[1] == "time");
    // a day said as an ordinal ("the thirtieth"; "first" to "third" are common words)
    let ordinal = |w: &str| forms::read::ORDINALS[3..].contains(&w);
    if let Some(w) =
        ws.iter().find(|w| TIME.contains(&w.as_str()) || forms::read::month(w).is_some() || ordinal(w))
    {
        out.push(format!("the words speak of a time ('{w}'); a loan's dates are drawn from the loan data"));
    } else if more_time {
        out.push("the words speak of more time; whether a loan can be renewed is drawn in its card".into());
    }
    let verb = |w: &str| said == Said::Label && RENEW_VERBS.iter().any(|s| w.starts_with(s));
    let state = ws.iter().find(|w| {
        (STATE_WORDS.contains(&w.as_str()) || STATE_STEMS.iter().any(|s| w.starts_with(s))) && !verb(w)
    });
    if let Some(w) = state {
        out.push(format!(
            "the words speak of a loan's state ('{w}'); whether a loan can be renewed, and why not, is drawn in its card"
        ));
    }
    let counted = ws.iter().enumerate().find(|(i, w)| {
        QUANTITY.contains(&w.as_str())
            || (w.as_str() == "no" && ws.iter().skip(i + 1).take(2).any(|n| LOAN_NOUNS.contains(&n.as_str())))
    });
    if let Some((_, w)) = counted {
        out.push(format!("the words say how many loans something is true of ('{w}'); the loan data says it"));
    }
    if let Some(why) = renewing(text, &ws, said) {
        out.push(why.to_string());
    }
    out
}

/// `text` without what reads as part of a written date: a chunk with a digit and `-` or
/// `/` ("2026-12-24", "12/24"), a year, a day beside a month ("24 December").
fn without_dates(text: &str) -> String {
    let chunks: Vec<&str> = text.split_whitespace().collect();
    let month = |c: Option<&&str>| {
        c.is_some_and(|c| {
            let w = words(c);
            w.first().is_some_and(|w| forms::read::month(w).is_some())
        })
    };
    let mut kept = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        let digit = c.chars().any(|ch| ch.is_ascii_digit());
        let date_like = digit && (c.contains('-') || c.contains('/'));
        let year = c.trim_matches(|ch: char| !ch.is_ascii_digit()).len() == 4 && digit;
        let beside = digit && (month(chunks.get(i + 1)) || (i > 0 && month(chunks.get(i - 1))));
        // the month of a day written beside it ("January 4") is the date's, not a time of its own
        let digit_at = |k: Option<&&str>| k.is_some_and(|k| k.chars().any(|ch| ch.is_ascii_digit()));
        let month_of_day =
            month(Some(c)) && (digit_at(chunks.get(i + 1)) || (i > 0 && digit_at(chunks.get(i - 1))));
        if !(date_like || year || beside || month_of_day) {
            kept.push(*c);
        }
    }
    kept.join(" ")
}

/// Why `text` (its words `ws`, without titles and ids) may not say "renew", if it may not:
/// only "press Renew" and the like may, or a button's label.
fn renewing(text: &str, ws: &[String], said: Said) -> Option<&'static str> {
    let at: Vec<usize> =
        ws.iter().enumerate().filter(|(_, w)| w.as_str() == "renew").map(|(i, _)| i).collect();
    if at.is_empty() || said == Said::Label {
        return None;
    }
    // "press Renew", "the Renew button": the button's name, capitalised as it is drawn
    let pointing = at.iter().all(|&i| {
        let before = i.checked_sub(1).map(|b| ws[b].as_str());
        let after = ws.get(i + 1).map(String::as_str);
        (before.is_some_and(|b| POINTING.contains(&b)) || after == Some("button")) && text.contains("Renew")
    });
    (!pointing).then_some("the words say renew; only a Renew button (press Renew) may, its loan checked")
}

/// The first loan name `text` has: a title (whole or without its parenthesis), an id, or
/// a title's own words ("chemistry").
fn names(text: &str, facts: &Facts<'_>) -> Option<String> {
    let lower = text.to_lowercase();
    let ws = words(text);
    for l in facts.loans {
        let title = l.title.to_lowercase();
        let core = title.split('(').next().unwrap_or(&title).trim().to_string();
        for name in [title.clone(), core, l.id.to_lowercase()] {
            if !name.is_empty() && lower.contains(&name) {
                return Some(name);
            }
        }
        if let Some(k) = forms::read::books::title_keywords(&l.title).into_iter().find(|k| ws.contains(k)) {
            return Some(k);
        }
    }
    None
}

/// `text` with every loan's title (whole, and without a parenthesis) and id blanked out.
fn names_removed(text: &str, facts: &Facts<'_>) -> String {
    let mut out = text.to_lowercase();
    for l in facts.loans {
        let title = l.title.to_lowercase();
        let core = title.split('(').next().unwrap_or(&title).trim().to_string();
        for name in [title, core, l.id.to_lowercase()] {
            if !name.is_empty() {
                out = out.replace(&name, " ");
            }
        }
    }
    out
}
