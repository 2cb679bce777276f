//! Integration by parts, `∫u·dv = u·v - ∫v·du`, with `u` chosen as a course teaches
//! (logarithm before algebra before exponential and trigonometric factors): `ln(ax+b)`
//! alone (`v = (ax+b)/a`), `x^n·ln(x)` (`u = ln(x)`), and a polynomial times `e^`, `sin`
//! or `cos` of a linear argument (`u` the polynomial, repeated until it is gone). Each
//! `∫dv` and `∫v·du` is a nested integration, bounded by the integrator's depth.

use super::{Integrator, ovf};
use crate::Error;
use crate::diff::Deriver;
use crate::expr::{Expr, Func};
use crate::rational::Q;
use crate::show::{compact, human};
use crate::simplify::simplify;

/// Highest polynomial degree taken as `u` (one integration by parts per degree).
const MAX_DEGREE: usize = 6;

/// `e^`, `sin` or `cos` of a linear argument: a `dv` integrated by the basic rules.
fn transcendental(f: &Expr) -> bool {
    match f {
        Expr::Pow(b, u) => !b.has_var() && u.as_linear().is_some(),
        Expr::Fn(Func::Sin | Func::Cos, u) => u.as_linear().is_some(),
        _ => false,
    }
}

/// `e^x dx`, and `dx` for `1`.
fn differential(e: &Expr, x: char) -> String {
    if *e == Expr::int(1) { format!("d{x}") } else { format!("{} d{x}", compact(e)) }
}

impl Integrator {
    /// `(u, dv)` for the `factors` of an integrand (no constant factor among them).
    fn choose(&self, factors: &[Expr]) -> Option<(Expr, Expr)> {
        let ln = factors.iter().position(|f| matches!(f, Expr::Fn(Func::Ln, a) if a.as_linear().is_some()));
        if let Some(i) = ln {
            let rest: Vec<Expr> =
                factors.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, f)| f.clone()).collect();
            return Some((factors[i].clone(), Expr::product(rest)));
        }
        let (poly, other): (Vec<Expr>, Vec<Expr>) =
            factors.iter().cloned().partition(|f| f.as_poly().is_some());
        let degree = Expr::product(poly.clone()).as_poly().map_or(0, |p| p.len() - 1);
        (other.len() == 1 && transcendental(&other[0]) && (1..=MAX_DEGREE).contains(&degree))
            .then(|| (Expr::product(poly), other[0].clone()))
    }

    /// `∫e dx` by parts, `None` when no choice of `u` fits or a nested integral fails.
    pub(super) fn by_parts(&mut self, e: &Expr, factors: &[Expr]) -> Result<Option<Expr>, Error> {
        let Some((u, dv)) = self.choose(factors) else { return Ok(None) };
        let Some(mut first) = self.nested(self.var) else { return Ok(None) };
        // unsimplified, so that v·du cancels before it is expanded
        let v_raw = match (&u, dv.has_var()) {
            // ∫ln(ax+b) dx: v = (ax+b)/a, so that v·du = 1
            (Expr::Fn(Func::Ln, a), false) => {
                let (k, _) = a.as_linear().unwrap_or((Q::ONE, Q::ZERO));
                Expr::Mul(vec![dv.clone(), (**a).clone(), Expr::q(ovf(Q::ONE.checked_div(k))?)])
            }
            _ => match first.integrate(&dv) {
                Ok(v) => v,
                Err(_) => return Ok(None),
            },
        };
        let v = simplify(&v_raw)?;
        let du = Deriver::new().d(&u)?;
        let factors_of = |e: Expr| match e {
            Expr::Mul(v) => v,
            e => vec![e],
        };
        // the polynomial first, a logarithm last: x·e^x, (2x+1)·ln(2x+1)/2
        let mut uv = factors_of(v_raw.clone());
        if matches!(u, Expr::Fn(..)) {
            uv.push(u.clone());
        } else {
            uv.insert(0, u.clone());
        }
        let uv = Expr::Mul(uv);
        let mut both = factors_of(v_raw);
        both.extend(factors_of(du.clone()));
        let rest = simplify(&Expr::Mul(both))?;
        let Some(mut second) = self.nested(self.var) else { return Ok(None) };
        let Ok(integral) = second.integrate(&rest) else { return Ok(None) };
        let r = simplify(&Expr::add2(uv.clone(), Expr::negate(integral)))?;
        let x = self.var;
        self.lines.push(format!(
            "by parts with u = {}, dv = {} (du = {}, v = {}): ∫{} d{x} = {} - ∫{} d{x} = {}",
            compact(&u),
            differential(&dv, x),
            differential(&du, x),
            compact(&v),
            compact(e),
            human(&simplify(&uv)?),
            compact(&rest),
            human(&r)
        ));
        self.lines.extend(second.lines);
        Ok(Some(r))
    }
}
