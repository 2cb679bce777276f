//! Words as the answerer compares them: a question and a skill's text go through the same
//! steps, so "¿A qué hora abre el sábado?" and "Saturday: 10:00–18:00" meet on `saturday`.
//!
//! 1. **Split** at anything that is not a letter, digit or Devanagari sign (apostrophes
//!    join: "I'd" → "id"), then **fold** as the booking form's reader does
//!    ([`forms::read::fold`]: lower case, Spanish/French/German accents off).
//! 2. **Book, the noun or the verb.** "book" is the thing (`book`) after an article,
//!    possessive or "library" ("renew a book", "lost a library book", "my book"), and the
//!    act of reserving (`reservation`) before "a", "me", "room", "it", … or after "to", "I",
//!    "can", … ("book a room", "can I book room C", "Book me a study room"); "books" is
//!    the thing (but "Books a room…" opening a sentence), "booking(s)" and "booked" always
//!    the act, and so is "reserve" (but not "course reserves" or "on reserve").
//! 3. **Lexicon** (questions only: a skill's own text is the English it maps onto). A
//!    small fixed lexicon maps synonyms and the key words of Spanish,
//!    French, German and Hindi/Hinglish onto the content's English words: weekdays (through
//!    [`forms::read::weekday`], but "mon" is French "my" and "thu" Vietnamese), hours and
//!    opening/closing (all `hour`: "abre", "ferme", "geschlossen", "khuli"), book, reserve,
//!    renew, fine, lost, damage, print, copy, scan, room, price, borrow (`loan`), laptop,
//!    holiday (and the holidays' names), food, return, cancel, late, place ("put a hold"),
//!    floor ("piso", "étage", "Stock"), quiet ("silenciosa", "calme", "ruhig"), databases,
//!    subjects onto the floors the content names ("maths", "calculus" → `mathematics`,
//!    "chemistry" → `sciences`, "history" → `humanities`, "psychology" → `social`; a book
//!    of a subject is the subject's shelf: "maths books" is `mathematics` alone), …; and
//!    phrases: "at once", "at a time", "a la vez", "auf einmal", "ek saath" (`limit`),
//!    "another university", "otra biblioteca", "anderen Bibliothek" (`interlibrary`), "how
//!    late" (`hour`), "bases de datos" (`databases`), "how much is", "cuánto es", "c'est
//!    combien", "kitne ka" (`price`); weekdays ("entre semana", "en semaine", "werktags")
//!    are the five days Monday to Friday. Booking or reserving a book, a textbook or a DVD
//!    is a `hold` ("can I book a book?"; its subject only says which book). "Late" (and Spanish "tarde") in a question
//!    that returns something is `overdue` ("return a laptop late"); alone it is `lat`,
//!    whose alternative is "overdue" ("late for our room booking" is no fine).
//! 4. **Stop words** of the five languages, generic verbs ("use", "happen", "keep": "can I
//!    use the databases" is about the databases, not the course reserves "for use inside
//!    the library"), day words (read by [`crate::days`] instead), "library" (it is the
//!    agent's name, not a topic) and single letters are dropped.
//! 5. **Stem**: a light English stemmer folds plurals, "-ing" and "-ed" ("Mondays" →
//!    "monday", "printing" → "print", "sided" → "sid").
//!
//! Some terms are **key**: they name what a question is about (lost, damage, fine, renew,
//! price, print, scan, hour, reserving, a hold, food, cancel, return, limit, overdue, quiet, and the
//! subjects of the shelves, …). An answer
//! must cover each key term the question has, or some skill must be about it
//! ([`crate::extract`]).

/// A term and the content words it also matches ("book" finds "renew an item").
pub fn alternatives(term: &str) -> &'static [&'static str] {
    match term {
        "book" => &["item"],
        "dvd" => &["item"],
        "laptop" => &["item"],
        "lat" => &["overdu"],
        _ => &[],
    }
}

/// Terms that name what a question is about (after the lexicon and stemming: "fine" is
/// `fin`, "price" `pric`).
const KEY_TERMS: &[&str] = &[
    "cancel",
    "card",
    "damag",
    "fin",
    "food",
    "hold",
    "hour",
    "limit",
    "locker",
    "lost",
    "overdu",
    "park",
    "pric",
    "print",
    "quiet",
    "renew",
    "reservation",
    "return",
    "scan",
    "wifi",
];

/// The subjects the lexicon reads onto the floors line (stemmed).
const SUBJECTS: &[&str] = &["humanity", "mathematic", "scienc", "social"];

/// A key term, or a subject (a shelf is what such a question is about).
pub fn is_key(term: &str) -> bool {
    KEY_TERMS.contains(&term) || SUBJECTS.contains(&term)
}

/// The normalised terms of a question (or an example question), in order (repeats kept):
/// every step, the lexicon included.
pub fn terms(text: &str) -> Vec<String> {
    normalised(text, true)
}

