//! The loan service: the only authority on a borrower's loans (synthetic demo records in
//! the Library's store, `store::loans`). No date, eligibility or count comes from anywhere
//! else; an answer about loans only states what [`Loans::list`] computed.
//!
//! - **Who:** the borrower is always the student the Hub vouched for on a signed forward
//!   (`hublink::Caller::student`); the caller of this module passes nothing else.
//! - **The sample** ([`sample`]): six loans of [`vocab::loans::DEMO_STUDENT_ID`] and one of
//!   another borrower, never listed for anyone else; dates count from the day the sample
//!   was first made. It is made again (renewals and holds undone) the first time loans are
//!   asked for in a conversation the student began anew — "New conversation" on the page,
//!   `/new` in the chat: the Student says so on every message of it
//!   (`conversationBegunAnew`), the Hub signs it into its forwards — and never because a
//!   conversation is merely new to the Library (a one-off question from the command line,
//!   a reloaded page keep the loans as they stand).
//! - **Renewable** unless (in this order) a course-reserve copy, overdue (due before
//!   today), another borrower's hold, or [`MAX_RENEWALS`] used. A renewable loan's new
//!   return date is any day from the day after its due date to [`RANGE_DAYS`] after it.
//! - **Renewing** ([`Loans::renew`]) names the loan, the return date, the version the
//!   request was made from and an operation id: refused (a [`RenewRefusal`] code, nothing
//!   changed) for an unknown loan, another borrower's, a version that moved on (a renewal
//!   or a hold since), an ineligible loan or a date out of range; a confirmed renewal is
//!   recorded with its effect, so the same operation again is answered from the record
//!   (across a restart too) and the same id with other values is refused.

mod asked;
mod overview;
mod rules;
mod sample;
#[cfg(test)]
mod tests;

use jiff::civil::Date;
use serde_json::{Value, json};
use store::loans::Sample;
use store::operations::{Once, fingerprint};
use store::{Store, StoreError, Tx};
pub use vocab::loans::{NotRenewable, RenewRefusal};

use crate::clock::Clock;
pub use asked::about_own_loans;
pub use overview::{
    NOT_VOUCHED, OFFLINE_LABEL, RENEW_ON_THE_PAGE, day, framed, labelled, overview, status, why_not,
};
pub use rules::{DateRange, LoanFacts, MAX_RENEWALS, RANGE_DAYS, facts};
pub use sample::{OTHER_BORROWER, sample};

/// The exactly-once scope of a borrower's renewals.
const SCOPE: &str = "loan-renewal";

/// A renewal asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renewal<'a> {
    /// The student the Hub vouched for.
    pub borrower: &'a str,
    pub loan_id: &'a str,
    pub return_date: Date,
    /// The loan's version the request was made from.
    pub version: i64,
    pub operation_id: &'a str,
}

/// A confirmed renewal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renewed {
    pub loan_id: String,
    pub title: String,
    pub due: Date,
    pub version: i64,
    pub renewals_used: u32,
    /// Answered from the record of an earlier identical request: nothing changed now.
    pub replayed: bool,
}

/// Why a renewal did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RenewError {
    /// Refused by a rule; nothing changed.
    #[error("renewal refused: {}", code.as_str())]
    Refused { code: RenewRefusal, reason: Option<NotRenewable> },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl RenewError {
    /// The refusal's code, or the store's.
    pub fn code(&self) -> &'static str {
        match self {
            RenewError::Refused { code, .. } => code.as_str(),
            RenewError::Store(e) => e.code(),
        }
    }
}

fn refused(code: RenewRefusal) -> RenewError {
    RenewError::Refused { code, reason: None }
}

/// The loan service over the Library's store, on the Library's clock. Blocking: call it
/// from a blocking thread ([`Store::run`]).
#[derive(Clone)]
pub struct Loans {
    store: Store,
    clock: Clock,
}

impl Loans {
    pub fn new(store: Store, clock: Clock) -> Self {
        Self { store, clock }
    }

    fn today(&self) -> Date {
        self.clock.now().date()
    }

    /// `borrower`'s loans, by due date. The demo student's sample is made on first use, and
    /// made again the first time loans are asked for in `begun_anew`: the Library's
    /// context with the Hub of a conversation the student began anew (the Hub's signed
    /// forward says so); once per such context, never for one merely unseen.
    pub fn open(&self, borrower: &str, begun_anew: Option<&str>) -> Result<Vec<LoanFacts>, StoreError> {
        if borrower == vocab::loans::DEMO_STUDENT_ID {
            let today = self.today().to_string();
            let made = self.store.enter_loan_sample(borrower, begun_anew, &today, |anchor| {
                sample(anchor.parse().unwrap_or_else(|_| self.today()))
            })?;
            if made != Sample::Kept {
                tracing::info!(made = ?made, "demo loans made from the sample");
            }
        }
        self.list(borrower)
    }

