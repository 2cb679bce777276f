//! The reader, rule by rule: folding, glosses, library phrases, negation, vagueness, main
//! span and parts.

use super::*;

fn words(ts: &[&Token]) -> Vec<String> {
    ts.iter().map(|t| t.text.clone()).collect()
}

#[test]
fn folding_and_tokens() {
    let t = tokens("¿Ayúdame con la pregunta 3? Câu hỏi: x^2 = 2.5");
    let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["ayudame", "con", "la", "pregunta", "3", "cau", "hoi", "x", "^", "2", "=", "2.5"]);
    assert_eq!(t[4].kind, Kind::Number);
    assert_eq!((t[3].sentence, t[5].sentence), (0, 1));
    assert!(looks_mathematical(&t));
    assert!(!looks_mathematical(&tokens("where is room 3b")));
    assert!(looks_mathematical(&tokens("integrate 3x dx")));
}

#[test]
fn a_foreign_word_with_a_gloss_is_read_as_its_english() {
    let texts = |q: &str| tokens(q).into_iter().map(|t| t.text).collect::<Vec<_>>();
    assert_eq!(texts("Öffnungszeiten am Sonntag?"), ["opening", "hours", "am", "sunday"]);
    let t = texts("Quelles sont les heures d'ouverture le mardi ?");
    assert!(t.contains(&"hours".to_string()) && t.contains(&"tuesday".to_string()), "{t:?}");
    // English words are never glossed, nor numbers
    assert_eq!(texts("library hours on monday 3"), ["library", "hours", "on", "monday", "3"]);
    // the words of issue 20: rule names, "explain", and German compounds by their parts
    assert_eq!(texts("explica la regla de la cadena"), ["explain", "la", "rule", "de", "la", "chain"]);
    assert_eq!(texts("was ist die Kettenregel?"), ["was", "ist", "die", "chain", "rule"]);
    assert_eq!(texts("erkläre die Produktregel"), ["explain", "die", "product", "rule"]);
    assert_eq!(texts("Quotientenregel"), ["quotient", "rule"]);
    assert_eq!(texts("potenzregel"), ["power", "rule"]);
    assert_eq!(texts("Ableitungsregeln"), ["derivative", "rules"]);
    // a compound is split only when both its parts are German words with a gloss
    for kept in ["understanding", "regelmäßig", "kettensäge", "marketing"] {
        assert_eq!(texts(kept), [kept.chars().map(fold).collect::<String>()], "{kept}");
    }
    assert_eq!(texts("preisregel"), ["price", "rule"]);
    assert!(crate::words::german_glosses().any(|w| w == "regel"));
    assert!(!crate::words::german_glosses().any(|w| w == "regla" || w == "lundi"));
    // every gloss is a folded single word on the left and English on the right
    for (foreign, english) in crate::words::glosses() {
        assert!(!foreign.is_empty() && foreign.chars().all(char::is_alphanumeric), "{foreign}");
        assert!((1..=3).contains(&english.len()), "{foreign}: {english:?}");
    }
}

#[test]
fn negation_drops_a_topic_only_when_another_remains() {
    let t = tokens("No, I'm not asking about printing, I need the chain rule");
    assert_eq!(words(&reading(&t)), ["need", "chain", "rule"]);
    let t = tokens("I don't understand integrals");
    assert_eq!(words(&reading(&t)), ["understand", "integrals"]);
    let t = tokens("Not the library thing: my sink is leaking");
    assert_eq!(words(&reading(&t)), ["sink", "leaking"]);
    let t = tokens("I want calculus instead of printing");
    assert_eq!(words(&reading(&t)), ["want", "calculus"]);
}

#[test]
fn vagueness() {
    for q in [
        "help",
        "I have a question.",
        "Can you help me with my homework?",
        "It's not working",
        "When is it due?",
        "Ayúdame porfa",
    ] {
        assert!(vague(&tokens(q)), "{q}");
    }
    for q in ["When does the library open?", "integrate x^2", "How do I renew a book?", "fix my sink"] {
        assert!(!vague(&tokens(q)), "{q}");
    }
}

#[test]
fn main_span_and_parts() {
    let t = tokens("I'll renew my books later, but mainly: what is the limit of 1/x? Thanks");
    let main: Vec<&str> = main_span(&t).unwrap().iter().map(|t| t.text.as_str()).collect();
    assert_eq!(main, ["mainly", "what", "is", "the", "limit", "of", "1", "/", "x"]);
    assert!(main_span(&tokens("Is the main library open?")).is_none());
    let t = tokens("Can you renew my books and also explain the chain rule?");
    assert_eq!(parts(&t).len(), 2);
    let t = tokens("Two things: how do I book a study room, and how do I integrate sin x?");
    assert_eq!(parts(&t).len(), 2);
    assert_eq!(parts(&tokens("Find the derivative of x^2 and x^3")).len(), 1);
}

#[test]
fn library_phrases_are_one_word() {
    let texts = |q: &str| tokens(q).into_iter().map(|t| t.text).collect::<Vec<_>>();
    assert_eq!(texts("can I check out a camera?"), ["can", "i", "checkout", "a", "camera"]);
    assert_eq!(texts("the book is checked out"), ["the", "book", "is", "checkout"]);
    assert_eq!(texts("can you check my answer?"), ["can", "you", "check", "my", "answer"]);
    assert_eq!(texts("a book from another campus"), ["a", "book", "from", "interlibrary"]);
    assert_eq!(texts("other libraries"), ["interlibrary"]);
    assert_eq!(texts("another school"), ["another", "school"]);
    assert_eq!(texts("e-journals off campus"), ["e", "journals", "offcampus"]);
    // not across a sentence
    assert_eq!(texts("check. out"), ["check", "out"]);
}

#[test]
fn french_words_that_are_english_words_too_read_as_french_in_french() {
    let texts = |q: &str| tokens(q).into_iter().map(|t| t.text).collect::<Vec<_>>();
    assert!(texts("comment je paie mes impressions ?").contains(&"printing".to_string()));
    assert!(texts("comment payer l'impression ?").contains(&"printing".to_string()));
    // in English they are English
    assert!(texts("how many impressions did my ad get?").contains(&"impressions".to_string()));
    assert!(texts("first impression of the campus").contains(&"impression".to_string()));
}
