//! The offline tutor's course pack: a short explanation and at least three worked
//! examples per topic, written for Campus. The first example goes with the explanation;
//! "another example" shows the next ones in turn (`examples.rs`). Every worked example's
//! results are checked against the `calculus` crate in this file's tests.

/// One topic of the course pack.
#[derive(Debug)]
pub(crate) struct Topic {
    pub(crate) title: &'static str,
    /// Lowercase phrases that name the topic; the first topic with a match wins, so the
    /// specific rules come before the general ideas.
    pub(crate) keys: &'static [&'static str],
    pub(crate) explanation: &'static str,
    /// The worked examples, the first shown with the explanation.
    pub(crate) examples: &'static [&'static str],
}

pub(crate) const TOPICS: &[Topic] = &[
    Topic {
        title: "The product rule",
        keys: &["product rule"],
        explanation: "When two functions are multiplied, (u·v)' = u'·v + u·v': differentiate one \
            factor at a time while the other stays as it is, then add the two results. It is not u'·v'.",
        examples: &[
            "d/dx [x^2·sin(x)]: u = x^2 and v = sin(x), so u' = 2x and v' = cos(x). \
            The derivative is 2x·sin(x) + x^2·cos(x).",
            "d/dx [x·e^x]: u = x and v = e^x, so u' = 1 and v' = e^x. \
            The derivative is e^x + x·e^x.",
            "d/dx [x^3·ln(x)]: u = x^3 and v = ln(x), so u' = 3x^2 and v' = 1/x. \
            The derivative is 3x^2·ln(x) + x^3·(1/x) = 3x^2·ln(x) + x^2.",
        ],
    },
    Topic {
        title: "The quotient rule",
        keys: &["quotient rule"],
        explanation: "For a quotient, (u/v)' = (u'·v - u·v')/v^2 wherever v is not 0: the derivative \
            of the top times the bottom, minus the top times the derivative of the bottom, all over \
            the bottom squared. Keep that order; the minus sign makes it matter.",
        examples: &[
            "d/dx [x/(x+1)]: u = x, v = x+1, u' = 1, v' = 1. \
            (1·(x+1) - x·1)/(x+1)^2 = 1/(x+1)^2.",
            "d/dx [sin(x)/x]: u = sin(x), v = x, u' = cos(x), v' = 1. \
            (cos(x)·x - sin(x)·1)/x^2 = (x·cos(x)-sin(x))/x^2.",
            "d/dx [e^x/x]: u = e^x, v = x, u' = e^x, v' = 1. \
            (e^x·x - e^x·1)/x^2 = (x·e^x-e^x)/x^2.",
        ],
    },
    Topic {
        title: "The chain rule",
        keys: &["chain rule", "composite function", "function of a function"],
        explanation: "For a function inside another one, f(g(x)), the derivative is f'(g(x))·g'(x): \
            differentiate the outer function and leave the inside alone, then multiply by the \
            derivative of the inside. Look for it whenever something other than plain x sits inside \
            a power, a root, sin, e^ or ln.",
        examples: &[
            "d/dx (2x+1)^5: the outer power u^5 gives 5u^4 and the inside 2x+1 gives 2, \
            so the derivative is 5(2x+1)^4·2 = 10(2x+1)^4.",
            "d/dx sin(x^2): the outer sin(u) gives cos(u) and the inside x^2 gives 2x, \
            so the derivative is cos(x^2)·2x = 2x·cos(x^2).",
            "d/dx e^(3x^2): the outer e^u stays e^u and the inside 3x^2 gives 6x, \
            so the derivative is e^(3x^2)·6x = 6x·e^(3x^2).",
            "d/dx sqrt(x^2 + 1): the outer sqrt(u) gives 1/(2sqrt(u)) and the inside gives 2x, \
            so the derivative is 2x/(2sqrt(x^2 + 1)) = x/sqrt(x^2+1).",
        ],
    },
    Topic {
        title: "The power rule",
        keys: &["power rule"],
        explanation: "For any constant n, d/dx x^n = n·x^(n-1): bring the exponent down as a factor and \
            lower it by one. It holds for negative and fractional exponents too, so write 1/x^2 as \
            x^(-2) and sqrt(x) as x^(1/2) first. Constant factors stay, and a sum is differentiated \
            term by term.",
        examples: &[
            "d/dx (4x^3 - 5x + 1/x) = 4·3x^2 - 5 + (-1)·x^(-2) = 12x^2 - 5 - 1/x^2.",
            "d/dx sqrt(x) = d/dx x^(1/2) = (1/2)·x^(-1/2) = 1/(2sqrt(x)).",
            "d/dx (x^5 - 3x^2 + 7) = 5x^4 - 3·2x + 0 = 5x^4 - 6x.",
        ],
    },
    Topic {
        title: "Implicit differentiation",
        keys: &["implicit"],
        explanation: "When y is tied to x by an equation rather than given as y = ..., differentiate both \
            sides with respect to x and treat y as a function of x: every time you differentiate \
            something containing y, the chain rule adds a factor dy/dx. Then solve for dy/dx.",
        examples: &[
            "For the circle x^2 + y^2 = 25: 2x + 2y·dy/dx = 0, so dy/dx = -x/y. \
            At the point (3, 4) the slope of the tangent is -3/4.",
            "For the hyperbola x·y = 1: y + x·dy/dx = 0, so dy/dx = -y/x. \
            At the point (2, 1/2) the slope of the tangent is -1/4.",
            "For the parabola y^2 = x: 2y·dy/dx = 1, so dy/dx = 1/(2y). \
            At the point (4, 2) the slope of the tangent is 1/4.",
        ],
    },
    Topic {
        title: "Integration by substitution",
        keys: &["substitution", "u-sub", "u sub"],
        explanation: "Substitution runs the chain rule backwards. Find an inner expression u = g(x) whose \
            derivative g'(x) also appears as a factor (up to a constant); replace g'(x) dx by du, \
            integrate in u, then put g(x) back in place of u.",
        examples: &[
            "∫ 2x·cos(x^2) dx: let u = x^2, so du = 2x dx. The integral becomes \
            ∫ cos(u) du = sin(u) + C = sin(x^2) + C.",
            "∫ x·e^(x^2) dx: let u = x^2, so du = 2x dx and x dx = du/2. The integral becomes \
            ∫ e^u/2 du = e^u/2 + C = e^(x^2)/2 + C.",
            "∫ sin(x)^3·cos(x) dx: let u = sin(x), so du = cos(x) dx. The integral becomes \
            ∫ u^3 du = u^4/4 + C = sin(x)^4/4 + C.",
        ],
    },
    Topic {
        title: "Integration by parts",
        keys: &["by parts", "integration by part", "integrating by part"],
        explanation: "Integration by parts runs the product rule backwards: ∫ u dv = u·v - ∫ v du. \
            Choose u as the factor that gets simpler when differentiated (a logarithm first, then a \
            polynomial) and dv as the rest, which you must be able to integrate (e^x, sin, cos, a \
            power). Repeat when the new integral still has a polynomial factor.",
        examples: &[
            "∫ x·e^x dx: u = x and dv = e^x dx, so du = dx and v = e^x. The integral is \
            x·e^x - ∫ e^x dx = x·e^x - e^x + C.",
            "∫ x·cos(x) dx: u = x and dv = cos(x) dx, so du = dx and v = sin(x). The integral is \
            x·sin(x) - ∫ sin(x) dx = x·sin(x) + cos(x) + C.",
            "∫ ln(x) dx: u = ln(x) and dv = dx, so du = dx/x and v = x. The integral is \
            x·ln(x) - ∫ 1 dx = x·ln(x) - x + C.",
        ],
    },
    Topic {
        title: "Definite integrals and the fundamental theorem of calculus",
        keys: &["fundamental theorem", "definite integral", "area under", "ftc"],
        explanation: "The definite integral from a to b of f(x) dx adds f up over [a, b]: it is the signed \
            area between the graph and the x-axis, where area below the axis counts as negative. The \
            fundamental theorem of calculus links it to antiderivatives: if F' = f and f is \
            continuous on [a, b], the integral equals F(b) - F(a).",
        examples: &[
            "The integral from 0 to 3 of x^2 dx: an antiderivative is F(x) = x^3/3, \
            so the value is F(3) - F(0) = 27/3 - 0 = 9.",
            "The integral from 0 to π of sin(x) dx: an antiderivative is F(x) = -cos(x), \
            so the value is F(π) - F(0) = 1 - (-1) = 2.",
            "The integral from 1 to 2 of 1/x^2 dx: an antiderivative is F(x) = -1/x, \
            so the value is F(2) - F(1) = -1/2 + 1 = 1/2.",
        ],
    },
    Topic {
        title: "Optimisation",
        keys: &["optimi", "maximi", "minimi", "maximum", "minimum", "critical point", "largest", "smallest"],
        explanation: "To make a quantity as large or as small as possible, write it as a function of one \
            variable, find the critical points where f'(x) = 0 (or f' does not exist), and compare f \
            there and at the ends of the allowed interval. The second derivative tells the kind of \
            point: f'' > 0 is a minimum, f'' < 0 a maximum.",
        examples: &[
            "A rectangle with perimeter 20 has sides x and 10 - x, so its area is \
            A(x) = x(10 - x) = 10x - x^2 for 0 ≤ x ≤ 10. A'(x) = 10 - 2x = 0 at x = 5, and \
            A''(x) = -2 < 0, so the largest area is A(5) = 25: a 5 by 5 square.",
            "Two positive numbers add up to 12; their product is P(x) = x(12 - x) = 12x - x^2. \
            P'(x) = -2x + 12 = 0 at x = 6, and P''(x) = -2 < 0, so the largest product is P(6) = 36.",
            "f(x) = x^3 - 3x on [0, 2]: f'(x) = 3x^2 - 3 = 0 at x = 1, and f''(1) = 6 > 0, so \
            x = 1 is a minimum, f(1) = -2. At the ends f(0) = 0 and f(2) = 2, so on [0, 2] the \
            smallest value is -2 and the largest is 2.",
        ],
    },
    Topic {
        title: "L'Hôpital's rule",
        keys: &["l'hôpital", "l'hopital", "lhopital", "l hopital", "l'hospital", "hopital"],
        explanation: "When substituting gives 0/0 or ∞/∞, lim f(x)/g(x) = lim f'(x)/g'(x), provided \
            the second limit exists: differentiate the top and the bottom separately (not the \
            quotient rule), then try substituting again. Repeat while the form stays 0/0 or ∞/∞.",
        examples: &[
            "lim x→0 sin(3x)/x: substituting gives 0/0. Differentiate top and bottom: \
            3cos(3x)/1, which tends to 3.",
            "lim x→0 (e^x - 1 - x)/x^2: 0/0, so take (e^x - 1)/(2x), still 0/0, so take e^x/2, \
            which tends to 1/2.",
            "lim x→∞ x/e^x: ∞/∞, so take 1/e^x, which tends to 0: e^x outgrows every power of x.",
        ],
    },
    Topic {
        title: "Limits",
        keys: &["limit", "lim "],
        explanation: "A limit describes the value f(x) approaches as x approaches a number a, whether or \
            not f(a) itself exists: lim x→a f(x) = L means f(x) gets as close to L as we like when x is \
            close enough to a, from both sides. Where f is continuous the limit is simply f(a); when \
            substituting gives 0/0, rewrite the expression first (factor and cancel, for example).",
        examples: &[
            "lim x→2 (x^2 - 4)/(x - 2): substituting gives 0/0. Factor: (x - 2)(x + 2)/(x - 2) = \
            x + 2 for x ≠ 2, so the limit is 2 + 2 = 4.",
            "lim x→0 sin(x)/x: substituting gives 0/0. This is the standard limit, 1 (by the \
            squeeze theorem, or by L'Hôpital's rule: cos(x)/1 → 1).",
            "lim x→∞ (3x^2 + 1)/(x^2 - 5): divide the top and the bottom by x^2 to get \
            (3 + 1/x^2)/(1 - 5/x^2), which tends to 3/1 = 3.",
            "lim x→0 1/x: from the right 1/x grows to ∞, from the left it falls to -∞, so the \
            one-sided limits differ and the limit does not exist.",
        ],
    },
    Topic {
        title: "Antiderivatives and indefinite integrals",
        keys: &["antiderivative", "anti-derivative", "indefinite integral", "integral", "integrat"],
        explanation: "An antiderivative of f is a function F with F' = f. The indefinite integral \
            ∫ f(x) dx stands for all of them, F(x) + C, because a constant differentiates to 0. Read \
            the derivative rules backwards: ∫ x^n dx = x^(n+1)/(n+1) + C for n ≠ -1, ∫ 1/x dx = \
            ln|x| + C, ∫ e^x dx = e^x + C, ∫ cos(x) dx = sin(x) + C, ∫ sin(x) dx = -cos(x) + C.",
        examples: &[
            "∫ (3x^2 + 2x) dx = x^3 + x^2 + C. Check by differentiating: \
            (x^3 + x^2)' = 3x^2 + 2x.",
            "∫ (e^x + cos(x)) dx = e^x + sin(x) + C. Check by differentiating: \
            (e^x + sin(x))' = e^x + cos(x).",
            "∫ 1/x^2 dx = ∫ x^(-2) dx = x^(-1)/(-1) + C = -1/x + C.",
        ],
    },
    Topic {
        title: "The derivative",
        keys: &["derivative", "differentiat", "slope of the tangent", "tangent line", "rate of change"],
        explanation: "The derivative f'(x) measures how fast f changes at x: it is the slope of the tangent \
            line to the graph at that point. It is defined as a limit of difference quotients, \
            f'(x) = lim h→0 (f(x+h) - f(x))/h. In practice the rules (power, product, quotient, chain) \
            give derivatives without computing that limit each time.",
        examples: &[
            "For f(x) = x^2: (f(x+h) - f(x))/h = ((x+h)^2 - x^2)/h = (2xh + h^2)/h = 2x + h, \
            which tends to 2x as h → 0. So f'(x) = 2x, and at x = 3 the tangent's slope is 6.",
            "For f(x) = 1/x: (f(x+h) - f(x))/h = (1/(x+h) - 1/x)/h = -1/(x(x+h)), \
            which tends to -1/x^2 as h → 0.",
            "For f(x) = x^3: ((x+h)^3 - x^3)/h = 3x^2 + 3xh + h^2, which tends to 3x^2 as \
            h → 0. At x = 2 the tangent's slope is 12.",
        ],
    },
];

