//! What the tests share, so no test file keeps its own copy: a log-capturing writer
//! ([`logs::Captured`], for any crate's tests) and, with the `campus` feature, the
//! process tests' kit: starting the real `campus` binary and reading its ready line
//! ([`Proc`], [`run`]), a whole [`University`] of processes, [`poll`], blocking HTTP, raw
//! A2A JSON-RPC ([`rpc`]), and reading a form's A2UI messages and the UI server's stream.
//!
//! A dev-dependency only: never part of a binary.

pub mod logs;

#[cfg(feature = "campus")]
pub mod forms;
#[cfg(feature = "campus")]
mod http;
#[cfg(feature = "campus")]
mod process;
#[cfg(feature = "campus")]
pub mod rpc;
#[cfg(feature = "campus")]
pub mod ui;
#[cfg(feature = "campus")]
mod university;

#[cfg(feature = "campus")]
pub use http::{
    as_hub, fake_recorded, fake_requests, feed_events, feed_snapshot, http_json, put_fake_script, rt,
    script_fake_replies, test_hub_key, test_hub_public_key,
};
#[cfg(feature = "campus")]
pub use process::{Lines, Proc, TempDir, agent_secrets, bin, demo, field, free_port, poll, run};
#[cfg(feature = "campus")]
pub use rpc::rpc;
#[cfg(feature = "campus")]
pub use university::{
    FAST, University, agent_key, ask, ask_as, control, received, settings, stranger_key, tutoring_requests,
};
