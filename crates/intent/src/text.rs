//! Reading a question: folding, tokens, negated spans, sentences, the marked main request
//! and the parts of a two-topic question. Word lists cover English and the languages
//! students mix with it here (Spanish, Hindi, Tagalog, Vietnamese, in Latin letters);
//! the two long lists, function words and vague words, are in `words.rs`.

use crate::words::{self, CONTRAST, NEGATOR_PAIRS, NEGATORS, PRONOUNS, QUESTION_STARTS};

/// Lowercase with Latin diacritics removed (`Ayúdame` → `ayudame`, `không` → `khong`).
pub fn fold(c: char) -> char {
    const TABLE: &[(&str, char)] = &[
        ("àáảãạăằắẳẵặâầấẩẫậäåā", 'a'),
        ("èéẻẽẹêềếểễệëē", 'e'),
        ("ìíỉĩịïîī", 'i'),
        ("òóỏõọôồốổỗộơờớởỡợöøō", 'o'),
        ("ùúủũụưừứửữựüûū", 'u'),
        ("ỳýỷỹỵÿ", 'y'),
        ("đ", 'd'),
        ("ñ", 'n'),
        ("ç", 'c'),
    ];
    let c = c.to_lowercase().next().unwrap_or(c);
    if c.is_ascii() {
        return c;
    }
    TABLE.iter().find(|(set, _)| set.contains(c)).map(|(_, base)| *base).unwrap_or(c)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Word,
    Number,
    /// A mathematical symbol (`^ = + * / ∫ √ ²`).
    Symbol,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub kind: Kind,
    /// Inside a negated span ("not about advertising").
    pub negated: bool,
    /// Index of its sentence (split at `. ? ! ;` and line breaks).
    pub sentence: usize,
    /// A comma, colon or parenthesis came right before it.
    pub after_pause: bool,
    class: Class,
}

impl Token {
    fn new(text: String, kind: Kind, sentence: usize, after_pause: bool) -> Token {
        let class = match kind {
            Kind::Word => word_class(&text),
            Kind::Number | Kind::Symbol => Class::Content,
        };
        Token { text, kind, negated: false, sentence, after_pause, class }
    }

    /// Carries meaning for routing: not a function word.
    pub fn is_content(&self) -> bool {
        self.class != Class::Function
    }

    /// Says something about *what* is asked (not "help", "question", "homework").
    pub fn is_routable(&self) -> bool {
        self.kind == Kind::Word && self.class == Class::Content
    }
}

/// What a word is to routing, looked up once when the question is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A function word (`words::stop`).
    Function,
    /// A word of wanting without saying what (`words::generic`).
    Generic,
    Content,
}

fn word_class(word: &str) -> Class {
    use std::collections::HashSet;
    use std::sync::OnceLock;
    static SETS: OnceLock<(HashSet<&'static str>, HashSet<&'static str>)> = OnceLock::new();
    let (stop, generic) = SETS.get_or_init(|| (words::stop().collect(), words::generic().collect()));
    if stop.contains(word) {
        Class::Function
    } else if generic.contains(word) {
        Class::Generic
    } else {
        Class::Content
    }
}

/// The English a foreign word is read as ([`words::glosses`]), if it has a gloss.
fn gloss(word: &str) -> Option<&'static [&'static str]> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static GLOSSES: OnceLock<HashMap<String, Vec<&'static str>>> = OnceLock::new();
    GLOSSES
        .get_or_init(|| {
            words::glosses()
                .map(|(foreign, english)| (foreign.chars().map(fold).collect(), english))
                .collect()
        })
        .get(word)
        .map(Vec::as_slice)
}

/// The linking elements between the parts of a German compound ("Kette-n-regel",
/// "Bibliothek-s-ausweis"), longest first.
const LINKS: &[&str] = &["en", "es", "n", "s", "e", ""];

