//! Small talk: a message that is only a greeting, thanks or a goodbye gets a short
//! courteous reply in the Hub's own words, never a clarifying question, whatever the
//! router proposed ("thanks tutor" names a service and asks it nothing). Only such a
//! message: "thanks, and what is the derivative of x^2?" is still a question.
//!
//! A message is small talk when every word in it is a courtesy word or a filler ("so
//! much", "a lot", "again") and at least one is a courtesy word. English, Spanish,
//! French, German and Hindi/Hinglish are read.

use vocab::events::Courtesy;

/// Greetings, by words (each entry's words all present, in any order).
const GREETING: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hiya",
    "howdy",
    "yo",
    "greetings",
    "good morning",
    "good afternoon",
    "good evening",
    "morning",
    "hola",
    "buenos dias",
    "buenos días",
    "buenas tardes",
    "buenas",
    "bonjour",
    "salut",
    "bonsoir",
    "hallo",
    "guten tag",
    "guten morgen",
    "moin",
    "servus",
    "namaste",
    "namaskar",
    "namaskaar",
    "नमस्ते",
    "नमस्कार",
    "guten abend",
    "bonne journée",
    "bonne journee",
    // how are you, in each language read
    "how are you",
    "how are u",
    "how r u",
    "hows it going",
    "how is it going",
    "whats up",
    "qué tal",
    "que tal",
    "cómo estás",
    "como estas",
    "ça va",
    "ca va",
    "wie geht",
    "wie gehts",
    "wie geht es dir",
    "kaise ho",
    "kaise hain",
    "kaise hai",
    "kya haal hai",
    "kya hal hai",
];
/// Thanks.
const THANKS: &[&str] = &[
    "thanks",
    "thank",
    "thx",
    "thanx",
    "ty",
    "tysm",
    "cheers",
    "appreciated",
    "appreciate",
    "gracias",
    "merci",
    "danke",
    "dankeschön",
    "dankeschon",
    "vielen dank",
    "shukriya",
    "shukria",
    "dhanyavaad",
    "dhanyavad",
    "dhanyawad",
    "धन्यवाद",
    "शुक्रिया",
    "thankyou",
    "thanku",
    "thnx",
    "thnks",
    "tq",
];
/// Goodbyes.
const GOODBYE: &[&str] = &[
    "bye",
    "goodbye",
    "byebye",
    "cya",
    "see you",
    "see ya",
    "later",
    "good night",
    "goodnight",
    "adios",
    "adiós",
    "hasta luego",
    "chao",
    "ciao",
    "au revoir",
    "tschüss",
    "tschuss",
    "tschüs",
    "auf wiedersehen",
    "alvida",
    "अलविदा",
    "phir milenge",
    "take care",
    "hasta pronto",
    "hasta mañana",
    "hasta manana",
    "nos vemos",
    "à bientôt",
    "a bientot",
    "à plus",
    "bis bald",
    "bis später",
    "bis spater",
    "bis dann",
    "bis morgen",
    "see you tomorrow",
    "see you soon",
    "à demain",
    "a demain",
    "kal milte hain",
    "phir milte hain",
];
/// An acknowledgement ("ok cool", "got it"): answered as thanks are (it asks nothing),
/// when no other courtesy word is there ("ok bye" is a goodbye, "ok hi" a greeting).
const ACKNOWLEDGE: &[&str] = &["ok", "okay", "k", "cool", "got it", "alright", "understood", "noted"];
/// Words that may stand around a courtesy word without making the message a question:
/// what thanks are for ("the help", "your answer", "that helped"), how much, to whom, in
/// each language read ("gracias por la ayuda", "merci pour ton aide", "danke für die
/// Hilfe", "madad ke liye shukriya"). English, then Spanish, French, German and
/// Hindi/Hinglish; the longer words are in [`FILLER_LONG`].
const FILLER: &[&str] = &[
    "so", "much", "very", "a", "lot", "lots", "loads", "you", "u", "ya", "for", "the", "help", "your", "all",
    "ok", "okay", "great", "cool", "nice", "perfect", "awesome", "again", "there", "everyone", "and",
    "really", "that", "this", "s", "it", "now", "then", "oh", "ah", "well", "got", "super", "tutor", "hub",
    "campus", "bot", "mate", "buddy", "library", "to", "thats", "was", "helpful", "good", "helped", "helps",
    "me", "answer", "answers", "info", "kind", "of", "guys", "man", "amazing", "many", "in", "advance",
    "anyway", "anyways", "have", "day", "one", "makes", "sense", "i", "see", "alright", "right", "yes",
    "yeah", "yep", "muchas", "mucho", "mil", "por", "la", "el", "tu", "su", "ayuda", "todo", "de", "nuevo",
    "ayudó", "ayudo", "sirvió", "sirvio", "amigo", "vale", "genial", "perfecto", "y", "eso", "buen", "día",
    "dia", "beaucoup", "bien", "tout", "le", "monde", "pour", "ton", "ta", "votre", "aide", "mille", "ça",
    "ca", "m", "aidé", "aidée", "réponse", "reponse", "parfait", "génial", "d", "accord", "encore",
    "vraiment", "très", "tres", "et", "sehr", "schön", "schon", "gut", "für", "fur", "fuer", "die", "deine",
    "ihre", "eure", "hilfe", "alles", "lieben", "vielen", "das", "hat", "geholfen", "mir", "antwort", "toll",
    "perfekt", "prima", "nochmal", "mal", "und", "ja", "einen", "schönen", "schonen", "tag", "bahut",
    "bohot", "bohut", "ji", "aapka", "apka", "aapki", "apki", "tumhara", "madad", "ke", "liye", "ki", "dil",
    "se", "sab", "kuch", "accha", "acha", "achha", "theek", "thik", "hai", "bhai", "yaar", "aap", "के",
];
/// The longer words of [`FILLER`] (apart, so that rustfmt keeps that list compact).
const FILLER_LONG: &[&str] = &[
    "explanation",
    "information",
    "muchísimas",
    "explicación",
    "explicacion",
    "explication",
    "बहुत",
    "आपका",
    "fantastic",
    "brilliant",
    "excellent",
    "understood",
    "muchisimas",
    "respuesta",
    "infiniment",
    "erklärung",
    "erklarung",
    "मदद",
    "लिए",
];

