//! Parts of the day (`morning`, `afternoon`, `evening`, `tarde`, `noche`) and clock times
//! (`3pm`, `3 pm`, `3:30 p.m.`, `15:00`, `noon`, `midnight`, `at 10`, `at 10 o'clock`).
//!
//! Subtle: a bare hour (`at 3`, `at 10`) and a time with a colon from 1:00 to 7:59 without
//! am/pm (`3:30`) are found as bare, and placed in the day by `settle_bare_hour` once the
//! whole message's period is known; `15:00`, `9:30` and `03:30` are not bare. `at 4 people`
//! and `at 2 hours` are no time (the group and the duration readers take them).

use jiff::civil::Time;

use super::amounts::{count, is_group_word, is_hour_word};
use super::tokens::{Found, Tok, low};
use crate::Period;

pub(super) fn period_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    let p = match low(toks, i) {
        "morning" | "mornings" | "manana" => Period::Morning,
        "afternoon" | "afternoons" | "tarde" | "tardes" => Period::Afternoon,
        "evening" | "evenings" | "noche" | "night" => Period::Evening,
        _ => return None,
    };
    Some((1, vec![Found::Period(p)]))
}

/// `3pm`, `3 pm`, `3:30pm`, `15:00`, `noon`, `midnight`, `at 10`, `at 10 o'clock`.
pub(super) fn time_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let time = |h: i8, m: i8, bare: bool| Time::new(h, m, 0, 0).ok().map(|t| Found::Time(t, bare));
    match w {
        "noon" | "midday" | "mediodia" => return Some((1, vec![time(12, 0, false)?])),
        "midnight" => return Some((1, vec![time(0, 0, false)?])),
        _ => {}
    }
    if w == "at" || w == "around" || w == "by" {
        let (len, found) = time_at(toks, i + 1).or_else(|| {
            let h = count(low(toks, i + 1)).filter(|h| (1..=12).contains(h))? as i8;
            let unit = low(toks, i + 2);
            if is_group_word(unit) || is_hour_word(unit) {
                return None;
            }
            let len = if unit == "o'clock" { 2 } else { 1 };
            Some((len, vec![time(h, 0, true)?]))
        })?;
        return Some((len + 1, found));
    }
    // the clock part and an am/pm glued on or in the next word
    let (clock, glued) = split_meridiem(w);
    let (h, m) = clock_parts(clock)?;
    let (meridiem, len) = match glued {
        Some(x) => (Some(x), 1),
        None => match meridiem(low(toks, i + 1)) {
            Some(x) => (Some(x), 2),
            None => (None, 1),
        },
    };
    match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&h) {
                return None;
            }
            let h = match (pm, h) {
                (false, 12) => 0,
                (true, 12) => 12,
                (true, h) => h + 12,
                (false, h) => h,
            };
            Some((len, vec![time(h, m, false)?]))
        }
        // `15:00`, `9:30`: a colon makes it a time even without am/pm
        None if clock.contains(':') => {
            let bare = !clock.starts_with('0') && (1..=7).contains(&h);
            Some((1, vec![time(h, m, bare)?]))
        }
        None => None,
    }
}

fn meridiem(w: &str) -> Option<bool> {
    match w {
        "am" | "a.m" | "a.m." => Some(false),
        "pm" | "p.m" | "p.m." => Some(true),
        _ => None,
    }
}

/// `3pm` → (`3`, pm); `3:30` → (`3:30`, none).
fn split_meridiem(w: &str) -> (&str, Option<bool>) {
    for (suffix, pm) in [("a.m", false), ("p.m", true), ("am", false), ("pm", true)] {
        if let Some(clock) = w.strip_suffix(suffix)
            && !clock.is_empty()
            && clock.as_bytes()[clock.len() - 1].is_ascii_digit()
        {
            return (clock, Some(pm));
        }
    }
    (w, None)
}

/// `3` → (3, 0), `3:30` → (3, 30), `15:00` → (15, 0).
fn clock_parts(clock: &str) -> Option<(i8, i8)> {
    let (h, m) = clock.split_once(':').unwrap_or((clock, "00"));
    if h.is_empty()
        || h.len() > 2
        || m.len() != 2
        || !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    (h <= 23 && m <= 59).then_some((h, m))
}
