//! The limit of an expression on one side of a point, part by part: a part with a value
//! there is substituted (the functions here are continuous where they are defined);
//! limits combine by the usual laws (a nonzero number over 0 is infinite, with the sign
//! the denominator has on that side; a number over ∞ is 0; `e^u` and `ln(u)` follow
//! `u` to ∞ and 0). The indeterminate forms are rewritten: a rational function's common
//! factor `(x - a)` cancelled, or at infinity its leading terms compared; `0/0` and `∞/∞`
//! by L'Hôpital's rule (repeated while the form stays indeterminate); `0·∞` as a
//! quotient (tried both ways round); `f^g` as `e^(g·ln(f))`. `∞ - ∞` and oscillation
//! (`sin` at infinity) are not computed. Every rewrite costs one of [`BUDGET`] steps,
//! and nesting is bounded by [`MAX_DEPTH`].

use crate::Error;
use crate::diff::Deriver;
use crate::expr::{Expr, Func};
use crate::rational::Q;
use crate::show::{compact, human};
use crate::simplify::simplify;

/// Most rewrites (L'Hôpital steps, cancellations, forms) in one one-sided limit.
const BUDGET: usize = 24;
/// Deepest nesting of part limits.
const MAX_DEPTH: usize = 40;
/// Largest quotient (in nodes) L'Hôpital's rule may lead to.
const MAX_NODES: usize = 2_000;

/// The limit on one side: a value, `+∞` / `-∞`, or undefined on that side.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum L {
    Fin(Expr),
    Inf(bool),
    Undefined,
}

/// Where the variable goes: a number from one side (`dir` `1`: from the right), or
/// `±∞` (`dir` the sign).
#[derive(Debug, Clone)]
pub(crate) struct Limiter {
    pub(crate) at: Option<Expr>,
    pub(crate) dir: i8,
    pub(crate) var: char,
    pub(crate) lines: Vec<String>,
    budget: usize,
}

fn is_zero(e: &Expr) -> bool {
    e.eval_const().is_some_and(|v| v.abs() < 1e-12)
}

fn sign_of(e: &Expr) -> Option<bool> {
    e.eval_const().filter(|v| v.abs() >= 1e-12).map(|v| v > 0.0)
}

fn unsupported(what: &str) -> Error {
    Error::Unsupported(format!("limits of the form {what}"))
}

impl Limiter {
    pub(crate) fn new(at: Option<Expr>, dir: i8, var: char) -> Self {
        Self { at, dir, var, lines: Vec::new(), budget: BUDGET }
    }

    fn spend(&mut self) -> Result<(), Error> {
        if self.budget == 0 {
            return Err(Error::Unsupported("limits that need this many steps".into()));
        }
        self.budget -= 1;
        Ok(())
    }

    /// The sign `e` has just beside the point on this side (or far out), by evaluation.
    fn side_sign(&self, e: &Expr) -> Result<bool, Error> {
        let a = self.at.as_ref().and_then(Expr::eval_const);
        for k in [6, 5, 4, 3, 8] {
            let h = 10f64.powi(-k);
            let x = match a {
                Some(a) => a + f64::from(self.dir) * h * 1f64.max(a.abs()),
                None => f64::from(self.dir) / h,
            };
            let q = if x.abs() < 1e6 {
                Q::new((x * 2f64.powi(40)).round() as i128, 1 << 40)
            } else {
                Some(Q::int(x.round() as i64))
            };
            if let Some(s) = q.and_then(|q| sign_of(&e.subst(&Expr::Num(q)))) {
                return Ok(s);
            }
        }
        Err(Error::Unsupported("limits where I cannot tell the sign beside the point".into()))
    }

