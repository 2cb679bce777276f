//! Limit questions: reading them and answering them with `calculus::limit`.
//!
//! A question is a limit when it has the word `limit` (or `lim`) and names where the
//! variable goes — or, naming no other operation, says where the variable goes about an
//! expression ("what does sin(x)/x approach as x goes to 0", "what happens to … as x
//! gets close to 1"): `as x goes to / approaches / tends to / gets close to / -> / → a`
//! (a verb of approach only after a one-letter variable), `lim x->0 …`,
//! `lim_{x→0} …`, `lim (x->0) …`, `limit as x approaches 0 of …` (the words of other
//! languages are English by then: `words.rs`). The point is a number (`0`, `pi/2`, `-1`)
//! or infinity (`infinity`, `inf`, `∞`, `-infinity`, `negative infinity`); one side by
//! `0+` / `0^+` / `0⁺`, `0-`, or `from the right` / `from above` / `from the left` /
//! `from below`. A limit with no point asks for one; one with no function ("limit as x
//! -> 0", "and as x goes to infinity?") is about the conversation's last function.

use calculus::{Error, Function, Limit, Point, Side};

use crate::answer::{Answer, cannot, reply};
use crate::phrase::{reading, shown_to};

/// What a limit question asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LimitAsk {
    /// The function's text; `None` when it refers back.
    pub(crate) expr: Option<String>,
    /// The point as typed (`0`, `infinity`); `None` when the question names none.
    pub(crate) to: Option<String>,
    pub(crate) side: Side,
}

/// Verbs of approach, turned into `->` after a one-letter variable (`x approaches 0`,
/// `x gets close to 1`; "what does sin(x)/x approach" keeps its verb).
const ARROWS: &[&str] = &[
    " gets closer and closer to ",
    " gets closer to ",
    " gets close to ",
    " get closer to ",
    " get close to ",
    " comes close to ",
    " gets near ",
    " goes towards ",
    " goes toward ",
    " heads towards ",
    " heads to ",
    " tends towards ",
    " tends toward ",
    " goes to ",
    " going to ",
    " approaches ",
    " approaching ",
    " tends to ",
    " tending to ",
    " tends ",
    " approach ",
    " go to ",
    " nears ",
];

/// The text from the key on, with approach verbs as `->` (`as x to 0` too).
fn arrows(s: &str) -> String {
    let mut s = format!(" {s} ").replace('→', "->");
    for a in ARROWS {
        let mut from = 0;
        while let Some(i) = s[from..].find(a).map(|i| i + from) {
            // the verb's subject: a one-letter variable
            let subject = s[..i].rsplit(' ').next().unwrap_or("");
            if subject.chars().count() == 1 && subject.chars().all(|c| c.is_ascii_alphabetic()) {
                s.replace_range(i..i + a.len(), " -> ");
                from = i + 4;
            } else {
                from = i + a.len() - 1;
            }
        }
    }
    for lead in ["as ", "when ", "for "] {
        let chars: Vec<char> = s.chars().collect();
        if let Some(i) = s.find(lead) {
            let rest: String = chars[s[..i].chars().count() + lead.len()..].iter().collect();
            if let Some(v) = rest.strip_prefix(|c: char| c.is_ascii_alphabetic())
                && let Some(r) = v.strip_prefix(" to ")
            {
                let var = rest.chars().next().unwrap_or('x');
                s = format!("{}{lead}{var} -> {r}", &s[..i]);
            }
        }
    }
    s
}

/// `(index, length)` of the first whole word `limit`, `limits` or `lim` (also `lim_`).
fn key(lower: &str) -> Option<(usize, usize)> {
    for k in ["limits", "limit", "lim"] {
        for (i, _) in lower.match_indices(k) {
            let before = lower[..i].chars().next_back();
            let after = lower[i + k.len()..].chars().next();
            if !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic) {
                return Some((i, k.len()));
            }
        }
    }
    None
}

