//! What the offline tutor says: every answer starts with [`LABEL`] and carries its
//! outcome; [`cannot`] is the plain answer when a computation gave no result. A leaf the
//! answering modules share (`mock.rs`, `compute.rs`, `limits.rs`, `examples.rs`).

use calculus::Error;

/// The first words of every offline answer.
pub const LABEL: &str = "Offline tutor (no model): ";

/// One reply of the offline tutor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Begins with [`LABEL`].
    pub text: String,
    /// `answered`, `declined` or `unable` (it could not compute what was asked).
    pub outcome: &'static str,
}

/// An answer with its outcome, behind [`LABEL`].
pub(crate) fn reply(outcome: &'static str, text: impl AsRef<str>) -> Answer {
    Answer { text: format!("{LABEL}{}", text.as_ref()), outcome }
}

/// The answer when a computation gave no result; never a guess.
pub(crate) fn cannot(what: &str, e: &Error) -> Answer {
    let why = match e {
        Error::NoRule(_) => "none of my rules fits it. I integrate polynomials, constant multiples, 1/x, \
            powers of ax+b, sin, cos and e^ of ax+b, by parts (a polynomial times e^, sin or cos; ln(x); \
            x^n·ln(x)) and by a substitution u = g(x) whose derivative is the rest of the integrand \
            (2x·cos(x^2), x·e^(x^2), sin(x)^3·cos(x))"
            .to_string(),
        Error::CheckFailed => "my numerical check did not confirm a result, so I won't state one".to_string(),
        Error::Overflow => "the numbers grow too large for me".to_string(),
        Error::Unsupported(what) => format!("I don't handle {what}"),
        e => e.to_string(),
    };
    reply("unable", format!("I can't compute {what}: {why}."))
}
