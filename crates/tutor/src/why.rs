//! "Why?" after a computed answer (after an explained topic it is [`crate::reasons`]): the rules that computation used, from the steps the
//! `calculus` crate recorded (a derivative's, an antiderivative's, a limit's), and what a
//! value at a point or a limit means. Only a short message
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
    /// A limit: the point as typed and the side.
    Limit(&'a Function, &'a str, calculus::Side),
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
        Computed::Limit(f, to, side) => match crate::limits::retraced(f, to, side) {
            Some((stated, w)) => {
                let v = f.var;
                let note = w.note.as_ref().map(|n| format!(" ({n}.)")).unwrap_or_default();
                format!(
                    "Because each step applies a limit rule to f({v}) = {}:{}\nSo {stated}.{note} A limit \
                     is where the values of f({v}) go as {v} gets close to the point, not the value at \
                     the point itself (which may not even exist).",
                    f.shown(),
                    rules(&w.steps),
                )
            }
            // no limit was found: say again why, rather than retrace nothing
            None => {
                let said = crate::limits::answer(f, to, side).text;
                format!("There was no limit to explain: {}", said.trim_start_matches(crate::answer::LABEL))
            }
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

    /// After a limit, "why?" names the rules that limit used, never "nothing computed".
    #[test]
    fn why_retraces_the_last_limit() {
        let f = calculus::read("sin(x)/x", 'x').expect("reads");
        let a = answer(Some(Computed::Limit(&f, "0", calculus::Side::Both)));
        assert!(a.text.contains("standard limit sin(x)/x → 1"), "{}", a.text);
        assert!(a.text.contains("So lim x→0 sin(x)/x = 1."), "{}", a.text);
        let g = calculus::read("(x^2-1)/(x-1)", 'x').expect("reads");
        let b = answer(Some(Computed::Limit(&g, "1", calculus::Side::Both)));
        assert!(b.text.contains("= 2.") && !b.text.contains("haven't computed"), "{}", b.text);
        let h = calculus::read("1/x", 'x').expect("reads");
        let c = answer(Some(Computed::Limit(&h, "0", calculus::Side::Right)));
        assert!(c.text.contains("lim x→0⁺ 1/x = ∞"), "{}", c.text);
        let d = answer(Some(Computed::Limit(&h, "0", calculus::Side::Both)));
        assert!(d.text.contains("does not exist"), "{}", d.text);
        let ln = calculus::read("ln(x)", 'x').expect("reads");
        let e = answer(Some(Computed::Limit(&ln, "-1", calculus::Side::Both)));
        assert!(
            e.text.contains("There was no limit to explain: ln(x) is not defined beside x = -1"),
            "{}",
            e.text
        );
    }
}
