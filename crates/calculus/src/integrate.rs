//! Antiderivatives by a short list of rules, and nothing else: constants, sums term by
//! term, constant multiples, powers of a linear `ax+b` (`1/(ax+b)` → `ln|ax+b|/a`),
//! `sin`, `cos` and `e^` of a linear argument, polynomials (expanded first), then for a
//! product or a composite the two techniques of `integrate/`: a substitution
//! `u = g(x)` whose derivative is the rest of the integrand up to a constant
//! (`substitute.rs`: `2x·cos(x^2)`, `x·e^(x^2)`, `sin(x)^3·cos(x)`, `x/(x^2+1)`), and
//! integration by parts (`parts.rs`: a polynomial times `e^`, `sin` or `cos` of a linear
//! argument, `ln(ax+b)`, `x^n·ln(x)`). Anything else is [`Error::NoRule`] — the tutor
//! says so instead of guessing. Nested techniques are bounded in depth ([`MAX_DEPTH`])
//! and in the total number of attempts ([`BUDGET`]).

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;
use crate::show::{compact, human};
use crate::simplify::simplify;

mod parts;
mod substitute;

/// Deepest nesting of substitutions and integrations by parts.
const MAX_DEPTH: usize = 8;
/// Most nested integrations tried for one integral, across all techniques.
const BUDGET: usize = 200;

pub(crate) struct Integrator {
    pub(crate) lines: Vec<String>,
    var: char,
    depth: usize,
    /// Attempts left, shared by every nested integrator of one integral.
    budget: std::rc::Rc<std::cell::Cell<usize>>,
}

fn line(label: &str, e: &Expr, r: &Expr, var: char) -> String {
    format!("{label}: ∫{} d{var} = {}", part(e), human(r))
}

fn part(e: &Expr) -> String {
    match e {
        Expr::Add(_) => format!("({})", compact(e)),
        e => compact(e),
    }
}

impl Integrator {
    pub(crate) fn new(var: char) -> Self {
        Self { lines: Vec::new(), var, depth: 0, budget: std::rc::Rc::new(std::cell::Cell::new(BUDGET)) }
    }

    /// A nested integrator in `var` for one step of a technique, or `None` when the
    /// depth or the attempts are used up.
    fn nested(&self, var: char) -> Option<Integrator> {
        let left = self.budget.get();
        if self.depth >= MAX_DEPTH || left == 0 {
            return None;
        }
        self.budget.set(left - 1);
        Some(Integrator { lines: Vec::new(), var, depth: self.depth + 1, budget: self.budget.clone() })
    }

    fn x(&self) -> Expr {
        Expr::Var(self.var)
    }

    /// An antiderivative of the simplified `e` (without `+ C`), simplified.
    pub(crate) fn integrate(&mut self, e: &Expr) -> Result<Expr, Error> {
        if !e.has_var() {
            let r = simplify(&Expr::mul2(e.clone(), self.x()))?;
            self.lines.push(line("constant rule", e, &r, self.var));
            return Ok(r);
        }
        match e {
            Expr::Add(terms) => {
                let at = self.lines.len();
                self.lines.push(String::new());
                let parts = terms.iter().map(|t| self.integrate(t)).collect::<Result<Vec<_>, _>>()?;
                let r = simplify(&Expr::Add(parts))?;
                self.lines[at] = format!("sum rule: integrate term by term = {}", human(&r));
                Ok(r)
            }
            Expr::Mul(v) => {
                let (consts, vars): (Vec<Expr>, Vec<Expr>) = v.iter().cloned().partition(|f| !f.has_var());
                if !consts.is_empty() {
                    let rest = if vars.len() == 1 { vars[0].clone() } else { Expr::Mul(vars) };
                    let c = if consts.len() == 1 { consts[0].clone() } else { Expr::Mul(consts) };
                    let at = self.lines.len();
                    self.lines.push(String::new());
                    let inner = self.integrate(&rest)?;
                    let r = simplify(&Expr::mul2(c.clone(), inner))?;
                    self.lines[at] = format!(
                        "constant multiple: ∫{} d{v} = {}·∫{} d{v} = {}",
                        human(e),
                        part(&c),
                        part(&rest),
                        human(&r),
                        v = self.var
                    );
                    return Ok(r);
                }
                // x·(x^2+1)^5 by substitution rather than expanded
                let high_power = |f: &Expr| matches!(f, Expr::Pow(b, k) if b.as_linear().is_none() && k.as_num().is_some_and(|k| k > Q::int(2)));
                if e.as_poly().is_some() {
                    if v.iter().any(high_power)
                        && let Some(r) = self.substitution(e)?
                    {
                        return Ok(r);
                    }
                    return self.polynomial(e);
                }
                self.technique(e, v)
            }
            _ => self.basic(e),
        }
    }

