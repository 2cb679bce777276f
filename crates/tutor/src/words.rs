//! What students type, turned into the English words the rest of the tutor reads, before
//! anything else looks at a question (`request::normalize` calls [`canonical`]):
//! 1. **Other languages**: Spanish, French, German and Hindi/Hinglish phrases for the
//!    commands, topics and limit wording (`words/lists.rs`: `derivada de` → `derivative of`,
//!    `cuando x tiende a` → `as x ->`, `Ableitung von`, `Grenzwert`, `noch ein Beispiel`,
//!    `अवकलज`), bounds (`de 0 a 3`, `von 0 bis 3`, `0 se 3 tak` → `from 0 to 3`), the Hinglish
//!    postposition (`x^2 ka integral` → `integral of x^2`), and `sen` for sine; a value at
//!    a point (`an der Stelle x=3`, `bei x=3`, `en x = 1`, `para x = 1`, `x=3 par` →
//!    `at x=3`: the short words only when `v = a` follows them, or a value alone ends the
//!    question; `x equals 3`, `x igual a 3`, `x is 3`, `x vale 3`, `x vaut 3` as `x = 3`;
//!    a point said first goes last, [`points`]) and the Hinglish approach (`jab x 3 ki taraf jaye` → `as x -> 3`,
//!    [`towards`]).
//! 2. **Typos**: a word of letters the tutor does not know is replaced by the nearest word
//!    of its own vocabulary (`VOCABULARY`) by optimal-string-alignment edit distance
//!    (`strsim`, so a swap of two letters is one edit): at most 1 edit for a word of 4–7
//!    letters, 2 for 8–10, 3 for longer, with the same first letter; a handful of short
//!    ones are listed (`SHORT`: `wat`). Words of an expression (`sin`, `x`, `sinx`),
//!    words with digits, and common English words near a vocabulary word (`KEEP`:
//!    `form`, `want`) are never changed.
//! 3. **Politeness at the end** (`pls`, `thanks`, `thank you`) is dropped, so that an
//!    expression is the last thing in the question.

mod lists;
use lists::{DROPPED, KEEP, PHRASES, POSTPOSITIONS, SHORT, TAIL, VOCABULARY};

/// The most edits a word of `len` letters may be from its correction.
fn reach(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        8..=10 => 2,
        _ => 3,
    }
}

/// The vocabulary word `word` (lowercase letters) is a typo of, if any.
pub(crate) fn correct(word: &str) -> Option<&'static str> {
    if let Some((_, to)) = SHORT.iter().find(|(from, _)| *from == word) {
        return Some(to);
    }
    let len = word.chars().count();
    if VOCABULARY.contains(&word) || KEEP.contains(&word) || calculus::is_math_word(word) || reach(len) == 0 {
        return None;
    }
    let first = word.chars().next()?;
    VOCABULARY
        .iter()
        .filter(|v| v.starts_with(first))
        .map(|v| (strsim::osa_distance(word, v), *v))
        .filter(|(d, _)| *d <= reach(len))
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

/// Whether `s[i..i + len]` is a whole word (or phrase) of `s`.
fn whole(s: &str, i: usize, len: usize) -> bool {
    let before = s[..i].chars().next_back();
    let after = s[i + len..].chars().next();
    !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
}

/// `s` with every whole-word `from` replaced by `to`.
fn replace_words(s: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut offset = 0;
    while let Some(i) = rest.find(from) {
        let at = offset + i;
        out.push_str(&rest[..i]);
        if whole(s, at, from.len()) {
            out.push_str(to);
        } else {
            out.push_str(from);
        }
        rest = &rest[i + from.len()..];
        offset = at + from.len();
    }
    out.push_str(rest);
    out
}

