//! The independent check. The student's text, written out from its tokens, is parsed
//! by exmex and must agree with our tree ([`reading`]). Every symbolic result is written out for exmex (its own parser,
//! evaluator and partial derivatives) and compared numerically before anyone sees it:
//! a derivative against exmex's partial derivative of the original, an antiderivative
//! by exmex's partial derivative of it, which must equal the original, a definite
//! integral likewise at points inside the interval, after the original is found defined
//! on the whole closed interval, and its value against Simpson's rule for the original.
//! A disagreement, or too few points where both are
//! defined, is [`Error::CheckFailed`]; a point where the function is undefined is
//! [`Error::NotDefined`].

use exmex::prelude::*;
use exmex::{Differentiate, FlatEx};

use crate::Error;
use crate::expr::{Expr, Func};
use crate::rational::Q;
use crate::show;
use crate::show::exmex;

const POINTS: [f64; 10] = [-2.3, -1.7, -0.9, -0.35, 0.3, 0.75, 1.2, 1.85, 2.6, 3.4];
/// Points that must agree (where both sides are defined).
const MIN_AGREEING: usize = 3;

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

fn agree(pairs: impl Iterator<Item = (f64, f64)>) -> Result<(), Error> {
    if agreeing(pairs)? >= MIN_AGREEING { Ok(()) } else { Err(Error::CheckFailed) }
}

/// How many pairs agree where both are defined; an error at the first that disagrees.
fn agreeing(mut pairs: impl Iterator<Item = (f64, f64)>) -> Result<usize, Error> {
    let mut n = 0;
    pairs.try_for_each(|(a, b)| {
        if a.is_finite() && b.is_finite() {
            if !close(a, b) {
                return Err(Error::CheckFailed);
            }
            n += 1;
        }
        Ok(())
    })?;
    Ok(n)
}

/// [`agree`] at [`POINTS`], and also at [`FAR_POINTS`] when too few of those are
/// defined on both sides (`sqrt(x-3)`).
fn agree_near_far(pair: impl Fn(f64) -> (f64, f64)) -> Result<(), Error> {
    let near = agreeing(POINTS.iter().map(|&x| pair(x)))?;
    if near >= MIN_AGREEING {
        return Ok(());
    }
    if near + agreeing(FAR_POINTS.iter().map(|&x| pair(x)))? >= MIN_AGREEING {
        Ok(())
    } else {
        Err(Error::CheckFailed)
    }
}

/// Stack for exmex's partial derivatives: they recurse deeply (several megabytes for a
/// sixth derivative of `x^3·sin(x)` in a debug build), more than a blocking thread has.
const EXMEX_STACK: usize = 64 << 20;

/// Runs `f` on a thread of its own with [`EXMEX_STACK`] (only the pages used are taken).
/// A panic inside exmex ends that thread only and counts as a failed check.
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
        agree_near_far(|x| (at(&theirs, x), at(&ours, x)))
    })
}

/// `e` with every `abs(u)` written as `sqrt(u^2)`: the same function, which exmex can
/// differentiate (it has no rule for `abs`).
fn without_abs(e: &Expr) -> Expr {
    match e {
        Expr::Fn(Func::Abs, u) => Expr::pow(Expr::pow(without_abs(u), Expr::int(2)), Expr::q(Q::HALF)),
        Expr::Fn(f, u) => Expr::func(*f, without_abs(u)),
        Expr::Pow(b, x) => Expr::pow(without_abs(b), without_abs(x)),
        Expr::Add(v) => Expr::Add(v.iter().map(without_abs).collect()),
        Expr::Mul(v) => Expr::Mul(v.iter().map(without_abs).collect()),
        e => e.clone(),
    }
}

/// `antiderivative` has derivative `original`: exmex's partial derivative of the claimed
/// antiderivative equals the original at the `points` where both are defined (no
/// quadrature, so a nearby pole does not matter).
fn derivative_matches(
    original: &Expr,
    var: char,
    antiderivative: &Expr,
    points: Option<Vec<f64>>,
) -> Result<(), Error> {
    with_stack(move || {
        let f = compile(original, var)?;
        let slope = compile(&without_abs(antiderivative), var)?.partial(0).map_err(|_| Error::CheckFailed)?;
        let pair = |x| (at(&slope, x), at(&f, x));
        match points {
            Some(points) => agree(points.into_iter().map(pair)),
            None => agree_near_far(pair),
        }
    })
}

/// Points farther out, for functions defined at too few of [`POINTS`] (`sqrt(x-3)`).
const FAR_POINTS: [f64; 6] = [-31.3, -9.7, -5.3, 5.3, 9.7, 31.3];

/// `antiderivative` has derivative `original` (checked at [`POINTS`], and farther out
/// when too few of them are defined).
pub(crate) fn antiderivative(original: &Expr, var: char, antiderivative: &Expr) -> Result<(), Error> {
    derivative_matches(original, var, antiderivative, None)
}

/// Points sampled on a closed interval for the integrand being defined.
const SAMPLES: usize = 4096;
/// Points inside an interval where the antiderivative's derivative is compared.
const INSIDE: usize = 24;

