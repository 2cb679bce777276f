//! The offline Professor (`PROFESSOR_MODE=mock`, the default): labelled extraction from the
//! course pack and the lesson asked about. It copies the pack's own sentences and writes
//! nothing else but their headings; a question the pack does not answer gets
//! [`NOT_IN_PACK`], never the nearest topic.

use std::sync::Mutex;

use bounded::BoundedMap;

use crate::pack::{COURSE_NAME, Lesson, PROFESSOR_NAME, STP, Topic};
use crate::read::{Reading, read};

/// Every offline answer starts with this.
pub const LABEL: &str = "Offline Professor (no model), from the Marketing 101 course pack:";
/// Said when the pack has no answer.
pub const NOT_IN_PACK: &str = "That isn't in the Marketing 101 course pack. I can explain the marketing mix (the 4 Ps), \
segmentation, targeting, positioning, branding, pricing, market research and consumer behaviour, or answer about the \
course itself: its syllabus, office hours, grading, late work, quizzes and the case study. For anything else, send the \
professor a message.";
/// The topics an answer explains at most (the rest are named).
pub const MAX_TOPICS: usize = 3;
/// Conversations whose last topics are kept, for "another example".
pub const CONVERSATIONS: usize = 4_096;

/// An offline answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    /// `answered`, `asked_which` or `not_covered`.
    pub outcome: &'static str,
    /// The lesson it answered about.
    pub lesson: Option<String>,
}

/// What the skills allow now: which of the three skills are enabled.
#[derive(Debug, Clone, Copy)]
pub struct Enabled {
    /// [`crate::TOPICS_SKILL`]: the concepts but the mix, and the lessons.
    pub topics: bool,
    /// [`crate::MIX_SKILL`]: the marketing mix and pricing.
    pub mix: bool,
    /// [`crate::COURSE_SKILL`]: the facts about the course.
    pub course: bool,
}

impl Enabled {
    /// Whether the skill that explains `topic` is enabled.
    pub fn explains(&self, topic: &Topic) -> bool {
        if topic.skill == crate::MIX_SKILL { self.mix } else { self.topics }
    }
}

/// The offline Professor: the pack, and each conversation's last topics.
pub struct MockProfessor {
    last: Mutex<BoundedMap<String, Vec<&'static str>>>,
}

impl Default for MockProfessor {
    fn default() -> Self {
        MockProfessor { last: Mutex::new(BoundedMap::new(CONVERSATIONS)) }
    }
}

impl MockProfessor {
    /// Answers `question` in `context` from the pack and `lessons` (the lesson a follow-up
    /// is about first, when `about` names one of them).
    pub fn answer(
        &self,
        context: &str,
        question: &str,
        lessons: &[Lesson],
        about: Option<&str>,
        enabled: Enabled,
    ) -> Answer {
        let mut reading = read(question, lessons);
        if let Some(id) = about
            && reading.lesson.is_none()
            && reading.topics.is_empty()
            && reading.facts.is_empty()
        {
            reading.lesson = lessons.iter().position(|l| l.id == id);
        }
        reading.topics.retain(|t| enabled.explains(t));
        if !enabled.topics {
            reading.lesson = None;
            reading.some_lesson = false;
            reading.another = false;
        }
        if !enabled.course {
            reading.facts.clear();
        }
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if reading.another && reading.topics.is_empty() && reading.lesson.is_none() {
            let before: Vec<&'static str> = last.get(&context.to_string()).cloned().unwrap_or_default();
            reading.topics = crate::pack::TOPICS
                .iter()
                .filter(|t| before.contains(&t.id) && enabled.explains(t))
                .collect();
        }
        let answer = compose(&reading, lessons);
        if !reading.topics.is_empty() {
            last.insert(context.to_string(), reading.topics.iter().map(|t| t.id).collect());
        }
        answer
    }
}

