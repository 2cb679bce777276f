//! The agents' ids: what a specialist registers with the Hub as, what `servedBy.id` and a
//! telemetry event's `agent` carry, and what the page keys its boxes, consoles and colours
//! by (it gets them from `web/vocab.js`, generated from these).

/// The Student: the UI server's agent, the one that asks the Hub.
pub const STUDENT: &str = "student";
/// The University Hub (also the `servedBy.id` of an answer it gave itself).
pub const HUB: &str = "hub";
/// The Tutor.
pub const TUTOR: &str = "tutor";
/// The Library.
pub const LIBRARY: &str = "library";
/// The Marketing 101 Professor.
pub const PROFESSOR: &str = "professor";

/// Every agent id above, so a reader (the page's generated `web/vocab.js`) can list them.
pub const ALL: [&str; 5] = [STUDENT, HUB, TUTOR, LIBRARY, PROFESSOR];

/// The specialists this project builds and the demo starts, in the order the page lays
/// them out. The page draws them (as "unknown") before the Hub has said which are
/// registered; any other specialist the Hub reports is drawn after them.
pub const SPECIALISTS: [&str; 3] = [TUTOR, LIBRARY, PROFESSOR];
