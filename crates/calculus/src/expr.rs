//! The expression tree: n-ary sums and products, powers, a few functions.
//!
//! Everything reduces to these shapes: `a - b` is `a + (-1)·b`, `a / b` is `a·b^(-1)`,
//! `exp(u)` is `e^u` and `sqrt(u)` is `u^(1/2)`. One variable at most (single-variable
//! calculus); its letter lives in [`Expr::Var`].

use crate::rational::Q;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    /// Natural logarithm (`log` is read as `ln`).
    Ln,
    /// Only produced by integration (`ln|x|`); never parsed.
    Abs,
}

impl Func {
    pub fn name(self) -> &'static str {
        match self {
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Ln => "ln",
            Func::Abs => "abs",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constant {
    E,
    Pi,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(Q),
    Const(Constant),
    Var(char),
    Add(Vec<Expr>),
    Mul(Vec<Expr>),
    Pow(Box<Expr>, Box<Expr>),
    Fn(Func, Box<Expr>),
}

impl Expr {
    pub fn int(n: i64) -> Expr {
        Expr::Num(Q::int(n))
    }
    pub fn q(q: Q) -> Expr {
        Expr::Num(q)
    }
    pub fn pow(b: Expr, e: Expr) -> Expr {
        Expr::Pow(Box::new(b), Box::new(e))
    }
    pub fn func(f: Func, a: Expr) -> Expr {
        Expr::Fn(f, Box::new(a))
    }
    pub fn mul2(a: Expr, b: Expr) -> Expr {
        Expr::Mul(vec![a, b])
    }
    pub fn add2(a: Expr, b: Expr) -> Expr {
        Expr::Add(vec![a, b])
    }
    pub fn negate(a: Expr) -> Expr {
        Expr::Mul(vec![Expr::int(-1), a])
    }
    pub fn recip(a: Expr) -> Expr {
        Expr::pow(a, Expr::int(-1))
    }
    pub fn exp(a: Expr) -> Expr {
        Expr::pow(Expr::Const(Constant::E), a)
    }
    /// The product of `factors`: `1` for none, the factor itself for one.
    pub fn product(mut factors: Vec<Expr>) -> Expr {
        match factors.len() {
            0 => Expr::int(1),
            1 => factors.remove(0),
            _ => Expr::Mul(factors),
        }
    }

    /// (nodes, depth) of the tree.
    pub fn size(&self) -> (usize, usize) {
        let kids: Vec<&Expr> = match self {
            Expr::Num(_) | Expr::Const(_) | Expr::Var(_) => Vec::new(),
            Expr::Add(v) | Expr::Mul(v) => v.iter().collect(),
            Expr::Pow(b, e) => vec![b, e],
            Expr::Fn(_, a) => vec![a],
        };
        kids.iter().map(|k| k.size()).fold((1, 1), |(n, d), (kn, kd)| (n + kn, d.max(kd + 1)))
    }

    pub fn as_num(&self) -> Option<Q> {
        match self {
            Expr::Num(q) => Some(*q),
            _ => None,
        }
    }

    /// Whether the variable occurs.
    pub fn has_var(&self) -> bool {
        match self {
            Expr::Var(_) => true,
            Expr::Num(_) | Expr::Const(_) => false,
            Expr::Add(v) | Expr::Mul(v) => v.iter().any(Expr::has_var),
            Expr::Pow(b, e) => b.has_var() || e.has_var(),
            Expr::Fn(_, a) => a.has_var(),
        }
    }

    /// `e` with the variable replaced by `value` (not simplified).
    pub fn subst(&self, value: &Expr) -> Expr {
        match self {
            Expr::Var(_) => value.clone(),
            Expr::Num(_) | Expr::Const(_) => self.clone(),
            Expr::Add(v) => Expr::Add(v.iter().map(|t| t.subst(value)).collect()),
            Expr::Mul(v) => Expr::Mul(v.iter().map(|t| t.subst(value)).collect()),
            Expr::Pow(b, e) => Expr::pow(b.subst(value), e.subst(value)),
            Expr::Fn(f, a) => Expr::func(*f, a.subst(value)),
        }
    }

    /// A numeric value, when the expression has no variable.
    pub fn eval_const(&self) -> Option<f64> {
        let v = match self {
            Expr::Num(q) => q.to_f64(),
            Expr::Const(Constant::E) => std::f64::consts::E,
            Expr::Const(Constant::Pi) => std::f64::consts::PI,
            Expr::Var(_) => return None,
            Expr::Add(v) => v.iter().map(Expr::eval_const).sum::<Option<f64>>()?,
            Expr::Mul(v) => v.iter().map(Expr::eval_const).product::<Option<f64>>()?,
            Expr::Pow(b, e) => b.eval_const()?.powf(e.eval_const()?),
            Expr::Fn(f, a) => {
                let a = a.eval_const()?;
                match f {
                    Func::Sin => a.sin(),
                    Func::Cos => a.cos(),
                    Func::Tan => a.tan(),
                    Func::Ln => a.ln(),
                    Func::Abs => a.abs(),
                }
            }
        };
        v.is_finite().then_some(v)
    }

    /// The coefficients (lowest degree first) when this is a polynomial with rational
    /// coefficients of degree at most 12.
    pub fn as_poly(&self) -> Option<Vec<Q>> {
        fn mul(a: &[Q], b: &[Q]) -> Option<Vec<Q>> {
            if a.len() + b.len() > 14 {
                return None;
            }
            let mut r = vec![Q::ZERO; a.len() + b.len() - 1];
            for (i, x) in a.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    r[i + j] = r[i + j].checked_add(x.checked_mul(*y)?)?;
                }
            }
            Some(r)
        }
        let mut p = match self {
            Expr::Num(q) => vec![*q],
            Expr::Var(_) => vec![Q::ZERO, Q::ONE],
            Expr::Add(v) => {
                let mut acc = vec![Q::ZERO];
                for t in v {
                    let p = t.as_poly()?;
                    if p.len() > acc.len() {
                        acc.resize(p.len(), Q::ZERO);
                    }
                    for (i, c) in p.into_iter().enumerate() {
                        acc[i] = acc[i].checked_add(c)?;
                    }
                }
                acc
            }
            Expr::Mul(v) => {
                let mut acc = vec![Q::ONE];
                for t in v {
                    acc = mul(&acc, &t.as_poly()?)?;
                }
                acc
            }
            Expr::Pow(b, e) => {
                let k = e.as_num().filter(|k| k.is_int() && !k.is_negative() && k.numer() <= 12)?;
                let b = b.as_poly()?;
                let mut acc = vec![Q::ONE];
                for _ in 0..k.numer() {
                    acc = mul(&acc, &b)?;
                }
                acc
            }
            Expr::Const(_) | Expr::Fn(..) => return None,
        };
        while p.len() > 1 && p.last().is_some_and(|c| c.is_zero()) {
            p.pop();
        }
        Some(p)
    }

    /// `(a, b)` when this is `a·x + b` with rational `a ≠ 0` and `b`.
    pub fn as_linear(&self) -> Option<(Q, Q)> {
        match self.as_poly()?.as_slice() {
            [b, a] if !a.is_zero() => Some((*a, *b)),
            _ => None,
        }
    }
}
