//! The independent check. The student's text, written out from its tokens, is parsed
//! by exmex and must agree with our tree ([`reading`]). Every symbolic result is written out for exmex (its own parser,
//! evaluator and partial derivatives) and compared numerically before anyone sees it:
//! a derivative against exmex's partial derivative of the original, an antiderivative
//! against Simpson's rule on exmex's evaluation of the original, a definite integral
//! likewise over the whole interval, piece by piece. A disagreement, or too few points
//! where both are defined, is [`Error::CheckFailed`].

use exmex::prelude::*;
use exmex::{Differentiate, FlatEx};

use crate::Error;
use crate::expr::Expr;
use crate::rational::Q;
use crate::show::exmex;

const POINTS: [f64; 10] = [-2.3, -1.7, -0.9, -0.35, 0.3, 0.75, 1.2, 1.85, 2.6, 3.4];
/// Points that must agree (where both sides are defined).
const MIN_AGREEING: usize = 3;

/// Widest interval a definite integral is checked over.
pub(crate) const MAX_WIDTH: f64 = 1e4;

/// Points (in tenths) where a reading is compared; the far ones only when too few of
/// the near ones are defined on both sides (`ln(x-20)`).
const READ_NEAR: [i64; 16] = [-113, -61, -37, -23, -17, -9, -3, 3, 7, 12, 18, 26, 34, 53, 79, 127];
const READ_FAR: [i64; 8] = [-3131, -973, -317, -253, 253, 317, 973, 3131];

/// exmex's parse of `tried` (the student's text written out from its tokens) agrees
/// with our tree `ours`, evaluated by our own code, at enough points: [`Error::Misread`]
/// when exmex cannot parse it or disagrees, `Unsupported` when too few points are
/// defined on both sides to tell.
pub(crate) fn reading(tried: &str, ours: &Expr) -> Result<(), Error> {
    let misread = || Error::Misread(tried.to_string());
    let theirs = exmex::parse::<f64>(tried).map_err(|_| misread())?;
    let n = theirs.var_names().len();
    if n > 1 {
        return Err(misread());
    }
    let pair = |tenths: i64| {
        let x = Q::new(i128::from(tenths), 10).unwrap_or(Q::ZERO);
        let mine = ours.subst(&Expr::Num(x)).eval_const().unwrap_or(f64::NAN);
        (theirs.eval(&vec![x.to_f64(); n]).unwrap_or(f64::NAN), mine)
    };
    let mut agreeing = 0;
    for (i, &t) in READ_NEAR.iter().chain(&READ_FAR).enumerate() {
        if i == READ_NEAR.len() && agreeing >= MIN_READ {
            break;
        }
        let (a, b) = pair(t);
        if a.is_finite() && b.is_finite() {
            if !close(a, b) {
                return Err(misread());
            }
            agreeing += 1;
        }
    }
    if agreeing >= MIN_READ {
        Ok(())
    } else {
        Err(Error::Unsupported(format!(
            "expressions defined at too few of the points where I check my reading ({tried})"
        )))
    }
}

/// Points that must agree for a reading.
const MIN_READ: usize = 4;

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

/// Stack for exmex's partial derivatives: they recurse deeply (several megabytes for a
/// sixth derivative of `x^3·sin(x)` in a debug build), more than a blocking thread has.
const EXMEX_STACK: usize = 64 << 20;

/// Runs `f` on a thread of its own with [`EXMEX_STACK`] (only the pages used are taken).
fn with_stack(f: impl FnOnce() -> Result<(), Error> + Send) -> Result<(), Error> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("exmex-check".into())
            .stack_size(EXMEX_STACK)
            .spawn_scoped(s, f)
            .map_err(|_| Error::CheckFailed)?
            .join()
            .unwrap_or(Err(Error::CheckFailed))
    })
}

/// `result` is the derivative of `original`.
pub(crate) fn derivative(original: &Expr, var: char, result: &Expr) -> Result<(), Error> {
    with_stack(|| {
        let theirs = compile(original, var)?.partial(0).map_err(|_| Error::CheckFailed)?;
        let ours = compile(result, var)?;
        agree(POINTS.iter().map(|&x| (at(&theirs, x), at(&ours, x))))
    })
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
    if !(a.is_finite() && b.is_finite()) || (b - a).abs() > MAX_WIDTH {
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

/// `value` is the `order`-th derivative (0 or 1) of `original` at `x`, by exmex.
pub(crate) fn value(original: &Expr, var: char, order: usize, x: f64, value: f64) -> Result<(), Error> {
    with_stack(|| {
        let mut f = compile(original, var)?;
        if order > 0 {
            f = f.partial_nth(0, order).map_err(|_| Error::CheckFailed)?;
        }
        let v = at(&f, x);
        if v.is_finite() && close(v, value) { Ok(()) } else { Err(Error::CheckFailed) }
    })
}
