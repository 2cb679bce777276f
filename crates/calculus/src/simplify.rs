//! Simplification to one readable canonical form: constants folded, `1·x → x`,
//! `x^1 → x`, zero terms dropped, like terms and like factors combined, a number times a
//! sum distributed, polynomials ordered by falling degree.

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;

/// Simplifies `e`; `Err(Overflow)` when a number grows past `i64`.
pub(crate) fn simplify(e: &Expr) -> Result<Expr, Error> {
    Ok(match e {
        Expr::Num(_) | Expr::Const(_) | Expr::Var(_) => e.clone(),
        Expr::Add(v) => add(v.iter().map(simplify).collect::<Result<_, _>>()?)?,
        Expr::Mul(v) => mul(v.iter().map(simplify).collect::<Result<_, _>>()?)?,
        Expr::Pow(b, x) => pow(simplify(b)?, simplify(x)?)?,
        Expr::Fn(f, a) => func(*f, simplify(a)?),
    })
}

fn ovf<T>(v: Option<T>) -> Result<T, Error> {
    v.ok_or(Error::Overflow)
}

/// A term as (coefficient, the rest); the rest is `1` for a number.
fn split_coef(t: Expr) -> (Q, Expr) {
    match t {
        Expr::Num(q) => (q, Expr::int(1)),
        Expr::Mul(mut v) => match v.first().and_then(Expr::as_num) {
            Some(q) => {
                v.remove(0);
                (q, if v.len() == 1 { v.remove(0) } else { Expr::Mul(v) })
            }
            None => (Q::ONE, Expr::Mul(v)),
        },
        t => (Q::ONE, t),
    }
}

fn with_coef(q: Q, rest: Expr) -> Result<Expr, Error> {
    mul(vec![Expr::Num(q), rest])
}

/// The degree of a monomial `x^n` (`x` is 1, a number 0).
fn degree(rest: &Expr) -> Option<Q> {
    match rest {
        Expr::Num(_) => Some(Q::ZERO),
        Expr::Var(_) => Some(Q::ONE),
        Expr::Pow(b, x) if matches!(**b, Expr::Var(_)) => x.as_num(),
        _ => None,
    }
}

fn add(terms: Vec<Expr>) -> Result<Expr, Error> {
    let mut flat = Vec::new();
    for t in terms {
        match t {
            Expr::Add(v) => flat.extend(v),
            t => flat.push(t),
        }
    }
    let mut groups: Vec<(Q, Expr)> = Vec::new();
    for t in flat {
        let (q, rest) = split_coef(t);
        match groups.iter_mut().find(|(_, r)| *r == rest) {
            Some((c, _)) => *c = ovf(c.checked_add(q))?,
            None => groups.push((q, rest)),
        }
    }
    groups.retain(|(q, _)| !q.is_zero());
    if groups.iter().all(|(_, r)| degree(r).is_some()) {
        groups.sort_by_key(|(_, r)| std::cmp::Reverse(degree(r)));
    } else {
        // numbers last, everything else in the order it came
        groups.sort_by_key(|(_, r)| matches!(r, Expr::Num(_)));
    }
    let mut out = groups.into_iter().map(|(q, r)| with_coef(q, r)).collect::<Result<Vec<_>, _>>()?;
    Ok(match out.len() {
        0 => Expr::int(0),
        1 => out.remove(0),
        _ => Expr::Add(out),
    })
}

/// A factor's ordering class: numbers, constants, powers of the variable, the rest.
fn class(f: &Expr) -> u8 {
    match f {
        Expr::Num(_) => 0,
        Expr::Const(_) => 1,
        Expr::Var(_) => 2,
        Expr::Pow(b, x) if matches!(**b, Expr::Var(_)) && x.as_num().is_some() => 2,
        _ => 3,
    }
}

