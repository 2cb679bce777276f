//! A question's text made ready to read: its closing punctuation gone, in the tutor's
//! English with typos corrected ([`crate::words`]), a few words turned into symbols
//! ([`normalize`]); and the expression text after a command, without the words around it
//! ([`clean`]). Shared by the computation reader (`request.rs`) and the limit reader
//! (`limits.rs`).

/// Tails that end the expression ("… with respect to x", "… for me").
const TAILS: &[&str] = &[
    " with respect to",
    " wrt",
    " using",
    " for me",
    " please",
    " by ",
    " step by step",
    " and show",
    " and explain",
    " then",
    ", then",
];
const LEADS: &[&str] =
    &["of ", "the ", "function ", "f(x) = ", "f(x)=", "y = ", "y=", ": ", "for ", "if ", "when "];
const REFERRING: &[&str] = &[
    "it",
    "this",
    "that",
    "again",
    "it again",
    "this function",
    "that function",
    "the function",
    "the same function",
    "the result",
    "that one",
    "the same",
    "this one",
    "",
];

/// The question with its closing punctuation gone, in the tutor's English with typos
/// corrected (`words.rs`), and a few words turned into symbols.
pub(crate) fn normalize(question: &str) -> String {
    let lower = question.trim().to_lowercase();
    let lower = crate::words::canonical(lower.trim_end_matches(['?', '.', '!', ' ']));
    let lower = lower.trim_end_matches(['?', '.', '!', ' ']);
    let lower = lower.replace(" squared", "^2").replace(" cubed", "^3");
    crate::leibniz::leibniz(&spoken_operators(&lower).replace("step by step", "").replace("step-by-step", ""))
        .trim()
        .to_string()
}

/// Operators said in words between two pieces of an expression (`3 x^2 plus 2x` →
/// `3 x^2 + 2x`, `x times sin(x)`, `x^2 minus 1`, `1 divided by x`): only where the
/// words on both sides have a digit, a symbol or are one letter, so "how many times" and
/// "plus" in a sentence stay words.
fn spoken_operators(s: &str) -> String {
    const SPOKEN: &[(&str, &str)] =
        &[("plus", "+"), ("minus", "-"), ("times", "*"), ("divided by", "/"), ("over", "/")];
    let piece = |w: &str| {
        w.chars().count() == 1 && w.chars().all(|c| c.is_ascii_alphanumeric())
            || w.chars().any(|c| c.is_ascii_digit() || "^()*/+-".contains(c))
    };
    let words: Vec<&str> = s.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let found = SPOKEN.iter().find_map(|(said, sym)| {
            let n = said.split(' ').count();
            let run = words.get(i..i + n)?.join(" ");
            (run == *said).then_some((n, *sym))
        });
        match found {
            Some((n, sym)) if i > 0 && piece(words[i - 1]) && words.get(i + n).is_some_and(|w| piece(w)) => {
                out.push(sym);
                i += n;
            }
            _ => {
                out.push(words[i]);
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// The expression text after a command, or `None` when it only refers back ("it").
pub(crate) fn clean(mut s: &str) -> Option<String> {
    s = s.trim();
    for t in TAILS {
        if let Some(i) = s.find(t) {
            s = &s[..i];
        }
    }
    loop {
        let before = s;
        for l in LEADS {
            s = s.strip_prefix(l).unwrap_or(s).trim_start();
        }
        if s == before {
            break;
        }
    }
    let mut s = calculus::leading_expression(s).trim_end_matches(',').trim().to_string();
    for tail in [" dx", "dx", " dt", "dt"] {
        if s.len() > tail.len() && s.ends_with(tail) {
            s.truncate(s.len() - tail.len());
            break;
        }
    }
    let s = s.trim();
    if REFERRING.contains(&s) || s.starts_with("it ") || s.starts_with("this ") {
        None
    } else {
        Some(s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::spoken_operators;

    #[test]
    fn operators_in_words_between_pieces_of_an_expression() {
        assert_eq!(spoken_operators("3 x^2 plus 2x"), "3 x^2 + 2x");
        assert_eq!(spoken_operators("x^2 minus 3x"), "x^2 - 3x");
        assert_eq!(spoken_operators("x times sin(x)"), "x * sin(x)");
        assert_eq!(spoken_operators("1 divided by x"), "1 / x");
        assert_eq!(
            spoken_operators("how many times can i differentiate x^2"),
            "how many times can i differentiate x^2"
        );
        assert_eq!(spoken_operators("c plus more"), "c plus more");
    }
}
