//! Mock-mode answering: pick the enabled skill that best matches a question, then copy the
//! lines of its saved content that mention what was asked. Deterministic, no model.
//!
//! **Words.** Text is lowercased and split at anything that is not a letter or digit
//! (apostrophes join: "I'd" → "id", a stop word); English stop words and single letters are dropped and
//! a light stemmer folds plurals, "-ing" and "-ed" ("Mondays" → "monday", "printing" →
//! "print", "sided"/"side" → "sid"). Questions and skills go through the same steps.
//!
//! **Choosing the skill.** Each distinct question word scores the best place it appears in a
//! skill: name or tags 3, description 2, content 1 (numbers never score: "2 + 2" is not a
//! library question). The highest score wins; a tie at the top asks which skill is meant; no
//! score at all is [`Answer::NotCovered`]. A skill without content lines never takes part.
//!
//! **Choosing the lines.** The skill's *name* words are its topic: naming the topic ("library
//! hours") asks for all of it. Every other question word that occurs in the content is a
//! *selector* — tags included, since they name sub-topics ("renew" within "Borrowing and
//! renewals"). Without selectors every content line is returned. With selectors, a line is
//! returned when it contains one, unless another line contains all of its selectors plus one
//! at least as rare (in as few lines or fewer) as its own rarest: "double-sided" keeps the
//! double-sided price lines and drops the single-sided ones that share only the commoner
//! "sided"; "renew my loan" keeps both renewal lines, since "loan" (in half the lines) is too
//! common to push one out; "Monday and Tuesday" keeps both day lines. Question words the
//! content does not mention never make up an answer: the Library returns what it has saved
//! on the topic and leaves the rest unsaid.
//!
//! Lines are copied verbatim (trailing whitespace trimmed), in content order, without
//! duplicates. Nothing is computed or rephrased.

use std::collections::BTreeSet;

/// The start of the reply when no enabled skill covers a question.
pub const NOT_COVERED: &str = "Sorry, that isn't in the Library's saved information.";

const TOPIC_WEIGHT: u32 = 3;
const DESCRIPTION_WEIGHT: u32 = 2;
const CONTENT_WEIGHT: u32 = 1;

/// What [`answer`] reads of one enabled skill.
#[derive(Debug, Clone, Copy)]
pub struct SkillText<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub description: &'a str,
    pub tags: &'a [String],
    /// The saved answer content, one fact per line.
    pub content: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Lines copied verbatim from one skill's content (in content order, deduplicated).
    Lines { skill_id: String, lines: Vec<String> },
    /// Two or more skills match equally well: ask which one (server-written question naming
    /// the skills by name, in the order they were given).
    Which { skill_ids: Vec<String>, question: String },
    /// No enabled skill covers the question: fixed server reply.
    NotCovered,
}

/// Answers `question` from `skills`, the enabled skills only (the caller filters).
pub fn answer(question: &str, skills: &[SkillText<'_>]) -> Answer {
    let asked: BTreeSet<String> = words(question).into_iter().collect();
    if asked.is_empty() {
        return Answer::NotCovered;
    }
    let profiles: Vec<Profile<'_>> =
        skills.iter().map(Profile::new).filter(|p| !p.lines.is_empty()).collect();
    let scores: Vec<u32> = profiles.iter().map(|p| p.score(&asked)).collect();
    let best = scores.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Answer::NotCovered;
    }
    let tied: Vec<&Profile<'_>> =
        profiles.iter().zip(&scores).filter(|&(_, &s)| s == best).map(|(p, _)| p).collect();
    match tied.as_slice() {
        [winner] => Answer::Lines { skill_id: winner.skill.id.to_string(), lines: winner.select(&asked) },
        _ => Answer::Which {
            skill_ids: tied.iter().map(|p| p.skill.id.to_string()).collect(),
            question: format!("Do you mean {}?", either(tied.iter().map(|p| display_name(&p.skill)))),
        },
    }
}

