//! Whether a question is about the asker's own loans ("when are my books due?", "which of
//! my books can I renew?", "my loans"), read by rule in the languages the Library's lexicon
//! has: a possessive and the loans themselves — "my books", "my loans" (plural), or "my
//! book" with a due word — and it asks for their state: a due or "when" word, "which" or
//! "what", "list" or "show", or nothing else said ("my loans?"). "What have I borrowed?"
//! counts too. A question about the rules ("how do I renew a book?", "can I renew my books
//! online?", "someone put a hold on my book, can I still renew it") is not: the saved
//! guidance answers it.

use crate::words::split;

/// "my" and its Spanish, French, German and Hindi/Hinglish forms.
const MY: &[&str] = &[
    "my", "mine", "mis", "mi", "mes", "mon", "ma", "meine", "meinen", "meiner", "mein", "mera", "meri",
    "mere",
];
/// The loans, plural.
const LOANS: &[&str] = &[
    "books",
    "loans",
    "items",
    "libros",
    "prestamos",
    "livres",
    "emprunts",
    "bucher",
    "ausleihen",
    "kitabein",
    "kitaben",
    "kitabe",
];
/// One loan.
const LOAN: &[&str] =
    &["book", "loan", "item", "libro", "prestamo", "livre", "emprunt", "buch", "kitab", "kitaab"];
/// Words that ask when (or whether) something is due.
const DUE: &[&str] = &[
    "due", "when", "vence", "vencen", "cuando", "quand", "rendre", "wann", "fallig", "kab", "date", "dates",
];
/// Words that ask for a list or a choice.
const WHICH: &[&str] = &[
    "which", "what", "list", "show", "cuales", "cual", "que", "quels", "quelles", "quel", "welche",
    "welches", "zeige", "kaun", "kaunsi", "kya",
];
/// Borrowed, in the past: "what have I borrowed".
const BORROWED: &[&str] = &["borrowed", "prestado", "prestados", "emprunte", "empruntes", "ausgeliehen"];
/// Words of a question about what to do with a book (lost, damaged, gone): a rules
/// question even with "a book I borrowed" in it.
const WHAT_TO_DO: &[&str] = &[
    "lose", "lost", "losing", "gone", "missing", "damaged", "damage", "broke", "broken", "stolen", "happens",
    "should", "find", "perdi", "perdu", "verloren",
];
/// Words a short question may have besides the possessive and the loans ("my loans please").
const FILLER: &[&str] = &["please", "pls", "plz", "all", "current", "the", "por", "favor", "bitte"];

/// Whether `question` asks about the asker's own loans (see the module).
pub fn about_own_loans(question: &str) -> bool {
    let words = split(question);
    let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
    let asks_state = has(DUE) || has(WHICH);
    let mine = has(MY) && (has(LOANS) || (has(LOAN) && has(DUE)));
    let only_named =
        words.iter().all(|w| [MY, LOANS, LOAN, FILLER].iter().any(|set| set.contains(&w.as_str())));
    let borrowed = has(BORROWED) && has(WHICH) && words.iter().any(|w| w == "i") && !has(WHAT_TO_DO);
    (mine && (asks_state || only_named)) || borrowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_loans_are_told_from_questions_about_the_rules() {
        for own in [
            "when are my books due?",
            "which of my books can I renew?",
            "my loans",
            "My loans please",
            "when is my book due",
            "what have I borrowed?",
            "show me my loans",
            "¿cuándo vencen mis libros?",
            "quand dois-je rendre mes livres ?",
            "Wann sind meine Bücher fällig?",
            "meri kitabein kab wapas karni hai",
        ] {
            assert!(about_own_loans(own), "{own}");
        }
        for rules in [
            "how do I renew a book?",
            "how many times can I renew a book?",
            "someone put a hold on my book, can I still renew it",
            "can i renw my books onlin or do i hav to come in",
            "can my roommate return my books for me",
            "what can I borrow?",
            "how long is the loan period for books",
            "is the library open today?",
            "what happens if I lose a book I borrowed from the library?",
            "I can't find a book I borrowed, it's gone. what should I do?",
        ] {
            assert!(!about_own_loans(rules), "{rules}");
        }
    }
}
