//! What a student's words say: a date, a part of the day, a clock time, a duration, a
//! group size, a room, and (for filling a form from the chat only) a name and an email.
//!
//! The reading is code over tokens; dates are resolved with `jiff` against `now` in the
//! demo time zone. Rules a calendar would also follow:
//!
//! - `Monday`, `on Monday`, `this Monday`, `coming Monday`: the first Monday after today
//!   (1–7 days ahead; today is `today`). `next Monday` and `Monday next week`: the Monday
//!   of next week (weeks start on Monday). So on Monday 2026-11-30 both `Monday` and
//!   `next Monday` are 2026-12-07, `Friday` is 2026-12-04 and `next Friday` 2026-12-11.
//! - `November 20`, `Nov 20th`, `20 November`, `11/20` (US order) without a year: the next
//!   such day on or after today (so on Nov 30, next year's); with a year, that year.
//!   `2026-12-03` is exactly that date, past or not (the form's rules judge the range).
//! - `the 3rd`: the next 3rd of a month on or after today.
//! - `in 3 days`, `in a week`: counted from today.
//! - `next week`, `next month`, `this weekend`: no single date, not read (a note says so).
//! - A day that does not exist (`February 30`, `13/40`) is not read (a note says so).
//! - Negated words are not read: `not Monday`, `can't do Monday` (up to the next pause or
//!   `but`).
//! - Two different dates are none (a note says which).
//!
//! Clock times: `3pm`, `3:30 pm`, `15:00`, `noon`, `at 10`. A bare hour (`at 3`) is
//! afternoon when the words say afternoon or evening, morning when they say morning, and
//! otherwise 8–12 as said and 1–7 in the afternoon (no one books at 3 in the night).
//!
//! Some Spanish is read too: `hoy`, `mañana`, `pasado mañana`, weekday and month names,
//! `20 de noviembre`, `por la mañana` / `tarde` / `noche`, `N personas`, `somos N`.

use jiff::ZonedDateTime as Zoned;
use jiff::civil::{Date, Time, Weekday};
use serde::Serialize;

use crate::Period;

/// Everything read from one message. A field is `None` when nothing was said, when what was
/// said was negated or contradictory, or when it was no value (see `notes`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reading {
    pub date: Option<DateRead>,
    pub period: Option<Period>,
    pub time: Option<Time>,
    pub duration_hours: Option<u32>,
    pub group_size: Option<u32>,
    /// The letter after `room`, upper-cased; whether such a room exists is the form's rule.
    pub room: Option<char>,
    /// Only for filling an open form from the chat; never prefilled by an agent.
    pub name: Option<String>,
    /// Only for filling an open form from the chat; never prefilled by an agent.
    pub email: Option<String>,
    /// Why something said was not read.
    pub notes: Vec<Note>,
}

/// A resolved civil date and the words it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DateRead {
    pub date: Date,
    pub words: String,
}

/// Why a field was not read, in words fit to show a student.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub field: &'static str,
    pub reason: String,
}

/// The scheduling fields an agent may prefill a new form with: never a name, an email or
/// notes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prefill {
    pub date: Option<Date>,
    pub period: Option<Period>,
    pub time: Option<Time>,
    pub duration_hours: Option<u32>,
    pub group_size: Option<u32>,
    pub room: Option<char>,
}

impl Reading {
    /// Only the scheduling fields.
    pub fn prefill(&self) -> Prefill {
        Prefill {
            date: self.date.as_ref().map(|d| d.date),
            period: self.period,
            time: self.time,
            duration_hours: self.duration_hours,
            group_size: self.group_size,
            room: self.room,
        }
    }

    /// The note about `field`, if any.
    pub fn note(&self, field: &str) -> Option<&str> {
        self.notes.iter().find(|n| n.field == field).map(|n| n.reason.as_str())
    }
}

/// Longest message read, in bytes; the rest is ignored (a chat message is at most 2,000
/// characters anyway).
const MAX_TEXT: usize = 8 * 1024;

