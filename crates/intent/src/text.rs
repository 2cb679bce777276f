//! Reading a question: folding, tokens, negated spans, sentences, the marked main request
//! and the parts of a two-topic question. Word lists cover English and the languages
//! students mix with it here (Spanish, Hindi, Tagalog, Vietnamese, in Latin letters);
//! the two long lists, function words and vague words, are in `words.rs`.

use crate::words::{
    self, CONTRAST, FRENCH_ARTICLES, FRENCH_ONLY, FRENCH_TOO, NEGATOR_PAIRS, NEGATORS, PRONOUNS,
    QUESTION_STARTS,
};

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
    read_as_french(&mut out);
    join_library_phrases(&mut out);
    mark_negation(&mut out);
    out
}

/// In a French question ("comment je paie mes impressions ?", "payer l'impression"), the
/// words that are English words too ("impression") read as their French meaning.
fn read_as_french(tokens: &mut [Token]) {
    let french = tokens.iter().any(|t| FRENCH_ONLY.contains(&t.text.as_str()));
    for i in 0..tokens.len() {
        let after_article = i > 0 && FRENCH_ARTICLES.contains(&tokens[i - 1].text.as_str());
        let t = &tokens[i];
        if let Some((_, english)) = FRENCH_TOO.iter().find(|(fr, _)| t.text == *fr)
            && (french || after_article)
        {
            tokens[i] = Token::new(english.to_string(), Kind::Word, t.sentence, t.after_pause);
        }
    }
}

/// Two words that are one library word: "check out" (and "checked out", "checking out")
/// is `checkout`, borrowing ("can I check out a camera?"; "check" alone looks at
/// something), and another library or campus is `interlibrary` ("a book from another
/// campus", "other libraries").
fn join_library_phrases(tokens: &mut Vec<Token>) {
    let mut i = 0;
    while i + 1 < tokens.len() {
        let (first, second) = (tokens[i].text.as_str(), tokens[i + 1].text.as_str());
        let check = matches!(first, "check" | "checks" | "checked" | "checking") && second == "out";
        let elsewhere = matches!(first, "another" | "other" | "different")
            && matches!(second, "library" | "libraries" | "campus" | "campuses");
        let off = first == "off" && matches!(second, "campus" | "site");
        let one = match () {
            _ if check => Some("checkout"),
            _ if elsewhere => Some("interlibrary"),
            _ if off => Some("offcampus"),
            _ => None,
        };
        if let Some(word) = one.filter(|_| tokens[i + 1].sentence == tokens[i].sentence) {
            tokens[i] = Token::new(word.into(), Kind::Word, tokens[i].sentence, tokens[i].after_pause);
            tokens.remove(i + 1);
        }
        i += 1;
    }
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
mod tests;
