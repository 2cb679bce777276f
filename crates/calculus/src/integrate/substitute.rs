//! Integration by substitution: the integrand is `g(u(x))·u'(x)` up to a constant, for
//! an inner expression `u` found inside it (a function's argument, a power's base or
//! exponent, or a function itself). Dividing by `u'` must leave an expression of `u`
//! alone; that one is integrated in a fresh letter and `u` put back. A linear `u` is the
//! basic rules' own linear substitution, so it is not tried here.

use super::Integrator;
use crate::Error;
use crate::diff::Deriver;
use crate::expr::Expr;
use crate::parse::variables;
use crate::show::{compact, human};
use crate::simplify::simplify;

/// Most inner expressions tried for one integrand.
const MAX_CANDIDATES: usize = 10;

/// The inner expressions of `e` worth substituting (not the variable, not linear).
fn candidates(e: &Expr, out: &mut Vec<Expr>) {
    let push = |u: &Expr, out: &mut Vec<Expr>| {
        if u.has_var() && !matches!(u, Expr::Var(_)) && u.as_linear().is_none() && !out.contains(u) {
            out.push(u.clone());
        }
    };
    match e {
        Expr::Fn(_, a) => {
            push(e, out);
            push(a, out);
            candidates(a, out);
        }
        Expr::Pow(b, n) => {
            push(b, out);
            push(n, out);
            candidates(b, out);
            candidates(n, out);
        }
        Expr::Add(v) | Expr::Mul(v) => v.iter().for_each(|t| candidates(t, out)),
        Expr::Num(_) | Expr::Const(_) | Expr::Var(_) => {}
    }
}

/// `e` with every occurrence of `target` replaced by `with`.
pub(super) fn replace(e: &Expr, target: &Expr, with: &Expr) -> Expr {
    if e == target {
        return with.clone();
    }
    match e {
        Expr::Add(v) => Expr::Add(v.iter().map(|t| replace(t, target, with)).collect()),
        Expr::Mul(v) => Expr::Mul(v.iter().map(|t| replace(t, target, with)).collect()),
        Expr::Pow(b, n) => Expr::pow(replace(b, target, with), replace(n, target, with)),
        Expr::Fn(f, a) => Expr::func(*f, replace(a, target, with)),
        e => e.clone(),
    }
}

impl Integrator {
    /// `∫e dx` by a substitution, `None` when none of the inner expressions works.
    pub(super) fn substitution(&mut self, e: &Expr) -> Result<Option<Expr>, Error> {
        let mut found = Vec::new();
        candidates(e, &mut found);
        let u_letter = if self.var == 'u' { 'w' } else { 'u' };
        for u in found.into_iter().take(MAX_CANDIDATES) {
            let Ok(du) = Deriver::new().d(&u) else { continue };
            if du == Expr::int(0) {
                continue;
            }
            let Ok(q) = simplify(&Expr::mul2(e.clone(), Expr::recip(du.clone()))) else { continue };
            let Ok(g) = simplify(&replace(&q, &u, &Expr::Var(u_letter))) else { continue };
            let mut letters = Vec::new();
            variables(&g, &mut letters);
            if letters.contains(&self.var) {
                continue;
            }
            let Some(mut inner) = self.nested(u_letter) else { return Ok(None) };
            let Ok(r) = inner.integrate(&g) else { continue };
            let back = simplify(&r.subst(&u))?;
            let x = self.var;
            self.lines.push(format!(
                "substitution {w} = {} (d{w} = {} d{x}): ∫{} d{x} = ∫{} d{w} = {} = {}",
                compact(&u),
                compact(&du),
                compact(e),
                compact(&g),
                human(&r),
                human(&back),
                w = u_letter
            ));
            self.lines.extend(inner.lines);
            return Ok(Some(back));
        }
        Ok(None)
    }
}
