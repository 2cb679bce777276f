//! Dates: `today`, `tomorrow`, `day after tomorrow`, `in 3 days`, weekdays (`Monday`,
//! `next Friday`, `Monday next week`), month and day in either order with an optional year
//! (`Nov 20th`, `20 de noviembre 2027`), `11/20` (US order), `2026-12-03` and `the 3rd`;
//! Spanish `hoy`, `mañana`, `pasado mañana`, `el lunes que viene`; French `aujourd'hui`,
//! `demain`, `après-demain`, `samedi prochain`; German `heute`, `morgen`, `übermorgen`,
//! `nächsten Samstag`; Hindi and Hinglish `aaj`/`आज`, `kal`/`कल` (tomorrow: said of a
//! day to come), `parso`, `agle shanivaar` and the weekdays (`shanivaar`, `shaniwar`,
//! `शनिवार`, …). The rules are in the parent module's docs.
//!
//! Subtle: `mañana` after `la` is the morning (`por la mañana`), not tomorrow, and so is
//! German `Morgen` after `am`, `guten`, `heute`, `jeden` or `diesen`; `may` is a
//! month only when a day follows; a day that does not exist, and `next week` and the like,
//! are a note, not a date; a year-less date is the next one on or after today (a leap day
//! may be up to four years away).

use jiff::civil::{Date, Weekday};

use super::amounts::count;
use super::tokens::{Found, Tok, low, month};
use crate::Period;

fn plus_days(today: Date, days: i64) -> Option<Date> {
    today.checked_add(jiff::Span::new().days(days)).ok()
}

pub(super) fn date_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let one = |d: Option<Date>, len: usize| d.map(|d| (len, vec![Found::Date(d)]));
    let words = |a: &str, b: &str| w == a && low(toks, i + 1) == b;
    if (w == "day" && low(toks, i + 1) == "after" && low(toks, i + 2) == "tomorrow")
        || words("pasado", "manana")
    {
        return one(plus_days(today, 2), if w == "day" { 3 } else { 2 });
    }
    // tonight in other languages: "ce soir", "esta noche", "heute Abend", "aaj raat"
    if words("ce", "soir") || words("esta", "noche") || words("heute", "abend") || words("aaj", "raat") {
        return Some((2, vec![Found::Date(today), Found::Period(Period::Evening)]));
    }
    let before = if i == 0 { "" } else { low(toks, i - 1) };
    match w {
        "today" | "hoy" | "aujourd'hui" | "aujourdhui" | "heute" | "aaj" | "आज" => {
            return one(Some(today), 1);
        }
        "tonight" | "tonite" => {
            return Some((1, vec![Found::Date(today), Found::Period(Period::Evening)]));
        }
        "tomorrow" | "tmrw" | "tmr" | "demain" | "kal" | "कल" => return one(plus_days(today, 1), 1),
        "apres-demain" | "ubermorgen" | "parso" => return one(plus_days(today, 2), 1),
        // `mañana` is tomorrow, except in `por la mañana` / `de la mañana` (the morning)
        "manana" if before != "la" => return one(plus_days(today, 1), 1),
        // `morgen` is tomorrow, except in `am Morgen`, `guten Morgen`, `heute Morgen` (a morning)
        "morgen" if !matches!(before, "am" | "guten" | "heute" | "jeden" | "diesen") => {
            return one(plus_days(today, 1), 1);
        }
        _ => {}
    }
    if w == "in" || w == "within" {
        let (n, unit_at) = match (count(low(toks, i + 1)), low(toks, i + 1)) {
            (Some(n), _) => (n, i + 2),
            (None, "a" | "an") => (1, i + 2),
            _ => return None,
        };
        let days = match low(toks, unit_at) {
            "day" | "days" => i64::from(n),
            "week" | "weeks" => 7 * i64::from(n),
            _ => return None,
        };
        return one(plus_days(today, days), unit_at + 1 - i);
    }
    if let Some(found) = weekday_at(toks, i, today) {
        return Some(found);
    }
    if matches!(w, "next" | "this" | "coming" | "later")
        && matches!(low(toks, i + 1), "week" | "month" | "weekend" | "year")
    {
        let said = format!("{w} {}", low(toks, i + 1));
        return Some((2, vec![Found::DateNote(format!("{said} is not one date: say which day"))]));
    }
    if let Some(found) = month_day_at(toks, i, today) {
        return Some(found);
    }
    if let Some(found) = numeric_date(w, today) {
        return Some((1, vec![found]));
    }
    // `the 3rd`, `on the 3rd`: the next 3rd of a month
    if w == "the"
        && let Some(day) = ordinal(low(toks, i + 1))
        && !matches!(
            low(toks, i + 2),
            "floor" | "time" | "one" | "option" | "room" | "slot" | "person" | "week"
        )
    {
        return Some((2, vec![next_day_of_month(day, today)]));
    }
    None
}

