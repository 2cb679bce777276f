//! Loan questions answered with a screen, blocks mode (issue 21, point 3): a composer
//! (later the model through structured output, now the offline rules of [`mock`]) fills
//! Campus's own loan blocks ([`blocks`]: a notice, a loan list, a loan card with a renew
//! choice, a return-date picker, follow-up buttons; or it answers in words, or asks one
//! question). The rules are checked in code over the blocks ([`check`]), a compiler turns
//! them into A2UI v0.9 messages ([`compile`]: the only place a component is named, every
//! fact and a picker's bounds from the loan service), and the rules are checked again over
//! those messages with the official schema and the Student's allowlist ([`surface`]). A
//! failing composition goes back to its composer with its errors at most twice
//! ([`repair`]); then an honest text reply.
//!
//! Pure library code: no A2A, no Hub, no page. The facts are the borrower's loans from
//! `crate::loans`, the student's words and today ([`Facts`]).

pub mod blocks;
pub mod catalog;
pub mod check;
pub mod compile;
pub mod live;
pub mod mock;
pub mod repair;
pub mod surface;
#[cfg(test)]
mod tests;
mod words;

pub use blocks::{Block, Composition, Facts, FollowUp, Order, schema};
pub use check::{CheckError, check_composition};
pub use compile::{Surface, compile};
pub use mock::compose as compose_offline;
pub use repair::{
    Checked, Composed, MAX_REPAIRS, Step, Target, Written, accept, compose_checked, parse, unrepaired_text,
};
pub use surface::{MAX_BYTES, MAX_COMPONENTS, MAX_DEPTH, POLICY, check_surface};
