//! The specialists a Hub allows, as configured, and the ones it knows without a
//! configuration file (the same ones `config/hub.example.json` writes out; a test keeps
//! the two equal).

use serde::Deserialize;
use vocab::agents;

/// One allowlisted specialist and the public capability it serves.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpecialistConf {
    /// Identity the specialist registers with (`tutor`).
    pub id: String,
    /// The name its card must carry (`Tutor Agent`).
    pub card_name: String,
    /// Its trusted base URL (`http://127.0.0.1:41241`); its card is fetched from here.
    pub endpoint: String,
    /// The public capability on the Hub's card that this specialist serves.
    pub capability: Capability,
    /// Its public key (base64url Ed25519), when the operator pins it here; otherwise the
    /// first key it proves is pinned in the Hub's store (trust on first use).
    #[serde(default)]
    pub public_key: Option<keys::PublicKey>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capability {
    pub id: String,
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub examples: Vec<String>,
}

impl SpecialistConf {
    pub fn card_url(&self) -> String {
        format!("{}{}", self.endpoint.trim_end_matches('/'), a2a::CARD_PATH)
    }
}

/// The Tutor, the Library and the Marketing 101 Professor at their default ports, each
/// with its capability.
pub(super) fn default_specialists() -> Vec<SpecialistConf> {
    vec![
        SpecialistConf {
            id: agents::TUTOR.into(),
            card_name: "Tutor Agent".into(),
            endpoint: "http://127.0.0.1:41241".into(),
            capability: Capability {
                id: "tutoring".into(),
                name: "Tutoring".into(),
                description: "Help with course subjects, starting with calculus.".into(),
                tags: ["tutoring", "tutor", "calculus", "derivative", "integral", "limit", "math"]
                    .map(String::from)
                    .to_vec(),
                examples: [
                    "Can you help me with derivatives?",
                    "I have a calculus exam next week and need to practise",
                    "Can a tutor walk me through my math homework step by step?",
                ]
                .map(String::from)
                .to_vec(),
            },
            public_key: None,
        },
        SpecialistConf {
            id: agents::LIBRARY.into(),
            card_name: "Library Agent".into(),
            endpoint: "http://127.0.0.1:41242".into(),
            capability: Capability {
                id: "library".into(),
                name: "Library".into(),
                description: "The library: opening hours, borrowing, renewals, holds and interlibrary loans, your library account, course reserves, finding books, study rooms, printing and scanning.".into(),
                tags: [
                    "library",
                    "hours",
                    "borrow",
                    "renew",
                    "book",
                    "study room",
                    "printing",
                    "library account",
                    "catalogue",
                    "interlibrary loan",
                    "course reserve",
                ]
                .map(String::from)
                .to_vec(),
                examples: [
                    "When is the library open on Monday?",
                    "How do I log in to my library account?",
                    "Can I see my borrowing history in my library account?",
                    "What does an interlibrary loan cost?",
                    "Can I read e-journals from off campus?",
                    "Where are the course reserves kept?",
                    "Where are the chemistry books shelved?",
                    "How do I search the library catalogue?",
                    "Where is the circulation desk?",
                    "Can I use the library databases from home?",
                    "Is there a quiet reading room in the library?",
                    "Do you have a copy of Pride and Prejudice?",
                    "¿La biblioteca tiene el libro de economía para mi curso?",
                    "Library catalogue mein kisi book ka status kaise check karein?",
                    "Saan makikita ang libro sa library catalog?",
                    "Thư viện có mượn được sách từ thư viện trường khác không?",
                ]
                .map(String::from)
                .to_vec(),
            },
            public_key: None,
        },
        SpecialistConf {
            id: agents::PROFESSOR.into(),
            card_name: "Marketing 101 Professor".into(),
            endpoint: "http://127.0.0.1:41244".into(),
            capability: Capability {
                id: "marketing".into(),
                name: "Marketing 101".into(),
                description: "The Marketing 101 course: its concepts, its lessons and the course itself (syllabus, office hours, grading), answered by its professor.".into(),
                tags: ["marketing", "marketing 101", "segmentation", "branding", "pricing", "syllabus"]
                    .map(String::from)
                    .to_vec(),
                examples: [
                    "What is the difference between segmentation and targeting?",
                    "Can you explain the 4 Ps of marketing?",
                    "When are the Marketing 101 office hours?",
                ]
                .map(String::from)
                .to_vec(),
            },
            public_key: None,
        },
    ]
}
