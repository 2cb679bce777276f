//! The offline tutor's course pack: a short explanation and a worked example per topic,
//! written for Campus. The worked examples' results are checked against the `calculus`
//! crate in this file's tests.

/// One topic of the course pack.
#[derive(Debug)]
pub(crate) struct Topic {
    pub(crate) title: &'static str,
    /// Lowercase phrases that name the topic; the first topic with a match wins, so the
    /// specific rules come before the general ideas.
    pub(crate) keys: &'static [&'static str],
    pub(crate) explanation: &'static str,
    pub(crate) example: &'static str,
}

pub(crate) const TOPICS: &[Topic] = &[
    Topic {
        title: "The product rule",
        keys: &["product rule"],
        explanation: "When two functions are multiplied, (u·v)' = u'·v + u·v': differentiate one \
            factor at a time while the other stays as it is, then add the two results. It is not u'·v'.",
        example: "d/dx [x^2·sin(x)]: u = x^2 and v = sin(x), so u' = 2x and v' = cos(x). \
            The derivative is 2x·sin(x) + x^2·cos(x).",
    },
    Topic {
        title: "The quotient rule",
        keys: &["quotient rule"],
        explanation: "For a quotient, (u/v)' = (u'·v - u·v')/v^2 wherever v is not 0: the derivative \
            of the top times the bottom, minus the top times the derivative of the bottom, all over \
            the bottom squared. Keep that order; the minus sign makes it matter.",
        example: "d/dx [x/(x+1)]: u = x, v = x+1, u' = 1, v' = 1. \
            (1·(x+1) - x·1)/(x+1)^2 = 1/(x+1)^2.",
    },
    Topic {
        title: "The chain rule",
        keys: &["chain rule", "composite function", "function of a function"],
        explanation: "For a function inside another one, f(g(x)), the derivative is f'(g(x))·g'(x): \
            differentiate the outer function and leave the inside alone, then multiply by the \
            derivative of the inside. Look for it whenever something other than plain x sits inside \
            a power, a root, sin, e^ or ln.",
        example: "d/dx (2x+1)^5: the outer power u^5 gives 5u^4 and the inside 2x+1 gives 2, \
            so the derivative is 5(2x+1)^4·2 = 10(2x+1)^4.",
    },
    Topic {
        title: "The power rule",
        keys: &["power rule"],
        explanation: "For any constant n, d/dx x^n = n·x^(n-1): bring the exponent down as a factor and \
            lower it by one. It holds for negative and fractional exponents too, so write 1/x^2 as \
            x^(-2) and sqrt(x) as x^(1/2) first. Constant factors stay, and a sum is differentiated \
            term by term.",
        example: "d/dx (4x^3 - 5x + 1/x) = 4·3x^2 - 5 + (-1)·x^(-2) = 12x^2 - 5 - 1/x^2.",
    },
    Topic {
        title: "Implicit differentiation",
        keys: &["implicit"],
        explanation: "When y is tied to x by an equation rather than given as y = ..., differentiate both \
            sides with respect to x and treat y as a function of x: every time you differentiate \
            something containing y, the chain rule adds a factor dy/dx. Then solve for dy/dx.",
        example: "For the circle x^2 + y^2 = 25: 2x + 2y·dy/dx = 0, so dy/dx = -x/y. \
            At the point (3, 4) the slope of the tangent is -3/4.",
    },
    Topic {
        title: "Integration by substitution",
        keys: &["substitution", "u-sub", "u sub"],
        explanation: "Substitution runs the chain rule backwards. Find an inner expression u = g(x) whose \
            derivative g'(x) also appears as a factor (up to a constant); replace g'(x) dx by du, \
            integrate in u, then put g(x) back in place of u.",
        example: "∫ 2x·cos(x^2) dx: let u = x^2, so du = 2x dx. The integral becomes \
            ∫ cos(u) du = sin(u) + C = sin(x^2) + C.",
    },
    Topic {
        title: "Definite integrals and the fundamental theorem of calculus",
        keys: &["fundamental theorem", "definite integral", "area under", "ftc"],
        explanation: "The definite integral from a to b of f(x) dx adds f up over [a, b]: it is the signed \
            area between the graph and the x-axis, where area below the axis counts as negative. The \
            fundamental theorem of calculus links it to antiderivatives: if F' = f and f is \
            continuous on [a, b], the integral equals F(b) - F(a).",
        example: "The integral from 0 to 3 of x^2 dx: an antiderivative is F(x) = x^3/3, \
            so the value is F(3) - F(0) = 27/3 - 0 = 9.",
    },
    Topic {
        title: "Optimisation",
        keys: &["optimi", "maximi", "minimi", "maximum", "minimum", "critical point", "largest", "smallest"],
        explanation: "To make a quantity as large or as small as possible, write it as a function of one \
            variable, find the critical points where f'(x) = 0 (or f' does not exist), and compare f \
            there and at the ends of the allowed interval. The second derivative tells the kind of \
            point: f'' > 0 is a minimum, f'' < 0 a maximum.",
        example: "A rectangle with perimeter 20 has sides x and 10 - x, so its area is \
            A(x) = x(10 - x) = 10x - x^2 for 0 ≤ x ≤ 10. A'(x) = 10 - 2x = 0 at x = 5, and \
            A''(x) = -2 < 0, so the largest area is A(5) = 25: a 5 by 5 square.",
    },
    Topic {
        title: "Limits",
        keys: &["limit", "lim "],
        explanation: "A limit describes the value f(x) approaches as x approaches a number a, whether or \
            not f(a) itself exists: lim x→a f(x) = L means f(x) gets as close to L as we like when x is \
            close enough to a, from both sides. Where f is continuous the limit is simply f(a); when \
            substituting gives 0/0, rewrite the expression first (factor and cancel, for example).",
        example: "lim x→2 (x^2 - 4)/(x - 2): substituting gives 0/0. Factor: (x - 2)(x + 2)/(x - 2) = \
            x + 2 for x ≠ 2, so the limit is 2 + 2 = 4.",
    },
    Topic {
        title: "Antiderivatives and indefinite integrals",
        keys: &["antiderivative", "anti-derivative", "indefinite integral", "integral", "integrat"],
        explanation: "An antiderivative of f is a function F with F' = f. The indefinite integral \
            ∫ f(x) dx stands for all of them, F(x) + C, because a constant differentiates to 0. Read \
            the derivative rules backwards: ∫ x^n dx = x^(n+1)/(n+1) + C for n ≠ -1, ∫ 1/x dx = \
            ln|x| + C, ∫ e^x dx = e^x + C, ∫ cos(x) dx = sin(x) + C, ∫ sin(x) dx = -cos(x) + C.",
        example: "∫ (3x^2 + 2x) dx = x^3 + x^2 + C. Check by differentiating: \
            (x^3 + x^2)' = 3x^2 + 2x.",
    },
    Topic {
        title: "The derivative",
        keys: &["derivative", "differentiat", "slope of the tangent", "tangent line", "rate of change"],
        explanation: "The derivative f'(x) measures how fast f changes at x: it is the slope of the tangent \
            line to the graph at that point. It is defined as a limit of difference quotients, \
            f'(x) = lim h→0 (f(x+h) - f(x))/h. In practice the rules (power, product, quotient, chain) \
            give derivatives without computing that limit each time.",
        example: "For f(x) = x^2: (f(x+h) - f(x))/h = ((x+h)^2 - x^2)/h = (2xh + h^2)/h = 2x + h, \
            which tends to 2x as h → 0. So f'(x) = 2x, and at x = 3 the tangent's slope is 6.",
    },
];

