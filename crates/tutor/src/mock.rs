//! Mock mode: the offline tutor. Deterministic, no model; every answer starts with
//! [`LABEL`]. It reads typos and five languages (`words.rs`), explains the course pack's
//! topics with a different worked example each time another is asked for
//! (`examples.rs`), computes derivatives, integrals and limits (`limits.rs`) with the
//! `calculus` crate (each result checked numerically with exmex before it is stated),
//! keeps the last function and topic of each conversation for follow-ups ("and the
//! second derivative?", "now integrate it", "what about at x=2?", "another example",
//! "why?": `why.rs`),
//! and says plainly what it cannot do.

use std::cell::Cell;
use std::sync::Mutex;

use calculus::{Error, Function};
use skills::Policy;

use crate::answer::reply;
pub use crate::answer::{Answer, LABEL};
use crate::compute::{derivative, integral};
use crate::course::{self, TOPIC_LIST};
use crate::examples::{self, Seen};
use crate::limits;
use crate::ordinal::ordinal;
use crate::request::{self, Ask, Order};
use crate::scope::{self, Area};
use crate::why::{self, Computed};
use bounded::BoundedMap;

/// Conversations whose last function is kept.
pub const MEMORY_CAPACITY: usize = 4_096;
/// Longest question read, in characters.
pub(crate) const MAX_QUESTION_CHARS: usize = 2_000;

const EXAMPLES: &str = "Try: derivative of x^3*sin(x), d/dx (2x+1)^5, integrate x*e^x, \
    integrate x^2 from 0 to 3, limit of sin(x)/x as x -> 0, or what is the chain rule?";

#[derive(Debug, Clone, PartialEq)]
enum Last {
    Function,
    Derivative(usize),
    Antiderivative,
    /// A limit: the point as typed, and the side.
    Limit(String, calculus::Side),
}