/// Bounds in other languages: `de 0 a 3`, `de 0 à 3`, `desde 0 hasta 3`, `von 0 bis 3`,
/// `entre 0 y 3` / `entre 0 et 3` → `from 0 to 3` (a bound may be infinity: `de 1 a
/// infinito`).
fn bounds(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    let pairs =
        [("de", "a"), ("de", "à"), ("desde", "hasta"), ("von", "bis"), ("entre", "y"), ("entre", "et")];
    let infinite = |w: &str| ["infinity", "∞", "inf"].contains(&w.trim_start_matches(['-', '+']));
    let number = |w: &str| !w.is_empty() && (calculus::read_number(w).is_ok() || infinite(w));
    for i in 0..words.len() {
        // Hinglish: "0 se 3 tak"
        if words.len() > i + 3
            && number(words[i])
            && words[i + 1] == "se"
            && number(words[i + 2])
            && words[i + 3] == "tak"
        {
            let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            out[i] = format!("from {}", words[i]);
            out[i + 1] = "to".into();
            out[i + 3] = String::new();
            return out.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
        }
        for (from, to) in pairs {
            if words[i] == from
                && words.len() > i + 3
                && number(words[i + 1])
                && words[i + 2] == to
                && number(words[i + 3])
            {
                let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                out[i] = "from".into();
                out[i + 2] = "to".into();
                return out.join(" ");
            }
        }
    }
    s.to_string()
}

/// Where `s` starts with `v = a` (a one-letter name, `=`, a value with a digit or a
/// constant: `x=3`, `x = -1/2`, `t= pi`), the length it takes.
fn assignment(s: &str) -> Option<usize> {
    if !s.chars().next()?.is_ascii_alphabetic() {
        return None;
    }
    let value = s[1..].trim_start().strip_prefix('=')?;
    if value.starts_with('=') {
        return None;
    }
    let trimmed = value.trim_start();
    Some(s.len() - trimmed.len() + value_len(trimmed)?)
}

/// Where `s` starts with a value (`3`, `-1/2`, `pi`, `π/2`), the length it takes.
fn value_len(s: &str) -> Option<usize> {
    let len = s.find(char::is_whitespace).unwrap_or(s.len());
    let token = s[..len].trim_end_matches([',', '?', '!', ';']);
    let bare = token.trim_start_matches(['-', '+']);
    let constant = ["pi", "π", "e"]
        .iter()
        .any(|c| bare.strip_prefix(c).is_some_and(|r| r.is_empty() || r.starts_with('/')));
    // a number, never an expression with a digit in it ("pour x^3" names no point)
    let number = bare.chars().any(|c| c.is_ascii_digit()) && calculus::read_number(token).is_ok();
    (number || constant).then_some(token.len())
}

/// Words that put a value at a point before it (`en x = 1`, `bei x=3`, `para x = 1`,
/// `pour x = 1`, `für x = 3` as `for`), read as `at` only when `v = a` follows.
const POINT_BEFORE: &[&str] =
    &["en", "para", "bei", "pour", "for", "as", "in", "im", "mit", "wenn", "lorsque", "jab", "à"];
/// Of those, the ones that also name a point by its value alone at the end of a question
/// (`derivada de x^2 en 3`, `Ableitung von x^2 bei 3`).
const POINT_BEFORE_VALUE: &[&str] = &["en", "para", "bei", "pour", "à"];
/// Postpositions that put it after (`x=3 par`, `x = 3 pe`, `x=3 पर`).
const POINT_AFTER: &[&str] = &["par", "pe", "pr", "pey", "पर"];