/// A German compound read as its parts' English: the word ends in a German word of the
/// gloss list (four letters or more) and what comes before it, less a linking element, is
/// one too ("kettenregel" → chain rule, "produktregel" → product rule). Both parts must
/// have a gloss, so an English word is never split.
fn compound(word: &str) -> Option<Vec<&'static str>> {
    use std::collections::HashSet;
    use std::sync::OnceLock;
    static GERMAN: OnceLock<HashSet<String>> = OnceLock::new();
    let german =
        GERMAN.get_or_init(|| words::german_glosses().map(|w| w.chars().map(fold).collect()).collect());
    if word.chars().count() < 7 || gloss(word).is_some() {
        return None;
    }
    let german_gloss = |w: &str| german.contains(w).then(|| gloss(w)).flatten();
    // the longest last part first: "ableitungsregel" is "ableitung" + "s" + "regel"
    for (i, _) in word.char_indices().skip(3) {
        let (head, tail) = word.split_at(i);
        if tail.chars().count() < 4 {
            break;
        }
        let Some(last) = german_gloss(tail) else { continue };
        for link in LINKS {
            let Some(first) =
                head.strip_suffix(link).filter(|h| h.chars().count() >= 3).and_then(german_gloss)
            else {
                continue;
            };
            return Some(first.iter().chain(last).copied().collect());
        }
    }
    None
}

const MATH_SYMBOLS: &str = "^=+*/∫√²³π<>≤≥∞";

/// The question's tokens, with negated spans and sentences marked; a foreign word with a
/// gloss is read as its English words ([`words::glosses`]).
pub fn tokens(text: &str) -> Vec<Token> {
    // "can't log in", "doesn't open": a problem stated, not a topic negated; "isn't
    // about", "don't need": a topic negated
    let mut said = text.to_lowercase();
    if said.contains('’') {
        said = said.replace('’', "'");
    }
    for (from, to) in [
        ("can't", "cannot"),
        ("won't", "wont"),
        ("couldn't", "couldnt"),
        ("doesn't", "doesnt"),
        ("didn't", "didnt"),
        ("n't", " not"),
    ] {
        if said.contains(from) {
            said = said.replace(from, to);
        }
    }
    let folded: String = said.chars().map(fold).collect();
    let chars: Vec<char> = folded.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let (mut sentence, mut pause) = (0usize, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    // a decimal point inside a number
                    || (chars[i] == '.'
                        && chars[i - 1].is_ascii_digit()
                        && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())))
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let kind =
                if word.chars().all(|c| c.is_ascii_digit() || c == '.') { Kind::Number } else { Kind::Word };
            let english =
                (kind == Kind::Word).then(|| gloss(&word).map(<[_]>::to_vec).or_else(|| compound(&word)));
            match english.flatten() {
                Some(english) => {
                    for (j, w) in english.iter().enumerate() {
                        out.push(Token::new(w.to_string(), kind, sentence, pause && j == 0));
                    }
                }
                _ => out.push(Token::new(word, kind, sentence, pause)),
            }
            pause = false;
            continue;
        }
        if MATH_SYMBOLS.contains(c) {
            out.push(Token::new(c.to_string(), Kind::Symbol, sentence, pause));
            pause = false;
        } else if matches!(c, '.' | '?' | '!' | ';' | '\n' | '¿' | '¡' | '。') {
            if out.last().is_some_and(|t| t.sentence == sentence) {
                sentence += 1;
            }
            pause = true;
        } else if matches!(c, ',' | ':' | '(' | ')' | '"' | '“' | '”' | '-' | '—' | '–') {
            pause = true;
        }
        i += 1;
    }
    mark_negation(&mut out);
    out
}

fn mark_negation(tokens: &mut [Token]) {
    let mut negating = false;
    for i in 0..tokens.len() {
        let t = &tokens[i];
        if t.after_pause
            || (i > 0 && tokens[i - 1].sentence != t.sentence)
            || CONTRAST.contains(&t.text.as_str())
        {
            negating = false;
        }
        let pair = i > 0 && NEGATOR_PAIRS.iter().any(|(a, b)| tokens[i - 1].text == *a && t.text == *b);
        if NEGATORS.contains(&t.text.as_str()) || pair {
            negating = true;
            continue;
        }
        tokens[i].negated = negating;
    }
}

/// The words of a span as the model reads them: content words, with negated ones left
/// out when the span says something without them ("not about ads, the chain rule"); a
/// span whose only topic is negated keeps it ("I don't get integrals").
pub fn reading(span: &[Token]) -> Vec<&Token> {
    let content: Vec<&Token> = span.iter().filter(|t| t.is_content()).collect();
    let positive = content.iter().any(|t| !t.negated && t.is_routable());
    content.into_iter().filter(|t| !positive || !t.negated).collect()
}

