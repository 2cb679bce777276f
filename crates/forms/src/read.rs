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
//! `20 de noviembre`, `por la mañana` / `tarde` / `noche`, `N personas`, `somos N`; and the
//! day words of French, German and Hindi/Hinglish: today, tomorrow, the day after and the
//! weekdays (`aujourd'hui`, `demain`, `samedi`; `heute`, `morgen`, `Samstag`; `aaj`, `kal`,
//! `shanivaar`), in `read/date.rs`. [`fold`] and [`weekday`] are the same reading of one word,
//! for other readers of the student's words (the Library's answerer).

use jiff::ZonedDateTime as Zoned;
use jiff::civil::{Date, Time};
use serde::Serialize;

use crate::Period;

mod amounts;
pub mod books;
mod contact;
mod date;
mod time;
mod tokens;

use amounts::{duration_at, group_at, room_at};
pub use contact::is_email;
use contact::{email_in, name};
pub use date::weekday;
use date::{calendar_date_at, date_at};
use time::{period_at, time_at};
use tokens::{Found, Tok, negated_spans, span_text, tokenize};
pub use tokens::{fold, month};

/// The English ordinal words, "first" to "twentieth" (the position is the number less one).
pub const ORDINALS: [&str; 20] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

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

/// Which date words [`dates_named`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateWords {
    /// Every date the words name, day words too (`tomorrow`, `Friday`, `in 3 days`),
    /// negated or not: what a student's message mentions.
    All,
    /// Only dates written out (`2027-01-03`, `January 3`, `1/3`): what a written text
    /// claims as a date (a weekday beside a date is no second date).
    Calendar,
}

/// Every date `text` names as said on `today`, in order: `None` for one that does not
/// exist (`February 30`). Unlike [`read`], two dates are both kept.
pub fn dates_named(text: &str, today: Date, which: DateWords) -> Vec<Option<Date>> {
    let toks = tokenize(truncate(text, MAX_TEXT));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let at = match which {
            DateWords::All => date_at(&toks, i, today),
            DateWords::Calendar => calendar_date_at(&toks, i, today),
        };
        let Some((len, found)) = at else {
            i += 1;
            continue;
        };
        for f in found {
            match f {
                Found::Date(d) => out.push(Some(d)),
                Found::DateNote(_) if which == DateWords::Calendar => out.push(None),
                _ => {}
            }
        }
        i += len.max(1);
    }
    out
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

/// The longest thing read at token `i`: how many tokens it took and what it said.
fn match_at(toks: &[Tok], i: usize, today: Date) -> Option<(usize, Vec<Found>)> {
    date_at(toks, i, today)
        .or_else(|| group_at(toks, i))
        .or_else(|| duration_at(toks, i))
        .or_else(|| time_at(toks, i))
        .or_else(|| room_at(toks, i))
        .or_else(|| period_at(toks, i))
}
