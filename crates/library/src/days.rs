//! Which day a question means, for content kept by weekday ("Saturday: 10:00–18:00") and
//! public holidays ("Public holidays: closed"). Dates are days in the demo time zone
//! ([`forms::TIMEZONE`]), counted from the Library's clock.
//!
//! Read, in this order (the first that says something wins):
//! 1. **A public holiday by name**: the next one on or after today. The holidays that count
//!    are a fixed list, [`HOLIDAYS`]: New Year's Day (1 January), Memorial Day (the last
//!    Monday of May), Independence Day (4 July), Labor Day (the first Monday of September),
//!    Thanksgiving Day (the fourth Thursday of November) and Christmas Day (25 December),
//!    on the day itself (no observed days). "Christmas Eve" and "New Year's Eve" are the day
//!    before, not holidays.
//! 2. **The weekend** ("this weekend", "fin de semana", "week-end", "Wochenende"): the
//!    coming Saturday and Sunday (today and tomorrow on a Saturday, today on a Sunday).
//! 3. **A date the booking form's reader finds** ([`forms::read()`]): today, tomorrow,
//!    tonight and their Spanish, French, German and Hindi/Hinglish words, "this Saturday",
//!    "next Monday", "December 24", "in 3 days", …
//! 4. **A weekday said alone** ("on Friday", "el viernes", "am Freitag", "vendredi",
//!    "shukravar ko", "Saturday and Sunday"): the next such day — today when today is one
//!    (the form's reader, booking ahead, takes the next one after today; "this Saturday"
//!    is its reading). Said as a habit it is no date but the weekly line: a plural ("on
//!    Fridays", "los viernes", "freitags"), "every"/"each" ("cada", "chaque", "jeden",
//!    "har", …) or French "le vendredi" (on Fridays).
//! 5. **Now** ("right now", "rn", "currently", "ahora", "maintenant", "jetzt", "abhi"): today.
//!
//! The answer then names the day it took: "Today is Saturday, 5 December 2026 (Pacific
//! Time)."; a weekday names itself: "Friday is 25 December 2026 (Pacific Time): Christmas
//! Day, a public holiday." ("Saturday is today, 5 December 2026 …" on the day); a date
//! that is a holiday says so, and takes the holiday line.

use jiff::ZonedDateTime as Zoned;
use jiff::civil::{Date, Weekday};

use crate::words::split;

/// A holiday's date in a year.
pub type DateIn = fn(i16) -> Option<Date>;

/// The public holidays that count: name and its date in a year.
pub const HOLIDAYS: [(&str, DateIn); 6] = [
    ("New Year's Day", |y| Date::new(y, 1, 1).ok()),
    ("Memorial Day", |y| Date::new(y, 5, 1).ok()?.nth_weekday_of_month(-1, Weekday::Monday).ok()),
    ("Independence Day", |y| Date::new(y, 7, 4).ok()),
    ("Labor Day", |y| Date::new(y, 9, 1).ok()?.nth_weekday_of_month(1, Weekday::Monday).ok()),
    ("Thanksgiving Day", |y| Date::new(y, 11, 1).ok()?.nth_weekday_of_month(4, Weekday::Thursday).ok()),
    ("Christmas Day", |y| Date::new(y, 12, 25).ok()),
];

/// The holiday on `date`, if one counts.
pub fn holiday_on(date: Date) -> Option<&'static str> {
    HOLIDAYS.iter().find(|(_, on)| on(date.year()) == Some(date)).map(|(name, _)| *name)
}

/// One day a question means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    pub date: Date,
    pub holiday: Option<&'static str>,
}

/// The days a question means and the sentence naming them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Days {
    pub days: Vec<Day>,
    pub lead: String,
}

/// The days `question` means, asked at `now` (in the demo time zone); `None` when it names
/// no particular day.
pub fn asked(question: &str, now: &Zoned) -> Option<Days> {
    let today = now.date();
    let words = split(question);
    let day = |date: Date| Day { date, holiday: holiday_on(date) };
    if let Some((name, date)) = named_holiday(&words, today) {
        let d = day(date);
        let subject = match name {
            Some(name) if relative(today, date).is_none() => name,
            _ => relative(today, date).unwrap_or("That"),
        };
        return Some(Days { lead: lead(subject, &[d]), days: vec![d] });
    }
    if let Some(weekend) = weekend(&words, today) {
        let days: Vec<Day> = weekend.into_iter().map(day).collect();
        return Some(Days { lead: lead("This weekend", &days), days });
    }
    if let Some(read) = forms::read(question, now).date
        && !is_weekday_alone(&read.words)
    {
        let d = day(read.date);
        return Some(Days { lead: lead(relative(today, read.date).unwrap_or("That"), &[d]), days: vec![d] });
    }
    if let Some(dates) = weekdays_alone(&words, today) {
        let days: Vec<Day> = dates.into_iter().map(day).collect();
        let named: Vec<String> = days.iter().map(|d| named_weekday(today, d.date)).collect();
        return Some(Days { lead: said(&named.join(" and "), "", &days), days });
    }
    let now_words = ["now", "rn", "currently", "ahora", "maintenant", "jetzt", "abhi"];
    if words.iter().any(|w| now_words.contains(&w.as_str())) {
        let d = day(today);
        return Some(Days { lead: lead("Today", &[d]), days: vec![d] });
    }
    None
}

