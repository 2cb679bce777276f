//! What makes a loan renewable and until when: the facts the service computes of a stored
//! loan on a given day (a leaf: the overview and the sample read its limits).

use jiff::civil::Date;
use store::loans::Loan;
use vocab::loans::NotRenewable;

/// Renewals a loan can have.
pub const MAX_RENEWALS: u32 = 2;
/// The latest new return date, in days after the current due date.
pub const RANGE_DAYS: i64 = 21;

/// The permitted new return dates, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    pub first: Date,
    pub last: Date,
}

impl DateRange {
    pub fn contains(&self, d: Date) -> bool {
        self.first <= d && d <= self.last
    }
}

/// A loan with what the service computed of it today.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoanFacts {
    pub id: String,
    pub title: String,
    pub author: String,
    pub due: Date,
    pub renewals_used: u32,
    /// Moves on with every change; a renewal names the one it was made from.
    pub version: i64,
    /// The permitted new return dates, or why it cannot be renewed now.
    pub renewable: Result<DateRange, NotRenewable>,
}

/// What a stored loan comes to on `today`; `None` for a row whose date is unreadable.
pub fn facts(loan: &Loan, today: Date) -> Option<LoanFacts> {
    let l = &loan.loan;
    let due: Date = l.due_date.parse().ok()?;
    let renewable = if l.course_reserve {
        Err(NotRenewable::CourseReserve)
    } else if due < today {
        Err(NotRenewable::Overdue)
    } else if l.hold {
        Err(NotRenewable::Hold)
    } else if l.renewals >= MAX_RENEWALS {
        Err(NotRenewable::LimitReached)
    } else {
        let day = |n: i64| due.checked_add(jiff::Span::new().days(n)).ok();
        Ok(DateRange { first: day(1)?, last: day(RANGE_DAYS)? })
    };
    Some(LoanFacts {
        id: l.id.clone(),
        title: l.title.clone(),
        author: l.author.clone(),
        due,
        renewals_used: l.renewals,
        version: loan.version,
        renewable,
    })
}
