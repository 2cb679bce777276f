//! Clarifying questions and their answers. When the Hub asks which service a student
//! means, it remembers the question it could not place, per conversation; the next
//! message in that conversation is read as the answer: naming one of the offered
//! capabilities sends the original question there (still through `validate`), anything
//! else is decided together with the original question.
//!
//! Kept out of the router on purpose: routers propose, this is the Hub's conversation.

use crate::config::Config;
use crate::view::words;

/// A clarifying question the Hub asked and is waiting for an answer to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Pending {
    /// The question that could not be placed (with any earlier answer appended).
    pub(crate) question: String,
    /// The specialists offered, by id.
    pub(crate) options: Vec<String>,
    /// The question matched several services equally ("Do you mean A or B?"); otherwise
    /// it matched none and the Hub asked for more ("Could you say a little more…").
    pub(crate) tie: bool,
}

/// The one offered specialist whose capability (id or name, as words, any case) the
/// answer names; `None` when it names none or several.
pub(crate) fn named<'a>(answer: &str, options: &'a [String], config: &Config) -> Option<&'a str> {
    let said = words(answer);
    let names = |id: &str| {
        config.specialist(id).is_some_and(|s| {
            [&s.capability.id, &s.capability.name].into_iter().any(|name| {
                let w = words(name);
                !w.is_empty() && w.iter().all(|x| said.contains(x))
            })
        })
    };
    let mut hits = options.iter().filter(|id| names(id));
    match (hits.next(), hits.next()) {
        (Some(one), None) => Some(one.as_str()),
        _ => None,
    }
}

/// The Hub's wording of a clarifying question offering `names` (capability names of
/// routable specialists); `tie` when the router hesitated between exactly these.
pub(crate) fn question(names: &[String], tie: bool) -> String {
    match names {
        [] => "No service is available right now, so I can't route your question; please try again shortly."
            .into(),
        [.., last] if tie => format!("Do you mean {} or {last}?", names[..names.len() - 1].join(", ")),
        [one] => format!("Could you say a little more about what you need? I can help with {one}."),
        [.., last] => format!(
            "Could you say a little more about what you need? I can help with {} and {last}.",
            names[..names.len() - 1].join(", ")
        ),
    }
}

/// The Hub's answer to a question no service handles, offering only `names` (what is
/// routable right now). With some configured service down or switched off (`all_up`
/// false), it claims only that none of those available now handles it.
pub(crate) fn unsupported(names: &[String], all_up: bool) -> String {
    let lead = if all_up {
        "That isn't something this university's services handle."
    } else {
        "None of the services available right now handles that."
    };
    if names.is_empty() {
        format!("{lead} No service is available right now.")
    } else {
        format!("{lead} I can help with: {}.", names.join(", "))
    }
}

/// Words that open a follow-up, whatever follows: "and at x=2?", "what about Sunday?".
const OPENERS: &[&str] = &["and", "also", "now", "then", "so", "what about", "how about", "what if"];
/// Words that open a follow-up only in a short message ("why?", "at x=2?", "und am
/// Sonntag?"): "why was my financial aid reduced?" is a question of its own.
const SHORT_OPENERS: &[&str] = &[
    "why", "how come", "but", "or", "at", "for", "with", "on", "from", "between", "y", "et", "und", "aur",
    "por que", "por qué", "porque", "pourquoi", "warum", "kyun", "kyon", "kyu",
];
/// Words that refer back to the last question, whatever else is said.
const BACK: &[&str] = &["it", "that", "this", "them", "again", "instead"];
/// Words that ask for more of the last answer, or say it was not understood, only in a
/// short message ("another example please", "otro más", "noch ein Beispiel", "ek aur",
/// "no entiendo", "ich verstehe das nicht", "samajh nahi aaya"): "give me another example
/// of a cover letter" is a question of its own.
const SHORT_BACK: &[&str] = &[
    "another",
    "more",
    "different",
    "differently",
    "example",
    "examples",
    "elaborate",
    "understand",
    "confused",
    "confusing",
    "unclear",
    "otro",
    "otra",
    "más",
    "ejemplo",
    "entiendo",
    "entendí",
    "autre",
    "encore un",
    "encore une",
    "exemple",
    "comprends",
    "compris",
    "autrement",
    "nochmal",
    "noch eins",
    "noch einer",
    "beispiel",
    "verstehe",
    "versteh",
    "anders",
    "ek aur",
    "aur ek",
    "dobara",
    "phir se",
    "samajh",
    "samjha",
    "samjhi",
    "समझ",
];
/// The most words a message has for [`SHORT_OPENERS`] and [`SHORT_BACK`] to count.
const SHORT: usize = 6;

