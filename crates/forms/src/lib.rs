//! The form workflows: `tutoring-request` (Tutor), `study-room-booking` (Library) and
//! `loan-renewal` (the Library's composed loan screens, whose components are not drawn
//! here but by `library::compose`): what a student's words say ([`read`]), the fields' rules ([`rules`]), rooms and free
//! times ([`rooms`]), the A2UI v0.9 messages of each screen ([`templates`]) and the
//! labelled heuristic that decides whether a message asks for a form ([`intent`]);
//! filling an open form from what the student types in the chat ([`fill`]).
//!
//! Knows no agent, no A2A and no store. Every function that needs the date or time takes
//! it as a parameter (`now`, `today`): nothing here reads the clock.

pub mod fill;
pub mod intent;
pub mod read;
pub mod rooms;
pub mod rules;
pub mod templates;

use jiff::Timestamp;
use jiff::ZonedDateTime as Zoned;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

pub use read::{Prefill, Reading, read};
pub use rooms::Room;
pub use rules::FieldError;

/// The demo's time zone: every date a student means is a date here.
pub const TIMEZONE: &str = "America/Los_Angeles";

/// The demo time zone, from the tz database bundled into the binary (no system files).
pub fn demo_tz() -> TimeZone {
    // the bundled database always has it: jiff's `tzdb-bundle-always`
    TimeZone::get(TIMEZONE).unwrap_or(TimeZone::UTC)
}

/// An instant seen in the demo time zone (the caller reads the clock, not this crate).
pub fn in_demo_tz(instant: Timestamp) -> Zoned {
    instant.to_zoned_datetime(demo_tz())
}

/// The registered workflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Workflow {
    #[serde(rename = "tutoring-request")]
    Tutoring,
    #[serde(rename = "study-room-booking")]
    Booking,
    /// A screen about the borrower's loans, composed per answer (its buttons are the ones
    /// that screen drew, not a fixed table).
    #[serde(rename = "loan-renewal")]
    LoanRenewal,
}

impl Workflow {
    pub const ALL: [Workflow; 3] = [Workflow::Tutoring, Workflow::Booking, Workflow::LoanRenewal];

    /// The workflow's stable id.
    pub const fn id(self) -> &'static str {
        match self {
            Workflow::Tutoring => "tutoring-request",
            Workflow::Booking => "study-room-booking",
            Workflow::LoanRenewal => vocab::form::LOAN_RENEWAL_WORKFLOW,
        }
    }

    /// The specialist that offers this workflow and keeps its records.
    pub const fn agent(self) -> &'static str {
        match self {
            Workflow::Tutoring => vocab::agents::TUTOR,
            Workflow::Booking | Workflow::LoanRenewal => vocab::agents::LIBRARY,
        }
    }

    pub fn from_id(id: &str) -> Option<Workflow> {
        Workflow::ALL.into_iter().find(|w| w.id() == id)
    }

    /// The form's fields, in the order the form shows them.
    pub const fn fields(self) -> &'static [&'static str] {
        match self {
            Workflow::Tutoring => &["name", "email", "date", "period", "topic", "notes"],
            Workflow::Booking => &["date", "room", "duration", "groupSize", "slot"],
            Workflow::LoanRenewal => &[
                vocab::loans::operation::LOAN_ID,
                vocab::loans::operation::RETURN_DATE,
                vocab::loans::operation::REQUEST,
            ],
        }
    }

    /// The A2UI `action.event.name`s this workflow's forms send, and nothing else.
    pub const fn actions(self) -> &'static [&'static str] {
        match self {
            Workflow::Tutoring => &[action::SUBMIT_TUTORING_REQUEST, action::CANCEL_FORM],
            Workflow::Booking => &[
                action::FIND_TIMES,
                action::REVIEW_BOOKING,
                action::BACK_TO_EDIT,
                action::CONFIRM_BOOKING,
                action::CANCEL_FORM,
            ],
            Workflow::LoanRenewal => &[action::RENEW_LOAN, action::FOLLOW_UP, action::CANCEL_FORM],
        }
    }
}

/// Action names (`action.event.name`).
pub mod action {
    pub const SUBMIT_TUTORING_REQUEST: &str = "submit_tutoring_request";
    pub const CANCEL_FORM: &str = "cancel_form";
    pub const FIND_TIMES: &str = "find_times";
    pub const REVIEW_BOOKING: &str = "review_booking";
    pub const BACK_TO_EDIT: &str = "back_to_edit";
    pub const CONFIRM_BOOKING: &str = "confirm_booking";
    pub const RENEW_LOAN: &str = vocab::loans::operation::RENEW_LOAN;
    /// A button's own question, asked as the student's (the Student asks it; no agent
    /// takes it as a form action).
    pub const FOLLOW_UP: &str = vocab::loans::operation::FOLLOW_UP;
}

/// A part of the day as a student says it. Tutoring takes morning or afternoon only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Period {
    Morning,
    Afternoon,
    Evening,
}

impl Period {
    pub const fn as_str(self) -> &'static str {
        match self {
            Period::Morning => "morning",
            Period::Afternoon => "afternoon",
            Period::Evening => "evening",
        }
    }

    pub fn parse(text: &str) -> Option<Period> {
        match text {
            "morning" => Some(Period::Morning),
            "afternoon" => Some(Period::Afternoon),
            "evening" => Some(Period::Evening),
            _ => None,
        }
    }

    /// The part of the day an hour falls in: before 12 morning, 12–17 afternoon, then evening.
    pub const fn of_hour(hour: i8) -> Period {
        if hour < 12 {
            Period::Morning
        } else if hour < 17 {
            Period::Afternoon
        } else {
            Period::Evening
        }
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