/// The span as a sentence model reads it: every word in order (function words too),
/// negated ones left out as [`reading`] leaves them out.
pub fn said(span: &[Token]) -> String {
    let positive = span.iter().any(|t| t.is_routable() && !t.negated);
    let kept: Vec<&str> = span.iter().filter(|t| !positive || !t.negated).map(|t| t.text.as_str()).collect();
    kept.join(" ")
}

/// Nothing routable said: no word about *what* is asked ("help", "I have a question"),
/// or one word at most with a bare pronoun for its object ("when is it due?").
pub fn vague(tokens: &[Token]) -> bool {
    let routable = reading(tokens).iter().filter(|t| t.is_routable()).count();
    let symbols = tokens.iter().any(|t| t.kind == Kind::Symbol);
    if symbols {
        return false;
    }
    let pronoun = tokens.iter().any(|t| PRONOUNS.contains(&t.text.as_str()));
    routable == 0 || (routable == 1 && pronoun && tokens.len() <= 7)
}

/// Whether the text looks like mathematics: symbols, or a variable next to a number.
pub fn looks_mathematical(tokens: &[Token]) -> bool {
    let symbol = |t: &Token| t.kind == Kind::Symbol && !matches!(t.text.as_str(), "+" | "/" | "<" | ">");
    let variable = |t: &Token| {
        t.kind == Kind::Word
            && t.text.chars().any(|c| c.is_ascii_digit())
            && t.text.chars().filter(|c| c.is_alphabetic()).all(|c| matches!(c, 'x' | 'y' | 't' | 'n' | 'e'))
    };
    tokens.iter().any(|t| symbol(t) || variable(t))
}

/// Phrases that mark one request as the main one, in the five languages; written blind, as
/// `GENERIC` was. Hindi "main" is "I", so a bare "main question" is not one.
const MAIN_MARKERS: &[&[&str]] = &[
    &["mainly"],
    &["primarily"],
    &["chiefly"],
    &["above", "all"],
    &["most", "of", "all"],
    &["more", "than", "anything"],
    &["most", "importantly"],
    &["more", "importantly"],
    &["most", "important"],
    &["first", "and", "foremost"],
    &["my", "main", "question"],
    &["the", "main", "question"],
    &["main", "question", "is"],
    &["main", "concern"],
    &["main", "issue"],
    &["the", "main", "thing"],
    &["main", "thing", "is"],
    &["my", "main", "problem"],
    &["main", "problem", "is"],
    &["main", "reason"],
    &["main", "request"],
    &["the", "main", "one"],
    &["main", "priority"],
    &["my", "priority"],
    &["top", "priority"],
    &["highest", "priority"],
    &["biggest", "question"],
    &["biggest", "concern"],
    &["biggest", "issue"],
    &["what", "i", "really", "need"],
    &["what", "i", "actually", "need"],
    &["what", "i", "mainly", "need"],
    &["what", "i", "need", "most"],
    &["need", "most"],
    &["most", "urgent"],
    &["more", "urgent"],
    &["most", "urgently"],
    &["the", "important", "part"],
    &["the", "important", "thing"],
    &["the", "real", "question"],
    &["my", "real", "question"],
    &["the", "key", "question"],
    &["what", "matters", "most"],
    &["but", "mostly"],
    &["mostly", "need"],
    &["main", "point"],
    &["principalmente"],
    &["sobre", "todo"],
    &["sobretodo"],
    &["mas", "que", "nada"],
    &["mas", "que", "todo"],
    &["ante", "todo"],
    &["lo", "mas", "importante"],
    &["mas", "importante"],
    &["lo", "principal"],
    &["pregunta", "principal"],
    &["duda", "principal"],
    &["lo", "que", "mas", "necesito"],
    &["lo", "que", "realmente", "necesito"],
    &["lo", "que", "mas", "me", "importa"],
    &["mi", "prioridad"],
    &["prioridad"],
    &["lo", "mas", "urgente"],
    &["mas", "urgente"],
    &["lo", "primordial"],
    &["primordialmente"],
    &["mayormente"],
    &["sabse", "zaroori"],
    &["sabse", "zaruri"],
    &["sabse", "jaruri"],
    &["sabse", "jaroori"],
    &["sabse", "important"],
    &["sabse", "urgent"],
    &["zyada", "zaroori"],
    &["zyada", "jaruri"],
    &["jyada", "jaruri"],
    &["jyada", "zaroori"],
    &["mukhya", "roop", "se"],
    &["mukhya", "sawal"],
    &["mukhya", "baat"],
    &["asli", "sawal"],
    &["asli", "baat"],
    &["pinakamahalaga"],
    &["pinaka", "mahalaga"],
    &["pinakaimportante"],
    &["pinaka", "importante"],
    &["higit", "sa", "lahat"],
    &["pangunahin"],
    &["pangunahing", "tanong"],
    &["pinaka", "kailangan"],
    &["pinakakailangan"],
    &["mas", "mahalaga"],
    &["pinaka", "urgent"],
    &["pinakaurgent"],
    &["ang", "mahalaga"],
    &["ang", "importante"],
    &["quan", "trong", "nhat"],
    &["quan", "trong", "hon"],
    &["chu", "yeu"],
    &["cau", "hoi", "chinh"],
    &["van", "de", "chinh"],
    &["viec", "chinh"],
    &["muc", "dich", "chinh"],
    &["uu", "tien"],
    &["can", "nhat"],
    &["gap", "nhat"],
    &["hon", "het"],
    &["tren", "het"],
    &["dieu", "quan", "trong"],
];