/// Words of a message that changes only a value of the last question — a day or bounds:
/// "what about tuesday?", "and on sunday?", "from 0 to 3?", "between 1 and 2?".
const VALUE_WORDS: &[&str] = &[
    "what",
    "how",
    "about",
    "and",
    "also",
    "then",
    "so",
    "on",
    "at",
    "for",
    "from",
    "to",
    "between",
    "the",
    "this",
    "next",
    "x",
    "y",
    "et",
    "und",
    "aur",
    "de",
    "a",
    "bis",
    "von",
    "se",
    "tak",
    "el",
    "le",
    "am",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "today",
    "tomorrow",
    "tonight",
    "weekend",
    "morning",
    "afternoon",
    "evening",
    "lunes",
    "martes",
    "miercoles",
    "miércoles",
    "jueves",
    "viernes",
    "sabado",
    "sábado",
    "domingo",
    "hoy",
    "mañana",
    "manana",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "demain",
    "montag",
    "dienstag",
    "mittwoch",
    "donnerstag",
    "freitag",
    "samstag",
    "sonntag",
    "heute",
    "morgen",
    "somvar",
    "mangalvar",
    "budhvar",
    "guruvar",
    "shukravar",
    "shanivar",
    "ravivar",
    "aaj",
    "kal",
    "infinity",
    "pi",
];

/// Whether a follow-up ([`reads_as_follow_up`]), or a point alone ("x=4?", [`a_point`]),
/// changes only a value of the last question: every word a day, a bound, a point or a
/// number ("what about tuesday?", "from 0 to 3?", "and x = 2?"). Such a message goes
/// where the last question went whatever the router makes of its few words ("tuesday"
/// alone reads like a tutoring time).
pub(crate) fn only_a_new_value(text: &str) -> bool {
    let words = crate::courtesy::lower_words(text);
    // an expression is more than a value ("y = x^2")
    let expression = text.contains(['^', '*', '+', '(', ')']);
    !words.is_empty()
        && words.len() <= SHORT
        && !expression
        && (reads_as_follow_up(text) || a_point(text))
        && words.iter().all(|w| VALUE_WORDS.contains(&w.as_str()) || w.chars().all(|c| c.is_ascii_digit()))
}

/// The words of a message that asks only for more of what was just said: another
/// example, the same again or said differently, in the five languages. None names a
/// subject.
const MORE_WORDS: &[&str] = &[
    "another",
    "one",
    "more",
    "example",
    "examples",
    "different",
    "differently",
    "other",
    "again",
    "explain",
    "it",
    "that",
    "this",
    "please",
    "pls",
    "plz",
    "can",
    "could",
    "you",
    "give",
    "me",
    "show",
    "a",
    "an",
    "way",
    "say",
    "try",
    "once",
    "simpler",
    "simply",
    "otro",
    "otra",
    "ejemplo",
    "mas",
    "más",
    "por",
    "favor",
    "de",
    "nuevo",
    "noch",
    "ein",
    "eins",
    "beispiel",
    "anderes",
    "bitte",
    "nochmal",
    "un",
    "une",
    "autre",
    "exemple",
    "encore",
    "plaît",
    "plait",
    "aur",
    "ek",
    "do",
    "dikhao",
    "batao",
    "samjhao",
    "phir",
    "se",
    "dusra",
    "dobara",
];

/// Whether a follow-up ([`reads_as_follow_up`]) of at most [`SHORT`] words asks only for
/// more of the same ("one more example", "otro ejemplo", "noch ein Beispiel", "can you
/// explain it differently?"): every word one of [`MORE_WORDS`]. It goes where the last
/// question went whatever the router makes of it ("example" alone is in every service's
/// examples).
pub(crate) fn only_more(text: &str) -> bool {
    let words = crate::courtesy::lower_words(text);
    !words.is_empty()
        && words.len() <= SHORT
        && reads_as_follow_up(text)
        && words.iter().all(|w| MORE_WORDS.contains(&w.as_str()))
}

/// Whether `text` names a point and nothing else but the words around it: a one-letter
/// name, `=`, a number (`x=4?`, `and x = -1/2`, `t = pi`).
fn a_point(text: &str) -> bool {
    let Some((name, value)) = text.trim().trim_end_matches(['?', '!', '.']).split_once('=') else {
        return false;
    };
    let name = name.trim_end().rsplit(' ').next().unwrap_or("");
    let value = value.trim().trim_start_matches(['-', '+']);
    let number = !value.is_empty()
        && (value.chars().all(|c| c.is_ascii_digit() || "./".contains(c)) || ["pi", "π"].contains(&value));
    name.chars().count() == 1 && name.chars().all(|c| c.is_ascii_alphabetic()) && number
}

