//! Reading what a student types: `+ - * / ^`, unary minus, parentheses, implicit
//! multiplication (`3x^2`, `2sin(x)`, `(x+1)(x-1)`), `e`, `pi`, `sin cos tan exp ln log
//! sqrt` (with or without parentheses: `sin 2x` is `sin(2x)`, `sin^2(x)` is `sin(x)^2`),
//! and one single-letter variable.

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Q),
    Var(char),
    Const(Constant),
    Func(FuncName),
    Op(char),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum FuncName {
    F(Func),
    Exp,
    Sqrt,
}

const NAMES: [(&str, Option<FuncName>); 8] = [
    ("sqrt", Some(FuncName::Sqrt)),
    ("sin", Some(FuncName::F(Func::Sin))),
    ("cos", Some(FuncName::F(Func::Cos))),
    ("tan", Some(FuncName::F(Func::Tan))),
    ("exp", Some(FuncName::Exp)),
    ("log", Some(FuncName::F(Func::Ln))),
    ("ln", Some(FuncName::F(Func::Ln))),
    ("pi", None),
];

/// Function names a student may type that this tutor does not handle.
const UNSUPPORTED: [&str; 16] = [
    "arcsin", "arccos", "arctan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sec", "csc", "cot", "abs",
    "floor", "log10", "log2",
];

fn normalize(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '²' => s.push_str("^2"),
            '³' => s.push_str("^3"),
            '·' | '×' | '⋅' | '∙' => s.push('*'),
            '−' | '–' => s.push('-'),
            'π' => s.push_str("pi"),
            '√' => s.push_str("sqrt"),
            c => s.push(c),
        }
    }
    s.replace("**", "^")
}

fn tokenize(text: &str) -> Result<Vec<Tok>, Error> {
    let s = normalize(text);
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let lit: String = chars[start..i].iter().collect();
            let q = Q::parse_decimal(&lit)
                .ok_or_else(|| Error::Syntax(format!("cannot read the number {lit}")))?;
            out.push(Tok::Num(q));
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            split_word(&word, &mut out)?;
        } else if "+-*/^()".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else if c == '[' || c == '{' {
            out.push(Tok::Op('('));
            i += 1;
        } else if c == ']' || c == '}' {
            out.push(Tok::Op(')'));
            i += 1;
        } else if c == '|' {
            return Err(Error::Unsupported("absolute values".into()));
        } else {
            return Err(Error::Syntax(format!("unexpected character {c}")));
        }
    }
    Ok(out)
}

