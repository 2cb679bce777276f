//! The loan service on a real store file: the sample, every rule and refusal, the range's
//! exact bounds, renewals exactly once across reopening the file, a hold placed behind a
//! form's back, and the reset of a new conversation.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use jiff::Timestamp;
use jiff::civil::{Date, date};
use vocab::loans::DEMO_STUDENT_ID as ALEX;

use super::*;

/// Thursday 24 December 2026, 10:00 Pacific Time.
const TODAY: &str = "2026-12-24T10:00:00-08:00";

struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("campus-loans-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn file(&self) -> PathBuf {
        store::file_for(&self.0, "library")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn clock(at: &str) -> Clock {
    Clock::fixed(at.parse::<Timestamp>().unwrap())
}

fn service(file: &Path, at: &str) -> Loans {
    Loans::new(Store::open(file).unwrap(), clock(at))
}

fn find<'a>(loans: &'a [LoanFacts], id: &str) -> &'a LoanFacts {
    loans.iter().find(|l| l.id == id).unwrap_or_else(|| panic!("{id} in {loans:?}"))
}

fn days(d: Date, n: i64) -> Date {
    d.checked_add(jiff::Span::new().days(n)).unwrap()
}

fn renewal<'a>(loan: &'a LoanFacts, to: Date, op: &'a str) -> Renewal<'a> {
    Renewal { borrower: ALEX, loan_id: &loan.id, return_date: to, version: loan.version, operation_id: op }
}

fn refusal(r: Result<Renewed, RenewError>) -> (RenewRefusal, Option<NotRenewable>) {
    match r {
        Err(RenewError::Refused { code, reason }) => (code, reason),
        other => panic!("a refusal, not {other:?}"),
    }
}

#[test]
fn the_demo_student_has_six_loans_of_the_reference_mix_and_never_sees_another_borrowers() {
    let tmp = TempDir::new();
    let loans = service(&tmp.file(), TODAY).open(ALEX, Some("ctx-1")).unwrap();
    assert_eq!(loans.len(), 6, "{loans:?}");
    assert!(loans.iter().all(|l| l.id != "ln-history"), "another borrower's loan is never listed");
    assert!(loans.windows(2).all(|w| w[0].due <= w[1].due), "by due date");
    let today = date(2026, 12, 24);
    let renewable: Vec<&str> = loans.iter().filter(|l| l.renewable.is_ok()).map(|l| l.id.as_str()).collect();
    assert_eq!(renewable, ["ln-calculus", "ln-marketing-basics", "ln-statistics"]);
    let why = |id: &str| find(&loans, id).renewable.unwrap_err();
    assert_eq!(why("ln-chemistry"), NotRenewable::Hold);
    assert_eq!(why("ln-marketing-research"), NotRenewable::LimitReached);
    assert_eq!(why("ln-physics-reserve"), NotRenewable::CourseReserve);
    let marketing = loans.iter().filter(|l| l.title.contains("Marketing")).count();
    assert_eq!(marketing, 2, "\"the marketing book\" is ambiguous");
    // dates count from the day the sample was made; the range is due+1 ..= due+21
    let calculus = find(&loans, "ln-calculus");
    assert_eq!(calculus.due, days(today, 9));
    assert_eq!(calculus.renewable, Ok(DateRange { first: days(today, 10), last: days(today, 30) }));
    assert_eq!((calculus.version, calculus.renewals_used), (1, 0));
    // the other borrower has theirs; anyone else, the anonymous student included, none
    let service = service(&tmp.file(), TODAY);
    assert_eq!(service.open(OTHER_BORROWER, None).unwrap().len(), 1);
    assert!(service.open("someone-else", Some("ctx-1")).unwrap().is_empty());
    assert!(service.open(vocab::form::ANONYMOUS_STUDENT, Some("ctx-1")).unwrap().is_empty());
}

#[test]
fn dates_stay_counted_from_the_first_day_and_a_loan_past_due_is_overdue() {
    let tmp = TempDir::new();
    service(&tmp.file(), TODAY).open(ALEX, Some("ctx-1")).unwrap();
    // three weeks later, a new conversation: the sample again, from the first day
    let later = service(&tmp.file(), "2027-01-14T10:00:00-08:00").open(ALEX, Some("ctx-2")).unwrap();
    let calculus = find(&later, "ln-calculus");
    assert_eq!(calculus.due, date(2027, 1, 2));
    assert_eq!(calculus.renewable, Err(NotRenewable::Overdue));
    // due today is not overdue
    let on_the_day = service(&tmp.file(), "2027-01-02T23:00:00-08:00").list(ALEX).unwrap();
    assert!(find(&on_the_day, "ln-calculus").renewable.is_ok());
}

