//! Antiderivatives by a short list of rules, and nothing else: constants, sums term by
//! term, constant multiples, powers of a linear `ax+b` (`1/(ax+b)` → `ln|ax+b|/a`),
//! `sin`, `cos` and `e^` of a linear argument, and polynomials (expanded first). Anything
//! else is [`Error::NoRule`] — the tutor says so instead of guessing.

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;
use crate::show::{compact, human};
use crate::simplify::simplify;

pub(crate) struct Integrator {
    pub(crate) lines: Vec<String>,
    var: char,
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
        Self { lines: Vec::new(), var }
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
                self.polynomial(e)
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
                let Some((a, _)) = b.as_linear() else { return self.polynomial(e) };
                let r = if n.as_num() == Some(Q::MINUS_ONE) {
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
                (simplify(&r)?, self.label("power rule", b))
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
            _ => return self.polynomial(e),
        };
        self.lines.push(line(&label, e, &r, self.var));
        Ok(r)
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
