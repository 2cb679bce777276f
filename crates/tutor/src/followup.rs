//! Bare follow-ups, read in the context of the conversation's last question:
//! - **a new expression** ("and x^4?", "what about cos(x)?", "und sin(x)?", "aur e^x ka?"):
//!   a connective opens it, a few glue words may follow, then only an expression; the
//!   last operation is done again on it ([`new_expression`]);
//! - **a new point** ("x=4?", "and x = 4?", "what about x=-1", "y si x = 2"): only `v = a`
//!   after such words; the last question again at that point ([`new_point`]);
//! - **not understood** ("I don't get it", "can you explain it differently?", "no
//!   entiendo", "je ne comprends pas", "ich verstehe das nicht", "samajh nahi aaya"): a
//!   different explanation — why the rule holds and the next worked example after an
//!   explained topic, the rules each step used after a computation ([`confused`],
//!   [`put_another_way`]).
//!
//! Other languages are English by the time these read a question only where `words.rs`
//! translates them; the connectives of each language are listed here.

use crate::answer::{Answer, reply};
use crate::examples::{self, Seen};

/// Words that open a follow-up (English, Spanish, French, German, Hindi/Hinglish).
const CONNECTIVES: &[&str] = &[
    "and what about",
    "and how about",
    "what about",
    "how about",
    "what if",
    "and",
    "also",
    "now",
    "then",
    "so",
    "same",
    "instead",
    "ok",
    "okay",
    "qué tal",
    "que tal",
    "y",
    "et",
    "und",
    "aur",
    "ab",
];
/// Words that may follow a connective before the expression ("and for x^4", "now do the
/// same with", "y para", "und mit", "aur agar").
const GLUE: &[&str] = &[
    "for", "with", "of", "about", "if", "it", "it's", "its", "is", "was", "were", "the", "same", "do", "now",
    "then", "this", "time", "one", "function", "para", "con", "de", "si", "pour", "avec", "für", "mit",
    "bei", "what", "wenn", "agar", "ho", "if", "f(x)", "=", "y",
];
/// Words that may end one ("x^4 then?", "cos(x) instead", "aur e^x ka?").
const TRAIL: &[&str] =
    &["then", "instead", "too", "now", "again", "please", "ka", "ki", "ke", "liye", "ko", "bhi", "also"];

/// What follows a leading connective and glue words, without trailing [`TRAIL`] words;
/// `None` when `lower` opens with no connective.
fn after_connective(lower: &str) -> Option<String> {
    let lower = lower.trim_start_matches(['¿', '¡', ' ']);
    let opener = CONNECTIVES
        .iter()
        .find(|c| lower.strip_prefix(**c).is_some_and(|r| r.is_empty() || r.starts_with([' ', ','])))?;
    let mut words: Vec<&str> = lower[opener.len()..].split_whitespace().collect();
    let punctuation = |w: &str| w.trim_matches([',', '?', '!', '.']).to_string();
    while words.first().is_some_and(|w| GLUE.contains(&punctuation(w).as_str()) || punctuation(w).is_empty())
    {
        words.remove(0);
    }
    while words.last().is_some_and(|w| TRAIL.contains(&punctuation(w).as_str())) {
        words.pop();
    }
    Some(words.join(" ").trim_matches([',', '?', '!', '.', ' ']).to_string())
}

/// The new expression of a follow-up that names only one ("and x^4?", "what about
/// cos(x)?"): an expression of a variable, nothing else.
pub(crate) fn new_expression(lower: &str) -> Option<String> {
    let rest = after_connective(lower)?;
    let f = calculus::read(&rest, 'x').ok()?;
    (calculus::is_expression(&rest) && f.expr.has_var() && !rest.contains('=')).then_some(rest)
}

/// The new point of a follow-up that names only one: `x=4`, `and x = 4`, `what about
/// x=-1` (a one-letter name, `=`, a number).
pub(crate) fn new_point(lower: &str) -> Option<String> {
    let rest = after_connective(lower).unwrap_or_else(|| lower.trim().to_string());
    let (name, value) = rest.split_once('=')?;
    let name = name.trim();
    let value = value.trim();
    let one_letter = name.chars().count() == 1 && name.chars().all(|c| c.is_ascii_alphabetic());
    (one_letter && !value.is_empty() && calculus::read_number(value).is_ok()).then(|| value.to_string())
}

/// Phrases that say the last answer was not understood, or ask for it said differently.
const CONFUSED: &[&str] = &[
    "don't get it",
    "dont get it",
    "do not get it",
    "didn't get it",
    "don't get that",
    "don't understand",
    "dont understand",
    "do not understand",
    "didn't understand",
    "still don't",
    "not clear",
    "unclear",
    "confused",
    "confusing",
    "lost me",
    "i'm lost",
    "im lost",
    "makes no sense",
    "doesn't make sense",
    "explain it differently",
    "explain that differently",
    "explain differently",
    "explain it another way",
    "explain it again",
    "explain that again",
    "explain again",
    "another way",
    "different way",
    "differently",
    "in other words",
    "more simply",
    "simpler",
    "rephrase",
    "no entiendo",
    "no lo entiendo",
    "no entendí",
    "no entendi",
    "no me queda claro",
    "de otra manera",
    "de otra forma",
    "je ne comprends pas",
    "je comprends pas",
    "pas compris",
    "pas clair",
    "autrement",
    "d'une autre façon",
    "d'une autre manière",
    "verstehe das nicht",
    "verstehe es nicht",
    "verstehe ich nicht",
    "versteh ich nicht",
    "verstehe nicht",
    "nicht verstanden",
    "unklar",
    "anders",
    "samajh nahi",
    "samajh nahin",
    "samajh mein nahi",
    "samajh me nahi",
    "samjha nahi",
    "samjhi nahi",
    "nahi samjha",
    "nahi samjhi",
    "nahi samajh",
    "dusre tarike se",
    "doosre tarike se",
    "alag tarike se",
    "समझ नहीं",
    "नहीं समझ",
];