/// The point's text and side from the words after `->`, and how many bytes they took.
fn point(after: &str, closer: Option<char>) -> (String, Side, usize) {
    let trimmed = after.trim_start();
    let start = after.len() - trimmed.len();
    let mut end = match closer {
        Some(c) => trimmed.find(c).map_or(trimmed.len(), |i| i + c.len_utf8()),
        None => trimmed.find(' ').unwrap_or(trimmed.len()),
    };
    let mut text = trimmed[..end].trim_end_matches(closer.unwrap_or(' ')).trim().to_string();
    for sign in ["negative ", "minus ", "plus ", "positive "] {
        if let Some(r) = trimmed.strip_prefix(sign) {
            let w = r.find(' ').unwrap_or(r.len());
            text = format!(
                "{}{}",
                if sign.starts_with('n') || sign.starts_with('m') { "-" } else { "" },
                &r[..w]
            );
            end = sign.len() + w;
        }
    }
    let mut side = Side::Both;
    for (suffix, s) in [
        ("^+", Side::Right),
        ("^-", Side::Left),
        ("⁺", Side::Right),
        ("⁻", Side::Left),
        ("+", Side::Right),
        ("-", Side::Left),
    ] {
        if text.len() > suffix.len() && text.ends_with(suffix) {
            text.truncate(text.len() - suffix.len());
            side = s;
            break;
        }
    }
    let rest = &trimmed[end..];
    for (words, s) in [
        (" from the right", Side::Right),
        (" from above", Side::Right),
        (" from the positive side", Side::Right),
        (" from the left", Side::Left),
        (" from below", Side::Left),
        (" from the negative side", Side::Left),
    ] {
        if rest.starts_with(words) {
            side = s;
            end += words.len();
        }
    }
    (text, side, start + end)
}

/// The limit `lower` asks for, if it is a limit question. Without the word `limit`,
/// with `unnamed` (the question names no other operation), a question that says where
/// the variable goes (`as x goes to 0`, `when x gets close to 1`) about an expression it
/// names is one too: "what does sin(x)/x approach as x goes to 0".
pub(crate) fn read(lower: &str, unnamed: bool) -> Option<LimitAsk> {
    // a follow-up names no key: "and as x goes to infinity?"
    let follow_up =
        ["and as ", "as ", "what about as ", "and when ", "now as "].iter().any(|p| lower.starts_with(p));
    let named = key(lower);
    let implicit = named.is_none() && !follow_up;
    if implicit && !unnamed {
        return None;
    }
    let (i, len) = named.unwrap_or((0, 0));
    let s = arrows(&lower[i + len..]);
    let Some(p) = s.find("->") else {
        named?;
        // no point: a limit to compute only when an expression is clearly there
        let expr = crate::phrase::clean(s.trim().strip_prefix("of ").unwrap_or(s.trim()))
            .filter(|e| e.chars().any(|c| c.is_ascii_digit() || "^*/+-()".contains(c)));
        return expr.map(|e| LimitAsk { expr: Some(e), to: None, side: Side::Both });
    };
    // the clause "as x ->", "_{x->", "(x ->": where it starts, and what closes it
    let head = s[..p].trim_end();
    let (var_at, var) = head.char_indices().next_back()?;
    if !var.is_ascii_alphabetic() || head[..var_at].chars().next_back().is_some_and(char::is_alphabetic) {
        return None;
    }
    let mut start = var_at;
    let mut closer = None;
    let before = head[..var_at].trim_end();
    for (lead, close) in
        [("_{", Some('}')), ("_(", Some(')')), ("{", Some('}')), ("(", Some(')')), ("_", None)]
    {
        if before.ends_with(lead) {
            start = before.len() - lead.len();
            closer = close;
            break;
        }
    }
    let mut led = false;
    for lead in ["as", "when", "while", "for", "with"] {
        if closer.is_none() && before.ends_with(lead) && whole_at(before, before.len() - lead.len()) {
            start = before.len() - lead.len();
            led = true;
        }
    }
    let (to, side, used) = point(&s[p + 2..], closer);
    let to = to.trim_end_matches([',', ';']).to_string();
    let rest = format!("{} {}", &s[..start], &s[p + 2 + used..]);
    let rest = rest.trim().trim_start_matches([',', ' ']);
    let rest = rest.strip_prefix("of ").unwrap_or(rest).trim();
    let expr = crate::phrase::clean(rest);
    // without the word: a clause "as x -> a" and an expression of the variable
    let of_var = |e: &String| calculus::read(e, var).is_ok_and(|f| f.expr.has_var());
    if implicit && !(led && !to.is_empty() && expr.as_ref().is_some_and(of_var)) {
        return None;
    }
    Some(LimitAsk { expr, to: (!to.is_empty()).then_some(to), side })
}

