//! The offline tutor, question by question: one table, answered in order (follow-ups
//! share a conversation), each row naming the outcome and lines the answer must hold.

use super::*;

/// (conversation, question, outcome, what the answer contains)
const TABLE: &[(&str, &str, &str, &[&str])] = &[
    // vague questions get an offer with topics and an example
    (
        "a",
        "hello",
        "answered",
        &["Yes, I can help with calculus.", "the chain rule", "Try: derivative of x^3*sin(x)"],
    ),
    ("a", "help", "answered", &["Yes, I can help with calculus."]),
    (
        "a",
        "Hello Tutor Agent. Can you help me with calculus?",
        "answered",
        &["Yes, I can help with calculus."],
    ),
    // topics: explanation plus worked example
    ("b", "What is a limit?", "answered", &["Limits. A limit describes", "Worked example: lim x→2"]),
    ("b", "what does the derivative mean", "answered", &["The derivative. ", "f'(x) = 2x"]),
    ("b", "Explain the power rule", "answered", &["The power rule. ", "12x^2 - 5 - 1/x^2"]),
    ("b", "how does the product rule work?", "answered", &["The product rule. ", "2x·sin(x) + x^2·cos(x)"]),
    ("b", "quotient rule please", "answered", &["The quotient rule. ", "1/(x+1)^2"]),
    ("b", "what is the chain rule?", "answered", &["The chain rule. ", "10(2x+1)^4"]),
    (
        "b",
        "How do I do implicit differentiation?",
        "answered",
        &["Implicit differentiation. ", "dy/dx = -x/y"],
    ),
    (
        "b",
        "what is an antiderivative",
        "answered",
        &["Antiderivatives and indefinite integrals. ", "x^3 + x^2 + C"],
    ),
    ("b", "explain u-substitution", "answered", &["Integration by substitution. ", "sin(x^2) + C"]),
    ("b", "what does the fundamental theorem of calculus say", "answered", &["F(b) - F(a)", "= 9."]),
    ("b", "how do I find the maximum area of a rectangle", "answered", &["Optimisation. ", "A(5) = 25"]),
    ("b", "limit of sin(x)/x as x->0", "answered", &["lim x→0 sin(x)/x = 1", "standard limit"]),
    // computing derivatives, with the rules named
    (
        "c",
        "derivative of x^3*sin(x)",
        "answered",
        &[
            "f(x) = x^3·sin(x)",
            "f'(x) = 3x^2·sin(x) + x^3·cos(x)",
            "- product rule: (x^3)'·sin(x) + x^3·(sin(x))' = 3x^2·sin(x) + x^3·cos(x)",
            "- power rule: (x^3)' = 3x^2",
        ],
    ),
    (
        "c",
        "and the second derivative?",
        "answered",
        &["f'(x) = 3x^2·sin(x) + x^3·cos(x)", "f''(x) = 6x·sin(x) + 6x^2·cos(x) - x^3·sin(x)"],
    ),
    ("c", "what about at x=2?", "answered", &["f''(2) = 4sin(2) + 24cos(2) ≈ -6.350334"]),
    (
        "c",
        "now integrate it",
        "answered",
        &["∫ x^3·sin(x) dx = -x^3·cos(x) + 3x^2·sin(x) + 6x·cos(x) - 6sin(x) + C", "by parts with u = x^3"],
    ),
    ("d", "d/dx (2x+1)^5", "answered", &["f'(x) = 10(2x+1)^4", "chain rule with the power rule"]),
    ("d", "differentiate it again", "answered", &["f''(x) = 80(2x+1)^3"]),
    ("e", "differentiate e^(2x)", "answered", &["f'(x) = 2e^(2x)", "chain rule with the exponential rule"]),
    (
        "e",
        "What is the derivative of sin(x)/x?",
        "answered",
        &["f'(x) = (x·cos(x)-sin(x))/x^2", "quotient rule"],
    ),
    ("e", "derivative of ln(x^2+1)", "answered", &["f'(x) = 2x/(x^2+1)"]),
    (
        "e",
        "find the derivative of sqrt(x) at x = 4",
        "answered",
        &["f'(x) = 1/(2sqrt(x))", "f'(4) = 1/4 ≈ 0.25"],
    ),
    ("e", "derivative of x^2 at x = 3", "answered", &["f'(3) = 6"]),
    ("e", "d/dt t^3 - 2t", "answered", &["f(t) = t^3 - 2t", "f'(t) = 3t^2 - 2"]),
    // integrals
    ("f", "integrate 3x^2 + 2x", "answered", &["∫ (3x^2 + 2x) dx = x^3 + x^2 + C", "sum rule"]),
    ("f", "∫ cos(x) dx", "answered", &["∫ cos(x) dx = sin(x) + C"]),
    (
        "f",
        "integrate (2x+1)^5",
        "answered",
        &["= (2x+1)^6/12 + C", "linear substitution u = 2x+1 (du = 2 dx)"],
    ),
    ("f", "antiderivative of 1/x", "answered", &["∫ 1/x dx = ln|x| + C"]),
    ("f", "integral of e^(3x)", "answered", &["∫ e^(3x) dx = e^(3x)/3 + C"]),
    ("f", "integrate sin(2x)", "answered", &["∫ sin(2x) dx = -cos(2x)/2 + C"]),
    ("f", "integral of x*e^x", "answered", &["∫ x·e^x dx = x·e^x - e^x + C"]),
    ("f", "integrate e^(x^2)", "unable", &["I can't compute ∫ e^(x^2) dx"]),
    (
        "g",
        "integrate x^2 from 0 to 3",
        "answered",
        &["The integral from 0 to 3 of x^2 dx = 9", "An antiderivative: F(x) = x^3/3", "F(3) - F(0) = 9"],
    ),
    ("g", "and from 1 to 2?", "answered", &["The integral from 1 to 2 of x^2 dx = 7/3 ≈ 2.333333"]),
    ("g", "integrate sin(x) from 0 to pi", "answered", &["= 2"]),
    ("g", "integrate 1/x from -1 to 1", "unable", &["1/x is not defined at x = 0, a point of the interval"]),
    // a bare expression is remembered; then follow-ups
    ("h", "x^2 + 1", "answered", &["f(x) = x^2 + 1. What would you like"]),
    ("h", "differentiate it", "answered", &["f'(x) = 2x"]),
    ("h", "now integrate it", "answered", &["= x^3/3 + x + C"]),
    ("h", "what about at x = 3?", "answered", &["f(3) = 10"]),
    // what it says plainly it cannot do
    ("i", "what is the derivative of x^2 +", "unable", &["I couldn't read \"x^2 +\""]),
    ("i", "derivative of sec(x)", "unable", &["I don't handle the function sec"]),
    ("i", "derivative of x*y", "declined", &["single-variable calculus", "x, y"]),
    ("i", "differentiate x^2 with respect to y", "declined", &["single-variable calculus", "x, y"]),
    ("l", "differentiate t^2 with respect to t", "answered", &["f'(t) = 2t"]),
    ("i", "partial derivative of x^2 y with respect to y", "declined", &["single-variable calculus"]),
    ("i", "prove that the derivative of sin is cos", "declined", &["I can't write or check proofs"]),
    ("i", "what about at x=2?", "answered", &["At which function?"]),
    // other ways of asking
    ("m", "find dy/dx if y = x^2 sin x", "answered", &["f'(x) = 2x·sin(x) + x^2·cos(x)"]),
    ("m", "differentiate 3x^2 + 2x + 1 step by step", "answered", &["f'(x) = 6x + 2"]),
    ("m", "what is the slope of x^2 at x=3", "answered", &["f'(3) = 6"]),
    ("m", "find the gradient of x^3 - x at x = 2", "answered", &["f'(2) = 11"]),
    (
        "m",
        "evaluate the integral of cos x between 0 and pi/2",
        "answered",
        &["from 0 to π/2 of cos(x) dx = 1"],
    ),
    ("m", "what is the area under x^2 from 0 to 3", "answered", &["of x^2 dx = 9"]),
    ("m", "integrate 1/(x^2+1)", "unable", &["I can't compute ∫ 1/(x^2+1) dx"]),
    ("m", "derivative of |x|", "unable", &["I don't handle absolute values"]),
    ("m", "what's the weather like", "answered", &["I didn't find a calculus topic or an expression"]),
    // the order asked for, read generally and never replaced by another
    ("n", "2nd derivative of x^3", "answered", &["f'(x) = 3x^2", "f''(x) = 6x"]),
    ("n", "5th derivative of x^7", "answered", &["f⁽⁴⁾(x) = 840x^3", "f⁽⁵⁾(x) = 2520x^2"]),
    ("n", "and the 3rd derivative?", "answered", &["f'''(x) = 210x^4"]),
    ("n", "differentiate it again", "answered", &["f⁽⁴⁾(x) = 840x^3"]),
    ("n", "sixth derivative of sin(x)", "answered", &["f⁽⁶⁾(x) = -sin(x)"]),
    ("n", "10th derivative of x^12", "answered", &["f⁽¹⁰⁾(x) = 239500800x^2"]),
    ("n", "differentiate it again", "unable", &["up to the 10th offline, so I won't compute the 11th"]),
    ("n", "the 21st derivative of x", "unable", &["I won't compute the 21st"]),
    ("n", "nth derivative of x^5", "unable", &["general formula for the n-th derivative"]),
    ("n", "what is the fifth derivative of e^(2x) at x = 0", "answered", &["f⁽⁵⁾(0) = 32"]),
    // scientific notation, and e
    (
        "o",
        "integrate x from 1 to 1e9",
        "answered",
        &["from 1 to 1000000000 of x dx = 999999999999999999/2 ≈ 500000000000000000"],
    ),
    ("o", "integrate x from 0 to 2e3", "answered", &["from 0 to 2000 of x dx = 2000000"]),
    ("o", "integrate 2.5e-3 x from 0 to 1", "answered", &["of x/400 dx = 1/800 ≈ 0.00125"]),
    ("o", "derivative of 2e^x", "answered", &["f(x) = 2e^x", "f'(x) = 2e^x"]),
    ("o", "derivative of 2ex", "answered", &["f(x) = 2ex", "f'(x) = 2e"]),
    // ordinary words end the expression
    ("p", "what is the derivative of x^2 with steps", "answered", &["f(x) = x^2\n", "f'(x) = 2x"]),
    ("p", "differentiate sin x cos x using the product rule please", "answered", &["f(x) = sin(x)·cos(x)\n"]),
    ("p", "integrate x^2 for me, step by step", "answered", &["∫ x^2 dx = x^3/3 + C"]),
    ("p", "derivative of x^3? thanks", "answered", &["f'(x) = 3x^2"]),
    ("p", "x^3 + 1 please", "answered", &["f(x) = x^3 + 1. What would you like"]),
    ("p", "derivative of x to the power 3", "unable", &["the word \"to\" is not part of an expression"]),
    // the policy's excluded areas, named from the policy
    (
        "j",
        "solve 2x+3=7",
        "declined",
        &["maths outside calculus", "non-calculus math", "I cover limits, derivatives"],
    ),
    ("j", "what is 17*23", "declined", &["maths outside calculus"]),
    ("j", "how do I fix my leaking faucet?", "declined", &["home repair"]),
    ("j", "can I renew my library loan", "declined", &["library services"]),
    ("j", "what force does a 2 kg mass feel under gravity", "declined", &["standalone physics"]),
    // topic words, singular and plural, are words: the "s" is never a variable
    ("q", "what are derivatives", "answered", &["The derivative. "]),
    ("q", "derivatives", "answered", &["The derivative. "]),
    ("q", "derivative", "answered", &["The derivative. "]),
    ("q", "what are derivatives used for", "answered", &["The derivative. "]),
    ("q", "tell me about integrals", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "tell me about the integral", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "explain integrals to me", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "integrals", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "what are antiderivatives used for", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "antiderivatives", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "what are anti-derivatives", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "what are definite integrals", "answered", &["Definite integrals and the fundamental theorem"]),
    ("q", "what is a definite integral", "answered", &["Definite integrals and the fundamental theorem"]),
    ("q", "what are limits", "answered", &["Limits. "]),
    ("q", "limit", "answered", &["Limits. "]),
    ("q", "explain the product rules", "answered", &["The product rule. "]),
    ("q", "quotient rules", "answered", &["The quotient rule. "]),
    ("q", "chain rules", "answered", &["The chain rule. "]),
    ("q", "power rules", "answered", &["The power rule. "]),
    ("q", "substitutions", "answered", &["Integration by substitution. "]),
    ("q", "what are differentiation rules", "answered", &["The derivative. "]),
    ("q", "how do differentiations work", "answered", &["The derivative. "]),
    ("q", "what do integrations do", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("q", "what are the maximums", "answered", &["Optimisation. "]),
    // with a function remembered, a plural topic word still gets the topic
    ("r", "x^2", "answered", &["f(x) = x^2. What would you like"]),
    ("r", "what are derivatives", "answered", &["The derivative. "]),
    ("r", "integrals", "answered", &["Antiderivatives and indefinite integrals. "]),
    ("r", "derivatives of x^3 + x", "answered", &["f'(x) = 3x^2 + 1"]),
    ("r", "integrals of x^3", "answered", &["∫ x^3 dx = x^4/4 + C"]),
    // the function or a derivative undefined at the point: said plainly, no value
    (
        "s",
        "derivative of ln(x) at x = -2",
        "unable",
        &["f is not defined at x = -2 (ln needs a positive argument), so f'(-2) does not exist"],
    ),
    (
        "s",
        "second derivative of ln(x) at x = -1",
        "unable",
        &["f is not defined at x = -1 (ln needs a positive argument), so f''(-1) does not exist"],
    ),
    (
        "s",
        "derivative of sqrt(x) at x = 0",
        "unable",
        &[
            "f'(x) = 1/(2sqrt(x)) is not defined at x = 0 (division by zero), so the derivative f'(0) does not exist",
        ],
    ),
    (
        "s",
        "what about at x = -4?",
        "unable",
        &["f is not defined at x = -4 (sqrt needs a non-negative argument)"],
    ),
    ("s", "derivative of 1/x at x = 0", "unable", &["f is not defined at x = 0 (division by zero)"]),
    ("s", "derivative of ln(x) at x = 2", "answered", &["f'(2) = 1/2 ≈ 0.5"]),
    // power-rule and log integrals near a pole: computed, checked by differentiating
    ("t", "integrate 1/x^2", "answered", &["∫ 1/x^2 dx = -1/x + C"]),
    ("t", "integrate x^-3", "answered", &["= -1/(2x^2) + C"]),
    ("t", "integrate 1/(x+1)^2", "answered", &["∫ 1/(x+1)^2 dx = -1/(x+1) + C"]),
    ("t", "integrate 1/(x+2)", "answered", &["∫ 1/(x+2) dx = ln|x+2| + C"]),
    ("t", "integrate 3/(2x+4)", "answered", &["= 3ln|2x+4|/2 + C"]),
    ("t", "integrate 1/x^2 from 1 to 2", "answered", &["The integral from 1 to 2 of 1/x^2 dx = 1/2"]),
    (
        "t",
        "integrate 1/x^2 from -1 to 1",
        "unable",
        &["1/x^2 is not defined at x = 0, a point of the interval (division by zero)", "improper integral"],
    ),
    ("t", "integrate sqrt(x) from -1 to 1", "unable", &["(sqrt needs a non-negative argument)"]),
    // the variable's own d in every step
    ("u", "integrate t^2", "answered", &["∫ t^2 dt = t^3/3 + C", "power rule: ∫t^2 dt = t^3/3"]),
    ("u", "integrate (3t+1)^2", "answered", &["(du = 3 dt)"]),
    ("u", "integrate 5sin(2s)", "answered", &["constant multiple: ∫5sin(2s) ds = 5·∫sin(2s) ds"]),
    ("u", "integrate t from 0 to 2", "answered", &["of t dt = 2"]),
    // other phrasings with an expression
    ("v", "integral from 0 to 1 of x^2", "answered", &["The integral from 0 to 1 of x^2 dx = 1/3"]),
    ("v", "what is ∫ from 0 to 2 of 3x^2 dx", "answered", &["of 3x^2 dx = 8"]),
    ("v", "x^3 derivative", "answered", &["f'(x) = 3x^2"]),
    ("v", "x^3 integral", "answered", &["∫ x^3 dx = x^4/4 + C"]),
    ("v", "sin(x) derivative at x = 0", "answered", &["f'(0) = 1"]),
    ("v", "d^2/dx^2 x^4", "answered", &["f''(x) = 12x^2"]),
    ("v", "d²/dx² x^4", "answered", &["f''(x) = 12x^2"]),
    ("v", "find d2y/dx2 if y = x^4", "answered", &["f''(x) = 12x^2"]),
    ("v", "d^3y/dx^3 of sin(x)", "answered", &["f'''(x) = -cos(x)"]),
    ("v", "d^2/dt^2 t^3", "answered", &["f''(t) = 6t"]),
    ("v", "take the derivative with respect to x of x^4", "answered", &["f'(x) = 4x^3"]),
    ("v", "derivative wrt t of t^3", "answered", &["f'(t) = 3t^2"]),
    ("w", "a derivative", "answered", &["The derivative. "]),
    ("w", "x^3 2nd derivative", "answered", &["f(x) = x^3\n", "f''(x) = 6x"]),
    ("w", "the 2nd derivative at x = 0", "answered", &["f''(0) = 0"]),
    ("w", "integrating x^2", "answered", &["∫ x^2 dx = x^3/3 + C"]),
    ("w", "differentiating x^2", "answered", &["f'(x) = 2x"]),
    ("w", "integrate sqrt(x-3)", "answered", &["∫ sqrt(x-3) dx = 2(x-3)^(3/2)/3 + C"]),
    ("w", "second derivative of sqrt(x-3)", "answered", &["f''(x) = -1/(4(x-3)^(3/2))"]),
    ("w", "integrate e^x from 0 to 1000", "unable", &["the numbers grow too large for me"]),
    // a function defined by name: later f, f(x), y, f'(x), dy/dx refer to it
    ("fd", "f(x)=x^2+1. Find the integral of f", "answered", &["∫ (x^2 + 1) dx = x^3/3 + x + C"]),
    ("fd", "f(x) = x^3. integrate f(x) from 0 to 2", "answered", &["of x^3 dx = 4"]),
    ("fd", "g(t) = t^2 + t. find the integral of g", "answered", &["∫ (t^2 + t) dt = t^3/3 + t^2/2 + C"]),
    ("fd", "y = x^3. what is the derivative of y", "answered", &["f'(x) = 3x^2"]),
    (
        "fd",
        "Find the integral of f",
        "unable",
        &["I don't know which function f is", "Write the function out"],
    ),
    ("fd", "differentiate f(x)", "unable", &["I don't know which function f(x) is"]),
    ("fd", "what is f'(x)?", "unable", &["I don't know which function f is"]),
    // only the defined name stands for the defined function
    ("fn", "f(x)=x^2. what is the derivative of g", "unable", &["I don't know which function g is"]),
    ("fn", "g(x)=sin(x). differentiate f", "unable", &["I don't know which function f is"]),
    ("fn", "f(x)=x^3. integrate h from 0 to 1", "unable", &["I don't know which function h is"]),
    // a point named after prime notation is the point asked for
    ("fq", "if y = x^2, find y' at x=3", "answered", &["f'(3) = 6"]),
    ("fq", "let f(x) = x^2. find f'(x) at x = 4", "answered", &["f'(4) = 8"]),
    // prime notation and dy/dx: a derivative of the order the primes say
    ("fp", "find f'(x) for f(x) = x^2", "answered", &["f(x) = x^2\n", "f'(x) = 2x"]),
    ("fp", "if f(x) = x^2 what is f'(x)", "answered", &["f'(x) = 2x"]),
    ("fp", "let f(x)=sin(x). what is f'(x)?", "answered", &["f'(x) = cos(x)"]),
    ("fp", "f''(x) for f(x) = x^3", "answered", &["f''(x) = 6x"]),
    ("fp", "if y = x^4, find y''", "answered", &["f''(x) = 12x^2"]),
    ("fp", "f(x) = x^2 + 3x. what is f'(2)?", "answered", &["f'(2) = 7"]),
    ("fp", "g(t) = sin(t). find g'(t)", "answered", &["f'(t) = cos(t)"]),
    ("fp", "y = e^(2x). find dy/dx", "answered", &["f'(x) = 2e^(2x)"]),
    ("fp", "f(x) = x^2 + 1", "answered", &["f(x) = x^2 + 1. What would you like"]),
    ("fp", "now integrate it", "answered", &["= x^3/3 + x + C"]),
    ("fp", "solve 2x+3=7", "declined", &["maths outside calculus"]),
    ("fp", "x + 1 = 3", "declined", &["maths outside calculus"]),
    // a logarithm glued to digits is never read as a product
    ("lg", "derivative of log10(x)", "unable", &["I don't handle log10", "ln(x)/ln(10)"]),
    ("lg", "integrate log2(x)", "unable", &["I don't handle log2"]),
    ("lg", "derivative of ln2x", "unable", &["\"ln2\" is ambiguous: write ln(2x) or ln(2)·x"]),
    ("lg", "derivative of ln(x)/ln(10)", "answered", &["f'(x) = 1/(x·ln(10))"]),
];

#[test]
fn the_offline_tutor_answers_the_table() {
    assert!(TABLE.len() >= 40);
    let failures = asked(TABLE.iter().map(|(ctx, q, outcome, wants)| (*ctx, *q, *outcome, *wants, &[][..])));
    assert!(failures.is_empty(), "{} rows failed:\n{}", failures.len(), failures.join("\n"));
}

/// One tutor asked each (conversation, question, outcome, must contain, must not contain)
/// in order: the rows whose answer is unlabelled, has another outcome, lacks a line it must
/// hold, holds one it must not, or is not plain text (markdown tables, headings, bold).
pub(crate) fn asked<'a>(
    rows: impl Iterator<Item = (&'a str, &'a str, &'a str, &'a [&'a str], &'a [&'a str])>,
) -> Vec<String> {
    let tutor = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    let mut failures = Vec::new();
    for (ctx, question, outcome, wants, never) in rows {
        let a = tutor.answer(ctx, question, &policy);
        let mut fail = |why: String| failures.push(format!("{question}: {why}\n{}\n", a.text));
        if !a.text.starts_with(LABEL) {
            fail("no label".into());
        }
        if a.outcome != outcome {
            fail(format!("outcome {}, wanted {outcome}", a.outcome));
        }
        for want in wants.iter().filter(|w| !a.text.contains(**w)) {
            fail(format!("wanted {want:?}"));
        }
        for not in never.iter().filter(|w| a.text.contains(**w)) {
            fail(format!("must not say {not:?}"));
        }
        if a.text.lines().any(|l| l.starts_with(['|', '#'])) || a.text.contains("**") {
            fail("markdown".into());
        }
    }
    failures
}

#[test]
fn same_question_same_answer_and_conversations_are_separate() {
    let tutor = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    let first = tutor.answer("one", "derivative of x^3*sin(x)", &policy);
    assert_eq!(tutor.answer("two", "derivative of x^3*sin(x)", &policy), first);
    // "two" has its own last function; "three" has none
    tutor.answer("two", "integrate 2x", &policy);
    assert!(tutor.answer("one", "what about at x=1?", &policy).text.contains("f'(1) = "));
    assert!(tutor.answer("two", "what about at x=1?", &policy).text.contains("f(1) = 2"));
    assert!(tutor.answer("three", "and the second derivative?", &policy).text.contains("Which function"));
}

#[test]
fn the_excluded_areas_come_from_the_policy() {
    let tutor = MockTutor::default();
    let mut set = default_skills();
    set.skills[0].excluded = vec!["plumbing and carpentry repair jobs".into()];
    set.skills[0].allowed_scope = vec!["derivatives".into(), "integrals".into()];
    let policy = skills::Policy::from_set(&set, 2);
    let a = tutor.answer("k", "how do I fix my leaking faucet?", &policy);
    assert!(a.text.contains("(plumbing and carpentry repair jobs is outside my scope)"), "{}", a.text);
    assert!(a.text.contains("I cover derivatives and integrals."), "{}", a.text);
}

#[test]
fn the_memory_is_bounded() {
    let tutor = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    tutor.answer("first", "x^2", &policy);
    for i in 0..MEMORY_CAPACITY {
        tutor.answer(&format!("c{i}"), "x^3", &policy);
    }
    assert!(tutor.answer("first", "differentiate it", &policy).text.contains("Which function"));
    assert!(tutor.answer("c4095", "differentiate it", &policy).text.contains("f'(x) = 3x^2"));
}

/// Towers, deep nesting and long products get a plain "can't", not a stack overflow.
#[test]
fn oversized_expressions_are_refused() {
    let tutor = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    let tower = vec!["x"; 120].join("^");
    let sins = format!("{}x{}", "sin(".repeat(55), ")".repeat(55));
    let prod = (0..60).map(|i| format!("sin({i}x+1)")).collect::<Vec<_>>().join("*");
    let minus = format!("{}x", "-".repeat(390));
    for q in [
        format!("derivative of {tower}"),
        format!("second derivative of {sins}"),
        format!("fourth derivative of {prod}"),
        format!("derivative of {minus}"),
        "fourth derivative of x^x^x^x^x^x".to_string(),
    ] {
        let a = tutor.answer("z", &q, &policy);
        assert_eq!(a.outcome, "unable", "{}", a.text);
    }
}

/// The built-in skills pass the validation every saved configuration passes (the
/// examples, the router's training data, stay within their limits).
#[test]
fn the_default_skills_are_valid() {
    assert_eq!(skills::validate(&default_skills(), RULES), Ok(()));
}

/// 20,000 strings of `len` pieces each, drawn from `pieces` by a seeded generator: the
/// same strings on every run.
pub(crate) fn mixes(pieces: &[&str], len: usize, seed: u64) -> Vec<String> {
    let mut seed = seed;
    (0..20_000)
        .map(|_| {
            (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    pieces[(seed >> 33) as usize % pieces.len()]
                })
                .collect()
        })
        .collect()
}
