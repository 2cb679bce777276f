//! Words as the matchers see them: a sentence cut at white space into tokens with their
//! outer punctuation off, each kept as written and folded (lower case, Spanish, French and
//! German accents off, `ß` as `ss`, curly apostrophes straight), with its byte span in the text and whether a pause follows.
//!
//! Subtle: a period after a month name or `a.m`/`p.m` (`Nov. 20`, `3 p.m.`) is not a
//! pause, so the date or time reads on. A negator (`not`, `can't`, …) covers at most
//! `NEGATION_REACH` words after it, stopping after a pause or before `but`, `instead`,
//! `pero`, …; a negator followed by a pause covers nothing.

use jiff::civil::{Date, Time};

use crate::Period;

/// What a matcher read at a token: one field's value, or a note about it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Found {
    Date(Date),
    DateNote(String),
    Period(Period),
    /// A clock time; `true` when it was a bare hour still to be placed in the day.
    Time(Time, bool),
    Hours(u32),
    DurationNote(String),
    Group(u32),
    Room(char),
}

/// The month a word (folded) names, 1 to 12, in English (whole or short), Spanish,
/// French and German ("mai" left out: it is also Hindi for "I").
pub fn month(w: &str) -> Option<i8> {
    Some(match w {
        "january" | "jan" | "enero" | "janvier" | "januar" => 1,
        "february" | "feb" | "febrero" | "fevrier" | "februar" => 2,
        "march" | "mar" | "marzo" | "mars" | "marz" => 3,
        "april" | "apr" | "abril" | "avril" => 4,
        "may" | "mayo" => 5,
        "june" | "jun" | "junio" | "juin" | "juni" => 6,
        "july" | "jul" | "julio" | "juillet" | "juli" => 7,
        "august" | "aug" | "agosto" | "aout" => 8,
        "september" | "sep" | "sept" | "septiembre" | "septembre" => 9,
        "october" | "oct" | "octubre" | "octobre" | "oktober" => 10,
        "november" | "nov" | "noviembre" | "novembre" => 11,
        "december" | "dec" | "diciembre" | "decembre" | "dezember" => 12,
        _ => return None,
    })
}

#[derive(Debug)]
pub(super) struct Tok {
    /// As written, outer punctuation off.
    pub(super) text: String,
    /// Lower case, accents off, curly apostrophes straight ([`fold`]).
    pub(super) low: String,
    pub(super) start: usize,
    pub(super) end: usize,
    /// Followed by `,` `;` `.` `!` `?` (a pause).
    pub(super) pause: bool,
}

pub(super) fn tokenize(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut offset = 0;
    for chunk in text.split_inclusive(char::is_whitespace) {
        let start_of_chunk = offset;
        offset += chunk.len();
        let word = chunk.trim_end();
        let lead =
            word.len() - word.trim_start_matches(['"', '\'', '(', '[', '{', '¿', '¡', '“', '‘', '<']).len();
        let core = word[lead..]
            .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '"', '\'', '”', '’', '>']);
        if core.is_empty() {
            if let Some(last) = toks.last_mut() {
                let last: &mut Tok = last;
                last.pause |= word.contains([',', ';', '.', '!', '?']);
            }
            continue;
        }
        let trail = &word[lead + core.len()..];
        let low = fold(core);
        let abbreviation = trail.starts_with('.') && (month(&low).is_some() || low == "p.m" || low == "a.m");
        toks.push(Tok {
            text: core.to_string(),
            low,
            start: start_of_chunk + lead,
            end: start_of_chunk + lead + core.len(),
            pause: !abbreviation && trail.contains([',', ';', '.', '!', '?']),
        });
    }
    toks
}

/// A word folded for matching: lower case, the accents of Spanish, French and German off
/// (`mañana` → `manana`, `août` → `aout`, `für` → `fur`), `ß` → `ss`, curly apostrophes
/// straight (`aujourd’hui` → `aujourd'hui`).
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        match c {
            'á' | 'à' | 'â' | 'ä' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'í' | 'ì' | 'î' | 'ï' => out.push('i'),
            'ó' | 'ò' | 'ô' | 'ö' => out.push('o'),
            'ú' | 'ù' | 'û' | 'ü' => out.push('u'),
            'ñ' => out.push('n'),
            'ç' => out.push('c'),
            'ÿ' => out.push('y'),
            'ß' => out.push_str("ss"),
            'œ' => out.push_str("oe"),
            '’' | '‘' => out.push('\''),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn span_text(text: &str, toks: &[Tok], start: usize, end: usize) -> String {
    text[toks[start].start..toks[end - 1].end].to_string()
}

const NEGATORS: &[&str] = &[
    "not",
    "no",
    "except",
    "excluding",
    "never",
    "isn't",
    "aren't",
    "can't",
    "cannot",
    "cant",
    "won't",
    "nor",
];
const NEGATION_ENDS: &[&str] = &["but", "instead", "rather", "however", "pero", "sino"];
/// At most this many words after a negator are negated.
const NEGATION_REACH: usize = 6;

/// For each token, whether a negator before it covers it.
pub(super) fn negated_spans(toks: &[Tok]) -> Vec<bool> {
    let mut negated = vec![false; toks.len()];
    for (i, t) in toks.iter().enumerate() {
        if !NEGATORS.contains(&t.low.as_str()) || t.pause {
            continue;
        }
        for j in i + 1..toks.len().min(i + 1 + NEGATION_REACH) {
            if NEGATION_ENDS.contains(&toks[j].low.as_str()) {
                break;
            }
            negated[j] = true;
            if toks[j].pause {
                break;
            }
        }
    }
    negated
}

pub(super) fn low(toks: &[Tok], i: usize) -> &str {
    toks.get(i).map_or("", |t| t.low.as_str())
}
