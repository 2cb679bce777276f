//! What a question asks, as terms: its words ([`crate::words`]) read against the saved
//! texts and, for a follow-up, with the conversation's last question.
//!
//! - **A title.** Whether the library has a book is a question for the catalogue whatever
//!   the title ("do you have the book Dune?", "¿tienen el libro Rayuela?", "avez-vous un
//!   exemplaire de …"): asked with [`crate::words::asks_whether_held`] of a book or a copy,
//!   and every other word unknown to the saved texts (a title), it is `catalogue`. A word
//!   the saved texts know says what else is asked ("do you have a book drop?" is
//!   returning, "do you have books on calculus?" a shelf).
//! - **A follow-up** ("and for laptops?", "what about DVDs?", "y para los portátiles?",
//!   "et pour les DVD ?", "und für Laptops?", "aur laptop ka?": a short message opening
//!   with [`OPENERS`]) keeps the last question's topic and changes what it names: with no
//!   key term of its own ([`crate::words::is_key`]: fine, renew, price, hours …) it takes
//!   the last question's key terms ("what is the fine for a book?" then "and for
//!   laptops?" is the fine for laptops, not their loan period); with one, it is a question
//!   of its own ("and renewals?").

use crate::rank::Index;
use crate::words::{asks_whether_held, is_key, names_a_copy, says_at, split, terms};

/// Words that open a follow-up in a short message.
pub(crate) const OPENERS: &[&[&str]] = &[
    &["and"],
    &["also"],
    &["or"],
    &["what", "about"],
    &["how", "about"],
    &["same", "for"],
    &["for"],
    &["y"],
    &["e"],
    &["o"],
    &["et"],
    &["und"],
    &["oder"],
    &["aur"],
];
/// The most words a follow-up has.
pub(crate) const SHORT: usize = 6;

/// The terms `question` asks, read against `index`, after `last` (the terms the
/// conversation's last question asked) when it is a follow-up; typos corrected.
pub(crate) fn asked(index: &Index<'_>, question: &str, last: Option<&[String]>) -> Vec<String> {
    let words = split(question);
    let mut asked = terms(question);
    // a title is no topic: the question is whether the library has it
    let item = asked.iter().any(|t| t == "book") || names_a_copy(&words);
    let title = |t: &String| matches!(t.as_str(), "book" | "copy") || !index.knows(t);
    if item && asks_whether_held(&words) && asked.iter().all(title) {
        asked = vec!["catalogue".into()];
    }
    if let Some(last) = last.filter(|_| follows_up(&words)) {
        asked = follow(last, asked);
    }
    index.corrected(&asked)
}

/// Whether folded `words` read as a follow-up: at most [`SHORT`] of them, opening with one
/// of [`OPENERS`].
pub(crate) fn follows_up(words: &[String]) -> bool {
    words.len() <= SHORT && OPENERS.iter().any(|said| says_at(words, 0, said))
}

/// A follow-up's terms after the last question's: its own, and the last question's key
/// terms when it has none of its own; nothing new is the last question again.
fn follow(last: &[String], new: Vec<String>) -> Vec<String> {
    if new.is_empty() {
        return last.to_vec();
    }
    if new.iter().any(|t| is_key(t)) {
        return new;
    }
    let mut out = new;
    out.extend(last.iter().filter(|t| is_key(t)).cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(terms: &[&str]) -> Vec<String> {
        terms.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_follow_up_keeps_the_last_topic_and_changes_what_it_names() {
        let fine = owned(&["fin", "book"]);
        assert_eq!(follow(&fine, owned(&["laptop"])), owned(&["laptop", "fin"]));
        assert_eq!(follow(&fine, owned(&["renew"])), owned(&["renew"]), "a key term of its own");
        assert_eq!(follow(&fine, Vec::new()), fine, "nothing new");
        let loan = owned(&["loan", "book"]);
        assert_eq!(follow(&loan, owned(&["dvd"])), owned(&["dvd"]), "no key term to keep");
    }

    #[test]
    fn follow_ups_are_short_and_open_with_a_follow_up_word() {
        for q in [
            "and for laptops?",
            "what about DVDs?",
            "¿y para los portátiles?",
            "et pour les DVD ?",
            "und für Laptops?",
            "aur laptop ka?",
            "for laptops?",
        ] {
            assert!(follows_up(&split(q)), "{q}");
        }
        for q in [
            "laptops?",
            "how long can I borrow a laptop?",
            "and then what happens if I return the laptop two weeks late?",
        ] {
            assert!(!follows_up(&split(q)), "{q}");
        }
    }
}
