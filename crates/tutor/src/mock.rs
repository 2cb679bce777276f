//! Mock mode: the offline tutor. Deterministic, no model; every answer starts with
//! [`LABEL`]. It explains the course pack's topics, computes derivatives and integrals
//! with the `calculus` crate (each result checked numerically with exmex before it is
//! stated), keeps the last function of each conversation for follow-ups ("and the second
//! derivative?", "now integrate it", "what about at x=2?"), and says plainly what it
//! cannot do.

use std::sync::Mutex;

use calculus::{Error, Function};
use skills::Policy;

use crate::course::{self, TOPIC_LIST};
use crate::ordinal::ordinal;
use crate::request::{self, Ask, Order};
use crate::scope::{self, Area};
use bounded::BoundedMap;

/// The first words of every offline answer.
pub const LABEL: &str = "Offline tutor (no model): ";
/// Conversations whose last function is kept.
pub const MEMORY_CAPACITY: usize = 4_096;
/// Longest question read, in characters.
pub(crate) const MAX_QUESTION_CHARS: usize = 2_000;

const EXAMPLES: &str = "Try: derivative of x^3*sin(x), d/dx (2x+1)^5, integrate 3x^2 + 2x, \
    integrate x^2 from 0 to 3, or what is the chain rule?";

/// One reply of the offline tutor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Begins with [`LABEL`].
    pub text: String,
    /// `answered`, `declined` or `unable` (it could not compute what was asked).
    pub outcome: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Last {
    Function,
    Derivative(usize),
    Antiderivative,
}

#[derive(Debug, Clone)]
struct Memory {
    f: Function,
    last: Last,
}

/// The offline tutor with its per-conversation memory.
#[derive(Debug)]
pub struct MockTutor {
    memory: Mutex<BoundedMap<String, Memory>>,
}

impl Default for MockTutor {
    fn default() -> Self {
        Self { memory: Mutex::new(BoundedMap::new(MEMORY_CAPACITY)) }
    }
}

fn reply(outcome: &'static str, text: impl AsRef<str>) -> Answer {
    Answer { text: format!("{LABEL}{}", text.as_ref()), outcome }
}

/// Primes up to the third (`f'''`); then the order as a superscript (`f⁽⁴⁾`, `f⁽¹⁰⁾`).
fn prime(order: usize) -> String {
    if order <= 3 {
        return "'".repeat(order);
    }
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String =
        order.to_string().chars().filter_map(|c| c.to_digit(10)).map(|d| DIGITS[d as usize]).collect();
    format!("⁽{digits}⁾")
}

/// The order to compute, or the plain answer why not.
fn checked_order(order: Order) -> Result<usize, Answer> {
    match order {
        Order::General => Err(reply(
            "unable",
            format!(
                "I don't compute a general formula for the n-th derivative offline. Ask for a \
                 particular one, like the 3rd derivative of x^5 (up to the {}). {EXAMPLES}",
                ordinal(calculus::MAX_ORDER)
            ),
        )),
        Order::Given(0) => {
            Err(reply("unable", "I count derivatives from the 1st (the 0th is the function itself)."))
        }
        Order::Given(n) if n > calculus::MAX_ORDER => Err(reply(
            "unable",
            format!(
                "I compute derivatives up to the {} offline, so I won't compute the {} (and I won't \
                 answer a different order instead).",
                ordinal(calculus::MAX_ORDER),
                if n == usize::MAX { "one you asked for".to_string() } else { ordinal(n) }
            ),
        )),
        Order::Given(n) => Ok(n),
    }
}

impl MockTutor {
    fn recall(&self, context: &str) -> Option<Memory> {
        self.memory.lock().unwrap_or_else(|p| p.into_inner()).get(&context.to_string()).cloned()
    }

    fn remember(&self, context: &str, f: &Function, last: Last) {
        self.memory
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(context.to_string(), Memory { f: f.clone(), last });
    }

