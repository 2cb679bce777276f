//! Differentiation with the rules a course names (sum, constant multiple, power, product,
//! quotient, chain, exponential, logarithm, trigonometric), recording one line per rule
//! applied: `product rule: (x^3)'·sin(x) + x^3·(sin(x))' = 3x^2·sin(x) + x^3·cos(x)`.

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;
use crate::show::{compact, human};
use crate::simplify::simplify;

/// Most step lines one derivative records.
pub(crate) const MAX_STEPS: usize = 8;

pub(crate) struct Deriver {
    pub(crate) lines: Vec<String>,
}

/// `(u)'` — the prime notation for a part.
fn prime(e: &Expr) -> String {
    format!("({})'", compact(e))
}

/// A part inside a product: parentheses around a sum.
fn part(e: &Expr) -> String {
    match e {
        Expr::Add(_) => format!("({})", compact(e)),
        e => compact(e),
    }
}

fn mul_of(mut v: Vec<Expr>) -> Expr {
    if v.len() == 1 { v.remove(0) } else { Expr::Mul(v) }
}

impl Deriver {
    pub(crate) fn new() -> Self {
        Self { lines: Vec::new() }
    }

    fn reserve(&mut self) -> usize {
        self.lines.push(String::new());
        self.lines.len() - 1
    }

    fn set(&mut self, at: usize, line: String) {
        self.lines[at] = line;
    }

    /// The simplified derivative of the simplified `e`.
    pub(crate) fn d(&mut self, e: &Expr) -> Result<Expr, Error> {
        if !e.has_var() {
            return Ok(Expr::int(0));
        }
        match e {
            Expr::Var(_) => Ok(Expr::int(1)),
            Expr::Add(_) if e.as_linear().is_some() => {
                // ax + b: no line of its own
                let (a, _) = e.as_linear().unwrap_or((Q::ONE, Q::ZERO));
                Ok(Expr::Num(a))
            }
            Expr::Add(terms) => {
                let at = self.reserve();
                let ds = terms.iter().map(|t| self.d(t)).collect::<Result<Vec<_>, _>>()?;
                let r = simplify(&Expr::Add(ds))?;
                let pattern: Vec<String> = terms.iter().map(prime).collect();
                self.set(at, format!("sum rule: {} = {}", pattern.join(" + "), human(&r)));
                Ok(r)
            }
            Expr::Mul(v) => self.product(v),
            Expr::Pow(b, x) => self.power(e, b, x),
            Expr::Fn(f, a) => self.function(e, *f, a),
            Expr::Num(_) | Expr::Const(_) => Ok(Expr::int(0)),
        }
    }

    fn product(&mut self, v: &[Expr]) -> Result<Expr, Error> {
        let (consts, vars): (Vec<Expr>, Vec<Expr>) = v.iter().cloned().partition(|f| !f.has_var());
        let whole = Expr::Mul(v.to_vec());
        if !consts.is_empty() {
            let rest = mul_of(vars);
            let c = mul_of(consts);
            // c·x^n in one line
            if matches!(&rest, Expr::Var(_))
                || matches!(&rest, Expr::Pow(b, x) if matches!(**b, Expr::Var(_)) && !x.has_var())
            {
                let quiet = matches!(rest, Expr::Var(_));
                let at = (!quiet).then(|| self.reserve());
                let mut inner = Deriver::new();
                let r = simplify(&Expr::mul2(c, inner.d(&rest)?))?;
                if let Some(at) = at {
                    self.set(at, format!("power rule: {} = {}", prime(&whole), human(&r)));
                }
                return Ok(r);
            }
            let at = self.reserve();
            let dr = self.d(&rest)?;
            let r = simplify(&Expr::mul2(c.clone(), dr))?;
            self.set(
                at,
                format!(
                    "constant multiple: {} = {}·{} = {}",
                    prime(&whole),
                    part(&c),
                    prime(&rest),
                    human(&r)
                ),
            );
            return Ok(r);
        }
        // a quotient: factors with a negative exponent over a non-constant base form v
        let (den, num): (Vec<Expr>, Vec<Expr>) = vars
            .into_iter()
            .partition(|f| matches!(f, Expr::Pow(_, x) if x.as_num().is_some_and(Q::is_negative)));
        if !den.is_empty() && !num.is_empty() {
            let u = mul_of(num);
            let w = simplify(&Expr::pow(mul_of(den), Expr::int(-1)))?;
            let at = self.reserve();
            let du = self.d(&u)?;
            let dw = self.d(&w)?;
            let top = Expr::add2(Expr::mul2(du, w.clone()), Expr::negate(Expr::mul2(u.clone(), dw)));
            let r = simplify(&Expr::mul2(top, Expr::pow(w.clone(), Expr::int(-2))))?;
            self.set(
                at,
                format!(
                    "quotient rule: ({}·{} - {}·{})/{}^2 = {}",
                    prime(&u),
                    part(&w),
                    part(&u),
                    prime(&w),
                    paren_pow_base(&w),
                    human(&r)
                ),
            );
            return Ok(r);
        }
        let mut all = den;
        all.extend(num);
        let f = all.remove(0);
        let g = mul_of(all);
        let at = self.reserve();
        let df = self.d(&f)?;
        let dg = self.d(&g)?;
        let r = simplify(&Expr::add2(Expr::mul2(df, g.clone()), Expr::mul2(f.clone(), dg)))?;
        self.set(
            at,
            format!("product rule: {}·{} + {}·{} = {}", prime(&f), part(&g), part(&f), prime(&g), human(&r)),
        );
        Ok(r)
    }