    /// The limit of the simplified `e`.
    pub(crate) fn lim(&mut self, e: &Expr, depth: usize) -> Result<L, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::Unsupported("expressions nested this deeply in a limit".into()));
        }
        if !e.has_var() {
            return Ok(if e.eval_const().is_some() { L::Fin(e.clone()) } else { L::Undefined });
        }
        match e {
            Expr::Var(_) => Ok(match &self.at {
                Some(a) => L::Fin(a.clone()),
                None => L::Inf(self.dir > 0),
            }),
            Expr::Add(terms) => self.sum(e, terms, depth),
            Expr::Mul(factors) => self.quotient(e, factors, depth),
            Expr::Pow(b, n) if !n.has_var() => self.power(b, n, depth),
            Expr::Pow(b, u) if !b.has_var() => {
                let base = b.eval_const().unwrap_or(f64::NAN);
                if base.is_nan() || base <= 0.0 {
                    return Ok(L::Undefined);
                }
                Ok(match self.lim(u, depth + 1)? {
                    L::Fin(c) => L::Fin(simplify(&Expr::pow((**b).clone(), c))?),
                    L::Inf(up) if (up == (base > 1.0)) && base != 1.0 => L::Inf(true),
                    L::Inf(_) => L::Fin(if base == 1.0 { Expr::int(1) } else { Expr::int(0) }),
                    L::Undefined => L::Undefined,
                })
            }
            Expr::Pow(b, g) => {
                self.spend()?;
                let exponent = simplify(&Expr::mul2((**g).clone(), Expr::func(Func::Ln, (**b).clone())))?;
                self.lines.push(format!(
                    "write {} as e^({}) and take the exponent's limit",
                    human(e),
                    compact(&exponent)
                ));
                self.lim(&Expr::exp(exponent), depth + 1)
            }
            Expr::Fn(Func::Tan, u) => {
                let ratio = Expr::mul2(
                    Expr::func(Func::Sin, (**u).clone()),
                    Expr::recip(Expr::func(Func::Cos, (**u).clone())),
                );
                self.lim(&simplify(&ratio)?, depth + 1)
            }
            Expr::Fn(f @ (Func::Sin | Func::Cos), u) => match self.lim(u, depth + 1)? {
                L::Fin(c) => Ok(L::Fin(simplify(&Expr::func(*f, c))?)),
                L::Inf(_) => Err(Error::Unsupported(format!("the limit of {} (it oscillates)", human(e)))),
                L::Undefined => Ok(L::Undefined),
            },
            Expr::Fn(Func::Ln, u) => Ok(match self.lim(u, depth + 1)? {
                L::Fin(c) => match sign_of(&c) {
                    Some(true) => L::Fin(simplify(&Expr::func(Func::Ln, c))?),
                    None if self.side_sign(u)? => L::Inf(false),
                    _ => L::Undefined,
                },
                L::Inf(true) => L::Inf(true),
                _ => L::Undefined,
            }),
            Expr::Fn(Func::Abs, _) => Err(Error::Unsupported("absolute values".into())),
            Expr::Num(_) | Expr::Const(_) => Ok(L::Fin(e.clone())),
        }
    }

    fn sum(&mut self, e: &Expr, terms: &[Expr], depth: usize) -> Result<L, Error> {
        let mut fins = Vec::new();
        let mut inf = None;
        for t in terms {
            match self.lim(t, depth + 1)? {
                L::Fin(c) => fins.push(c),
                L::Inf(s) if inf.is_none_or(|i| i == s) => inf = Some(s),
                L::Inf(_) => {
                    return self.rational(e, depth).and_then(|r| r.ok_or_else(|| unsupported("∞ - ∞")));
                }
                L::Undefined => return Ok(L::Undefined),
            }
        }
        Ok(match inf {
            Some(s) => L::Inf(s),
            None => L::Fin(simplify(&Expr::Add(fins))?),
        })
    }

    fn power(&mut self, b: &Expr, n: &Expr, depth: usize) -> Result<L, Error> {
        let k = n.as_num().unwrap_or(Q::ONE);
        let even = k.is_int() && k.numer() % 2 == 0;
        Ok(match self.lim(b, depth + 1)? {
            L::Fin(c) => match sign_of(&c) {
                Some(false) if !k.is_int() => L::Undefined,
                Some(_) => L::Fin(simplify(&Expr::pow(c, n.clone()))?),
                None => {
                    let above = self.side_sign(b)?;
                    match (k.is_negative(), k.is_int()) {
                        (_, false) if !above => L::Undefined,
                        (false, _) => L::Fin(Expr::int(0)),
                        (true, _) => {
                            let up = above || even;
                            self.lines.push(format!(
                                "{} → 0 from {}, so {} → {}∞",
                                compact(b),
                                if above { "above" } else { "below" },
                                human(&Expr::pow(b.clone(), n.clone())),
                                if up { "" } else { "-" }
                            ));
                            L::Inf(up)
                        }
                    }
                }
            },
            L::Inf(up) => match (k.is_negative(), up, k.is_int()) {
                (true, _, _) => L::Fin(Expr::int(0)),
                (false, true, _) => L::Inf(true),
                (false, false, true) => L::Inf(even),
                (false, false, false) => L::Undefined,
            },
            L::Undefined => L::Undefined,
        })
    }

    /// A product: its numerator over its denominator (the factors with a negative power).
    fn quotient(&mut self, e: &Expr, factors: &[Expr], depth: usize) -> Result<L, Error> {
        if let Some(r) = self.rational(e, depth)? {
            return Ok(r);
        }
        let (mut num, mut den) = (Vec::new(), Vec::new());
        for f in factors {
            match f {
                Expr::Pow(b, k) if k.as_num().is_some_and(Q::is_negative) => {
                    den.push(simplify(&Expr::pow((**b).clone(), Expr::negate((**k).clone())))?);
                }
                f => num.push(f.clone()),
            }
        }
        if den.is_empty() {
            return self.product_of(e, &num, depth);
        }
        let (n, d) = (Expr::product(num), Expr::product(den));
        let (ln, ld) = (self.lim(&n, depth + 1)?, self.lim(&d, depth + 1)?);
        Ok(match (ln, ld) {
            (L::Undefined, _) | (_, L::Undefined) => L::Undefined,
            (L::Fin(a), L::Fin(b)) if !is_zero(&b) => L::Fin(simplify(&Expr::mul2(a, Expr::recip(b)))?),
            (L::Fin(a), L::Fin(_)) if !is_zero(&a) => {
                let up = sign_of(&a) == Some(self.side_sign(&d)?);
                self.lines.push(format!(
                    "{} → {} and {} → 0 from {}: the quotient grows without bound",
                    compact(&n),
                    human(&a),
                    compact(&d),
                    if self.side_sign(&d)? { "above" } else { "below" }
                ));
                L::Inf(up)
            }
            (L::Fin(_), L::Fin(_)) => self.lhopital(&n, &d, "0/0", depth)?,
            (L::Inf(_), L::Inf(_)) => self.lhopital(&n, &d, "∞/∞", depth)?,
            (L::Fin(_), L::Inf(_)) => L::Fin(Expr::int(0)),
            (L::Inf(s), L::Fin(b)) => match sign_of(&b) {
                Some(p) => L::Inf(s == p),
                None => L::Inf(s == self.side_sign(&d)?),
            },
        })
    }

    /// A product without a denominator; `0·∞` is rewritten as a quotient.
    fn product_of(&mut self, e: &Expr, factors: &[Expr], depth: usize) -> Result<L, Error> {
        let mut zeros = Vec::new();
        let mut infs = Vec::new();
        let mut value = Vec::new();
        let mut sign = true;
        for f in factors {
            match self.lim(f, depth + 1)? {
                L::Fin(c) if is_zero(&c) => zeros.push(f.clone()),
                L::Fin(c) => {
                    sign ^= sign_of(&c) == Some(false);
                    value.push(c);
                }
                L::Inf(s) => {
                    sign ^= !s;
                    infs.push(f.clone());
                }
                L::Undefined => return Ok(L::Undefined),
            }
        }
        if zeros.is_empty() || infs.is_empty() {
            return Ok(if !infs.is_empty() {
                L::Inf(sign)
            } else if !zeros.is_empty() {
                L::Fin(Expr::int(0))
            } else {
                L::Fin(simplify(&Expr::Mul(value))?)
            });
        }
        // 0·∞: the zero part over the inverse of the rest, or the rest over the inverse of
        // the zero part (a logarithm stays on top, an exponential goes below)
        let rest: Vec<Expr> = factors.iter().filter(|f| !zeros.contains(f)).cloned().collect();
        let (z, r) = (Expr::product(zeros), Expr::product(rest));
        let mut ways = [(z.clone(), r.clone(), "0/0"), (r.clone(), z.clone(), "∞/∞")];
        if has(&r, &|f| matches!(f, Expr::Fn(Func::Ln, _)))
            || has(&z, &|f| matches!(f, Expr::Pow(b, _) if !b.has_var()))
        {
            ways.reverse();
        }
        for (top, other, form) in ways {
            self.spend()?;
            let bottom = simplify(&Expr::recip(other))?;
            let lines = self.lines.len();
            self.lines.push(format!("0·∞: write {} as ({})/({})", human(e), compact(&top), compact(&bottom)));
            // L'Hôpital directly: simplified, the quotient would be the product again
            match self.lhopital(&top, &bottom, form, depth + 1) {
                Ok(l) if l != L::Undefined => return Ok(l),
                // what the attempt spent stays spent: the two ways never multiply
                _ => self.lines.truncate(lines),
            }
        }
        Err(unsupported("0·∞"))
    }

    /// L'Hôpital's rule on `n/d` (both → 0 or both → ∞).
    fn lhopital(&mut self, n: &Expr, d: &Expr, form: &str, depth: usize) -> Result<L, Error> {
        self.spend()?;
        let dn = Deriver::new().d(n)?;
        let dd = Deriver::new().d(d)?;
        crate::check::derivative(n, self.var, &dn)?;
        crate::check::derivative(d, self.var, &dd)?;
        if is_zero(&dd) && !dd.has_var() {
            return Err(unsupported(form));
        }
        let ratio = simplify(&Expr::mul2(dn.clone(), Expr::recip(dd.clone())))?;
        if ratio.size().0 > MAX_NODES {
            return Err(Error::Unsupported("limits whose derivatives grow this large".into()));
        }
        let quotient = format!("({})/({})", compact(&dn), compact(&dd));
        let simpler = human(&ratio);
        let then = if simpler.replace(' ', "") == quotient.replace(' ', "") {
            String::new()
        } else {
            format!(" = lim {simpler}")
        };
        self.lines.push(format!(
            "{form}, so L'Hôpital's rule: lim ({})'/({})' = lim {quotient}{then}",
            compact(n),
            compact(d),
        ));
        self.lim(&ratio, depth + 1)
    }

    /// A rational function: a common factor `(x - a)` cancelled at a rational point, or
    /// the leading terms compared at infinity. `None` when `e` is not one or nothing
    /// needs doing (no common factor).
    fn rational(&mut self, e: &Expr, depth: usize) -> Result<Option<L>, Error> {
        let Some((mut p, mut q)) = ratio_of_polys(e) else { return Ok(None) };
        if q.len() <= 1 && (self.at.is_some() || p.len() <= 1) {
            return Ok(None);
        }
        let x = Expr::Var(self.var);
        let Some(a) = &self.at else {
            self.spend()?;
            let (dp, dq) = (p.len() - 1, q.len() - 1);
            let (lp, lq) = (p[dp], q[dq]);
            let lead = ovf(lp.checked_div(lq))?;
            if dq > 0 {
                self.lines.push(format!(
                    "at infinity a rational function behaves like its leading terms: {}/{}",
                    human(&simplify(&Expr::mul2(Expr::q(lp), Expr::pow(x.clone(), Expr::int(dp as i64))))?),
                    human(&simplify(&Expr::mul2(Expr::q(lq), Expr::pow(x, Expr::int(dq as i64))))?)
                ));
            }
            return Ok(Some(if dp < dq {
                L::Fin(Expr::int(0))
            } else if dp == dq {
                L::Fin(Expr::q(lead))
            } else {
                let odd = (dp - dq) % 2 == 1;
                L::Inf(!lead.is_negative() ^ (odd && self.dir < 0))
            }));
        };
        let Some(r) = a.as_num() else { return Ok(None) };
        let mut cancelled = 0;
        while cancelled < 12 && eval_poly(&p, r)?.is_zero() && eval_poly(&q, r)?.is_zero() {
            p = divide_root(&p, r)?;
            q = divide_root(&q, r)?;
            cancelled += 1;
        }
        let top = eval_poly(&p, r)?;
        if eval_poly(&q, r)?.is_zero() && !top.is_zero() {
            // c/0: the sign beside r from the root's multiplicity m, exactly
            let mut m = 0;
            while m < 12 && eval_poly(&q, r)?.is_zero() {
                q = divide_root(&q, r)?;
                m += 1;
            }
            let rest = eval_poly(&q, r)?;
            let above = !rest.is_negative() ^ (m % 2 == 1 && self.dir < 0);
            self.lines.push(format!(
                "the numerator tends to {top} and the denominator to 0 from {}: the quotient grows without bound",
                if above { "above" } else { "below" }
            ));
            return Ok(Some(L::Inf(above != top.is_negative())));
        }
        if cancelled == 0 {
            return Ok(None);
        }
        self.spend()?;
        let reduced = simplify(&Expr::mul2(poly(&p, self.var)?, Expr::recip(poly(&q, self.var)?)))?;
        let factor = simplify(&Expr::add2(x, Expr::q(r.negated())))?;
        let times = if cancelled > 1 { format!("^{cancelled}") } else { String::new() };
        self.lines.push(format!(
            "0/0: factor and cancel ({}){times}: {} = {} for {} ≠ {}",
            compact(&factor),
            human(e),
            human(&reduced),
            self.var,
            r
        ));
        self.lim(&reduced, depth + 1).map(Some)
    }
}