/// Reads `text` as said at `now` (a time in the demo time zone).
pub fn read(text: &str, now: &Zoned) -> Reading {
    let text = truncate(text, MAX_TEXT);
    let toks = tokenize(text);
    let negated = negated_spans(&toks);
    let today = now.date();
    let mut found: Vec<(usize, usize, Found)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match match_at(&toks, i, today) {
            Some((len, items)) => {
                for item in items {
                    found.push((i, i + len, item));
                }
                i += len;
            }
            None => i += 1,
        }
    }
    let mut reading = Reading::default();
    let kept: Vec<&(usize, usize, Found)> = found.iter().filter(|(start, _, _)| !negated[*start]).collect();

    // dates: one distinct date, else none
    let mut dates: Vec<(Date, String)> = Vec::new();
    let mut date_notes: Vec<String> = Vec::new();
    for (start, end, item) in &kept {
        match item {
            Found::Date(d) if !dates.iter().any(|(x, _)| x == d) => {
                dates.push((*d, span_text(text, &toks, *start, *end)));
            }
            Found::DateNote(reason) => date_notes.push(reason.clone()),
            _ => {}
        }
    }
    match dates.as_slice() {
        [(date, words)] => reading.date = Some(DateRead { date: *date, words: words.clone() }),
        [] => {
            if let Some(reason) = date_notes.into_iter().next() {
                reading.notes.push(Note { field: "date", reason });
            }
        }
        [(a, aw), (b, bw), ..] => reading.notes.push(Note {
            field: "date",
            reason: format!(
                "two different dates: {} ({a}) and {} ({b})",
                aw.to_lowercase(),
                bw.to_lowercase()
            ),
        }),
    }

    reading.period = one_of(&kept, "period", &mut reading.notes, |f| match f {
        Found::Period(p) => Some(*p),
        _ => None,
    });
    let times: Vec<(Time, bool)> = kept
        .iter()
        .filter_map(|(_, _, f)| match f {
            Found::Time(t, bare) => Some((*t, *bare)),
            _ => None,
        })
        .map(|(t, bare)| (if bare { settle_bare_hour(t, reading.period) } else { t }, bare))
        .collect();
    reading.time = distinct_one(times.iter().map(|(t, _)| *t).collect(), "time", &mut reading.notes, |t| {
        format!("{:02}:{:02}", t.hour(), t.minute())
    });
    reading.duration_hours = one_of(&kept, "duration", &mut reading.notes, |f| match f {
        Found::Hours(h) => Some(*h),
        _ => None,
    });
    if reading.duration_hours.is_none()
        && let Some(reason) = kept.iter().find_map(|(_, _, f)| match f {
            Found::DurationNote(r) => Some(r.clone()),
            _ => None,
        })
    {
        reading.notes.push(Note { field: "duration", reason });
    }
    reading.group_size = one_of(&kept, "group size", &mut reading.notes, |f| match f {
        Found::Group(n) => Some(*n),
        _ => None,
    });
    reading.room = one_of(&kept, "room", &mut reading.notes, |f| match f {
        Found::Room(c) => Some(*c),
        _ => None,
    });
    reading.name = name(&toks);
    let emails: Vec<String> = toks.iter().filter_map(|t| email_in(&t.text)).collect();
    reading.email = distinct_one(emails, "email", &mut reading.notes, |e| e.clone());
    reading
}

/// `text` cut to at most `max` bytes at a character boundary.
fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn one_of<T: Clone + PartialEq + std::fmt::Display>(
    kept: &[&(usize, usize, Found)],
    field: &'static str,
    notes: &mut Vec<Note>,
    pick: impl Fn(&Found) -> Option<T>,
) -> Option<T> {
    let values: Vec<T> = kept.iter().filter_map(|(_, _, f)| pick(f)).collect();
    distinct_one(values, field, notes, T::to_string)
}

