//! The independent check. Every symbolic result is written out for exmex (its own parser,
//! evaluator and partial derivatives) and compared numerically before anyone sees it:
//! a derivative against exmex's partial derivative of the original, an antiderivative
//! against Simpson's rule on exmex's evaluation of the original, a definite integral
//! likewise over the whole interval, piece by piece. A disagreement, or too few points
//! where both are defined, is [`Error::CheckFailed`].

use exmex::prelude::*;
use exmex::{Differentiate, FlatEx};

use crate::Error;
use crate::expr::Expr;
use crate::show::exmex;

const POINTS: [f64; 10] = [-2.3, -1.7, -0.9, -0.35, 0.3, 0.75, 1.2, 1.85, 2.6, 3.4];
/// Points that must agree (where both sides are defined).
const MIN_AGREEING: usize = 3;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * 1f64.max(a.abs()).max(b.abs())
}

/// `e` as an exmex expression in `var` (a zero term keeps the variable when `e` has none).
fn compile(e: &Expr, var: char) -> Result<FlatEx<f64>, Error> {
    exmex::parse::<f64>(&format!("{}+0*{var}", exmex(e))).map_err(|_| Error::CheckFailed)
}

fn at(f: &FlatEx<f64>, x: f64) -> f64 {
    f.eval(&[x]).unwrap_or(f64::NAN)
}

fn agree(mut pairs: impl Iterator<Item = (f64, f64)>) -> Result<(), Error> {
    let mut agreeing = 0;
    pairs.try_for_each(|(a, b)| {
        if a.is_finite() && b.is_finite() {
            if !close(a, b) {
                return Err(Error::CheckFailed);
            }
            agreeing += 1;
        }
        Ok(())
    })?;
    if agreeing >= MIN_AGREEING { Ok(()) } else { Err(Error::CheckFailed) }
}

/// `result` is the `order`-th derivative of `original`.
pub(crate) fn derivative(original: &Expr, var: char, order: usize, result: &Expr) -> Result<(), Error> {
    let theirs = compile(original, var)?.partial_nth(0, order).map_err(|_| Error::CheckFailed)?;
    let ours = compile(result, var)?;
    agree(POINTS.iter().map(|&x| (at(&theirs, x), at(&ours, x))))
}

fn simpson(f: &FlatEx<f64>, a: f64, b: f64, panels: usize) -> f64 {
    let h = (b - a) / panels as f64;
    let mut s = at(f, a) + at(f, b);
    for i in 1..panels {
        s += at(f, a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0
}

/// `antiderivative` has derivative `original`: over short steps from each point, the
/// change in the antiderivative matches Simpson's rule on the original.
pub(crate) fn antiderivative(original: &Expr, var: char, antiderivative: &Expr) -> Result<(), Error> {
    let f = compile(original, var)?;
    let big_f = compile(antiderivative, var)?;
    agree(POINTS.iter().map(|&x| (at(&big_f, x + 0.25) - at(&big_f, x), simpson(&f, x, x + 0.25, 32))))
}

/// `value` is the integral of `original` from `a` to `b`, and the antiderivative is
/// continuous there: every piece of the interval agrees, and `original` is defined at
/// every point sampled.
pub(crate) fn definite(
    original: &Expr,
    var: char,
    antiderivative: &Expr,
    (a, b): (f64, f64),
    value: f64,
) -> Result<(), Error> {
    if !(a.is_finite() && b.is_finite()) || (b - a).abs() > 1e4 {
        return Err(Error::CheckFailed);
    }
    if a == b {
        return if value == 0.0 { Ok(()) } else { Err(Error::CheckFailed) };
    }
    let f = compile(original, var)?;
    let big_f = compile(antiderivative, var)?;
    const PIECES: usize = 256;
    let h = (b - a) / PIECES as f64;
    let mut total = 0.0;
    for i in 0..PIECES {
        let (x0, x1) = (a + i as f64 * h, if i + 1 == PIECES { b } else { a + (i + 1) as f64 * h });
        total += piece(&f, &big_f, x0, x1, 0)?;
    }
    if close(total, value) { Ok(()) } else { Err(Error::CheckFailed) }
}

/// Simpson's rule on `[x0, x1]` agrees with the change in the antiderivative, halving the
/// piece where it does not (an infinite slope at an end, like sqrt(x) at 0) up to a
/// depth; a pole or a jump never agrees.
fn piece(f: &FlatEx<f64>, big_f: &FlatEx<f64>, x0: f64, x1: f64, depth: u32) -> Result<f64, Error> {
    let s = simpson(f, x0, x1, 8);
    let change = at(big_f, x1) - at(big_f, x0);
    if !(s.is_finite() && change.is_finite()) {
        return Err(Error::CheckFailed);
    }
    if (s - change).abs() <= 1e-9 * 1f64.max(s.abs()) {
        return Ok(change);
    }
    if depth >= 16 {
        return Err(Error::CheckFailed);
    }
    let mid = (x0 + x1) / 2.0;
    Ok(piece(f, big_f, x0, mid, depth + 1)? + piece(f, big_f, mid, x1, depth + 1)?)
}

/// `value` is the `order`-th derivative of `original` at `x` (order 0: its value), by exmex.
pub(crate) fn value(original: &Expr, var: char, order: usize, x: f64, value: f64) -> Result<(), Error> {
    let mut f = compile(original, var)?;
    if order > 0 {
        f = f.partial_nth(0, order).map_err(|_| Error::CheckFailed)?;
    }
    let v = at(&f, x);
    if v.is_finite() && close(v, value) { Ok(()) } else { Err(Error::CheckFailed) }
}