/// Whether `text` is only small talk, and which.
pub(crate) fn read(text: &str) -> Option<Courtesy> {
    let words = lower_words(text);
    if words.is_empty() || words.len() > 12 {
        return None;
    }
    let mut covered = vec![false; words.len()];
    let mut found = None;
    // goodbyes before greetings: "good night" is not "good morning"'s "good"
    for (kind, phrases) in [
        (Courtesy::Goodbye, GOODBYE),
        (Courtesy::Thanks, THANKS),
        (Courtesy::Greeting, GREETING),
        (Courtesy::Thanks, ACKNOWLEDGE),
    ] {
        if mark(&words, phrases, &mut covered) && found.is_none() {
            found = Some(kind);
        }
    }
    let found = found?;
    mark(&words, FILLER, &mut covered);
    mark(&words, FILLER_LONG, &mut covered);
    covered.iter().all(|c| *c).then_some(found)
}

/// A message's words, lowercased, split at everything that is not a letter or digit.
pub(crate) fn lower_words(text: &str) -> Vec<String> {
    // a Devanagari word's vowel signs and virama are part of it ("धन्यवाद")
    let in_word = |c: char| c.is_alphanumeric() || ('\u{0900}'..='\u{097F}').contains(&c);
    text.split(|c: char| !in_word(c)).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// How many words `phrase` (words separated by single spaces) spans when `words` spell it
/// from `at`.
pub(crate) fn phrase_at(words: &[String], at: usize, phrase: &str) -> Option<usize> {
    let parts: Vec<&str> = phrase.split(' ').collect();
    let run = words.get(at..at + parts.len())?;
    run.iter().zip(&parts).all(|(w, p)| w == p).then_some(parts.len())
}

/// Marks every run of `words` that spells one of `phrases`; whether any did.
fn mark(words: &[String], phrases: &[&str], covered: &mut [bool]) -> bool {
    let mut any = false;
    for phrase in phrases {
        for start in 0..words.len() {
            if let Some(n) = phrase_at(words, start, phrase)
                && !covered[start..start + n].iter().all(|c| *c)
            {
                covered[start..start + n].iter_mut().for_each(|c| *c = true);
                any = true;
            }
        }
    }
    any
}

/// The Hub's reply to `kind`, naming `names`, what is offered right now.
pub(crate) fn reply(kind: Courtesy, names: &[String]) -> String {
    let offered = match names {
        [] => String::new(),
        [one] => format!(" I can help with {one}."),
        [.., last] => format!(" I can help with {} and {last}.", names[..names.len() - 1].join(", ")),
    };
    match kind {
        Courtesy::Greeting if names.is_empty() => {
            "Hello! No service is available right now, so please try again shortly.".into()
        }
        Courtesy::Greeting => format!("Hello!{offered} What would you like to ask?"),
        Courtesy::Thanks => "You're welcome! Ask me anything else whenever you like.".into(),
        Courtesy::Goodbye => "Goodbye, and good luck with your studies!".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_talk_is_told_from_questions() {
        for (text, kind) in [
            ("thanks!", Courtesy::Thanks),
            ("Thank you so much", Courtesy::Thanks),
            ("ok thanks, that was helpful", Courtesy::Thanks),
            ("gracias", Courtesy::Thanks),
            ("merci beaucoup", Courtesy::Thanks),
            ("Danke schön", Courtesy::Thanks),
            ("bahut shukriya", Courtesy::Thanks),
            ("hi", Courtesy::Greeting),
            ("Hello there!", Courtesy::Greeting),
            ("good morning", Courtesy::Greeting),
            ("hola", Courtesy::Greeting),
            ("¡Buenos días!", Courtesy::Greeting),
            ("namaste ji", Courtesy::Greeting),
            ("kaise ho", Courtesy::Greeting),
            ("hey, how are you?", Courtesy::Greeting),
            ("¿qué tal?", Courtesy::Greeting),
            ("ok cool", Courtesy::Thanks),
            ("got it, great", Courtesy::Thanks),
            ("ok bye", Courtesy::Goodbye),
            ("bye", Courtesy::Goodbye),
            ("good night", Courtesy::Goodbye),
            ("thanks, bye!", Courtesy::Goodbye),
            ("tschüss", Courtesy::Goodbye),
            ("see you later", Courtesy::Goodbye),
            // thanks with what they are for, in each language
            ("thanks, that helped", Courtesy::Thanks),
            ("thank you so much!", Courtesy::Thanks),
            ("thanks a lot for your help", Courtesy::Thanks),
            ("ok thank you, that makes sense", Courtesy::Thanks),
            ("gracias por la ayuda", Courtesy::Thanks),
            ("muchas gracias por tu explicación", Courtesy::Thanks),
            ("merci pour ton aide", Courtesy::Thanks),
            ("merci beaucoup pour votre réponse", Courtesy::Thanks),
            ("danke für die Hilfe", Courtesy::Thanks),
            ("vielen Dank, das hat mir geholfen", Courtesy::Thanks),
            ("madad ke liye shukriya", Courtesy::Thanks),
            ("bahut bahut dhanyavaad ji", Courtesy::Thanks),
            ("धन्यवाद", Courtesy::Thanks),
            ("नमस्ते", Courtesy::Greeting),
            ("guten Abend", Courtesy::Greeting),
            ("bis bald!", Courtesy::Goodbye),
            ("merci, à bientôt", Courtesy::Goodbye),
            ("ok thanks, take care", Courtesy::Goodbye),
            ("thanks, see you tomorrow!", Courtesy::Goodbye),
            ("merci, à demain", Courtesy::Goodbye),
            ("danke, bis morgen", Courtesy::Goodbye),
            ("shukriya, kal milte hain", Courtesy::Goodbye),
            // naming the service thanked
            ("thanks tutor", Courtesy::Thanks),
            ("thank you library!", Courtesy::Thanks),
            ("good morning tutor", Courtesy::Greeting),
        ] {
            assert_eq!(read(text), Some(kind), "{text}");
        }
        for text in [
            "thanks, what is the derivative of x^2?",
            "hi, when is the library open?",
            "hello can you fix my sink",
            "",
            "?!",
            "good",
            "another example please",
            "thanksgiving hours",
            // thanks that also ask something are questions
            "thanks, and what is a derivative?",
            "thanks! and when does the library close?",
            "gracias, ¿y la regla de la cadena?",
            "merci, et la dérivée de x^2 ?",
            "danke, und noch ein Beispiel",
            "thanks, is scanning free?",
            "help",
            "gracias por la ayuda con la integral de x^2",
            // an acknowledgement or how-are-you that also asks is a question
            "ok, and another example",
            "ok cool, what about x^3?",
            "how are you open on sunday",
            "kaise ho, library kab khulti hai",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    #[test]
    fn a_greeting_names_what_is_offered_and_thanks_ask_nothing() {
        let names = ["Tutoring".to_string(), "Library".to_string()];
        assert_eq!(
            reply(Courtesy::Greeting, &names),
            "Hello! I can help with Tutoring and Library. What would you like to ask?"
        );
        assert!(reply(Courtesy::Greeting, &[]).contains("No service is available right now"));
        for kind in [Courtesy::Thanks, Courtesy::Goodbye] {
            let said = reply(kind, &names);
            assert!(!said.contains("say a little more") && !said.contains('?'), "{said}");
        }
    }
}