/// The first topic the (lowercase) question names.
pub(crate) fn find(lower: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.keys.iter().any(|k| lower.contains(k)))
}

/// The topics' short names, for offers.
pub(crate) const TOPIC_LIST: &str = "limits, the derivative, the power, product, quotient and chain \
    rules, implicit differentiation, antiderivatives, substitution, definite integrals and the \
    fundamental theorem, and optimisation";

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> String {
        calculus::derivative(&calculus::read(text, 'x').unwrap(), 1).unwrap().shown
    }

    /// The worked examples state what the calculator computes.
    #[test]
    fn worked_examples_agree_with_the_calculator() {
        let example = |title: &str| TOPICS.iter().find(|t| t.title == title).unwrap().example;
        let has = |title: &str, result: &str| assert!(example(title).contains(result), "{title}: {result}");
        has("The product rule", &d("x^2*sin(x)"));
        has("The quotient rule", &d("x/(x+1)"));
        has("The chain rule", &d("(2x+1)^5"));
        has("The power rule", &d("4x^3 - 5x + 1/x"));
        // sin(x^2) + C is right because sin(x^2) differentiates back to the integrand
        has("Integration by substitution", &format!("∫ {} dx", d("sin(x^2)")));
        has("Integration by substitution", "= sin(x^2) + C");
        let f = calculus::read("3x^2 + 2x", 'x').unwrap();
        has("Antiderivatives and indefinite integrals", &calculus::antiderivative(&f).unwrap().shown);
        let x2 = calculus::read("x^2", 'x').unwrap();
        let (n0, n3) = (calculus::read_number("0").unwrap(), calculus::read_number("3").unwrap());
        let (_, v) = calculus::definite(&x2, &n0, &n3).unwrap();
        has("Definite integrals and the fundamental theorem of calculus", &format!("= {}.", v.display()));
        let area = calculus::read("x(10 - x)", 'x').unwrap();
        let (_, top) = calculus::derivative_at(&area, 0, &calculus::read_number("5").unwrap()).unwrap();
        has("Optimisation", &format!("A(5) = {}", top.display()));
        has("Optimisation", &format!("A''(x) = {}", calculus::derivative(&area, 2).unwrap().shown));
    }

    #[test]
    fn specific_topics_win() {
        assert_eq!(find("what is the product rule for derivatives").unwrap().title, "The product rule");
        assert_eq!(find("explain the definite integral").unwrap().title, TOPICS[6].title);
        assert_eq!(find("what is a derivative").unwrap().title, "The derivative");
    }
}
