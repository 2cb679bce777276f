//! The demo's loans (fictional titles and authors): six of the demo student's — two
//! renewable, one with another borrower's hold, one at its renewal limit, a renewable
//! marketing title beside another marketing title (so "the marketing book" is ambiguous)
//! and a course-reserve copy — and one of another borrower, never shown to anyone else.

use jiff::civil::Date;
use store::loans::NewLoan;
use vocab::loans::DEMO_STUDENT_ID;

use super::rules::MAX_RENEWALS;

/// The borrower of the loan the demo student must never see.
pub const OTHER_BORROWER: &str = "other-borrower";

/// (id, borrower, title, author, due in days after the first day, renewals used, hold,
/// course reserve)
type Row = (&'static str, &'static str, &'static str, &'static str, i64, u32, bool, bool);

const ROWS: [Row; 7] = [
    ("ln-calculus", DEMO_STUDENT_ID, "Calculus in Motion", "Ines Okafor", 9, 0, false, false),
    ("ln-statistics", DEMO_STUDENT_ID, "Statistics for the Curious", "Tomas Lind", 16, 1, false, false),
    ("ln-marketing-basics", DEMO_STUDENT_ID, "Marketing Basics", "Priya Anand", 12, 0, false, false),
    ("ln-chemistry", DEMO_STUDENT_ID, "Organic Chemistry Step by Step", "Hana Sato", 5, 0, true, false),
    (
        "ln-marketing-research",
        DEMO_STUDENT_ID,
        "Marketing Research Methods",
        "Leon Brandt",
        20,
        MAX_RENEWALS,
        false,
        false,
    ),
    (
        "ln-physics-reserve",
        DEMO_STUDENT_ID,
        "Physics for Engineers (course reserve)",
        "Mara Quist",
        2,
        0,
        false,
        true,
    ),
    ("ln-history", OTHER_BORROWER, "A Short History of Lighthouses", "Otto Varga", 14, 0, false, false),
];

/// The sample whose first day is `anchor`.
pub fn sample(anchor: Date) -> Vec<NewLoan> {
    ROWS.iter()
        .map(|&(id, borrower, title, author, days, renewals, hold, course_reserve)| NewLoan {
            id: id.into(),
            borrower: borrower.into(),
            title: title.into(),
            author: author.into(),
            due_date: anchor.checked_add(jiff::Span::new().days(days)).unwrap_or(anchor).to_string(),
            renewals,
            hold,
            course_reserve,
        })
        .collect()
}
