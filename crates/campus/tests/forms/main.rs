//! Forms with real processes (one test binary): the form host on the Tutor and Library
//! over raw A2A, forms through the real Hub with a scripted specialist, and end to end
//! with the Student.

mod e2e;
mod host;
mod hub;