    /// `borrower`'s loans as they stand, by due date.
    pub fn list(&self, borrower: &str) -> Result<Vec<LoanFacts>, StoreError> {
        let today = self.today();
        let loans = self.store.loans_of(borrower)?;
        Ok(loans
            .iter()
            .filter_map(|l| {
                let f = facts(l, today);
                if f.is_none() {
                    tracing::warn!(loan = %l.loan.id, "a stored loan has an unreadable due date; left out");
                }
                f
            })
            .collect())
    }

    /// Renews as [`Renewal`] asks, exactly once per operation id (see the module).
    pub fn renew(&self, r: &Renewal<'_>) -> Result<Renewed, RenewError> {
        let values = json!({
            "loanId": r.loan_id,
            "returnDate": r.return_date.to_string(),
            "version": r.version,
        });
        let scope = format!("{SCOPE}:{}", r.borrower);
        let today = self.today();
        let once =
            self.store.once(&scope, r.operation_id, &fingerprint(&values), |tx| renew_in(tx, today, r))?;
        match once {
            Once::Done(v) => read_renewed(&v, false),
            Once::Replayed(v) => read_renewed(&v, true),
            Once::Reused => Err(refused(RenewRefusal::OperationReused)),
        }
    }

    /// Another borrower places a hold on the loan `id` (what happens behind an open form's
    /// back): it is no longer renewable and its version moves on. `false`: no such loan.
    pub fn place_hold(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.store.place_hold(id)?.is_some())
    }
}

/// A renewal inside `tx` (a renew form's press, whose own operation record makes it happen
/// once): every rule of [`Loans::renew`] but the operation record, on `today`.
pub fn renew_within(tx: &Tx<'_>, today: Date, r: &Renewal<'_>) -> Result<Renewed, RenewError> {
    read_renewed(&renew_in(tx, today, r)?, false)
}

/// The rules and the change, as the recorded result.
fn renew_in(tx: &Tx<'_>, today: Date, r: &Renewal<'_>) -> Result<Value, RenewError> {
    let loan = tx.loan(r.loan_id)?.ok_or_else(|| refused(RenewRefusal::UnknownLoan))?;
    if loan.loan.borrower != r.borrower {
        return Err(refused(RenewRefusal::NotYours));
    }
    if loan.version != r.version {
        return Err(refused(RenewRefusal::StaleVersion));
    }
    let f = facts(&loan, today).ok_or_else(|| refused(RenewRefusal::UnknownLoan))?;
    let range = f
        .renewable
        .map_err(|reason| RenewError::Refused { code: RenewRefusal::NotEligible, reason: Some(reason) })?;
    if !range.contains(r.return_date) {
        return Err(refused(RenewRefusal::OutOfRange));
    }
    let date = r.return_date.to_string();
    let renewed =
        tx.renew_loan(r.loan_id, r.version, &date)?.ok_or_else(|| refused(RenewRefusal::StaleVersion))?;
    Ok(json!({
        "loanId": r.loan_id,
        "title": loan.loan.title,
        "dueDate": date,
        "version": renewed.version,
        "renewalsUsed": renewed.loan.renewals,
    }))
}

/// A recorded renewal's result.
fn read_renewed(v: &Value, replayed: bool) -> Result<Renewed, RenewError> {
    let read = || {
        Some(Renewed {
            loan_id: v["loanId"].as_str()?.to_string(),
            // a record from before titles were kept has none
            title: v["title"].as_str().unwrap_or_default().to_string(),
            due: v["dueDate"].as_str()?.parse().ok()?,
            version: v["version"].as_i64()?,
            renewals_used: u32::try_from(v["renewalsUsed"].as_u64()?).ok()?,
            replayed,
        })
    };
    read().ok_or_else(|| refused(RenewRefusal::UnknownLoan))
}

/// The facts a loan answer rests on, for the generated-UI inspector: every loan's id, due
/// date, version, renewals used and permitted dates or why not (no title: it is words).
pub fn facts_for_inspector(loans: &[LoanFacts]) -> Vec<Value> {
    loans
        .iter()
        .map(|l| {
            let (renewable, range) = match &l.renewable {
                Ok(r) => (json!(true), json!({"min": r.first.to_string(), "max": r.last.to_string()})),
                Err(reason) => (json!(reason.as_str()), Value::Null),
            };
            json!({"loanId": l.id, "due": l.due.to_string(), "version": l.version,
                   "renewalsUsed": l.renewals_used, "renewable": renewable, "range": range})
        })
        .collect()
}
