//! What the registry, the router and the Hub's conversation share of each specialist:
//! its status, its skills as the router matches them, and the words of a text. A leaf:
//! it knows configuration and nothing else of the Hub.

use std::sync::Arc;

use crate::config::Capability;

pub use vocab::registry::Status;

/// What the router sees of one specialist: its capability, status and last good skills.
#[derive(Debug, Clone)]
pub struct SpecialistView {
    pub id: String,
    pub name: String,
    pub capability: String,
    pub status: Status,
    pub skills: Arc<Vec<SkillIndex>>,
}

impl SpecialistView {
    /// Whether a question could go to it right now: ready, with at least one enabled
    /// skill on its current card. Only routable specialists are offered to a student.
    pub fn routable(&self) -> bool {
        self.status == Status::Ready && !self.skills.is_empty()
    }
}

/// A skill as the router matches it, tokenized once when its card is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillIndex {
    pub id: String,
    /// Each tag's words (a multi-word tag matches when all its words are asked).
    pub tags: Vec<Vec<String>>,
    pub name_words: Vec<String>,
    /// As the card states them: what the live router is shown (as data).
    pub name: String,
    pub description: String,
    pub tag_list: Vec<String>,
    /// Name, description, tags and examples as written: the classifier's training texts.
    pub texts: Vec<String>,
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "be", "to", "of", "in", "on", "at", "for", "with", "and", "or",
    "but", "i", "me", "my", "you", "your", "we", "it", "its", "this", "that", "can", "could", "would",
    "should", "do", "does", "did", "how", "what", "when", "where", "which", "who", "why", "please", "help",
    "need", "want", "like", "about", "some", "any", "there", "here", "have", "has", "get", "give", "tell",
    "know", "am", "so", "if", "not", "no", "yes", "hi", "hello", "hey", "thanks", "thank", "from", "by",
    "as", "up", "out", "just", "also", "will",
];

/// Lowercase words without punctuation, naive plural stemming, stop words dropped (the
/// keyword router's and the clarifying answers' reading; the classifier has its own).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 3 && !stem.ends_with('s') => stem.to_string(),
                _ => w,
            }
        })
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// Indexes a card's skills for routing.
pub fn index(skills: &[a2a::wire::AgentSkill]) -> Vec<SkillIndex> {
    skills
        .iter()
        .map(|s| SkillIndex {
            id: s.id.clone(),
            tags: s.tags.iter().map(|t| words(t)).filter(|w| !w.is_empty()).collect(),
            name_words: words(&s.name),
            name: s.name.clone(),
            description: s.description.clone(),
            tag_list: s.tags.clone(),
            texts: skill_texts(&s.name, &s.description, &s.tags, s.examples.as_deref().unwrap_or_default()),
        })
        .collect()
}

/// A skill's training texts: its name, description, each tag and each example.
pub fn skill_texts(name: &str, description: &str, tags: &[String], examples: &[String]) -> Vec<String> {
    [name, description]
        .into_iter()
        .chain(tags.iter().map(String::as_str))
        .chain(examples.iter().map(String::as_str))
        .filter(|t| !t.trim().is_empty())
        .map(String::from)
        .collect()
}

/// The configured capability as one pseudo-skill: what the router sees of a specialist
/// while no card of it has been accepted, so a question for it is "unavailable", not
/// "unsupported".
pub(crate) fn fallback(capability: &Capability) -> Arc<Vec<SkillIndex>> {
    Arc::new(vec![SkillIndex {
        id: capability.id.clone(),
        tags: std::iter::once(&capability.id)
            .chain(&capability.tags)
            .map(|t| words(t))
            .filter(|w| !w.is_empty())
            .collect(),
        name_words: words(&capability.name),
        name: capability.name.clone(),
        description: capability.description.clone(),
        tag_list: capability.tags.clone(),
        texts: skill_texts(&capability.name, &capability.description, &capability.tags, &capability.examples),
    }])
}
