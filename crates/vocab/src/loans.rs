//! The Library's loan service in words other crates read: why a loan cannot be renewed
//! and why a renewal was refused, each a stable code (the later renew form and its tests
//! name them), the demo's one student with loans, and a composed loan screen's operations
//! and the codes of its checks.

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

/// The operations a composed loan screen's buttons send (`action.event.name`) and their
/// inputs (the action context's keys); its Close button sends the forms' `cancel_form`
/// (`forms::action::CANCEL_FORM`), and every button carries `formVersion` beside these.
pub mod operation {
    /// Renew one loan to the date its picker holds: [`LOAN_ID`] and [`RETURN_DATE`].
    pub const RENEW_LOAN: &str = "renew_loan";
    /// Ask the Library a new question, written into the button: [`REQUEST`].
    pub const FOLLOW_UP: &str = "follow_up";
    /// The loan a renewal names (a literal: the service's id).
    pub const LOAN_ID: &str = "loanId";
    /// The new return date (bound to the loan's date picker, `YYYY-MM-DD`).
    pub const RETURN_DATE: &str = "returnDate";
    /// The follow-up question's text (a literal).
    pub const REQUEST: &str = "request";
}

/// Why a composed answer about loans (blocks, or the A2UI compiled from them) was refused
/// before anything was sent: each a stable code, fed back to the composer with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComposeCheck {
    /// Not in the shape of the composition schema.
    BlocksInvalid,
    /// Empty text, an empty list or a screen with no block.
    Empty,
    /// A loan id that is not one of the borrower's loans.
    UnknownLoan,
    /// A loan shown twice as a card, or given two date pickers.
    DuplicateLoan,
    /// A renew choice or a date picker for a loan that cannot be renewed.
    NotRenewable,
    /// A renew choice with no date picker for its loan.
    RenewWithoutPicker,
    /// A date picker with no renew choice for its loan.
    PickerWithoutRenew,
    /// A picker's first date outside the permitted range.
    InitialOutOfRange,
    /// A picker whose bounds are not exactly the service's range for its loan.
    PickerRange,
    /// A date in text that is neither in the loan data nor in the student's words.
    InventedDate,
    /// A composer's own words state a loan fact (a date, a count, a loan's state): the
    /// facts on a loan answer are the loan service's, drawn by code.
    StatedFact,
    /// Markdown in text (the renderer shows it as it is).
    Markdown,
    /// A button that sends anything but a registered operation.
    OperationNotAllowed,
    /// A registered operation with the wrong inputs.
    OperationInputs,
    /// A component reference that names no component.
    DanglingReference,
    /// Components that contain each other.
    ReferenceCycle,
    /// No `root` component, or two components with one id.
    NoRoot,
    /// More components than a screen may have.
    TooManyComponents,
    /// Nesting deeper than a screen may have.
    TooDeep,
    /// A surface larger than a screen may be.
    TooLarge,
    /// The official A2UI v0.9 schema refuses a message.
    SchemaInvalid,
    /// The Student's allowlist refuses the surface (catalog, component, function).
    NotAllowed,
}

impl ComposeCheck {
    pub const ALL: [ComposeCheck; 22] = [
        ComposeCheck::BlocksInvalid,
        ComposeCheck::Empty,
        ComposeCheck::UnknownLoan,
        ComposeCheck::DuplicateLoan,
        ComposeCheck::NotRenewable,
        ComposeCheck::RenewWithoutPicker,
        ComposeCheck::PickerWithoutRenew,
        ComposeCheck::InitialOutOfRange,
        ComposeCheck::PickerRange,
        ComposeCheck::InventedDate,
        ComposeCheck::StatedFact,
        ComposeCheck::Markdown,
        ComposeCheck::OperationNotAllowed,
        ComposeCheck::OperationInputs,
        ComposeCheck::DanglingReference,
        ComposeCheck::ReferenceCycle,
        ComposeCheck::NoRoot,
        ComposeCheck::TooManyComponents,
        ComposeCheck::TooDeep,
        ComposeCheck::TooLarge,
        ComposeCheck::SchemaInvalid,
        ComposeCheck::NotAllowed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ComposeCheck::BlocksInvalid => "blocks_invalid",
            ComposeCheck::Empty => "empty",
            ComposeCheck::UnknownLoan => "unknown_loan",
            ComposeCheck::DuplicateLoan => "duplicate_loan",
            ComposeCheck::NotRenewable => "not_renewable",
            ComposeCheck::RenewWithoutPicker => "renew_without_picker",
            ComposeCheck::PickerWithoutRenew => "picker_without_renew",
            ComposeCheck::InitialOutOfRange => "initial_out_of_range",
            ComposeCheck::PickerRange => "picker_range",
            ComposeCheck::InventedDate => "invented_date",
            ComposeCheck::StatedFact => "stated_fact",
            ComposeCheck::Markdown => "markdown",
            ComposeCheck::OperationNotAllowed => "operation_not_allowed",
            ComposeCheck::OperationInputs => "operation_inputs",
            ComposeCheck::DanglingReference => "dangling_reference",
            ComposeCheck::ReferenceCycle => "reference_cycle",
            ComposeCheck::NoRoot => "no_root",
            ComposeCheck::TooManyComponents => "too_many_components",
            ComposeCheck::TooDeep => "too_deep",
            ComposeCheck::TooLarge => "too_large",
            ComposeCheck::SchemaInvalid => "schema_invalid",
            ComposeCheck::NotAllowed => "not_allowed",
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
        for c in ComposeCheck::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
    }
}
