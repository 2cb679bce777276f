//! The reader over a table of phrasings, at fixed instants in the demo time zone.

use forms::read::{Reading, read};
use jiff::ZonedDateTime;

/// Monday 2026-11-30 10:00 Pacific.
const MON: &str = "2026-11-30T10:00[America/Los_Angeles]";
/// Thursday 2026-12-31 (year end).
const NYE: &str = "2026-12-31T10:00[America/Los_Angeles]";
/// Friday 2027-02-26 (month end, not a leap year).
const FEB: &str = "2027-02-26T16:00[America/Los_Angeles]";
/// Sunday 2028-02-27 (a leap year).
const SUN: &str = "2028-02-27T09:00[America/Los_Angeles]";

fn at(now: &str) -> ZonedDateTime {
    now.parse().expect("a fixed instant")
}

/// The fields read, as `field=value` in a fixed order; notes as `note:field`.
fn fields(r: &Reading) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = &r.date {
        out.push(format!("date={}", d.date));
    }
    if let Some(p) = r.period {
        out.push(format!("period={}", p.as_str()));
    }
    if let Some(t) = r.time {
        out.push(format!("time={:02}:{:02}", t.hour(), t.minute()));
    }
    if let Some(h) = r.duration_hours {
        out.push(format!("duration={h}"));
    }
    if let Some(n) = r.group_size {
        out.push(format!("group={n}"));
    }
    if let Some(c) = r.room {
        out.push(format!("room={c}"));
    }
    if let Some(n) = &r.name {
        out.push(format!("name={n}"));
    }
    if let Some(e) = &r.email {
        out.push(format!("email={e}"));
    }
    for n in &r.notes {
        out.push(format!("note:{}", n.field));
    }
    out
}