#[derive(Debug, Clone)]
struct Memory {
    /// The conversation's last function, if any.
    f: Option<Function>,
    last: Last,
    /// The topic last explained and the worked example shown last.
    topic: Option<Seen>,
    /// Whether the last thing answered was that topic (not a computation): "why?" is then
    /// why the rule holds.
    explained_last: bool,
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
        let mut memory = self.memory.lock().unwrap_or_else(|p| p.into_inner());
        let topic = memory.get(&context.to_string()).and_then(|m| m.topic);
        memory.insert(context.to_string(), Memory { f: Some(f.clone()), last, topic, explained_last: false });
    }

    fn remember_topic(&self, context: &str, topic: Seen) {
        let mut memory = self.memory.lock().unwrap_or_else(|p| p.into_inner());
        let kept = memory.get(&context.to_string()).cloned();
        let (f, last) = kept.map_or((None, Last::Function), |m| (m.f, m.last));
        memory.insert(context.to_string(), Memory { f, last, topic: Some(topic), explained_last: true });
    }

    /// Answers one question in conversation `context`, within `policy` (which has at
    /// least one enabled skill; the executor declines before this otherwise).
    pub fn answer(&self, context: &str, question: &str, policy: &Policy) -> Answer {
        let seen = Cell::new(None);
        let a = self.respond(context, question, policy, &seen);
        if let Some(topic) = seen.get() {
            self.remember_topic(context, topic);
        }
        a
    }

    /// [`MockTutor::answer`]; a topic explained or an example shown is set in `seen`.
    fn respond(&self, context: &str, question: &str, policy: &Policy, seen: &Cell<Option<Seen>>) -> Answer {
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
        let memory = self.recall(context);
        if examples::wants_another(&lower) {
            let (a, now) = examples::another(&lower, memory.as_ref().and_then(|m| m.topic));
            seen.set(now);
            return a;
        }
        if why::asked(&lower) {
            if let Some(Memory { topic: Some(t), explained_last: true, .. }) = &memory
                && let Some(a) = crate::reasons::answer(t.title)
            {
                return a;
            }
            return why::answer(memory.as_ref().and_then(|m| {
                let f = m.f.as_ref()?;
                Some(match &m.last {
                    Last::Derivative(n) => Computed::Derivative(f, *n),
                    Last::Antiderivative => Computed::Antiderivative(f),
                    Last::Limit(to, side) => Computed::Limit(f, to, *side),
                    Last::Function => Computed::Function(f),
                })
            }));
        }
        if let Some(area) = scope::area(&lower) {
            return reply("declined", scope::decline(area, policy));
        }
        if lower.contains("implicit") {
            let mut a = topic_answer(course::find("implicit").expect("implicit topic"), seen);
            if lower.contains('=') {
                a.text.push_str("\nI don't carry out implicit differentiation on a new equation offline; follow the same steps.");
            }
            return a;
        }
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
                    return explain_or_ask(&lower, "derivative", seen);
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
                    return explain_or_ask(&lower, "integral", seen);
                };
                let f = match f {
                    Ok(f) => f,
                    Err(a) => return a,
                };
                let answer = integral(&f, bounds.as_ref());
                self.remember(context, &f, Last::Antiderivative);
                answer
            }
            Ask::Limit(l) => self.limit(context, l, &memory, &lower),
            Ask::Value { at, expr: Some(expr) } => match self.subject(Some(&expr), None, &memory, &lower) {
                Some(Ok(f)) => {
                    self.remember(context, &f, Last::Function);
                    derivative(&f, 0, Some(&at))
                }
                Some(Err(a)) => a,
                None => reply("answered", format!("At which function? Give me one first. {EXAMPLES}")),
            },
            Ask::Value { at, expr: None } => match memory.and_then(|m| Some((m.f?, m.last))) {
                Some(m) => {
                    let order = if let Last::Derivative(n) = m.1 { n } else { 0 };
                    derivative(&m.0, order, Some(&at))
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
                    Some(t) => topic_with_note(t, &lower, seen),
                    None => cannot_read(&expr, &e),
                },
            },
            Ask::Other => match course::find(&lower) {
                Some(t) => topic_with_note(t, &lower, seen),
                None => offer(&lower),
            },
        }
    }

    /// A limit question: of the function it names, or of the conversation's last one.
    fn limit(&self, context: &str, l: limits::LimitAsk, memory: &Option<Memory>, lower: &str) -> Answer {
        // no function named: the conversation's last one
        let named = match &l.expr {
            Some(_) => self.subject(l.expr.as_deref(), None, memory, lower),
            None => memory.as_ref().and_then(|m| m.f.clone()).map(Ok),
        };
        let f = match named {
            Some(Ok(f)) => f,
            Some(Err(a)) => return a,
            None if l.to.is_some() => {
                return reply("answered", format!("The limit of which function? {EXAMPLES}"));
            }
            None => {
                return topic_with_note(
                    course::find("limit").expect("limits topic"),
                    lower,
                    &Cell::new(None),
                );
            }
        };
        let Some(to) = l.to else { return limits::where_to(l.expr.as_deref().unwrap_or("sin(x)/x")) };
        self.remember(context, &f, Last::Limit(to.clone(), l.side));
        limits::answer(&f, &to, l.side)
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
            Some(_) if refers_back(lower) => memory.as_ref().and_then(|m| m.f.clone()).map(Ok),
            Some(_) => None,
            None => memory.as_ref().filter(|_| refers_back(lower)).and_then(|m| m.f.clone()).map(Ok),
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
    // bounds alone ("from 0 to 3?", "between 1 and 2") are new bounds for the last one
    let bounds_only = ["from ", "between "].iter().any(|b| lower.trim_start().starts_with(b));
    lower.split_whitespace().count() <= 3 || bounds_only || names_it(lower)
}

/// Words that point back at an earlier function ("it", "again", "the second …").
fn names_it(lower: &str) -> bool {
    let words =
        [" it", "this", "that", "again", "same", "the result", "now ", "what about", "how about", "then"];
    words.iter().any(|w| lower.contains(w))
        || lower.starts_with("and ")
        || request::order(lower).is_some_and(|o| o != Order::Given(1))
}

/// The topic; a limit that names no point gets a note on how to ask for one.
fn topic_with_note(t: &'static course::Topic, lower: &str, seen: &Cell<Option<Seen>>) -> Answer {
    let mut a = topic_answer(t, seen);
    if t.title == "Limits" && lower.chars().any(|c| c.is_ascii_digit() || c == '(' || c == '→') {
        a.text.push_str("\nTo have one computed, say where the variable goes: limit of sin(x)/x as x -> 0.");
    }
    a
}

/// The topic's explanation with its first worked example (remembered as shown).
fn topic_answer(t: &'static course::Topic, seen: &Cell<Option<Seen>>) -> Answer {
    seen.set(Some(Seen { title: t.title, shown: 0 }));
    reply("answered", format!("{}. {}\nWorked example: {}", t.title, t.explanation, t.examples[0]))
}

/// A command with no function to apply it to: the topic, or a request for a function.
fn explain_or_ask(lower: &str, what: &str, seen: &Cell<Option<Seen>>) -> Answer {
    match course::find(lower).filter(|_| !names_it(lower)) {
        Some(t) => topic_answer(t, seen),
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
