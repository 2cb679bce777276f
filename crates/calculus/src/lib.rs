//! Single-variable calculus for the offline tutor, knowing nothing of agents.
//!
//! What does what, exactly:
//! - **exmex is the parser of record.** [`read`] and [`read_number`] tokenize the
//!   student's text (unicode `²` `·` `−` `π` `√` to ASCII, `pi`, `e`, `ln`/`log`,
//!   scientific notation `1e9`) and write the tokens out as an explicit operator string
//!   (`explicit.rs`: `3x^2 sin x` → `3*x^(2)*sin(x)`; never from our tree). exmex parses
//!   that string, and its evaluation is compared with our tree's own evaluation at
//!   several points (points where either is not finite are skipped; enough must remain).
//!   If exmex cannot parse it or the two disagree, the answer is [`Error::Misread`]
//!   with the string exmex was given, never a result.
//! - **Our code** parses the same tokens into a tree (implicit multiplication,
//!   `sin 2x` = `sin(2x)`, `sin^2(x)` = `sin(x)^2`), simplifies it to one readable form,
//!   differentiates and integrates it by named rules and records the steps. exmex's
//!   tree is flattened and not open to rewriting, so the symbolic steps are ours.
//! - **exmex then checks every result** numerically before it is returned: a
//!   derivative (and a derivative's value at a point) against exmex's own partial
//!   derivative of the original; an antiderivative by exmex's partial derivative of it,
//!   which must equal the original; a definite integral likewise inside the interval,
//!   once the original is found defined on the whole closed interval. A disagreement is
//!   [`Error::CheckFailed`], never a result; a function or derivative undefined where
//!   it is asked for (`ln(x)` at `-2`, a pole inside an interval) is
//!   [`Error::NotDefined`].
//!
//! Derivatives go up to [`MAX_ORDER`]. Integration knows a short list of rules and two
//! techniques, substitution and by parts (see `integrate.rs`); anything else is
//! [`Error::NoRule`]. Limits ([`limit`], `limit.rs`) at a number (both sides or one) or
//! at `±∞`, each side checked numerically by exmex near the point.

mod check;
mod diff;
mod explicit;
mod expr;
mod improper;
mod integrate;
mod limit;
mod parse;
mod rational;
mod show;
mod simplify;

pub use expr::{Constant, Expr, Func};
pub use improper::{Improper, ImproperWorked, improper};
pub use limit::{Limit, LimitWorked, Point, Side, limit};
pub use parse::{is_expression, leading_expression, math_word as is_math_word};
pub use rational::Q;

/// Why a computation gave no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("could not read the expression: {0}")]
    Syntax(String),
    #[error("more than one variable ({0})")]
    MultipleVariables(String),
    #[error("not supported: {0}")]
    Unsupported(String),
    #[error("no integration rule for {0}")]
    NoRule(String),
    #[error("the numbers grow too large")]
    Overflow,
    #[error("the result did not pass the numerical check")]
    CheckFailed,
    /// exmex could not parse the student's text (written out as this string), or read
    /// it differently from our parser.
    #[error("the check parser did not confirm the reading {0}")]
    Misread(String),
    /// The `order`-th derivative (0: the function itself) is undefined at the point `at`
    /// (as shown), because `why` (`ln needs a positive argument`; empty when its value
    /// is simply not a finite real number).
    #[error("not defined at {at}")]
    NotDefined { order: usize, at: String, why: String },
}

/// A function of one variable, read and simplified.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub expr: Expr,
    /// The variable's letter (`x` when the expression has none).
    pub var: char,
}

impl Function {
    /// The readable form, e.g. `3x^2·sin(x)`.
    pub fn shown(&self) -> String {
        show::human(&self.expr)
    }
}