/// The answer a reading gets.
fn compose(reading: &Reading, lessons: &[Lesson]) -> Answer {
    let mut parts: Vec<String> = Vec::new();
    let mut lesson_id = None;
    let mut topics: Vec<&Topic> = reading.topics.clone();
    if let Some(l) = reading.lesson.and_then(|i| lessons.get(i)) {
        parts.push(format!("From the lesson “{}” ({COURSE_NAME}, {PROFESSOR_NAME}):\n{}", l.title, l.text));
        lesson_id = Some(l.id.clone());
        // the lesson's own topic is explained after it, unless the question named others
        if topics.is_empty()
            && let Some(t) = l.topic.as_deref().and_then(|id| crate::pack::TOPICS.iter().find(|t| t.id == id))
        {
            topics.push(t);
        }
    } else if reading.some_lesson && topics.is_empty() && reading.facts.is_empty() {
        let titles: Vec<String> = lessons.iter().map(|l| format!("“{}”", l.title)).collect();
        let text = if titles.is_empty() {
            "No lesson has been posted yet.".to_string()
        } else {
            format!("Which lesson do you mean? The lessons posted so far: {}.", titles.join(", "))
        };
        return Answer { text: format!("{LABEL}\n\n{text}"), outcome: "asked_which", lesson: None };
    }
    let more = topics.len().saturating_sub(MAX_TOPICS);
    for t in topics.iter().take(MAX_TOPICS) {
        let example = if reading.another {
            format!("The course pack has one example of this; here it is again: {}", t.example)
        } else {
            t.example.to_string()
        };
        parts.push(format!("{}: {}\nExample: {example}", t.name, t.explanation));
    }
    if more > 0 {
        let named: Vec<&str> = topics[MAX_TOPICS..].iter().map(|t| t.name).collect();
        parts.push(format!("Ask about {} on its own for more.", named.join(", ")));
    }
    let stp = topics.iter().filter(|t| ["segmentation", "targeting", "positioning"].contains(&t.id)).count();
    if stp >= 2 {
        parts.push(STP.to_string());
    }
    if !reading.facts.is_empty() {
        let facts: Vec<&str> = reading.facts.iter().map(|f| f.text).collect();
        parts.push(format!("About the course:\n{}", facts.join("\n")));
    }
    if parts.is_empty() {
        return Answer { text: format!("{LABEL}\n\n{NOT_IN_PACK}"), outcome: "not_covered", lesson: None };
    }
    Answer { text: format!("{LABEL}\n\n{}", parts.join("\n\n")), outcome: "answered", lesson: lesson_id }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::seeded_lessons;

    const ALL: Enabled = Enabled { topics: true, mix: true, course: true };

    fn ask(q: &str) -> Answer {
        MockProfessor::default().answer("c", q, &seeded_lessons(), None, ALL)
    }

    #[test]
    fn two_topics_named_are_both_explained_with_their_order() {
        let a = ask("In marketing, what is the difference between segmentation and targeting?");
        assert_eq!(a.outcome, "answered");
        assert!(a.text.starts_with(LABEL), "{}", a.text);
        assert!(a.text.contains("Market segmentation: Segmentation divides"), "{}", a.text);
        assert!(a.text.contains("Targeting: Targeting is choosing"), "{}", a.text);
        assert!(a.text.contains(STP), "{}", a.text);
        assert!(!a.text.contains("Branding"), "{}", a.text);
    }

    #[test]
    fn a_course_question_gets_only_its_fact() {
        let a = ask("when are office hours?");
        assert!(a.text.contains("Tuesdays and Thursdays, 14:00–15:00"), "{}", a.text);
        assert!(!a.text.contains("Grading"), "{}", a.text);
        let a =
            ask("Is there a late penalty if I submit the Marketing 101 homework a day after the deadline?");
        assert!(a.text.contains("10% off for each day late"), "{}", a.text);
        assert!(!a.text.contains("Office hours"), "{}", a.text);
    }

    #[test]
    fn what_the_pack_does_not_say_gets_the_honest_reply() {
        for q in ["help with the SWOT part of my marketing assigment", "what is a customer persona?"] {
            let a = ask(q);
            assert_eq!(a.outcome, "not_covered", "{q}: {}", a.text);
            assert!(a.text.contains(NOT_IN_PACK), "{q}");
        }
    }

    #[test]
    fn a_lesson_is_answered_from_its_own_text_then_its_topic() {
        let a = ask("what was the lesson 'what a price says' about?");
        assert_eq!(a.lesson.as_deref(), Some("lesson-price-says"));
        assert!(a.text.contains("From the lesson “What a price says”"), "{}", a.text);
        assert!(a.text.contains("A price is a message as well as a number."), "{}", a.text);
        assert!(a.text.contains("Pricing strategies: "), "{}", a.text);
        let which = ask("I didn't understand the lesson");
        assert_eq!(which.outcome, "asked_which");
        assert!(which.text.contains("“One product, different needs”"), "{}", which.text);
    }

    #[test]
    fn a_follow_up_on_a_lesson_is_about_that_lesson_whatever_its_words() {
        let p = MockProfessor::default();
        let a = p.answer(
            "c",
            "can you explain this again?",
            &seeded_lessons(),
            Some("lesson-positioning-map"),
            ALL,
        );
        assert_eq!(a.lesson.as_deref(), Some("lesson-positioning-map"));
        assert!(a.text.contains("A positioning map plots brands"), "{}", a.text);
    }

    #[test]
    fn another_example_follows_the_conversation_and_says_the_pack_has_one() {
        let p = MockProfessor::default();
        p.answer("c1", "what is branding?", &[], None, ALL);
        let again = p.answer("c1", "another example please", &[], None, ALL);
        assert!(again.text.contains("The course pack has one example of this"), "{}", again.text);
        assert!(again.text.contains("Two bottles of the same water"), "{}", again.text);
        let elsewhere = p.answer("c2", "another example please", &[], None, ALL);
        assert_eq!(elsewhere.outcome, "not_covered", "another conversation has no last topic");
    }

    #[test]
    fn a_disabled_skill_answers_nothing() {
        let p = MockProfessor::default();
        let topics_off = Enabled { topics: false, ..ALL };
        let a = p.answer("c", "what is positioning?", &seeded_lessons(), None, topics_off);
        assert_eq!(a.outcome, "not_covered");
        let a = p.answer("c", "what are the 4 Ps?", &seeded_lessons(), None, topics_off);
        assert!(a.text.contains("The marketing mix is"), "the mix skill still explains the mix: {}", a.text);
        let mix_off = Enabled { mix: false, ..ALL };
        let a = p.answer("c", "segmentation vs pricing?", &seeded_lessons(), None, mix_off);
        assert!(
            a.text.contains("Segmentation divides") && !a.text.contains("Pricing strategies"),
            "{}",
            a.text
        );
        let course_off = Enabled { course: false, ..ALL };
        let a = p.answer("c", "what are the office hours?", &seeded_lessons(), None, course_off);
        assert_eq!(a.outcome, "not_covered");
    }
}