const TABLE: &[(&str, &str, &[&str])] = &[
    // dates, said on Monday 2026-11-30
    (
        MON,
        "Can I meet a tutor about derivatives tomorrow afternoon?",
        &["date=2026-12-01", "period=afternoon"],
    ),
    (MON, "today please", &["date=2026-11-30"]),
    (MON, "the day after tomorrow", &["date=2026-12-02"]),
    (MON, "Monday", &["date=2026-12-07"]),
    (MON, "this Friday", &["date=2026-12-04"]),
    (MON, "next Monday", &["date=2026-12-07"]),
    (MON, "next Friday", &["date=2026-12-11"]),
    (MON, "Friday next week", &["date=2026-12-11"]),
    (MON, "on Wednesday morning", &["date=2026-12-02", "period=morning"]),
    (MON, "November 20", &["date=2027-11-20"]),
    (MON, "December 3", &["date=2026-12-03"]),
    (MON, "Nov 20th", &["date=2027-11-20"]),
    (MON, "Nov. 20th works", &["date=2027-11-20"]),
    (MON, "20 November", &["date=2027-11-20"]),
    (MON, "the 20th of December", &["date=2026-12-20"]),
    (MON, "December 3, 2027", &["date=2027-12-03"]),
    (MON, "12/15", &["date=2026-12-15"]),
    (MON, "11/20", &["date=2027-11-20"]),
    (MON, "2026-12-03", &["date=2026-12-03"]),
    (MON, "the 3rd", &["date=2026-12-03"]),
    (MON, "on the 30th", &["date=2026-11-30"]),
    (MON, "the 31st", &["date=2026-12-31"]),
    (MON, "in 3 days", &["date=2026-12-03"]),
    (MON, "in a week", &["date=2026-12-07"]),
    (MON, "sometime next week", &["note:date"]),
    (MON, "February 30", &["note:date"]),
    (MON, "13/40", &["note:date"]),
    (MON, "2026-02-30", &["note:date"]),
    (MON, "not Monday", &[]),
    (MON, "not Monday, Tuesday", &["date=2026-12-01"]),
    (MON, "I can't do Friday but Thursday works", &["date=2026-12-03"]),
    (MON, "tomorrow or Friday", &["note:date"]),
    (MON, "tomorrow, December 1st", &["date=2026-12-01"]),
    (MON, "May I book a room?", &[]),
    (MON, "mañana por la tarde", &["date=2026-12-01", "period=afternoon"]),
    (MON, "el lunes que viene por la mañana", &["date=2026-12-07", "period=morning"]),
    (MON, "20 de diciembre", &["date=2026-12-20"]),
    // times
    (MON, "tomorrow at 3pm", &["date=2026-12-01", "time=15:00"]),
    (MON, "at 10", &["time=10:00"]),
    (MON, "at 3", &["time=15:00"]),
    (MON, "at 9 in the evening", &["period=evening", "time=21:00"]),
    (MON, "around noon", &["time=12:00"]),
    (MON, "15:00", &["time=15:00"]),
    (MON, "3:30 pm", &["time=15:30"]),
    (MON, "12am", &["time=00:00"]),
    (MON, "morning or afternoon", &["note:period"]),
    // durations
    (MON, "2 hours", &["duration=2"]),
    (MON, "an hour", &["duration=1"]),
    (MON, "1h", &["duration=1"]),
    (MON, "for two hours", &["duration=2"]),
    (MON, "a 2-hour slot", &["duration=2"]),
    (MON, "120 minutes", &["duration=2"]),
    (MON, "90 minutes", &["note:duration"]),
    (MON, "3 hours", &["duration=3"]),
    (MON, "in 2 hours", &[]),
    // group sizes
    (MON, "4 people", &["group=4"]),
    (MON, "for 6 of us", &["group=6"]),
    (MON, "a group of five", &["group=5"]),
    (MON, "me and 3 friends", &["group=4"]),
    (MON, "me and a friend", &["group=2"]),
    (MON, "with 2 classmates", &["group=3"]),
    (MON, "just me", &["group=1"]),
    (MON, "somos 4 personas", &["group=4"]),
    (MON, "not 4 people, 6 people", &["group=6"]),
    // rooms
    (MON, "room B", &["room=B"]),
    (MON, "Room c", &["room=C"]),
    (MON, "a room I can use", &[]),
    (MON, "room B or room C", &["note:room"]),
    // together
    (
        MON,
        "book room B tomorrow for 4 people, 2 hours",
        &["date=2026-12-01", "duration=2", "group=4", "room=B"],
    ),
    (MON, "room B, 2 hours, 4 people, tomorrow", &["date=2026-12-01", "duration=2", "group=4", "room=B"]),
    (
        MON,
        "I'm Alex Student, alex@example.com, next Monday mornings, I need help with the chain rule",
        &["date=2026-12-07", "period=morning", "name=Alex Student", "email=alex@example.com"],
    ),
    (MON, "my name is Maria José García", &["name=Maria José García"]),
    (MON, "i'm free tomorrow", &["date=2026-12-01"]),
    (MON, "I'm not sure, maybe Friday", &["date=2026-12-04"]),
    (MON, "write to a@b.co or c@d.co", &["note:email"]),
    (MON, "alex@example", &[]),
    // year end
    (NYE, "tomorrow", &["date=2027-01-01"]),
    (NYE, "January 5", &["date=2027-01-05"]),
    (NYE, "the 1st", &["date=2027-01-01"]),
    (NYE, "next Monday", &["date=2027-01-04"]),
    (NYE, "12/31", &["date=2026-12-31"]),
    (NYE, "December 30", &["date=2027-12-30"]),
    // month end, leap days
    (FEB, "Feb 29", &["date=2028-02-29"]),
    (FEB, "the 30th", &["date=2027-03-30"]),
    (FEB, "in 3 days", &["date=2027-03-01"]),
    (FEB, "Monday", &["date=2027-03-01"]),
    (SUN, "next Monday", &["date=2028-02-28"]),
    (SUN, "Monday", &["date=2028-02-28"]),
    (SUN, "the 29th", &["date=2028-02-29"]),
    (SUN, "this weekend", &["note:date"]),
];