/// Reads `text` as a function of one variable; `default_var` when it has none.
pub fn read(text: &str, default_var: char) -> Result<Function, Error> {
    let (raw, tried) = parse_of_record(text)?;
    let mut vars = Vec::new();
    parse::variables(&raw, &mut vars);
    if vars.len() > 1 {
        let names: Vec<String> = vars.iter().map(char::to_string).collect();
        return Err(Error::MultipleVariables(names.join(", ")));
    }
    check_size(&raw, MAX_INPUT)?;
    let expr = simplify::simplify(&raw)?;
    check::reading(&tried, &expr)?;
    Ok(Function { expr, var: vars.first().copied().unwrap_or(default_var) })
}

/// Our tree of `text` and the explicit string exmex is to parse, both from its tokens.
fn parse_of_record(text: &str) -> Result<(Expr, String), Error> {
    let toks = parse::tokenize(text)?;
    let tried = explicit::explicit(&toks);
    let raw = parse::parse_tokens(toks)?;
    Ok((raw, tried.ok_or_else(|| Error::Misread(text.trim().to_string()))?))
}

/// Largest (nodes, depth) read from a student.
const MAX_INPUT: (usize, usize) = (300, 24);
/// Largest (nodes, depth) of a result.
const MAX_RESULT: (usize, usize) = (3_000, 40);

fn check_size(e: &Expr, (nodes, depth): (usize, usize)) -> Result<(), Error> {
    let (n, d) = e.size();
    if n > nodes || d > depth {
        return Err(Error::Unsupported("expressions this large".into()));
    }
    Ok(())
}

/// A computed result with its steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Worked {
    pub result: Expr,
    /// The readable result (an antiderivative without `+ C`).
    pub shown: String,
    /// One line per rule applied, in order.
    pub steps: Vec<String>,
}

/// The highest derivative computed.
pub const MAX_ORDER: usize = 10;

/// The `order`-th derivative (1 to [`MAX_ORDER`]), checked. The steps are those of the
/// last differentiation.
pub fn derivative(f: &Function, order: usize) -> Result<Worked, Error> {
    derive(f, order).map(|(_, w)| w)
}

/// The `order`-th derivative and the one before it. Each differentiation is checked
/// against exmex's partial derivative of the one before (already checked), so exmex
/// differentiates once per order: its own repeated derivatives grow without bound.
fn derive(f: &Function, order: usize) -> Result<(Expr, Worked), Error> {
    derive_each(f, order, |_, _| Ok(()))
}

/// [`derive`], calling `each(k, e)` on the function (k = 0) and every derivative up to
/// the `order`-th, before differentiating it further.
fn derive_each(
    f: &Function,
    order: usize,
    mut each: impl FnMut(usize, &Expr) -> Result<(), Error>,
) -> Result<(Expr, Worked), Error> {
    if !(1..=MAX_ORDER).contains(&order) {
        return Err(Error::Unsupported(format!("derivatives past the {MAX_ORDER}th")));
    }
    let mut before = f.expr.clone();
    let mut e = f.expr.clone();
    let mut steps = Vec::new();
    for k in 0..order {
        each(k, &e)?;
        let mut d = diff::Deriver::new();
        before = e;
        e = d.d(&before)?;
        check_size(&e, MAX_RESULT)?;
        check::derivative(&before, f.var, &e)?;
        steps = d.lines;
    }
    each(order, &e)?;
    if steps.len() > diff::MAX_STEPS {
        steps.truncate(diff::MAX_STEPS);
        steps.push("(the remaining parts use the same rules)".into());
    }
    Ok((before, Worked { shown: show::human(&e), result: e, steps }))
}

/// An antiderivative (add `+ C`), checked.
pub fn antiderivative(f: &Function) -> Result<Worked, Error> {
    let mut i = integrate::Integrator::new(f.var);
    let r = i.integrate(&f.expr)?;
    check_size(&r, MAX_RESULT)?;
    check::antiderivative(&f.expr, f.var, &r)?;
    let mut steps = i.lines;
    if steps.len() > diff::MAX_STEPS {
        steps.truncate(diff::MAX_STEPS);
        steps.push("(the remaining terms use the same rules)".into());
    }
    Ok(Worked { shown: show::human(&r), result: r, steps })
}