fn whole_at(s: &str, i: usize) -> bool {
    !s[..i].chars().next_back().is_some_and(char::is_alphabetic)
}

/// `lim x→0 sin(x)/x`: how the limit of `f` at `point` from `side` is written.
fn head(f: &Function, point: &Point, side: Side) -> String {
    let shown = match &f.expr {
        calculus::Expr::Add(_) => format!("({})", f.shown()),
        _ => f.shown(),
    };
    format!("lim {}→{}{} {shown}", f.var, shown_to(point), mark(point, side))
}

/// The side's mark after a number (`⁺`, `⁻`); none at infinity or from both sides.
fn mark(point: &Point, side: Side) -> &'static str {
    match (point, side) {
        (Point::At(_), Side::Right) => "⁺",
        (Point::At(_), Side::Left) => "⁻",
        _ => "",
    }
}

/// ` = 1`, or ` does not exist (…)`: the value as it follows the head.
fn stated(limit: &Limit) -> String {
    match limit {
        Limit::Differ { .. } => format!(" {}", limit.display()),
        l => format!(" = {}", l.display()),
    }
}

/// The limit of `f` as its variable goes `to` a point from `side`, computed again, with
/// how it is written: for "why?" after a limit (`why.rs`). `None` when it has none.
pub(crate) fn retraced(f: &Function, to: &str, side: Side) -> Option<(String, calculus::LimitWorked)> {
    let point = reading(to).ok()?;
    let w = calculus::limit(f, &point, side).ok()?;
    Some((format!("{}{}", head(f, &point, side), stated(&w.limit)), w))
}

/// The answer to a limit question about `f`.
pub(crate) fn answer(f: &Function, to: &str, side: Side) -> Answer {
    let v = f.var;
    let Ok(point) = reading(to) else {
        return reply("unable", format!("I couldn't read \"{to}\" as a number or infinity."));
    };
    let shown_to = shown_to(&point);
    let mark = mark(&point, side);
    let head = head(f, &point, side);
    match calculus::limit(f, &point, side) {
        Ok(w) => {
            let value = stated(&w.limit);
            let note = w.note.as_ref().map(|n| format!("\n({n}.)")).unwrap_or_default();
            let steps = crate::compute::steps(&w.steps);
            let approach = match (&point, mark, &w.note) {
                (Point::At(_), "", None) => format!("approaching {v} = {shown_to} from both sides"),
                (Point::At(_), _, _) => format!("approaching {v} = {shown_to} from that side"),
                _ => format!("as {v} → {shown_to}"),
            };
            // the check agrees with what is stated: each side's values go where that side
            // is said to go (two sides that differ do not "agree" with each other)
            let checked = match &w.limit {
                Limit::Differ { .. } => format!(
                    "Checked numerically: the function's values {approach} go where each side is said to go."
                ),
                _ => format!("Checked numerically: the function's values {approach} agree."),
            };
            reply("answered", format!("{head}{value}{note}{steps}\n{checked}"))
        }
        Err(Error::NotDefined { .. }) => reply(
            "unable",
            format!("{} is not defined beside {v} = {shown_to}, so it has no limit there.", f.shown()),
        ),
        Err(e) => cannot(&head, &e),
    }
}