/// The reply text: the lines joined with `"\n"`, the Which question, or [`NOT_COVERED`]
/// followed by what the Library can help with (`skills`: the same enabled skills).
pub fn render(answer: &Answer, skills: &[SkillText<'_>]) -> String {
    match answer {
        Answer::Lines { lines, .. } => lines.join("\n"),
        Answer::Which { question, .. } => question.clone(),
        Answer::NotCovered if skills.is_empty() => format!("{NOT_COVERED} No topics are enabled right now."),
        Answer::NotCovered => {
            let names: Vec<&str> = skills.iter().map(display_name).collect();
            format!("{NOT_COVERED} I can help with: {}.", names.join("; "))
        }
    }
}

fn display_name<'a>(skill: &SkillText<'a>) -> &'a str {
    match skill.name.trim() {
        "" => skill.id,
        name => name,
    }
}

/// "A or B", "A, B or C".
fn either<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// One skill, tokenized once.
struct Profile<'a> {
    skill: SkillText<'a>,
    /// Name words: the skill's whole topic; they never select lines.
    name: BTreeSet<String>,
    tags: BTreeSet<String>,
    description: BTreeSet<String>,
    /// Non-empty content lines (trailing whitespace trimmed) and their words.
    lines: Vec<(&'a str, BTreeSet<String>)>,
    content: BTreeSet<String>,
}

impl<'a> Profile<'a> {
    fn new(skill: &SkillText<'a>) -> Self {
        let lines: Vec<(&str, BTreeSet<String>)> = skill
            .content
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim_start().is_empty())
            .map(|l| (l, words(l).into_iter().collect()))
            .collect();
        Self {
            skill: *skill,
            name: words(skill.name).into_iter().collect(),
            tags: skill.tags.iter().flat_map(|t| words(t)).collect(),
            description: words(skill.description).into_iter().collect(),
            content: lines.iter().flat_map(|(_, w)| w.iter().cloned()).collect(),
            lines,
        }
    }

    fn score(&self, asked: &BTreeSet<String>) -> u32 {
        asked
            .iter()
            .filter(|w| !is_number(w))
            .map(|w| {
                if self.name.contains(w) || self.tags.contains(w) {
                    TOPIC_WEIGHT
                } else if self.description.contains(w) {
                    DESCRIPTION_WEIGHT
                } else if self.content.contains(w) {
                    CONTENT_WEIGHT
                } else {
                    0
                }
            })
            .sum()
    }

    fn select(&self, asked: &BTreeSet<String>) -> Vec<String> {
        let selectors: BTreeSet<&String> =
            asked.iter().filter(|w| self.content.contains(*w) && !self.name.contains(*w)).collect();
        let hits: Vec<BTreeSet<&String>> = self
            .lines
            .iter()
            .map(|(_, words)| words.iter().filter(|w| selectors.contains(w)).collect())
            .collect();
        // How many lines each selector occurs in: the fewer, the more specific.
        let lines_with = |w: &String| hits.iter().filter(|h| h.contains(w)).count();
        let rarest = |words: &mut dyn Iterator<Item = &&String>| words.map(|w| lines_with(w)).min();
        // A hit set is outranked by one that adds a word at least as specific as its own.
        let distinct: BTreeSet<&BTreeSet<&String>> = hits.iter().filter(|h| !h.is_empty()).collect();
        let outranked = |h: &BTreeSet<&String>| {
            distinct.iter().any(|o| {
                o.len() > h.len() && o.is_superset(h) && rarest(&mut o.difference(h)) <= rarest(&mut h.iter())
            })
        };
        let maximal: Vec<&BTreeSet<&String>> = distinct.iter().copied().filter(|h| !outranked(h)).collect();
        let mut seen = BTreeSet::new();
        self.lines
            .iter()
            .zip(&hits)
            .filter(|(_, h)| selectors.is_empty() || maximal.contains(h))
            .filter(|((line, _), _)| seen.insert(*line))
            .map(|((line, _), _)| line.to_string())
            .collect()
    }
}

/// Normalised words of `text`, in order: lowercased, stop words and single letters
/// dropped, stemmed.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut raw = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() {
            raw.extend(c.to_lowercase());
        } else if matches!(c, '\'' | '’') && !raw.is_empty() {
            // "I'd" → "id", "library's" → "librarys" (→ "library"): one word.
        } else if !raw.is_empty() {
            if let Some(word) = normalise(&raw) {
                out.push(word);
            }
            raw.clear();
        }
    }
    out
}

