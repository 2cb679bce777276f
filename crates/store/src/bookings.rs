//! Study-room bookings. A booking (`bk-…`) is one `bookings` row plus one `booked_hours`
//! row per hour it covers; `booked_hours` has PRIMARY KEY (room, date, hour), so two
//! bookings that overlap in one room can never both be stored: the second insert is a
//! constraint violation, whatever order concurrent writers run in (no check-then-write).
//! Both go in one transaction, so a refused booking leaves nothing behind. The values are
//! validated by the caller (opening hours, capacity); the table only refuses what cannot
//! be a booking at all (a malformed date, an hour outside the day). Blocking.

use rusqlite::{OptionalExtension, Row, params};

use crate::{Store, StoreError, Tx};

/// A booking to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBooking {
    pub student_id: String,
    pub context_id: String,
    /// `YYYY-MM-DD`
    pub date: String,
    pub room: String,
    /// The first hour (0–23), on the hour.
    pub start_hour: u8,
    pub duration_hours: u8,
    pub group_size: u32,
}

/// A stored booking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booking {
    /// `bk-…`
    pub id: String,
    pub booking: NewBooking,
    pub created_at_ms: i64,
}

/// Why a booking was not made.
#[derive(Debug, thiserror::Error)]
pub enum BookingError {
    /// One of its hours is booked already (in this room, on this date).
    #[error("that room is already booked for at least one of those hours")]
    SlotTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl BookingError {
    /// `slot_taken`, or the store's own code.
    pub fn code(&self) -> &'static str {
        match self {
            BookingError::SlotTaken => "slot_taken",
            BookingError::Store(e) => e.code(),
        }
    }
}

const COLUMNS: &str =
    "id, student_id, context_id, date, room, start_hour, duration_hours, group_size, created_at_ms";

impl Tx<'_> {
    /// Books (inside an exactly-once effect, or any transaction); [`BookingError::SlotTaken`]
    /// when an hour is taken. On an error, roll the transaction back (returning the error
    /// from the effect does).
    pub fn book(&self, new: &NewBooking) -> Result<Booking, BookingError> {
        let booking =
            Booking { id: crate::new_id("bk"), booking: new.clone(), created_at_ms: crate::now_ms() };
        let b = &booking.booking;
        self.tx
            .execute(
                &format!("INSERT INTO bookings ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
                params![
                    booking.id,
                    b.student_id,
                    b.context_id,
                    b.date,
                    b.room,
                    b.start_hour,
                    b.duration_hours,
                    b.group_size,
                    booking.created_at_ms
                ],
            )
            .map_err(|e| self.sqlite(e))?;
        let mut hour = self
            .tx
            .prepare("INSERT INTO booked_hours (room, date, hour, booking_id) VALUES (?1, ?2, ?3, ?4)")
            .map_err(|e| self.sqlite(e))?;
        for h in b.start_hour..b.start_hour + b.duration_hours {
            hour.execute(params![b.room, b.date, h, booking.id]).map_err(|e| {
                match e.sqlite_error_code() {
                    // a primary key violation only: a CHECK failure is not a taken slot
                    Some(rusqlite::ErrorCode::ConstraintViolation) if is_primary_key(&e) => {
                        BookingError::SlotTaken
                    }
                    _ => BookingError::Store(self.sqlite(e)),
                }
            })?;
        }
        Ok(booking)
    }
}

fn is_primary_key(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY)
}

impl Store {
    /// Books in a transaction of its own. Durable when it returns.
    pub fn book(&self, new: &NewBooking) -> Result<Booking, BookingError> {
        self.write(|tx| tx.book(new))
    }

    /// The booking with this id.
    pub fn booking(&self, id: &str) -> Result<Option<Booking>, StoreError> {
        let conn = self.conn();
        conn.query_row(&format!("SELECT {COLUMNS} FROM bookings WHERE id = ?1"), [id], read_booking)
            .optional()
            .map_err(|e| self.sqlite(e))
    }

    /// A student's bookings, newest first, at most `limit`.
    pub fn bookings_of(&self, student_id: &str, limit: usize) -> Result<Vec<Booking>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM bookings WHERE student_id = ?1 ORDER BY created_at_ms DESC, rowid DESC LIMIT ?2"
        );
        self.select(&sql, params![student_id, limit as i64], read_booking)
    }

    /// Every booked (room, hour) on `date` (`YYYY-MM-DD`), ordered by room and hour.
    pub fn taken_hours(&self, date: &str) -> Result<Vec<(String, u8)>, StoreError> {
        let sql = "SELECT room, hour FROM booked_hours WHERE date = ?1 ORDER BY room, hour";
        self.select(sql, [date], |r| Ok((r.get(0)?, r.get(1)?)))
    }
}

