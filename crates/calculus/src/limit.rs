//! Limits of a function of one variable at a number (from both sides or one) or at
//! `±∞`, exact where the rules allow (`1`, `1/2`, `e`, `∞`). First the standard limits a
//! course names ([`STANDARD`]: `sin(x)/x → 1` at 0, `(1+1/x)^x → e` at infinity, …);
//! otherwise each side is worked out by the rules of `limit/rules.rs` (substitution,
//! factor and cancel, leading terms at infinity, L'Hôpital, `0·∞`, `e^(g·ln f)`). When
//! the sides differ the limit does not exist and both are given; where the function is
//! defined on one side only (`ln(x)` at 0) that side's limit is the answer, with a note.
//! **Every side's result is checked numerically** (`check::limit`: exmex evaluates the
//! original at points approaching from that side) before it is returned.

use crate::check::{self, Claim};
use crate::expr::Expr;
use crate::simplify::simplify;
use crate::{Error, Function, Value, read, show};

mod rules;
use rules::{L, Limiter};

/// Where the variable goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Point {
    At(Expr),
    Infinity,
    MinusInfinity,
}

/// From which side a number is approached (ignored at infinity).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Both,
    Left,
    Right,
}

/// A limit's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Limit {
    Value(Value),
    Infinity,
    MinusInfinity,
    /// The one-sided limits differ, so the (two-sided) limit does not exist.
    Differ {
        left: Box<Limit>,
        right: Box<Limit>,
    },
}

impl Limit {
    /// `1`, `e ≈ 2.718282`, `∞`, or `does not exist (from the left -∞, from the right ∞)`.
    pub fn display(&self) -> String {
        match self {
            Limit::Value(v) => v.display(),
            Limit::Infinity => "∞".into(),
            Limit::MinusInfinity => "-∞".into(),
            Limit::Differ { left, right } => format!(
                "does not exist (from the left it is {}, from the right {})",
                left.display(),
                right.display()
            ),
        }
    }
}

/// A limit with its steps, and a note when only one side exists.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitWorked {
    pub limit: Limit,
    pub steps: Vec<String>,
    pub note: Option<String>,
}

/// The standard limits: the expression in `x`, the point (`None`: at `±∞`), the value,
/// and why.
const STANDARD: [(&str, Option<&str>, &str, &str); 9] = [
    ("sin(x)/x", Some("0"), "1", "the standard limit sin(x)/x → 1 as x → 0"),
    ("tan(x)/x", Some("0"), "1", "the standard limit tan(x)/x → 1 as x → 0"),
    ("(1-cos(x))/x", Some("0"), "0", "the standard limit (1 - cos(x))/x → 0 as x → 0"),
    ("(1-cos(x))/x^2", Some("0"), "1/2", "the standard limit (1 - cos(x))/x^2 → 1/2 as x → 0"),
    ("(e^x-1)/x", Some("0"), "1", "the standard limit (e^x - 1)/x → 1 as x → 0"),
    ("ln(1+x)/x", Some("0"), "1", "the standard limit ln(1 + x)/x → 1 as x → 0"),
    ("(1+x)^(1/x)", Some("0"), "e", "the standard limit (1 + x)^(1/x) → e as x → 0"),
    ("(1+1/x)^x", None, "e", "the standard limit (1 + 1/x)^x → e as x → ±∞ (the definition of e)"),
    ("sin(x)/x", None, "0", "squeeze theorem: -1/|x| ≤ sin(x)/x ≤ 1/|x|, and 1/|x| → 0 as x → ±∞"),
];

/// The standard limit `f` is at `at`, if it is one.
fn standard(f: &Function, at: Option<&Expr>) -> Result<Option<(Expr, String)>, Error> {
    for (text, point, value, why) in STANDARD {
        let here = match (point, at) {
            (None, None) => true,
            (Some(p), Some(a)) => crate::read_number(p)? == *a,
            _ => false,
        };
        if here && read(&text.replace('x', &f.var.to_string()), f.var)?.expr == f.expr {
            return Ok(Some((crate::read_number(value)?, why.replace('x', &f.var.to_string()))));
        }
    }
    Ok(None)
}

fn one(l: &L) -> Result<Option<Limit>, Error> {
    Ok(match l {
        L::Fin(c) => Some(Limit::Value(Value::of(c.clone())?)),
        L::Inf(true) => Some(Limit::Infinity),
        L::Inf(false) => Some(Limit::MinusInfinity),
        L::Undefined => None,
    })
}

/// The limit of `f` as its variable goes `to` a point, from `side`, checked.
pub fn limit(f: &Function, to: &Point, side: Side) -> Result<LimitWorked, Error> {
    let at = match to {
        Point::At(a) => Some(simplify(a)?),
        _ => None,
    };
    let at_f = at.as_ref().map(|a| a.eval_const().ok_or(Error::CheckFailed)).transpose()?;
    let dirs: &[i8] = match (to, side) {
        (Point::Infinity, _) | (Point::At(_), Side::Right) => &[1],
        (Point::MinusInfinity, _) | (Point::At(_), Side::Left) => &[-1],
        (Point::At(_), Side::Both) => &[1, -1],
    };
    let mut steps = Vec::new();
    let mut results = Vec::new();
    if let Some((value, why)) = standard(f, at.as_ref())? {
        steps.push(why);
        results = dirs.iter().map(|_| L::Fin(value.clone())).collect();
    } else {
        for &dir in dirs {
            let mut l = Limiter::new(at.clone(), dir, f.var);
            let r = l.lim(&f.expr, 0)?;
            let differ = results.first().is_some_and(|first| *first != r && *first != L::Undefined);
            if differ && r != L::Undefined && !(steps.is_empty() && l.lines.is_empty()) {
                steps.insert(0, "from the right:".into());
                steps.push("from the left:".into());
                steps.extend(l.lines);
            } else if results.is_empty() {
                steps = l.lines;
            }
            results.push(r);
        }
    }
    for (&dir, r) in dirs.iter().zip(&results) {
        let claim = match r {
            L::Fin(c) => Claim::Value(c.eval_const().ok_or(Error::CheckFailed)?),
            L::Inf(s) => Claim::Infinite(*s),
            L::Undefined => continue,
        };
        check::limit(&f.expr, f.var, at_f, f64::from(dir), claim)?;
    }
    let shown_at = at.as_ref().map_or_else(|| "∞".to_string(), show::human);
    let nowhere = || Error::NotDefined {
        order: 0,
        at: shown_at.clone(),
        why: "the function is not defined beside that point".into(),
    };
    let only = |side: &str| {
        Some(format!(
            "{} is defined only to the {side} of {shown_at}, so this is the limit from the {side}",
            f.shown()
        ))
    };
    let (limit, note) = match results.as_slice() {
        [r] => (one(r)?.ok_or_else(nowhere)?, None),
        [r, l] => match (one(r)?, one(l)?) {
            (Some(r), Some(l)) if r == l => (r, None),
            (Some(r), Some(l)) => (Limit::Differ { left: Box::new(l), right: Box::new(r) }, None),
            (Some(r), None) => (r, only("right")),
            (None, Some(l)) => (l, only("left")),
            (None, None) => return Err(nowhere()),
        },
        _ => return Err(Error::CheckFailed),
    };
    if steps.is_empty()
        && let (Some(a), Limit::Value(v)) = (&at, &limit)
    {
        steps.push(format!(
            "substitution: {} is continuous at {} = {}, so the limit is its value there, {}",
            f.shown(),
            f.var,
            show::human(a),
            v.display()
        ));
    }
    Ok(LimitWorked { limit, steps, note })
}
