//! Counted things: a duration in whole hours (`2 hours`, `an hour`, `2-hour`,
//! `120 minutes`), a group size (`4 people`, `group of five`, `me and 3 friends`, `somos 4`)
//! and a room letter (`room B`, `sala A`); and [`count`], the small numbers (`4`, `four`,
//! `cuatro`) the other readers use too.
//!
//! Subtle: `in 2 hours` is when, not how long (no duration); half hours and minutes that
//! are not whole hours are a note, not a duration; `me and 3 friends` counts the speaker
//! (4); `a room I like` is not room I.

use super::tokens::{Found, Tok, low};

/// A count: `4`, `four`, up to `twenty`.
pub(super) fn count(w: &str) -> Option<u32> {
    const WORDS: [&str; 20] = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const SPANISH: [&str; 10] =
        ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"];
    if let Some(k) = WORDS.iter().position(|x| *x == w).or_else(|| SPANISH.iter().position(|x| *x == w)) {
        return Some(k as u32 + 1);
    }
    (w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit())).then(|| w.parse().ok()).flatten()
}

pub(super) fn is_hour_word(w: &str) -> bool {
    matches!(w, "hour" | "hours" | "hr" | "hrs" | "h" | "hora" | "horas")
}

fn is_minute_word(w: &str) -> bool {
    matches!(w, "minute" | "minutes" | "min" | "mins" | "minutos")
}

/// `2 hours`, `an hour`, `1h`, `2-hour`, `for two hours`, `120 minutes`, `a couple of hours`.
pub(super) fn duration_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    // `in 2 hours` is when, not how long
    if i > 0 && low(toks, i - 1) == "in" {
        return None;
    }
    let not_whole =
        |what: &str| Some(vec![Found::DurationNote(format!("{what} is not a whole number of hours"))]);
    if w == "half" && matches!(low(toks, i + 1), "an" | "a") && low(toks, i + 2) == "hour" {
        return Some((3, not_whole("half an hour")?));
    }
    if matches!(w, "a" | "an" | "one") && low(toks, i + 1) == "hour" {
        if low(toks, i + 2) == "and" && low(toks, i + 3) == "a" && low(toks, i + 4) == "half" {
            return Some((5, not_whole("an hour and a half")?));
        }
        return Some((2, vec![Found::Hours(1)]));
    }
    if w == "a" && low(toks, i + 1) == "couple" && low(toks, i + 2) == "of" && is_hour_word(low(toks, i + 3))
    {
        return Some((4, vec![Found::Hours(2)]));
    }
    // one token: `2h`, `1hr`, `2-hour`, `two-hour`, `2hrs`
    let (number, unit) = match w.split_once('-') {
        Some((n, u)) => (n, u),
        None => {
            let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            (digits, &w[digits.len()..])
        }
    };
    if !number.is_empty() && !unit.is_empty() {
        if let Some(n) = count(number) {
            if is_hour_word(unit) {
                return Some((1, vec![Found::Hours(n)]));
            }
            if is_minute_word(unit) {
                return Some((1, minutes(n)));
            }
        }
        return None;
    }
    // a number and a unit word
    let next = low(toks, i + 1);
    if let Some(n) = count(w) {
        if is_hour_word(next) {
            return Some((2, vec![Found::Hours(n)]));
        }
        if is_minute_word(next) {
            return Some((2, minutes(n)));
        }
    } else if w.contains('.') && w.parse::<f64>().is_ok_and(|x| x.fract() != 0.0) && is_hour_word(next) {
        return Some((2, not_whole(&format!("{w} hours"))?));
    }
    None
}

fn minutes(n: u32) -> Vec<Found> {
    if n > 0 && n.is_multiple_of(60) {
        vec![Found::Hours(n / 60)]
    } else {
        vec![Found::DurationNote(format!("{n} minutes is not a whole number of hours"))]
    }
}

pub(super) fn is_group_word(w: &str) -> bool {
    matches!(
        w,
        "people"
            | "persons"
            | "person"
            | "students"
            | "seats"
            | "personas"
            | "estudiantes"
            | "members"
            | "guys"
    )
}

fn is_companion_word(w: &str) -> bool {
    matches!(
        w,
        "friends" | "friend" | "others" | "other" | "classmates" | "classmate" | "people" | "more" | "amigos"
    )
}

/// `4 people`, `for 6 of us`, `group of five`, `me and 3 friends` (4), `with 2 classmates`
/// (3), `just me` (1), `somos 4`.
pub(super) fn group_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let group = |len: usize, n: u32| Some((len, vec![Found::Group(n)]));
    if matches!(w, "just" | "only") && low(toks, i + 1) == "me" {
        return group(2, 1);
    }
    if (w == "by" && low(toks, i + 1) == "myself")
        || (w == "on" && low(toks, i + 1) == "my" && low(toks, i + 2) == "own")
    {
        return group(if w == "by" { 2 } else { 3 }, 1);
    }
    // me and N friends, me plus N, me + N others, with N friends
    if matches!(w, "me" | "with") {
        let (at, is_me) = match (w, low(toks, i + 1)) {
            ("me", "and" | "plus" | "+" | "y") => (i + 2, true),
            ("with", _) => (i + 1, false),
            _ => return None,
        };
        let n = match low(toks, at) {
            "a" | "my" if is_companion_word(low(toks, at + 1)) && !low(toks, at + 1).ends_with('s') => {
                Some(1)
            }
            word => count(word),
        }?;
        let companion = is_companion_word(low(toks, at + 1));
        if companion {
            return group(at + 2 - i, n + 1);
        }
        if is_me && !is_hour_word(low(toks, at + 1)) {
            return group(at + 1 - i, n + 1);
        }
        return None;
    }
    if matches!(w, "group" | "party" | "team") && low(toks, i + 1) == "of" {
        let n = count(low(toks, i + 2))?;
        let len = if is_group_word(low(toks, i + 3)) { 4 } else { 3 };
        return group(len, n);
    }
    if matches!(w, "somos" | "we're") || (w == "we" && low(toks, i + 1) == "are") {
        let at = if w == "we" { i + 2 } else { i + 1 };
        let n = count(low(toks, at))?;
        let len = at + 1 - i + usize::from(is_group_word(low(toks, at + 1)));
        return group(len, n);
    }
    let n = count(w)?;
    let next = low(toks, i + 1);
    if is_group_word(next) {
        return group(2, n);
    }
    if next == "of" && low(toks, i + 2) == "us" {
        return group(3, n);
    }
    None
}

/// `room B`, `Room c`, `sala A`: one letter after the word.
pub(super) fn room_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    if !matches!(low(toks, i), "room" | "sala") {
        return None;
    }
    let next = toks.get(i + 1)?;
    let mut chars = next.text.chars();
    let c = chars.next()?;
    // `a room I like` is not room I
    if chars.next().is_some() || !c.is_ascii_alphabetic() || next.text == "I" {
        return None;
    }
    Some((2, vec![Found::Room(c.to_ascii_uppercase())]))
}
