//! Rooms, opening hours, the fixture and keyed slot ids.

use forms::rooms::{Criteria, SlotKey, Taken, bookable_date, find_slot, free_slots};
use forms::{Room, in_demo_tz};
use jiff::ZonedDateTime;
use jiff::civil::Date;

fn now() -> ZonedDateTime {
    "2026-11-30T10:00[America/Los_Angeles]".parse().expect("fixed")
}

fn key() -> SlotKey {
    SlotKey::new(b"test key, never used elsewhere")
}

const TOMORROW: Date = Date::constant(2026, 12, 1);

fn starts(room: Room, duration: u8, taken: &[Taken]) -> Vec<i8> {
    let c = Criteria { date: TOMORROW, room, duration, group_size: 2 };
    free_slots(&key(), "form-1", &c, &now(), taken).iter().map(|s| s.start_hour).collect()
}

#[test]
fn free_slots_skip_the_fixture_and_closing_time() {
    // A is held 14–16: a 2-hour booking may not start at 13, 14 or 15; the last ends at 21
    assert_eq!(starts(Room::A, 2, &[]), [9, 10, 11, 12, 16, 17, 18, 19]);
    assert_eq!(starts(Room::A, 1, &[]), [9, 10, 11, 12, 13, 16, 17, 18, 19, 20]);
    assert_eq!(starts(Room::B, 1, &[]), [9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    assert_eq!(starts(Room::C, 2, &[]), [9, 10, 11, 12, 13, 14, 15, 16, 19]);
    // a booked hour takes every slot that covers it
    let taken: Vec<Taken> = Taken::hours(Room::C, TOMORROW, 12, 1).collect();
    assert_eq!(starts(Room::C, 2, &taken), [9, 10, 13, 14, 15, 16, 19]);
    // another day's booking does not
    let other: Vec<Taken> = Taken::hours(Room::C, Date::constant(2026, 12, 2), 12, 1).collect();
    assert_eq!(starts(Room::C, 2, &other), [9, 10, 11, 12, 13, 14, 15, 16, 19]);
}

#[test]
fn nothing_is_offered_outside_the_rules() {
    let k = key();
    let c =
        |date: Date, room: Room, duration: u8, group_size: u8| Criteria { date, room, duration, group_size };
    assert!(free_slots(&k, "f", &c(TOMORROW, Room::A, 1, 5), &now(), &[]).is_empty(), "room A holds 4");
    assert!(free_slots(&k, "f", &c(TOMORROW, Room::A, 3, 2), &now(), &[]).is_empty(), "3 hours");
    assert!(free_slots(&k, "f", &c(TOMORROW, Room::A, 1, 0), &now(), &[]).is_empty(), "nobody");
    assert!(free_slots(&k, "f", &c(Date::constant(2026, 11, 29), Room::A, 1, 2), &now(), &[]).is_empty());
    assert!(free_slots(&k, "f", &c(Date::constant(2026, 12, 15), Room::A, 1, 2), &now(), &[]).is_empty());
    assert!(bookable_date(Date::constant(2026, 12, 14), now().date()));
    // today, only hours that start later than now (10:00 exactly: 10 has begun)
    let today: Vec<i8> = free_slots(&k, "f", &c(now().date(), Room::B, 1, 2), &now(), &[])
        .iter()
        .map(|s| s.start_hour)
        .collect();
    assert_eq!(today, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
}

#[test]
fn slot_ids_are_opaque_and_belong_to_one_form() {
    let k = key();
    let c = Criteria { date: TOMORROW, room: Room::B, duration: 2, group_size: 4 };
    let slots = free_slots(&k, "form-1", &c, &now(), &[]);
    let first = &slots[0];
    assert_eq!(first.label(), "11:00–13:00");
    assert!(first.id.starts_with("s-") && first.id.len() == 34, "{}", first.id);
    assert!(!first.id.contains("form-1") && !first.id.contains("2026"));
    // found again for the same form and criteria, never for another form, key or criteria
    assert_eq!(find_slot(&k, "form-1", &c, &first.id, &now(), &[]).as_ref(), Some(first));
    assert_eq!(find_slot(&k, "form-2", &c, &first.id, &now(), &[]), None);
    assert_eq!(find_slot(&SlotKey::new(b"another key"), "form-1", &c, &first.id, &now(), &[]), None);
    let one_hour = Criteria { duration: 1, ..c };
    assert_eq!(find_slot(&k, "form-1", &one_hour, &first.id, &now(), &[]), None);
    assert_eq!(find_slot(&k, "form-1", &c, "s-00000000000000000000000000000000", &now(), &[]), None);
    // a slot someone else took is no longer found
    let taken: Vec<Taken> = Taken::hours(Room::B, TOMORROW, 12, 1).collect();
    assert_eq!(find_slot(&k, "form-1", &c, &first.id, &now(), &taken), None);
    // every id differs
    let mut ids: Vec<&str> = slots.iter().map(|s| s.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), slots.len());
}

#[test]
fn the_bundled_time_zone_knows_pacific_time() {
    let z = in_demo_tz("2026-07-01T19:00:00Z".parse().expect("an instant"));
    assert_eq!((z.hour(), z.offset().seconds()), (12, -7 * 3600));
    let z = in_demo_tz("2026-12-01T20:00:00Z".parse().expect("an instant"));
    assert_eq!((z.hour(), z.offset().seconds()), (12, -8 * 3600));
}