    /// Answers one question in conversation `context`, within `policy` (which has at
    /// least one enabled skill; the executor declines before this otherwise).
    pub fn answer(&self, context: &str, question: &str, policy: &Policy) -> Answer {
        if question.chars().count() > MAX_QUESTION_CHARS {
            return reply(
                "declined",
                format!("that question is too long for me ({MAX_QUESTION_CHARS} characters at most)."),
            );
        }
        let lower = request::normalize(question);
        if ["prove", "proof", "show that"].iter().any(|w| lower.contains(w)) {
            return reply(
                "declined",
                "I can't write or check proofs. I can explain the idea behind a topic and compute \
                 derivatives and integrals step by step.",
            );
        }
        if ["partial derivative", "double integral", "triple integral", "multivariable", "∂"]
            .iter()
            .any(|w| lower.contains(w))
        {
            return multivariable(None);
        }
        if let Some(area) = scope::area(&lower) {
            return reply("declined", scope::decline(area, policy));
        }
        if lower.contains("implicit") {
            let mut a = topic_answer(course::find("implicit").expect("implicit topic"));
            if lower.contains('=') {
                a.text.push_str("\nI don't carry out implicit differentiation on a new equation offline; follow the same steps.");
            }
            return a;
        }
        let memory = self.recall(context);
        let ask = match crate::define::ask(&lower) {
            Ok(ask) => ask,
            Err(name) => return reply("unable", crate::define::unnamed(&name)),
        };
        match ask {
            Ask::Derivative { order, again, expr, var, at } => {
                let order = match (&memory, again && expr.is_none()) {
                    (Some(Memory { last: Last::Derivative(n), .. }), true) => Order::Given(n + 1),
                    _ => order,
                };
                let order = match checked_order(order) {
                    Ok(n) => n,
                    Err(a) => return a,
                };
                let Some(f) = self.subject(expr.as_deref(), var, &memory, &lower) else {
                    return explain_or_ask(&lower, "derivative");
                };
                let f = match f {
                    Ok(f) => f,
                    Err(a) => return a,
                };
                let answer = derivative(&f, order, at.as_deref());
                self.remember(context, &f, Last::Derivative(order));
                answer
            }
            Ask::Integral { expr, bounds } => {
                let Some(f) = self.subject(expr.as_deref(), None, &memory, &lower) else {
                    return explain_or_ask(&lower, "integral");
                };
                let f = match f {
                    Ok(f) => f,
                    Err(a) => return a,
                };
                let answer = integral(&f, bounds.as_ref());
                self.remember(context, &f, Last::Antiderivative);
                answer
            }
            Ask::Value { at } => match memory {
                Some(m) => {
                    let order = if let Last::Derivative(n) = m.last { n } else { 0 };
                    derivative(&m.f, order, Some(&at))
                }
                None => reply("answered", format!("At which function? Give me one first. {EXAMPLES}")),
            },
            Ask::Bare { expr } => match calculus::read(&expr, 'x') {
                Ok(f) if f.expr.has_var() => {
                    self.remember(context, &f, Last::Function);
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
                Ok(_) => reply("declined", scope::decline(Area::OtherMaths, policy)),
                Err(_) if expr.contains('=') && !scope::has_calculus_cue(&lower) => {
                    reply("declined", scope::decline(Area::OtherMaths, policy))
                }
                Err(e) => match course::find(&lower) {
                    Some(t) => topic_with_note(t, &lower),
                    None => cannot_read(&expr, &e),
                },
            },
            Ask::Other => match course::find(&lower) {
                Some(t) => topic_with_note(t, &lower),
                None => offer(&lower),
            },
        }
    }

    /// The function a command is about: the one it names, or the conversation's last one
    /// when it refers back. `None`: it names none and there is nothing to refer to.
    fn subject(
        &self,
        expr: Option<&str>,
        var: Option<char>,
        memory: &Option<Memory>,
        lower: &str,
    ) -> Option<Result<Function, Answer>> {
        match expr {
            Some(text) if looks_like_math(text) => Some(match calculus::read(text, var.unwrap_or('x')) {
                // d/dy of a function of x: the other letter would be a second variable
                Ok(f) if var.is_some_and(|v| v != f.var) && f.expr.has_var() => {
                    let mut both = [f.var, var.unwrap_or('x')];
                    both.sort_unstable();
                    Err(multivariable(Some(&format!("{}, {}", both[0], both[1]))))
                }
                Ok(f) => Ok(f),
                Err(Error::MultipleVariables(vars)) => Err(multivariable(Some(&vars))),
                Err(e) => Err(cannot_read(text, &e)),
            }),
            Some(_) if refers_back(lower) => memory.as_ref().map(|m| Ok(m.f.clone())),
            Some(_) => None,
            None => memory.as_ref().filter(|_| refers_back(lower)).map(|m| Ok(m.f.clone())),
        }
    }
}

/// Whether the text after a command is an expression rather than words ("mean").
fn looks_like_math(text: &str) -> bool {
    const NAMES: [&str; 9] = ["sin", "cos", "tan", "exp", "ln", "log", "sqrt", "pi", "e"];
    text.chars().any(|c| !(c.is_alphabetic() || c.is_whitespace() || c == '\''))
        || text.split_whitespace().all(|w| w.chars().count() == 1 || NAMES.iter().any(|n| w.starts_with(n)))
}

/// Whether a command without a function means the conversation's last one.
fn refers_back(lower: &str) -> bool {
    lower.split_whitespace().count() <= 3 || names_it(lower)
}

/// Words that point back at an earlier function ("it", "again", "the second …").
fn names_it(lower: &str) -> bool {
    let words =
        [" it", "this", "that", "again", "same", "the result", "now ", "what about", "how about", "then"];
    words.iter().any(|w| lower.contains(w))
        || lower.starts_with("and ")
        || request::order(lower).is_some_and(|o| o != Order::Given(1))
}

/// The topic; a limit to compute gets a plain note that it is not computed.
fn topic_with_note(t: &course::Topic, lower: &str) -> Answer {
    let mut a = topic_answer(t);
    if t.title == "Limits" && lower.chars().any(|c| c.is_ascii_digit() || c == '(' || c == '→') {
        a.text.push_str("\nI don't compute limits offline; the steps above show how to find one.");
    }
    a
}

fn topic_answer(t: &course::Topic) -> Answer {
    reply("answered", format!("{}. {}\nWorked example: {}", t.title, t.explanation, t.example))
}

/// A command with no function to apply it to: the topic, or a request for a function.
fn explain_or_ask(lower: &str, what: &str) -> Answer {
    match course::find(lower).filter(|_| !names_it(lower)) {
        Some(t) => topic_answer(t),
        None => reply("answered", format!("Which function should I take the {what} of? {EXAMPLES}")),
    }
}

fn offer(lower: &str) -> Answer {
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

fn multivariable(vars: Option<&str>) -> Answer {
    let which = vars.map(|v| format!(" (this has the variables {v})")).unwrap_or_default();
    reply(
        "declined",
        format!("I only do single-variable calculus offline{which}: one variable, like x. {EXAMPLES}"),
    )
}

fn cannot_read(text: &str, e: &Error) -> Answer {
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

/// The answer when a computation gave no result; never a guess.
fn cannot(what: &str, e: &Error) -> Answer {
    let why = match e {
        Error::NoRule(_) => "it needs a technique I don't apply offline (integration by parts or a \
            non-linear substitution, for example). I integrate polynomials, constant multiples, 1/x, \
            powers of ax+b, and sin, cos and e^ of ax+b"
            .to_string(),
        Error::CheckFailed => "my numerical check did not confirm a result, so I won't state one".to_string(),
        Error::Overflow => "the numbers grow too large for me".to_string(),
        Error::Unsupported(what) => format!("I don't handle {what}"),
        e => e.to_string(),
    };
    reply("unable", format!("I can't compute {what}: {why}."))
}

/// ` (ln needs a positive argument)`, or a general reason when none is named.
fn because(why: &str) -> String {
    if why.is_empty() {
        " (its value there is not a finite real number)".to_string()
    } else {
        format!(" ({why})")
    }
}

fn steps(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let list: Vec<String> = lines.iter().map(|l| format!("- {l}")).collect();
    format!("\nSteps:\n{}", list.join("\n"))
}

fn derivative(f: &Function, order: usize, at: Option<&str>) -> Answer {
    let v = f.var;
    let name = format!("f{}({v})", prime(order));
    let head = format!("f({v}) = {}", f.shown());
    let Some(at) = at else {
        return match calculus::derivative(f, order) {
            Ok(w) => {
                // a higher derivative shows the one before it, which its steps start from
                let before = match order {
                    1 => String::new(),
                    n => calculus::derivative(f, n - 1)
                        .map(|p| format!("\nf{}({v}) = {}", prime(n - 1), p.shown))
                        .unwrap_or_default(),
                };
                reply("answered", format!("{head}{before}\n{name} = {}{}", w.shown, steps(&w.steps)))
            }
            Err(e) => cannot(&format!("the derivative of {}", f.shown()), &e),
        };
    };
    let point = match calculus::read_number(at) {
        Ok(p) => p,
        Err(_) => return reply("unable", format!("I couldn't read \"{at}\" as a number.")),
    };
    let shown_at = calculus::show(&point);
    match calculus::derivative_at(f, order, &point) {
        Ok((_, value)) if order == 0 => {
            reply("answered", format!("{head}\nf({shown_at}) = {}", value.display()))
        }
        Ok((w, value)) => reply(
            "answered",
            format!("{head}\n{name} = {}\nf{}({shown_at}) = {}", w.shown, prime(order), value.display()),
        ),
        Err(Error::NotDefined { order: k, at, why }) => {
            let which = match k {
                0 => "f".to_string(),
                k => match calculus::derivative(f, k) {
                    Ok(d) => format!("f{}({v}) = {}", prime(k), d.shown),
                    Err(_) => format!("f{}", prime(k)),
                },
            };
            let asked = if order == 0 {
                "so it has no value there".to_string()
            } else if k == 0 {
                format!("so f{}({at}) does not exist", prime(order))
            } else {
                format!("so the derivative f{}({at}) does not exist", prime(order))
            };
            reply(
                "unable",
                format!(
                    "{head}
{which} is not defined at {v} = {at}{}, {asked}.",
                    because(&why)
                ),
            )
        }
        Err(e) => cannot(&format!("that value at {v} = {shown_at}"), &e),
    }
}

fn integral(f: &Function, bounds: Option<&(String, String)>) -> Answer {
    let v = f.var;
    let shown = match &f.expr {
        calculus::Expr::Add(_) => format!("({})", f.shown()),
        _ => f.shown(),
    };
    let Some((a, b)) = bounds else {
        return match calculus::antiderivative(f) {
            Ok(w) => reply("answered", format!("∫ {shown} d{v} = {} + C{}", w.shown, steps(&w.steps))),
            Err(e) => cannot(&format!("∫ {shown} d{v}"), &e),
        };
    };
    let (pa, pb) = match (calculus::read_number(a), calculus::read_number(b)) {
        (Ok(pa), Ok(pb)) => (pa, pb),
        _ => return reply("unable", format!("I couldn't read the bounds \"{a}\" and \"{b}\" as numbers.")),
    };
    let (sa, sb) = (calculus::show(&pa), calculus::show(&pb));
    match calculus::definite(f, &pa, &pb) {
        Ok((w, value)) => reply(
            "answered",
            format!(
                "The integral from {sa} to {sb} of {shown} d{v} = {}\nAn antiderivative: F({v}) = {}\n\
                 Fundamental theorem: F({sb}) - F({sa}) = {}{}",
                value.display(),
                w.shown,
                value.display(),
                steps(&w.steps)
            ),
        ),
        Err(Error::NotDefined { at, why, .. }) => reply(
            "unable",
            format!(
                "I can't compute the integral from {sa} to {sb} of {shown} d{v}: {} is not defined at \
                 {v} = {at}, a point of the interval{}. That makes it an improper integral (or one \
                 that does not exist), which I don't evaluate offline.",
                f.shown(),
                because(&why)
            ),
        ),
        Err(e) => cannot(&format!("the integral from {sa} to {sb} of {shown} d{v}"), &e),
    }
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