/// `original` and its antiderivative are defined on the whole closed interval between
/// `a` and `b`: no pole or root of a negative number where a linear base vanishes or
/// turns negative, no `ln` of a number that is not positive, and both finite at every
/// sampled point. Else [`Error::NotDefined`] at the first such point found.
pub(crate) fn defined_on(
    original: &Expr,
    var: char,
    antiderivative: &Expr,
    (a, b): (f64, f64),
) -> Result<(), Error> {
    if !(a.is_finite() && b.is_finite()) {
        return Err(Error::CheckFailed);
    }
    let (lo, hi) = (a.min(b), a.max(b));
    if let Some((point, why)) = gap(original, lo, hi) {
        return Err(Error::NotDefined { order: 0, at: point, why: why.into() });
    }
    let f = compile(original, var)?;
    let big_f = compile(antiderivative, var)?;
    let h = (hi - lo) / SAMPLES as f64;
    for i in 0..=SAMPLES {
        let x = if i == SAMPLES { hi } else { lo + i as f64 * h };
        let (y, big_y) = (at(&f, x), at(&big_f, x));
        if y.is_nan() || big_y.is_nan() {
            return Err(Error::NotDefined { order: 0, at: number(x), why: String::new() });
        }
        // an infinite value where no pole was found: the numbers overflow
        if !(y.is_finite() && big_y.is_finite()) {
            return Err(Error::Overflow);
        }
    }
    Ok(())
}

/// No point of `[lo, hi]` (far points standing in for infinite ends) where `original` is
/// undefined because a linear base vanishes under a negative power, turns negative under
/// a fractional one, or a linear `ln` argument is not positive ([`Error::NotDefined`]).
pub(crate) fn no_gap(original: &Expr, lo: f64, hi: f64) -> Result<(), Error> {
    match gap(original, lo.min(hi), lo.max(hi)) {
        Some((point, why)) => Err(Error::NotDefined { order: 0, at: point, why: why.into() }),
        None => Ok(()),
    }
}

