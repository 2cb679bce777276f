//! Fixtures for the Hub's unit tests: a registry view built by hand, and configuration
//! with no environment.

use std::sync::Arc;

use a2a::wire::AgentSkill;

use crate::config::Config;
use crate::view::{SkillIndex, SpecialistView, Status, index};

pub(crate) fn skill(id: &str, tags: &[&str]) -> AgentSkill {
    AgentSkill {
        id: id.into(),
        name: id.replace('-', " "),
        description: String::new(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        examples: None,
        input_modes: None,
        output_modes: None,
        security_requirements: None,
    }
}

pub(crate) fn config() -> Config {
    Config::from_env(&|_| None).unwrap()
}

pub(crate) fn skills(list: Vec<AgentSkill>) -> Arc<Vec<SkillIndex>> {
    Arc::new(index(&list))
}

/// A Tutor with one calculus skill and a Library with hours and printing, both ready.
pub(crate) fn view() -> Vec<SpecialistView> {
    vec![
        SpecialistView {
            id: "tutor".into(),
            name: "Tutor Agent".into(),
            capability: "tutoring".into(),
            status: Status::Ready,
            skills: skills(vec![skill(
                "calculus-tutoring",
                &["calculus", "derivative", "integral", "limit"],
            )]),
        },
        SpecialistView {
            id: "library".into(),
            name: "Library Agent".into(),
            capability: "library".into(),
            status: Status::Ready,
            skills: skills(vec![
                skill("library-hours", &["hours", "opening"]),
                skill("printing", &["print", "price"]),
            ]),
        },
    ]
}