fn relative(today: Date, date: Date) -> Option<&'static str> {
    match (date - today).get_days() {
        0 => Some("Today"),
        1 => Some("Tomorrow"),
        _ => None,
    }
}

/// "Today is Saturday, 5 December 2026 (Pacific Time)." — and ": Christmas Day, a public
/// holiday" when a day is one (", a public holiday" when the subject names it already).
fn lead(subject: &str, days: &[Day]) -> String {
    let dates: Vec<String> = days.iter().map(|d| long_date(d.date)).collect();
    said(&format!("{subject} is {}", dates.join(" and ")), subject, days)
}

/// `what` (the days named), the time zone, and the holidays among `days` ("…, a public
/// holiday" alone when `subject` is the holiday's name).
fn said(what: &str, subject: &str, days: &[Day]) -> String {
    let holidays: Vec<&str> = days.iter().filter_map(|d| d.holiday).collect();
    let tail = match holidays.as_slice() {
        [] => String::new(),
        [h] if *h == subject => ", a public holiday".to_string(),
        [h] => format!(": {h}, a public holiday"),
        many => format!(": {}, public holidays", many.join(" and ")),
    };
    format!("{what} (Pacific Time){tail}.")
}

/// "Friday is 25 December 2026", "Saturday is today, 5 December 2026".
fn named_weekday(today: Date, date: Date) -> String {
    let long = long_date(date);
    let (weekday, rest) = long.split_once(", ").unwrap_or((&long, ""));
    let today = if date == today { "today, " } else { "" };
    format!("{weekday} is {today}{rest}")
}

/// "Saturday, 5 December 2026".
pub fn long_date(date: Date) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let weekday = crate::words::english_weekday(date.weekday());
    let mut cap = weekday.to_string();
    cap[..1].make_ascii_uppercase();
    format!("{cap}, {} {} {}", date.day(), MONTHS[(date.month() - 1) as usize], date.year())
}

/// A holiday named in `words` (folded): its name when it is one (not an eve), and its next
/// date on or after `today`.
fn named_holiday(words: &[String], today: Date) -> Option<(Option<&'static str>, Date)> {
    let at = |i: usize| words.get(i).map_or("", String::as_str);
    for i in 0..words.len() {
        let (w, next, after) = (at(i), at(i + 1), at(i + 2));
        let (index, eve) = match w {
            "new" if matches!(next, "year" | "years") => (0, after == "eve"),
            "newyear" | "newyears" | "neujahr" => (0, false),
            "ano" if next == "nuevo" => (0, false),
            "nouvel" if next == "an" => (0, false),
            "nochevieja" | "silvester" => (0, true),
            "memorial" => (1, false),
            "independence" => (2, false),
            "fourth" | "4th" if next == "of" && after == "july" => (2, false),
            "labor" | "labour" if next == "day" => (3, false),
            "thanksgiving" => (4, false),
            "christmas" | "xmas" | "navidad" | "noel" | "weihnachten" => (5, next == "eve"),
            "nochebuena" | "heiligabend" => (5, true),
            _ => continue,
        };
        let (name, on) = HOLIDAYS[index];
        let date = (today.year()..=today.year() + 1).find_map(|y| {
            let d = on(y)?;
            // the eve of New Year's Day is 31 December of the year before
            let d = if eve { d.yesterday().ok()? } else { d };
            (d >= today).then_some(d)
        })?;
        return Some(((!eve).then_some(name), date));
    }
    None
}

/// The coming weekend's days when `words` say "weekend".
fn weekend(words: &[String], today: Date) -> Option<Vec<Date>> {
    let said = words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).map_or("", String::as_str);
        matches!(w.as_str(), "weekend" | "weekends" | "wochenende")
            || (w == "week" && next == "end")
            || (w == "fin" && next == "de" && words.get(i + 2).is_some_and(|w| w == "semana"))
    });
    // "the Monday of the long weekend" is a Monday
    if !said || words.iter().any(|w| forms::read::weekday(w).is_some()) {
        return None;
    }
    let ahead = |n: i64| today.checked_add(jiff::Span::new().days(n)).ok();
    match today.weekday() {
        Weekday::Saturday => Some(vec![today, ahead(1)?]),
        Weekday::Sunday => Some(vec![today]),
        d => {
            let to_saturday =
                i64::from(Weekday::Saturday.to_monday_zero_offset() - d.to_monday_zero_offset());
            Some(vec![ahead(to_saturday)?, ahead(to_saturday + 1)?])
        }
    }
}

