//! Live mode without a paid call (one test binary): every live agent and the live
//! checks against `campus fake-anthropic`, a real process, and the fake itself.

mod demo;
mod fake_anthropic;
mod library;
mod loans;
mod paid_checks;
mod professor;
mod router;
mod student_model;
mod tutor;