/// Whether `e` has a part for which `test` holds.
fn has(e: &Expr, test: &dyn Fn(&Expr) -> bool) -> bool {
    test(e)
        || match e {
            Expr::Add(v) | Expr::Mul(v) => v.iter().any(|t| has(t, test)),
            Expr::Pow(b, n) => has(b, test) || has(n, test),
            Expr::Fn(_, a) => has(a, test),
            _ => false,
        }
}

fn ovf<T>(v: Option<T>) -> Result<T, Error> {
    v.ok_or(Error::Overflow)
}

/// `e` as a numerator and a denominator polynomial (coefficients lowest degree first).
fn ratio_of_polys(e: &Expr) -> Option<(Vec<Q>, Vec<Q>)> {
    let factors = match e {
        Expr::Mul(v) => v.clone(),
        e => vec![e.clone()],
    };
    let (mut num, mut den) = (Vec::new(), Vec::new());
    for f in factors {
        match f {
            Expr::Pow(b, k) if k.as_num().is_some_and(Q::is_negative) => {
                den.push(Expr::pow(*b, Expr::Num(k.as_num()?.negated())));
            }
            f => num.push(f),
        }
    }
    Some((Expr::product(num).as_poly()?, Expr::product(den).as_poly()?))
}

fn eval_poly(p: &[Q], x: Q) -> Result<Q, Error> {
    p.iter().rev().try_fold(Q::ZERO, |acc, c| ovf(acc.checked_mul(x).and_then(|v| v.checked_add(*c))))
}

/// `p / (x - r)` for a root `r` of `p` (synthetic division).
fn divide_root(p: &[Q], r: Q) -> Result<Vec<Q>, Error> {
    let mut out = vec![Q::ZERO; p.len().saturating_sub(1).max(1)];
    let mut carry = Q::ZERO;
    for i in (1..p.len()).rev() {
        carry = ovf(p[i].checked_add(ovf(carry.checked_mul(r))?))?;
        out[i - 1] = carry;
    }
    Ok(out)
}

fn poly(p: &[Q], var: char) -> Result<Expr, Error> {
    let terms = p
        .iter()
        .enumerate()
        .map(|(k, c)| Expr::mul2(Expr::q(*c), Expr::pow(Expr::Var(var), Expr::int(k as i64))))
        .collect();
    simplify(&Expr::Add(terms))
}