/// The normalised terms of a skill's own English text (name, tags, description, content):
/// every step but the lexicon, whose words are already the content's ("closed" in
/// "Public holidays: closed" is a state, not a question about hours; "renewals" in a
/// skill's name is not the act of renewing). Book the noun vs booking applies.
pub fn text_terms(text: &str) -> Vec<String> {
    normalised(text, false)
}

fn normalised(text: &str, question: bool) -> Vec<String> {
    let raw = split(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if question && let Some((len, term)) = phrase_at(&raw, i) {
            if !term.is_empty() {
                out.push(term.to_string());
            }
            i += len;
            continue;
        }
        let (at, word) = (i, &raw[i]);
        i += 1;
        let prev = if at == 0 { "" } else { raw[at - 1].as_str() };
        let next = raw.get(at + 1).map_or("", String::as_str);
        let mapped = match word.as_str() {
            "book" => book_sense(at, prev, next),
            // "Books a group study room": the act
            "books" if matches!(next, "a" | "an") && at == 0 => "reservation",
            // a place is somewhere, unless it places something ("place a hold")
            "place" | "places" if !matches!(next, "a" | "an" | "the" | "my" | "hold" | "holds") => continue,
            "reserve" if matches!(prev, "course" | "on") => "reserve",
            // "the reserve books", "mga reserve books": the course reserves
            "reserve"
                if matches!(next, "book" | "books")
                    && matches!(prev, "the" | "my" | "our" | "these" | "mga") =>
            {
                "reserve"
            }
            "booking" | "bookings" | "booked" | "reserve" | "reserved" | "reserving" | "reservation"
            | "reservations" => "reservation",
            w if question => match (lexicon(w), compound(w)) {
                (Some(english), _) => english,
                (None, Some((first, second))) => {
                    out.extend(normalise(first));
                    second
                }
                (None, None) => w,
            },
            w => w,
        };
        if let Some(term) = normalise(mapped) {
            out.push(term);
        }
    }
    if question {
        read_whole(&mut out);
    }
    out
}

/// What a question's terms say together, read once all are known.
fn read_whole(out: &mut Vec<String>) {
    let has = |out: &[String], term: &str| out.iter().any(|t| t == term);
    let thing = |t: &String| alternatives(t).contains(&"item");
    // booking or reserving a book, a textbook or a DVD (not a room) is placing a hold on
    // it ("can I book a book?", "reserve a book that is checked out", "réserver un
    // livre"): that it is on loan is why, and its subject which book, not what is asked
    // ("I want to book the chemistry textbook")
    if out.iter().any(thing) && !has(out, "room") && has(out, "reservation") {
        out.retain(|t| t != "loan" && !SUBJECTS.contains(&t.as_str()));
        for t in out.iter_mut().filter(|t| *t == "reservation") {
            *t = "hold".into();
        }
    }
    // a book of a subject is the subject's shelf ("maths books", "libros de psicología"),
    // and finding it is finding the shelf ("where can I find psychology books")
    if out.iter().any(|t| SUBJECTS.contains(&t.as_str())) {
        out.retain(|t| t != "book" && t != "search");
    }
    // late with a return is an overdue item ("return a laptop late", "devolver tarde");
    // late alone is only an alternative of overdue ("late for our room booking" is no
    // fine), and Spanish "tarde" alone is as likely the afternoon
    if has(out, "return") {
        for t in out.iter_mut().filter(|t| *t == "lat" || *t == "tard") {
            *t = "overdu".into();
        }
    }
    // weekdays are the five lines from Monday to Friday ("hours on weekdays",
    // "entre semana", "en semaine", "werktags")
    if let Some(at) = out.iter().position(|t| t == WEEKDAYS) {
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday"].map(String::from);
        out.splice(at..=at, days);
        out.retain(|t| t != WEEKDAYS);
    }
}

/// The lexicon's term for Monday to Friday, read as the five days ([`read_whole`]).
const WEEKDAYS: &str = "weekday";

/// Folded words of `text`: split at anything but letters, digits and Devanagari.
pub fn split(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut raw = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || ('\u{0900}'..='\u{097f}').contains(&c) {
            raw.push(c);
        } else if matches!(c, '\'' | '’') && ELIDED.contains(&raw.to_lowercase().as_str()) {
            // French elision: "l'impression" is "l" and "impression"
            out.push(forms::read::fold(&raw));
            raw.clear();
        } else if matches!(c, '\'' | '’') && !raw.is_empty() {
            // "I'd" → "id", "library's" → "librarys" (→ "library"): one word.
        } else if !raw.is_empty() {
            out.push(forms::read::fold(&raw));
            raw.clear();
        }
    }
    out
}

/// The French words an apostrophe elides ("l'", "d'", "qu'", …).
const ELIDED: &[&str] = &["c", "d", "j", "l", "m", "n", "qu", "s", "t"];