/// The answer when a limit question names no point.
pub(crate) fn where_to(expr: &str) -> Answer {
    reply(
        "answered",
        format!(
            "Where should the variable go? Ask, for example: limit of {expr} as x -> 0 (or -> infinity, or 0+ for one side)."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(q: &str) -> Option<LimitAsk> {
        read(&crate::phrase::normalize(q), true)
    }

    fn ask(expr: &str, to: &str, side: Side) -> Option<LimitAsk> {
        Some(LimitAsk { expr: Some(expr.into()), to: Some(to.into()), side })
    }

    #[test]
    fn reads_the_ways_a_limit_is_written() {
        for (q, want) in [
            ("limit of sin(x)/x as x goes to 0", ask("sin(x)/x", "0", Side::Both)),
            ("lim x->0 sin(x)/x", ask("sin(x)/x", "0", Side::Both)),
            ("lim_{x→0} sin(x)/x", ask("sin(x)/x", "0", Side::Both)),
            ("lim (x->1) (x^2-1)/(x-1)", ask("(x^2-1)/(x-1)", "1", Side::Both)),
            ("limit as x approaches 0 of (1-cos(x))/x", ask("(1-cos(x))/x", "0", Side::Both)),
            (
                "what is the limit of (1+1/x)^x as x tends to infinity?",
                ask("(1+1/x)^x", "infinity", Side::Both),
            ),
            ("limit of 1/x as x approaches 0 from the right", ask("1/x", "0", Side::Right)),
            ("lim x->0+ 1/x", ask("1/x", "0", Side::Right)),
            ("lim x->0- 1/x", ask("1/x", "0", Side::Left)),
            ("limit of e^x as x goes to negative infinity", ask("e^x", "-infinity", Side::Both)),
            ("límite de sin(x)/x cuando x tiende a 0", ask("sin(x)/x", "0", Side::Both)),
            ("Grenzwert von sin(x)/x für x gegen 0", ask("sin(x)/x", "0", Side::Both)),
            ("limit of x^2 as x to 3", ask("x^2", "3", Side::Both)),
        ] {
            assert_eq!(r(q), want, "{q}");
        }
        assert_eq!(r("what is a limit"), None);
        // without the word: where the variable goes, about an expression it names
        for (q, want) in [
            ("what does sin(x)/x approach as x goes to 0", ask("sin(x)/x", "0", Side::Both)),
            ("what happens to (x^2-1)/(x-1) as x gets close to 1", ask("(x^2-1)/(x-1)", "1", Side::Both)),
            ("as x gets closer to 2, what does x^2 do?", ask("x^2", "2", Side::Both)),
            ("where does 1/x head as x heads to infinity", ask("1/x", "infinity", Side::Both)),
            ("qué pasa con sin(x)/x cuando x tiende a 0", ask("sin(x)/x", "0", Side::Both)),
        ] {
            assert_eq!(r(q), want, "{q}");
        }
        for q in
            ["what happens when time goes to infinity", "what happens to the sine of x as x -> 0", "x^2 + 1"]
        {
            assert_eq!(r(q), None, "{q}");
        }
        // another operation named: not a limit
        assert_eq!(read(&crate::phrase::normalize("derivative of x^2 as x goes to 0"), false), None);
        // any mix of the characters the reading slices on, multibyte ones among them:
        // never a panic
        let alphabet: Vec<&str> = vec![
            "lim",
            "it ",
            "->",
            "→",
            "{",
            "}",
            "(",
            ")",
            "x",
            "é",
            "0",
            "+",
            "-",
            " ",
            "as ",
            "from the right",
            "_",
            "^",
            "∞",
            "of ",
        ];
        for text in crate::tests::mixes(&alphabet, 10, 11) {
            let _ = read(&text, true);
            let _ = crate::words::canonical(&text);
        }
        assert_eq!(
            r("limit of sin(x)/x"),
            Some(LimitAsk { expr: Some("sin(x)/x".into()), to: None, side: Side::Both })
        );
    }
}
