//! Reading what a question asks the offline tutor to compute: a derivative (of which
//! order, at which point), an integral (between which bounds), a value at a point, or
//! a bare expression. Text work on the lowercased question: an expression ends at the
//! first ordinary word ([`calculus::leading_expression`]); the `calculus` crate reads
//! the expressions themselves. Cleaning a question and the expression text in it is
//! `phrase.rs`'s, which the limit reader shares.

use crate::phrase::clean;
pub(crate) use crate::phrase::normalize;

/// Which derivative is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// The n-th (`2nd`, `fifth`, `21st`); 1 when none is named.
    Given(usize),
    /// "the nth derivative": a general formula.
    General,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ask {
    Derivative {
        order: Order,
        again: bool,
        expr: Option<String>,
        var: Option<char>,
        at: Option<String>,
    },
    Integral {
        expr: Option<String>,
        bounds: Option<(String, String)>,
    },
    /// "what about at x=2?" (the conversation's last function), "what is x^2 at x = 3?",
    /// "valor de x^2 en x = 3" (the function it names)
    Value {
        at: String,
        expr: Option<String>,
    },
    /// A limit (`limits.rs`).
    Limit(crate::limits::LimitAsk),
    /// A follow-up naming only a new expression ("and x^4?", "what about cos(x)?"): the
    /// last operation again, on it (`followup.rs`).
    Again {
        expr: String,
    },
    /// An expression with no command ("x^2 + 1").
    Bare {
        expr: String,
    },
    Other,
}

const INTEGRAL_KEYS: &[&str] = &[
    "integral of",
    "integrate",
    "integrating",
    "integral",
    "antiderivative of",
    "antiderivative",
    "anti-derivative",
    "∫",
    "area under",
];
const DERIVATIVE_KEYS: &[&str] = &[
    "derivatives of",
    "derivative of",
    "derivative",
    "differentiate",
    "differentiating",
    "d/d",
    "dy/dx",
    "slope of the tangent to",
    "slope of",
    "gradient of the tangent to",
    "gradient of",
    "rate of change of",
];

fn first_key<'a>(s: &str, keys: &[&'a str]) -> Option<(usize, &'a str)> {
    keys.iter()
        .filter_map(|k| s.find(k).map(|i| (i, *k)))
        .min_by_key(|(i, k)| (*i, std::cmp::Reverse(k.len())))
}

/// The point a question names at its end (`" at x = 2"`), if any.
pub(crate) fn point(s: &str) -> Option<String> {
    split_point(s.trim_end_matches(['?', '.', '!', ' '])).1
}

/// Splits `" at x = 2"`-style points off the end.
fn split_point(s: &str) -> (String, Option<String>) {
    for marker in [" at ", " when ", " where ", " if ", "at "] {
        let found = if marker == "at " {
            s.strip_prefix("at ").map(|r| (0, r))
        } else {
            s.rfind(marker).map(|i| (i, &s[i + marker.len()..]))
        };
        if let Some((i, rest)) = found {
            let rest = rest.trim();
            // "at the point x = 2" as "at x = 2"
            let rest = rest.strip_prefix("the point ").unwrap_or(rest);
            let value = match rest.split_once('=') {
                Some((name, v)) if name.trim().chars().count() == 1 => v.trim(),
                Some(_) => continue,
                None => rest,
            };
            // the value ends at the first ordinary word after it ("at x=3 value")
            let value = value
                .split_whitespace()
                .take_while(|w| !(w.len() > 1 && *w != "pi" && w.chars().all(|c| c.is_ascii_alphabetic())))
                .collect::<Vec<_>>()
                .join(" ");
            // after "if" only a number is a point ("if x = 2"; "find dy/dx if y = x^4" defines y)
            let number = |v: &str| v.chars().all(|c| c.is_ascii_digit() || " .-+/".contains(c));
            if marker == " if " && !number(&value) {
                continue;
            }
            if !value.is_empty() && value.chars().any(|c| c.is_ascii_digit() || "πpie".contains(c)) {
                return (s[..i].to_string(), Some(value));
            }
        }
    }
    (s.to_string(), None)
}