/// The one distinct value, or none with a note when the words say two.
fn distinct_one<T: Clone + PartialEq>(
    values: Vec<T>,
    field: &'static str,
    notes: &mut Vec<Note>,
    show: impl Fn(&T) -> String,
) -> Option<T> {
    let mut distinct: Vec<T> = Vec::new();
    for v in values {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    match distinct.len() {
        0 => None,
        1 => distinct.pop(),
        _ => {
            let field_name = if field == "group size" { "groupSize" } else { field };
            notes.push(Note {
                field: field_name,
                reason: format!(
                    "two different values for the {field}: {} and {}",
                    show(&distinct[0]),
                    show(&distinct[1])
                ),
            });
            None
        }
    }
}

/// A bare hour (`at 3`) placed in the day the words point to.
fn settle_bare_hour(t: Time, period: Option<Period>) -> Time {
    let hour = t.hour();
    let pm = match period {
        Some(Period::Afternoon | Period::Evening) => hour < 12,
        Some(Period::Morning) => false,
        None => (1..=7).contains(&hour),
    };
    if pm { Time::new(hour + 12, t.minute(), 0, 0).unwrap_or(t) } else { t }
}

#[derive(Clone, Debug, PartialEq)]
enum Found {
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

#[derive(Debug)]
struct Tok {
    /// As written, outer punctuation off.
    text: String,
    /// Lower case, Spanish accents off, curly apostrophes straight.
    low: String,
    start: usize,
    end: usize,
    /// Followed by `,` `;` `.` `!` `?` (a pause).
    pause: bool,
}

fn tokenize(text: &str) -> Vec<Tok> {
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

fn fold(word: &str) -> String {
    word.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' | 'ü' => 'u',
            'ñ' => 'n',
            '’' | '‘' => '\'',
            c => c,
        })
        .collect()
}

fn span_text(text: &str, toks: &[Tok], start: usize, end: usize) -> String {
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
fn negated_spans(toks: &[Tok]) -> Vec<bool> {
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

fn low(toks: &[Tok], i: usize) -> &str {
    toks.get(i).map_or("", |t| t.low.as_str())
}

/// The longest thing read at token `i`: how many tokens it took and what it said.
fn match_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    date_at(toks, i, today)
        .or_else(|| group_at(toks, i))
        .or_else(|| duration_at(toks, i))
        .or_else(|| time_at(toks, i))
        .or_else(|| room_at(toks, i))
        .or_else(|| period_at(toks, i))
}

fn plus_days(today: Date, days: i64) -> Option<Date> {
    today.checked_add(jiff::Span::new().days(days)).ok()
}

fn date_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let one = |d: Option<Date>, len: usize| d.map(|d| (len, vec![Found::Date(d)]));
    let words = |a: &str, b: &str| w == a && low(toks, i + 1) == b;
    if (w == "day" && low(toks, i + 1) == "after" && low(toks, i + 2) == "tomorrow")
        || words("pasado", "manana")
    {
        return one(plus_days(today, 2), if w == "day" { 3 } else { 2 });
    }
    match w {
        "today" | "hoy" => return one(Some(today), 1),
        "tonight" => return Some((1, vec![Found::Date(today), Found::Period(Period::Evening)])),
        "tomorrow" | "tmrw" | "tmr" => return one(plus_days(today, 1), 1),
        // `mañana` is tomorrow, except in `por la mañana` / `de la mañana` (the morning)
        "manana" if i == 0 || low(toks, i - 1) != "la" => return one(plus_days(today, 1), 1),
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

fn weekday_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    let w = low(toks, i);
    let (prefix, day_at) = match w {
        "next" | "this" | "coming" | "on" | "este" | "el" => (w, i + 1),
        _ => ("", i),
    };
    let day = weekday(low(toks, day_at))?;
    let mut len = day_at + 1 - i;
    let mut next_week = matches!(prefix, "next");
    if low(toks, day_at + 1) == "next" && low(toks, day_at + 2) == "week" {
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

fn weekday(w: &str) -> Option<Weekday> {
    Some(match w {
        "monday" | "mondays" | "mon" | "lunes" => Weekday::Monday,
        "tuesday" | "tuesdays" | "tue" | "tues" | "martes" => Weekday::Tuesday,
        "wednesday" | "wednesdays" | "wed" | "miercoles" => Weekday::Wednesday,
        "thursday" | "thursdays" | "thu" | "thur" | "thurs" | "jueves" => Weekday::Thursday,
        "friday" | "fridays" | "fri" | "viernes" => Weekday::Friday,
        "saturday" | "saturdays" | "sabado" => Weekday::Saturday,
        "sunday" | "sundays" | "domingo" => Weekday::Sunday,
        _ => return None,
    })
}

fn month(w: &str) -> Option<i8> {
    Some(match w {
        "january" | "jan" | "enero" => 1,
        "february" | "feb" | "febrero" => 2,
        "march" | "mar" | "marzo" => 3,
        "april" | "apr" | "abril" => 4,
        "may" | "mayo" => 5,
        "june" | "jun" | "junio" => 6,
        "july" | "jul" | "julio" => 7,
        "august" | "aug" | "agosto" => 8,
        "september" | "sep" | "sept" | "septiembre" => 9,
        "october" | "oct" | "octubre" => 10,
        "november" | "nov" | "noviembre" => 11,
        "december" | "dec" | "diciembre" => 12,
        _ => return None,
    })
}

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

/// A count: `4`, `four`, up to `twenty`.
fn count(w: &str) -> Option<u32> {
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

fn period_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
    let p = match low(toks, i) {
        "morning" | "mornings" | "manana" => Period::Morning,
        "afternoon" | "afternoons" | "tarde" | "tardes" => Period::Afternoon,
        "evening" | "evenings" | "noche" | "night" => Period::Evening,
        _ => return None,
    };
    Some((1, vec![Found::Period(p)]))
}

/// `3pm`, `3 pm`, `3:30pm`, `15:00`, `noon`, `midnight`, `at 10`, `at 10 o'clock`.
fn time_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
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

fn is_hour_word(w: &str) -> bool {
    matches!(w, "hour" | "hours" | "hr" | "hrs" | "h" | "hora" | "horas")
}

fn is_minute_word(w: &str) -> bool {
    matches!(w, "minute" | "minutes" | "min" | "mins" | "minutos")
}

/// `2 hours`, `an hour`, `1h`, `2-hour`, `for two hours`, `120 minutes`, `a couple of hours`.
fn duration_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
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

fn is_group_word(w: &str) -> bool {
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
fn group_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
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
fn room_at(toks: &[Tok], i: usize) -> Option<(usize, Vec<Found>)> {
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

const NAME_TRIGGERS: &[&[&str]] = &[
    &["my", "name", "is"],
    &["name", "is"],
    &["i'm"],
    &["im"],
    &["i", "am"],
    &["this", "is"],
    &["me", "llamo"],
    &["soy"],
];

/// Words capitalised as a name may be, but that are not one.
const NOT_NAMES: &[&str] =
    &["free", "available", "interested", "looking", "not", "in", "a", "an", "the", "i"];

/// `I'm Alex Student`, `my name is Alex Student`: up to four capitalised words after the
/// phrase, stopping at a pause.
fn name(toks: &[Tok]) -> Option<String> {
    for i in 0..toks.len() {
        let Some(trigger) =
            NAME_TRIGGERS.iter().find(|t| t.iter().enumerate().all(|(k, w)| low(toks, i + k) == *w))
        else {
            continue;
        };
        let last_trigger = &toks[i + trigger.len() - 1];
        if last_trigger.pause {
            continue;
        }
        let mut words: Vec<&str> = Vec::new();
        for t in toks.iter().skip(i + trigger.len()).take(4) {
            let mut chars = t.text.chars();
            let capitalised = chars.next().is_some_and(char::is_uppercase);
            let letters = t.text.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
            if !capitalised
                || !letters
                || NOT_NAMES.contains(&t.low.as_str())
                || weekday(&t.low).is_some()
                || month(&t.low).is_some()
            {
                break;
            }
            words.push(&t.text);
            if t.pause {
                break;
            }
        }
        if !words.is_empty() {
            return Some(words.join(" "));
        }
    }
    None
}

/// The address in a token (`alex@example.edu`, `<alex@example.edu>`), if it is one.
fn email_in(word: &str) -> Option<String> {
    let word = word.strip_prefix("mailto:").unwrap_or(word);
    is_email(word).then(|| word.to_string())
}

/// A plain address: `local@domain.tld`, checked for format only (it may not exist).
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else { return false };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels.last().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    text.len() <= 254 && local_ok && domain_ok
}