/// A date written out at `i` (`2027-01-03`, `January 3`, `3 Jan 2027`, `1/3`), not a day
/// word (`tomorrow`, `Friday`, `in 3 days`): what a written text may claim as a date.
pub(super) fn calendar_date_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    month_day_at(toks, i, today).or_else(|| numeric_date(low(toks, i), today).map(|f| (1, vec![f])))
}

fn weekday_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let (prefix, day_at) = match w {
        "next" | "this" | "coming" | "on" | "este" | "el" | "le" | "ce" | "am" | "diesen" | "nachsten"
        | "kommenden" | "agle" => (w, i + 1),
        _ => ("", i),
    };
    let day = weekday(low(toks, day_at))?;
    let mut len = day_at + 1 - i;
    let mut next_week = matches!(prefix, "next" | "nachsten" | "kommenden" | "agle");
    if low(toks, day_at + 1) == "prochain" {
        // `samedi prochain`: next Saturday
        next_week = true;
        len += 1;
    } else if low(toks, day_at + 1) == "next" && low(toks, day_at + 2) == "week" {
        next_week = true;
        len += 2;
    } else if low(toks, day_at + 1) == "this" && low(toks, day_at + 2) == "week" {
        len += 2;
    } else if low(toks, day_at + 1) == "que" && low(toks, day_at + 2) == "viene" {
        // `el lunes que viene`: next Monday
        next_week = true;
        len += 2;
    }
    let date = if next_week {
        let monday =
            today.checked_sub(jiff::Span::new().days(today.weekday().to_monday_zero_offset())).ok()?;
        plus_days(monday, 7 + i64::from(day.to_monday_zero_offset()))
    } else {
        // the first such day after today
        let ahead = (day.to_monday_zero_offset() - today.weekday().to_monday_zero_offset()).rem_euclid(7);
        plus_days(today, if ahead == 0 { 7 } else { i64::from(ahead) })
    };
    date.map(|d| (len, vec![Found::Date(d)]))
}

/// A weekday's name, folded ([`super::tokens::fold`]): English (and its abbreviations),
/// Spanish, French, German, Hindi in Devanagari and Hinglish spellings.
pub fn weekday(w: &str) -> Option<Weekday> {
    WEEKDAY_NAMES.iter().find(|(_, names)| names.contains(&w)).map(|(day, _)| *day)
}