/// "book" at `i`: the thing or the act of reserving, from its neighbours.
fn book_sense(i: usize, prev: &str, next: &str) -> &'static str {
    const THING_AFTER: &[&str] = &[
        "a",
        "an",
        "the",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "this",
        "that",
        "library",
        "one",
        "same",
        "which",
        "any",
        "each",
        "every",
        "lost",
        "overdue",
        "borrowed",
        "reference",
        "old",
        "new",
        "el",
        "un",
        "le",
        "mein",
        "ek",
        "ka",
        "ki",
    ];
    const ACT_BEFORE: &[&str] = &[
        "a",
        "an",
        "me",
        "us",
        "room",
        "rooms",
        "study",
        "group",
        "it",
        "one",
        "somewhere",
        "space",
        "spot",
        "kar",
        "karna",
        "karo",
        "karni",
        "sala",
    ];
    const ACT_AFTER: &[&str] = &[
        "to", "can", "i", "we", "please", "pls", "plz", "you", "u", "and", "lets", "will", "want", "need",
        "could",
    ];
    if THING_AFTER.contains(&prev) {
        "book"
    } else if ACT_BEFORE.contains(&next) || ACT_AFTER.contains(&prev) || i == 0 {
        "reservation"
    } else {
        "book"
    }
}

fn normalise(raw: &str) -> Option<String> {
    let single_letter = raw.chars().count() == 1 && !raw.chars().all(|c| c.is_ascii_digit());
    if single_letter || is_stop(raw) {
        return None;
    }
    let stem = stem(raw);
    (!is_stop(&stem)).then_some(stem)
}

pub fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit())
}

/// A naive English stemmer, good enough for matching a question against short facts.
/// Only plain ASCII words are touched.
pub fn stem(word: &str) -> String {
    let mut w = word.to_string();
    if !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return w;
    }
    if w.len() > 4 && w.ends_with("ies") {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if w.len() > 3 && w.ends_with('s') && !["ss", "us", "is"].iter().any(|s| w.ends_with(s)) {
        w.pop();
    }
    for suffix in ["ing", "ed"] {
        if w.len() >= suffix.len() + 3 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            // "stopped" → "stop", but "called" → "call".
            let b = w.as_bytes();
            let (last, before) = (b[b.len() - 1], b[b.len() - 2]);
            if w.len() > 3 && last == before && !b"aeiouylsz".contains(&last) {
                w.pop();
            }
            break;
        }
    }
    // "close", "closed", "closing" → "clos".
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

mod lexicon;
mod stop;

pub use lexicon::english_weekday;
pub use lexicon::weekday;
pub use lexicon::{asks_whether_held, names_a_copy, says_at};
use lexicon::{compound, lexicon, phrase_at};
use stop::is_stop;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted() {
        for list in [stop::STOP_WORDS, stop::OTHER_STOP_WORDS, stop::DAY_WORDS, KEY_TERMS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{:?}", list.windows(2).find(|w| w[0] >= w[1]));
        }
    }

    #[test]
    fn words_are_normalised() {
        assert_eq!(terms("What are the library's hours on Mondays?"), ["hour", "monday"]);
        assert_eq!(terms("I'd like to renew"), ["renew"]);
        assert_eq!(
            terms("Double-sided printing, 8:00–22:00"),
            ["doubl", "sid", "print", "8", "00", "22", "00"]
        );
        assert_eq!(terms("¿A qué hora abre la biblioteca el sábado?"), ["hour", "hour", "saturday"]);
        assert_eq!(terms("Öffnungszeiten am Samstag"), ["hour", "saturday"]);
        assert_eq!(terms("shaniwar ko library kitne baje khulti hai"), ["saturday", "hour", "hour"]);
        let pairs = [
            ("mondays", "monday"),
            ("libraries", "library"),
            ("copies", "copy"),
            ("copying", "copy"),
            ("renewed", "renew"),
            ("renewals", "renewal"),
            ("booking", "book"),
            ("closed", "clos"),
            ("closes", "clos"),
            ("close", "clos"),
            ("stopped", "stop"),
            ("called", "call"),
            ("campus", "campus"),
            ("class", "class"),
            ("due", "due"),
            ("thing", "thing"),
            ("café", "café"),
        ];
        for (word, stemmed) in pairs {
            assert_eq!(stem(word), stemmed, "{word}");
        }
    }

    #[test]
    fn a_book_is_a_thing_and_booking_is_reserving() {
        let sense = |q: &str| {
            terms(q)
                .into_iter()
                .filter(|t| t.starts_with("book") || t.starts_with("reserv"))
                .collect::<Vec<_>>()
        };
        for q in
            ["how many times can I renew a book?", "I lost a library book", "when is my book due", "books"]
        {
            assert_eq!(sense(q), ["book"], "{q}");
        }
        for q in [
            "book a study room",
            "can I book room C",
            "Book me a study room",
            "room B book kar do",
            "bookings are held",
            "I'd like to reserve Room B",
            "Cancel a booking",
        ] {
            assert_eq!(sense(q), ["reservation"], "{q}");
            assert_eq!(text_terms(q).iter().filter(|t| t.starts_with("book")).count(), 0, "{q}");
        }
        assert!(!terms("course reserves").contains(&"reservation".to_string()));
        assert_eq!(text_terms("Public holidays: closed"), ["public", "holiday", "clos"]);
        assert_eq!(terms("closed on Monday"), ["hour", "monday"]);
    }
}
