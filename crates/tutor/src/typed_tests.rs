//! What students really type, question by question: typos, five languages, expressions
//! inside chatty sentences, limits, integration by parts and by substitution, definite
//! integrals and "another example" cycling. Each row names the outcome, what the answer
//! must contain and what it must not (follow-ups share a conversation).

use super::*;

/// (conversation, question, outcome, must contain, must not contain)
type Row = (&'static str, &'static str, &'static str, &'static [&'static str], &'static [&'static str]);

const TYPED: &[Row] = &[
    // typos of the words it knows
    ("ty", "wat is the derivitive of cos(x)", "answered", &["f'(x) = -sin(x)"], &["couldn't read"]),
    ("ty", "derivatve of x^3", "answered", &["f'(x) = 3x^2"], &[]),
    ("ty", "intergral of 2x", "answered", &["∫ 2x dx = x^2 + C"], &[]),
    ("ty", "integrel of cos(x)", "answered", &["∫ cos(x) dx = sin(x) + C"], &[]),
    ("ty", "diferentiate x^2 sin(x)", "answered", &["f'(x) = 2x·sin(x) + x^2·cos(x)"], &[]),
    ("ty", "limt of sin(x)/x as x goes to 0", "answered", &["lim x→0 sin(x)/x = 1"], &["Limits. "]),
    ("ty", "what is the intgral of x^2 from 0 to 3", "answered", &["of x^2 dx = 9"], &[]),
    ("ty", "explian the chian rule", "answered", &["The chain rule. "], &[]),
    // Spanish, French, German, Hindi/Hinglish
    ("es", "derivada de x^2", "answered", &["f'(x) = 2x"], &[]),
    ("es", "¿cuál es la derivada de sen(x)?", "answered", &["f'(x) = cos(x)"], &[]),
    ("es", "integral de x^2 de 0 a 3", "answered", &["The integral from 0 to 3 of x^2 dx = 9"], &[]),
    ("es", "límite de sin(x)/x cuando x tiende a 0", "answered", &["lim x→0 sin(x)/x = 1"], &[]),
    ("fr", "dérivée de sin(x)", "answered", &["f'(x) = cos(x)"], &[]),
    ("fr", "intégrale de x*e^x", "answered", &["∫ x·e^x dx = x·e^x - e^x + C"], &[]),
    ("fr", "limite de (x^2-1)/(x-1) quand x tend vers 1", "answered", &["= 2"], &[]),
    ("de", "Ableitung von x^3", "answered", &["f'(x) = 3x^2"], &[]),
    ("de", "zweite Ableitung von x^3", "answered", &["f''(x) = 6x"], &[]),
    ("fr", "dérivée seconde de x^3", "answered", &["f''(x) = 6x"], &[]),
    ("de", "Integral von x^2 von 0 bis 3", "answered", &["of x^2 dx = 9"], &[]),
    ("de", "Grenzwert von sin(x)/x für x gegen 0", "answered", &["lim x→0 sin(x)/x = 1"], &[]),
    ("de", "erkläre die Kettenregel", "answered", &["The chain rule. "], &[]),
    ("hi", "x^2 ka integral", "answered", &["∫ x^2 dx = x^3/3 + C"], &[]),
    ("hi", "x^2 ka derivative batao", "answered", &["f'(x) = 2x"], &[]),
    ("hi", "sin(x) ka derivative kya hai", "answered", &["f'(x) = cos(x)"], &[]),
    ("hi", "x^3 का अवकलज बताओ", "answered", &["f'(x) = 3x^2"], &[]),
    // the expression inside whatever words surround it
    (
        "em",
        "hey can u help me, whats the derivative of x^2+3x pls thanks",
        "answered",
        &["f(x) = x^2 + 3x\n", "f'(x) = 2x + 3"],
        &["couldn't read"],
    ),
    (
        "em",
        "my teacher wants me to integrate x*cos(x) for homework",
        "answered",
        &["= x·sin(x) + cos(x) + C"],
        &[],
    ),
    ("em", "ok so what is the limit of (x^2-4)/(x-2) as x approaches 2 thank you", "answered", &["= 4"], &[]),
    // limits
    (
        "li",
        "limit of sin(x)/x as x goes to 0",
        "answered",
        &["lim x→0 sin(x)/x = 1", "standard limit"],
        &["exist"],
    ),
    (
        "li",
        "lim x->1 (x^2-1)/(x-1)",
        "answered",
        &["lim x→1 (x^2-1)/(x-1) = 2", "factor and cancel (x-1)"],
        &[],
    ),
    ("li", "lim_{x→0} (1-cos(x))/x", "answered", &["= 0"], &[]),
    ("li", "limit of (e^x-1)/x as x approaches 0", "answered", &["= 1"], &[]),
    ("li", "limit of ln(1+x)/x as x tends to 0", "answered", &["= 1"], &[]),
    (
        "li",
        "limit of (1+1/x)^x as x goes to infinity",
        "answered",
        &["lim x→∞ (1+1/x)^x = e ≈ 2.718282"],
        &[],
    ),
    ("li", "limit of (3x^2+1)/(2x^2-5) as x -> infinity", "answered", &["= 3/2 ≈ 1.5", "leading terms"], &[]),
    ("li", "lim x->0 sin(3x)/x", "answered", &["= 3", "L'Hôpital's rule"], &[]),
    (
        "li",
        "limit of 1/x as x approaches 0",
        "answered",
        &["does not exist (from the left it is -∞, from the right ∞)", "- x → 0 from below, so 1/x → -∞"],
        &["lim x→0 1/x ="],
    ),
    ("li", "limit of 1/x as x approaches 0 from the right", "answered", &["lim x→0⁺ 1/x = ∞"], &[]),
    (
        "li",
        "limit of x^2+1 as x goes to 2",
        "answered",
        &["= 5", "substitution: x^2 + 1 is continuous at x = 2", "Checked numerically"],
        &[],
    ),
    ("li", "limit of sin(x) as x goes to infinity", "unable", &["oscillates"], &["= "]),
    ("li", "limit of sin(x)/x", "answered", &["Where should the variable go?"], &[]),
    // a defined function, a name nothing defines, and the conversation's last function
    ("lf", "f(x) = x^2 + 1. limit of f as x -> 2", "answered", &["lim x→2 (x^2 + 1) = 5"], &[]),
    ("lf", "limit of g as x -> 2", "unable", &["I don't know which function g is"], &["lim"]),
    ("lf", "x^3 - x", "answered", &["f(x) = x^3 - x. What would you like"], &[]),
    ("lf", "and as x goes to infinity?", "answered", &["lim x→∞ (x^3 - x) = ∞"], &[]),
    ("lf", "limit as x -> 2", "answered", &["= 6"], &[]),
    ("lf", "what is the rate of change of x^2 at x = 3", "answered", &["f'(3) = 6"], &[]),
    // integration by parts and by substitution
    (
        "bp",
        "integrate x*e^x",
        "answered",
        &["∫ x·e^x dx = x·e^x - e^x + C", "by parts with u = x, dv = e^x dx"],
        &[],
    ),
    ("bp", "integrate x^2*e^x", "answered", &["= x^2·e^x - 2x·e^x + 2e^x + C"], &[]),
    ("bp", "integral of ln(x)", "answered", &["∫ ln(x) dx = x·ln(x) - x + C"], &[]),
    ("bp", "integrate x*ln(x)", "answered", &["= x^2·ln(x)/2 - x^2/4 + C"], &[]),
    (
        "su",
        "integrate 2x*cos(x^2)",
        "answered",
        &["= sin(x^2) + C", "substitution u = x^2 (du = 2x dx)"],
        &[],
    ),
    ("su", "integrate x*e^(x^2)", "answered", &["= e^(x^2)/2 + C"], &[]),
    ("su", "integrate sin(x)^2*cos(x)", "answered", &["= sin(x)^3/3 + C"], &[]),
    ("su", "integrate e^(3x+1)", "answered", &["= e^(3x+1)/3 + C"], &[]),
    ("su", "integrate (2x+1)^5", "answered", &["= (2x+1)^6/12 + C"], &[]),
    // definite integrals
    ("di", "integrate x^2 from 0 to 3", "answered", &["of x^2 dx = 9"], &[]),
    ("di", "∫_0^1 x e^x dx", "answered", &["The integral from 0 to 1 of x·e^x dx = 1"], &[]),
    ("di", "integral of sin(x) from 0 to pi", "answered", &["of sin(x) dx = 2"], &[]),
    ("di", "integrate x*sin(x) from 0 to pi", "answered", &["= π ≈ 3.141593"], &[]),
    // another example: a different one each time, then it says it starts again
    ("ex", "what is the chain rule?", "answered", &["The chain rule. ", "10(2x+1)^4"], &[]),
    (
        "ex",
        "can you give me another example of the chain rule",
        "answered",
        &["The chain rule, worked example 2 of 4", "2x·cos(x^2)"],
        &["10(2x+1)^4"],
    ),
    ("ex", "another example please", "answered", &["worked example 3 of 4", "6x·e^(3x^2)"], &["2x·cos(x^2)"]),
    ("ex", "one more example", "answered", &["worked example 4 of 4", "x/sqrt(x^2+1)"], &[]),
    (
        "ex",
        "another example",
        "answered",
        &["That was my last worked example of the chain rule; starting again from the first", "10(2x+1)^4"],
        &[],
    ),
    ("ex2", "explain the product rule", "answered", &["The product rule. "], &[]),
    ("ex2", "otro ejemplo", "answered", &["The product rule, worked example 2 of 3", "e^x + x·e^x"], &[]),
    ("ex2", "noch ein Beispiel", "answered", &["worked example 3 of 3", "3x^2·ln(x) + x^2"], &[]),
    ("ex2", "ek aur example", "answered", &["starting again from the first", "2x·sin(x) + x^2·cos(x)"], &[]),
    ("ex2", "another one please", "answered", &["The product rule, worked example 2 of 3"], &[]),
    ("ex2", "ein weiteres Beispiel bitte", "answered", &["worked example 3 of 3"], &[]),
    // "one more" is another example only when it is all the message says
    ("ex2", "one more question: what is the derivative of x^2", "answered", &["2x"], &["worked example"]),
    ("ex3", "another example", "answered", &["Another example of which topic?"], &["worked example 1"]),
    (
        "ex3",
        "another example of integration by parts",
        "answered",
        &["Integration by parts, worked example 2 of 3"],
        &[],
    ),
    // a value at a point, the way each language puts it
    ("pt", "Ableitung von x^2 an der Stelle x=3", "answered", &["f'(3) = 6"], &["couldn't read"]),
    ("pt", "Ableitung von x^3 bei x = 2", "answered", &["f'(2) = 12"], &["couldn't read"]),
    ("pt", "dérivée de x^2 en x = 1", "answered", &["f'(1) = 2"], &["couldn't read"]),
    ("pt", "derivada de x^2 en x = 1", "answered", &["f'(1) = 2"], &["couldn't read"]),
    ("pt", "derivada de x^3 para x = -1", "answered", &["f'(-1) = 3"], &["couldn't read"]),
    ("pt", "dérivée de sin(x) au point x = 0", "answered", &["f'(0) = 1"], &["couldn't read"]),
    ("pt", "x^2 ka derivative x=3 par", "answered", &["f'(3) = 6"], &["unexpected character"]),
    ("pt", "x^2 ka derivative x = 4 pe batao", "answered", &["f'(4) = 8"], &["unexpected character"]),
    ("pt", "und bei x=5?", "answered", &["f'(5) = 10"], &["couldn't read"]),
    ("pt", "y en x = 2?", "answered", &["f'(2) = 4"], &["couldn't read"]),
    ("pt", "aur x=1 par?", "answered", &["f'(1) = 2"], &["couldn't read"]),
    ("pt", "derivada de x^2 en 3", "answered", &["f'(3) = 6"], &["couldn't read"]),
    ("pt", "bei x=2 die Ableitung von x^3", "answered", &["f'(2) = 12"], &["couldn't read"]),
    ("pt", "x = 3 par x^2 ka derivative", "answered", &["f'(3) = 6"], &["The derivative. "]),
    ("pt", "x^2 ka derivative x=3 pe value batao", "answered", &["f'(3) = 6"], &["couldn't read"]),
    ("pt", "dérivée de x^2 évaluée en x = 3", "answered", &["f'(3) = 6"], &["couldn't read"]),
    ("pt", "derivative of x^2 at x equals 3", "answered", &["f'(3) = 6"], &["couldn't read"]),
    // a value of the function it names, not of the conversation's last one
    ("pt", "valor de x^3 en x = 2", "answered", &["f(2) = 8"], &["f'"]),
    ("pt", "what about at x=1?", "answered", &["f(1) = 1"], &["f'"]),
    ("pl", "x^2 ka integral 0 se 3 tak", "answered", &["The integral from 0 to 3 of x^2 dx = 9"], &[]),
    ("pl", "x ke 0 ki taraf jaane par sin(x)/x ka limit", "answered", &["lim x→0 sin(x)/x = 1"], &[]),
    ("pl", "x^2 ka limit jab x 3 ki taraf jaye", "answered", &["lim x→3 x^2 = 9"], &["couldn't read"]),
    ("pl", "sin(x)/x ka limit jab x 0 ki taraf jata hai", "answered", &["= 1"], &["couldn't read"]),
    ("pl", "Grenzwert von sin(x)/x wenn x gegen 0 geht", "answered", &["= 1"], &["couldn't read"]),
    ("pl", "límite de (x^2-4)/(x-2) cuando x se acerca a 2", "answered", &["= 4"], &["couldn't read"]),
    ("pl", "limite de sin(x)/x lorsque x tend vers 0", "answered", &["= 1"], &["couldn't read"]),
    // "why?" after a computed limit: the rules that limit used
    ("wl", "limit of sin(x)/x as x goes to 0", "answered", &["= 1"], &[]),
    ("wl", "why?", "answered", &["standard limit sin(x)/x → 1", "= 1"], &["haven't computed"]),
    ("wl", "limit of (x^2-1)/(x-1) as x -> 1", "answered", &["= 2"], &[]),
    ("wl", "warum?", "answered", &["lim x→1", "= 2"], &["haven't computed", "table of rules"]),
    // the integral of 1/x is the log rule
    ("lr", "integrate 1/x", "answered", &["ln|x| + C", "log rule"], &["power rule"]),
    ("lr", "why?", "answered", &["log rule", "ln|x|"], &["power rule"]),
    // the expression inside framing words of any language, before or after the command
    ("fr4", "mujhe x^3 ka derivative chahiye", "answered", &["f'(x) = 3x^2"], &["couldn't read"]),
    ("fr4", "kya aap e^(2x) ka derivative nikal sakte hain", "answered", &["f'(x) = 2e^(2x)"], &[]),
    ("fr4", "quiero saber la integral de cos(x) para mi tarea", "answered", &["= sin(x) + C"], &[]),
    ("fr4", "kannst du mir bitte x^2 ableiten", "answered", &["f'(x) = 2x"], &[]),
    ("fr4", "i need x^3 differentiated", "answered", &["f'(x) = 3x^2"], &[]),
    // framing words never swallow a piece of the expression: two pieces are not one
    ("fr4", "derivative of x^2 with 3", "unable", &["couldn't read \"x^2 with 3\""], &["f'(x)"]),
    // limits said without the word: where the variable goes, about an expression
    ("li4", "where does 1/x go as x goes to infinity", "answered", &["lim x→∞ 1/x = 0"], &[]),
    ("li4", "what does (1+1/x)^x tend to as x tends to infinity", "answered", &["= e ≈ 2.718282"], &[]),
    (
        "li4",
        "what happens to 1/x as x gets close to 0 from the right",
        "answered",
        &["lim x→0⁺ 1/x = ∞"],
        &[],
    ),
    ("li4", "as x gets close to 1, what happens to (x^2-1)/(x-1)?", "answered", &["= 2"], &[]),
    // a follow-up on a new expression or a new point repeats the last operation
    ("ag4", "integrate x^2 from 0 to 3", "answered", &["= 9"], &[]),
    ("ag4", "and x^3?", "answered", &["from 0 to 3 of x^3 dx = 81/4"], &[]),
    ("ag4", "from 1 to infinity?", "answered", &["diverges (to ∞)"], &["converges"]),
    ("ag5", "limit of sin(x)/x as x goes to 0", "answered", &["= 1"], &[]),
    ("ag5", "what about x = 1?", "answered", &["lim x→1 sin(x)/x = sin(1) ≈ 0.841471"], &[]),
    ("ag6", "x = 4", "answered", &["At which function?"], &["outside calculus"]),
    ("ag6", "and x^4?", "answered", &["f(x) = x^4. What would you like"], &["couldn't read"]),
    // improper integrals: the limit, exact, or divergence; a pole on the interval is said
    ("im4", "integral of x*e^(-x) from 0 to infinity", "answered", &["= 1 (it converges)"], &[]),
    ("im4", "integral of x^2 from -infinity to infinity", "answered", &["diverges (to ∞)"], &[]),
    ("im4", "integral of 1/x^2 from 0 to infinity", "unable", &["not defined at x = 0"], &["converges"]),
    ("im4", "integral of cos(x) from 0 to infinity", "unable", &["oscillates"], &["converges", "diverges"]),
    // another one after a computation: an example of the rule it used
    ("an4", "derivative of x^3", "answered", &["3x^2"], &[]),
    ("an4", "otro más", "answered", &["The power rule, worked example 2 of 3"], &["which topic"]),
    // "I don't get it": a different explanation each time, never "couldn't read"
    ("cf4", "I don't get it", "answered", &["Which part is unclear?"], &["couldn't read"]),
    ("cf4", "explain the chain rule", "answered", &["The chain rule."], &[]),
    ("cf4", "explícalo de otra manera", "answered", &["The idea behind the chain rule"], &[]),
    (
        "cf4",
        "still confused",
        "answered",
        &["one more example", "worked example 3 of 4"],
        &["The idea behind"],
    ),
    ("cf5", "derivative of x^2 at x=3", "answered", &["f'(3) = 6"], &[]),
    ("cf5", "i don't understand", "answered", &["step by step", "power rule"], &[]),
    (
        "cf5",
        "can you explain it differently?",
        "answered",
        &["Here is the rule behind it. The power rule."],
        &[],
    ),
    ("cf5", "samajh nahi aaya", "answered", &["The idea behind the power rule"], &["Here is the rule"]),
    // honest about what it can't do
    ("no", "integrate e^(x^2)", "unable", &["I can't compute ∫ e^(x^2) dx", "by parts"], &["+ C"]),
    ("no", "integrate e^x*sin(x)", "unable", &["I can't compute"], &["+ C"]),
];

#[test]
fn what_students_type_is_read_and_answered() {
    assert!(TYPED.len() >= 40);
    let failures = crate::tests::asked(TYPED.iter().copied());
    assert!(failures.is_empty(), "{} rows failed:\n{}", failures.len(), failures.join("\n"));
}

/// Deeply nested or long limit and integral questions stay bounded: an answer, never a
/// hang or an unbounded recursion.
#[test]
fn hard_questions_stay_bounded() {
    let tutor = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    for q in [
        "limit of x^x^x^x^x as x -> 0+",
        "limit of (sin(sin(sin(sin(x)))))/x as x -> 0",
        "integrate x^6*e^x*sin(x)*cos(x)",
        "integrate ln(ln(ln(x)))",
        "limit of (x^12-1)/(x-1)^12 as x -> 1",
    ] {
        let a = tutor.answer("b", q, &policy);
        assert!(a.text.starts_with(LABEL), "{q}");
        assert!(["answered", "unable"].contains(&a.outcome), "{q}: {}", a.text);
    }
}