/// `value` is the integral of `original` from `a` to `b`, where both are defined (see
/// [`defined_on`]): the antiderivative's derivative is `original` at points inside the
/// interval, and `value` is exmex's `F(b) - F(a)`.
pub(crate) fn definite(
    original: &Expr,
    var: char,
    antiderivative: &Expr,
    (a, b): (f64, f64),
    value: f64,
) -> Result<(), Error> {
    if !(a.is_finite() && b.is_finite()) {
        return Err(Error::CheckFailed);
    }
    if a == b {
        return if value == 0.0 { Ok(()) } else { Err(Error::CheckFailed) };
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let step = (hi - lo) / (INSIDE + 1) as f64;
    derivative_matches(
        original,
        var,
        antiderivative,
        Some((1..=INSIDE).map(|i| lo + i as f64 * step).collect()),
    )?;
    let big_f = compile(antiderivative, var)?;
    let (fa, fb) = (at(&big_f, a), at(&big_f, b));
    let scale = 1f64.max(fa.abs()).max(fb.abs());
    if ((fb - fa) - value).abs() > 1e-9 * scale {
        return Err(Error::CheckFailed);
    }
    quadrature(&compile(original, var)?, (a, b), value)
}

/// Intervals of the coarser Simpson sum (the finer one has twice as many).
const SIMPSON: usize = 2048;

/// Composite Simpson's rule for `f` (or `|f|`) from `a` to `b` with `n` (even) intervals.
fn simpson(f: &FlatEx<f64>, (a, b): (f64, f64), n: usize, abs: bool) -> f64 {
    let h = (b - a) / n as f64;
    let y = |i: usize| {
        let v = at(f, if i == n { b } else { a + i as f64 * h });
        if abs { v.abs() } else { v }
    };
    let inner: f64 = (1..n).map(|i| if i % 2 == 1 { 4.0 * y(i) } else { 2.0 * y(i) }).sum();
    (y(0) + inner + y(n)) * h / 3.0
}

/// `value` agrees with Simpson's rule for the integrand itself (no antiderivative
/// involved): within the two sums' own difference (a rough error estimate) plus a
/// small share of `∫|f|`.
fn quadrature(f: &FlatEx<f64>, bounds: (f64, f64), value: f64) -> Result<(), Error> {
    let coarse = simpson(f, bounds, SIMPSON, false);
    let fine = simpson(f, bounds, 2 * SIMPSON, false);
    let scale = 1f64.max(simpson(f, bounds, SIMPSON, true).abs());
    let ok = (fine - value).abs() <= 1e-7 * scale + 4.0 * (fine - coarse).abs();
    if ok && fine.is_finite() { Ok(()) } else { Err(Error::CheckFailed) }
}

/// A point shown plainly (`0`, `-2.5`).
fn number(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// A point of `[lo, hi]` where `e` is undefined because a linear base vanishes under a
/// negative power or turns negative under a fractional one, or a linear `ln` argument
/// is not positive, with the reason.
fn gap(e: &Expr, lo: f64, hi: f64) -> Option<(String, &'static str)> {
    match e {
        Expr::Pow(base, n) => {
            let inner = gap(base, lo, hi).or_else(|| gap(n, lo, hi));
            let (Some((a, c)), Some(n)) = (base.as_linear(), n.as_num()) else { return inner };
            let root = c.negated().checked_div(a)?;
            let r = root.to_f64();
            if n.is_negative() && (lo..=hi).contains(&r) {
                return Some((show::human(&Expr::q(root)), "division by zero"));
            }
            if !n.is_int() {
                let below = [lo, hi].into_iter().find(|x| a.to_f64() * x + c.to_f64() < 0.0);
                if let Some(x) = below {
                    return Some((number(x), reason(n)));
                }
            }
            inner
        }
        Expr::Fn(Func::Ln, u) => {
            if let Some((a, c)) = u.as_linear() {
                let bad = [lo, hi].into_iter().find(|x| a.to_f64() * x + c.to_f64() <= 0.0);
                if let Some(x) = bad {
                    return Some((number(x), "ln needs a positive argument"));
                }
            }
            gap(u, lo, hi)
        }
        Expr::Fn(_, u) => gap(u, lo, hi),
        Expr::Add(v) | Expr::Mul(v) => v.iter().find_map(|t| gap(t, lo, hi)),
        _ => None,
    }
}

/// Why a fractional power of a negative number is undefined.
fn reason(n: Q) -> &'static str {
    if n.denom() == 2 {
        "sqrt needs a non-negative argument"
    } else {
        "I take fractional powers of non-negative numbers only"
    }
}

/// Why `e` is undefined at `x` (a constant), naming the first rule it breaks: a
/// logarithm of a number that is not positive, a fractional power of a negative
/// number, a division by zero. `None` claims nothing: a value that is still not finite
/// (an overflow) fails later without a reason invented here.
pub(crate) fn undefined_at(e: &Expr, x: &Expr) -> Option<&'static str> {
    let value = |u: &Expr| u.subst(x).eval_const();
    let inner = match e {
        Expr::Pow(b, n) => undefined_at(b, x).or_else(|| undefined_at(n, x)),
        Expr::Fn(_, u) => undefined_at(u, x),
        Expr::Add(v) | Expr::Mul(v) => v.iter().find_map(|t| undefined_at(t, x)),
        _ => None,
    };
    if inner.is_some() {
        return inner;
    }
    match e {
        Expr::Fn(Func::Ln, u) if value(u).is_some_and(|v| v <= 0.0) => Some("ln needs a positive argument"),
        Expr::Pow(b, n) => match (value(b), n.as_num()) {
            (Some(v), Some(n)) if v < 0.0 && !n.is_int() => Some(reason(n)),
            (Some(v), Some(n)) if v == 0.0 && n.is_negative() => Some("division by zero"),
            _ => None,
        },
        _ => None,
    }
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

/// What a limit is claimed to be, for [`limit`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Claim {
    Value(f64),
    /// `+∞` (`true`) or `-∞`.
    Infinite(bool),
}

/// A limit of `original` checked by exmex's evaluation near the point, on one side:
/// `point` (`None`: infinity) approached from `dir` (`1.0`: from the right, or toward
/// `+∞`). A value must be matched within `1e-3` (relative) at one of the points
/// `10^-3 … 10^-7` away (`10^3 … 10^7` out; nearer points can lose digits to
/// cancellation, so the best of them counts); an infinite limit must keep its sign and
/// grow at the four nearest. Fewer than two points where the function is defined fail.
pub(crate) fn limit(
    original: &Expr,
    var: char,
    point: Option<f64>,
    dir: f64,
    claim: Claim,
) -> Result<(), Error> {
    let f = compile(original, var)?;
    let xs: Vec<f64> = (2..=7)
        .map(|k| {
            let h = 10f64.powi(-k);
            match point {
                Some(a) => a + dir * h * 1f64.max(a.abs()),
                None => dir / h,
            }
        })
        .collect();
    let ys: Vec<f64> = xs.iter().map(|&x| at(&f, x)).filter(|y| !y.is_nan()).collect();
    if ys.len() < 2 {
        return Err(Error::CheckFailed);
    }
    let ok = match claim {
        // the farthest point (10^-2 away) alone never confirms a value
        Claim::Value(c) => xs[1..]
            .iter()
            .map(|&x| at(&f, x))
            .filter(|y| y.is_finite())
            .any(|y| (y - c).abs() <= 1e-3 * 1f64.max(c.abs())),
        Claim::Infinite(positive) => {
            let near = &ys[ys.len().saturating_sub(4)..];
            let signed = near.iter().all(|y| (*y > 0.0) == positive);
            let growing = near.windows(2).all(|w| w[1].abs() >= w[0].abs());
            signed && growing && ys.last().is_some_and(|y| y.abs() > 10.0)
        }
    };
    if ok { Ok(()) } else { Err(Error::CheckFailed) }
}
