//! Function-definition phrasing: `f(x) = x^2 + 1`, `g(t) = …`, `y = …` define the
//! function a question is about; later `f`, `f(x)`, `y`, prime notation (`f'(x)`,
//! `f''(x)`, `y'`) and `dy/dx` refer to it. A bare function name that nothing defines
//! is never read as a variable.

use crate::request::{self, Ask, Order};

/// A function the question defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Definition {
    name: char,
    var: Option<char>,
    expr: String,
}

/// Letters that name a function when nothing defines them (`integrate f`).
const NAMES: [char; 3] = ['f', 'g', 'h'];
/// Words that introduce a definition ("if", "let", …), dropped with it.
const CONNECTIVES: [&str; 9] = ["if", "let", "for", "given", "where", "when", "suppose", "with", "and"];

/// `name(var)` or `y` just before `=` at `eq`: (start of the name, name, variable).
fn left_side(lower: &str, eq: usize) -> Option<(usize, char, Option<char>)> {
    let left = lower[..eq].trim_end();
    let chars: Vec<char> = left.chars().collect();
    let n = chars.len();
    let word_start = |i: usize| i == 0 || !chars[i - 1].is_alphanumeric();
    if n >= 4 && chars[n - 1] == ')' && chars[n - 3] == '(' {
        let (name, var) = (chars[n - 4], chars[n - 2]);
        if name.is_ascii_alphabetic() && var.is_ascii_alphabetic() && name != var && word_start(n - 4) {
            return Some((left.len() - 4, name, Some(var)));
        }
    }
    let point = |before: &str| ["at", "when", "where"].iter().any(|w| before.ends_with(w));
    (n >= 1 && chars[n - 1] == 'y' && word_start(n - 1) && !point(left[..left.len() - 1].trim_end()))
        .then(|| (left.len() - 1, 'y', None))
}

