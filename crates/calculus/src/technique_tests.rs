//! Integration by parts and by substitution, definite integrals through them, and limits.

use super::*;
use crate::tests::{f, n};

#[test]
fn integration_by_parts_and_substitution() {
    let mut bad = Vec::new();
    for (text, result) in [
        // by parts
        ("x*e^x", "x·e^x - e^x"),
        ("x*sin(x)", "-x·cos(x) + sin(x)"),
        ("x*cos(x)", "x·sin(x) + cos(x)"),
        ("x^2*e^x", "x^2·e^x - 2x·e^x + 2e^x"),
        ("x^3*sin(x)", "-x^3·cos(x) + 3x^2·sin(x) + 6x·cos(x) - 6sin(x)"),
        ("ln(x)", "x·ln(x) - x"),
        ("ln(2x+1)", "(2x+1)·ln(2x+1)/2 - x"),
        ("x*ln(x)", "x^2·ln(x)/2 - x^2/4"),
        ("x^2*ln(x)", "x^3·ln(x)/3 - x^3/9"),
        ("(x+1)*e^(2x)", "(x+1)·e^(2x)/2 - e^(2x)/4"),
        // substitution
        ("2x*cos(x^2)", "sin(x^2)"),
        ("x*e^(x^2)", "e^(x^2)/2"),
        ("sin(x)^3*cos(x)", "sin(x)^4/4"),
        ("cos(x)^2*sin(x)", "-cos(x)^3/3"),
        ("x/(x^2+1)", "ln|x^2+1|/2"),
        ("x*(x^2+1)^5", "(x^2+1)^6/12"),
        ("ln(x)/x", "ln(x)^2/2"),
        ("cos(x)*e^(sin(x))", "e^(sin(x))"),
        ("3x^2*sqrt(x^3+1)", "2(x^3+1)^(3/2)/3"),
        // a linear inner function stays the basic rules' own
        ("e^(3x+1)", "e^(3x+1)/3"),
        ("(2x+1)^5", "(2x+1)^6/12"),
    ] {
        let got = antiderivative(&f(text)).map(|w| w.shown);
        if got != Ok(result.to_string()) {
            bad.push(format!("{text}: {got:?}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn the_steps_name_the_technique() {
    let w = antiderivative(&f("x*e^x")).unwrap();
    assert!(w.steps[0].starts_with("by parts with u = x, dv = e^x dx"), "{:?}", w.steps);
    let w = antiderivative(&f("2x*cos(x^2)")).unwrap();
    assert!(w.steps.iter().any(|s| s.starts_with("substitution u = x^2 (du = 2x dx)")), "{:?}", w.steps);
}

#[test]
fn definite_integrals_through_the_techniques() {
    let def = |t: &str, a: &str, b: &str| definite(&f(t), &n(a), &n(b)).map(|(_, v)| v.display());
    assert_eq!(def("x*e^x", "0", "1"), Ok("1".into()));
    assert_eq!(def("x*sin(x)", "0", "pi"), Ok("π ≈ 3.141593".into()));
    assert_eq!(def("ln(x)", "1", "e"), Ok("1".into()));
    assert_eq!(def("2x*cos(x^2)", "0", "sqrt(pi)"), Ok("0".into()));
}

#[test]
fn limits() {
    let lim = |t: &str, to: &str, side: Side| {
        let point = match to {
            "inf" => Point::Infinity,
            "-inf" => Point::MinusInfinity,
            a => Point::At(n(a)),
        };
        limit(&f(t), &point, side).map(|w| w.limit.display())
    };
    let mut bad = Vec::new();
    for (text, to, side, want) in [
        ("x^2+1", "2", Side::Both, "5"),
        ("sin(x)/x", "0", Side::Both, "1"),
        ("(1-cos(x))/x", "0", Side::Both, "0"),
        ("(e^x-1)/x", "0", Side::Both, "1"),
        ("ln(1+x)/x", "0", Side::Both, "1"),
        ("(1+1/x)^x", "inf", Side::Both, "e ≈ 2.718282"),
        ("(x^2-1)/(x-1)", "1", Side::Both, "2"),
        ("(x^2-4)/(x-2)", "2", Side::Both, "4"),
        ("(x^3-1)/(x^2-1)", "1", Side::Both, "3/2 ≈ 1.5"),
        ("sin(3x)/x", "0", Side::Both, "3"),
        ("(x-sin(x))/x^3", "0", Side::Both, "1/6 ≈ 0.166667"),
        ("(1-cos(x))/x^2", "0", Side::Both, "1/2 ≈ 0.5"),
        ("(3x^2+1)/(x^2-5)", "inf", Side::Both, "3"),
        ("(2x+1)/(x^2+1)", "inf", Side::Both, "0"),
        ("(x^3+1)/(x+1)", "-inf", Side::Both, "∞"),
        ("x^3-x", "-inf", Side::Both, "-∞"),
        ("1/x", "0", Side::Both, "does not exist (from the left it is -∞, from the right ∞)"),
        ("1/x", "0", Side::Right, "∞"),
        ("1/x", "0", Side::Left, "-∞"),
        ("1/x^2", "0", Side::Both, "∞"),
        ("x*ln(x)", "0", Side::Right, "0"),
        ("ln(x)", "0", Side::Both, "-∞"),
        ("x*e^(-x)", "inf", Side::Both, "0"),
        ("e^x", "-inf", Side::Both, "0"),
        ("sin(x)/x", "inf", Side::Both, "0"),
        ("x^x", "0", Side::Right, "1"),
        ("tan(x)/x", "0", Side::Both, "1"),
        ("(sqrt(x)-1)/(x-1)", "1", Side::Both, "1/2 ≈ 0.5"),
        ("cos(x)", "pi", Side::Both, "-1"),
    ] {
        let got = lim(text, to, side);
        if got.as_deref() != Ok(want) {
            bad.push(format!("{text} at {to} {side:?}: {got:?}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // what it cannot do, it says
    assert!(lim("sin(x)", "inf", Side::Both).is_err());
    assert!(lim("x - sqrt(x^2+x)", "inf", Side::Both).is_err());
}

#[test]
fn limit_steps_name_the_rules() {
    let steps = |t: &str, a: &str| limit(&f(t), &Point::At(n(a)), Side::Both).unwrap().steps;
    assert_eq!(steps("sin(x)/x", "0"), ["the standard limit sin(x)/x → 1 as x → 0"]);
    let cancel = steps("(x^2-1)/(x-1)", "1");
    assert!(
        cancel[0].starts_with("0/0: factor and cancel (x-1): (x^2-1)/(x-1) = x + 1 for x ≠ 1"),
        "{cancel:?}"
    );
    assert!(
        steps("sin(3x)/x", "0")[0].starts_with("0/0, so L'Hôpital's rule"),
        "{:?}",
        steps("sin(3x)/x", "0")
    );
}
