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
pub const OFFLINE_LABEL: &str = "Offline Library (no model)";
/// Said after the loans in words when the question asks to renew one: renewing is a
/// screen, which this client cannot show.
pub const RENEW_ON_THE_PAGE: &str = "\nTo renew, ask on the Campus page in a browser (the address `campus demo` prints): the app you are asking from can't show the renewal screen.";
/// The label in live mode: the model writes nothing of it either.
pub(super) const LIVE_LABEL: &str = "Library loan service (written by rule; no model wrote this)";

/// "2026-12-26 (Saturday)".
pub fn day(date: Date) -> String {
    format!("{date} ({})", forms::templates::weekday_name(date))
}

/// Why not, in words.
pub fn why_not(reason: NotRenewable) -> String {
    match reason {
        NotRenewable::CourseReserve => "it is a course-reserve copy".into(),
        NotRenewable::Overdue => "it is overdue; please return it".into(),
        NotRenewable::Hold => "another borrower has placed a hold on it".into(),
        NotRenewable::LimitReached => {
            format!("it has been renewed {MAX_RENEWALS} times, the most a loan can be")
        }
    }
}

/// Whether a loan can be renewed and to when, or why not: one sentence.
pub fn status(l: &LoanFacts) -> String {
    match &l.renewable {
        Ok(range) => format!(
            "Renewable ({} of {MAX_RENEWALS} renewals used): a new return date from {} to {}.",
            l.renewals_used, range.first, range.last
        ),
        Err(reason) => format!("Not renewable: {}.", why_not(*reason)),
    }
}

/// One loan's line.
fn line(l: &LoanFacts) -> String {
    format!("- {} ({}, loan {}): due {}. {}", l.title, l.author, l.id, day(l.due), status(l))
}

/// A composer's words answer (`framing`) with the facts of the loans it is about, each
/// in its line by rule; a borrower with no loans at all is told so by rule too.
pub fn framed(framing: &str, about: &[&LoanFacts], borrower_has_loans: bool) -> String {
    let mut text = framing.trim_end().to_string();
    if !borrower_has_loans {
        text.push_str("\nThe loan service has no loans on record for you.");
    }
    for l in about {
        text.push('\n');
        text.push_str(&line(l));
    }
    text
}

/// The overview of `loans` (one borrower's, by due date) on `today`; `live` when the
/// Library runs in live mode (the label says no model wrote it all the same).
pub fn overview(loans: &[LoanFacts], today: Date, live: bool) -> String {
    labelled(if live { LIVE_LABEL } else { OFFLINE_LABEL }, loans, today)
}

/// The same overview after `label` and a colon (who says it and why in words).
pub fn labelled(label: &str, loans: &[LoanFacts], today: Date) -> String {
    if loans.is_empty() {
        return format!("{label}: you have no loans on record.");
    }
    let renewable = loans.iter().filter(|l| l.renewable.is_ok()).count();
    let count = match (loans.len(), renewable) {
        (1, 1) => "The loan is renewable now.".to_string(),
        (1, _) => "The loan is not renewable now.".to_string(),
        (n, r) => format!("{n} loans, {r} of them renewable now."),
    };
    let mut text =
        format!("{label}: your loans from the loan service (demo records), today {}. {count}", day(today));
    for l in loans {
        text.push('\n');
        text.push_str(&line(l));
    }
    text
}