#[test]
fn a_renewal_inside_the_range_is_confirmed_and_each_rule_refuses_with_its_code() {
    let tmp = TempDir::new();
    let service = service(&tmp.file(), TODAY);
    let loans = service.open(ALEX, Some("ctx-1")).unwrap();
    let calculus = find(&loans, "ln-calculus");
    // the range's bounds are exact: the due date itself and one day past the last refused
    for (to, op) in [(calculus.due, "op-a"), (days(calculus.due, RANGE_DAYS + 1), "op-b")] {
        assert_eq!(refusal(service.renew(&renewal(calculus, to, op))), (RenewRefusal::OutOfRange, None));
    }
    let last = days(calculus.due, RANGE_DAYS);
    let renewed = service.renew(&renewal(calculus, last, "op-1")).unwrap();
    assert_eq!((renewed.due, renewed.version, renewed.renewals_used, renewed.replayed), (last, 2, 1, false));
    let statistics = find(&loans, "ln-statistics");
    let first = days(statistics.due, 1);
    let renewed = service.renew(&renewal(statistics, first, "op-2")).unwrap();
    assert_eq!((renewed.due, renewed.renewals_used), (first, 2));
    // now at its limit
    let now = service.list(ALEX).unwrap();
    let statistics = find(&now, "ln-statistics");
    assert_eq!(statistics.renewable, Err(NotRenewable::LimitReached));
    let to = days(statistics.due, 1);
    assert_eq!(
        refusal(service.renew(&renewal(statistics, to, "op-3"))),
        (RenewRefusal::NotEligible, Some(NotRenewable::LimitReached))
    );
    for (id, reason) in
        [("ln-chemistry", NotRenewable::Hold), ("ln-physics-reserve", NotRenewable::CourseReserve)]
    {
        let l = find(&now, id);
        let got = refusal(service.renew(&renewal(l, days(l.due, 1), &format!("op-{id}"))));
        assert_eq!(got, (RenewRefusal::NotEligible, Some(reason)), "{id}");
    }
    // another borrower's loan, a loan that does not exist, a version that moved on
    let theirs = &service.list(OTHER_BORROWER).unwrap()[0];
    let r = renewal(theirs, days(theirs.due, 1), "op-4");
    assert_eq!(refusal(service.renew(&r)), (RenewRefusal::NotYours, None));
    let r = Renewal { loan_id: "ln-nothing", ..renewal(calculus, last, "op-5") };
    assert_eq!(refusal(service.renew(&r)), (RenewRefusal::UnknownLoan, None));
    let old = find(&loans, "ln-calculus");
    let r = renewal(old, days(last, 1), "op-6");
    assert_eq!(refusal(service.renew(&r)), (RenewRefusal::StaleVersion, None));
    // nothing refused changed anything
    let after = service.list(ALEX).unwrap();
    assert_eq!(find(&after, "ln-calculus").due, last);
    assert_eq!(find(&after, "ln-chemistry"), find(&now, "ln-chemistry"));
    assert_eq!(service.list(OTHER_BORROWER).unwrap()[0].due, theirs.due);
}

#[test]
fn the_same_operation_is_answered_from_its_record_after_reopening_the_file() {
    let tmp = TempDir::new();
    let (loan, to) = {
        let service = service(&tmp.file(), TODAY);
        let loans = service.open(ALEX, Some("ctx-1")).unwrap();
        let loan = find(&loans, "ln-marketing-basics").clone();
        let to = days(loan.due, 7);
        let first = service.renew(&renewal(&loan, to, "op-once")).unwrap();
        assert!(!first.replayed);
        (loan, to)
    };
    // the Library restarted: a new store handle on the same file
    let service = service(&tmp.file(), TODAY);
    let again = service.renew(&renewal(&loan, to, "op-once")).unwrap();
    assert_eq!((again.due, again.version, again.renewals_used, again.replayed), (to, 2, 1, true));
    let now = service.open(ALEX, Some("ctx-1")).unwrap();
    assert_eq!(find(&now, "ln-marketing-basics").renewals_used, 1, "renewed once, not twice");
    // the same id with another date is refused, and changes nothing
    let other = renewal(&loan, days(loan.due, 8), "op-once");
    assert_eq!(refusal(service.renew(&other)), (RenewRefusal::OperationReused, None));
    assert_eq!(find(&service.list(ALEX).unwrap(), "ln-marketing-basics").due, to);
}

