//! Improper integrals over an infinite interval (`∫ from 1 to ∞ of 1/x^2 dx`, `∫ from -∞
//! to 0 of e^x dx`, both ends infinite): an antiderivative `F`, then the limit of `F` at
//! each infinite end ([`crate::limit`], exact, checked numerically by exmex), and the
//! value `F(∞) - F(a)`. The integral converges when every such limit is finite; an
//! infinite one makes it diverge (to `∞` or `-∞` when the sign is determined). A limit
//! the rules cannot find (`-cos(x)` at `∞`, which has none) is an error, not a claim.
//!
//! Before any limit, the integrand must be defined on the whole interval: no pole or
//! domain edge of a linear piece anywhere on it (`check::gap`), and the antiderivative
//! checked like a definite integral's over a finite stretch from the finite end.

use crate::check;
use crate::expr::{Expr, Func};
use crate::simplify::simplify;
use crate::{Error, Function, Limit, Point, Side, Value, Worked, definite, limit};

/// How far from the finite end (or from 0 with both ends infinite) the finite stretch
/// the antiderivative is checked over reaches.
const STRETCH: i64 = 100;
/// Where the check for a pole or a domain edge stops (stand-in for infinity).
const FAR: f64 = 1e7;

/// What an improper integral comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Improper {
    /// It converges to this value (exact where the rules allow).
    Converges(Value),
    /// It diverges: to `+∞` (`Some(true)`), to `-∞` (`Some(false)`), or without a sign
    /// (`None`: the limits at the two ends are infinite with the same sign).
    Diverges(Option<bool>),
}

/// An improper integral worked out: the antiderivative, its limit at each infinite end,
/// and the outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct ImproperWorked {
    pub antiderivative: Worked,
    pub ends: Vec<(Point, Limit)>,
    pub outcome: Improper,
}

/// The integral of `f` from `a` to `b`, at least one of them `±∞`
/// ([`Error::Unsupported`] otherwise, and for bounds in decreasing order).
pub fn improper(f: &Function, a: &Point, b: &Point) -> Result<ImproperWorked, Error> {
    let finite = |p: &Point| match p {
        Point::At(e) => e.eval_const().ok_or(Error::CheckFailed).map(Some),
        _ => Ok(None),
    };
    let (fa, fb) = (finite(a)?, finite(b)?);
    let ordered = matches!(
        (a, b),
        (Point::MinusInfinity, Point::Infinity | Point::At(_)) | (Point::At(_), Point::Infinity)
    );
    if !ordered {
        return Err(Error::Unsupported(
            "improper integrals other than from a number (or -∞) up to ∞, or from -∞ up to a number".into(),
        ));
    }
    // the whole interval, with far points standing in for the infinite ends
    let (lo, hi) = (fa.unwrap_or(-FAR), fb.unwrap_or(FAR));
    check::no_gap(&f.expr, lo, hi)?;
    // the antiderivative, checked over a finite stretch like a definite integral
    let (slo, shi) = match (fa, fb) {
        (Some(_), None) => (stretch_end(a, 0)?, stretch_end(a, STRETCH)?),
        (None, Some(_)) => (stretch_end(b, -STRETCH)?, stretch_end(b, 0)?),
        _ => (Expr::int(-STRETCH), Expr::int(STRETCH)),
    };
    let (w, _) = definite(f, &slo, &shi)?;
    let mut ends = Vec::new();
    // F at each end: a limit at an infinite one, the value at a finite one
    let mut at_end = |p: &Point| -> Result<Option<Limit>, Error> {
        let l = match p {
            Point::At(e) => Some(Limit::Value(crate::value_at(&w.result, e)?)),
            // a limit the rules cannot find (an oscillation among them) is an error: no
            // claim is made about the integral
            _ => Some(limit(&toward(&w.result, f.var, p)?, p, Side::Both)?.limit)
                .filter(|l| !matches!(l, Limit::Differ { .. })),
        };
        if let (Point::Infinity | Point::MinusInfinity, Some(l)) = (p, &l) {
            ends.push((p.clone(), l.clone()));
        }
        Ok(l)
    };
    let (upper, lower) = (at_end(b)?, at_end(a)?);
    let outcome = match (upper, lower) {
        (Some(Limit::Value(u)), Some(Limit::Value(l))) => {
            let v = simplify(&Expr::add2(u.exact, Expr::negate(l.exact)))?;
            Improper::Converges(Value::of(v)?)
        }
        (Some(Limit::Infinity), Some(Limit::Value(_) | Limit::MinusInfinity))
        | (Some(Limit::Value(_)), Some(Limit::MinusInfinity)) => Improper::Diverges(Some(true)),
        (Some(Limit::MinusInfinity), Some(Limit::Value(_) | Limit::Infinity))
        | (Some(Limit::Value(_)), Some(Limit::Infinity)) => Improper::Diverges(Some(false)),
        _ => Improper::Diverges(None),
    };
    Ok(ImproperWorked { antiderivative: w, ends, outcome })
}

