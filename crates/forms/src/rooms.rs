//! The demo's study rooms, their opening hours, the fixture bookings and the free times
//! a booking form offers. Times are whole hours in the demo time zone.

use hmac::{Hmac, KeyInit, Mac};
use jiff::ZonedDateTime as Zoned;
use jiff::civil::{Date, Time};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// The first hour a booking may start.
pub const OPEN_HOUR: i8 = 9;
/// The hour every booking has ended by.
pub const CLOSE_HOUR: i8 = 21;
/// Bookings are for 1 or 2 whole hours.
pub const DURATIONS: [u8; 2] = [1, 2];
/// How far ahead a room may be booked (today counts as 0).
pub const MAX_DAYS_AHEAD: i32 = 14;

/// A study room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Room {
    A,
    B,
    C,
}

impl Room {
    pub const ALL: [Room; 3] = [Room::A, Room::B, Room::C];

    pub const fn as_str(self) -> &'static str {
        match self {
            Room::A => "A",
            Room::B => "B",
            Room::C => "C",
        }
    }

    /// How many people the room holds.
    pub const fn capacity(self) -> u8 {
        match self {
            Room::A => 4,
            Room::B => 6,
            Room::C => 10,
        }
    }

    /// `A`, `b`, ` C ` (one letter, either case, trimmed).
    pub fn parse(text: &str) -> Option<Room> {
        match text.trim() {
            "A" | "a" => Some(Room::A),
            "B" | "b" => Some(Room::B),
            "C" | "c" => Some(Room::C),
            _ => None,
        }
    }

    /// The hours the fixture keeps booked every day, as `[start, end)`.
    pub const fn fixture(self) -> (i8, i8) {
        match self {
            Room::A => (14, 16),
            Room::B => (10, 11),
            Room::C => (18, 19),
        }
    }

    /// Whether the fixture holds this room during the hour starting at `hour`.
    pub const fn fixture_busy(self, hour: i8) -> bool {
        let (start, end) = self.fixture();
        hour >= start && hour < end
    }
}

/// The largest room's capacity: no group is larger.
pub const MAX_GROUP: u8 = 10;

/// What a booking asks for, before a time is chosen: the only fields an availability
/// lookup ever carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Criteria {
    pub date: Date,
    pub room: Room,
    pub duration: u8,
    pub group_size: u8,
}

/// One hour of one room already booked (besides the fixture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Taken {
    pub room: Room,
    pub date: Date,
    pub hour: i8,
}

impl Taken {
    /// Every hour a booking of `duration` hours starting at `start` holds.
    pub fn hours(room: Room, date: Date, start: i8, duration: u8) -> impl Iterator<Item = Taken> {
        (0..duration as i8).map(move |i| Taken { room, date, hour: start + i })
    }
}

/// A free time the form may offer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Slot {
    /// Opaque, specific to one form: see [`SlotKey`].
    pub id: String,
    pub date: Date,
    pub room: Room,
    pub start_hour: i8,
    pub duration: u8,
}

impl Slot {
    /// `14:00–16:00`.
    pub fn label(&self) -> String {
        format!("{:02}:00–{:02}:00", self.start_hour, self.start_hour + self.duration as i8)
    }
}

/// The secret slot ids are derived with (HMAC-SHA-256): an id names a form, a date, a
/// room, a start and a duration, so another form's id, or an invented one, never matches.
#[derive(Clone)]
pub struct SlotKey(Hmac<Sha256>);

impl std::fmt::Debug for SlotKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SlotKey(..)")
    }
}

impl SlotKey {
    /// A key of any length (an agent draws 32 random bytes at start).
    pub fn new(secret: &[u8]) -> SlotKey {
        // HMAC takes keys of any length
        SlotKey(<Hmac<Sha256> as KeyInit>::new_from_slice(secret).unwrap_or_else(|_| unreachable!()))
    }

    /// `s-` and 32 hex digits (128 bits of the MAC).
    pub fn id(&self, form_id: &str, date: Date, room: Room, start_hour: i8, duration: u8) -> String {
        let mut mac = self.0.clone();
        // each part length-prefixed, so no two different tuples share an input
        for part in
            [form_id, &date.to_string(), room.as_str(), &start_hour.to_string(), &duration.to_string()]
        {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part.as_bytes());
        }
        let bytes = mac.finalize().into_bytes();
        let mut id = String::with_capacity(34);
        id.push_str("s-");
        for b in &bytes[..16] {
            id.push(hex_digit(b >> 4));
            id.push(hex_digit(b & 0xf));
        }
        id
    }
}

fn hex_digit(n: u8) -> char {
    char::from_digit(u32::from(n), 16).unwrap_or('0')
}

/// Whether `date` is bookable seen from `today`: today up to [`MAX_DAYS_AHEAD`] days on.
pub fn bookable_date(date: Date, today: Date) -> bool {
    date >= today && days_between(today, date) <= i64::from(MAX_DAYS_AHEAD)
}

/// Whole days from `from` to `to` (negative when `to` is earlier).
pub(crate) fn days_between(from: Date, to: Date) -> i64 {
    from.until(to).map(|span| i64::from(span.get_days())).unwrap_or(i64::MAX)
}

/// The start hours where every hour of the booking is free (fixture and `taken`), within
/// opening hours and, today, later than `now`. Empty when the group is larger than the
/// room, the duration is not 1 or 2 hours, or the date is outside the booking window.
pub fn free_slots(
    key: &SlotKey,
    form_id: &str,
    criteria: &Criteria,
    now: &Zoned,
    taken: &[Taken],
) -> Vec<Slot> {
    let Criteria { date, room, duration, group_size } = *criteria;
    let today = now.date();
    if group_size == 0
        || group_size > room.capacity()
        || !DURATIONS.contains(&duration)
        || !bookable_date(date, today)
    {
        return Vec::new();
    }
    let busy = |hour: i8| room.fixture_busy(hour) || taken.contains(&Taken { room, date, hour });
    (OPEN_HOUR..=CLOSE_HOUR - duration as i8)
        .filter(|&start| date > today || Time::constant(start, 0, 0, 0) > now.time())
        .filter(|&start| Taken::hours(room, date, start, duration).all(|t| !busy(t.hour)))
        .map(|start| Slot {
            id: key.id(form_id, date, room, start, duration),
            date,
            room,
            start_hour: start,
            duration,
        })
        .collect()
}

/// The free slot `slot_id` names for this form and these criteria, if it is still free:
/// what a review or confirmation checks before it believes a slot id.
pub fn find_slot(
    key: &SlotKey,
    form_id: &str,
    criteria: &Criteria,
    slot_id: &str,
    now: &Zoned,
    taken: &[Taken],
) -> Option<Slot> {
    free_slots(key, form_id, criteria, now, taken)
        .into_iter()
        .find(|s| same(s.id.as_bytes(), slot_id.as_bytes()))
}

/// Equal without an early exit on the first differing byte.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