fn normalise(raw: &str) -> Option<String> {
    let single_letter = raw.chars().count() == 1 && !raw.chars().all(|c| c.is_ascii_digit());
    if single_letter || is_stop(raw) {
        return None;
    }
    let stem = stem(raw);
    (!is_stop(&stem)).then_some(stem)
}

fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit())
}

/// A naive English stemmer, good enough for matching a question against short facts.
/// Only plain ASCII words are touched.
fn stem(word: &str) -> String {
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

fn is_stop(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Sorted (checked by a test).
const STOP_WORDS: &[&str] = &[
    "about", "after", "again", "all", "also", "am", "an", "and", "any", "anyone", "are", "aren", "arent",
    "as", "at", "be", "been", "before", "but", "by", "can", "cant", "could", "couldnt", "did", "didnt", "do",
    "does", "doesnt", "doing", "done", "dont", "each", "for", "from", "get", "got", "had", "has", "have",
    "having", "he", "hello", "her", "here", "hey", "hi", "him", "his", "how", "hows", "id", "if", "im", "in",
    "into", "is", "isnt", "it", "its", "ive", "just", "know", "let", "lets", "like", "many", "may", "me",
    "might", "more", "most", "much", "must", "my", "need", "no", "not", "now", "of", "ok", "okay", "on",
    "or", "our", "please", "she", "should", "so", "some", "still", "such", "tell", "than", "thank", "thanks",
    "that", "thats", "the", "their", "them", "then", "there", "theres", "these", "they", "this", "those",
    "to", "too", "up", "us", "very", "want", "was", "we", "were", "what", "whats", "when", "whens", "where",
    "wheres", "which", "while", "who", "whos", "why", "will", "with", "wont", "would", "yes", "you", "youd",
    "your", "youre", "yours",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{DefaultSkill, default_skills};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn ask(question: &str) -> Answer {
        let skills = default_skills();
        let texts: Vec<SkillText<'_>> = skills.iter().map(DefaultSkill::text).collect();
        answer(question, &texts)
    }

    fn content_of(id: &str) -> Vec<String> {
        let skills = default_skills();
        let skill = skills.iter().find(|s| s.id == id).expect("fixture");
        skill.content.lines().map(str::to_string).collect()
    }

    fn lines_from(answer: Answer, id: &str) -> Vec<String> {
        match answer {
            Answer::Lines { skill_id, lines } if skill_id == id => lines,
            other => panic!("expected lines from {id}, got {other:?}"),
        }
    }

    fn owned(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn a_weekday_question_gets_only_that_line() {
        assert_eq!(lines_from(ask("hours on Mondays?"), "library-hours"), owned(&["Monday: 8:00–22:00"]));
        assert_eq!(
            lines_from(ask("When are you open on Saturday and Sunday?"), "library-hours"),
            owned(&["Saturday: 10:00–18:00", "Sunday: 12:00–18:00"])
        );
    }

    #[test]
    fn naming_the_topic_gets_all_of_it() {
        assert_eq!(
            lines_from(ask("What are the library hours?"), "library-hours"),
            content_of("library-hours")
        );
        // A detail the content does not mention is not made up: the topic is returned as saved.
        assert_eq!(
            lines_from(ask("library hours at Christmas?"), "library-hours"),
            content_of("library-hours")
        );
    }

    #[test]
    fn the_most_specific_lines_win() {
        assert_eq!(
            lines_from(ask("how much does double-sided printing cost"), "printing"),
            owned(&[
                "Black-and-white, double-sided: €0.15 per sheet",
                "Colour, double-sided: €0.80 per sheet"
            ])
        );
        assert_eq!(
            lines_from(ask("price of colour double sided copies?"), "printing"),
            owned(&["Colour, double-sided: €0.80 per sheet"])
        );
    }

    #[test]
    fn a_common_word_does_not_push_out_a_specific_line() {
        assert_eq!(
            lines_from(ask("renew my loan please"), "borrowing"),
            owned(&[
                "You can renew an item online in your library account up to 2 times, unless someone has placed a hold on it.",
                "A renewal starts a new loan period from the day you renew.",
            ])
        );
        assert_eq!(
            lines_from(ask("black and white double-sided copies"), "printing"),
            owned(&["Black-and-white, double-sided: €0.15 per sheet"])
        );
    }

    #[test]
    fn due_dates_are_never_worked_out() {
        let lines = lines_from(ask("when is my book due? I'd like to renew"), "borrowing");
        let content = content_of("borrowing");
        assert!(lines.iter().all(|l| content.contains(l)), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("You can renew")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("from the day you renew")), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("Overdue fines")), "{lines:?}");

        let lines = lines_from(ask("I borrowed a book on 3 March, when is it due?"), "borrowing");
        assert!(lines.iter().all(|l| content.contains(l) && !l.contains("March")), "{lines:?}");
    }

    #[test]
    fn transactions_are_never_claimed() {
        let content = content_of("borrowing");
        let lines = lines_from(ask("Please renew my book for me"), "borrowing");
        assert!(!lines.is_empty() && lines.iter().all(|l| content.contains(l)), "{lines:?}");
        let rooms = content_of("study-rooms");
        let lines = lines_from(ask("Book me a study room for tomorrow"), "study-rooms");
        assert!(lines.iter().all(|l| rooms.contains(l)), "{lines:?}");
        assert!(lines.iter().all(|l| l.to_lowercase().contains("book")), "{lines:?}");
    }

    #[test]
    fn a_tie_asks_which_one() {
        let answer = ask("printing hours?");
        let Answer::Which { skill_ids, question } = &answer else { panic!("{answer:?}") };
        assert_eq!(skill_ids, &["library-hours", "printing"]);
        assert_eq!(question, "Do you mean Library hours or Printing?");
        assert_eq!(render(&answer, &[]), *question);
    }

    #[test]
    fn unrelated_or_empty_questions_are_not_covered() {
        for q in ["fix my sink", "", "   \n\t ", "?!…", "what is it?", "what's 2 + 2?", "I'd like to"] {
            assert_eq!(ask(q), Answer::NotCovered, "{q:?}");
        }
        let skills = default_skills();
        let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
        let reply = render(&Answer::NotCovered, &texts);
        assert_eq!(
            reply,
            format!(
                "{NOT_COVERED} I can help with: Library hours; Borrowing and renewals; Study rooms; Printing; Finding and requesting items."
            )
        );
        assert!(render(&Answer::NotCovered, &[]).starts_with(NOT_COVERED));
        assert_eq!(answer("library hours", &[]), Answer::NotCovered);
    }

    #[test]
    fn a_skill_without_content_never_wins() {
        let tags = vec!["hours".to_string(), "monday".to_string()];
        let empty = |content| SkillText {
            id: "empty",
            name: "Library hours",
            description: "hours",
            tags: &tags,
            content,
        };
        for content in ["", " \n\t\n  ", "\r\n"] {
            assert_eq!(answer("library hours on monday", &[empty(content)]), Answer::NotCovered);
            let skills = default_skills();
            let mut texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
            texts.insert(0, empty(content));
            let lines = lines_from(answer("library hours on monday", &texts), "library-hours");
            assert_eq!(lines, owned(&["Monday: 8:00–22:00"]));
        }
    }

    #[test]
    fn lines_are_trimmed_deduplicated_and_in_order() {
        let tags = vec!["hours".to_string()];
        let skill = SkillText {
            id: "h",
            name: "Hours",
            description: "",
            tags: &tags,
            content: "  Sunday: closed   \r\nMonday: 9–17\r\n\r\n  Sunday: closed\nMonday: 9–17",
        };
        assert_eq!(
            answer("hours on sunday or monday", &[skill]),
            Answer::Lines { skill_id: "h".into(), lines: owned(&["  Sunday: closed", "Monday: 9–17"]) }
        );
        assert_eq!(render(&answer("hours", &[skill]), &[skill]), "  Sunday: closed\nMonday: 9–17");
    }

    #[test]
    fn unicode_and_typos_do_not_panic() {
        for q in [
            "Ünïcödé 🙂 hóurs on Möndays??",
            "librray hourz mondy",
            "İSTANBUL ΣΊΣΥΦΟΣ ß ﬁ",
            "\u{0}\u{202e}\u{feff}'’''",
            "本は何時まで借りられますか",
            "a'b'c''d",
            "'s 's",
        ] {
            let _ = ask(q);
        }
        assert_eq!(lines_from(ask("HOURS ON MONDAYS!!!"), "library-hours"), owned(&["Monday: 8:00–22:00"]));
    }

    #[test]
    fn words_are_normalised() {
        assert_eq!(words("What are the library's hours on Mondays?"), ["library", "hour", "monday"]);
        assert_eq!(words("I'd like to renew"), ["renew"]);
        assert_eq!(
            words("Double-sided printing, 8:00–22:00"),
            ["doubl", "sid", "print", "8", "00", "22", "00"]
        );
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
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    /// A seeded generator (reproducible runs) drawing text from pieces.
    struct Rng(StdRng);

    impl Rng {
        fn text(&mut self, pieces: &[&str], max: usize) -> String {
            let n = self.0.random_range(0..max);
            (0..n).map(|_| pieces[self.0.random_range(0..pieces.len())]).collect()
        }
    }

    const PIECES: &[&str] = &[
        "hours", "Monday", "mondays", "library", "print", "double", "-", "sided", "renew", "book", "due",
        "study", "room", "colour", "fines", "2", "8:00", " ", " ", " ", "\n", "\r\n", "\t", "?", "!", "'",
        "’", "–", "é", "İ", "ß", "🙂", "本", "\u{0}", "\u{301}", "ing", "ed", "s", "ies", "the", "on", "a",
        "x",
    ];

    fn check(question: &str, skills: &[SkillText<'_>]) {
        let answer = answer(question, skills);
        assert!(!render(&answer, skills).is_empty(), "{question:?}");
        match answer {
            Answer::NotCovered => {}
            Answer::Lines { skill_id, lines } => {
                let skill = skills.iter().find(|s| s.id == skill_id).expect("a given skill");
                let content: Vec<&str> = skill.content.lines().map(str::trim_end).collect();
                assert!(!lines.is_empty(), "{question:?}");
                for line in &lines {
                    assert!(
                        content.contains(&line.as_str()) && !line.trim().is_empty(),
                        "{question:?}: {line:?}"
                    );
                }
                let distinct: BTreeSet<&String> = lines.iter().collect();
                assert_eq!(distinct.len(), lines.len(), "{question:?}");
            }
            Answer::Which { skill_ids, question: which } => {
                assert!(skill_ids.len() >= 2, "{question:?}");
                assert!(skill_ids.iter().all(|id| skills.iter().any(|s| s.id == id)), "{question:?}");
                assert!(which.starts_with("Do you mean ") && which.ends_with('?'), "{which:?}");
            }
        }
    }

    #[test]
    fn random_questions_never_panic_and_lines_are_verbatim() {
        let mut rng = Rng(StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15));
        let skills = default_skills();
        let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
        for _ in 0..3_000 {
            let question = rng.text(PIECES, 12);
            check(&question, &texts);
        }
        // Random skills too, including empty names and contents.
        for _ in 0..1_000 {
            let tags: Vec<Vec<String>> =
                (0..3).map(|_| vec![rng.text(PIECES, 3), rng.text(PIECES, 2)]).collect();
            let fields: Vec<[String; 3]> =
                (0..3).map(|_| [rng.text(PIECES, 3), rng.text(PIECES, 6), rng.text(PIECES, 40)]).collect();
            let ids = ["r0", "r1", "r2"];
            let random: Vec<SkillText<'_>> = (0..3)
                .map(|i| SkillText {
                    id: ids[i],
                    name: &fields[i][0],
                    description: &fields[i][1],
                    tags: &tags[i],
                    content: &fields[i][2],
                })
                .collect();
            let question = rng.text(PIECES, 10);
            check(&question, &random);
        }
    }
}
