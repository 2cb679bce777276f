//! The Library's answer to a question and its words: lines copied from one skill, a
//! question between two skills, or the fixed reply when nothing saved answers
//! ([`crate::extract`] decides which).

use crate::rank::SkillText;

/// The start of the reply when the saved information does not answer a question.
pub const NOT_COVERED: &str = "Sorry, that isn't in the Library's saved information.";
/// Where to ask instead, after [`NOT_COVERED`].
pub const ASK_THE_DESK: &str = "Please ask at the library's service desk.";
/// After the lines that answer part of a question, before where to ask.
pub const NOT_ALL_SAVED: &str = "The Library's saved information says no more than this; for the rest,";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Lines copied verbatim from one skill's content (in content order, deduplicated),
    /// after `lead` when the question named a day (which day it took); `partial` when a
    /// key term of the question is in no saved content ("the fine for a lost book"): the
    /// reply then says that the rest is not saved ([`NOT_ALL_SAVED`]).
    Lines { skill_id: String, lines: Vec<String>, lead: Option<String>, partial: bool },
    /// Two skills match equally well: ask which one (server-written question naming the
    /// skills by name, in the order they were given).
    Which { skill_ids: Vec<String>, question: String },
    /// No enabled skill covers the question: fixed server reply.
    NotCovered,
    /// The skill is the right one but no saved line answers the question: fixed reply.
    NotSaved { skill_id: String },
}

/// The reply text: the lead and lines joined with `"\n"`, the Which question, or
/// [`NOT_COVERED`] followed by where to ask and (not covered at all) what the Library can
/// help with (`skills`: the same enabled skills).
pub fn render(answer: &Answer, skills: &[SkillText<'_>]) -> String {
    match answer {
        Answer::Lines { lines, lead, partial, .. } => {
            let rest = partial.then(|| format!("{NOT_ALL_SAVED} {}", desk_lower()));
            lead.iter().chain(lines).chain(&rest).cloned().collect::<Vec<_>>().join("\n")
        }
        Answer::Which { question, .. } => question.clone(),
        Answer::NotSaved { .. } => format!("{NOT_COVERED} {ASK_THE_DESK}"),
        Answer::NotCovered if skills.is_empty() => {
            format!("{NOT_COVERED} No topics are enabled right now. {ASK_THE_DESK}")
        }
        Answer::NotCovered => {
            let names: Vec<&str> = skills.iter().map(display_name).collect();
            format!(
                "{NOT_COVERED} I can help with: {}. For anything else, {}",
                names.join("; "),
                desk_lower()
            )
        }
    }
}

fn desk_lower() -> String {
    let mut s = ASK_THE_DESK.to_string();
    s[..1].make_ascii_lowercase();
    s
}

pub(crate) fn display_name<'a>(skill: &SkillText<'a>) -> &'a str {
    match skill.name.trim() {
        "" => skill.id,
        name => name,
    }
}

/// "A or B", "A, B or C".
pub(crate) fn either<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}
