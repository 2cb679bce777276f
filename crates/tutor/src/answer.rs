//! What the offline tutor says: every answer starts with [`LABEL`] and carries its
//! outcome; [`cannot`] is the plain answer when a computation gave no result,
//! [`cannot_read`] when an expression could not be read; the offer of what it can do
//! ([`offer`], [`EXAMPLES`]) and of what to do with a function given alone ([`given`]).
//! Shared by the answering modules (`mock.rs`, `compute.rs`, `limits.rs`, `examples.rs`).

use calculus::{Error, Function};

use crate::course::TOPIC_LIST;

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

/// What to try, ending most offers.
pub(crate) const EXAMPLES: &str = "Try: derivative of x^3*sin(x), d/dx (2x+1)^5, integrate x*e^x, \
    integrate x^2 from 0 to 3, limit of sin(x)/x as x -> 0, or what is the chain rule?";

/// A function given without a request: what can be done with it.
pub(crate) fn given(f: &Function) -> Answer {
    let v = f.var;
    reply(
        "answered",
        format!(
            "f({v}) = {}. What would you like: its derivative, its integral, or its value at a point? \
             Ask \"differentiate it\", \"integrate it\" or \"what about at {v}=2?\".",
            f.shown()
        ),
    )
}

pub(crate) fn offer(lower: &str) -> Answer {
    let vague = lower.split_whitespace().count() <= 2
        || ["help", "hello", "hi ", "hey", "thank", "calculus", "tutor"].iter().any(|w| lower.contains(w));
    let lead = if vague {
        "Yes, I can help with calculus."
    } else {
        "I didn't find a calculus topic or an expression I can work with in that."
    };
    reply(
        "answered",
        format!(
            "{lead} Offline I can explain {TOPIC_LIST}, and compute derivatives and integrals with their steps. {EXAMPLES}"
        ),
    )
}

pub(crate) fn multivariable(vars: Option<&str>) -> Answer {
    let which = vars.map(|v| format!(" (this has the variables {v})")).unwrap_or_default();
    reply(
        "declined",
        format!("I only do single-variable calculus offline{which}: one variable, like x. {EXAMPLES}"),
    )
}

pub(crate) fn cannot_read(text: &str, e: &Error) -> Answer {
    let why = match e {
        Error::Syntax(why) => why.clone(),
        Error::Unsupported(what) => format!("I don't handle {what}"),
        Error::Misread(tried) => format!(
            "my check parser, exmex, was given {tried} and did not confirm my reading, so I won't \
             give a result"
        ),
        e => e.to_string(),
    };
    reply(
        "unable",
        format!(
            "I couldn't read \"{text}\" as an expression ({why}). Write it like 3x^2 + 2x, (2x+1)^5, \
             e^(2x), sqrt(x) or sin(x)/x."
        ),
    )
}

#[cfg(test)]
mod misread {
    use super::*;

    /// When exmex does not confirm our reading, the student hears that, with what exmex
    /// was given, and no result.
    #[test]
    fn a_reading_exmex_does_not_confirm_is_not_answered() {
        let a = cannot_read("x^2 + 1", &Error::Misread("x^(2)+1".into()));
        assert_eq!(a.outcome, "unable");
        assert!(a.text.contains("I couldn't read \"x^2 + 1\" as an expression"), "{}", a.text);
        assert!(a.text.contains("exmex, was given x^(2)+1 and did not confirm my reading"), "{}", a.text);
    }
}
