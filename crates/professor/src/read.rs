//! Reading a question for the offline Professor: which topics of the pack it names (in
//! five languages, with a typo forgiven in a long word), which facts about the course it
//! asks for, which posted lesson it is about, and whether it only asks for another example.

use crate::pack::{COURSE, CourseFact, Lesson, TOPICS, Topic};

/// What a question asks of the pack.
#[derive(Debug, Default)]
pub struct Reading {
    /// The topics it names, in the order the question names them.
    pub topics: Vec<&'static Topic>,
    /// The course facts it asks for, in the pack's order.
    pub facts: Vec<&'static CourseFact>,
    /// The index of the lesson it is about, among the lessons given.
    pub lesson: Option<usize>,
    /// It says "lesson" without saying which.
    pub some_lesson: bool,
    /// It asks for another (or a different) example.
    pub another: bool,
}

/// Words that say "lesson" in the five languages.
const LESSON_WORDS: [&str; 8] =
    ["lesson", "lessons", "leccion", "lecciones", "lecon", "lecons", "lektion", "sabak"];

/// Words that make a weak course word ("quiz", "project") a question about the course.
const LOGISTICS: [&str; 22] = [
    "when",
    "due",
    "how many",
    "how long",
    "format",
    "open-book",
    "open book",
    "worth",
    "count",
    "cuando",
    "cuantos",
    "cuantas",
    "wann",
    "wie viele",
    "wie lange",
    "quand",
    "combien",
    "kab",
    "kitne",
    "kitni",
    "deadline",
    "submit",
];

/// "another example", "a different example", "otro ejemplo", "noch ein Beispiel", "un
/// autre exemple", "ek aur example".
const ANOTHER: [&str; 12] = [
    "another example",
    "another one",
    "different example",
    "other example",
    "one more example",
    "otro ejemplo",
    "otro mas",
    "noch ein beispiel",
    "anderes beispiel",
    "autre exemple",
    "aur example",
    "ek aur",
];

/// Words too common to name a lesson by its title.
const STOP: [&str; 16] = [
    "the", "a", "an", "of", "on", "in", "to", "what", "is", "and", "for", "about", "one", "my", "your",
    "this",
];

/// `text` as folded words: lower case, accents off, split at anything that is not a
/// letter, a digit or an inner dot (`9.99`).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
        .map(forms::read::fold)
        .collect()
}

/// Whether `word` is `want`, or (a long word) `want` with one slip: a letter missing,
/// added, changed or two swapped (`segmentaion`, `marketting`).
fn same_word(word: &str, want: &str) -> bool {
    if word == want {
        return true;
    }
    let long = want.chars().count() >= 7 && word.chars().count() >= 7;
    long && strsim::damerau_levenshtein(word, want) <= 1
}

/// Where the words of `phrase` first appear in `words`, one after another.
fn find(words: &[String], phrase: &str) -> Option<usize> {
    let want = self::words(phrase);
    if want.is_empty() || want.len() > words.len() {
        return None;
    }
    (0..=words.len() - want.len()).find(|&i| want.iter().zip(&words[i..]).all(|(w, q)| same_word(q, w)))
}

fn has(words: &[String], phrase: &str) -> bool {
    find(words, phrase).is_some()
}

/// The first place `topic` is named in `words`.
fn named_at(words: &[String], topic: &Topic) -> Option<usize> {
    topic.names.iter().filter_map(|n| find(words, n)).min()
}