#[test]
fn a_hold_placed_behind_the_forms_back_makes_its_reading_stale() {
    let tmp = TempDir::new();
    let service = service(&tmp.file(), TODAY);
    let shown = service.open(ALEX, Some("ctx-1")).unwrap();
    let calculus = find(&shown, "ln-calculus");
    assert!(service.place_hold("ln-calculus").unwrap());
    assert!(!service.place_hold("ln-nothing").unwrap());
    let to = days(calculus.due, 1);
    assert_eq!(refusal(service.renew(&renewal(calculus, to, "op-1"))), (RenewRefusal::StaleVersion, None));
    let now = service.list(ALEX).unwrap();
    let fresh = find(&now, "ln-calculus");
    assert_eq!((fresh.version, fresh.renewable), (2, Err(NotRenewable::Hold)));
    assert_eq!(
        refusal(service.renew(&renewal(fresh, to, "op-2"))),
        (RenewRefusal::NotEligible, Some(NotRenewable::Hold))
    );
}

#[test]
fn a_conversation_begun_anew_resets_the_demo_loans_and_a_restart_or_an_unmarked_one_does_not() {
    let tmp = TempDir::new();
    let calculus = {
        let service = service(&tmp.file(), TODAY);
        let loans = service.open(ALEX, Some("ctx-1")).unwrap();
        let calculus = find(&loans, "ln-calculus").clone();
        service.renew(&renewal(&calculus, days(calculus.due, 3), "op-1")).unwrap();
        service.place_hold("ln-statistics").unwrap();
        calculus
    };
    let service = service(&tmp.file(), TODAY);
    let same = service.open(ALEX, Some("ctx-1")).unwrap();
    assert_eq!(find(&same, "ln-calculus").renewals_used, 1, "the same conversation after a restart");
    // a conversation not begun anew (a one-off question, a reloaded page): kept
    let unmarked = service.open(ALEX, None).unwrap();
    assert_eq!(find(&unmarked, "ln-calculus").renewals_used, 1, "only a conversation begun anew resets");
    let fresh = service.open(ALEX, Some("ctx-2")).unwrap();
    let reset = find(&fresh, "ln-calculus");
    assert_eq!((reset.due, reset.renewals_used), (calculus.due, 0));
    assert!(find(&fresh, "ln-statistics").renewable.is_ok(), "the hold is gone too");
    assert!(reset.version > 2, "versions move on: a screen from before the reset is stale");
    assert_eq!(
        refusal(service.renew(&renewal(&calculus, days(calculus.due, 4), "op-2"))),
        (RenewRefusal::StaleVersion, None)
    );
    // back in the first conversation: seen before, nothing resets
    service.renew(&renewal(reset, days(reset.due, 2), "op-3")).unwrap();
    assert_eq!(find(&service.open(ALEX, Some("ctx-1")).unwrap(), "ln-calculus").renewals_used, 1);
}

#[test]
fn the_overview_states_the_services_facts_and_nothing_of_another_borrower() {
    let tmp = TempDir::new();
    let service = service(&tmp.file(), TODAY);
    let loans = service.open(ALEX, Some("ctx-1")).unwrap();
    let text = overview(&loans, date(2026, 12, 24), false);
    assert!(text.starts_with("Offline Library (no model)"), "{text}");
    for fact in [
        "today 2026-12-24 (Thursday)",
        "6 loans, 3 of them renewable now",
        "Calculus in Motion (Ines Okafor, loan ln-calculus): due 2027-01-02 (Saturday). Renewable (0 of 2 renewals used): a new return date from 2027-01-03 to 2027-01-23.",
        "Organic Chemistry Step by Step (Hana Sato, loan ln-chemistry): due 2026-12-29 (Tuesday). Not renewable: another borrower has placed a hold on it.",
        "due 2027-01-13 (Wednesday). Not renewable: it has been renewed 2 times",
        "due 2026-12-26 (Saturday). Not renewable: it is a course-reserve copy.",
    ] {
        assert!(text.contains(fact), "{fact:?} in {text}");
    }
    assert!(!text.contains("Lighthouses"), "{text}");
    assert_eq!(
        overview(&[], date(2026, 12, 24), false),
        "Offline Library (no model): you have no loans on record."
    );
    // live mode: the same facts, labelled as the loan service's, never as offline
    let live = overview(&loans, date(2026, 12, 24), true);
    assert!(live.starts_with("Library loan service (written by rule; no model wrote this)"), "{live}");
    assert_eq!(live.split_once(':').unwrap().1, text.split_once(':').unwrap().1);
}