/// The definition in `lower` and the question without it (and without its "if"/"let").
pub(crate) fn split(lower: &str) -> Option<(Definition, String)> {
    for (eq, _) in lower.match_indices('=') {
        let Some((start, name, var)) = left_side(lower, eq) else { continue };
        let after = &lower[eq + 1..];
        // the expression: the longest run of words that is one expression, up to a
        // sentence break
        let cut =
            [". ", ",", ";", "?", "!"].iter().filter_map(|p| after.find(p)).min().unwrap_or(after.len());
        let cut = if after[..cut].ends_with('.') { cut - 1 } else { cut };
        let mut end = 0;
        for (i, _) in after[..cut].match_indices(' ').chain([(cut, "")]) {
            if calculus::is_expression(&after[..i]) {
                end = i;
            } else if after[..i].trim().is_empty() {
                continue;
            } else {
                break;
            }
        }
        let expr = after[..end].trim();
        if expr.is_empty() || !expr.chars().any(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        let mut head = lower[..start].trim_end();
        if let Some(w) = CONNECTIVES
            .iter()
            .find(|w| head.strip_suffix(**w).is_some_and(|h| h.is_empty() || h.ends_with([' ', '.', ','])))
        {
            head = head[..head.len() - w.len()].trim_end();
        }
        let tail = after[end..].trim_start_matches([' ', '.', ',', ';', ':']);
        let rest = format!("{} {}", head.trim_end_matches([',', ';', ':']), tail);
        let definition = Definition { name, var, expr: expr.to_string() };
        return Some((definition, rest.trim().to_string()));
    }
    None
}

/// Prime notation in `s`: (name, order, the argument in parentheses if any).
fn primes(s: &str) -> Option<(char, usize, Option<String>)> {
    let chars: Vec<char> = s.chars().collect();
    (1..chars.len()).find_map(|i| {
        let name = chars[i - 1];
        let starts = i < 2 || !chars[i - 2].is_alphanumeric();
        if chars[i] != '\'' || !starts || !(NAMES.contains(&name) || name == 'y') {
            return None;
        }
        let order = chars[i..].iter().take_while(|c| **c == '\'').count();
        let rest: String = chars[i + order..].iter().collect();
        if rest.starts_with(|c: char| c.is_alphanumeric()) {
            return None;
        }
        let arg = rest.strip_prefix('(').and_then(|r| r.split_once(')')).map(|(a, _)| a.trim().to_string());
        Some((name, order, arg))
    })
}

/// Whether `lower` uses prime notation (`f'(x)`, `y''`).
pub(crate) fn has_primes(lower: &str) -> bool {
    primes(lower).is_some()
}

/// A bare function name (`f`, `f(x)`, or the defined name) standing for a function.
fn is_name(text: &str, defined: Option<char>) -> bool {
    let mut chars = text.chars();
    let name = chars.next();
    let ok = name.is_some_and(|c| NAMES.contains(&c) || Some(c) == defined);
    let rest: String = chars.collect();
    ok && (rest.is_empty() || (rest.len() == 3 && rest.starts_with('(') && rest.ends_with(')')))
}

/// What `lower` asks, with a defined function put in place of its name. `Err(name)`:
/// it names a function (`f`) that nothing defines.
pub(crate) fn ask(lower: &str) -> Result<Ask, String> {
    let (def, rest) = match split(lower) {
        Some((d, r)) => (Some(d), r),
        None => (None, lower.to_string()),
    };
    // Only the defined name stands for the defined function: another name (`g` when `f`
    // was defined) is a function nothing defines, never a stand-in for the one that is.
    let fill = |expr: Option<String>| -> Result<Option<String>, String> {
        match (expr, &def) {
            (Some(e), Some(d)) if is_name(&e, Some(d.name)) && e.starts_with(d.name) => {
                Ok(Some(d.expr.clone()))
            }
            (Some(e), _) if is_name(&e, None) => Err(e),
            (None, Some(d)) => Ok(Some(d.expr.clone())),
            (e, _) => Ok(e),
        }
    };
    let var = def.as_ref().and_then(|d| d.var);
    match request::ask(&rest) {
        Ask::Integral { expr, bounds } => Ok(Ask::Integral { expr: fill(expr)?, bounds }),
        Ask::Limit(l) => Ok(Ask::Limit(crate::limits::LimitAsk { expr: fill(l.expr)?, ..l })),
        Ask::Derivative { order, again, expr, var: v, at } => {
            Ok(Ask::Derivative { order, again, expr: fill(expr)?, var: v.or(var), at })
        }
        other => match (primes(&rest), &def) {
            (Some((name, n, arg)), d) => {
                // the point: f'(3), or "f'(x) at x = 3" / "y' at 3"
                let at = arg
                    .filter(|a| a.chars().any(|c| c.is_ascii_digit() || "πe".contains(c)))
                    .or_else(|| request::point(&rest));
                let expr = match d {
                    Some(d) if d.name == name => Some(d.expr.clone()),
                    _ => return Err(name.to_string()),
                };
                Ok(Ask::Derivative { order: Order::Given(n), again: false, expr, var, at })
            }
            (None, Some(d)) if matches!(other, Ask::Other | Ask::Bare { .. }) && !rest.contains('=') => {
                Ok(Ask::Bare { expr: d.expr.clone() })
            }
            _ => Ok(other),
        },
    }
}

/// The plain answer when a question names a function (`f`) that nothing defines.
pub(crate) fn unnamed(name: &str) -> String {
    format!(
        "I don't know which function {name} is, and I won't guess. Write the function out, like \
         f(x) = x^2 + 1. Find the integral of f, or derivative of x^2 + 1."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_definitions_and_leaves_points_alone() {
        let (d, rest) = split("let f(x)=sin(x). what is f'(x)").expect("a definition");
        assert_eq!(
            (d.name, d.var, d.expr.as_str(), rest.as_str()),
            ('f', Some('x'), "sin(x)", "what is f'(x)")
        );
        let (d, rest) = split("find dy/dx if y = x^2 sin x").expect("a definition");
        assert_eq!((d.name, d.expr.as_str(), rest.as_str()), ('y', "x^2 sin x", "find dy/dx"));
        for q in [
            "what about at y = 2",
            "derivative of x^2 at x = 3",
            "solve 2x+3=7",
            "y = 5",
            "sin(x) = 1",
            "2π = x^2",
            "é(x) = x",
            "f(é) = x",
        ] {
            assert_eq!(split(q), None, "{q}");
        }
        assert_eq!(primes("find f''(x)"), Some(('f', 2, Some("x".into()))));
        assert_eq!(primes("what's y' at 2"), Some(('y', 1, None)));
        assert_eq!(primes("what's the function's value"), None);
    }

    /// Short strings of the characters these readings slice on, with multibyte ones
    /// among them: never a panic.
    #[test]
    fn any_mix_of_names_primes_and_equals_is_read_without_panicking() {
        let alphabet: Vec<String> = "f(x)=y' π.é,2^ atg;".chars().map(String::from).collect();
        let pieces: Vec<&str> = alphabet.iter().map(String::as_str).collect();
        for text in crate::tests::mixes(&pieces, 12, 7) {
            let _ = ask(&text);
        }
    }
}