/// The request the student marked as the main one ("…, but mainly: what is …"): from the
/// marker to the end of its sentence (the next one too when nothing follows the marker).
pub fn main_span(tokens: &[Token]) -> Option<&[Token]> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    // the markers by their first word: most words start none
    static BY_FIRST: OnceLock<HashMap<&'static str, Vec<&'static [&'static str]>>> = OnceLock::new();
    let by_first = BY_FIRST.get_or_init(|| {
        let mut map: HashMap<&'static str, Vec<&'static [&'static str]>> = HashMap::new();
        for m in MAIN_MARKERS {
            map.entry(m[0]).or_default().push(m);
        }
        map
    });
    let at = (0..tokens.len()).find(|&i| {
        by_first.get(tokens[i].text.as_str()).is_some_and(|markers| {
            markers
                .iter()
                .any(|m| tokens.len() >= i + m.len() && m.iter().zip(&tokens[i..]).all(|(w, t)| t.text == *w))
        })
    })?;
    let sentence = tokens[at].sentence;
    let mut end = at;
    while end < tokens.len() && tokens[end].sentence == sentence {
        end += 1;
    }
    if !tokens[at..end]
        .iter()
        .any(|t| t.is_routable() && !MAIN_MARKERS.iter().any(|m| m.contains(&t.text.as_str())))
    {
        while end < tokens.len() && tokens[end].sentence <= sentence + 1 {
            end += 1;
        }
    }
    Some(&tokens[at..end])
}

/// The parts of a question that may ask two things: its sentences, further split at
/// "and also", ", and", ", also" and "and" before a new question ("… and how do I …").
pub fn parts(tokens: &[Token]) -> Vec<&[Token]> {
    let mut cuts = vec![0];
    for i in 1..tokens.len() {
        let t = &tokens[i];
        let new_sentence = t.sentence != tokens[i - 1].sentence;
        let joiner = matches!(t.text.as_str(), "and" | "also" | "plus");
        let next = tokens.get(i + 1).map(|n| n.text.as_str()).unwrap_or("");
        let split_here = joiner
            && (t.after_pause
                || (t.text == "and" && (next == "also" || QUESTION_STARTS.contains(&next)))
                || (t.text == "also" && tokens[i - 1].text != "and"));
        if new_sentence || split_here {
            cuts.push(i);
        }
    }
    cuts.dedup();
    cuts.push(tokens.len());
    cuts.windows(2)
        .map(|w| &tokens[w[0]..w[1]])
        .filter(|p| p.iter().filter(|t| t.is_routable()).count() >= 2)
        .collect()
}

#[cfg(test)]
mod tests {
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
}