#[rustfmt::skip]
const WEEKDAY_NAMES: [(Weekday, &[&str]); 7] = [
    (Weekday::Monday, &["monday", "mondays", "mon", "lunes", "lundi", "montag", "somvaar", "somvar",
        "somwar", "somwaar", "सोमवार"]),
    (Weekday::Tuesday, &["tuesday", "tuesdays", "tue", "tues", "martes", "mardi", "dienstag",
        "mangalvaar", "mangalvar", "mangalwar", "mangalwaar", "मंगलवार"]),
    (Weekday::Wednesday, &["wednesday", "wednesdays", "wed", "miercoles", "mercredi", "mittwoch",
        "budhvaar", "budhvar", "budhwar", "budhwaar", "बुधवार"]),
    (Weekday::Thursday, &["thursday", "thursdays", "thu", "thur", "thurs", "jueves", "jeudi",
        "donnerstag", "guruvaar", "guruvar", "guruwar", "guruwaar", "brihaspativar", "गुरुवार"]),
    (Weekday::Friday, &["friday", "fridays", "fri", "viernes", "vendredi", "freitag", "shukravaar",
        "shukravar", "shukrawar", "sukravar", "शुक्रवार"]),
    (Weekday::Saturday, &["saturday", "saturdays", "sabado", "sabados", "samedi", "samstag",
        "sonnabend", "shanivaar", "shanivar", "shaniwar", "shaniwaar", "शनिवार"]),
    (Weekday::Sunday, &["sunday", "sundays", "domingo", "domingos", "dimanche", "sonntag", "ravivaar",
        "ravivar", "raviwar", "itvaar", "itwar", "रविवार"]),
];

const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// `November 20`, `Nov 20th`, `November the 20th`, `20 November`, `the 20th of November`,
/// `20 de noviembre`, each with an optional year after it.
fn month_day_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    let start = if low(toks, i) == "the" { i + 1 } else { i };
    // month first
    if let Some(m) = month(low(toks, start)) {
        // `may` is also a verb: only a month when a day follows
        let day_at = if low(toks, start + 1) == "the" { start + 2 } else { start + 1 };
        let day = day_number(low(toks, day_at))?;
        let (year, len) = year_after(toks, day_at + 1);
        return Some((len + day_at + 1 - i, vec![month_day(m, day, year, today)]));
    }
    // day first
    let day = day_number(low(toks, start))?;
    let month_at = if matches!(low(toks, start + 1), "of" | "de") { start + 2 } else { start + 1 };
    let m = month(low(toks, month_at))?;
    let (year, len) = year_after(toks, month_at + 1);
    Some((len + month_at + 1 - i, vec![month_day(m, day, year, today)]))
}

/// An optional year at `i` (`2027`, or `de 2027`): the year and how many tokens it took.
fn year_after(toks: &[Tok], i: usize) -> (Option<i16>, usize) {
    let (at, extra) = if low(toks, i) == "de" { (i + 1, 1) } else { (i, 0) };
    let w = low(toks, at);
    if w.len() == 4
        && let Ok(y) = w.parse::<i16>()
        && (2000..=2100).contains(&y)
    {
        return (Some(y), 1 + extra);
    }
    (None, 0)
}

fn month_day(m: i8, day: i8, year: Option<i16>, today: Date) -> Found {
    let name = MONTH_NAMES[(m - 1) as usize];
    if let Some(y) = year {
        return match Date::new(y, m, day) {
            Ok(d) => Found::Date(d),
            Err(_) => Found::DateNote(format!("{name} {day}, {y} is not a date")),
        };
    }
    // the next such day on or after today (a leap day may be a few years away)
    (today.year()..=today.year() + 4)
        .filter_map(|y| Date::new(y, m, day).ok())
        .find(|d| *d >= today)
        .map_or_else(|| Found::DateNote(format!("{name} {day} is not a date")), Found::Date)
}

/// `11/20`, `11/20/2026`, `11/20/26` (US order) and `2026-12-03`.
fn numeric_date(w: &str, today: Date) -> Option<Found> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    let iso: Vec<&str> = w.split('-').collect();
    if let [y, m, d] = iso.as_slice()
        && y.len() == 4
        && m.len() == 2
        && d.len() == 2
        && [y, m, d].iter().all(|p| digits(p))
    {
        let (y, m, d) = (y.parse::<i16>().ok()?, m.parse::<i8>().ok()?, d.parse::<i8>().ok()?);
        return Some(match Date::new(y, m, d) {
            Ok(date) => Found::Date(date),
            Err(_) => Found::DateNote(format!("{w} is not a date")),
        });
    }
    let us: Vec<&str> = w.split('/').collect();
    if !(2..=3).contains(&us.len()) || !us.iter().all(|p| digits(p)) || us[0].len() > 2 || us[1].len() > 2 {
        return None;
    }
    let m: i8 = us[0].parse().ok()?;
    let d: i8 = us[1].parse().ok()?;
    let year = match us.get(2) {
        None => None,
        Some(y) if y.len() == 4 => Some(y.parse::<i16>().ok()?),
        Some(y) if y.len() == 2 => Some(2000 + y.parse::<i16>().ok()?),
        Some(_) => return None,
    };
    if !(1..=12).contains(&m) {
        return Some(Found::DateNote(format!("{w} is not a date (month/day)")));
    }
    Some(month_day(m, d, year, today))
}