/// A number given as an expression without the variable (`3`, `pi/2`, `-1`).
pub fn read_number(text: &str) -> Result<Expr, Error> {
    let (raw, tried) = parse_of_record(text)?;
    let e = simplify::simplify(&raw)?;
    if e.has_var() || e.eval_const().is_none() {
        return Err(Error::Syntax("a bound or point must be a number".into()));
    }
    check::reading(&tried, &e)?;
    Ok(e)
}

/// A value: exact when it simplifies to a form without the variable, with a decimal.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub exact: Expr,
    pub shown: String,
    pub approx: f64,
}

impl Value {
    fn of(e: Expr) -> Result<Value, Error> {
        let approx = e.eval_const().ok_or(Error::CheckFailed)?;
        Ok(Value { shown: show::human(&e), exact: e, approx })
    }

    /// `9`, or `e - 1 ≈ 1.718282`.
    pub fn display(&self) -> String {
        if matches!(self.exact, Expr::Num(q) if q.is_int()) {
            return self.shown.clone();
        }
        let mut d = format!("{:.6}", self.approx);
        while d.ends_with('0') {
            d.pop();
        }
        if d.ends_with('.') {
            d.pop();
        }
        if d == "-0" {
            d = "0".into();
        }
        if d == self.shown { d } else { format!("{} ≈ {d}", self.shown) }
    }
}

/// `e` at `point` (simplified, exact where the rules allow).
pub fn value_at(e: &Expr, point: &Expr) -> Result<Value, Error> {
    Value::of(simplify::simplify(&e.subst(point))?)
}

/// The `order`-th derivative of `f` at `point` (order 0: `f` itself), checked. The
/// function and every derivative up to the `order`-th must be defined at `point`, else
/// [`Error::NotDefined`] names the first that is not.
pub fn derivative_at(f: &Function, order: usize, point: &Expr) -> Result<(Worked, Value), Error> {
    let defined = |k: usize, e: &Expr| match check::undefined_at(e, point) {
        Some(why) => Err(Error::NotDefined { order: k, at: show::human(point), why: why.into() }),
        None => Ok(()),
    };
    let (before, w) = if order == 0 {
        defined(0, &f.expr)?;
        (f.expr.clone(), Worked { result: f.expr.clone(), shown: f.shown(), steps: Vec::new() })
    } else {
        derive_each(f, order, defined)?
    };
    let v = value_at(&w.result, point)?;
    let x = point.eval_const().ok_or(Error::CheckFailed)?;
    check::value(&before, f.var, order.min(1), x, v.approx)?;
    Ok((w, v))
}

/// The definite integral from `a` to `b` by the fundamental theorem: the antiderivative,
/// `F(b) - F(a)`, checked over the whole interval ([`Error::NotDefined`] when the
/// function is undefined at a point of it: an improper integral is not computed).
pub fn definite(f: &Function, a: &Expr, b: &Expr) -> Result<(Worked, Value), Error> {
    let bounds = (a.eval_const().ok_or(Error::CheckFailed)?, b.eval_const().ok_or(Error::CheckFailed)?);
    let w = antiderivative(f)?;
    check::defined_on(&f.expr, f.var, &w.result, bounds)?;
    let diff = Expr::add2(w.result.subst(b), Expr::negate(w.result.subst(a)));
    let v = Value::of(simplify::simplify(&diff)?)?;
    check::definite(&f.expr, f.var, &w.result, bounds, v.approx)?;
    Ok((w, v))
}

/// The readable form of any expression.
pub fn show(e: &Expr) -> String {
    show::human(e)
}

#[cfg(test)]
mod technique_tests;
#[cfg(test)]
mod tests;
