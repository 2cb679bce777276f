//! The Library's loan service in words other crates read: why a loan cannot be renewed
//! and why a renewal was refused, each a stable code (the later renew form and its tests
//! name them), and the demo's one student with loans.

use serde::{Deserialize, Serialize};

/// The student id the demo's Student sends (there is no sign-in); the only borrower with
/// demo loans.
pub const DEMO_STUDENT_ID: &str = "demo-student";

/// Why a loan cannot be renewed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRenewable {
    /// A course-reserve copy: it stays with the course.
    CourseReserve,
    /// Past its due date: return it first.
    Overdue,
    /// Another borrower has placed a hold on it.
    Hold,
    /// It was renewed the most times a loan can be.
    LimitReached,
}

impl NotRenewable {
    pub const ALL: [NotRenewable; 4] =
        [NotRenewable::CourseReserve, NotRenewable::Overdue, NotRenewable::Hold, NotRenewable::LimitReached];

    pub fn as_str(self) -> &'static str {
        match self {
            NotRenewable::CourseReserve => "course_reserve",
            NotRenewable::Overdue => "overdue",
            NotRenewable::Hold => "hold",
            NotRenewable::LimitReached => "limit_reached",
        }
    }

    pub fn parse(s: &str) -> Option<NotRenewable> {
        NotRenewable::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// Why a renewal was refused (nothing was renewed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RenewRefusal {
    /// No loan has this id.
    UnknownLoan,
    /// The loan is another borrower's.
    NotYours,
    /// The loan changed since the version the request names (a renewal, a hold).
    StaleVersion,
    /// The loan cannot be renewed now (the reason beside it).
    NotEligible,
    /// The return date is outside the permitted range.
    OutOfRange,
    /// The operation id was used before with other values.
    OperationReused,
}

impl RenewRefusal {
    pub const ALL: [RenewRefusal; 6] = [
        RenewRefusal::UnknownLoan,
        RenewRefusal::NotYours,
        RenewRefusal::StaleVersion,
        RenewRefusal::NotEligible,
        RenewRefusal::OutOfRange,
        RenewRefusal::OperationReused,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RenewRefusal::UnknownLoan => "unknown_loan",
            RenewRefusal::NotYours => "not_yours",
            RenewRefusal::StaleVersion => "stale_version",
            RenewRefusal::NotEligible => "not_eligible",
            RenewRefusal::OutOfRange => "out_of_range",
            RenewRefusal::OperationReused => "operation_reused",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_their_serde_names_and_parse_back() {
        for r in NotRenewable::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
            assert_eq!(NotRenewable::parse(r.as_str()), Some(r));
        }
        for r in RenewRefusal::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
    }
}
