//! How words name a book of a loan: by the distinctive words of its title ("the calculus
//! book" names Calculus in Motion), and which words of a message name some book at all (the
//! words just before "book"). Shared by the Library (which loans a question or a sentence
//! names) and the page's Student (which loan a date typed in the chat is for).

use super::tokens::fold;

/// Title words too common to name a loan.
const COMMON: &[&str] = &["the", "for", "and", "step", "with", "book", "books", "from", "into", "your"];

/// Words that stand before "book" without naming one ("my book", "this book").
const NOT_NAMES: &[&str] = &[
    "my", "the", "this", "that", "a", "an", "your", "our", "his", "her", "their", "library", "it", "one",
    "same", "other", "another", "which", "what", "each", "every", "all", "any", "some", "new", "old",
];

/// The nouns a book is called by.
const BOOK: &[&str] = &["book", "books", "textbook", "textbooks", "loan", "loans", "copy", "title"];

/// `text` as folded words (lowercase, accents off), split at anything but letters, digits
/// and `'`.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).map(fold).collect()
}

/// The words of `title` that name it: four letters or more, none too common.
pub fn title_keywords(title: &str) -> Vec<String> {
    words(title).into_iter().filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str())).collect()
}

/// How many of `title`'s keywords `words` has.
pub fn title_score(title: &str, words: &[String]) -> usize {
    title_keywords(title).iter().filter(|k| words.contains(k)).count()
}

/// The words of `text` that name some book: the one or two words just before "book" (or
/// "loan", "copy"…) that are not "my", "the", "this"… ("my statistics book" → statistics).
pub fn book_names(text: &str) -> Vec<String> {
    let ws = words(text);
    let mut names = Vec::new();
    for (i, w) in ws.iter().enumerate() {
        if !BOOK.contains(&w.as_str()) {
            continue;
        }
        for back in ws[..i].iter().rev().take(2) {
            if NOT_NAMES.contains(&back.as_str()) || BOOK.contains(&back.as_str()) {
                break;
            }
            names.push(back.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_is_named_by_its_distinctive_words_and_a_book_by_the_words_before_it() {
        assert_eq!(title_keywords("Organic Chemistry Step by Step"), ["organic", "chemistry"]);
        assert_eq!(
            title_keywords("Physics for Engineers (course reserve)"),
            ["physics", "engineers", "course", "reserve"]
        );
        assert_eq!(title_score("Calculus in Motion", &words("renew my calculus book")), 1);
        assert_eq!(title_score("Calculus in Motion", &words("my statistics book")), 0);
        assert_eq!(book_names("renew my statistics book until 2026-12-25"), ["statistics"]);
        assert_eq!(book_names("the organic chemistry book, please"), ["chemistry", "organic"]);
        assert!(book_names("until 2026-12-25 please").is_empty());
        assert!(book_names("renew my book until friday").is_empty(), "no name, just my book");
        assert_eq!(words("Física, ÉTUDE"), ["fisica", "etude"]);
    }
}