#[test]
fn the_table_of_phrasings_reads_as_expected() {
    assert!(TABLE.len() >= 40);
    let mut wrong = Vec::new();
    for (now, text, expected) in TABLE {
        let got = fields(&read(text, &at(now)));
        let expected: Vec<String> = expected.iter().map(|s| (*s).to_string()).collect();
        if got != expected {
            wrong.push(format!("{text:?} at {now}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} misread:\n{}", wrong.len(), TABLE.len(), wrong.join("\n"));
}

#[test]
fn a_date_keeps_the_words_it_came_from() {
    let r = read("Could we do Nov 20th, in the afternoon?", &at(MON));
    assert_eq!(r.date.expect("a date").words, "Nov 20th");
}

#[test]
fn ambiguity_and_impossible_dates_say_why() {
    let r = read("tomorrow or Friday", &at(MON));
    assert_eq!(r.note("date"), Some("two different dates: tomorrow (2026-12-01) and friday (2026-12-04)"));
    let r = read("February 30", &at(MON));
    assert_eq!(r.note("date"), Some("february 30 is not a date"));
    let r = read("next week", &at(MON));
    assert_eq!(r.note("date"), Some("next week is not one date: say which day"));
}

#[test]
fn prefill_carries_scheduling_fields_only() {
    let r =
        read("I'm Alex Student, alex@example.com, room B tomorrow at 3pm for 2 hours, 4 people", &at(MON));
    assert_eq!(r.name.as_deref(), Some("Alex Student"));
    assert_eq!(r.email.as_deref(), Some("alex@example.com"));
    let p = r.prefill();
    let shown = serde_json::to_value(p).expect("serializes");
    let keys: Vec<&String> = shown.as_object().expect("an object").keys().collect();
    assert_eq!(keys, ["date", "durationHours", "groupSize", "period", "room", "time"]);
    assert_eq!(p.date.map(|d| d.to_string()).as_deref(), Some("2026-12-01"));
    assert_eq!(p.room, Some('B'));
    assert_eq!(p.group_size, Some(4));
    assert_eq!(p.duration_hours, Some(2));
    let text = serde_json::to_string(&p).expect("serializes");
    assert!(!text.contains("Alex") && !text.contains('@'), "{text}");
}

#[test]
fn long_and_odd_input_is_read_without_panicking() {
    let now = at(MON);
    let long = "room B tomorrow ".repeat(2_000);
    let r = read(&long, &now);
    assert_eq!(r.room, Some('B'));
    for text in [
        "",
        " ",
        ",,,",
        "the",
        "in",
        "at",
        "room",
        "me and",
        "31/31/31",
        "99:99",
        "💥 tomorrow ü",
        "12/",
        "-1 hours",
        "the 0th",
        "at 13",
        "2026-13-01",
    ] {
        let _ = read(text, &now);
    }
    assert_eq!(read("💥 tomorrow ü", &now).date.map(|d| d.date.to_string()).as_deref(), Some("2026-12-01"));
}

#[test]
fn contradictions_name_both_values() {
    let now = at(MON);
    assert_eq!(
        read("morning or afternoon", &now).note("period"),
        Some("two different values for the period: morning and afternoon")
    );
    assert_eq!(
        read("room B or room C", &now).note("room"),
        Some("two different values for the room: B and C")
    );
    assert_eq!(
        read("4 people, no wait, 5 people", &now).note("groupSize"),
        Some("two different values for the group size: 4 and 5")
    );
    assert_eq!(
        read("at 3pm or 4pm", &now).note("time"),
        Some("two different values for the time: 15:00 and 16:00")
    );
}

#[test]
fn dates_named_keeps_every_date_and_calendar_reads_only_written_out_ones() {
    use forms::read::{DateWords, dates_named};
    use jiff::civil::date;
    let today = at(MON).date();
    let text = "Due 2026-12-05 (Saturday), or tomorrow, or Dec 9th; not February 30.";
    let all: Vec<_> = dates_named(text, today, DateWords::All);
    assert_eq!(
        all,
        [Some(date(2026, 12, 5)), Some(date(2026, 12, 5)), Some(date(2026, 12, 1)), Some(date(2026, 12, 9))]
    );
    let written = dates_named(text, today, DateWords::Calendar);
    assert_eq!(written, [Some(date(2026, 12, 5)), Some(date(2026, 12, 9)), None]);
    assert!(dates_named("0 of 2 renewals used, loan ln-calculus", today, DateWords::Calendar).is_empty());
}