/// The first topic the (lowercase) question names.
pub(crate) fn find(lower: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.keys.iter().any(|k| lower.contains(k)))
}

/// The topics' short names, for offers.
pub(crate) const TOPIC_LIST: &str = "limits and L'Hôpital's rule, the derivative, the power, product, \
    quotient and chain rules, implicit differentiation, antiderivatives, substitution, integration by \
    parts, definite integrals and the fundamental theorem, and optimisation";

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> String {
        calculus::derivative(&calculus::read(text, 'x').unwrap(), 1).unwrap().shown
    }

    fn f(text: &str) -> calculus::Function {
        calculus::read(text, 'x').unwrap()
    }

    fn n(text: &str) -> calculus::Expr {
        calculus::read_number(text).unwrap()
    }

    fn anti(text: &str) -> String {
        calculus::antiderivative(&f(text)).unwrap().shown
    }

    fn value(text: &str, at: &str) -> String {
        calculus::derivative_at(&f(text), 0, &n(at)).unwrap().1.display()
    }

    fn slope(text: &str, at: &str) -> String {
        calculus::derivative_at(&f(text), 1, &n(at)).unwrap().1.display()
    }

    fn definite(text: &str, a: &str, b: &str) -> String {
        calculus::definite(&f(text), &n(a), &n(b)).unwrap().1.display()
    }

    fn limit(text: &str, to: &str) -> String {
        let point = if to == "inf" { calculus::Point::Infinity } else { calculus::Point::At(n(to)) };
        calculus::limit(&f(text), &point, calculus::Side::Both).unwrap().limit.display()
    }

    /// Every worked example states what the calculator computes: (topic, example, what
    /// it must say).
    #[test]
    fn worked_examples_agree_with_the_calculator() {
        let checks: Vec<(&str, usize, String)> = vec![
            ("The product rule", 0, d("x^2*sin(x)")),
            ("The product rule", 1, d("x*e^x")),
            ("The product rule", 2, d("x^3*ln(x)")),
            ("The quotient rule", 0, d("x/(x+1)")),
            ("The quotient rule", 1, d("sin(x)/x")),
            ("The quotient rule", 2, d("e^x/x")),
            ("The chain rule", 0, d("(2x+1)^5")),
            ("The chain rule", 1, d("sin(x^2)")),
            ("The chain rule", 2, d("e^(3x^2)")),
            ("The chain rule", 3, d("sqrt(x^2+1)")),
            ("The power rule", 0, d("4x^3 - 5x + 1/x")),
            ("The power rule", 1, d("sqrt(x)")),
            ("The power rule", 2, d("x^5 - 3x^2 + 7")),
            // implicit curves, solved for y near the point: the slope there
            (
                "Implicit differentiation",
                0,
                format!("is {}.", slope("sqrt(25 - x^2)", "3").split(' ').next().unwrap()),
            ),
            ("Implicit differentiation", 1, format!("is {}.", slope("1/x", "2").split(' ').next().unwrap())),
            (
                "Implicit differentiation",
                2,
                format!("is {}.", slope("sqrt(x)", "4").split(' ').next().unwrap()),
            ),
            ("Integration by substitution", 0, format!("= {} + C", anti("2x*cos(x^2)"))),
            ("Integration by substitution", 1, format!("= {} + C", anti("x*e^(x^2)"))),
            ("Integration by substitution", 2, format!("= {} + C", anti("sin(x)^3*cos(x)"))),
            ("Integration by parts", 0, format!("= {} + C", anti("x*e^x"))),
            ("Integration by parts", 1, format!("= {} + C", anti("x*cos(x)"))),
            ("Integration by parts", 2, format!("= {} + C", anti("ln(x)"))),
            (
                "Definite integrals and the fundamental theorem of calculus",
                0,
                format!("= {}.", definite("x^2", "0", "3")),
            ),
            (
                "Definite integrals and the fundamental theorem of calculus",
                1,
                format!("= {}.", definite("sin(x)", "0", "pi")),
            ),
            (
                "Definite integrals and the fundamental theorem of calculus",
                2,
                format!("= {}.", definite("1/x^2", "1", "2").split(' ').next().unwrap()),
            ),
            ("Optimisation", 0, format!("A(5) = {}", value("x(10 - x)", "5"))),
            (
                "Optimisation",
                0,
                format!("A''(x) = {}", calculus::derivative(&f("x(10 - x)"), 2).unwrap().shown),
            ),
            ("Optimisation", 1, format!("P(6) = {}", value("x(12 - x)", "6"))),
            ("Optimisation", 1, format!("P'(x) = {} = 0", d("x(12 - x)"))),
            ("Optimisation", 2, format!("f(1) = {}", value("x^3 - 3x", "1"))),
            ("Optimisation", 2, format!("f(2) = {}", value("x^3 - 3x", "2"))),
            ("Optimisation", 2, format!("f'(x) = {}", d("x^3 - 3x"))),
            ("L'Hôpital's rule", 0, format!("tends to {}.", limit("sin(3x)/x", "0"))),
            (
                "L'Hôpital's rule",
                1,
                format!("tends to {}.", limit("(e^x - 1 - x)/x^2", "0").split(' ').next().unwrap()),
            ),
            ("L'Hôpital's rule", 2, format!("tends to {}:", limit("x/e^x", "inf"))),
            ("Limits", 0, format!("is 2 + 2 = {}.", limit("(x^2 - 4)/(x - 2)", "2"))),
            ("Limits", 1, format!("standard limit, {} ", limit("sin(x)/x", "0"))),
            ("Limits", 2, format!("= {}.", limit("(3x^2 + 1)/(x^2 - 5)", "inf"))),
            ("Limits", 3, format!("the limit {}", limit("1/x", "0").split(" (").next().unwrap())),
            ("Antiderivatives and indefinite integrals", 0, anti("3x^2 + 2x")),
            ("Antiderivatives and indefinite integrals", 1, anti("e^x + cos(x)")),
            ("Antiderivatives and indefinite integrals", 2, format!("= {} + C", anti("1/x^2"))),
            ("The derivative", 0, format!("f'(x) = {}", d("x^2"))),
            ("The derivative", 0, format!("slope is {}.", slope("x^2", "3"))),
            ("The derivative", 1, format!("tends to {} as", d("1/x"))),
            ("The derivative", 2, format!("tends to {} as", d("x^3"))),
            ("The derivative", 2, format!("slope is {}.", slope("x^3", "2"))),
        ];
        let mut bad = Vec::new();
        for (title, i, says) in &checks {
            let t = TOPICS.iter().find(|t| t.title == *title).unwrap();
            if !t.examples[*i].contains(says.as_str()) {
                bad.push(format!("{title} #{i}: {says}"));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
        // every example of every topic is checked, and each topic has at least three
        for t in TOPICS {
            assert!(t.examples.len() >= 3, "{}", t.title);
            for i in 0..t.examples.len() {
                assert!(checks.iter().any(|(title, j, _)| *title == t.title && *j == i), "{} #{i}", t.title);
            }
        }
    }

    #[test]
    fn specific_topics_win() {
        assert_eq!(find("what is the product rule for derivatives").unwrap().title, "The product rule");
        assert_eq!(
            find("explain the definite integral").unwrap().title,
            "Definite integrals and the fundamental theorem of calculus"
        );
        assert_eq!(find("what is a derivative").unwrap().title, "The derivative");
    }
}