fn read_booking(r: &Row<'_>) -> rusqlite::Result<Booking> {
    Ok(Booking {
        id: r.get(0)?,
        booking: NewBooking {
            student_id: r.get(1)?,
            context_id: r.get(2)?,
            date: r.get(3)?,
            room: r.get(4)?,
            start_hour: r.get(5)?,
            duration_hours: r.get(6)?,
            group_size: r.get(7)?,
        },
        created_at_ms: r.get(8)?,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier};

    use serde_json::json;

    use super::*;
    use crate::file_for;
    use crate::operations::{Once, fingerprint};
    use crate::testdir::TempDir;

    fn new(student: &str, room: &str, start_hour: u8, duration_hours: u8) -> NewBooking {
        NewBooking {
            student_id: student.into(),
            context_id: format!("ctx-{student}"),
            date: "2026-12-01".into(),
            room: room.into(),
            start_hour,
            duration_hours,
            group_size: 3,
        }
    }

    #[test]
    fn bookings_and_their_hours_survive_a_reopen() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        let made = {
            let store = Store::open(&path).unwrap();
            let made = store.book(&new("s1", "A", 10, 2)).unwrap();
            store.book(&new("s2", "B", 10, 1)).unwrap();
            made
        };
        assert!(made.id.starts_with("bk-"), "{}", made.id);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.booking(&made.id).unwrap().as_ref(), Some(&made));
        assert_eq!(store.bookings_of("s1", 10).unwrap(), vec![made]);
        assert_eq!(
            store.taken_hours("2026-12-01").unwrap(),
            vec![("A".to_string(), 10), ("A".to_string(), 11), ("B".to_string(), 10)]
        );
        assert!(store.taken_hours("2026-12-02").unwrap().is_empty());
    }

    #[test]
    fn an_overlap_is_refused_and_leaves_nothing_behind() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "library")).unwrap();
        store.book(&new("s1", "A", 11, 1)).unwrap();
        // 10–12 overlaps 11–12 in its second hour: its first hour must not stay booked
        let err = store.book(&new("s2", "A", 10, 2)).unwrap_err();
        assert!(matches!(err, BookingError::SlotTaken), "{err}");
        assert_eq!(err.code(), "slot_taken");
        assert_eq!(store.taken_hours("2026-12-01").unwrap(), vec![("A".to_string(), 11)]);
        assert!(store.bookings_of("s2", 10).unwrap().is_empty());
        // another room, or the free hour alone, is fine
        store.book(&new("s2", "B", 10, 2)).unwrap();
        store.book(&new("s2", "A", 10, 1)).unwrap();
    }

    #[test]
    fn what_cannot_be_a_booking_is_a_store_error_not_a_taken_slot() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "library")).unwrap();
        let mut bad = new("s1", "A", 23, 2);
        assert_eq!(store.book(&bad).unwrap_err().code(), "store_failed", "past midnight");
        bad = new("s1", "A", 10, 1);
        bad.date = "Dec 1".into();
        assert_eq!(store.book(&bad).unwrap_err().code(), "store_failed", "a malformed date");
        assert!(store.bookings_of("s1", 10).unwrap().is_empty());
    }

    /// Many handles (each its own connection, as separate processes would have) race for
    /// one slot: exactly one booking is made.
    #[test]
    fn sixteen_connections_racing_for_one_slot_make_one_booking() {
        let tmp = TempDir::new();
        let path = file_for(tmp.path(), "library");
        drop(Store::open(&path).unwrap());
        let barrier = Arc::new(Barrier::new(16));
        let handles: Vec<_> = (0..16)
            .map(|i| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let store = Store::open(&path).unwrap();
                    barrier.wait();
                    store.book(&new(&format!("s{i}"), "C", 18, 1))
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
        assert!(
            results.iter().filter_map(|r| r.as_ref().err()).all(|e| matches!(e, BookingError::SlotTaken))
        );
        let store = Store::open(&path).unwrap();
        assert_eq!(store.taken_hours("2026-12-01").unwrap(), vec![("C".to_string(), 18)]);
    }

    /// A one-hour and a two-hour booking that share an hour, racing: one wins, and the
    /// loser's other hour is not left booked.
    #[test]
    fn overlapping_one_and_two_hour_bookings_racing_one_wins() {
        for _ in 0..20 {
            let tmp = TempDir::new();
            let path = file_for(tmp.path(), "library");
            drop(Store::open(&path).unwrap());
            let barrier = Arc::new(Barrier::new(2));
            let handles: Vec<_> = [(14, 1), (13, 2)]
                .into_iter()
                .map(|(start, duration)| {
                    let (path, barrier) = (path.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        let store = Store::open(&path).unwrap();
                        barrier.wait();
                        store
                            .book(&new(&format!("s{start}"), "B", start, duration))
                            .map(|_| (start, duration))
                    })
                })
                .collect();
            let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
            let won: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
            assert_eq!(won.len(), 1, "{results:?}");
            let expected: Vec<(String, u8)> =
                (won[0].0..won[0].0 + won[0].1).map(|h| ("B".to_string(), h)).collect();
            assert_eq!(Store::open(&path).unwrap().taken_hours("2026-12-01").unwrap(), expected);
        }
    }

    #[test]
    fn a_booking_inside_an_exactly_once_effect_is_recorded_once_and_a_refusal_not_at_all() {
        let tmp = TempDir::new();
        let store = Store::open(&file_for(tmp.path(), "library")).unwrap();
        let run = |student: &str, op: &str| {
            let b = new(student, "A", 9, 1);
            let fp = fingerprint(&json!({"room": b.room, "start": b.start_hour}));
            store.once("library", op, &fp, |tx| Ok::<_, BookingError>(json!({"booking": tx.book(&b)?.id})))
        };
        let first = run("s1", "op-1").unwrap();
        assert!(matches!(first, Once::Done(_)));
        assert_eq!(run("s1", "op-1").unwrap(), Once::Replayed(first.result().unwrap().clone()));
        assert!(matches!(run("s2", "op-2").unwrap_err(), BookingError::SlotTaken));
        assert!(
            matches!(run("s2", "op-2").unwrap_err(), BookingError::SlotTaken),
            "not recorded: runs again"
        );
        assert_eq!(store.bookings_of("s1", 10).unwrap().len(), 1);
    }
}