/// Whether a question reads as a follow-up to the conversation's last one: it opens with
/// one of [`OPENERS`] ("and", "what about"…) or refers back to it ([`BACK`]: "it", "that",
/// "again"…); or, in a message of at most [`SHORT`] words, opens with one of
/// [`SHORT_OPENERS`] ("why", "at", "und", "aur"…) or asks for more ([`SHORT_BACK`]:
/// "another", "example", "otro", "Beispiel", "ek aur"…), in English, Spanish, French,
/// German or Hindi/Hinglish.
pub(crate) fn reads_as_follow_up(text: &str) -> bool {
    let words = crate::courtesy::lower_words(text);
    let phrase_at = |at: usize, phrase: &str| crate::courtesy::phrase_at(&words, at, phrase).is_some();
    let anywhere = |list: &[&str]| (0..words.len()).any(|at| list.iter().any(|p| phrase_at(at, p)));
    let short = words.len() <= SHORT;
    OPENERS.iter().any(|p| phrase_at(0, p))
        || anywhere(BACK)
        || (short && (SHORT_OPENERS.iter().any(|p| phrase_at(0, p)) || anywhere(SHORT_BACK)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asking_only_for_more_is_read_and_a_subject_is_not() {
        for more in [
            "one more example",
            "another example please",
            "otro ejemplo",
            "noch ein Beispiel",
            "can you explain it differently?",
            "ek aur example do",
        ] {
            assert!(only_more(more), "{more}");
        }
        for not in
            ["another example of pricing", "one more example of the chain rule", "what about the library"]
        {
            assert!(!only_more(not), "{not}");
        }
    }

    fn config() -> Config {
        Config::from_env(&|_| None).unwrap()
    }

    #[test]
    fn an_answer_names_one_offered_capability_by_id_or_name() {
        let c = config();
        let both = ["tutor".to_string(), "library".to_string()];
        for answer in ["tutoring", "Tutoring!", "tutoring please", "I mean TUTORING"] {
            assert_eq!(named(answer, &both, &c), Some("tutor"), "{answer}");
        }
        for answer in ["the library", "library please", "Library."] {
            assert_eq!(named(answer, &both, &c), Some("library"), "{answer}");
        }
        assert_eq!(named("both, tutoring and library", &both, &c), None, "two names: no choice");
        assert_eq!(named("derivatives", &both, &c), None);
        assert_eq!(named("library", &both[..1], &c), None, "only what was offered");
    }

    #[test]
    fn wording_offers_exactly_the_names_given() {
        let names = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(question(&names(&["Tutoring", "Library"]), true), "Do you mean Tutoring or Library?");
        assert_eq!(
            question(&names(&["Library"]), false),
            "Could you say a little more about what you need? I can help with Library."
        );
        assert!(question(&[], false).starts_with("No service is available right now"));
        assert!(unsupported(&names(&["Library"]), false).ends_with("I can help with: Library."));
        assert!(
            unsupported(&names(&["Library"]), false).starts_with("None of the services available right now")
        );
        assert!(unsupported(&names(&["Library"]), true).starts_with("That isn't something"));
        let none = unsupported(&[], false);
        assert!(none.contains("No service is available right now") && !none.contains("help with"), "{none}");
    }

    #[test]
    fn follow_ups_are_told_from_new_questions() {
        for q in [
            "what about at x=2?",
            "And from 1 to 2?",
            "how about x = 0",
            "is that right?",
            "do it again",
            "now the third one",
            "another example please",
            "can you give me another example",
            "why?",
            "and at x=2?",
            "one more",
            "otro ejemplo por favor",
            "noch ein Beispiel",
            "ek aur example do",
            "pourquoi ?",
            "otro más",
            "I don't get it",
            "I don't understand",
            "can you explain it differently?",
            "no entiendo",
            "je ne comprends pas",
            "ich verstehe das nicht",
            "samajh nahi aaya",
            "and x^4?",
            "what about cos(x)?",
        ] {
            assert!(reads_as_follow_up(q), "{q}");
        }
        for q in [
            "hi",
            "can you fix my kitchen sink?",
            "what is the weather",
            "hello there",
            "",
            "sandwich thoughts",
            "Why was my financial aid reduced last year?",
            "Can you explain the visa rules?",
            "Who else handles housing?",
            "Ist die Mensa noch offen?",
            "give me another example of a cover letter",
            "for my thesis I need a supervisor, who do I ask",
        ] {
            assert!(!reads_as_follow_up(q), "{q}");
        }
    }

    #[test]
    fn a_new_day_or_new_bounds_alone_is_a_new_value_for_the_last_question() {
        for q in [
            "what about tuesday?",
            "how about Tuesday",
            "and wednesday?",
            "from 0 to 3?",
            "between 1 and 3?",
            "on sunday?",
            "und am Samstag?",
            "aur kal?",
            "x=4?",
            "and x = -1/2",
            "what about x=2?",
            "y = 3",
        ] {
            assert!(only_a_new_value(q), "{q}");
        }
        for q in [
            "what about a tutor on tuesday?",
            "from the library to the station?",
            "tuesday",
            "what about integrals?",
            "and how do I renew it?",
            "y = x^2",
            "x = y",
            "room = 4",
        ] {
            assert!(!only_a_new_value(q), "{q}");
        }
    }
}
