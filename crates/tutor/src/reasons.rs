//! "Why?" after a topic was explained (or one of its worked examples shown): why the rule
//! holds, in a few sentences — the idea of the proof, not a proof (the tutor writes none).
//! [`crate::why`] answers a "why?" after a computation instead.

use crate::answer::{Answer, reply};
use crate::examples::lower_first;

/// Why each topic of [`crate::course::TOPICS`] holds, by title (a test checks every topic
/// has one).
const REASONS: &[(&str, &str)] = &[
    (
        "The product rule",
        "When x changes by a small h, u·v changes by (u + Δu)(v + Δv) - uv = Δu·v + u·Δv + Δu·Δv. \
         Divide by h and let h go to 0: Δu/h goes to u', Δv/h to v', and Δu·Δv/h to u'·0 = 0. So \
         (uv)' = u'v + uv'.",
    ),
    (
        "The quotient rule",
        "u/v is u·(1/v). The product rule gives u'·(1/v) + u·(1/v)', and the chain rule gives \
         (1/v)' = -v'/v^2. Over the common denominator v^2 that is (u'v - uv')/v^2.",
    ),
    (
        "The chain rule",
        "A small change h in x changes the inside g(x) by about g'(x)·h, and a change k in the \
         inside changes the outer function by about f'(g(x))·k. So f(g(x)) changes by about \
         f'(g(x))·g'(x)·h: the two rates multiply.",
    ),
    (
        "The power rule",
        "For a whole number n, (x + h)^n = x^n + n·x^(n-1)·h + terms with h^2 and higher (the \
         binomial theorem). Subtract x^n, divide by h and let h go to 0: only n·x^(n-1) is left. \
         For any other exponent (x > 0), x^n = e^(n·ln(x)), and the chain rule gives \
         e^(n·ln(x))·n/x = n·x^(n-1).",
    ),
    (
        "Implicit differentiation",
        "y stands for a function y(x), so differentiating both sides of the equation with respect \
         to x keeps them equal. Each term with y needs the chain rule, which brings in dy/dx \
         (d/dx y^2 = 2y·dy/dx); solving that equation for dy/dx gives the slope.",
    ),
    (
        "Integration by substitution",
        "It is the chain rule backwards: d/dx F(g(x)) = F'(g(x))·g'(x). So an integrand of the \
         form f(g(x))·g'(x), with F' = f, has the antiderivative F(g(x)); writing u = g(x) and \
         du = g'(x) dx turns it into ∫f(u) du.",
    ),
    (
        "Integration by parts",
        "It is the product rule backwards: (uv)' = u'v + uv', so uv' = (uv)' - u'v. Integrating \
         both sides gives ∫u dv = uv - ∫v du.",
    ),
    (
        "Definite integrals and the fundamental theorem of calculus",
        "If A(x) is the area under f from a to x, then A(x + h) - A(x) is a thin strip of about \
         f(x)·h, so A'(x) = f(x): the area function is an antiderivative of f. Any two \
         antiderivatives differ by a constant, so the area from a to b is F(b) - F(a) for any \
         antiderivative F.",
    ),
    (
        "Optimisation",
        "At a maximum or minimum inside the interval the graph is flat: were f'(x) positive or \
         negative there, a small step one way would give a larger value and the other way a \
         smaller one. So the candidates are the points where f'(x) = 0 or f' does not exist, and \
         the endpoints; comparing their values finds the extremes.",
    ),
    (
        "L'Hôpital's rule",
        "Near a point a where f(a) = g(a) = 0, f(x) ≈ f'(a)·(x - a) and g(x) ≈ g'(a)·(x - a), so \
         f(x)/g(x) ≈ f'(a)/g'(a): the factors (x - a) cancel. The full theorem (from Cauchy's \
         mean value theorem) gives lim f/g = lim f'/g' whenever the second limit exists, for ∞/∞ \
         too.",
    ),
    (
        "Limits",
        "A limit says where f(x) heads as x gets close to a, not what f(a) is: that is what lets \
         us speak of a slope (the difference quotient at h = 0 is 0/0) and of a function with a \
         hole. lim f(x) = L means f(x) stays as close to L as we like once x is close enough to a \
         (x ≠ a).",
    ),
    (
        "Antiderivatives and indefinite integrals",
        "Differentiating loses constants: (F + C)' = F' for every constant C. And two functions \
         with the same derivative on an interval differ by a constant (the mean value theorem). So \
         a derivative gives back its function only up to a constant, and + C stands for all of \
         them.",
    ),
    (
        "The derivative",
        "The line through (x, f(x)) and (x + h, f(x + h)) has slope (f(x + h) - f(x))/h, and as h \
         shrinks that secant turns into the tangent. So the limit of the difference quotient, \
         f'(x), is the tangent's slope: the rate of change at that instant.",
    ),
];

/// Why the topic titled `title` holds, or `None` for a title without a reason.
pub(crate) fn answer(title: &str) -> Option<Answer> {
    let (_, reason) = REASONS.iter().find(|(t, _)| *t == title)?;
    Some(reply("answered", format!("The idea behind {}: {reason}", lower_first(title))))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_topic_has_a_reason() {
        for t in crate::course::TOPICS {
            let a = super::answer(t.title).unwrap_or_else(|| panic!("{}: no reason", t.title));
            assert!(a.text.contains("The idea behind "), "{}", a.text);
        }
        assert!(super::answer("no such topic").is_none());
    }
}