/// The days of weekdays said alone ("on Friday", "el viernes", "am Freitag", "vendredi",
/// "shukravar ko"): each the next such day, today if today is one, in the order said;
/// `None` when no weekday is said, or one is said as a habit — a plural ("on Fridays",
/// "los viernes", "freitags"), "every"/"each" and their words in the other languages, or
/// French "le vendredi" (on Fridays): those are the weekly line.
fn weekdays_alone(words: &[String], today: Date) -> Option<Vec<Date>> {
    const HABIT: &[&str] = &[
        "every", "each", "usually", "normally", "cada", "todos", "los", "chaque", "tous", "les", "le",
        "jeden", "jeder", "immer", "har",
    ];
    let mut dates = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let prev = if i == 0 { "" } else { words[i - 1].as_str() };
        let plural = w.strip_suffix('s').filter(|s| s.len() >= 6).and_then(crate::words::weekday);
        if plural.is_some() {
            return None;
        }
        let Some(day) = crate::words::weekday(w) else { continue };
        if HABIT.contains(&prev) {
            return None;
        }
        let ahead = (day.to_monday_zero_offset() - today.weekday().to_monday_zero_offset()).rem_euclid(7);
        let date = today.checked_add(jiff::Span::new().days(i64::from(ahead))).ok()?;
        if !dates.contains(&date) {
            dates.push(date);
        }
    }
    (!dates.is_empty()).then_some(dates)
}

/// "Saturday", "on Saturday", "el sábado": a weekday and nothing that makes it one date.
fn is_weekday_alone(words: &str) -> bool {
    let words = split(words);
    words.iter().any(|w| forms::read::weekday(w).is_some())
        && words.iter().all(|w| {
            forms::read::weekday(w).is_some() || matches!(w.as_str(), "on" | "el" | "le" | "am" | "ko")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(instant: &str) -> Zoned {
        forms::in_demo_tz(instant.parse().unwrap())
    }

    #[test]
    fn holidays_are_computed_per_year() {
        let d = |y, m, day| Date::new(y, m, day).unwrap();
        assert_eq!(holiday_on(d(2026, 11, 26)), Some("Thanksgiving Day"));
        assert_eq!(holiday_on(d(2027, 11, 25)), Some("Thanksgiving Day"));
        assert_eq!(holiday_on(d(2026, 5, 25)), Some("Memorial Day"));
        assert_eq!(holiday_on(d(2026, 9, 7)), Some("Labor Day"));
        assert_eq!(holiday_on(d(2027, 1, 1)), Some("New Year's Day"));
        assert_eq!(holiday_on(d(2026, 12, 24)), None);
    }

    #[test]
    fn days_are_read_against_the_clock() {
        let now = at("2026-12-05T09:00:00-08:00"); // a Saturday
        let one = |q: &str| asked(q, &now).map(|d| (d.days[0].date.to_string(), d.lead));
        assert_eq!(
            one("is the library open today?"),
            Some(("2026-12-05".into(), "Today is Saturday, 5 December 2026 (Pacific Time).".into()))
        );
        assert_eq!(one("demain?").unwrap().0, "2026-12-06");
        assert_eq!(
            one("open on christmas?").unwrap().1,
            "Christmas Day is Friday, 25 December 2026 (Pacific Time), a public holiday."
        );
        assert_eq!(one("christmas eve hours").unwrap().0, "2026-12-24");
        assert_eq!(
            one("hours on Saturday"),
            Some(("2026-12-05".into(), "Saturday is today, 5 December 2026 (Pacific Time).".into()))
        );
        assert_eq!(
            one("el viernes"),
            Some(("2026-12-11".into(), "Friday is 11 December 2026 (Pacific Time).".into()))
        );
        for habit in
            ["hours on Saturdays", "every saturday", "los sábados", "samstags", "le samedi", "har shaniwar"]
        {
            assert_eq!(one(habit), None, "{habit}: a habit is the weekly line");
        }
        assert_eq!(one("this Saturday").unwrap().0, "2026-12-12");
        let weekend = asked("this weekend?", &at("2026-12-03T09:00:00-08:00")).unwrap();
        assert_eq!(weekend.days.len(), 2);
        assert_eq!(weekend.days[0].date.to_string(), "2026-12-05");
        // late on Friday in California is already Saturday in UTC: the day is Pacific
        assert_eq!(
            asked("today", &at("2026-12-05T07:00:00Z")).unwrap().days[0].date.to_string(),
            "2026-12-04"
        );
        let eve = at("2026-12-24T10:00:00-08:00");
        for friday in [
            "is the library open on friday?",
            "¿abre el viernes?",
            "am Freitag?",
            "vendredi ?",
            "shukravar ko?",
        ] {
            let days = asked(friday, &eve).unwrap();
            assert_eq!(days.days[0].holiday, Some("Christmas Day"), "{friday}");
            assert_eq!(
                days.lead, "Friday is 25 December 2026 (Pacific Time): Christmas Day, a public holiday.",
                "{friday}"
            );
        }
        let two = asked("saturday and sunday?", &eve).unwrap();
        assert_eq!(two.lead, "Saturday is 26 December 2026 and Sunday is 27 December 2026 (Pacific Time).",);
        let eve = asked("open tomorrow?", &eve).unwrap();
        assert_eq!(
            eve.lead,
            "Tomorrow is Friday, 25 December 2026 (Pacific Time): Christmas Day, a public holiday."
        );
    }
}
