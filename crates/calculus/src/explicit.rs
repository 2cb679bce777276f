//! The student's expression written out for exmex from the tokens (never from our tree):
//! implicit multiplication made explicit (`3x^2` → `3*x^(2)`), `e` and `pi` as exmex's
//! `E` and `PI`, `ln`/`log` as `ln`, a function's argument without parentheses wrapped
//! in them (`sin 2x` → `sin(2*x)`), `sin^2(x)` → `(sin(x))^(2)`, scientific notation as
//! a product (`1e9` → `(1*10^9)`). exmex binds a unary minus tighter than `^` and reads
//! `^` from the left, so a unary minus is written `(0-…)` and an exponent is put in
//! parentheses; everything else (the order of `+ - * /`) is left to exmex's parser.

use crate::expr::Constant;
use crate::parse::{FuncName, Tok};

/// The text exmex parses, or `None` when the tokens do not form an expression.
pub(crate) fn explicit(toks: &[Tok]) -> Option<String> {
    let mut w = Writer { toks, pos: 0 };
    let s = w.expr()?;
    (w.pos == toks.len()).then_some(s)
}

struct Writer<'a> {
    toks: &'a [Tok],
    pos: usize,
}

impl Writer<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, op: char) -> bool {
        let found = self.peek() == Some(&Tok::Op(op));
        self.pos += usize::from(found);
        found
    }

    fn expr(&mut self) -> Option<String> {
        let mut s = self.term()?;
        loop {
            if self.eat('+') {
                s.push('+');
            } else if self.eat('-') {
                s.push('-');
            } else {
                return Some(s);
            }
            s.push_str(&self.term()?);
        }
    }

    fn term(&mut self) -> Option<String> {
        let mut s = self.unary()?;
        loop {
            if self.eat('*') {
                s.push('*');
                s.push_str(&self.unary()?);
            } else if self.eat('/') {
                s.push('/');
                s.push_str(&self.unary()?);
            } else if matches!(
                self.peek(),
                Some(Tok::Num(..) | Tok::Var(_) | Tok::Const(_) | Tok::Func(_) | Tok::Op('('))
            ) {
                s.push('*');
                s.push_str(&self.power()?);
            } else {
                return Some(s);
            }
        }
    }

    fn unary(&mut self) -> Option<String> {
        if self.eat('-') {
            Some(format!("(0-{})", self.unary()?))
        } else if self.eat('+') {
            self.unary()
        } else {
            self.power()
        }
    }

    fn power(&mut self) -> Option<String> {
        let base = self.primary()?;
        if self.eat('^') {
            return Some(format!("{base}^({})", self.unary()?));
        }
        Some(base)
    }

    fn primary(&mut self) -> Option<String> {
        let tok = self.peek()?.clone();
        self.pos += 1;
        match tok {
            Tok::Num(_, lit) => Some(lit),
            Tok::Var(c) => Some(c.to_string()),
            Tok::Const(Constant::E) => Some("E".into()),
            Tok::Const(Constant::Pi) => Some("PI".into()),
            Tok::Op('(') => {
                let inner = self.expr()?;
                self.eat(')').then(|| format!("({inner})"))
            }
            Tok::Func(f) => {
                let power = if self.eat('^') {
                    let Some(Tok::Num(_, lit)) = self.peek().cloned() else { return None };
                    self.pos += 1;
                    Some(lit)
                } else {
                    None
                };
                let arg = if self.peek() == Some(&Tok::Op('(')) {
                    self.primary()?
                } else {
                    let mut factors = vec![self.power()?];
                    while matches!(self.peek(), Some(Tok::Num(..) | Tok::Var(_) | Tok::Const(_))) {
                        factors.push(self.power()?);
                    }
                    format!("({})", factors.join("*"))
                };
                let name = match f {
                    FuncName::F(f) => f.name(),
                    FuncName::Exp => "exp",
                    FuncName::Sqrt => "sqrt",
                };
                Some(match power {
                    Some(p) => format!("({name}{arg})^({p})"),
                    None => format!("{name}{arg}"),
                })
            }
            Tok::Op(_) => None,
        }
    }
}
