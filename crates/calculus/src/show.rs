//! Writing expressions: [`human`] for students (`3x^2·sin(x) + x^3·cos(x)`, `x^3/3`,
//! `10(2x+1)^4`, `e^(2x)`, `sqrt(x)`, `ln|x|`; spaces around `+`/`-` only at the top
//! level), and [`exmex`], fully parenthesized, for the independent check.

use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;

/// The readable form.
pub(crate) fn human(e: &Expr) -> String {
    sum(e, true)
}

/// The readable form without spaces, for a part inside a longer line (`(2x+1)'`).
pub(crate) fn compact(e: &Expr) -> String {
    sum(e, false)
}

fn negative(t: &Expr) -> bool {
    match t {
        Expr::Num(q) => q.is_negative(),
        Expr::Mul(v) => v.first().and_then(Expr::as_num).is_some_and(Q::is_negative),
        _ => false,
    }
}

fn negate(t: &Expr) -> Expr {
    match t {
        Expr::Num(q) => Expr::Num(q.negated()),
        Expr::Mul(v) => {
            let mut v = v.clone();
            if let Some(q) = v[0].as_num() {
                v[0] = Expr::Num(q.negated());
            }
            Expr::Mul(v)
        }
        t => t.clone(),
    }
}

fn sum(e: &Expr, top: bool) -> String {
    let Expr::Add(terms) = e else { return product(e) };
    let (plus, minus) = if top { (" + ", " - ") } else { ("+", "-") };
    let mut s = String::new();
    for (i, t) in terms.iter().enumerate() {
        let neg = negative(t);
        let shown = product(&if neg { negate(t) } else { t.clone() });
        match (i, neg) {
            (0, true) => s.push('-'),
            (0, false) => {}
            (_, true) => s.push_str(minus),
            (_, false) => s.push_str(plus),
        }
        s.push_str(&shown);
    }
    s
}

/// A product as `numerator/denominator`.
fn product(e: &Expr) -> String {
    let factors: Vec<Expr> = match e {
        Expr::Mul(v) => v.clone(),
        Expr::Num(q) => return q.to_string(),
        e => vec![e.clone()],
    };
    let mut coef = Q::ONE;
    let mut num = Vec::new();
    let mut den = Vec::new();
    for f in factors {
        match f {
            Expr::Num(q) => coef = q,
            Expr::Pow(b, x) if x.as_num().is_some_and(Q::is_negative) => {
                let k = x.as_num().map(Q::negated).unwrap_or(Q::ONE);
                den.push(if k == Q::ONE { *b } else { Expr::pow(*b, Expr::Num(k)) });
            }
            f => num.push(f),
        }
    }
    let mut s = String::new();
    if coef.is_negative() {
        s.push('-');
    }
    let (p, q) = (coef.numer().unsigned_abs(), coef.denom());
    if p != 1 || num.is_empty() {
        s.push_str(&p.to_string());
    }
    let mut after_number = p != 1;
    let mut prev_const = false;
    for (i, f) in num.iter().enumerate() {
        let is_var_power = class_var(f);
        let shown = factor(f);
        let juxtapose = (after_number && !shown.starts_with(|c: char| c.is_ascii_digit()))
            || (i > 0 && prev_const && is_var_power);
        if (i > 0 || after_number) && !juxtapose {
            s.push('·');
        }
        s.push_str(&shown);
        after_number = false;
        prev_const = matches!(f, Expr::Const(_));
    }
    if q != 1 {
        den.insert(0, Expr::int(q));
    }
    if !den.is_empty() {
        s.push('/');
        let single_plain = den.len() == 1 && !matches!(den[0], Expr::Add(_));
        let d = if den.len() == 1 { den[0].clone() } else { Expr::Mul(den) };
        if let Expr::Add(_) = d {
            s.push_str(&factor(&d));
            return s;
        }
        let shown = product(&d);
        if single_plain && !shown.contains(['·', '/']) && !starts_with_number_then_more(&shown) {
            s.push_str(&shown);
        } else {
            s.push('(');
            s.push_str(&shown);
            s.push(')');
        }
    }
    s
}

fn starts_with_number_then_more(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_digit()) && s.chars().any(|c| !c.is_ascii_digit())
}

fn class_var(f: &Expr) -> bool {
    match f {
        Expr::Var(_) => true,
        Expr::Pow(b, x) => matches!(**b, Expr::Var(_)) && x.as_num().is_some(),
        _ => false,
    }
}

/// One factor of a product: sums in parentheses.
fn factor(f: &Expr) -> String {
    match f {
        Expr::Add(_) => format!("({})", sum(f, false)),
        Expr::Mul(_) => format!("({})", product(f)),
        f => atom(f),
    }
}

fn atom(f: &Expr) -> String {
    match f {
        Expr::Num(q) if q.is_negative() || !q.is_int() => format!("({q})"),
        Expr::Num(q) => q.to_string(),
        Expr::Var(c) => c.to_string(),
        Expr::Const(Constant::E) => "e".into(),
        Expr::Const(Constant::Pi) => "π".into(),
        Expr::Fn(Func::Abs, a) => format!("|{}|", sum(a, false)),
        Expr::Fn(Func::Ln, a) if matches!(**a, Expr::Fn(Func::Abs, _)) => format!("ln{}", atom(a)),
        Expr::Fn(func, a) => format!("{}({})", func.name(), sum(a, false)),
        Expr::Pow(b, x) if x.as_num() == Some(Q::HALF) => format!("sqrt({})", sum(b, false)),
        Expr::Pow(b, x) => {
            let base = match **b {
                Expr::Var(_) | Expr::Const(_) | Expr::Fn(..) => atom(b),
                Expr::Num(q) if q.is_int() && !q.is_negative() => q.to_string(),
                _ => format!("({})", sum(b, false)),
            };
            let exp = match &**x {
                Expr::Num(q) if q.is_int() && !q.is_negative() => q.to_string(),
                Expr::Var(c) => c.to_string(),
                x => format!("({})", sum(x, false)),
            };
            format!("{base}^{exp}")
        }
        f => factor(f),
    }
}

/// Fully parenthesized for exmex (`ln`, `sin`, `abs`, `^`; the variable by its letter).
pub(crate) fn exmex(e: &Expr) -> String {
    match e {
        Expr::Num(q) if q.is_negative() => format!("(0-{})", exmex(&Expr::Num(q.negated()))),
        Expr::Num(q) if q.is_int() => format!("{}", q.numer()),
        Expr::Num(q) => format!("({}/{})", q.numer(), q.denom()),
        Expr::Const(Constant::E) => "E".into(),
        Expr::Const(Constant::Pi) => "PI".into(),
        Expr::Var(c) => c.to_string(),
        Expr::Add(v) => format!("({})", v.iter().map(exmex).collect::<Vec<_>>().join("+")),
        Expr::Mul(v) => format!("({})", v.iter().map(exmex).collect::<Vec<_>>().join("*")),
        Expr::Pow(b, x) => format!("({}^{})", exmex(b), exmex(x)),
        Expr::Fn(f, a) => format!("{}({})", f.name(), exmex(a)),
    }
}
