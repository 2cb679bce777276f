//! Leibniz's notation for higher derivatives, rewritten to what `request.rs` reads.

use crate::ordinal::ordinal;

/// Leibniz's notation for a higher derivative written as an order and `d/dx`:
/// `d^2/dx^2`, `d²y/dx²`, `d2y/dx2` → `2nd d/dx` (the orders on top and below must agree).
pub(crate) fn leibniz(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('d') {
        let (head, tail) = rest.split_at(i);
        out.push_str(head);
        let starts_word = !out.chars().next_back().is_some_and(|c| c.is_alphanumeric());
        match higher_order(tail).filter(|_| starts_word) {
            Some((n, var, used)) => {
                out.push_str(&format!("{} d/d{var}", ordinal(n)));
                rest = &tail[used..];
            }
            None => {
                out.push('d');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `(order, variable, bytes read)` when `s` starts with `d^n/dv^n` (`d^n y/dv^n`, `dny/dvn`).
fn higher_order(s: &str) -> Option<(usize, char, usize)> {
    fn order(s: &str) -> Option<(usize, &str)> {
        let s = s.strip_prefix('^').unwrap_or(s);
        for (sup, n) in [('²', 2), ('³', 3)] {
            if let Some(r) = s.strip_prefix(sup) {
                return Some((n, r));
            }
        }
        let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        Some((s[..digits].parse().ok()?, &s[digits..]))
    }
    let (n, r) = order(s.strip_prefix('d')?)?;
    let r = r.trim_start();
    let r = r.strip_prefix(['y', 'f']).unwrap_or(r).trim_start();
    let r = r.strip_prefix("/d")?;
    let var = r.chars().next().filter(char::is_ascii_alphabetic)?;
    let (m, r) = order(&r[1..])?;
    (n == m && n >= 2).then_some((n, var, s.len() - r.len()))
}
