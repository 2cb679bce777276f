//! Whether a chat message asks for a form: the agent's decision among answer, clarify,
//! offer the form, or out of scope. [`Decide`] is the one seam: [`Heuristic`] is the
//! labelled deterministic stand-in (fixed and mock modes); a live model sits behind the
//! same trait later. Whatever decides, the workflow, its fields and its values stay code.

use serde::Serialize;

use crate::Workflow;

/// What the agent does with a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Answer it as a question (the agent's usual path).
    Answer,
    /// Ask what the student wants (too little was said).
    Clarify,
    /// Send this workflow's form.
    OfferForm,
    /// Not for this agent (another agent's transaction).
    OutOfScope,
}

/// The seam a live model will sit behind.
pub trait Decide {
    /// How it decides, as shown to people (`heuristic` for the stand-in).
    fn label(&self) -> &'static str;
    /// The decision for a message sent to the agent that owns `workflow`.
    fn decide(&self, workflow: Workflow, text: &str) -> Decision;
}

/// Keyword rules, labelled as such: a request verb and the workflow's noun offer the form
/// (`meet a tutor`, `book a tutoring session`, `arrange in-person help`, `reserve a study
/// room`, `is room B free`); negated verbs do not count (`I don't need a tutor`); the
/// other workflow's request is out of scope; a message of only generic words (`tutor`,
/// `study room`, `help`) asks for more; a question about the rules (`how far ahead can I
/// book a room?`, `what happens if we are late for our room?`) and anything else is answered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    pub const LABEL: &'static str = "heuristic";
}

/// [`Heuristic`]'s decision.
pub fn decide(workflow: Workflow, text: &str) -> Decision {
    Heuristic.decide(workflow, text)
}

impl Decide for Heuristic {
    fn label(&self) -> &'static str {
        Heuristic::LABEL
    }

    fn decide(&self, workflow: Workflow, text: &str) -> Decision {
        let words = words(text);
        let other = match workflow {
            Workflow::Tutoring => Workflow::Booking,
            Workflow::Booking => Workflow::Tutoring,
        };
        if asks_for(workflow, &words) && !asks_about_the_rules(&words) {
            return Decision::OfferForm;
        }
        if asks_for(other, &words) {
            return Decision::OutOfScope;
        }
        if words.iter().all(|w| GENERIC.contains(&w.as_str())) {
            return Decision::Clarify;
        }
        Decision::Answer
    }
}

/// Lower-case words; `in-person`, `one-on-one` and `face-to-face` stay one word.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .map(|w| w.trim_matches(['-', '\'', '’']).to_lowercase().replace('’', "'"))
        .filter(|w| !w.is_empty())
        .collect()
}

const VERBS: &[&str] = &[
    "meet",
    "meeting",
    "book",
    "booking",
    "schedule",
    "arrange",
    "reserve",
    "reservation",
    "request",
    "sign",
    "set",
    "see",
    "talk",
    "speak",
    "get",
    "need",
    "want",
    "find",
    "like",
    "grab",
    "hold",
    "free",
    "available",
    "availability",
    "open",
    "reservar",
    "agendar",
];
const NEGATORS: &[&str] = &["don't", "dont", "not", "no", "never", "without", "doesn't", "didn't", "won't"];
/// A negator covers a verb this many words after it.
const NEGATION_REACH: usize = 3;

fn nouns(workflow: Workflow) -> &'static [&'static str] {
    match workflow {
        Workflow::Tutoring => &[
            "tutor",
            "tutors",
            "tutoring",
            "session",
            "sessions",
            "appointment",
            "in-person",
            "one-on-one",
            "face-to-face",
            "tutoria",
        ],
        Workflow::Booking => &["room", "rooms", "sala", "space"],
    }
}

/// A question about how the service works ("how far ahead can I book a room?", "how long
/// can we keep a room?", "what happens if we are late for our booking?"): answered from
/// the agent's content, not with a form. "How do I book …" and "can I …" stay requests.
fn asks_about_the_rules(words: &[String]) -> bool {
    const ASKING: &[&str] = &["what", "what's", "whats", "when", "where", "which", "why", "who"];
    const HOW_MUCH: &[&str] = &["far", "long", "many", "much", "early", "late", "often"];
    match words {
        [first, second, ..] if first == "how" => HOW_MUCH.contains(&second.as_str()),
        [first, ..] => ASKING.contains(&first.as_str()),
        [] => false,
    }
}

/// A request verb not negated, and the workflow's noun.
fn asks_for(workflow: Workflow, words: &[String]) -> bool {
    let nouns = nouns(workflow);
    let has_noun = words.iter().any(|w| nouns.contains(&w.as_str()))
        || words.windows(2).any(|p| p[0] == "in" && p[1] == "person");
    let has_verb = words.iter().enumerate().any(|(i, w)| {
        VERBS.contains(&w.as_str())
            && !words[i.saturating_sub(NEGATION_REACH)..i].iter().any(|x| NEGATORS.contains(&x.as_str()))
    });
    // a session noun is not enough for a room: `session` does not book one
    has_noun && has_verb
}

/// Words that say nothing specific on their own.
const GENERIC: &[&str] = &[
    "a",
    "an",
    "the",
    "i",
    "i'd",
    "i'm",
    "im",
    "me",
    "my",
    "to",
    "want",
    "need",
    "like",
    "would",
    "please",
    "help",
    "hi",
    "hello",
    "hey",
    "can",
    "could",
    "you",
    "about",
    "for",
    "with",
    "some",
    "tutor",
    "tutors",
    "tutoring",
    "session",
    "sessions",
    "room",
    "rooms",
    "study",
    "group",
    "library",
    "book",
    "booking",
    "reserve",
    "reservation",
    "something",
    "question",
    "ok",
    "okay",
    "thanks",
    "is",
    "are",
    "there",
    "do",
    "any",
    "form",
    "hola",
];