fn mul(factors: Vec<Expr>) -> Result<Expr, Error> {
    let mut flat = Vec::new();
    for f in factors {
        match f {
            Expr::Mul(v) => flat.extend(v),
            f => flat.push(f),
        }
    }
    let mut coef = Q::ONE;
    let mut groups: Vec<(Expr, Vec<Expr>)> = Vec::new();
    for f in flat {
        if let Expr::Num(q) = f {
            coef = ovf(coef.checked_mul(q))?;
            continue;
        }
        let (base, exp) = match f {
            Expr::Pow(b, x) => (*b, *x),
            f => (f, Expr::int(1)),
        };
        match groups.iter_mut().find(|(b, _)| *b == base) {
            Some((_, exps)) => exps.push(exp),
            None => groups.push((base, vec![exp])),
        }
    }
    if coef.is_zero() {
        return Ok(Expr::int(0));
    }
    let mut rest = Vec::new();
    for (base, exps) in groups {
        let exp = if exps.len() == 1 { exps.into_iter().next().unwrap_or(Expr::int(1)) } else { add(exps)? };
        match pow(base, exp)? {
            Expr::Num(q) => coef = ovf(coef.checked_mul(q))?,
            Expr::Mul(v) => {
                for f in v {
                    match f {
                        Expr::Num(q) => coef = ovf(coef.checked_mul(q))?,
                        f => rest.push(f),
                    }
                }
            }
            f => rest.push(f),
        }
    }
    if coef.is_zero() {
        return Ok(Expr::int(0));
    }
    rest.sort_by_key(class);
    // a number times one sum: distribute (2(x+1) → 2x + 2)
    if rest.len() == 1
        && coef != Q::ONE
        && let Expr::Add(terms) = &rest[0]
    {
        let terms = terms.iter().map(|t| mul(vec![Expr::Num(coef), t.clone()])).collect::<Result<_, _>>()?;
        return add(terms);
    }
    if coef != Q::ONE || rest.is_empty() {
        rest.insert(0, Expr::Num(coef));
    }
    Ok(if rest.len() == 1 { rest.remove(0) } else { Expr::Mul(rest) })
}

fn pow(base: Expr, exp: Expr) -> Result<Expr, Error> {
    if let Some(k) = exp.as_num() {
        if k.is_zero() {
            return Ok(Expr::int(1));
        }
        if k == Q::ONE {
            return Ok(base);
        }
        if k.is_int() {
            match &base {
                Expr::Num(b) => {
                    if !(b.is_zero() && k.is_negative())
                        && let Some(v) = b.powi(k.numer())
                    {
                        return Ok(Expr::Num(v));
                    }
                }
                // (u^m)^k = u^(m·k) for an integer k
                Expr::Pow(b, m) => return pow((**b).clone(), mul(vec![(**m).clone(), exp])?),
                // (a·b)^k = a^k·b^k
                Expr::Mul(v) => {
                    return mul(v.iter().map(|f| pow(f.clone(), exp.clone())).collect::<Result<_, _>>()?);
                }
                _ => {}
            }
        }
    }
    if let (Expr::Num(b), Some(k)) = (&base, exp.as_num())
        && let Some(v) = b.pow_exact(k)
    {
        return Ok(Expr::Num(v));
    }
    if base == Expr::int(1) {
        return Ok(Expr::int(1));
    }
    if base == Expr::int(0) && exp.as_num().is_some_and(|k| !k.is_negative()) {
        return Ok(Expr::int(0));
    }
    // e^(ln u) = u
    if base == Expr::Const(Constant::E)
        && let Expr::Fn(Func::Ln, u) = &exp
        && !matches!(**u, Expr::Fn(Func::Abs, _))
    {
        return Ok((**u).clone());
    }
    Ok(Expr::pow(base, exp))
}

/// `q·π` as `q` when the expression is a rational multiple of π.
fn pi_multiple(a: &Expr) -> Option<Q> {
    match a {
        Expr::Num(q) if q.is_zero() => Some(Q::ZERO),
        Expr::Const(Constant::Pi) => Some(Q::ONE),
        Expr::Mul(v) if v.len() == 2 && v[1] == Expr::Const(Constant::Pi) => v[0].as_num(),
        _ => None,
    }
}

fn func(f: Func, a: Expr) -> Expr {
    if let Some(k) = pi_multiple(&a) {
        // sin and cos at multiples of π/2, tan at multiples of π
        let half_turns = k.checked_mul(Q::int(2)).filter(|t| t.is_int()).map(|t| t.numer().rem_euclid(4));
        let v = match (f, half_turns) {
            (Func::Sin, Some(t)) => Some([0, 1, 0, -1][t as usize]),
            (Func::Cos, Some(t)) => Some([1, 0, -1, 0][t as usize]),
            (Func::Tan, Some(t)) if t % 2 == 0 => Some(0),
            _ => None,
        };
        if let Some(v) = v {
            return Expr::int(v);
        }
    }
    match (f, &a) {
        (Func::Ln, Expr::Num(q)) if *q == Q::ONE => Expr::int(0),
        (Func::Ln, Expr::Const(Constant::E)) => Expr::int(1),
        (Func::Ln, Expr::Pow(b, x)) if **b == Expr::Const(Constant::E) => (**x).clone(),
        (Func::Abs, Expr::Num(q)) => Expr::Num(q.abs()),
        (Func::Abs, a) if !a.has_var() && a.eval_const().is_some_and(|v| v > 0.0) => a.clone(),
        _ => Expr::func(f, a),
    }
}