/// Splits `" from a to b"` / `" between a and b"` off the end.
fn split_bounds(s: &str) -> (String, Option<(String, String)>) {
    for (from, to) in [("from ", " to "), ("between ", " and ")] {
        if let Some(i) = s.rfind(from)
            && let Some((a, b)) = s[i + from.len()..].split_once(to)
        {
            let b = b.trim().trim_end_matches(" dx").trim();
            // "from 0 to 1 of x^2": the bounds come first
            if s[..i].trim().is_empty()
                && let Some((b, expr)) = b.split_once(" of ")
            {
                return (expr.trim().to_string(), Some((a.trim().to_string(), b.trim().to_string())));
            }
            return (s[..i].trim().to_string(), Some((a.trim().to_string(), b.to_string())));
        }
    }
    (s.to_string(), None)
}

/// The order named in `s` (the words before "derivative"), the last one when several:
/// `2nd`, `21st`, `fifth`, `nth`/`n-th`. `None` when it names none.
pub(crate) fn order(s: &str) -> Option<Order> {
    let words = s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\''));
    words.rev().find_map(|w| {
        if ["nth", "n-th", "n'th"].contains(&w) {
            return Some(Order::General);
        }
        if let Some(i) = forms::read::ORDINALS.iter().position(|o| *o == w) {
            return Some(Order::Given(i + 1));
        }
        let digits = w.find(|c: char| !c.is_ascii_digit())?;
        let suffix = w[digits..].trim_start_matches(['-', '\'']);
        (digits > 0 && ["st", "nd", "rd", "th"].contains(&suffix))
            .then(|| Order::Given(w[..digits].parse().unwrap_or(usize::MAX)))
    })
}

/// The text after the key `k` found at `i`, and whether the key was the start of a
/// plural word. A key ending in a letter takes the rest of its word: the `s` of
/// `derivatives` or `integrals` is part of the word, not a variable.
fn after_word<'a>(lower: &'a str, i: usize, k: &str) -> (&'a str, bool) {
    let after = &lower[i + k.len()..];
    if !k.ends_with(|c: char| c.is_ascii_alphabetic()) || k.contains('/') {
        return (after, false);
    }
    let len = after.find(|c: char| !c.is_alphabetic()).unwrap_or(after.len());
    (&after[len..], after[..len].ends_with('s') || k.starts_with("derivatives"))
}

/// `after` without a leading "with respect to x" / "wrt x" (the variable is read
/// separately).
fn skip_respect(after: &str) -> &str {
    let t = after.trim_start();
    for marker in ["with respect to ", "wrt "] {
        if let Some(r) = t.strip_prefix(marker) {
            let r = r.trim_start();
            let mut letters = r.char_indices();
            if letters.next().is_some_and(|(_, c)| c.is_ascii_alphabetic())
                && letters.next().is_none_or(|(_, c)| !c.is_alphanumeric())
            {
                return &r[1..];
            }
        }
    }
    after
}

/// An expression written before the key: all of what comes before it (`x^3
/// derivative`), or the expression inside the words before it (`can you x^2
/// differentiate`); none when only words come first (`find the second derivative`).
fn before_key(lower: &str, i: usize) -> Option<String> {
    let mut before = lower[..i].trim();
    // "x^3 2nd derivative": the order is not part of the expression
    if let Some((head, last)) = before.rsplit_once(' ').or(Some(("", before)))
        && order(last).is_some()
    {
        before = head.trim();
    }
    let before = before.strip_prefix("the ").unwrap_or(before).trim();
    // the article ("a derivative") is a word
    let lone_letter = ["a", "i"].contains(&before);
    if calculus::is_expression(before) && before.chars().any(|c| c.is_alphanumeric()) && !lone_letter {
        return Some(before.to_string());
    }
    // words around it: "kannst du mir bitte x^2 ableiten"
    crate::phrase::framed(before)
}

/// The function a value at a point is asked of (`what is x^2`, `the value of sin(x)`,
/// `valor de x^2`), or `None` when it names none ("what about", "and").
fn valued(rest: &str) -> Option<String> {
    let leads = [
        "what is ",
        "what's ",
        "and ",
        "the value of ",
        "value of ",
        "valor de ",
        "el valor de ",
        "valeur de ",
        "la valeur de ",
        "wert von ",
        "der wert von ",
        "evaluate ",
        "compute ",
        "calculate ",
        "find ",
        "f(x) = ",
    ];
    let rest = leads.iter().fold(rest.trim(), |s, p| s.strip_prefix(p).unwrap_or(s)).trim();
    let expr = calculus::leading_expression(rest).trim();
    // the whole rest is the expression, with a variable in it; a lone letter is a word
    // ("y en x = 2": Spanish "and")
    (expr == rest
        && expr.chars().count() > 1
        && expr.chars().any(|c| c.is_ascii_alphabetic())
        && calculus::read(expr, 'x').is_ok())
    .then(|| expr.to_string())
}