fn next_day_of_month(day: i8, today: Date) -> Found {
    let first = today.first_of_month();
    (0..12)
        .filter_map(|k| first.checked_add(jiff::Span::new().months(k)).ok())
        .filter_map(|m| Date::new(m.year(), m.month(), day).ok())
        .find(|d| *d >= today)
        .map_or_else(|| Found::DateNote(format!("the {day} is not a day of any month")), Found::Date)
}

/// A day of a month: `20`, `20th`, `3rd`, `first` … `thirty-first` is not read.
fn day_number(w: &str) -> Option<i8> {
    ordinal(w).or_else(|| {
        let n: i8 = w.parse().ok().filter(|_| w.len() <= 2)?;
        (1..=31).contains(&n).then_some(n)
    })
}

/// `3rd`, `21st`, `third`.
fn ordinal(w: &str) -> Option<i8> {
    let words =
        ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
    if let Some(k) = words.iter().position(|x| *x == w) {
        return Some(k as i8 + 1);
    }
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i8 = digits.parse().ok()?;
    let expected = match (n % 10, n / 10 % 10) {
        (_, 1) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    (suffix == expected && (1..=31).contains(&n)).then_some(n)
}

#[cfg(test)]
mod tests {
    use jiff::civil::Date;

    use crate::read::read;

    /// Saturday 5 December 2026, 10:00 Pacific Time.
    fn date_of(text: &str) -> Option<Date> {
        let now = crate::in_demo_tz("2026-12-05T10:00:00-08:00".parse().expect("an instant"));
        read(text, &now).date.map(|d| d.date)
    }

    #[test]
    fn french_german_and_hinglish_day_words_are_read() {
        let (today, tomorrow) = (Date::constant(2026, 12, 5), Date::constant(2026, 12, 6));
        for text in ["aujourd'hui", "aujourd’hui", "heute", "aaj", "आज", "hoy", "today"] {
            assert_eq!(date_of(text), Some(today), "{text}");
        }
        for text in ["demain", "morgen", "kal", "कल", "mañana", "tomorrow", "morgen früh"] {
            assert_eq!(date_of(text), Some(tomorrow), "{text}");
        }
        for text in ["après-demain", "übermorgen", "parso", "pasado mañana"] {
            assert_eq!(date_of(text), Some(Date::constant(2026, 12, 7)), "{text}");
        }
        // a morning, not tomorrow
        for text in ["guten Morgen", "heute Morgen"] {
            assert_ne!(date_of(text), Some(tomorrow), "{text}");
        }
        // the first such day after today; `prochain`, `nächsten`, `agle`: next week's
        let next_saturday = Date::constant(2026, 12, 12);
        for text in ["samedi", "Samstag", "am Samstag", "shanivaar", "shaniwar", "शनिवार", "sábado"]
        {
            assert_eq!(date_of(text), Some(next_saturday), "{text}");
        }
        assert_eq!(date_of("lundi"), Some(Date::constant(2026, 12, 7)));
        assert_eq!(date_of("lundi prochain"), Some(Date::constant(2026, 12, 7)));
        assert_eq!(date_of("nächsten Montag"), Some(Date::constant(2026, 12, 7)));
        assert_eq!(date_of("agle somvaar"), Some(Date::constant(2026, 12, 7)));
        assert_eq!(date_of("Freitag"), Some(Date::constant(2026, 12, 11)));
        assert_eq!(date_of("guruvaar"), Some(Date::constant(2026, 12, 10)));
    }
}
