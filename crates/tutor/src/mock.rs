//! Mock mode: the offline tutor. Deterministic, no model; every answer starts with
//! [`LABEL`]. It reads typos and five languages (`words.rs`), explains the course pack's
//! topics with a different worked example each time another is asked for
//! (`examples.rs`), computes derivatives, integrals and limits (`limits.rs`) with the
//! `calculus` crate (each result checked numerically with exmex before it is stated),
//! keeps the last function, operation and topic of each conversation for follow-ups
//! ("and the second derivative?", "now integrate it", "what about at x=2?", "another
//! example", "why?": `why.rs`; "and x^4?", "x=4?", "I don't get it": `followup.rs`), and
//! says plainly what it cannot do.

use std::cell::Cell;
use std::sync::Mutex;

use calculus::{Error, Function};
use skills::Policy;

pub use crate::answer::{Answer, LABEL};
use crate::answer::{EXAMPLES, cannot_read, given, multivariable, offer, reply};
use crate::compute::{derivative, integral};
use crate::course;
use crate::examples::{self, Seen};
use crate::followup;
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

/// The conversation's last computation, with what a follow-up may repeat on a new
/// expression ("and x^4?") or change ("x=4?").
#[derive(Debug, Clone, PartialEq)]
enum Last {
    /// A function given (its value asked at this point, if any).
    Function(Option<String>),
    /// A derivative of this order (at this point, if any).
    Derivative(usize, Option<String>),
    /// An antiderivative (between these bounds, if any).
    Antiderivative(Option<(String, String)>),
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
    /// Whether the last computation was already gone through again ("I don't get it").
    rephrased: bool,
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
        let kept = Memory { f: Some(f.clone()), last, topic, explained_last: false, rephrased: false };
        memory.insert(context.to_string(), kept);
    }

    fn remember_rephrased(&self, context: &str) {
        let mut memory = self.memory.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(mut m) = memory.get(&context.to_string()).cloned() {
            m.rephrased = true;
            memory.insert(context.to_string(), m);
        }
    }

    fn remember_topic(&self, context: &str, topic: Seen) {
        let mut memory = self.memory.lock().unwrap_or_else(|p| p.into_inner());
        let kept = memory.get(&context.to_string()).cloned();
        let (f, last) = kept.map_or((None, Last::Function(None)), |m| (m.f, m.last));
        let kept = Memory { f, last, topic: Some(topic), explained_last: true, rephrased: false };
        memory.insert(context.to_string(), kept);
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
            // of the topic last explained; with none, of the rule the last computation used
            let topic = memory
                .as_ref()
                .and_then(|m| m.topic)
                .or_else(|| rule_topic(&memory).map(|t| Seen { title: t.title, shown: 0, reworded: false }));
            let (a, now) = examples::another(&lower, topic);
            seen.set(now);
            return a;
        }
        if why::asked(&lower) {
            if let Some(Memory { topic: Some(t), explained_last: true, .. }) = &memory
                && let Some(a) = crate::reasons::answer(t.title)
            {
                return a;
            }
            return why::answer(computed(&memory));
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
                    (Some(Memory { last: Last::Derivative(n, _), .. }), true) => Order::Given(n + 1),
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
                self.remember(context, &f, Last::Derivative(order, at));
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
                self.remember(context, &f, Last::Antiderivative(bounds));
                answer
            }
            Ask::Limit(l) => self.limit(context, l, &memory, &lower),
            Ask::Value { at, expr: Some(expr) } => match self.subject(Some(&expr), None, &memory, &lower) {
                Some(Ok(f)) => {
                    let answer = derivative(&f, 0, Some(&at));
                    self.remember(context, &f, Last::Function(Some(at)));
                    answer
                }
                Some(Err(a)) => a,
                None => reply("answered", format!("At which function? Give me one first. {EXAMPLES}")),
            },
            // a new point for the last question: a limit there, or the last derivative's
            // (or the function's) value there
            Ask::Value { at, expr: None } => match memory.and_then(|m| Some((m.f?, m.last))) {
                Some((f, Last::Limit(_, side))) => {
                    self.remember(context, &f, Last::Limit(at.clone(), side));
                    limits::answer(&f, &at, side)
                }
                Some((f, last)) => {
                    let order = if let Last::Derivative(n, _) = last { n } else { 0 };
                    let answer = derivative(&f, order, Some(&at));
                    let last =
                        if order == 0 { Last::Function(Some(at)) } else { Last::Derivative(order, Some(at)) };
                    self.remember(context, &f, last);
                    answer
                }
                None => reply("answered", format!("At which function? Give me one first. {EXAMPLES}")),
            },
            Ask::Again { expr } => match self.subject(Some(&expr), None, &memory, &lower) {
                Some(Ok(f)) => self.again(context, &f, memory.map(|m| m.last)),
                Some(Err(a)) => a,
                None => cannot_read(&expr, &Error::Syntax("not an expression".into())),
            },
            Ask::Bare { expr } => match calculus::read(&expr, 'x') {
                Ok(f) if f.expr.has_var() => {
                    self.remember(context, &f, Last::Function(None));
                    given(&f)
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
            Ask::Other if followup::confused(&lower) => self.rephrase(context, memory.as_ref(), &lower, seen),
            Ask::Other => match course::find(&lower) {
                Some(t) => topic_with_note(t, &lower, seen),
                None => offer(&lower),
            },
        }
    }

    /// The last operation again, on the new function `f` ("and x^4?" after a derivative
    /// of x^3): the same order and point, the same bounds, the same limit point.
    fn again(&self, context: &str, f: &Function, last: Option<Last>) -> Answer {
        let last = last.unwrap_or(Last::Function(None));
        let answer = match &last {
            Last::Derivative(n, at) => derivative(f, *n, at.as_deref()),
            Last::Antiderivative(bounds) => integral(f, bounds.as_ref()),
            Last::Limit(to, side) => limits::answer(f, to, *side),
            Last::Function(Some(at)) => derivative(f, 0, Some(at)),
            Last::Function(None) => given(f),
        };
        self.remember(context, f, last);
        answer
    }

    /// "I don't get it": the explained topic said another way; after a computation, the
    /// rules each step used, then (asked again) the topic of the first rule; the topic it
    /// names, when it names another.
    fn rephrase(
        &self,
        context: &str,
        memory: Option<&Memory>,
        lower: &str,
        seen: &Cell<Option<Seen>>,
    ) -> Answer {
        let last_topic = memory.and_then(|m| m.topic);
        if let Some(t) = course::find(lower).filter(|t| last_topic.is_none_or(|s| s.title != t.title)) {
            return topic_answer(t, seen);
        }
        match memory {
            Some(m @ Memory { explained_last: false, f: Some(_), .. })
                if !matches!(m.last, Last::Function(None)) =>
            {
                if !m.rephrased {
                    self.remember_rephrased(context);
                    let rules = why::answer(computed(&Some(m.clone())));
                    let text = rules.text.trim_start_matches(LABEL);
                    return reply("answered", format!("Let me go through it step by step. {text}"));
                }
                match rule_topic(&Some(m.clone())) {
                    Some(t) => {
                        let mut a = topic_answer(t, seen);
                        a.text = a.text.replacen(LABEL, &format!("{LABEL}Here is the rule behind it. "), 1);
                        a
                    }
                    None => followup::nothing_to_rephrase(),
                }
            }
            Some(Memory { topic: Some(t), .. }) => {
                let (a, now) = followup::put_another_way(*t);
                seen.set(now);
                a
            }
            _ => followup::nothing_to_rephrase(),
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

/// The last computation, for "why?" and "I don't get it".
fn computed(memory: &Option<Memory>) -> Option<Computed<'_>> {
    let m = memory.as_ref()?;
    let f = m.f.as_ref()?;
    Some(match &m.last {
        Last::Derivative(n, _) => Computed::Derivative(f, *n),
        Last::Antiderivative(_) => Computed::Antiderivative(f),
        Last::Limit(to, side) => Computed::Limit(f, to, *side),
        Last::Function(_) => Computed::Function(f),
    })
}

/// The course topic of the first rule the last computation used (the power rule after
/// the derivative of x^3), if any.
fn rule_topic(memory: &Option<Memory>) -> Option<&'static course::Topic> {
    let c = computed(memory).filter(|c| !matches!(c, Computed::Function(_)))?;
    course::find(&why::answer(Some(c)).text.to_lowercase())
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
    seen.set(Some(Seen { title: t.title, shown: 0, reworded: false }));
    reply("answered", format!("{}. {}\nWorked example: {}", t.title, t.explanation, t.examples[0]))
}

/// A command with no function to apply it to: the topic, or a request for a function.
fn explain_or_ask(lower: &str, what: &str, seen: &Cell<Option<Seen>>) -> Answer {
    match course::find(lower).filter(|_| !names_it(lower)) {
        Some(t) => topic_answer(t, seen),
        None => reply("answered", format!("Which function should I take the {what} of? {EXAMPLES}")),
    }
}
