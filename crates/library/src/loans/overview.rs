//! The offline answer to a question about one's own loans: a plain-text overview of what
//! the loan service computed, labelled as the offline Library's. Every date, reason and
//! count in it is the service's ([`super::LoanFacts`]).

use jiff::civil::Date;
use vocab::loans::NotRenewable;

use super::rules::{LoanFacts, MAX_RENEWALS};

/// The reply when no student is vouched for by the Hub (a direct call, a forged, stale or
/// replayed signature, or a forward for no one): no loan data at all.
pub const NOT_VOUCHED: &str = "I can't show any loans: the university has not vouched for who you are. Ask through the University Hub, signed in as yourself.";

/// The label a loan answer starts with in mock mode.
const LABEL: &str = "Offline Library (no model)";
/// The label in live mode: the model writes nothing of it either.
const LIVE_LABEL: &str = "Library loan service (written by rule; no model wrote this)";

/// "2026-12-26 (Saturday)".
fn day(date: Date) -> String {
    format!("{date} ({})", forms::templates::weekday_name(date))
}

/// Why not, in words.
fn why_not(reason: NotRenewable) -> String {
    match reason {
        NotRenewable::CourseReserve => "it is a course-reserve copy".into(),
        NotRenewable::Overdue => "it is overdue; please return it".into(),
        NotRenewable::Hold => "another borrower has placed a hold on it".into(),
        NotRenewable::LimitReached => {
            format!("it has been renewed {MAX_RENEWALS} times, the most a loan can be")
        }
    }
}

/// One loan's line.
fn line(l: &LoanFacts) -> String {
    let status = match &l.renewable {
        Ok(range) => format!(
            "Renewable ({} of {MAX_RENEWALS} renewals used): a new return date from {} to {}.",
            l.renewals_used, range.first, range.last
        ),
        Err(reason) => format!("Not renewable: {}.", why_not(*reason)),
    };
    format!("- {} ({}, loan {}): due {}. {status}", l.title, l.author, l.id, day(l.due))
}

/// The overview of `loans` (one borrower's, by due date) on `today`; `live` when the
/// Library runs in live mode (the label says no model wrote it all the same).
pub fn overview(loans: &[LoanFacts], today: Date, live: bool) -> String {
    let label = if live { LIVE_LABEL } else { LABEL };
    if loans.is_empty() {
        return format!("{label}: you have no loans on record.");
    }
    let renewable = loans.iter().filter(|l| l.renewable.is_ok()).count();
    let mut text = format!(
        "{label}: your loans from the loan service (demo records), today {}. {} loans, {renewable} of them renewable now.",
        day(today),
        loans.len()
    );
    for l in loans {
        text.push('\n');
        text.push_str(&line(l));
    }
    text
}
