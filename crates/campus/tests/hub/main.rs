//! The Hub and its specialists as real processes (one test binary): the university's
//! routing and registry, the router, configuration and card changes, persistence across
//! restarts, agents nobody else can speak for (keys), robustness against hostile bodies,
//! kill -9 mid-write (crashes) and hanging or cut-off specialists (faults), one's own loans
//! and no loan data for a caller the Hub did not vouch for (loans), the offline Tutor
//! and the Tutor with the command-line Student. The shared kit (processes, ready lines, `University`, `poll`,
//! raw JSON-RPC) is the `testkit` crate.

mod cards_and_config;
mod connections;
mod crashes;
mod faults;
mod keys;
mod loans;
mod offline_tutor;
mod persistence;
mod questions;
mod recheck;
mod robustness;
mod router;
mod tutor_student;
mod university;