/// Reads `question` against the pack and the lessons posted so far.
pub fn read(question: &str, lessons: &[Lesson]) -> Reading {
    let words = words(question);
    let mut found: Vec<(usize, &'static Topic)> =
        TOPICS.iter().filter_map(|t| named_at(&words, t).map(|at| (at, t))).collect();
    found.sort_by_key(|(at, _)| *at);
    let topics: Vec<&'static Topic> = found.into_iter().map(|(_, t)| t).collect();
    let logistics = LOGISTICS.iter().any(|w| has(&words, w));
    // a weak word ("homework") asks only when nothing else does ("a late penalty on the
    // homework" asks about late work)
    let mut facts: Vec<&'static CourseFact> =
        COURSE.iter().filter(|f| f.asks.iter().any(|a| has(&words, a))).collect();
    if facts.is_empty() && logistics && topics.is_empty() {
        facts = COURSE.iter().filter(|f| f.weak.iter().any(|a| has(&words, a))).collect();
    }
    let some_lesson = LESSON_WORDS.iter().any(|w| words.iter().any(|q| q == w));
    let lesson = lesson_named(&words, lessons, some_lesson, &topics);
    let another = ANOTHER.iter().any(|p| has(&words, p));
    Reading { topics, facts, lesson, some_lesson, another }
}

/// The lesson `words` name: by most of its title's words, or as "the lesson" on its topic
/// when only one posted lesson has that topic.
fn lesson_named(words: &[String], lessons: &[Lesson], some_lesson: bool, topics: &[&Topic]) -> Option<usize> {
    let by_title = lessons.iter().enumerate().filter_map(|(i, l)| {
        let title: Vec<String> =
            self::words(&l.title).into_iter().filter(|w| !STOP.contains(&w.as_str())).collect();
        let hits = title.iter().filter(|t| words.iter().any(|q| same_word(q, t))).count();
        (!title.is_empty() && hits * 3 >= title.len() * 2 && hits >= title.len().min(2)).then_some((hits, i))
    });
    if let Some((_, i)) = by_title.max_by_key(|(hits, _)| *hits) {
        return Some(i);
    }
    if !some_lesson {
        return None;
    }
    let on_topic: Vec<usize> = lessons
        .iter()
        .enumerate()
        .filter(|(_, l)| l.topic.as_deref().is_some_and(|t| topics.iter().any(|n| n.id == t)))
        .map(|(i, _)| i)
        .collect();
    (on_topic.len() == 1).then(|| on_topic[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::seeded_lessons;

    fn topics(q: &str) -> Vec<&'static str> {
        read(q, &seeded_lessons()).topics.iter().map(|t| t.id).collect()
    }

    fn facts(q: &str) -> Vec<&'static str> {
        read(q, &seeded_lessons()).facts.iter().map(|f| f.id).collect()
    }

    #[test]
    fn topics_are_found_in_five_languages_and_with_a_slip() {
        assert_eq!(
            topics("In marketing, what is the difference between segmentation and targeting?"),
            ["segmentation", "targeting"]
        );
        assert_eq!(topics("what are the 4 Ps of marketing"), ["marketing-mix"]);
        assert_eq!(topics("marketting mix explaned simply pls"), ["marketing-mix"]);
        assert_eq!(topics("segmentaion vs positoning?"), ["segmentation", "positioning"]);
        assert_eq!(topics("¿Qué es la segmentación de mercado?"), ["segmentation"]);
        assert_eq!(topics("Was ist Marktforschung?"), ["market-research"]);
        assert_eq!(topics("c'est quoi le positionnement ?"), ["positioning"]);
        assert_eq!(topics("brand loyalty kya hota hai, ek example do please"), ["branding"]);
        assert_eq!(
            topics("penetration pricing vs price skimming, which fits a new energy drink"),
            ["pricing"]
        );
        assert_eq!(topics("what does consumer behaviour actually cover"), ["consumer-behaviour"]);
        assert!(topics("how do I factor x^2 + 5x + 6").is_empty());
        assert!(topics("help with the SWOT part of my marketing assigment").is_empty());
    }

    #[test]
    fn course_facts_are_asked_for_and_weak_words_need_a_question_about_the_course() {
        assert_eq!(facts("what are the office hours for marketing 101?"), ["office-hours"]);
        assert_eq!(
            facts("Is there a late penalty if I submit the Marketing 101 homework a day after the deadline?"),
            ["late-work"]
        );
        assert_eq!(facts("how is marketing 101 graded?"), ["grading"]);
        assert_eq!(facts("when's the marketing 101 case study due"), ["case-study"]);
        assert_eq!(facts("how many quizzes are there"), ["quizzes"]);
        assert!(facts("I have a quiz on branding, what is brand equity?").is_empty());
        assert!(facts("my marketing prof wants a customer persona, what goes in one").is_empty());
        assert_eq!(facts("Wann ist die Sprechstunde?"), ["office-hours"]);
    }

    #[test]
    fn a_lesson_is_named_by_its_title_or_as_the_lesson_on_its_topic() {
        let lessons = seeded_lessons();
        let lesson = |q: &str| read(q, &lessons).lesson.map(|i| lessons[i].id.as_str());
        assert_eq!(
            lesson("what was the one product, different needs lesson about?"),
            Some("lesson-one-product")
        );
        assert_eq!(lesson("can you explain the lesson on positioning maps"), Some("lesson-positioning-map"));
        assert_eq!(lesson("I didn't get 'what a price says'"), Some("lesson-price-says"));
        assert_eq!(lesson("what is positioning?"), None, "a topic is not its lesson");
        assert_eq!(lesson("I didn't understand the lesson"), None);
        assert!(read("I didn't understand the lesson", &lessons).some_lesson);
    }

    #[test]
    fn another_example_is_read() {
        assert!(read("can I have another example?", &[]).another);
        assert!(read("otro ejemplo por favor", &[]).another);
        assert!(read("noch ein Beispiel bitte", &[]).another);
        assert!(!read("give me an example of branding", &[]).another);
    }
}