    fn power(&mut self, e: &Expr, b: &Expr, x: &Expr) -> Result<Expr, Error> {
        let at = self.reserve();
        let (label, outer, inner) = if !x.has_var() {
            // power rule: n·b^(n-1)
            let n_minus_1 = simplify(&Expr::add2(x.clone(), Expr::int(-1)))?;
            let outer = simplify(&Expr::mul2(x.clone(), Expr::pow(b.clone(), n_minus_1)))?;
            ("power rule", outer, b)
        } else if !b.has_var() {
            let outer = if *b == Expr::Const(Constant::E) {
                e.clone()
            } else {
                simplify(&Expr::mul2(e.clone(), Expr::func(Func::Ln, b.clone())))?
            };
            ("exponential rule", outer, x)
        } else {
            // f^g = e^(g·ln f)
            let df = self.d(b)?;
            let dg = self.d(x)?;
            let inside = Expr::add2(
                Expr::mul2(dg, Expr::func(Func::Ln, b.clone())),
                Expr::Mul(vec![x.clone(), df, Expr::recip(b.clone())]),
            );
            let r = simplify(&Expr::mul2(e.clone(), inside))?;
            self.set(
                at,
                format!("logarithmic differentiation: (f^g)' = f^g·(g'·ln(f) + g·f'/f) = {}", human(&r)),
            );
            return Ok(r);
        };
        self.chain(at, label, e, outer, inner)
    }

    /// Outer derivative times the inner one; the line says "chain rule" when the inside
    /// is more than the variable.
    fn chain(&mut self, at: usize, label: &str, e: &Expr, outer: Expr, inner: &Expr) -> Result<Expr, Error> {
        if matches!(inner, Expr::Var(_)) {
            self.set(at, format!("{label}: {} = {}", prime(e), human(&outer)));
            return Ok(outer);
        }
        let di = self.d(inner)?;
        let r = simplify(&Expr::mul2(outer.clone(), di))?;
        self.set(
            at,
            format!(
                "chain rule with the {label}: {} = {}·{} = {}",
                prime(e),
                part(&outer),
                prime(inner),
                human(&r)
            ),
        );
        Ok(r)
    }

    fn function(&mut self, e: &Expr, f: Func, a: &Expr) -> Result<Expr, Error> {
        let (label, outer, inner) = match (f, a) {
            (Func::Ln, Expr::Fn(Func::Abs, u)) => ("logarithm rule", Expr::recip((**u).clone()), &**u),
            (Func::Abs, _) => return Err(Error::Unsupported("the derivative of an absolute value".into())),
            (Func::Sin, _) => ("derivative of sin", Expr::func(Func::Cos, a.clone()), a),
            (Func::Cos, _) => ("derivative of cos", Expr::negate(Expr::func(Func::Sin, a.clone())), a),
            (Func::Tan, _) => {
                ("derivative of tan", Expr::pow(Expr::func(Func::Cos, a.clone()), Expr::int(-2)), a)
            }
            (Func::Ln, _) => ("logarithm rule", Expr::recip(a.clone()), a),
        };
        let outer = simplify(&outer)?;
        let at = self.reserve();
        self.chain(at, label, e, outer, inner)
    }
}

fn paren_pow_base(w: &Expr) -> String {
    match w {
        Expr::Var(_) | Expr::Fn(..) => compact(w),
        w => format!("({})", compact(w)),
    }
}
