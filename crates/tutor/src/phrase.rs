//! A question's text made ready to read: its closing punctuation gone, in the tutor's
//! English with typos corrected ([`crate::words`]), a few words turned into symbols
//! ([`normalize`]); and the expression text after a command, without the words around it
//! ([`clean`]). Shared by the computation reader (`request.rs`) and the limit reader
//! (`limits.rs`).

use calculus::Point;

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
    let mut s = framed(s)
        .unwrap_or_else(|| calculus::leading_expression(s).to_string())
        .trim_end_matches(',')
        .trim()
        .to_string();
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

/// Single letters that are words when they stand outside an expression ("a", "I", the
/// French "à").
const LETTER_WORDS: &[&str] = &["a", "i", "à"];

/// Whether `token` (punctuation around it gone) is a word of a sentence rather than a
/// piece of an expression: letters only (an apostrophe or a hyphen inside), not a name an
/// expression uses (`sin`, `x`, `sinx`, `arsinh`), or one of [`LETTER_WORDS`].
fn plain_word(token: &str) -> bool {
    let word = token.trim_matches(|c: char| ",;:!?¿¡\"«»".contains(c));
    let letters = !word.is_empty()
        && word.chars().all(|c| c.is_alphabetic() || "'’-".contains(c))
        && word.starts_with(char::is_alphabetic);
    letters
        && (LETTER_WORDS.contains(&word)
            || !word.is_ascii()
            || (word.chars().count() > 1 && !calculus::is_math_word(word)))
}

/// The expression inside framing words: `mujhe x^3 chahiye` → `x^3`, `aap x^2 bata sakte
/// ho` → `x^2`, `what does sin(x)/x approach` → `sin(x)/x`. The words of a sentence
/// ([`plain_word`]) before and after it are dropped; what lies between the first and the
/// last piece of an expression must be one expression, or there is none (`x^2 with 3` is
/// left for the parser to say what it could not read); so is the object of words before
/// it (`the sine of x`) and a lone letter after words.
pub(crate) fn framed(s: &str) -> Option<String> {
    let tokens: Vec<&str> = s.split_whitespace().collect();
    let first = tokens.iter().position(|t| !plain_word(t))?;
    let last = tokens.iter().rposition(|t| !plain_word(t))?;
    if first == 0 && last + 1 == tokens.len() {
        return None;
    }
    // the object of words before it ("the sine of x", "the square of 2x") is not the
    // expression asked about, and a lone letter after words may be one ("sine x")
    let object = first > 0 && OBJECT.contains(&tokens[first - 1]);
    let span = tokens[first..=last].join(" ");
    let span = span.trim_matches(|c: char| ",;:!?¿¡".contains(c)).trim();
    let lone = span.chars().count() == 1;
    (!object && !lone && calculus::is_expression(span) && calculus::read(span, 'x').is_ok())
        .then(|| span.to_string())
}

/// Words whose object an expression after them is (`of`, `de`, `von` …).
const OBJECT: &[&str] = &["of", "de", "du", "des", "del", "von", "vom"];

/// The point `text` names: a number, or `±∞` (`infinity`, `inf`, `∞`, `oo`, with a sign
/// or `negative`, `minus`, `plus`, `positive` before it).
pub(crate) fn reading(text: &str) -> Result<Point, ()> {
    let t = text.trim();
    let t = ["negative ", "minus "]
        .iter()
        .find_map(|w| t.strip_prefix(w).map(|r| format!("-{}", r.trim())))
        .unwrap_or_else(|| t.to_string());
    let t = ["positive ", "plus ", "+"].iter().fold(t.as_str(), |s, w| s.strip_prefix(w).unwrap_or(s)).trim();
    match t {
        "infinity" | "inf" | "∞" | "oo" => Ok(Point::Infinity),
        "-infinity" | "-inf" | "-∞" | "-oo" => Ok(Point::MinusInfinity),
        t => calculus::read_number(t).map(Point::At).map_err(|_| ()),
    }
}

/// The point as written in an answer: `0`, `π/2`, `∞`.
pub(crate) fn shown_to(point: &Point) -> String {
    match point {
        Point::At(a) => calculus::show(a),
        Point::Infinity => "∞".into(),
        Point::MinusInfinity => "-∞".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{framed, spoken_operators};

    #[test]
    fn the_expression_inside_framing_words() {
        for (s, want) in [
            ("mujhe x^3 chahiye", Some("x^3")),
            ("aap x^2 bata sakte ho", Some("x^2")),
            ("what does sin(x)/x approach", Some("sin(x)/x")),
            ("l'expression (x+1)^2 s'il vous plaît", Some("(x+1)^2")),
            ("my function e^(2x) for homework", Some("e^(2x)")),
            // nothing to drop, or words between two pieces: none
            ("x^2", None),
            ("x^2 with 3", None),
            ("the sine of x", None),
            ("the square of 2x", None),
            ("mujhe x chahiye", None),
            ("what is it", None),
            // a function name it declines is part of the expression, never a word
            ("please arsinh x", None),
        ] {
            assert_eq!(framed(s).as_deref(), want, "{s}");
        }
    }

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
