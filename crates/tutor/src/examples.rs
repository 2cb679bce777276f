//! "Another example": the next worked example of a topic, never the same one twice in a
//! row. The topic is the one the question names ("another example of the chain rule"),
//! else the conversation's last topic ("another example please"). The conversation
//! remembers which example it showed last (the explanation shows the first); each
//! request shows the next, and after the last it says it is starting again from the
//! first. Asked in a conversation that has not seen the topic, it starts at the second
//! (the first is the one the explanation gives).

use crate::answer::{Answer, reply};
use crate::course::{self, TOPIC_LIST, Topic};

/// Words that ask for a further example (other languages are English by then).
const ANOTHER: &[&str] = &[
    "another example",
    "one more example",
    "more example",
    "next example",
    "different example",
    "other example",
    "new example",
    "further example",
    "example again",
];

/// Words of a short ask for another example that say "another" or "more", in the
/// languages the tutor reads ("another one", "one more", "otro más", "uno más", "encore
/// un", "un autre", "noch eins", "ek aur"): a message of only these, [`ONE`] and
/// [`POLITE`] words asks for one; "one more question: …" is a question of its own.
const MORE: &[&str] = &[
    "another",
    "other",
    "different",
    "new",
    "more",
    "example",
    "otro",
    "otra",
    "más",
    "mas",
    "autre",
    "encore",
    "noch",
    "anderes",
    "andere",
    "weiteres",
    "aur",
    "dusra",
    "doosra",
    "dusri",
];
/// Words that count what is asked for: "one", "a", "uno", "un", "eins", "ek".
const ONE: &[&str] =
    &["one", "a", "an", "the", "uno", "una", "un", "une", "eins", "ein", "eine", "einer", "ek"];
/// Words a short ask may carry around it.
const POLITE: &[&str] = &[
    "please", "pls", "plz", "can", "could", "i", "have", "get", "give", "me", "show", "us", "and", "ok",
    "okay", "now", "yet", "also", "then",
];

/// Whether `lower` asks for another worked example.
pub(crate) fn wants_another(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !POLITE.contains(w))
        .collect();
    let short = !words.is_empty()
        && words.len() <= 4
        && words.iter().all(|w| MORE.contains(w) || ONE.contains(w))
        && words.iter().any(|w| MORE.contains(w));
    ANOTHER.iter().any(|w| lower.contains(w)) || short
}

/// The topic last explained in a conversation and the example it showed last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Seen {
    pub(crate) title: &'static str,
    pub(crate) shown: usize,
    /// Whether the topic was already said another way ("I don't get it"), so it is not
    /// said that way again.
    pub(crate) reworded: bool,
}

/// The answer to "another example" and what the conversation has then seen.
pub(crate) fn another(lower: &str, last: Option<Seen>) -> (Answer, Option<Seen>) {
    let topic: Option<&'static Topic> =
        course::find(lower).or_else(|| last.and_then(|s| course::TOPICS.iter().find(|t| t.title == s.title)));
    let Some(t) = topic else {
        let text = format!(
            "Another example of which topic? I have worked examples of {TOPIC_LIST}. Ask, for example: \
             another example of the chain rule."
        );
        return (reply("answered", text), last);
    };
    let next = match last {
        Some(s) if s.title == t.title => s.shown + 1,
        _ => 1,
    };
    let n = t.examples.len();
    let (index, lead) = if next >= n {
        (
            0,
            format!(
                "That was my last worked example of {}; starting again from the first.\n",
                lower_first(t.title)
            ),
        )
    } else {
        (next, String::new())
    };
    let text = format!("{lead}{}, worked example {} of {n}: {}", t.title, index + 1, t.examples[index]);
    (reply("answered", text), Some(Seen { title: t.title, shown: index, reworded: false }))
}

/// `the chain rule` from `The chain rule`; other titles unchanged but for the first letter.
pub(crate) fn lower_first(title: &str) -> String {
    let mut c = title.chars();
    match c.next() {
        Some(f) if !title.starts_with("L'") => f.to_lowercase().chain(c).collect(),
        _ => title.to_string(),
    }
}