/// Whether `lower` says the last answer was not understood or asks for it differently
/// ("I don't get it", "can you explain it differently?", "no entiendo").
pub(crate) fn confused(lower: &str) -> bool {
    let lower = lower.replace('’', "'");
    CONFUSED.iter().any(|p| {
        lower.match_indices(p).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + p.len()..].chars().next();
            !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic)
        })
    })
}

/// The topic `seen` said another way: why its rule holds, then the next worked example
/// (never the text shown before; once it was said that way, the next example alone); and
/// what the conversation has then seen.
pub(crate) fn put_another_way(seen: Seen) -> (Answer, Option<Seen>) {
    let (example, now) = examples::another("", Some(seen));
    let now = now.map(|s| Seen { reworded: true, ..s });
    let idea = crate::reasons::answer(seen.title).map(|a| a.text).unwrap_or_default();
    let idea = idea.trim_start_matches(crate::answer::LABEL);
    let example = example.text.trim_start_matches(crate::answer::LABEL).to_string();
    let text = if idea.is_empty() || seen.reworded {
        format!("Let me show it with one more example, step by step. {example}")
    } else {
        format!("Let me put it another way. {idea}\nAnd with an example: {example}")
    };
    (reply("answered", text), now)
}

/// What to say when nothing was explained or computed yet to say differently.
pub(crate) fn nothing_to_rephrase() -> Answer {
    reply(
        "answered",
        format!(
            "Which part is unclear? Name the topic (\"explain the chain rule\") or give me the \
             expression (\"derivative of x^3\"), and I'll go through it. I can explain {}.",
            crate::course::TOPIC_LIST
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(q: &str) -> String {
        crate::phrase::normalize(q)
    }

    #[test]
    fn a_follow_up_naming_only_an_expression_has_it() {
        for (q, want) in [
            ("and x^4?", "x^4"),
            ("what about cos(x)?", "cos(x)"),
            ("how about e^(2x)", "e^(2x)"),
            ("and for x^2 + 1?", "x^2 + 1"),
            ("now do the same for sin(x)", "sin(x)"),
            ("x^5 then?", ""),
            ("¿y sen(x)?", "sin(x)"),
            ("et pour x^3 ?", "x^3"),
            ("und mit ln(x)?", "ln(x)"),
            ("aur e^x ka?", "e^x"),
            ("what if it is x^3 instead", "x^3"),
        ] {
            let got = new_expression(&n(q));
            assert_eq!(got.as_deref(), (!want.is_empty()).then_some(want), "{q}");
        }
        for q in ["what is x^2", "and the second derivative?", "and x = 3?", "and 17?", "what about it"] {
            assert_eq!(new_expression(&n(q)), None, "{q}");
        }
    }

    #[test]
    fn a_follow_up_naming_only_a_point_has_it() {
        for (q, want) in
            [("x=4?", "4"), ("and x = -1", "-1"), ("what about x=1/2?", "1/2"), ("und x = 2?", "2")]
        {
            assert_eq!(new_point(&n(q)).as_deref(), Some(want), "{q}");
        }
        for q in ["y = x^2", "x = y", "and x^2 = 4", "f(x) = 3"] {
            assert_eq!(new_point(&n(q)), None, "{q}");
        }
    }

    #[test]
    fn not_understood_in_five_languages() {
        for q in [
            "I don't get it",
            "can you explain it differently?",
            "sorry, I still don't understand",
            "that's confusing",
            "no entiendo",
            "je ne comprends pas",
            "ich verstehe das nicht",
            "kannst du das anders erklären?",
            "samajh nahi aaya",
            "समझ नहीं आया",
        ] {
            assert!(confused(&n(q)), "{q}");
        }
        for q in ["what is the chain rule", "derivative of x^2", "another example", "i get it now"] {
            assert!(!confused(&n(q)), "{q}");
        }
    }

    #[test]
    fn said_another_way_is_never_the_same_text() {
        let seen = Seen { title: "The chain rule", shown: 0, reworded: false };
        let (a, now) = put_another_way(seen);
        assert!(a.text.contains("The idea behind the chain rule"), "{}", a.text);
        assert!(a.text.contains("worked example 2 of"), "{}", a.text);
        let (b, _) = put_another_way(now.expect("seen"));
        assert!(b.text.contains("worked example 3 of"), "{}", b.text);
        assert!(!b.text.contains("The idea behind"), "said that way once: {}", b.text);
    }
}