/// A value at a point in the words of other languages, as `at v = a`: `x^2 en x = 1`,
/// `bei x=3`, `x=3 par` (the Hinglish postposition), `an der Stelle x=3` (a phrase of
/// `PHRASES`). The words are read as `at` only when a one-letter name `=` a value
/// follows (or, for a postposition, comes before), so `en` and `for` stay words
/// everywhere else.
fn points(s: &str) -> String {
    let mut s = equals(s);
    for word in POINT_BEFORE {
        let mut from = 0;
        while let Some(i) = s[from..].find(word).map(|i| i + from) {
            let end = i + word.len();
            from = end;
            let rest = &s[end..];
            let value_alone = || {
                POINT_BEFORE_VALUE.contains(word)
                    && value_len(&rest[1..])
                        .is_some_and(|n| rest[1 + n..].trim_end_matches(['?', '!', '.', ' ']).is_empty())
            };
            if whole(&s, i, word.len())
                && rest.starts_with(' ')
                && (assignment(&rest[1..]).is_some() || value_alone())
            {
                s = format!("{}at{}", &s[..i], &s[end..]);
                from = i + 2;
            }
        }
    }
    for word in POINT_AFTER {
        let mut from = 0;
        while let Some(i) = s[from..].find(word).map(|i| i + from) {
            from = i + word.len();
            if !whole(&s, i, word.len()) {
                continue;
            }
            let before = s[..i].trim_end();
            // where the `v = a` that ends right before the postposition starts
            let start = before.char_indices().find_map(|(j, c)| {
                let starts_word = j == 0 || before[..j].ends_with(' ');
                (starts_word && c.is_ascii_alphabetic() && assignment(&before[j..]) == Some(before.len() - j))
                    .then_some(j)
            });
            if let Some(j) = start {
                let at_point = format!("at {}", &before[j..]);
                let tail = &s[i + word.len()..];
                s = format!("{}{at_point}{tail}", &before[..j]);
                from = j + at_point.len();
            }
        }
    }
    // a point named first ("bei x=2 die Ableitung von x^3", "x = 3 par x^2 ka
    // derivative") goes last, where a point is read
    if let Some(rest) = s.strip_prefix("at ")
        && let Some(n) = assignment(rest)
    {
        let question = rest[n..].trim_start_matches([',', ' ']);
        if !question.is_empty() {
            s = format!("{question} at {}", &rest[..n]);
        }
    }
    s
}

/// "Equals" in words, between a one-letter name and a value.
const EQUALS: &[&str] = &[
    "is equal to",
    "equal to",
    "equals",
    "es igual a",
    "igual a",
    "égal à",
    "egal a",
    "gleich",
    // "when x is 2", "cuando x vale 3", "quand x vaut 1", "wenn x ist 2"
    "is",
    "vale",
    "vaut",
    "ist",
];

/// `x equals 3`, `x igual a 3`, `x gleich 3` → `x = 3`: only between a one-letter name
/// and a value, so "equals" stays a word elsewhere.
fn equals(s: &str) -> String {
    let mut s = s.to_string();
    for word in EQUALS {
        let mut from = 0;
        while let Some(i) = s[from..].find(word).map(|i| i + from) {
            from = i + word.len();
            let name = s[..i].strip_suffix(' ').and_then(|b| {
                let last = b.rsplit(' ').next()?;
                (last.len() == 1 && last.chars().all(|c| c.is_ascii_alphabetic())).then_some(())
            });
            let rest = &s[i + word.len()..];
            if whole(&s, i, word.len())
                && name.is_some()
                && rest.strip_prefix(' ').and_then(value_len).is_some()
            {
                s = format!("{}={}", &s[..i], &s[i + word.len()..]);
                from = i + 1;
            }
        }
    }
    s
}

/// Words of Hinglish approach after the point (`jab x 3 ki taraf jaye`: "as x goes
/// towards 3"), dropped once the point is read.
const TOWARDS: &[&str] = &[
    "ki taraf",
    "ki or",
    "ke paas",
    "ke pass",
    "ke kareeb",
    "ke karib",
    "ke nazdeek",
    "की ओर",
    "की तरफ",
    "के पास",
];
const GOING: &[&str] = &[
    "jaye",
    "jaaye",
    "jae",
    "jaae",
    "jata",
    "jaata",
    "jati",
    "jaati",
    "jate",
    "jaate",
    "ja",
    "jaa",
    "raha",
    "rha",
    "rahi",
    "badhe",
    "badhta",
    "pahunche",
    "jaane",
    "jane",
    "par",
    "pe",
    "ho",
    "जाए",
    "जाता",
];

/// Hinglish limits: `jab x 3 ki taraf jaye` → `as x -> 3` (also `x infinity ki
/// taraf`, `x 0 ke paas`).
fn towards(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    for i in 2..words.len() {
        for t in TOWARDS {
            let parts: Vec<&str> = t.split(' ').collect();
            if words.get(i..i + parts.len()) != Some(parts.as_slice()) {
                continue;
            }
            // "x 3 ki taraf", and "x ke 3 ki taraf" (x's going towards 3)
            let linked = i >= 3 && ["ke", "ka", "के"].contains(&words[i - 2]);
            let from = if linked { i - 3 } else { i - 2 };
            let (var, to) = (words[from], words[i - 1]);
            if !(var.len() == 1 && var.chars().all(|c| c.is_ascii_alphabetic())) {
                continue;
            }
            let mut end = i + parts.len();
            while words.get(end).is_some_and(|w| GOING.contains(w)) {
                end += 1;
            }
            let mut head: Vec<&str> = words[..from].to_vec();
            if head.last().is_some_and(|w| ["jab", "जब", "as", "when"].contains(w)) {
                head.pop();
            }
            let mut out = head.join(" ");
            out.push_str(&format!(" as {var} -> {to} "));
            out.push_str(&words[end..].join(" "));
            return out.split_whitespace().collect::<Vec<_>>().join(" ");
        }
    }
    s.to_string()
}

