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
    crate::leibniz::leibniz(
        &lower
            .replace(" squared", "^2")
            .replace(" cubed", "^3")
            .replace("step by step", "")
            .replace("step-by-step", ""),
    )
    .trim()
    .to_string()
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