/// What `lower` (see [`normalize`]) asks for.
pub(crate) fn ask(lower: &str) -> Ask {
    let integral = first_key(lower, INTEGRAL_KEYS);
    let derivative = first_key(lower, DERIVATIVE_KEYS);
    if let Some(l) = crate::limits::read(lower, integral.is_none() && derivative.is_none()) {
        return Ask::Limit(l);
    }
    match (integral, derivative) {
        (Some((i, k)), d) if d.is_none_or(|(j, _)| i < j) => {
            let (after, plural) = after_word(lower, i, k);
            let (rest, bounds) = split_bounds(skip_respect(after));
            let expr = clean(&rest).or_else(|| before_key(lower, i));
            if plural && expr.is_none() && bounds.is_none() {
                return Ask::Other;
            }
            Ask::Integral { expr, bounds }
        }
        (_, Some((i, k))) => {
            let (mut after, plural) = after_word(lower, i, k);
            let mut var = None;
            if k == "d/d" {
                var = after.chars().next().filter(char::is_ascii_alphabetic);
                after = after.get(1..).unwrap_or("");
            }
            // "with respect to t" / "wrt t"
            for marker in ["with respect to ", "wrt "] {
                if let Some(j) = lower.find(marker) {
                    var = lower[j + marker.len()..].chars().next().filter(char::is_ascii_alphabetic).or(var);
                }
            }
            let (rest, at) = split_point(skip_respect(after));
            let expr = clean(&rest).or_else(|| before_key(lower, i));
            if plural && expr.is_none() && at.is_none() {
                return Ask::Other;
            }
            Ask::Derivative {
                order: order(&lower[..i]).unwrap_or(Order::Given(1)),
                again: lower.contains("again"),
                expr,
                var,
                at,
            }
        }
        _ => {
            // a follow-up naming only a new point ("x=4?") or a new expression ("and x^4?")
            if let Some(at) = crate::followup::new_point(lower) {
                return Ask::Value { at, expr: None };
            }
            if let Some(expr) = crate::followup::new_expression(lower) {
                return Ask::Again { expr };
            }
            let (rest, at) = split_point(lower);
            if let Some(at) = at
                && rest.split_whitespace().count() <= 4
            {
                return Ask::Value { at, expr: valued(&rest) };
            }
            let (rest, bounds) = split_bounds(lower);
            if let Some(bounds) = bounds
                && rest.split_whitespace().count() <= 3
            {
                return Ask::Integral {
                    expr: clean(&rest).filter(|e| !e.starts_with("and")),
                    bounds: Some(bounds),
                };
            }
            let bare = ["what is ", "what's ", "calculate ", "compute ", "evaluate ", "simplify "]
                .iter()
                .fold(lower, |s, p| s.strip_prefix(p).unwrap_or(s))
                .trim();
            let bare = calculus::leading_expression(bare);
            if bare.chars().any(|c| c.is_ascii_digit() || "^*/+-()=".contains(c)) {
                Ask::Bare { expr: bare.to_string() }
            } else {
                Ask::Other
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(q: &str) -> Ask {
        ask(&normalize(q))
    }

    #[test]
    fn reads_commands() {
        let d = |expr: Option<&str>, order, at: Option<&str>| Ask::Derivative {
            order: Order::Given(order),
            again: false,
            expr: expr.map(String::from),
            var: None,
            at: at.map(String::from),
        };
        assert_eq!(a("What is the derivative of x^3*sin(x)?"), d(Some("x^3*sin(x)"), 1, None));
        assert_eq!(a("and the second derivative?"), d(None, 2, None));
        assert_eq!(a("derivative of x^2 at x = 3"), d(Some("x^2"), 1, Some("3")));
        assert_eq!(
            a("d/dx (2x+1)^5"),
            Ask::Derivative {
                order: Order::Given(1),
                again: false,
                expr: Some("(2x+1)^5".into()),
                var: Some('x'),
                at: None
            }
        );
        assert_eq!(
            a("Integrate 3x^2 + 2x dx"),
            Ask::Integral { expr: Some("3x^2 + 2x".into()), bounds: None }
        );
        assert_eq!(
            a("integrate x^2 from 0 to 3"),
            Ask::Integral { expr: Some("x^2".into()), bounds: Some(("0".into(), "3".into())) }
        );
        assert_eq!(a("∫ cos(x) dx"), Ask::Integral { expr: Some("cos(x)".into()), bounds: None });
        assert_eq!(a("now integrate it"), Ask::Integral { expr: None, bounds: None });
        assert_eq!(a("what about at x=2?"), Ask::Value { at: "2".into(), expr: None });
        assert_eq!(a("and at x=2?"), Ask::Value { at: "2".into(), expr: None });
        assert_eq!(a("und bei x=2?"), Ask::Value { at: "2".into(), expr: None });
        let valued = |expr: &str, at: &str| Ask::Value { at: at.into(), expr: Some(expr.into()) };
        assert_eq!(a("what is x^2 at x = 3?"), valued("x^2", "3"));
        assert_eq!(a("valor de x^2 en x = 3"), valued("x^2", "3"));
        assert_eq!(a("la valeur de sin(x) en x = 0"), valued("sin(x)", "0"));
        assert_eq!(a("what is 17*23"), Ask::Bare { expr: "17*23".into() });
        assert_eq!(a("what is the chain rule"), Ask::Other);
        assert_eq!(a("what is the derivative of x^2 with steps"), d(Some("x^2"), 1, None));
        assert_eq!(a("derivative of x^2 please, using the chain rule"), d(Some("x^2"), 1, None));
        assert_eq!(a("2nd derivative of x^3 for me"), d(Some("x^3"), 2, None));
    }

    #[test]
    fn reads_leibniz_and_word_order() {
        for (q, want) in [
            ("d^2/dx^2 x^4", "2nd d/dx x^4"),
            ("d²y/dx² of x^4", "2nd d/dx of x^4"),
            ("find d2y/dx2 if y = x^4", "find 2nd d/dx if y = x^4"),
            ("d^3 y/dt^3 t^5", "3rd d/dt t^5"),
            // unchanged: first derivatives, orders that differ, d inside a word
            ("d/dx x^2", "d/dx x^2"),
            ("dy/dx of x^2", "dy/dx of x^2"),
            ("d^2/dx^3 x^4", "d^2/dx^3 x^4"),
            ("and d2/dx2", "and 2nd d/dx"),
            ("add2/dx2", "add2/dx2"),
        ] {
            assert_eq!(normalize(q), want, "{q}");
        }
        let integral = |expr: &str, a: &str, b: &str| Ask::Integral {
            expr: Some(expr.into()),
            bounds: Some((a.into(), b.into())),
        };
        assert_eq!(a("integral from 0 to 1 of x^2"), integral("x^2", "0", "1"));
        assert_eq!(a("what is ∫ from 0 to 2 of 3x^2 dx"), integral("3x^2", "0", "2"));
        assert_eq!(a("x^3 integral"), Ask::Integral { expr: Some("x^3".into()), bounds: None });
        for q in ["what are derivatives", "tell me about integrals", "derivatives", "antiderivatives"] {
            assert_eq!(a(q), Ask::Other, "{q}");
        }
        let Ask::Derivative { expr, var, .. } = a("take the derivative with respect to x of x^4") else {
            panic!("a derivative")
        };
        assert_eq!((expr.as_deref(), var), (Some("x^4"), Some('x')));
    }

    #[test]
    fn reads_orders() {
        for (q, n) in [
            ("2nd derivative of x^3", 2),
            ("the 5th derivative of x^7", 5),
            ("sixth derivative of sin(x)", 6),
            ("10th derivative of x^12", 10),
            ("the 21st derivative of x", 21),
            ("and the 3rd derivative?", 3),
            ("find the second derivative", 2),
            ("first derivative of x^2", 1),
            ("tenth derivative of e^x", 10),
            ("the 100th derivative", 100),
            ("derivative of x^2", 1),
        ] {
            let Ask::Derivative { order, .. } = a(q) else { panic!("{q}") };
            assert_eq!(order, Order::Given(n), "{q}");
        }
        for q in ["nth derivative of x^n", "the n-th derivative of sin(x)"] {
            assert!(matches!(a(q), Ask::Derivative { order: Order::General, .. }), "{q}");
        }
        assert_eq!(order("the 99999999999999999999999th"), Some(Order::Given(usize::MAX)));
        assert_eq!(order("what is the"), None);
    }
}