/// Hinglish: `E ka K …` → `K of E …` for a command word `K`.
fn postposition(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let keys =
        ["derivative", "integral", "limit", "antiderivative", "differentiation", "integration", "example"];
    for (i, w) in words.iter().enumerate() {
        if i > 0 && POSTPOSITIONS.contains(w) && words.get(i + 1).is_some_and(|k| keys.contains(k)) {
            let key = match words[i + 1] {
                "differentiation" => "derivative",
                "integration" => "integral",
                k => k,
            };
            let rest = words[i + 2..].join(" ");
            return format!("{key} of {} {rest}", words[..i].join(" ")).trim().to_string();
        }
    }
    s.to_string()
}

/// A bound written after `_` or `^`: `{…}` or up to `stop`.
fn bound(s: &str, stop: char) -> (String, &str) {
    if let Some(r) = s.strip_prefix('{')
        && let Some(end) = r.find('}')
    {
        return (r[..end].to_string(), &r[end + 1..]);
    }
    let end = s.find(|c: char| c == stop || c.is_whitespace()).unwrap_or(s.len());
    (s[..end].to_string(), &s[end..])
}

/// `∫_a^b f dx` (also `∫_{a}^{b}`, `int_a^b`) → `integral from a to b of f dx`.
fn integral_bounds(s: &str) -> String {
    for key in ["∫_", "int_"] {
        let Some(i) = s.find(key) else { continue };
        let (a, rest) = bound(&s[i + key.len()..], '^');
        let Some(rest) = rest.strip_prefix('^') else { continue };
        let (b, rest) = bound(rest, ' ');
        if !a.is_empty() && !b.is_empty() {
            return format!("{}integral from {a} to {b} of {}", &s[..i], rest.trim_start());
        }
    }
    s.to_string()
}

/// Each word of letters replaced by its correction ([`correct`]), unless it is glued to
/// an expression (`2xe`, `derivitive(`).
fn typos(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let mut before: Option<char> = None;
    let flush = |word: &mut String, out: &mut String, before: Option<char>, next: Option<char>| {
        let glued = before.is_some_and(|c| c.is_ascii_digit() || c == ')')
            || next.is_some_and(|c| c.is_ascii_digit() || c == '(' || c == '^' || c == '\'');
        match correct(word).filter(|_| !glued) {
            Some(to) => out.push_str(to),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_ascii_alphabetic() {
            if word.is_empty() {
                before = out.chars().next_back();
            }
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            flush(&mut word, &mut out, before, Some(c));
        }
        out.push(c);
    }
    if !word.is_empty() {
        flush(&mut word, &mut out, before, None);
    }
    out
}

/// The lowercase question in the tutor's English, typos corrected (see the module doc).
pub(crate) fn canonical(lower: &str) -> String {
    let mut s = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    for (from, to) in PHRASES {
        if s.contains(from) {
            s = replace_words(&s, from, to);
        }
    }
    for w in DROPPED {
        s = replace_words(&s, w, "");
    }
    s = replace_words(&s, "sen", "sin");
    s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // bounds before points: "de 0 à 3" is a range, never "à 3" a point
    s = postposition(&points(&bounds(&integral_bounds(&towards(&s)))));
    s = typos(&s);
    loop {
        let t = s.trim_end_matches([' ', ',', '.', '!', '?']);
        match TAIL.iter().find(|w| t.ends_with(*w) && whole(t, t.len() - w.len(), w.len())) {
            Some(w) if t.len() > w.len() => s = t[..t.len() - w.len()].to_string(),
            _ => break,
        }
    }
    s.trim_end_matches([' ', ',']).to_string()
}

#[cfg(test)]
mod tests;