    /// One basic form: `(ax+b)^n`, `1/(ax+b)`, `e^(ax+b)`, `c^(ax+b)`, `sin`, `cos`.
    fn basic(&mut self, e: &Expr) -> Result<Expr, Error> {
        let (r, label) = match e {
            Expr::Var(_) => (
                simplify(&Expr::mul2(Expr::q(Q::HALF), Expr::pow(self.x(), Expr::int(2))))?,
                "power rule".to_string(),
            ),
            Expr::Pow(b, n) if !n.has_var() => {
                let Some((a, _)) = b.as_linear() else { return self.other(e) };
                // ∫1/u du = ln|u|: the log rule, the one power the power rule leaves out
                let log = n.as_num() == Some(Q::MINUS_ONE);
                let r = if log {
                    Expr::mul2(
                        Expr::q(ovf(Q::ONE.checked_div(a))?),
                        Expr::func(Func::Ln, Expr::func(Func::Abs, (**b).clone())),
                    )
                } else {
                    let n1 = simplify(&Expr::add2((**n).clone(), Expr::int(1)))?;
                    Expr::Mul(vec![
                        Expr::pow((**b).clone(), n1.clone()),
                        Expr::recip(Expr::mul2(Expr::q(a), n1)),
                    ])
                };
                (simplify(&r)?, self.label(if log { "log rule" } else { "power rule" }, b))
            }
            Expr::Pow(b, u) if !b.has_var() => {
                let (a, _) = u.as_linear().ok_or_else(|| self.no_rule(e))?;
                let scale = if **b == Expr::Const(Constant::E) {
                    Expr::q(ovf(Q::ONE.checked_div(a))?)
                } else {
                    if b.eval_const().is_none_or(|v| v <= 0.0 || v == 1.0) {
                        return Err(self.no_rule(e));
                    }
                    Expr::recip(Expr::mul2(Expr::q(a), Expr::func(Func::Ln, (**b).clone())))
                };
                (simplify(&Expr::mul2(scale, e.clone()))?, self.label("exponential rule", u))
            }
            Expr::Fn(f @ (Func::Sin | Func::Cos), u) => {
                let (a, _) = u.as_linear().ok_or_else(|| self.no_rule(e))?;
                let (sign, g) = if *f == Func::Sin { (Q::MINUS_ONE, Func::Cos) } else { (Q::ONE, Func::Sin) };
                let r = Expr::mul2(Expr::q(ovf(sign.checked_div(a))?), Expr::func(g, (**u).clone()));
                (simplify(&r)?, self.label(if *f == Func::Sin { "∫sin = -cos" } else { "∫cos = sin" }, u))
            }
            Expr::Fn(Func::Ln, u) if u.as_linear().is_some() => {
                return self.technique(e, std::slice::from_ref(e));
            }
            _ => return self.other(e),
        };
        self.lines.push(line(&label, e, &r, self.var));
        Ok(r)
    }

    /// A single factor without a basic rule: a polynomial (`(x^2+1)^3`), else a technique.
    fn other(&mut self, e: &Expr) -> Result<Expr, Error> {
        if e.as_poly().is_some() { self.polynomial(e) } else { self.technique(e, std::slice::from_ref(e)) }
    }

    /// A substitution, then integration by parts, for `e` (the product of `factors`).
    fn technique(&mut self, e: &Expr, factors: &[Expr]) -> Result<Expr, Error> {
        if let Some(r) = self.substitution(e)? {
            return Ok(r);
        }
        if let Some(r) = self.by_parts(e, factors)? {
            return Ok(r);
        }
        Err(self.no_rule(e))
    }

    fn label(&self, rule: &str, inner: &Expr) -> String {
        if matches!(inner, Expr::Var(_)) {
            rule.to_string()
        } else {
            let a = inner.as_linear().map(|(a, _)| a).unwrap_or(Q::ONE);
            format!("{rule} with the linear substitution u = {} (du = {} d{})", compact(inner), a, self.var)
        }
    }

    /// A polynomial, expanded and integrated term by term; anything else has no rule here.
    fn polynomial(&mut self, e: &Expr) -> Result<Expr, Error> {
        let coeffs = e.as_poly().ok_or_else(|| self.no_rule(e))?;
        let mut terms = Vec::new();
        for (k, c) in coeffs.iter().enumerate() {
            let k1 = Q::int(k as i64 + 1);
            terms.push(Expr::Mul(vec![Expr::q(ovf(c.checked_div(k1))?), Expr::pow(self.x(), Expr::q(k1))]));
        }
        let r = simplify(&Expr::Add(terms))?;
        let expanded = simplify(&Expr::Add(
            coeffs
                .iter()
                .enumerate()
                .map(|(k, c)| Expr::mul2(Expr::q(*c), Expr::pow(self.x(), Expr::int(k as i64))))
                .collect(),
        ))?;
        self.lines.push(format!("expand: {} = {}", human(e), human(&expanded)));
        self.lines.push(line("power rule term by term", &expanded, &r, self.var));
        Ok(r)
    }

    fn no_rule(&self, e: &Expr) -> Error {
        Error::NoRule(human(e))
    }
}

fn ovf<T>(v: Option<T>) -> Result<T, Error> {
    v.ok_or(Error::Overflow)
}
