//! "Why?" after a computed answer: the rules that computation used, from the steps the
//! `calculus` crate recorded, and what a value at a point means. Only a short message
//! that is nothing but the question word asks this ("why?", "how come?", "¿por qué?",
//! "warum?", "kyun?"); "why is the chain rule true?" is a question of its own.

use calculus::Function;

use crate::answer::{Answer, reply};
use crate::compute::{prime, steps};

/// Whole messages that ask why the last answer is what it is, in the languages the tutor
/// reads (folded: lowercase, no accents, no punctuation).
const WHY: &[&[&str]] = &[
    &["why"],
    &["but", "why"],
    &["why", "is", "that"],
    &["why", "so"],
    &["how", "come"],
    &["how"],
    &["how", "so"],
    &["explain", "why"],
    &["por", "que"],
    &["porque"],
    &["y", "por", "que"],
    &["pourquoi"],
    &["mais", "pourquoi"],
    &["warum"],
    &["wieso"],
    &["weshalb"],
    &["kyun"],
    &["kyon"],
    &["kyu"],
    &["aisa", "kyun"],
    &["bakit"],
    &["tai", "sao"],
];

/// Words a short "why?" may carry around it.
const AROUND: &[&str] =
    &["please", "pls", "ok", "okay", "hmm", "and", "so", "exactly", "though", "bitte", "denn"];

/// Whether `lower` (a normalised question) is nothing but a "why?".
pub(crate) fn asked(lower: &str) -> bool {
    let folded: String = lower.chars().map(fold).collect();
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !AROUND.contains(w))
        .collect();
    WHY.contains(&words.as_slice())
}

fn fold(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        c => c,
    }
}

/// What the conversation last computed, for [`answer`].
pub(crate) enum Computed<'a> {
    Derivative(&'a Function, usize),
    Antiderivative(&'a Function),
    /// A function given without a request yet.
    Function(&'a Function),
}

/// The reasons behind the last computation, or a question back when there is none.
pub(crate) fn answer(last: Option<Computed<'_>>) -> Answer {
    let Some(last) = last else {
        return reply(
            "answered",
            "Why what? Ask me something first — a derivative, an integral or a limit — and then \
             \"why?\" shows the rules each step used.",
        );
    };
    let text = match last {
        Computed::Derivative(f, order) => match calculus::derivative(f, order) {
            Ok(w) => {
                let v = f.var;
                format!(
                    "Because each step applies a differentiation rule to f({v}) = {}:{}\n\
                     So f{}({v}) = {}. A value at a point, like f{}(2), is this formula with {v} \
                     replaced by that number.",
                    f.shown(),
                    rules(&w.steps),
                    prime(order),
                    w.shown,
                    prime(order)
                )
            }
            Err(_) => "I can't retrace that computation offline.".to_string(),
        },
        Computed::Antiderivative(f) => match calculus::antiderivative(f) {
            Ok(w) => format!(
                "Because each step applies an integration rule to {}:{}\nSo an antiderivative is \
                     {} + C. To check it, differentiate {}: you get back {} — that is what makes it an \
                     antiderivative.",
                f.shown(),
                rules(&w.steps),
                w.shown,
                w.shown,
                f.shown()
            ),
            Err(_) => "I can't retrace that computation offline.".to_string(),
        },
        Computed::Function(f) => format!(
            "I haven't computed anything for f({}) = {} yet. Ask for its derivative, its integral or \
             its value at a point, and \"why?\" will show the rules used.",
            f.var,
            f.shown()
        ),
    };
    reply("answered", text)
}

/// The recorded steps, or a plain word when the rule was a single table entry.
fn rules(lines: &[String]) -> String {
    match steps(lines) {
        s if s.is_empty() => "\n- it is a standard result from the table of rules".to_string(),
        s => s.replacen("\nSteps:", "", 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_why_asks_why() {
        for q in ["why?", "but why?", "how come?", "¿por qué?", "pourquoi ?", "warum?", "kyun?", "why though"]
        {
            assert!(asked(&q.to_lowercase()), "{q}");
        }
        for q in ["why is the chain rule true?", "how do i integrate x^2", "why not", "what"] {
            assert!(!asked(q), "{q}");
        }
    }

    #[test]
    fn why_retraces_the_last_derivative() {
        let f = calculus::read("x^3", 'x').expect("reads");
        let a = answer(Some(Computed::Derivative(&f, 1)));
        assert!(a.text.contains("f'(x) = 3x^2"), "{}", a.text);
        assert!(a.text.contains("power"), "names the rule: {}", a.text);
        let g = calculus::read("x*e^x", 'x').expect("reads");
        let b = answer(Some(Computed::Antiderivative(&g)));
        assert!(b.text.contains("+ C") && b.text.contains("differentiate"), "{}", b.text);
        assert!(answer(None).text.contains("Why what?"), "asks back");
    }
}
