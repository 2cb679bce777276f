//! Reading what a student types: `+ - * / ^`, unary minus, parentheses, implicit
//! multiplication (`3x^2`, `2sin(x)`, `(x+1)(x-1)`), `e`, `pi`, `sin cos tan exp ln log
//! sqrt` (with or without parentheses: `sin 2x` is `sin(2x)`, `sin^2(x)` is `sin(x)^2`),
//! and one single-letter variable.

use crate::Error;
use crate::expr::{Constant, Expr, Func};
use crate::rational::Q;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// The value and the number as written for exmex (`2.5`, `(1*10^9)`).
    Num(Q, String),
    Var(char),
    Const(Constant),
    Func(FuncName),
    Op(char),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FuncName {
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

/// Function names a student may type that this tutor does not handle (read before
/// [`NAMES`], so `sinh` is not `sin` and a stray `h`).
const UNSUPPORTED: [&str; 30] = [
    "arcsinh", "arccosh", "arctanh", "arsinh", "arcosh", "artanh", "asinh", "acosh", "atanh", "arcsin",
    "arccos", "arctan", "arccot", "arcsec", "arccsc", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sech",
    "csch", "coth", "cosec", "sec", "csc", "cot", "abs", "floor",
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

/// Largest power of ten in scientific notation (`1e18`).
const MAX_EXPONENT: u32 = 18;

/// A number at `chars[i..]`: digits with a decimal point, then scientific notation when
/// `e`/`E` is followed by digits (with an optional sign): `1e9`, `2.5e-3`. `2e`, `2e^x`
/// and `2ex` stay a number times `e`.
fn number(chars: &[char], i: &mut usize) -> Result<Tok, Error> {
    let start = *i;
    while *i < chars.len() && (chars[*i].is_ascii_digit() || chars[*i] == '.') {
        *i += 1;
    }
    let mantissa: String = chars[start..*i].iter().collect();
    let unreadable = |lit: &str| Error::Syntax(format!("cannot read the number {lit}"));
    let q = Q::parse_decimal(&mantissa).ok_or_else(|| unreadable(&mantissa))?;
    let at = |k: usize| chars.get(*i + k).copied().unwrap_or(' ');
    let sign = usize::from(matches!(at(1), '+' | '-'));
    if !(matches!(at(0), 'e' | 'E') && at(1 + sign).is_ascii_digit()) {
        return Ok(Tok::Num(q, mantissa));
    }
    let negative = at(1) == '-';
    *i += 1 + sign;
    let digits = *i;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        *i += 1;
    }
    let lit: String = chars[start..*i].iter().collect();
    let k: u32 = chars[digits..*i].iter().collect::<String>().parse().unwrap_or(u32::MAX);
    if k > MAX_EXPONENT {
        return Err(Error::Unsupported(format!("numbers as large or as small as {lit}")));
    }
    let scale = Q::int(10i64.pow(k));
    let q = if negative { q.checked_div(scale) } else { q.checked_mul(scale) };
    let q = q.ok_or_else(|| Error::Unsupported(format!("numbers as large or as small as {lit}")))?;
    let op = if negative { '/' } else { '*' };
    Ok(Tok::Num(q, format!("({mantissa}{op}10^{k})")))
}

pub(crate) fn tokenize(text: &str) -> Result<Vec<Tok>, Error> {
    let s = normalize(text);
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            out.push(number(&chars, &mut i)?);
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            if (word.ends_with("log") || word.ends_with("ln"))
                && chars.get(i).is_some_and(char::is_ascii_digit)
            {
                return Err(log_glued(&word, &chars[i..]));
            }
            if !(math_word(&word) || glued(&chars, start, i)) {
                return Err(Error::Syntax(format!("the word \"{word}\" is not part of an expression")));
            }
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

/// `log10(x)`, `log2 x`, `ln2x`: a logarithm glued to digits is never read as a
/// product (`log(10)·x`); a base is not supported, anything else is ambiguous.
fn log_glued(word: &str, after: &[char]) -> Error {
    let digits: String = after.iter().take_while(|c| c.is_ascii_digit()).collect();
    let name = if word.ends_with("log") { "log" } else { "ln" };
    let next = after.get(digits.len()).copied().unwrap_or(' ');
    if name == "log" && (digits == "10" || digits == "2") && !next.is_ascii_alphanumeric() {
        return Error::Unsupported(format!(
            "log{digits} (a logarithm to another base); write ln(x)/ln({digits}) for log{digits}(x)"
        ));
    }
    let v = if next.is_ascii_alphabetic() { next } else { 'x' };
    Error::Syntax(format!(
        "\"{name}{digits}\" is ambiguous: write {name}({digits}{v}) or {name}({digits})·{v} with parentheses"
    ))
}

/// Whether a word of letters reads as part of an expression: a single letter, or names
/// (functions, `pi`, and the functions this tutor declines, so it can say so) with
/// variable letters (`x y z t u v w s`) between them, never two side by side (`sinx`,
/// `xcosx`, `pi`; not `with`, `steps`, `using`, `xy`).
pub fn math_word(word: &str) -> bool {
    if word.chars().count() <= 1 {
        return true;
    }
    let mut rest = word;
    let mut loose = 0;
    while !rest.is_empty() {
        if let Some(name) =
            UNSUPPORTED.into_iter().chain(NAMES.iter().map(|(n, _)| *n)).find(|n| rest.starts_with(n))
        {
            rest = &rest[name.len()..];
            loose = 0;
        } else {
            loose += 1;
            if loose > 1 || !rest.starts_with(['x', 'y', 'z', 't', 'u', 'v', 'w', 's']) {
                return false;
            }
            rest = &rest[rest.chars().next().map_or(1, char::len_utf8)..];
        }
    }
    true
}

/// Whether the letters `chars[start..end]` are glued to an expression (`2xy`, `xe^x`,
/// `ex(`): right after a digit or `)`, or right before `(`, `^` or a digit.
fn glued(chars: &[char], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).map(|i| chars[i]);
    let after = chars.get(end);
    before.is_some_and(|c| c.is_ascii_digit() || c == ')' || c == '.')
        || after.is_some_and(|c| c.is_ascii_digit() || *c == '(' || *c == '^')
}

/// Characters that may appear in an expression besides letters and digits.
const MATH_CHARS: &str = " \t.+-*/^()[]{}|²³·×⋅∙−–π√";

/// The expression at the start of `text`: a maximal run of numbers, operators,
/// parentheses, function names, constants and single-letter variables; the first other
/// word or character ends it (`x^2 with steps` → `x^2`). When anything that looks like
/// maths follows that word (a digit, an operator, a function name, a letter other than
/// `a`), the whole text is returned, so the parser says what it could not read rather
/// than the tutor answering a shorter expression than the one asked about.
pub fn leading_expression(text: &str) -> &str {
    let chars: Vec<char> = text.chars().collect();
    let offset = |i: usize| chars[..i].iter().map(|c| c.len_utf8()).sum::<usize>();
    let (i, end) = expression_run(&chars);
    let rest = &chars[i..];
    let mathy = rest.iter().any(|c| c.is_ascii_digit() || "+*/^()=²³√π".contains(*c))
        || rest
            .split(|c| !c.is_ascii_alphabetic())
            .map(|w| w.iter().collect::<String>().to_lowercase())
            .any(|w| (w.len() == 1 && w != "a") || (w.len() > 1 && math_word(&w)));
    if mathy { text.trim() } else { text[..offset(end)].trim() }
}

/// Whether all of `text` (not empty) is one run of expression characters and words, as
/// [`leading_expression`] reads them (`x^3`, `sin x`; not `and the 3rd`).
pub fn is_expression(text: &str) -> bool {
    let chars: Vec<char> = text.trim().chars().collect();
    !chars.is_empty() && expression_run(&chars).0 == chars.len()
}

/// Where the run of expression characters and words at the start of `chars` stops,
/// and where its last character that is not a space ends.
fn expression_run(chars: &[char]) -> (usize, usize) {
    let mut i = 0;
    let mut end = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
            if !(math_word(&word) || glued(chars, start, i)) {
                i = start;
                break;
            }
            end = i;
        } else if c.is_ascii_digit() || MATH_CHARS.contains(c) {
            i += 1;
            if !c.is_whitespace() {
                end = i;
            }
        } else {
            break;
        }
    }
    (i, end)
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

/// Parses tokens into an (unsimplified) expression.
pub(crate) fn parse_tokens(toks: Vec<Tok>) -> Result<Expr, Error> {
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
        matches!(self.peek(), Some(Tok::Num(..) | Tok::Var(_) | Tok::Const(_) | Tok::Func(_) | Tok::Op('(')))
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
            Tok::Num(q, _) => Ok(Expr::Num(q)),
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
                        Some(Tok::Num(q, _)) => {
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
                    while matches!(self.peek(), Some(Tok::Num(..) | Tok::Var(_) | Tok::Const(_))) {
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