fn split_word(word: &str, out: &mut Vec<Tok>) -> Result<(), Error> {
    if let Some(name) = UNSUPPORTED.iter().find(|n| word.contains(**n)) {
        return Err(Error::Unsupported(format!("the function {name}")));
    }
    let mut rest = word;
    'outer: while !rest.is_empty() {
        for (name, f) in NAMES {
            if let Some(r) = rest.strip_prefix(name) {
                out.push(match f {
                    Some(f) => Tok::Func(f),
                    None => Tok::Const(Constant::Pi),
                });
                rest = r;
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or('x');
        out.push(if c == 'e' { Tok::Const(Constant::E) } else { Tok::Var(c) });
        rest = &rest[1..];
    }
    Ok(())
}

/// Deepest nesting the parser follows (parentheses, signs, powers, functions).
const MAX_DEPTH: usize = 60;

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

/// Parses `text` into an (unsimplified) expression.
pub(crate) fn parse(text: &str) -> Result<Expr, Error> {
    let toks = tokenize(text)?;
    if toks.is_empty() {
        return Err(Error::Syntax("there is no expression".into()));
    }
    if toks.len() > 400 {
        return Err(Error::Syntax("the expression is too long".into()));
    }
    let mut p = Parser { toks, pos: 0, depth: 0 };
    let e = p.expr()?;
    if p.pos < p.toks.len() {
        return Err(Error::Syntax(format!("unexpected {}", p.describe())));
    }
    Ok(e)
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn eat(&mut self, op: char) -> bool {
        if self.peek() == Some(&Tok::Op(op)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            Some(Tok::Op(c)) => format!("'{c}'"),
            Some(_) => "text".into(),
            None => "end of the expression".into(),
        }
    }

    fn expr(&mut self) -> Result<Expr, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::Syntax("the expression is nested too deeply".into()));
        }
        let mut terms = vec![self.term()?];
        loop {
            if self.eat('+') {
                terms.push(self.term()?);
            } else if self.eat('-') {
                terms.push(Expr::negate(self.term()?));
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(if terms.len() == 1 { terms.remove(0) } else { Expr::Add(terms) })
    }

    fn starts_primary(&self) -> bool {
        matches!(self.peek(), Some(Tok::Num(_) | Tok::Var(_) | Tok::Const(_) | Tok::Func(_) | Tok::Op('(')))
    }

    fn term(&mut self) -> Result<Expr, Error> {
        let mut factors = vec![self.unary()?];
        loop {
            if self.eat('*') {
                factors.push(self.unary()?);
            } else if self.eat('/') {
                factors.push(Expr::recip(self.unary()?));
            } else if self.starts_primary() {
                factors.push(self.power()?);
            } else {
                break;
            }
        }
        Ok(if factors.len() == 1 { factors.remove(0) } else { Expr::Mul(factors) })
    }

    fn unary(&mut self) -> Result<Expr, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::Syntax("the expression is nested too deeply".into()));
        }
        let e = if self.eat('-') {
            Expr::negate(self.unary()?)
        } else if self.eat('+') {
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(e)
    }

    fn power(&mut self) -> Result<Expr, Error> {
        let base = self.primary()?;
        if self.eat('^') {
            let exp = self.unary()?;
            return Ok(Expr::pow(base, exp));
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<Expr, Error> {
        let tok =
            self.peek().cloned().ok_or_else(|| Error::Syntax("the expression ends too early".into()))?;
        self.pos += 1;
        match tok {
            Tok::Num(q) => Ok(Expr::Num(q)),
            Tok::Var(c) => Ok(Expr::Var(c)),
            Tok::Const(k) => Ok(Expr::Const(k)),
            Tok::Op('(') => {
                let e = self.expr()?;
                if !self.eat(')') {
                    return Err(Error::Syntax("a parenthesis is not closed".into()));
                }
                Ok(e)
            }
            Tok::Func(f) => {
                // sin^2(x) means sin(x)^2
                let power = if self.eat('^') {
                    match self.peek().cloned() {
                        Some(Tok::Num(q)) => {
                            self.pos += 1;
                            Some(q)
                        }
                        _ => return Err(Error::Syntax("expected a number after the function's ^".into())),
                    }
                } else {
                    None
                };
                let arg = if self.peek() == Some(&Tok::Op('(')) {
                    self.primary()?
                } else {
                    // without parentheses: the following product of plain factors (sin 2x)
                    let mut factors = vec![self.power()?];
                    while matches!(self.peek(), Some(Tok::Num(_) | Tok::Var(_) | Tok::Const(_))) {
                        factors.push(self.power()?);
                    }
                    if factors.len() == 1 { factors.remove(0) } else { Expr::Mul(factors) }
                };
                let applied = match f {
                    FuncName::F(f) => Expr::func(f, arg),
                    FuncName::Exp => Expr::exp(arg),
                    FuncName::Sqrt => Expr::pow(arg, Expr::q(Q::HALF)),
                };
                Ok(match power {
                    Some(q) => Expr::pow(applied, Expr::q(q)),
                    None => applied,
                })
            }
            Tok::Op(c) => Err(Error::Syntax(format!("unexpected '{c}'"))),
        }
    }
}

/// The variable letters used, sorted.
pub(crate) fn variables(e: &Expr, out: &mut Vec<char>) {
    match e {
        Expr::Var(c) => {
            if !out.contains(c) {
                out.push(*c);
                out.sort_unstable();
            }
        }
        Expr::Num(_) | Expr::Const(_) => {}
        Expr::Add(v) | Expr::Mul(v) => v.iter().for_each(|t| variables(t, out)),
        Expr::Pow(b, x) => {
            variables(b, out);
            variables(x, out);
        }
        Expr::Fn(_, a) => variables(a, out),
    }
}