/// The antiderivative as a function near the infinite end `p`: `|u|` of a linear `u`
/// (`ln|x|`) is `u` or `-u` there, as the sign of `u` is fixed far out.
fn toward(e: &Expr, var: char, p: &Point) -> Result<Function, Error> {
    let positive = matches!(p, Point::Infinity);
    Ok(Function { expr: simplify(&unsigned(e, positive))?, var })
}

fn unsigned(e: &Expr, positive: bool) -> Expr {
    match e {
        Expr::Fn(Func::Abs, u) => match u.as_linear() {
            Some((a, _)) if !a.is_zero() && (a.is_negative() != positive) => (**u).clone(),
            Some((a, _)) if !a.is_zero() => Expr::negate((**u).clone()),
            _ => e.clone(),
        },
        Expr::Fn(f, u) => Expr::func(*f, unsigned(u, positive)),
        Expr::Pow(b, n) => Expr::pow(unsigned(b, positive), unsigned(n, positive)),
        Expr::Add(v) => Expr::Add(v.iter().map(|t| unsigned(t, positive)).collect()),
        Expr::Mul(v) => Expr::Mul(v.iter().map(|t| unsigned(t, positive)).collect()),
        other => other.clone(),
    }
}

/// The finite end `p` moved by `by`.
fn stretch_end(p: &Point, by: i64) -> Result<Expr, Error> {
    match p {
        Point::At(e) => simplify(&Expr::add2(e.clone(), Expr::int(by))),
        _ => Err(Error::CheckFailed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Function {
        crate::read(text, 'x').expect("reads")
    }

    fn at(text: &str) -> Point {
        Point::At(crate::read_number(text).expect("a number"))
    }

    fn value(w: &ImproperWorked) -> String {
        match &w.outcome {
            Improper::Converges(v) => v.display(),
            other => panic!("diverges: {other:?}"),
        }
    }

    #[test]
    fn convergent_integrals_to_infinity_are_exact() {
        let w = improper(&f("1/x^2"), &at("1"), &Point::Infinity).expect("converges");
        assert_eq!(value(&w), "1");
        assert_eq!(w.antiderivative.shown, "-1/x");
        let w = improper(&f("e^(-x)"), &at("0"), &Point::Infinity).expect("converges");
        assert_eq!(value(&w), "1");
        let w = improper(&f("e^x"), &Point::MinusInfinity, &at("0")).expect("converges");
        assert_eq!(value(&w), "1");
        let w = improper(&f("1/x^3"), &at("2"), &Point::Infinity).expect("converges");
        assert_eq!(value(&w), "1/8 ≈ 0.125");
        let w = improper(&f("x*e^(-x)"), &at("0"), &Point::Infinity).expect("converges");
        assert_eq!(value(&w), "1");
    }

    #[test]
    fn divergent_ones_say_so() {
        let w = improper(&f("1/x"), &at("1"), &Point::Infinity).expect("worked");
        assert_eq!(w.outcome, Improper::Diverges(Some(true)));
        assert_eq!(w.ends, vec![(Point::Infinity, Limit::Infinity)]);
        let w = improper(&f("x"), &at("0"), &Point::Infinity).expect("worked");
        assert_eq!(w.outcome, Improper::Diverges(Some(true)));
        let w = improper(&f("-1"), &at("0"), &Point::Infinity).expect("worked");
        assert_eq!(w.outcome, Improper::Diverges(Some(false)));
        let w = improper(&f("x"), &Point::MinusInfinity, &Point::Infinity).expect("worked");
        assert_eq!(w.outcome, Improper::Diverges(None));
        // sin(x) has no limit at ∞, which the limit rules do not tell from one they
        // cannot find: no claim
        let e = improper(&f("cos(x)"), &at("0"), &Point::Infinity).expect_err("no limit found");
        assert!(matches!(e, Error::Unsupported(_)), "{e:?}");
    }

    #[test]
    fn a_pole_on_the_interval_is_not_defined() {
        let e = improper(&f("1/x^2"), &at("0"), &Point::Infinity).expect_err("a pole at 0");
        assert!(matches!(e, Error::NotDefined { .. }), "{e:?}");
        let e = improper(&f("1/(x-500)^2"), &at("0"), &Point::Infinity).expect_err("a pole at 500");
        assert!(matches!(e, Error::NotDefined { .. }), "{e:?}");
        let e = improper(&f("1/x^2"), &Point::Infinity, &at("1")).expect_err("decreasing bounds");
        assert!(matches!(e, Error::Unsupported(_)), "{e:?}");
    }
}
